"""``referee check --html FILE``: the run as one self-contained web page.

The page (``referee/report/templates/check_report.html.j2``, rendered with Jinja2, every value
escaped) is rendered from the report model (``referee.report.model``) and nothing else, so a first
failure, a ``--keep-going`` run, a pass, an interrupted run and a merged report give the template
groups of one shape. It holds the verdict and the run's figures (engine, seed, scenarios, seconds,
rate, the first failure), each divergence group with its shrunk scenario, its divergences, the
model's explain steps at fault, its clauses and replay command, the stale known entries, and, with
``--stats``, the coverage per feature, event and clause. It loads nothing from anywhere: the styles
and the one small script are inline, so the file can be attached to a CI run and opened offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .model import report_model

TEMPLATE = "check_report.html.j2"
TEMPLATES = Path(__file__).with_name("templates")


def environment() -> Any:
    """The Jinja2 environment of every page under ``templates/`` (autoescaped, undefined names an error)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pretty"] = lambda value: json.dumps(value, indent=2, sort_keys=False)
    env.filters["percent"] = lambda share: f"{share:.1%}"
    return env


def render_html(report: Any) -> str:
    """The report (a model, a ``CheckReport`` or a merged JSON report) as one self-contained HTML page."""
    return environment().get_template(TEMPLATE).render(report=report_model(report))


def write_html(path: str | Path, report: Any) -> None:
    """Write the page to ``path`` (its folder made); an OSError when it cannot be written. A caller that must not
    fail on it uses :func:`referee.report.files.write_report_files`."""
    text = render_html(report)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
