"""How a campaign that stopped is reported: a mismatch shrunk and explained, a fault, an interruption, a flaky
engine, or enough groups found (``--max-divergences``)."""

from __future__ import annotations

from typing import Any

from . import failure_store, interrupts
from .compare import Divergence
from ..engines.transports import Engine, EngineFault
from ..trail import cut
from .grouping.attribution import explain_at_fault
from .grouping.keyed_shrink import _shrink, _store_shrunk
from .judging import _public, engine_answers, judge, model_trail
from .outcome import CheckOptions, CheckReport, Stop
from .replays import _store_failing_seed


def _report_stop(campaign: Any, stop: Stop, run: Any) -> None:
    """A fault or a model error: reported with its scenario, unshrunk."""
    report = campaign.report
    report.status = stop.reason
    report.scenario = _public(stop.scenario)
    if stop.reason == "fault":
        report.fault = stop.detail
        stop.detail.scenario = report.scenario
    else:
        report.error = stop.detail


def _report_interrupted(campaign: Any, stop: Stop, run: Any) -> None:
    """Stopped by a signal: the failure found before it, if any, as found (it is in the failure store already)."""
    report = campaign.report
    report.status = "interrupted"
    if campaign.pending and not campaign.options.keep_going:
        public, verdict, detail = campaign.pending[0]
        report.scenario = public
        if verdict != "mismatch":
            report.fault = detail
            return
        report.divergences = detail
        try:  # the model alone, quick: the trail as a finished run shows it
            report.trail = cut(model_trail(public), detail[0].event_index if detail[0].where == "events" else None)
        except Exception:  # a courtesy (a second signal ends the process at once anyway)
            report.trail = []


def _report_enough(campaign: Any, stop: Stop, run: Any) -> None:
    """--max-divergences distinct divergences found: the groups are reported by ``close_campaign``."""


def _report_flaky(campaign: Any, stop: Stop, run: Any) -> None:
    _report_nondeterministic(campaign)


def _report_mismatch(campaign: Any, stop: Stop, run: Any) -> None:
    """The first divergence: stored, shrunk, explained. The verdict and the scenario are set first, so that a
    signal during the rest (shrinking, the trail) never loses the found bug: it is reported as found."""
    engine, options, report = campaign.engine, campaign.options, campaign.report
    scenario, divergences = campaign.failure
    report.status, report.scenario, report.divergences = "mismatch", _public(scenario), divergences
    _store_failing_seed(run, options, campaign)
    try:
        if _shrinks(campaign, scenario):
            scenario, divergences = _shrink_unless_interrupted(engine, scenario, divergences, options, report)
            _store_shrunk(campaign, campaign.failure[0], scenario, divergences)
        report.scenario, report.divergences = _public(scenario), divergences
        first = divergences[0]
        try:
            report.trail = cut(model_trail(scenario), first.event_index if first.where == "events" else None)
        except Exception as error:  # the trail is a courtesy; never lose the report for it
            report.error = f"(clause trail unavailable: {error})"
        report.explain = explain_at_fault(scenario, first)
    except KeyboardInterrupt:
        report.error = report.error or "stopped by a signal while the divergence was being shrunk and explained"


def _report_nondeterministic(campaign: Any) -> None:
    """A divergence that did not come back when Hypothesis ran the same scenario again: the
    engine keeps state across scenarios, or is random. Reported with every answer it gave to
    that scenario (and one more run), unshrunk: shrinking needs a reproducible failure."""
    engine, options, report = campaign.engine, campaign.options, campaign.report
    scenario, divergences = campaign.failure
    public = _public(scenario)
    seen = [(sent, answer) for sent, answer in campaign.answers if _public(sent) == public]
    again = {**public, "id": scenario.get("id")}
    seen.append((again, engine_answers(engine, [again])[0]))
    report.status = "nondeterministic"
    report.scenario = public
    report.divergences = divergences
    for n, (sent, answer) in enumerate(seen):
        verdict, _ = judge(sent, answer, options.comparison)
        shown = answer.to_json() if isinstance(answer, EngineFault) else answer
        label = "first run" if n == 0 else "Hypothesis' rerun" if n < len(seen) - 1 else "one more run"
        report.observations.append({"run": label, "verdict": "agrees with the model" if verdict == "ok" else verdict,
                                    "answer": shown})
    try:
        first = divergences[0]
        report.trail = cut(model_trail(scenario), first.event_index if first.where == "events" else None)
    except Exception as error:  # the trail is a courtesy; never lose the report for it
        report.error = f"(clause trail unavailable: {error})"


def _shrinks(campaign: Any, scenario: dict[str, Any]) -> bool:
    """Whether the failing scenario is shrunk: not when shrinking is off, a signal was received, or it is a stored
    failure that was shrunk already."""
    if not campaign.options.shrink or interrupts.received() is not None:
        return False
    return not (campaign.report.failure_stored and failure_store.scenario_name(scenario) in campaign.shrunk_before)


def _shrink_unless_interrupted(engine: Engine, scenario: dict[str, Any], divergences: list[Divergence],
                               options: CheckOptions, report: CheckReport) -> tuple[dict[str, Any], list[Divergence]]:
    """The shrunk failing scenario; the scenario as found when a signal stops the shrinking (never lost)."""
    from .shrink import size

    before = size(_public(scenario))
    try:
        scenario, divergences, report.shrink_calls = _shrink(engine, scenario, divergences, options)
    except KeyboardInterrupt:
        report.error = "shrinking was interrupted: the scenario is the failing one as found, unshrunk"
        return scenario, divergences
    report.shrink_sizes = (before, size(_public(scenario)))
    return scenario, divergences
