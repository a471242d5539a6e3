"""Replaying one scenario (``--replay``), the failure files a run writes, and the command that replays a failure."""

from __future__ import annotations

import time
from typing import Any

from .. import rulebooks
from ..engines.transports import Engine
from ..protocol import ProtocolError, decode_scenario
from ..rulebooks import default_kinds
from ..trail import cut
from .failure_files import _replay
from .grouping.api import name_the_fault
from .grouping.attribution import explain_at_fault
from .judging import engine_answers, judge, model_trail
from .outcome import CheckOptions, CheckReport, _is_seeded


def check_profile(scenario: dict[str, Any], features: frozenset[str] | None, path: str = "scenario") -> None:
    """Refuse a scenario that uses a feature the profile leaves out (its fields are not even compared)."""
    if features is None:
        return
    used = sorted(rulebooks.of_scenario(scenario, path).features_used(scenario) - features)
    if used:
        raise ProtocolError(path, f"uses {', '.join(used)}, which the profile leaves out (--without / --features): "
                            "an engine under this profile is never sent it")


def interrupted_report(engine: Engine, options: CheckOptions) -> CheckReport:
    """The report of a run a signal stopped before its first scenario (or outside :func:`check`'s own
    handling): nothing found, the seed and the command that runs it again."""
    kinds = tuple(options.kinds or default_kinds())
    report = CheckReport("interrupted", engine.name, options.seed or 0, options.comparison, kinds=kinds,
                         features=options.features, swarm=options.swarm, examples_requested=options.examples)
    report.replay = _replay(options, report.seed, None)
    return report


def replay(engine: Engine, scenario: dict[str, Any], options: CheckOptions) -> CheckReport:
    """Run one stored scenario (``--replay FILE``) and report as ``check`` does."""
    start = time.perf_counter()
    actions = scenario.get("actions")
    kinds = tuple(sorted({a["kind"] for a in actions if isinstance(a, dict) and isinstance(a.get("kind"), str)}
                         if isinstance(actions, list) else ()))
    report = CheckReport("pass", engine.name, options.seed or 0, options.comparison, kinds=kinds, scenario=scenario,
                         features=options.features, swarm=options.swarm)
    sent = {**scenario, "id": "replay"}
    try:  # an invalid file never reaches the engine (a 100,000-deep value could not even be sent)
        decode_scenario(sent)
        check_profile(sent, options.features)
    except ProtocolError as error:
        report.status, report.error = "model-error", f"invalid scenario: {error}"
        report.seconds = time.perf_counter() - start
        return report
    answer = engine_answers(engine, [sent])[0]
    verdict, detail = judge(sent, answer, options.comparison)
    report.scenarios_run = 1
    report.seconds = time.perf_counter() - start
    if verdict == "mismatch":
        report.status, report.divergences = "mismatch", detail
        first = detail[0]
        report.trail = cut(model_trail(sent), first.event_index if first.where == "events" else None)
        report.explain = explain_at_fault(sent, first)
        report.clause_at_fault = name_the_fault(sent, detail)
    elif verdict == "fault":
        report.status, report.fault = "fault", detail
    elif verdict == "model-error":
        report.status, report.error = "model-error", detail
    return report


def _store_failing_seed(run: Any, options: CheckOptions, campaign: Any) -> None:
    """Seeded generation: store the failing scenario's own seed in the example database, in place of its group's.

    Hypothesis stored the group's seed ``s``; the failure was its ``k``-th scenario, whose group is
    drawn from its own seed (``referee.check.streams``). Stored instead, a later run (any ``--seed``, any
    ``--examples``) replays the failing scenario first. Nothing is written when the database is
    off or read-only, or the entry cannot be written (the group's entry then stays).
    """
    seed, group = campaign.failing_seed, campaign.failing_group
    if not _is_seeded(options) or seed is None or group is None or options.keep_going:
        return
    try:
        from hypothesis.database import choices_to_bytes
        from hypothesis.internal.reflection import function_digest

        database = campaign.database
        if database is None:
            return
        key = function_digest(run)
        database.save(key, choices_to_bytes((seed,)))
        if seed != group:
            database.delete(key, choices_to_bytes((group,)))
    except Exception:  # a courtesy: the group's own entry still replays the failure
        return


def _replays(run: Any, database: Any, options: CheckOptions) -> list[int]:
    """The seeds stored under this run's key (``_store_failing_seed``) and its secondary key, as Hypothesis' replay
    phase sees them (a few: ``failure_store.ReplayBounded``): each is drawn as that one scenario, off the budget."""
    if not _is_seeded(options):
        return []
    from hypothesis.internal.reflection import function_digest

    from .streams import stored_seeds

    key = function_digest(run)
    return stored_seeds(database, key) + stored_seeds(database, key + b".secondary")


def _stored_count(run: Any, database: Any) -> int:
    """How many entries Hypothesis' replay phase will see under this run's key and its secondary key (at most
    ``failure_store.REPLAY_LIMIT`` each: :class:`referee.check.failure_store.ReplayBounded`)."""
    if database is None:
        return 0
    from hypothesis.internal.reflection import function_digest

    key = function_digest(run)
    try:
        return sum(1 for name in (key, key + b".secondary") for _ in database.fetch(name))
    except Exception:  # a courtesy: the run itself reads the database again, and reports what fails there
        return 0
