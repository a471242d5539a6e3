"""One typed report of a ``referee check`` run, whatever its mode, read by every renderer of it.

A run ends in one of three shapes: stopped at its first failure (the report's own ``scenario``,
``divergences`` and ``replay``), ``--keep-going`` (its ``groups``), or a pass (neither); it may also
have been interrupted, or be the merge of many runs' JSON reports (``referee report merge``). A
:class:`ReportModel` holds all of them in one shape: the verdict, the groups (a first failure is its
one group, keyed as ``--keep-going`` keys it), the fault or error, the counts, the replay command,
the coverage, and the public JSON (:meth:`ReportModel.to_json`, the keys of ``referee check --json``).
The ``--html`` page (``referee.report.html``) and the ``--junit`` file (``referee.report.junit``)
render only this model, so a group has the same fields in every mode. The text report is still
``CheckReport.text`` (``referee.check.harness``); :meth:`ReportModel.text` hands it on.

``referee.report.files.write_report_files`` writes the HTML and JUnit files of a run from it and
never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .. import rulebooks

#: Each status's verdict, as the page and the JUnit file say it, and its tone (``pass``, ``fail``, ``warn``).
VERDICTS = {
    "pass": ("PASS", "pass"),
    "mismatch": ("FAIL: the engine disagrees with the model", "fail"),
    "fault": ("FAIL: engine fault", "fail"),
    "model-error": ("ERROR: the model could not run a scenario", "fail"),
    "nondeterministic": ("FAIL: non-deterministic engine", "fail"),
    "interrupted": ("INTERRUPTED: the run stopped before its end", "warn"),
    "stale-known": ("FAIL: a known divergence matched nothing (--strict-known)", "fail"),
}
#: The modes a report is in: what shape of run it comes from.
MODES = ("first-failure", "keep-going", "pass", "interrupted", "merged")


@dataclass(frozen=True)
class ReportGroup:
    """One distinct divergence, in every mode: its key, count, first divergence, shrunk scenario and replay."""

    key: str
    count: int
    first: str
    scenario: dict[str, Any] | None
    compact: dict[str, Any] | None
    divergences: list[dict[str, Any]]
    replay: str
    clauses: list[str] = field(default_factory=list)
    explain: list[dict[str, Any]] = field(default_factory=list)
    #: The known entry's reason when a known divergence matched the group, else None.
    known: str | None = None
    reproducible: bool = True
    shrink_calls: int = 0
    behind: str | None = None
    #: The clause the group's key names (the rule it breaks), and what the grouping is unsure of about it.
    clause_at_fault: str | None = None
    unsure: list[str] = field(default_factory=list)
    #: The groups merged into this one, each with its own key, count, first divergence, scenario and replay.
    merged_with: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class ReportModel:
    """A run's report in one shape (see the module docstring)."""

    status: str
    mode: str
    verdict: str
    tone: str
    engine: str
    seed: int
    seeds: list[int]
    scenarios_run: int
    seconds: float
    kinds: str
    compared: str
    features: str
    groups: list[ReportGroup]
    replay: str
    replay_engine: str = ""
    examples_requested: int | None = None
    batch: int = 1
    workers: int = 1
    first_failure_after: int | None = None
    first_failure_seconds: float | None = None
    fault: str | None = None
    error: str = ""
    stale: list[dict[str, str]] = field(default_factory=list)
    coverage: dict[str, Any] | None = None
    json: dict[str, Any] = field(default_factory=dict, repr=False)
    #: The text report (``CheckReport.text`` of the report this model was built from).
    text_of: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    @property
    def known(self) -> int:
        """How many groups a known divergence matched."""
        return sum(1 for g in self.groups if g.known)

    @property
    def rate(self) -> float | None:
        """Scenarios per second (None: no time measured)."""
        return self.scenarios_run / self.seconds if self.seconds > 0 else None

    def to_json(self) -> dict[str, Any]:
        """The public JSON report (``referee check --json``; a merged report's own keys for a merge)."""
        return dict(self.json)

    def text(self) -> str:
        """The text report for people, as ``referee check`` prints it."""
        if self.text_of is None:
            raise ValueError("this report was built without its text")
        return self.text_of()


def report_model(source: Any) -> ReportModel:
    """The model of a ``CheckReport``, of a merged JSON report (a dict) or a model itself."""
    if isinstance(source, ReportModel):
        return source
    if isinstance(source, dict):
        return model_of_merged(source)
    return model_of(source)


def model_of(report: Any) -> ReportModel:
    """The model of a :class:`referee.check.harness.CheckReport` (any status, any mode)."""
    return _model(report, report.to_json(), merged=False)


def model_of_merged(merged: dict[str, Any]) -> ReportModel:
    """The model of a merged report (``referee.report.merge.merge``): its JSON as it is, its words as a check's."""
    from .merge import as_check_report

    return _model(as_check_report(merged), merged, merged=True)


def _model(report: Any, data: dict[str, Any], merged: bool) -> ReportModel:
    verdict, tone = VERDICTS.get(data["status"], (data["status"], "fail"))
    return ReportModel(
        status=data["status"], mode=_mode(data, merged), verdict=verdict, tone=tone, engine=data["engine"],
        seed=data["seed"], seeds=list(data.get("seeds") or [data["seed"]]), scenarios_run=data["scenarios_run"],
        seconds=data["seconds"], kinds=", ".join(data["action_kinds"]), compared=report._compared(),
        features=report._features(), groups=_groups(report, data), replay=data.get("replay") or "",
        replay_engine=data.get("replay_engine") or "", examples_requested=data.get("examples_requested"),
        batch=data.get("batch") or 1, workers=data.get("workers") or 1,
        first_failure_after=data.get("first_failure_after"), first_failure_seconds=data.get("first_failure_seconds"),
        fault=_fault(data.get("fault")), error=data.get("error") or "", stale=_stale(data.get("stale_known") or []),
        coverage=coverage(report.stats), json=data, text_of=report.text)


def _mode(data: dict[str, Any], merged: bool) -> str:
    """Which of :data:`MODES` the report is in."""
    if merged:
        return "merged"
    if data["status"] == "interrupted":
        return "interrupted"
    if data["groups"] or data.get("stale_known"):
        return "keep-going"
    return "pass" if data["status"] == "pass" else "first-failure"


def _groups(report: Any, data: dict[str, Any]) -> list[ReportGroup]:
    """The groups of a ``--keep-going`` run (or a merge); a run stopped at its first divergence as its one group."""
    if data["groups"]:
        return [group_of_json(g) for g in data["groups"]]
    if data.get("divergences") and data.get("scenario") is not None:
        return [_first_group(report, data)]
    return []


def group_of_json(data: dict[str, Any]) -> ReportGroup:
    """A group as its JSON has it (``Group.to_json``, a merged report's group)."""
    divergences = list(data.get("divergences") or [])
    known = data.get("known")
    return ReportGroup(
        key=data["key"], count=data["count"], first=_describe(divergences[0]) if divergences else "",
        scenario=data.get("scenario"), compact=_compact(data.get("scenario")), divergences=divergences,
        replay=data.get("replay") or "", clauses=list(data.get("clauses") or []),
        explain=list(data.get("explain") or []), known=known.get("reason", "") if isinstance(known, dict) else None,
        reproducible=data.get("reproducible", True), shrink_calls=data.get("shrink_calls") or 0,
        behind=data.get("behind"), clause_at_fault=data.get("clause_at_fault"), unsure=list(data.get("unsure") or ()),
        merged_with=[{**m, "compact": _compact(m.get("scenario"))} for m in data.get("merged_with") or ()])


def _first_group(report: Any, data: dict[str, Any]) -> ReportGroup:
    """A run stopped at its first divergence, as its one group (keyed as ``--keep-going`` keys it)."""
    shrink = data.get("shrink") or {}
    return group_of_json({
        "key": _first_key(report, data), "count": 1, "scenario": data["scenario"], "divergences": data["divergences"],
        "clauses": data.get("clauses"), "explain": data.get("explain"), "replay": data.get("replay"),
        "shrink_calls": shrink.get("calls", 0)})


def _first_key(report: Any, data: dict[str, Any]) -> str:
    """The group key of the first divergence (the model run on the scenario); its path when that cannot be had."""
    from ..check.grouping.api import group_key_of

    divergences = report.divergences or [_divergence(d) for d in data["divergences"]]
    try:
        return group_key_of(data["scenario"], divergences)
    except Exception:  # a scenario the model cannot run again still has its divergence shown, keyed by its path
        return data["divergences"][0].get("path", "")


def _divergence(data: dict[str, Any]) -> Any:
    from ..rulebook import Divergence

    return Divergence(data.get("where", ""), data.get("path", ""), data.get("model"), data.get("engine"))


def _describe(data: dict[str, Any]) -> str:
    return _divergence(data).describe()


def _compact(scenario: dict[str, Any] | None) -> dict[str, Any] | None:
    """The scenario with what is at its protocol default left out; as it is when no rulebook can read it."""
    if scenario is None:
        return None
    try:
        return rulebooks.of_scenario(scenario).compact(scenario)
    except Exception:  # a scenario the rulebooks cannot read is shown as it is
        return scenario


def _fault(data: dict[str, Any] | None) -> str | None:
    """An engine fault in words (its kind, message and detail's head and tail)."""
    if not data:
        return None
    from ..engines.transports import EngineFault

    return EngineFault(data.get("kind", ""), data.get("message", ""), data.get("scenario"),
                       data.get("detail") or "", located=data.get("located")).describe()


def _stale(entries: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The known entries that matched nothing: what each names, why, and where it is written."""
    return [{"what": e.get("key") or e.get("clause") or "", "reason": e.get("reason", ""), "source": e.get("source", "")}
            for e in entries]


def coverage(stats: Any) -> dict[str, Any] | None:
    """``--stats`` coverage as rows per feature, event and clause (None: not counted)."""
    if stats is None:
        return None
    from ..check.stats import CLAUSE_THRESHOLD, EVENT_THRESHOLD

    rare = stats.to_json()["rare"]
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
