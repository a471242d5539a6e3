"""What a run is asked (:class:`CheckOptions`) and what it found (:class:`CheckReport`), with its text and JSON."""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass, field
from typing import Any

from .. import __version__, rulebooks
from . import failure_store, interrupts
from .compare import Comparison, Divergence
from ..engines.transports import EngineFault
from ..protocol import PROTOCOL, ProtocolError
from ..rulebooks import ACTION_KINDS
from ..trail import Step, clauses_applied

DATABASE_DIR = ".referee/examples"


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
    #: The clause the first divergence breaks, named by the one attribution every verb uses
    #: (``referee.check.grouping.clause_at_fault``); None: no divergence, or no step's clause is at fault.
    clause_at_fault: str | None = None
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
            if group.clause_at_fault():
                lines.append(f"    rule broken (clause at fault): {group.clause_at_fault()}")
            if getattr(group, "behind", None):
                lines.append(f"    seen behind {group.behind}: in every scenario of it that divergence comes first")
            lines.extend(_unsure_text(group))
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

    #: The model's explain steps around the first divergence (``referee.check.grouping.attribution``): the one before, the one at fault.
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
            "clause_at_fault": self.clause_at_fault,
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
        lines = [f"rule broken (clause at fault): {self.clause_at_fault}"] if self.clause_at_fault else []
        lines += [f"first divergence: {first.describe()}"] + [f"  also: {other.describe()}" for other in rest[:8]]
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


def _is_seeded(options: CheckOptions) -> bool:
    return options.generation == "seeded" and options.backend == "hypothesis"


def _said(verdict: str, detail: Any) -> str:
    """What was wrong, in one line, for a store record: the first divergence, or the fault."""
    try:
        if verdict == "mismatch":
            return detail[0].describe()
        return " ".join(detail.describe().split())[:500]
    except Exception:  # a record without its description still holds the scenario
        return verdict


@dataclass(frozen=True)
class Stop:
    """Why a campaign ended early: ``mismatch``, ``fault``, ``model-error``, ``enough`` (--max-divergences
    groups found), ``nondeterministic`` (a divergence that did not come back) or ``interrupted`` (Ctrl-C)."""

    reason: str
    scenario: dict[str, Any] | None = None
    detail: Any = None


def _trail_step_json(step: Any) -> dict[str, Any]:
    """One step of the clause trail: a model function and its clauses, or an event it emitted."""
    if step.event is None:
        return {"function": step.function, "clauses": list(step.clauses), "depth": step.depth}
    return {"event": step.event, "index": step.event_index, "depth": step.depth}


def describe_steps(steps: list[dict[str, Any]]) -> list[str]:
    """The steps as report lines: the one before, then the one at fault, each with its clause and numbers."""
    out = []
    for n, step in enumerate(steps):
        label = "at fault" if n == len(steps) - 1 else "before  "
        numbers = ", ".join(f"{k}={v}" for k, v in step["quantities"].items() if not isinstance(v, (dict, list)))
        out.append(f"  {label} [{step['clause']}] {step['text']}" + (f"  ({numbers})" if numbers else ""))
    return out


def _unsure_text(group: Any) -> list[str]:
    """What the grouping is unsure of about a group (``Group.unsure``), with the command that replays its
    representative alone, so that an engine author can tell one bug from two."""
    if not group.unsure:
        return []
    alone = group.replay.split("# or this scenario alone: ", 1)[-1]
    return [f"    unsure: {note}" for note in group.unsure] + [f"      replay this representative alone: {alone}"]
