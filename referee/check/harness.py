"""``referee check``: differential testing of an engine against the model.

Hypothesis draws scenarios (``referee.check.strategies``) in batches; the engine answers each
batch; the model answers each scenario; the two observations are compared
(``referee.check.compare``). The first mismatch fails the Hypothesis test, which shrinks the
batch to a single minimal scenario, and the report gives that scenario, the first
diverging field or event, both values, and the clause trail the model applied up to that
point (``referee.trail``, recorded only for the report).

An engine fault (crash, hang, garbage, schema violation, missing field) stops the run at
once, unshrunk: shrinking a hang would cost a timeout per step. It is reported with its
scenario. Every failing scenario is written ahead to the failure store (``referee.check.failure_store``,
``.referee/failures/store``) the moment it is judged, and every run replays the store first, so a found
bug is never lost; Hypothesis' example database (``.referee/examples``) keeps its own role.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

from .. import rulebooks
from . import failure_store, interrupts
from .compare import Divergence
from ..engines.transports import Engine
from ..protocol import ProtocolError, decode_scenario
from ..rulebooks import ACTION_KINDS, default_kinds
from .examples_database import _database, _degraded_warning, _digest, _key_database
from .failure_files import _replay, _replay_engine, failures_dir
from .grouping.api import file_failure, groups_left, name_the_fault, settle_groups
from .judging import _public, engine_answers, expect, judge, model_observation, model_trail, send_and_expect
from .outcome import CheckOptions, CheckReport, Stop, _is_seeded, _said, compact_scenario, new_run_id
from .replays import _replays, _stored_count, check_profile, interrupted_report, replay
from .verdicts import _report_enough, _report_flaky, _report_interrupted, _report_mismatch, _report_stop

__all__ = ["CheckOptions", "CheckReport", "check", "compact_scenario", "engine_answers", "expect", "failures_dir",
           "interrupted_report", "judge", "model_observation", "model_trail", "new_run_id", "replay"]



# --------------------------------------------------------------------------------------
# The model side
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# The run: a campaign, its stages, and how it stops
# --------------------------------------------------------------------------------------
#
# draw (Hypothesis: one seed per group of batches, or every choice) -> mark -> send + expect (the engine
# answers while the model runs) -> judge -> group (--keep-going) | stop -> shrink -> explain at fault -> report.
# Every stage returns; a stage that ends the run returns a ``Stop``. Only the Hypothesis example
# (``_example``) turns a Stop into an exception, because that is the only way Hypothesis learns of it:
# a divergence fails the example (so the example database keeps it and Hypothesis reruns it), anything
# else aborts Hypothesis at once (no rerun: a hang would cost another timeout). ``check`` unwraps it.


class _Diverged(AssertionError):
    """A Stop(``mismatch``) crossing Hypothesis: it fails the example, which the example database keeps."""

    def __init__(self, stop: Stop) -> None:
        super().__init__(stop.detail[0].describe() if stop.detail else "mismatch")
        self.stop = stop


class _Halted(BaseException):
    """Any other Stop crossing Hypothesis: not an ``Exception``, so Hypothesis stops at once, without a rerun."""

    def __init__(self, stop: Stop) -> None:
        super().__init__(stop.reason)
        self.stop = stop


@dataclass
class Campaign:
    """One run of ``check``: its engine and options, the counts so far, and what it found."""

    engine: Engine
    options: CheckOptions
    kinds: tuple[str, ...]
    seed: int
    batch: int
    #: --examples rounded up to whole batches.
    total: int
    start: float
    report: CheckReport
    count: int = 0
    serial: int = 0
    #: Scenarios and seconds until the first failure.
    first: tuple[int, float] | None = None
    #: The first divergence (scenario, divergences), and the seeds of its scenario and of its group.
    failure: tuple[dict[str, Any], list[Divergence]] | None = None
    failing_seed: int | None = None
    failing_group: int | None = None
    #: Every answer to a failing batch (Hypothesis runs it again): a non-deterministic engine shows in them.
    answers: list[tuple[dict[str, Any], Any]] = field(default_factory=list)
    #: ``--keep-going``: group key -> {scenario, divergences, count, symptoms}.
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: ``--keep-going``: group key -> (its shrunk group, the key it settles on: ``_merged_count``).
    settled: dict[str, tuple[Any, str]] = field(default_factory=dict)
    #: The scenario count at which --max-divergences merged groups were found (None: the run was not capped).
    capped: int | None = None
    #: The example database the run reads and writes (``_database``).
    database: Any = None
    #: Entries stored under this run's key by earlier runs (Hypothesis replays them first), the seeded
    #: generation's stored failing seeds among them, and the Hypothesis examples run so far.
    stored: int = 0
    replays: frozenset[int] = frozenset()
    examples: int = 0
    #: A fault that needs the stream (``referee.check.crash_site``): the batch's scenarios up to the one the engine
    #: died on, which the replay input sends.
    fault_sequence: list[dict[str, Any]] | None = None
    #: The failure store (``referee.check.failure_store``; None: ``--database ''``), and the failing scenarios met
    #: (with their verdict and detail), noted before they are written: a write a signal cut short is done at the end.
    store: Any = None
    pending: list[tuple[dict[str, Any], str, Any]] = field(default_factory=list)
    #: Scenarios run that were stored failures (the store's, Hypothesis' stored entries): outside the budget.
    stored_run: int = 0
    #: True while the store's entries are replayed, and the names of those the engine passed (in the batch).
    replaying: bool = False
    passed: set[str] = field(default_factory=set)
    #: The names of the store's entries that are shrunk scenarios already: one that fails again is not shrunk again
    #: (the same failure reports the same scenario, run after run).
    shrunk_before: set[str] = field(default_factory=set)


def check(engine: Engine, options: CheckOptions) -> CheckReport:
    """Run the differential check; never raises for anything the engine does."""
    campaign = open_campaign(engine, options)
    test, run = _hypothesis_test(campaign)
    engine.start()  # an engine that cannot start at all is a usage error, raised here
    with _stats_probes(campaign):
        stop = _replay_store(campaign)
        if stop is None:
            stop = _run_examples(test, campaign)
    close_campaign(campaign, stop, run)
    return campaign.report


def _open_store(campaign: Campaign) -> None:
    """The run's failure store, keyed by the engine's identity (``--name``, else its spec and a digest of what it
    runs), under ``<state dir>/failures/store``."""
    identity = campaign.engine.identity or campaign.engine.name
    campaign.store = failure_store.open_store(campaign.options, identity, failures_dir(campaign.options) / "store")
    campaign.report.store = campaign.store.shown_as if campaign.store is not None else ""


def _replay_store(campaign: Campaign) -> Stop | None:
    """Replay the store's entries first, oldest first, a batch at a time, each judged as usual; the Stop that ends
    the run (a stored failure that still fails), or None. An entry leaves the store only when the engine passes it."""
    if campaign.store is None or campaign.options.worker != 0:  # --workers: the first replays it, all write to it
        return None
    runnable = [(entry, scenario) for entry in campaign.store.entries()
                if (scenario := _runnable(campaign, entry)) is not None]
    campaign.shrunk_before = {entry.name for entry, _ in runnable if entry.record.get("shrunk") is True}
    # stored already: one that fails again keeps its record (and its place in the order)
    campaign.store.written.update(failure_store.scenario_name(scenario) for _, scenario in runnable)
    campaign.replaying = True
    try:
        for at in range(0, len(runnable), campaign.batch):
            stop = _replay_batch(campaign, runnable[at:at + campaign.batch])
            if stop is not None:
                return stop
        interrupts.raise_if_received()
    except KeyboardInterrupt:
        return Stop("interrupted")
    finally:
        campaign.replaying = False
    return None


def _runnable(campaign: Campaign, entry: Any) -> dict[str, Any] | None:
    """A stored entry's scenario to run, or None: kept, not run, the reason noted in the report (it no longer
    decodes, or its action kinds or features lie outside this run's profile)."""
    scenario = entry.scenario
    try:
        if scenario is None:
            raise ProtocolError("scenario", "not a failure store record")
        decoded = decode_scenario(json.loads(json.dumps(scenario)))
    except (ProtocolError, ValueError, TypeError, RecursionError):
        campaign.report.stored_kept[entry.name] = failure_store.KEPT_UNDECODABLE
        return None
    differ = readings_differ(decoded, campaign.options.rules)
    if differ:  # a failure under other readings is not this run's: it would be reported beside this run's replay line
        campaign.report.stored_kept[entry.name] = f"{failure_store.KEPT_READINGS} ({', '.join(differ)})"
        return None
    kinds = {a.get("kind") for a in scenario.get("actions", []) if isinstance(a, dict)}
    try:
        check_profile(scenario, campaign.options.features)
        inside = kinds <= set(campaign.kinds)
    except ProtocolError:
        inside = False
    if not inside:
        campaign.report.stored_kept[entry.name] = failure_store.KEPT_OUTSIDE
        return None
    return json.loads(json.dumps(scenario))


def readings_differ(scenario: Any, rules: dict[str, Any]) -> list[str]:
    """The readings a decoded scenario holds that this run does not (``name: stored, this run's``): a stored failure
    of other readings is kept, not run, whatever readings the run declares (``--ruleset``, ``referee.toml``)."""
    book = rulebooks.get(scenario.rulebook)
    ours = book.rules_to_json(rules.get(scenario.rulebook) or book.rules_from_options({}))
    theirs = book.rules_to_json(scenario.rules)
    return [f"{name}: stored {theirs[name]}, this run {ours[name]}" for name in ours if theirs.get(name) != ours[name]]


def _replay_batch(campaign: Campaign, batch: list[tuple[Any, dict[str, Any]]]) -> Stop | None:
    """One batch of stored entries through the usual stages; each entry the engine passed leaves the store (one
    stored under another comparison stays, said)."""
    passed = campaign.passed = set()
    stop = check_batch(campaign, [scenario for _, scenario in batch])
    for entry, scenario in batch:
        if failure_store.scenario_name(scenario) not in passed:
            continue
        if entry.record.get("comparison") != campaign.options.comparison.to_json():
            campaign.report.stored_kept[entry.name] = failure_store.KEPT_COMPARISON
        else:
            campaign.store.remove(entry.name)
    return stop


def _stats_probes(campaign: Campaign) -> Any:
    """With ``--stats``, the tagged functions' probes for the examples' run (``referee.check.clause_tracer``)."""
    if campaign.report.stats is None:
        return contextlib.nullcontext()
    from .clause_tracer import probes_installed

    return probes_installed()


def open_campaign(engine: Engine, options: CheckOptions) -> Campaign:
    """A campaign's opening state (a ValueError for an unknown action kind)."""
    kinds = tuple(options.kinds or default_kinds())
    unknown = [k for k in kinds if k not in ACTION_KINDS]
    if unknown:
        raise ValueError(f"unknown action kind(s) {', '.join(unknown)} (known: {', '.join(ACTION_KINDS)})")
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    batch = max(1, engine.batch_size)
    total = math.ceil(options.examples / batch) * batch
    report = CheckReport("pass", engine.name, seed, options.comparison, kinds=kinds, features=options.features,
                         swarm=options.swarm, examples_requested=options.examples, batch=batch)
    if options.stats:
        from .stats import Stats

        narrowed = options.kinds is not None or options.features is not None
        report.stats = Stats(selection=(kinds, options.features, options.max_actions, options.state_dir)
                             if narrowed else None)
    return Campaign(engine, options, kinds, seed, batch, total, time.perf_counter(), report)


def _hypothesis_test(campaign: Campaign) -> tuple[Any, Any]:
    """The draw stage: a Hypothesis test whose every example runs ``_example`` (and that example function)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings

    from .strategies import scenarios

    options = campaign.options
    one = scenarios(kinds=campaign.kinds, max_actions=options.max_actions, rules=options.rules,
                    features=options.features, swarm=options.swarm, battle=options.battle)
    # Seeded generation draws whole groups of batches per Hypothesis example (its overhead per
    # example is about the cost of 5 scenarios).
    group = campaign.batch * math.ceil(SEEDED_GROUP / campaign.batch) if _is_seeded(options) else campaign.batch
    run = _example(campaign)
    campaign.database = _database(options)
    _open_store(campaign)
    _key_database(run, _digest(campaign.engine, options, campaign.kinds))
    campaign.replays = frozenset(_replays(run, campaign.database, options))
    campaign.stored = _stored_count(run, campaign.database)
    # Hypothesis' shrinker is off: it would shrink the whole batch, one engine batch per
    # step. The failing scenario is shrunk afterwards by ``referee.check.shrink``, batched. The examples Hypothesis
    # replays from its database are on top of the budget (``check_drawn`` counts them apart).
    examples = max(1, math.ceil(campaign.total / group)) + campaign.stored
    config = dict(max_examples=examples, deadline=None, database=campaign.database,
                  phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target], verbosity=Verbosity.quiet,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False)
    if options.backend != "hypothesis":
        config["backend"] = options.backend
    # Hypothesis' @seed would switch the example database off; the seed is set the way
    # @seed sets it, and the database stays on, so a stored failure is still replayed first.
    run._hypothesis_internal_use_seed = campaign.seed  # type: ignore[attr-defined]
    strategy = _batch_strategy(one, group, options, campaign.seed, campaign.replays)
    return settings(**config)(given(strategy)(run)), run


def _example(campaign: Campaign) -> Any:
    """The function Hypothesis calls with each drawn group: the stages, and a Stop turned into its exception."""

    def run(drawn: list[dict[str, Any]]) -> None:
        campaign.examples += 1
        stop = check_drawn(campaign, drawn)
        if stop is not None:
            raise (_Diverged if stop.reason == "mismatch" else _Halted)(stop)

    return run


def check_drawn(campaign: Campaign, drawn: list[dict[str, Any]]) -> Stop | None:
    """One Hypothesis example: its scenarios, to the engine a batch at a time, up to --examples; an entry Hypothesis
    replays from its database is run on top of the budget."""
    replayed = _replayed_from_database(campaign, drawn)
    for at in range(0, len(drawn), campaign.batch):
        spent = campaign.count - campaign.stored_run >= campaign.total
        if spent and not replayed and campaign.failure is None:  # a rerun of a failure runs in full
            return None
        before = campaign.count
        try:
            stop = check_batch(campaign, drawn[at:at + campaign.batch])
        finally:
            campaign.stored_run += campaign.count - before if replayed else 0
        if stop is not None:
            return stop
    return None


def _replayed_from_database(campaign: Campaign, drawn: list[dict[str, Any]]) -> bool:
    """Whether a Hypothesis example replays an entry of its database: a stored seed (seeded generation), else one
    of the first examples while the stored entries are replayed."""
    if not campaign.stored:
        return False
    if _is_seeded(campaign.options):
        return bool(drawn) and drawn[0].get("_group") in campaign.replays
    return campaign.examples <= campaign.stored


def check_batch(campaign: Campaign, batch_scenarios: list[dict[str, Any]]) -> Stop | None:
    """Mark, send and expect, then judge each scenario of one engine batch; the Stop that ends the run, if any."""
    interrupts.raise_if_received()  # a stage boundary: a lost interrupt is raised again here
    marks = mark(campaign, batch_scenarios)
    answers, expected = send_and_expect(campaign.engine, batch_scenarios, campaign.report.stats)
    if campaign.failure is not None:  # Hypothesis runs the failing batch again: keep what it sees
        campaign.answers.extend(zip(batch_scenarios, answers))
    for index, (scenario, answer, model) in enumerate(zip(batch_scenarios, answers, expected)):
        stop = judge_one(campaign, scenario, answer, model, marks)
        if stop is not None:
            return died_on(campaign, stop, batch_scenarios, index) if stop.reason == "fault" else stop
    return None


def died_on(campaign: Campaign, stop: Stop, batch_scenarios: list[dict[str, Any]], index: int) -> Stop:
    """A fault at ``index`` of a batch; if the engine died there, the scenario it died on, confirmed in fresh engines
    (``referee.check.crash_site``): the one after its last answer, another of the batch, or the batch's prefix."""
    if not getattr(stop.detail, "died", False):
        return stop
    from .crash_site import locate_death

    located = locate_death(campaign.engine, batch_scenarios, index, stop.detail)
    if located is None:
        return stop
    site, fault = located
    if campaign.first is not None and campaign.first[0] == campaign.count:  # this fault is the run's first failure
        campaign.count += site.position - 1 - index  # the scenarios before the one it died on: run, and answered
        campaign.first = (campaign.count, campaign.first[1])
    if site.how == "sequence":
        campaign.fault_sequence = [_public(s) for s in batch_scenarios[:site.prefix]]
    store_ahead(campaign, batch_scenarios[site.position - 1], "fault", fault)
    return Stop("fault", batch_scenarios[site.position - 1], fault)


def store_ahead(campaign: Campaign, scenario: dict[str, Any], verdict: str, detail: Any) -> None:
    """Write a failing scenario to the failure store now (``referee.check.failure_store``), noted first so that a
    write a signal cuts short is done again when the run closes (:func:`_store_pending`)."""
    if campaign.store is None:
        return
    public = _public(scenario)
    campaign.pending.append((public, verdict, detail))
    campaign.store.write(public, verdict, _said(verdict, detail), campaign.options.comparison.to_json())


def _store_pending(campaign: Campaign) -> None:
    """Every failing scenario noted but not written yet (a signal cut its write short): written now."""
    if campaign.store is None:
        return
    for public, verdict, detail in campaign.pending:
        if failure_store.scenario_name(public) not in campaign.store.written:
            campaign.store.write(public, verdict, _said(verdict, detail), campaign.options.comparison.to_json())


def mark(campaign: Campaign, batch_scenarios: list[dict[str, Any]]) -> dict[str, tuple[Any, Any]]:
    """Give each scenario its id; take off (never sent) and return the seeds seeded generation marked it with."""
    marks = {}
    for scenario in batch_scenarios:
        campaign.serial += 1
        scenario["id"] = f"s{campaign.serial}"
        marks[scenario["id"]] = (scenario.pop("_seed", None), scenario.pop("_group", None))
    return marks


def judge_one(campaign: Campaign, scenario: dict[str, Any], answer: Any, model: Any,
              marks: dict[str, tuple[Any, Any]]) -> Stop | None:
    """Count and judge one scenario; a divergence is grouped (--keep-going) or stops the run, as does a fault."""
    campaign.count += 1
    if campaign.replaying:  # a stored failure: counted apart, off the budget
        campaign.stored_run += 1
        campaign.report.stored_replayed += 1
    if campaign.report.stats is not None:
        campaign.report.stats.observe(scenario)
    verdict, detail = judge(scenario, answer, campaign.options.comparison, model)
    if campaign.options.progress is not None:
        campaign.options.progress(campaign.count, campaign.options.examples, 0 if verdict == "ok" else 1)
    if verdict == "ok":
        if campaign.replaying:
            campaign.passed.add(failure_store.scenario_name(scenario))
        return None
    if verdict == "fault" or (verdict == "mismatch" and not campaign.options.keep_going):
        store_ahead(campaign, scenario, verdict, detail)  # before anything a signal can cut short
    if campaign.first is None:
        campaign.first = (campaign.count, time.perf_counter() - campaign.start)
        campaign.report.failure_stored = campaign.replaying
    if verdict != "mismatch":
        return Stop(verdict, scenario, detail)
    if campaign.options.keep_going:
        groups = len(campaign.groups)
        file_failure(campaign.groups, scenario, detail)
        if len(campaign.groups) > groups:  # a new group: its scenario is stored at first sight
            store_ahead(campaign, scenario, verdict, detail)
        return _enough(campaign)
    campaign.failure = (scenario, detail)
    campaign.failing_seed, campaign.failing_group = marks[scenario["id"]]
    campaign.answers.append((scenario, answer))
    return Stop("mismatch", scenario, detail)


def _enough(campaign: Campaign) -> Stop | None:
    """--max-divergences bugs found: a Stop once the groups, merged by the fault, reach the cap (not their keys)."""
    cap = campaign.options.max_divergences
    if len(campaign.groups) < cap or groups_left(campaign) < cap:
        return None
    campaign.capped = campaign.count
    return Stop("enough")


def _run_examples(test: Any, campaign: Campaign) -> Stop | None:
    """Run the Hypothesis test; the Stop that ended it (None: every example ran)."""
    from hypothesis.errors import Flaky, HypothesisWarning

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HypothesisWarning)
            test()
        interrupts.raise_if_received()  # a signal whose exception was lost (a gc callback, a bare except)
    except (_Diverged, _Halted) as stopped:
        return stopped.stop
    except Flaky:
        if campaign.failure is None:
            raise
        return Stop("nondeterministic")
    except KeyboardInterrupt:
        # Ctrl-C: what was found so far, the seed and the counts, never a traceback (exit 130)
        return Stop("interrupted")
    return None


def close_campaign(campaign: Campaign, stop: Stop | None, run: Any) -> None:
    """The report stage: the stop's verdict (shrunk and explained at fault), the groups, the counts, the replay."""
    report, options = campaign.report, campaign.options
    _store_pending(campaign)
    if stop is not None:
        _STOP_REPORTS.get(stop.reason, _report_stop)(campaign, stop, run)
    report.seconds = time.perf_counter() - campaign.start
    report.scenarios_run = campaign.count
    if options.keep_going and report.status in ("pass", "interrupted"):
        settle_groups(campaign)
        if campaign.capped is not None:
            report.cap = {"groups": options.max_divergences, "after": campaign.capped, "budget": campaign.total}
    if campaign.first is not None:
        report.first_failure_after, report.first_failure_seconds = campaign.first
    report.clause_at_fault = name_the_fault(report.scenario, report.divergences)
    warnings_said = (_degraded_warning(campaign.database), campaign.store.warning if campaign.store else "")
    for said in filter(None, warnings_said):  # the shared database or the store failed: the report says so
        report.error = "; ".join(part for part in (report.error, said.removeprefix("referee: ")) if part)
    if not report.ok:
        report.replay = _replay(options, campaign.seed, report.scenario, campaign.fault_sequence)
        report.replay_engine = _replay_engine(campaign.engine, options, report.scenario, campaign.fault_sequence)


GENERATIONS = ("seeded", "hypothesis")
#: Seeded generation draws at least this many scenarios per Hypothesis example (whole engine batches).
SEEDED_GROUP = 32


_STOP_REPORTS = {"mismatch": _report_mismatch, "nondeterministic": _report_flaky,
                 "interrupted": _report_interrupted, "enough": _report_enough}


def _batch_strategy(one: Any, batch: int, options: CheckOptions, seed: int = 0, replays: Any = ()) -> Any:
    """One Hypothesis example: ``batch`` scenarios, each drawn by Hypothesis or from its own seed, a hash of
    (``seed``, the worker, the batch, its place: ``referee.check.streams``); ``replays``: stored failing seeds."""
    from hypothesis import strategies as st

    if options.generation not in GENERATIONS:
        raise ValueError(f"unknown generation {options.generation!r} (known: {', '.join(GENERATIONS)})")
    if _is_seeded(options):
        from ..seeded import BATCH_SEEDS
        from .streams import Stream

        return st.integers(0, BATCH_SEEDS - 1).map(Stream(one, seed, options.worker, batch, replays).group)
    # full batches: a JSON-lines engine gets ``batch`` scenarios per write
    return st.lists(one, min_size=batch, max_size=batch)


