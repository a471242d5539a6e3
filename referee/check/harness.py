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
import hashlib
import json
import math
import random
import shlex
import time
import uuid
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .. import __version__, rulebooks
from . import failure_store, interrupts
from .compare import Comparison, Divergence, compare
from ..engines.transports import Engine, EngineFault, check_answer
from ..protocol import PROTOCOL, Observation, ProtocolError, decode_scenario, rulebook_of
from ..rulebooks import ACTION_KINDS, default_kinds
from .at_fault import describe_steps, steps_at_fault
from ..trail import Step, clauses_applied, cut

DATABASE_DIR = ".referee/examples"
FAILURES_DIR = ".referee/failures"


def new_run_id() -> str:
    """A fresh run id: 128 random bits, hex (two runs never share one; one report copied keeps its own)."""
    return uuid.uuid4().hex


@dataclass
class CheckOptions:
    examples: int = 500
    seed: int | None = None
    kinds: tuple[str, ...] | None = None
    max_actions: int = 2
    comparison: Comparison = field(default_factory=Comparison)
    #: Each rulebook's readings, by rulebook name (a rulebook not named here: its defaults),
    #: sent with every scenario of that rulebook (``--ruleset name=value``).
    rules: dict[str, Any] = field(default_factory=dict)
    #: The example database: a folder, a ``redis://`` URL (shared by a campaign's workers), or None.
    database: str | None = DATABASE_DIR
    backend: str = "hypothesis"
    #: How scenarios are drawn: ``seeded`` (Hypothesis draws one integer per batch and the same
    #: strategies draw the batch from a seeded ``random.Random``: ``referee.seeded``) or
    #: ``hypothesis`` (every choice drawn by Hypothesis; the generator before 2026-12). A
    #: ``--backend`` other than ``hypothesis`` always uses ``hypothesis`` generation.
    generation: str = "seeded"
    shrink: bool = True
    #: At most this many engine calls are spent shrinking a failure.
    shrink_budget: int = 1500
    #: The command that reproduces this run, minus the seed (printed with every failure).
    command: str = "referee check"
    #: The features the generator may draw (None: every feature; ``--features`` / ``--without``).
    features: frozenset[str] | None = None
    #: Swarm testing: each scenario first draws which of those features are on.
    swarm: bool = False
    #: Whole battles (``--battle``): every combat scenario a board of six units and ``max_actions`` actions on the
    #: clock (``referee/rulebooks/combat/battles.py``).
    battle: bool = False
    #: Count per feature, event and clause how many scenarios exercised it (``--stats``).
    stats: bool = False
    #: Called after every batch with (scenarios checked, scenarios asked for, failures seen so far).
    progress: Any = None
    #: Go on after a divergence: every distinct divergence (by group key), one shrunk representative each.
    keep_going: bool = False
    #: With ``keep_going``: stop once this many distinct divergences were found.
    max_divergences: int = 20
    #: Known divergences (``referee-known.toml``): matching groups are reported, not failed.
    known: list[Any] = field(default_factory=list)
    #: A known entry that matched nothing fails the run.
    strict_known: bool = False
    #: Where failing scenarios are written (``<state dir>/failures``); None: the system's temporary
    #: folder, so that nothing is written into the current directory (``--database ''``, ``--state-dir ''``).
    state_dir: str | None = ".referee"
    #: This process's place among a run's workers (``--workers``): part of every scenario's seed (``referee.check.streams``).
    worker: int = 0
    #: Processes the run is spread over (``--workers``: ``referee.check.workers``); each is one ``worker`` of them.
    workers: int = 1

    def __post_init__(self) -> None:
        # A profile covers observations too: what it leaves out is neither required nor compared.
        self.comparison = self.comparison.under_profile(self.features)


@dataclass
class CheckReport:
    """The outcome of one run: ``pass``, ``mismatch``, ``fault`` or ``model-error``."""

    status: str
    engine: str
    seed: int
    comparison: Comparison
    scenarios_run: int = 0
    seconds: float = 0.0
    #: Scenarios and seconds until the first failure was seen (before shrinking).
    first_failure_after: int | None = None
    first_failure_seconds: float | None = None
    scenario: dict[str, Any] | None = None
    divergences: list[Divergence] = field(default_factory=list)
    trail: list[Step] = field(default_factory=list)
    fault: EngineFault | None = None
    error: str = ""
    replay: str = ""
    kinds: tuple[str, ...] = ()
    #: Engine calls spent shrinking the failing scenario, and its size before and after (``referee.check.shrink.size``).
    shrink_calls: int = 0
    shrink_sizes: tuple[tuple[int, int], tuple[int, int]] | None = None
    #: A non-deterministic engine: its answers to the same scenario, run after run (``nondeterministic``).
    observations: list[dict[str, Any]] = field(default_factory=list)
    #: The features the generator was allowed (None: all) and whether it swarmed.
    features: frozenset[str] | None = None
    swarm: bool = False
    #: Coverage counts (``--stats``), else None.
    stats: Any = None
    #: With ``--keep-going``: every distinct divergence, and the known entries that matched nothing.
    groups: list[Any] = field(default_factory=list)
    stale_known: list[Any] = field(default_factory=list)
    #: A ``--keep-going`` run stopped by ``--max-divergences``: the cap, the scenarios run, the scenarios asked for.
    cap: dict[str, int] | None = None
    #: Processes the run was spread over (``--workers``, ``referee.check.workers``).
    workers: int = 1
    #: This run's own id (``new_run_id``): ``referee report merge`` refuses one run given twice.
    run_id: str = field(default_factory=new_run_id)
    #: Failures an earlier run stored in the example database, replayed before this run's own stream, and
    #: whether the failure reported is one of them (not a new draw of this seed).
    stored_replayed: int = 0
    failure_stored: bool = False
    #: Stored failures kept and not run (``referee.check.failure_store``): entry name -> why (outside the profile...).
    stored_kept: dict[str, str] = field(default_factory=dict)
    #: Where the failure store is (a folder, and the Redis server's hash), or '' when there is none.
    store: str = ""

    def _groups_text(self) -> list[str]:
        """The distinct divergences of a ``--keep-going`` run, each shrunk, known ones marked."""
        if not self.groups and not self.stale_known:
            return []
        known = sum(1 for g in self.groups if g.known)
        lines = [f"{len(self.groups)} distinct divergences ({known} known)"]
        if self.cap is not None:
            left = self.cap["budget"] - self.cap["after"]
            lines.append(f"STOPPED at --max-divergences {self.cap['groups']} after {self.cap['after']} of "
                         f"{self.cap['budget']} scenarios ({left} of the budget left): more bugs may lie behind the cap")
        for n, group in enumerate(self.groups, 1):
            mark = f" KNOWN: {group.known.reason}" if group.known else ""
            lines.append(f"[{n}] {group.key} ({group.count} scenarios){mark}")
            lines.append(f"    first divergence: {group.divergences[0].describe()}" if group.divergences else "    (no divergence)")
            if getattr(group, "behind", None):
                lines.append(f"    seen behind {group.behind}: in every scenario of it that divergence comes first")
            if not group.reproducible:
                lines.append("    did not diverge again when rerun: a non-deterministic engine?")
            lines.append("    scenario (shrunk): " + json.dumps(compact_scenario(group.scenario), separators=(", ", ": ")))
            if group.shrink_sizes is not None:
                from .shrink import describe_sizes

                lines.append("    " + describe_sizes(*group.shrink_sizes, group.shrink_calls))
            lines.extend("  " + line for line in describe_steps(group.explain))
            if group.clauses:
                lines.append(f"    clauses applied: {', '.join(group.clauses)}")
            lines.append(f"    replay: {group.replay}")
            lines.extend(_merged_text(group))
        for entry in self.stale_known:
            lines.append(f"stale known divergence (matched nothing): {entry.key or entry.clause}: {entry.reason} ({entry.source})")
        return lines

    #: The model's explain steps around the first divergence (``referee.check.at_fault``): the one before, the one at fault.
    explain: list[dict[str, Any]] = field(default_factory=list)
    #: Print the whole clause trail in the text report (``--trail``); ``--json`` always has it.
    show_trail: bool = False

    def _features(self) -> str:
        """The features drawn, in words: all, or which were left out."""
        known = rulebooks.all_features()
        kinds_books = {ACTION_KINDS[k].rulebook for k in self.kinds if k in ACTION_KINDS}
        if not any(book in kinds_books for book in known.values()):
            return "none defined for these kinds"
        said = "compared " + rulebooks.features_compared(self.features, kinds_books)
        said += " (never drawn)" if "not compared" in said else ""
        return said + ("; swarm: each scenario draws a random subset" if self.swarm else "")

    #: ``--examples`` as given, and the batch size it is rounded up to a multiple of.
    examples_requested: int | None = None
    batch: int = 1
    #: The failing scenario fed straight to the engine: ``ENGINE < .referee/failures/NAME.jsonl``.
    replay_engine: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    @property
    def clauses(self) -> list[str]:
        return clauses_applied(self.trail)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "protocol": PROTOCOL,
            "referee": __version__,
            "engine": self.engine,
            "seed": self.seed,
            "action_kinds": list(self.kinds),
            "compared": self.comparison.to_json(),
            "features": self._features_json(),
            "stats": self.stats.to_json() if self.stats is not None else None,
            "groups": [g.to_json() for g in self.groups],
            "distinct_divergences": len(self.groups),
            "cap_reached": self.cap,
            "known_divergences": sum(1 for g in self.groups if g.known),
            "stale_known": [e.to_json() for e in self.stale_known],
            "scenarios_run": self.scenarios_run, "workers": self.workers,
            "examples_requested": self.examples_requested,
            "batch": self.batch,
            "seconds": round(self.seconds, 3),
            "first_failure_after": self.first_failure_after,
            "first_failure_seconds": None if self.first_failure_seconds is None else round(self.first_failure_seconds, 3),
            "shrink": None if self.shrink_sizes is None else {
                "calls": self.shrink_calls, "before": dict(zip(("actions", "characters"), self.shrink_sizes[0])),
                "after": dict(zip(("actions", "characters"), self.shrink_sizes[1]))},
            "scenario": self.scenario,
            "divergences": [d.to_json() for d in self.divergences],
            "trail": [_trail_step_json(s) for s in self.trail],
            "clauses": self.clauses,
            "explain": self.explain,
            "fault": self.fault.to_json() if self.fault else None,
            "observations": self.observations,
            "error": self.error,
            "replay": self.replay,
            "replay_engine": self.replay_engine,
            "run_id": self.run_id,
            "stored_failures": {"replayed_first": self.stored_replayed, "failure_is_stored": self.failure_stored},
            "failure_store": {"where": self.store, "kept_not_run": self.stored_kept},
        }

    def _features_json(self) -> dict[str, Any]:
        """The features the run allowed (``None``: all), those it left out, and whether it drew by swarm."""
        allowed = None if self.features is None else sorted(self.features)
        without = [] if self.features is None else sorted(set(rulebooks.all_features()) - set(self.features))
        return {"allowed": allowed, "without": without, "swarm": self.swarm}

    def _signal(self) -> str:
        return interrupts.stopped_by()

    def _compared(self) -> str:
        """What was compared, in the terms of each rulebook the kinds drew from."""
        books = list(dict.fromkeys(ACTION_KINDS[k].rulebook for k in self.kinds if k in ACTION_KINDS))
        if len(books) <= 1:
            return self.comparison.describe(books[0] if books else None)
        states = "; ".join(f"{b} scenarios: {rulebooks.get(b).describe_state(self.comparison.fields)}" for b in books)
        return f"{states}; " + self.comparison.describe(books[0]).split("; ", 1)[-1]

    def _rounding(self) -> str:
        """Said when ``--examples`` was rounded up to whole batches."""
        n, b = self.examples_requested, self.batch
        if not n or b <= 1 or n % b == 0:
            return ""
        return (f"            (--examples {n} rounded up to {math.ceil(n / b)} batches of {b} = {math.ceil(n / b) * b}: "
                f"a JSON-lines engine gets whole batches; --batch sets the size)")

    _HEADS = {
        "pass": "PASS",
        "mismatch": "FAIL: the engine disagrees with the model",
        "fault": "FAIL: engine fault",
        "model-error": "ERROR: the model could not run a scenario",
        "nondeterministic": "FAIL: non-deterministic engine (the same scenario answered differently on a rerun)",
        "interrupted": "INTERRUPTED (Ctrl-C): the run stopped before its end; rerun with the same seed to go on",
        "stale-known": "FAIL: a known divergence matched nothing in this run (--strict-known)",
    }

    def _head(self) -> str:
        """The verdict's headline (an interrupted run names the signal that stopped it)."""
        if self.status == "interrupted":
            return (f"INTERRUPTED ({self._signal()}): the run stopped before its end; rerun with the same seed "
                    "to go on")
        return self._HEADS[self.status]

    def text(self) -> str:
        """The report for people: the verdict and the run, then what failed, the scenario, the divergences, the replay."""
        lines = (self._stored_text() + self._head_text() + self._failure_text() + self._scenario_text()
                 + self._divergences_text())
        if self.replay:
            lines.append(f"replay: {self.replay}")
        if self.replay_engine:
            lines.append(f"straight into the engine ({self._replay_lines()}): {self.replay_engine}")
        return "\n".join(lines)

    def _replay_lines(self) -> str:
        """What the "straight into the engine" input holds: one JSON line, or the batch up to where the engine died."""
        located = self.fault.located if self.fault is not None else None
        if located and located["how"] == "sequence":
            return f"{located['replay_lines']} JSON lines: the batch up to the scenario the engine died on"
        return "one JSON line"

    def _stored_text(self) -> list[str]:
        """The first line of a run that replayed stored failures first: how many, whether the failure is one, and
        those kept and not run (outside this run's profile)."""
        if not self.stored_replayed and not self.stored_kept:
            return []
        n = self.stored_replayed
        line = (f"referee check: {n} stored failure{'s' if n != 1 else ''} (kept by an earlier run in the failure "
                f"store, {self.store}) replayed first, before this run's own scenarios of seed {self.seed}")
        if self.failure_stored:
            line += "; the failure below is a stored one, replayed, not a new draw of this seed"
        for why in dict.fromkeys(self.stored_kept.values()):
            kept = sum(1 for w in self.stored_kept.values() if w == why)
            ran = why == failure_store.KEPT_COMPARISON
            line += f"; {kept} kept: {why}" if ran else f"; {kept} kept, {why}, not run"
        return [line]

    def _head_text(self) -> list[str]:
        """The verdict, the engine, what ran and was compared, the coverage and the groups."""
        lines = [
            f"referee check: {self._head()}",
            f"  engine:   {self.engine}",
            f"  checked:  {self.scenarios_run} scenarios in {self.seconds:.2f} s (seed {self.seed}"
            f"{f', {self.workers} workers' if self.workers > 1 else ''}); "
            f"action kinds: {', '.join(self.kinds)}",
            f"  compared: {self._compared()}",
            f"  features: {self._features()}",
        ]
        if self.stats is not None:
            lines += self.stats.text()
        lines += self._groups_text()
        if rounding := self._rounding():
            lines.insert(3, rounding)
        return lines

    def _failure_text(self) -> list[str]:
        lines = []
        if self.first_failure_after is not None:
            lines.append(f"  first failure after {self.first_failure_after} scenarios ({self.first_failure_seconds:.2f} s)")
        if self.fault is not None:
            lines.append("  " + self.fault.describe().replace("\n", "\n  "))
        if self.error:
            lines.append("  " + self.error)
        return lines

    def _scenario_text(self) -> list[str]:
        """The (shrunk) scenario, compact, and a non-deterministic engine's answers to it."""
        lines = []
        if self.scenario is not None:
            label = "scenario (shrunk)" if self.status == "mismatch" and self.shrink_sizes is not None else "scenario"
            kept = "the full JSON is in the replay file" if "--replay " in self.replay else "no replay file was written"
            lines.append(f"{label}, fields at their protocol default omitted ({kept}):")
            lines.append("  " + json.dumps(compact_scenario(self.scenario), separators=(", ", ": ")))
            if self.shrink_sizes is not None:
                from .shrink import describe_sizes

                lines.append("  " + describe_sizes(*self.shrink_sizes, self.shrink_calls))
        for observation in self.observations:
            lines.append(f"  {observation['run']}: {observation['verdict']}: "
                         + json.dumps(observation["answer"], separators=(", ", ": "))[:4000])
        return lines

    def _divergences_text(self) -> list[str]:
        """The first divergence and the others, the explanation at fault, the clause trail."""
        if not self.divergences:
            return []
        first, rest = self.divergences[0], self.divergences[1:]
        lines = [f"first divergence: {first.describe()}"] + [f"  also: {other.describe()}" for other in rest[:8]]
        if len(rest) > 8:
            lines.append(f"  ... and {len(rest) - 8} more")
        if self.explain:
            lines.append("where the model's explanation meets it (the step before, then the step at fault):")
            lines.extend(describe_steps(self.explain))
        if self.show_trail or not self.explain:
            lines.append("clause trail (model, up to the divergence):")
            lines.extend("  " + s.describe() for s in self.trail)
        else:
            lines.append(f"clause trail: {len(self.trail)} steps, {len(self.clauses)} clauses (--trail prints it; "
                         "--json has it)")
        if "--replay " in self.replay:
            lines.append(f"the whole explanation: referee explain {self.replay.split('--replay ')[-1].split()[0]}")
        else:
            lines.append("the whole explanation: no replay file was written to give `referee explain` (--json has it)")
        lines.append(f"clauses applied: {', '.join(self.clauses)}")
        return lines


def _merged_text(group: Any) -> list[str]:
    """The groups merged into a group, each with its own shrunk scenario and replay: shrunk, it settled here, but a
    merge can join two bugs, so each stays replayable."""
    lines = []
    for m in group.merged_with:
        lines.append(f"    merged: {m['key']} ({m['count']} scenarios; shrunk, it settles here; replay it to tell "
                     f"whether it is another bug): {m['first']}")
        lines.append("      scenario (shrunk): " + json.dumps(compact_scenario(m["scenario"]), separators=(", ", ": ")))
        lines.append(f"      replay: {m['replay']}")
    return lines


def compact_scenario(scenario: dict[str, Any]) -> dict[str, Any]:
    """The scenario with what is at its protocol default left out (still valid); as it is when it names no
    known rulebook (an invalid ``--replay`` file is reported, never lost to its own report)."""
    try:
        return rulebooks.of_scenario(scenario).compact(scenario)
    except (ProtocolError, ValueError, TypeError, KeyError, AttributeError):
        return scenario


# --------------------------------------------------------------------------------------
# The model side
# --------------------------------------------------------------------------------------


def model_observation(scenario: dict[str, Any], stats: Any = None) -> Observation:
    """Run a scenario (JSON) through the model: the final state and the events.

    ``stats`` (``--stats``): the run is the one ``Stats`` counts, noting the clauses it applied (no second run).
    """
    decoded = decode_scenario(scenario)
    book = rulebooks.get(decoded.rulebook)
    state, events = book.run(decoded) if stats is None else stats.run(book, decoded, scenario)
    return book.observation(state, events, decoded.id)


def model_trail(scenario: dict[str, Any]) -> list[Step]:
    """The model's clause trail for a scenario: every tagged function it called, and its events."""
    decode_scenario(scenario)
    return rulebooks.of_scenario(scenario).observe(scenario)[2]


def explain_at_fault(scenario: dict[str, Any], first: Divergence) -> list[dict[str, Any]]:
    """The explain steps around the first divergence; empty when the scenario cannot be explained (a courtesy)."""
    try:
        return steps_at_fault(_public(scenario), first)
    except Exception:  # never lose the report for it
        return []


def expect(scenario: dict[str, Any], stats: Any = None) -> Observation | tuple[str, str]:
    """What the model observes of a scenario, or ``("model-error", text)`` (never a traceback); ``stats``: see
    :func:`model_observation`."""
    try:
        return model_observation(scenario, stats)
    except ProtocolError as error:
        return "model-error", f"invalid scenario: {error}"
    except Exception as error:  # a model bug: report it, never a traceback
        return "model-error", f"the model raised {type(error).__name__}: {error}"


def judge(scenario: dict[str, Any], answer: Any, comparison: Comparison,
          expected: Observation | tuple[str, str] | None = None) -> tuple[str, Any]:
    """One scenario: ``("ok", None)``, ``("mismatch", divergences)``, ``("fault", fault)``, ``("model-error", text)``.

    ``expected``: what :func:`expect` made of the scenario, when it ran already (while the engine answered).
    """
    expected = expect(scenario) if expected is None else expected
    if isinstance(expected, tuple) and expected[0] == "model-error":
        return expected
    observed = check_answer(
        answer, scenario, fields_needed=comparison.unit_fields, events_needed=comparison.compares_events,
        event_fields=comparison.event_fields,
    )
    if isinstance(observed, EngineFault):
        return "fault", observed
    divergences = compare(expected, observed, comparison, rulebook_of(scenario))
    return ("mismatch", divergences) if divergences else ("ok", None)


# --------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------


def _digest(engine: Engine, options: CheckOptions, kinds: tuple[str, ...]) -> bytes:
    """The example database's key: the engine and every option that changes what is drawn or judged."""
    key = json.dumps(
        [engine.identity or engine.name, list(kinds), options.max_actions, options.comparison.to_json(),
         {name: repr(rules) for name, rules in sorted(options.rules.items())}]
        + ([sorted(options.features)] if options.features is not None else []) + (["swarm"] if options.swarm else [])
        + (["seeded"] if _is_seeded(options) else []),  # a seed per batch, not Hypothesis' choices: its own key
        sort_keys=True,
    )
    return hashlib.sha256(key.encode()).digest()


def _key_database(run: Any, digest: bytes) -> None:
    """Key the example database by ``digest``. Hypothesis reads the digest from the inner test
    function (``function_digest(test.hypothesis.inner_test)``), so it is set on ``run`` itself,
    before ``given`` wraps it; set on the wrapper, every engine shared one key and a passing run
    of one engine erased another's saved failure."""
    run._hypothesis_internal_add_digest = digest


def _database(options: CheckOptions) -> Any:
    """The example database (a folder, or a Redis server a campaign's workers share), read-only for
    ``--keep-going``: such a run lets every example pass, so Hypothesis would take each stored failure
    it replays for fixed and delete it, for every worker sharing the database."""
    from hypothesis.database import ReadOnlyDatabase

    from .databases import open_database

    database = open_database(options.database, fallback=str(examples_fallback(options)))
    if database is not None:  # its replay phase sees a few well-formed entries, never another's
        database = failure_store.ReplayBounded(database, _is_seeded(options))
    return ReadOnlyDatabase(database) if database is not None and options.keep_going else database


def _degraded_warning(database: Any) -> str:
    """What a shared database that failed mid-run said (``referee.check.databases.DegradingDatabase``), or ''."""
    while hasattr(database, "_wrapped"):  # a --keep-going run's ReadOnlyDatabase, the ReplayBounded
        database = database._wrapped
    return getattr(database, "warning", "") or ""


def examples_fallback(options: CheckOptions) -> Path:
    """Where a shared database's failures go if it fails mid-run: ``<state dir>/examples``, else the temporary folder."""
    if options.state_dir:
        return Path(options.state_dir) / "examples"
    import tempfile

    return Path(tempfile.gettempdir()) / "referee-examples"


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


@dataclass(frozen=True)
class Stop:
    """Why a campaign ended early: ``mismatch``, ``fault``, ``model-error``, ``enough`` (--max-divergences
    groups found), ``nondeterministic`` (a divergence that did not come back) or ``interrupted`` (Ctrl-C)."""

    reason: str
    scenario: dict[str, Any] | None = None
    detail: Any = None


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


def _said(verdict: str, detail: Any) -> str:
    """What was wrong, in one line, for a store record: the first divergence, or the fault."""
    try:
        if verdict == "mismatch":
            return detail[0].describe()
        return " ".join(detail.describe().split())[:500]
    except Exception:  # a record without its description still holds the scenario
        return verdict


def mark(campaign: Campaign, batch_scenarios: list[dict[str, Any]]) -> dict[str, tuple[Any, Any]]:
    """Give each scenario its id; take off (never sent) and return the seeds seeded generation marked it with."""
    marks = {}
    for scenario in batch_scenarios:
        campaign.serial += 1
        scenario["id"] = f"s{campaign.serial}"
        marks[scenario["id"]] = (scenario.pop("_seed", None), scenario.pop("_group", None))
    return marks


def send_and_expect(engine: Engine, batch_scenarios: list[dict[str, Any]],
                    stats: Any = None) -> tuple[list[Any], list[Any]]:
    """The engine's answers and the model's expectations (an engine in another process answers while the model runs);
    ``stats``: ``--stats`` notes what each of these model runs applied."""
    engine.submit(batch_scenarios)
    expected = [expect(scenario, stats) for scenario in batch_scenarios]
    return engine_answers(engine, batch_scenarios), expected


def engine_answers(engine: Engine, batch_scenarios: list[dict[str, Any]]) -> list[Any]:
    """The engine's answers to a batch, never those of an engine a signal killed.

    A SIGTERM kills every engine process at once (``referee.check.interrupts``); its exception can be lost (raised
    inside a finaliser), and the killed engine's answers then read as a crash. Once a signal is recorded, the
    answers are not judged: the signal is raised again, and the run reports itself interrupted, not an engine fault.
    """
    answers = engine.run_batch(batch_scenarios)
    interrupts.raise_if_received()
    return answers


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
        _record_group(campaign.groups, scenario, detail)
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
    if len(campaign.groups) < cap or _merged_count(campaign) < cap:
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
        _report_groups(campaign)
        if campaign.capped is not None:
            report.cap = {"groups": options.max_divergences, "after": campaign.capped, "budget": campaign.total}
    if campaign.first is not None:
        report.first_failure_after, report.first_failure_seconds = campaign.first
    warnings_said = (_degraded_warning(campaign.database), campaign.store.warning if campaign.store else "")
    for said in filter(None, warnings_said):  # the shared database or the store failed: the report says so
        report.error = "; ".join(part for part in (report.error, said.removeprefix("referee: ")) if part)
    if not report.ok:
        report.replay = _replay(options, campaign.seed, report.scenario, campaign.fault_sequence)
        report.replay_engine = _replay_engine(campaign.engine, options, report.scenario, campaign.fault_sequence)


def _report_stop(campaign: Campaign, stop: Stop, run: Any) -> None:
    """A fault or a model error: reported with its scenario, unshrunk."""
    report = campaign.report
    report.status = stop.reason
    report.scenario = _public(stop.scenario)
    if stop.reason == "fault":
        report.fault = stop.detail
        stop.detail.scenario = report.scenario
    else:
        report.error = stop.detail


def _report_interrupted(campaign: Campaign, stop: Stop, run: Any) -> None:
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


def _report_enough(campaign: Campaign, stop: Stop, run: Any) -> None:
    """--max-divergences distinct divergences found: the groups are reported by ``close_campaign``."""


def _report_flaky(campaign: Campaign, stop: Stop, run: Any) -> None:
    _report_nondeterministic(campaign)


GENERATIONS = ("seeded", "hypothesis")
#: Seeded generation draws at least this many scenarios per Hypothesis example (whole engine batches).
SEEDED_GROUP = 32


def _report_mismatch(campaign: Campaign, stop: Stop, run: Any) -> None:
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


def _shrinks(campaign: Campaign, scenario: dict[str, Any]) -> bool:
    """Whether the failing scenario is shrunk: not when shrinking is off, a signal was received, or it is a stored
    failure that was shrunk already."""
    if not campaign.options.shrink or interrupts.received() is not None:
        return False
    return not (campaign.report.failure_stored and failure_store.scenario_name(scenario) in campaign.shrunk_before)


def _store_shrunk(campaign: Campaign, found: dict[str, Any], shrunk: dict[str, Any],
                  divergences: list[Divergence]) -> None:
    """The shrunk scenario in the failure store in place of the one found (written first, then the other removed)."""
    if campaign.store is not None and _public(shrunk) != _public(found):
        campaign.store.replace(_public(found), _public(shrunk), "mismatch", _said("mismatch", divergences),
                               campaign.options.comparison.to_json())


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


_STOP_REPORTS = {"mismatch": _report_mismatch, "nondeterministic": _report_flaky,
                 "interrupted": _report_interrupted, "enough": _report_enough}


def _store_failing_seed(run: Any, options: CheckOptions, campaign: Campaign) -> None:
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


def _is_seeded(options: CheckOptions) -> bool:
    return options.generation == "seeded" and options.backend == "hypothesis"


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


def _symptom_key_of(scenario: dict[str, Any], divergences: list[Divergence]) -> str:
    """The symptom key of a scenario's first divergence (``referee.check.groups.group_key``), refined by the model step
    that emitted its event (the clause trail) or, for a state divergence, that last changed its field (the
    explanation: ``state_step``)."""
    from .at_fault import state_step
    from .groups import group_key

    first = divergences[0]
    steps = changed_by = None
    try:
        if first.where == "events":
            steps = model_trail(scenario)
        else:
            changed_by = state_step(_public(scenario), first)
    except Exception:  # the trail and the explanation only refine the key
        pass
    return group_key(first, steps, changed_by)


def clause_at_fault(scenario: dict[str, Any], divergences: list[Divergence]) -> str | None:
    """The clause ``check`` names for a failing scenario: its group key's (:func:`group_key_of`); None where the key
    names no clause. ``vectors run`` names it too, from this function, and ``exhaust`` groups by the same key (one
    attribution for every verb)."""
    from .fault_keys import clause_of_key

    return clause_of_key(group_key_of(scenario, divergences))


def group_key_of(scenario: dict[str, Any], divergences: list[Divergence]) -> str:
    """The group key of a scenario's first divergence: what the engine got wrong (``referee.check.fault_keys``)."""
    from .fault_keys import fault_key

    return fault_key(_public(scenario), divergences, lambda: _symptom_key_of(scenario, divergences))


def _record_group(groups: dict[str, dict[str, Any]], scenario: dict[str, Any], divergences: list[Divergence]) -> None:
    """The group stage: file a divergence under its group key, and each later difference the first cannot have caused
    under its own (:func:`_behind_first`); the first scenario of a key is its representative."""
    from .fault_keys import fault_key

    symptom = _symptom_key_of(scenario, divergences)
    key = fault_key(_public(scenario), divergences, symptom)
    _file(groups, key, scenario, divergences, symptom)
    for further, ordered in _behind_first(scenario, divergences, key).items():
        _file(groups, further, scenario, ordered, _symptom_key_of(scenario, ordered), behind=key)


def _file(groups: dict[str, dict[str, Any]], key: str, scenario: dict[str, Any], divergences: list[Divergence],
          symptom: str, behind: str | None = None) -> None:
    if key not in groups:
        groups[key] = {"scenario": scenario, "divergences": divergences, "count": 0, "symptoms": {}, "behind": behind}
    groups[key]["count"] += 1
    groups[key]["symptoms"][symptom] = None


def _behind_first(scenario: dict[str, Any], divergences: list[Divergence], key: str) -> dict[str, list[Divergence]]:
    """The bugs a scenario shows behind its first divergence: each key -> the divergences with its own first.

    Where the engine's events differ from the model's in one event's fields alone (``Divergence.shape == "alone"``:
    the engine took the model's road), a final-state field the engine left as it was where the model changed it, before
    the step at fault and at another decision, is a difference the first cannot have caused (a Phylactery revival
    keeping its Vessel, 500.4d, behind a Vessel Point batch counted wrong, 500.4e: every scenario that revives also
    counts the batch). A field changed after the step at fault may carry its wrong number on (a Maim consumed wrong,
    then another heal), and one the engine changed where the model did not may have been changed anywhere. Its key
    is the one the field would have alone, so the scenario of a bug hidden so is also filed under that bug's own key.
    """
    from .fault_keys import fault_key, key_decision, skipped_before_fault

    first, public = divergences[0], _public(scenario)
    if first.where != "events" or first.shape != "alone" or key_decision(key) is None:
        return {}
    found: dict[str, list[Divergence]] = {}
    for later in skipped_before_fault(public, first, divergences[1:]):
        ordered = [later, *(d for d in divergences if d is not later)]
        further = fault_key(public, ordered, lambda: _symptom_key_of(scenario, ordered))
        if key_decision(further) not in (None, key_decision(key)):
            found.setdefault(further, ordered)
    return found


def _keys_of(scenario: dict[str, Any], divergences: list[Divergence]) -> dict[str, list[Divergence]]:
    """Every key a scenario is filed under (:func:`_record_group`) -> its divergences with that key's first."""
    key = group_key_of(scenario, divergences)
    return {key: divergences, **_behind_first(scenario, divergences, key)}


def _report_groups(campaign: Campaign) -> None:
    """Shrink one representative per group (its key held), merge the groups whose shrunk representatives
    diverge the same way at the same step, match the known divergences, and set the verdict."""
    from .fault_keys import merge_groups
    from .groups import match_known

    options, report = campaign.options, campaign.report
    _merged_count(campaign)
    settled = campaign.settled
    for key, entry in campaign.groups.items():  # scenarios met since a group was shrunk still count
        settled[key][0].count, settled[key][0].symptoms = entry["count"], tuple(entry["symptoms"])
    report.groups = merge_groups([group for group, _ in settled.values()], _resolved_targets(campaign))
    report.stale_known = match_known(report.groups, options.known)
    unknown = [g for g in report.groups if g.known is None]
    if report.status == "interrupted":
        return
    if unknown:
        _report_first_group(report, unknown[0])
    elif report.stale_known and options.strict_known:
        report.status = "stale-known"


def _merged_count(campaign: Campaign) -> int:
    """How many groups are left after merging (``referee.check.fault_keys.merge_groups``): every group not shrunk yet is
    shrunk (its key held) and settled now, and kept for the report, so the cap counts bugs, not keys."""
    found, settled = campaign.groups, campaign.settled
    budget = max(200, campaign.options.shrink_budget // max(1, len(found)))
    for key, entry in found.items():
        if key not in settled:
            group = _shrunk_group(campaign, key, entry, budget)
            settled[key] = (group, _settled_key(campaign, group))
    return len(set(_resolved_targets(campaign).values()))


def _resolved_targets(campaign: Campaign) -> dict[str, str]:
    """Each group's key -> the group it merges into: its settled key, or the end of a chain of settled keys where the
    drift guard allows the end too (``referee.check.fault_keys.resolve_chains``)."""
    from .fault_keys import resolve_chains

    settled, guards = campaign.settled, {}

    def allowed(key: str, end: str) -> bool:  # each group's guard made once, for every chain end asked of it
        if key not in guards:
            guards[key] = _drift_guard(settled[key][0])
        return guards[key](end)

    return resolve_chains({key: target for key, (_, target) in settled.items()}, allowed)


def _drift_guard(group: Any) -> Callable[[str], bool]:
    """Whether a group may merge into a key (``referee.check.fault_keys.drift_guard`` of its shrunk representative)."""
    from .fault_keys import drift_guard

    return drift_guard(group.key, group.scenario, group.divergences)


def _settled_key(campaign: Campaign, group: Any) -> str:
    """The key a group merges into: the key of its shrunk representative shrunk once more with no key held, with the
    whole shrink budget (a part of it does not reach the minimum: a Shield of 625 takes hundreds of calls), where
    the drift guard allows it (``referee.check.fault_keys.merge_target``); its own key: unshrinkable, or no merge."""
    options = campaign.options
    if not (options.shrink and group.reproducible and group.divergences) or interrupts.received() is not None:
        return group.key
    if group.behind is not None:  # shrunk with no key held, it settles on the first divergence in front of it
        return group.key
    allowed = _drift_guard(group)
    smaller, divergences, _ = _shrink(campaign.engine, group.scenario, group.divergences, options, accept=allowed)
    settled = group_key_of(smaller, divergences) if smaller != group.scenario else group.key
    return settled if allowed(settled) else group.key


def _shrunk_group(campaign: Campaign, key: str, entry: dict[str, Any], budget: int) -> Any:
    """One group: its representative shrunk with the key held, its clauses and explanation, rekeyed on the
    shrunk scenario (the same key unless nothing could be shrunk and the key was the symptom's)."""
    from .groups import Group

    engine, options = campaign.engine, campaign.options
    scenario, divergences = entry["scenario"], entry["divergences"]
    stopped = interrupts.received() is not None  # stopped by a signal: report the group as found, at once
    reproducible = stopped or _still_diverges(engine, scenario, options)
    calls, sizes = 0, None
    if options.shrink and reproducible and not stopped:
        from .shrink import size

        before = size(_public(scenario))
        scenario, divergences, calls = _shrink(engine, scenario, divergences, replace(options, shrink_budget=budget),
                                               key, behind=entry.get("behind") is not None)
        sizes = (before, size(_public(scenario)))
        _store_shrunk(campaign, entry["scenario"], scenario, divergences)
    try:
        clauses = clauses_applied(model_trail(scenario))
    except Exception:  # the trail is a courtesy; never lose the group for it
        clauses = []
    explain = explain_at_fault(scenario, divergences[0]) if divergences else []
    group = Group(key, entry["count"], _public(scenario), divergences, clauses,
                  _replay(options, campaign.seed, _public(scenario)), None, reproducible, calls, explain, sizes)
    group.symptoms, group.behind = tuple(entry.get("symptoms", ())), entry.get("behind")
    return group


def _report_first_group(report: CheckReport, first: Any) -> None:
    """The verdict of a run with an unknown group: the first such group's, as a run that stopped at it."""
    report.status, report.scenario, report.divergences = "mismatch", first.scenario, first.divergences
    report.shrink_calls, report.explain, report.shrink_sizes = first.shrink_calls, first.explain, first.shrink_sizes
    if first.divergences:
        try:  # the first group's trail, as a run that stopped at it would show (empty before)
            at = first.divergences[0]
            report.trail = cut(model_trail(first.scenario), at.event_index if at.where == "events" else None)
        except Exception as error:  # the trail is a courtesy; never lose the report for it
            report.error = f"(clause trail unavailable: {error})"


def _still_diverges(engine: Engine, scenario: dict[str, Any], options: CheckOptions) -> bool:
    """Run the scenario once more: does it still diverge?"""
    sent = {**_public(scenario), "id": "again"}
    verdict, _ = judge(sent, engine_answers(engine, [sent])[0], options.comparison)
    return verdict == "mismatch"


def _report_nondeterministic(campaign: Campaign) -> None:
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


def _shrink(
    engine: Engine, scenario: dict[str, Any], divergences: list[Divergence], options: CheckOptions,
    key: str | None = None, behind: bool = False, accept: Callable[[str], bool] | None = None,
) -> tuple[dict[str, Any], list[Divergence], int]:
    """Shrink a failing scenario through the engine, in batches; its new divergences.

    With a group ``key`` (``--keep-going``), a smaller scenario is kept only if its first divergence
    still has that key: the shrink never drifts into another group's divergence. ``behind``: the group's
    difference lies behind another's first divergence (:func:`_behind_first`), and must still lie there.
    With no key, ``accept``: a smaller scenario is kept only if its first divergence's key is one it accepts (a
    settling shrink kept to the keys the drift guard allows, :func:`_drift_guard`).
    """
    from .shrink import shrink

    found: dict[str, Any] = {}

    def still_fails(batch_scenarios: list[dict[str, Any]]) -> int | None:
        sent = [{**s, "id": f"shrink{i}"} for i, s in enumerate(batch_scenarios)]
        for i, (scenario_i, answer) in enumerate(zip(sent, engine_answers(engine, sent))):
            verdict, detail = judge(scenario_i, answer, options.comparison)
            if verdict != "mismatch":
                continue
            keys = {None: detail} if key is None and accept is None else _keys_of(scenario_i, detail) if behind else \
                {group_key_of(scenario_i, detail): detail}
            held = _held_key(keys, key, accept)
            if held is not _NOT_HELD:
                found["divergences"] = keys[held]
                return i
        return None

    smaller, calls = shrink(_public(scenario), still_fails, batch=max(1, engine.batch_size), budget=options.shrink_budget)
    return smaller, found.get("divergences", divergences), calls


_NOT_HELD = object()


def _held_key(keys: dict[Any, list[Divergence]], key: str | None, accept: Callable[[str], bool] | None) -> Any:
    """Which of a candidate's keys lets a shrink keep it (:func:`_shrink`): the key held, else its own key where
    ``accept`` takes it; :data:`_NOT_HELD`: none."""
    if key in keys:
        return key
    own = next(iter(keys))
    return own if accept is not None and accept(own) else _NOT_HELD


def _public(scenario: dict[str, Any]) -> dict[str, Any]:
    out = dict(scenario)
    out.pop("id", None)
    return out


def failures_dir(options: CheckOptions) -> Path:
    """``<state dir>/failures``, or a folder in the system's temporary folder when there is no state dir."""
    if options.state_dir:
        return Path(options.state_dir) / "failures"
    import tempfile

    return Path(tempfile.gettempdir()) / "referee-failures"


def _failure_files(options: CheckOptions, scenario: dict[str, Any],
                   sequence: list[dict[str, Any]] | None = None) -> tuple[Path, Path] | None:
    """The failing scenario, pretty (``NAME.json``, for ``--replay`` and reading) and as one JSON line
    (``NAME.jsonl``, for ``engine < NAME.jsonl``); None when they cannot be written. A fault that needs the
    stream (``sequence``: the batch up to the scenario it died on): ``NAME.jsonl`` holds one line for each."""
    text = json.dumps(sequence if sequence else scenario, sort_keys=True)
    name = hashlib.sha256(text.encode()).hexdigest()[:12]
    ids = [f"replay-{n}" for n in range(1, len(sequence) + 1)] if sequence else ["replay"]
    lines = "".join(json.dumps({**sent, "id": sid}, separators=(",", ":")) + "\n"
                    for sent, sid in zip(sequence or [scenario], ids))
    try:
        folder = failures_dir(options)
        folder.mkdir(parents=True, exist_ok=True)
        pretty, line = folder / f"{name}.json", folder / f"{name}.jsonl"
        pretty.write_text(json.dumps(scenario, indent=2) + "\n")
        line.write_text(lines)
        return pretty, line
    except OSError:
        return None


def _replay(options: CheckOptions, seed: int, scenario: dict[str, Any] | None,
            sequence: list[dict[str, Any]] | None = None) -> str:
    command = f"{options.command} --seed {seed}"
    if scenario is None:
        return command
    files = _failure_files(options, scenario, sequence)
    if files is None:
        return command
    said = "the scenario it died on (alone, it does not crash the engine)" if sequence else "or this scenario alone"
    return f"{command}    # {said}: {options.command} --replay {shlex.quote(str(files[0]))}"


def _replay_engine(engine: Engine, options: CheckOptions, scenario: dict[str, Any] | None,
                   sequence: list[dict[str, Any]] | None = None) -> str:
    """The exact shell command feeding the failing scenario's line (a fault that needs the stream: the lines of
    the batch up to it) to a JSON-lines engine (and worker)."""
    argv = getattr(engine, "argv", None)
    if scenario is None or not argv:
        return ""
    files = _failure_files(options, scenario, sequence)
    return f"{shlex.join(argv)} < {shlex.quote(str(files[1]))}" if files else ""


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
    elif verdict == "fault":
        report.status, report.fault = "fault", detail
    elif verdict == "model-error":
        report.status, report.error = "model-error", detail
    return report


def _trail_step_json(step: Any) -> dict[str, Any]:
    """One step of the clause trail: a model function and its clauses, or an event it emitted."""
    if step.event is None:
        return {"function": step.function, "clauses": list(step.clauses), "depth": step.depth}
    return {"event": step.event, "index": step.event_index, "depth": step.depth}
