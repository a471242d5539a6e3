"""The files of a ``referee check`` report (``--html``, ``--junit``), written so that the report is never lost.

:func:`write_report_files` builds the report model (``referee.report.model``), renders each file asked for
and writes it, and never raises: whatever goes wrong (a defect in the report's data, a template error, a
full disk) comes back as one warning naming the file, so the caller still prints the text report and exits
with the verdict's code. A file whose rendering failed is not written at all (no half-written page).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import html as html_page, junit as junit_file
from .model import ReportModel, report_model


def write_report_files(source: Any, html: str | Path | None = None, junit: str | Path | None = None) -> list[str]:
    """Write the ``--html`` page and the ``--junit`` file of a report (a ``CheckReport``, a merged JSON report or
    a model); never raises. What could not be built or written comes back, one warning each, naming the file."""
    wanted = [(flag, path) for flag, path in (("--html", html), ("--junit", junit)) if path]
    if not wanted:
        return []
    try:
        model = report_model(source)
    except Exception as error:  # any defect in the report's own data: no file, but never a lost verdict
        return [f"{flag} {path}: not written: the report could not be read ({_said(error)})" for flag, path in wanted]
    return [warning for flag, path in wanted if (warning := _write_one(flag, path, model))]


def _write_one(flag: str, path: str | Path, model: ReportModel) -> str | None:
    """Render and write one file (the rendering first: a failed one leaves no half-written file); its warning."""
    try:
        text = html_page.render_html(model) if flag == "--html" else junit_file.render_check_junit(model)
        _write_text(Path(path), text)
    except OSError as error:
        return f"{flag} {path}: cannot write: {error.strerror or error}"
    except Exception as error:  # a renderer's defect: the text report and the verdict are still printed
        return f"{flag} {path}: not written: rendering it failed ({_said(error)})"
    return None


def _said(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error)[:300]}"


def _write_text(target: Path, text: str) -> None:
    """The one place a report file is written (a test stands a full disk in for it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
