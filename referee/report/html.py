"""``referee check --html FILE``: the run as one self-contained web page.

The page (``referee/templates/check_report.html.j2``, rendered with Jinja2, every value escaped)
holds the verdict and the run's figures (engine, seed, scenarios, seconds, rate, the first
failure), each divergence group with its shrunk scenario, its divergences, the model's explain
steps at fault, its clauses and replay command, the stale known entries, and, with ``--stats``,
the coverage per feature, event and clause. It loads nothing from anywhere: the styles and the
one small script are inline, so the file can be attached to a CI run and opened offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import rulebooks
from ..check.stats import CLAUSE_THRESHOLD, EVENT_THRESHOLD

TEMPLATE = "check_report.html.j2"
TEMPLATES = Path(__file__).with_name("templates")

_VERDICTS = {
    "pass": ("PASS", "pass"),
    "mismatch": ("FAIL: the engine disagrees with the model", "fail"),
    "fault": ("FAIL: engine fault", "fail"),
    "model-error": ("ERROR: the model could not run a scenario", "fail"),
    "nondeterministic": ("FAIL: non-deterministic engine", "fail"),
    "interrupted": ("INTERRUPTED: the run stopped before its end", "warn"),
    "stale-known": ("FAIL: a known divergence matched nothing (--strict-known)", "fail"),
}


def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pretty"] = lambda value: json.dumps(value, indent=2, sort_keys=False)
    env.filters["percent"] = lambda share: f"{share:.1%}"
    return env


def _compact(scenario: dict[str, Any] | None) -> dict[str, Any] | None:
    if scenario is None:
        return None
    try:
        return rulebooks.of_scenario(scenario).compact(scenario)
    except Exception:  # a scenario the rulebooks cannot read is shown as it is
        return scenario


def _group_view(group: Any) -> dict[str, Any]:
    return {"key": group.key, "count": group.count, "known": group.known.reason if group.known else None,
            "reproducible": group.reproducible, "divergences": [d.to_json() for d in group.divergences],
            "first": group.divergences[0].describe() if group.divergences else "", "scenario": group.scenario,
            "compact": _compact(group.scenario), "explain": group.explain, "clauses": group.clauses,
            "replay": group.replay, "shrink_calls": group.shrink_calls, "behind": getattr(group, "behind", None),
            "merged_with": [{**m, "compact": _compact(m.get("scenario"))} for m in getattr(group, "merged_with", ())]}


def _single_group(report: Any) -> dict[str, Any]:
    """A run that stopped at its first divergence, shown as its one group (keyed as ``--keep-going`` keys it)."""
    from ..check.harness import _group_key_of

    first = report.divergences[0]
    return {"key": _group_key_of(report.scenario, report.divergences), "count": 1, "known": None, "reproducible": True,
            "divergences": [d.to_json() for d in report.divergences], "first": first.describe(),
            "scenario": report.scenario, "compact": _compact(report.scenario), "explain": report.explain,
            "clauses": report.clauses, "replay": report.replay, "shrink_calls": report.shrink_calls}


def _coverage(stats: Any) -> dict[str, Any] | None:
    if stats is None:
        return None
    data = stats.to_json()
    rare = data["rare"]
    expected = stats.expected_clauses()
    clauses = [{"name": c, "scenarios": stats.clauses.get(c, 0), "share": stats._share(stats.clauses.get(c, 0)),
                "rare": c in rare["clauses"]} for c in expected]
    clauses += [{"name": c, "scenarios": n, "share": stats._share(n), "rare": False}
                for c, n in sorted(stats.clauses.items()) if c not in expected]

    def rows(counter: Any, flagged: list[str]) -> list[dict[str, Any]]:
        return [{"name": k, "scenarios": v, "share": stats._share(v), "rare": k in flagged}
                for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]

    return {"scenarios": stats.scenarios, "features": rows(stats.features, []), "events": rows(stats.events, rare["events"]),
            "clauses": clauses, "clauses_seen": sum(1 for c in expected if stats.clauses.get(c)),
            "clauses_expected": len(expected), "rare": rare,
            "thresholds": {"events": EVENT_THRESHOLD, "clauses": CLAUSE_THRESHOLD}}


def render_html(report: Any) -> str:
    """The report as one self-contained HTML page."""
    verdict, tone = _VERDICTS.get(report.status, (report.status, "fail"))
    if report.groups:
        groups = [_group_view(g) for g in report.groups]
    elif report.divergences and report.scenario is not None:
        groups = [_single_group(report)]
    else:
        groups = []
    rate = report.scenarios_run / report.seconds if report.seconds > 0 else None
    return _environment().get_template(TEMPLATE).render(
        report=report, verdict=verdict, tone=tone, groups=groups, rate=rate, coverage=_coverage(report.stats),
        compared=report._compared(), features=report._features(), kinds=", ".join(report.kinds),
        fault=report.fault.describe() if report.fault is not None else None,
        stale=[{"what": e.key or e.clause, "reason": e.reason, "source": e.source} for e in report.stale_known],
        known=sum(1 for g in report.groups if g.known))


def write_html(path: str | Path, report: Any) -> None:
    """Write the page to ``path`` (its folder made); an OSError when it cannot be written."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_html(report), encoding="utf-8")
