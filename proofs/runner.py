"""The proof suite's runner: every question about every theorem, each in a fresh process.

For each theorem three kinds of question are asked (see :mod:`referee.proofs.core`): its
proof, its vacuity check, and one refutation per mutant. Each question is a task run in
a process forked for that task alone, so every check starts from a fresh Z3 context and
no check can slow another down through solver state left behind (DESIGN measured a
query that took 10 ms alone and 60 s after others). ``jobs`` tasks run at once.

The verdicts come back as dataclasses: :class:`TheoremResult` per theorem and one
:class:`SuiteResult`; :meth:`TheoremResult.problems` says in words why a theorem fails.
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
import pkgutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from . import smt
from .cache import ProofCache, cache_key
from .core import THEOREMS, Mutant, SolverAnswer, Theorem, Verdict, check, encode_check, judge
from .readings import (INTEGER_OPTIONS, OPTIONS, defaults, in_region, parse_region, reading_values, region_point,
                       region_text)

#: Wall-clock safety net per task, in seconds. The verdict is governed by the rlimit; this
#: only stops a solver whose work the rlimit does not count (nonlinear arithmetic can
#: spend time between resource checks). A task stopped this way is ``unknown``.
DEFAULT_TASK_TIMEOUT = 300.0
#: The margin rule: a check counts only when its worst rlimit used is at most this share of its limit.
DEFAULT_MARGIN = 0.25


# --------------------------------------------------------------------------------------
# Discovery and selection
# --------------------------------------------------------------------------------------


#: Theorem modules that failed to import during :func:`discover`, with the error.
IMPORT_ERRORS: list[tuple[str, str]] = []


def discover(package: str = "referee.proofs") -> dict[str, Theorem]:
    """Import every module under ``package`` (recursively), registering their theorems.

    A module that fails to import is recorded in :data:`IMPORT_ERRORS` (and ``referee
    prove`` fails naming it) while the others still run.
    """
    root = importlib.import_module(package)
    IMPORT_ERRORS.clear()
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + ".", onerror=_record_error):
        try:
            importlib.import_module(info.name)
        except Exception as error:  # noqa: BLE001 - reported by name, the rest still runs
            _record_error(info.name, error)
    return THEOREMS


def _record_error(name: str, error: BaseException | None = None) -> None:
    error = error if error is not None else sys.exc_info()[1]
    IMPORT_ERRORS.append((name, f"{type(error).__name__}: {error}"))


def select(theorems: Iterable[Theorem], pattern: str | None) -> list[Theorem]:
    """Theorems whose name or one of whose clause ids contains ``pattern`` (all when ``None``).

    The lemmas a chosen theorem uses are chosen too: a theorem is proved only with them.
    """
    pool = list(theorems)
    by_name = {thm.name: thm for thm in pool}
    wanted = {
        thm.name
        for thm in pool
        if pattern is None or any(pattern in name for name in [thm.name, *(str(c) for c in thm.clauses)])
    }
    if not wanted:
        return []
    frontier = list(wanted)
    while frontier:
        for lemma in by_name[frontier.pop()].lemmas:
            if lemma not in wanted and lemma in by_name:
                wanted.add(lemma)
                frontier.append(lemma)
    return [thm for thm in pool if thm.name in wanted]


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One question: ``kind`` is ``proof``, ``vacuity``, ``mutant`` (then ``mutant`` names it) or ``exception``
    (then ``region`` is the index of the theorem's ``unless`` region it checks)."""

    theorem: str
    kind: str
    mutant: str | None = None
    region: int | None = None
    #: For a vacuity check at one reading: the reading (``option=value and ...``).
    reading: str | None = None

    def __str__(self) -> str:
        return f"{self.theorem} {self.kind}" + (f" {self.mutant}" if self.mutant else "") + (
            f" {self.region}" if self.region is not None else "") + (f" at {self.reading}" if self.reading else "")


@dataclass
class MutantResult:
    """How the theorem fared against one deliberate bug: ``killed`` is the good answer."""

    name: str
    target: str
    description: str
    verdict: Verdict
    #: The reading it is killed at, when not the defaults (a bug only a proof over that reading refutes).
    under: str | None = None

    @property
    def status(self) -> str:
        return self.verdict.status


#: The answer each kind of check should give.
GOOD = {"proof": "proved", "vacuity": "satisfiable", "mutant": "killed", "exception": "confirmed"}


def worst_used(verdict: Verdict) -> int | None:
    """The most rlimit any run of this check used: every seed tried, every stability run.

    A run that ran out counts as its whole limit (it was not answered within it).
    """
    runs = [(a.answer, a.rlimit_used) for a in verdict.attempts]
    runs += [(r["answer"], r["rlimit_used"]) for r in verdict.extra.get("stability", [])]
    figures = [verdict.rlimit if answer == "unknown" else used for answer, used in runs]
    figures = [f for f in figures if f is not None]
    return max(figures) if figures else None


def margin_used(verdict: Verdict) -> float | None:
    """``worst_used / rlimit``: the share of its limit the check needed at worst."""
    worst = worst_used(verdict)
    return None if worst is None or not verdict.rlimit else worst / verdict.rlimit


@dataclass
class TheoremResult:
    """The three answers for one theorem."""

    theorem: Theorem
    proof: Verdict
    vacuity: Verdict
    mutants: list[MutantResult] = field(default_factory=list)
    #: Lemmas this theorem uses whose own proof did not come back ``proved``.
    unproved_lemmas: list[str] = field(default_factory=list)
    #: The margin rule's ratio (:data:`DEFAULT_MARGIN`).
    margin: float = DEFAULT_MARGIN
    #: Each ``unless`` region checked, as ``(region, verdict)``: ``confirmed`` is the good answer.
    exceptions: list[tuple[str, Verdict]] = field(default_factory=list)
    #: When its assumptions read options, the vacuity check at each reading of them, as ``(reading, verdict)``.
    vacuity_at: list[tuple[str, Verdict]] = field(default_factory=list)
    #: The readings the run fixed (an engine's declaration), empty for every reading.
    pinned: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.theorem.name

    @property
    def claimed(self) -> bool:
        """Whether the theorem is claimed under the run's readings (always, over every reading)."""
        return is_claimed(self.theorem, self.pinned)

    @property
    def status(self) -> str:
        """The proof's verdict; ``no headroom`` when Z3 proved it using more than the margin allows;
        ``not claimed`` when the run's fixed readings lie in one of its ``unless`` regions."""
        if not self.claimed:
            return "not claimed"
        if self.proof.status == "proved" and not self.within_margin(self.proof):
            return "no headroom"
        return self.proof.status

    @property
    def reads(self) -> list[str]:
        """The ruleset options its obligation depends on (the cone of influence), from its proof's encoding."""
        return list(self.proof.extra.get("reads") or [])

    @property
    def holds_under(self) -> str:
        """Under which readings the theorem is proved, in words."""
        regions = [region_text(r) for r in self.theorem.unless]
        if self.pinned:
            return "the declared readings" if self.claimed else "not claimed under the declared readings"
        return "every reading" + (f" except {'; '.join(regions)}" if regions else "")

    def within_margin(self, verdict: Verdict) -> bool:
        ratio = margin_used(verdict)
        return ratio is None or ratio <= self.margin

    def checks(self) -> list[tuple[str, str, Verdict]]:
        """Every check of this theorem as ``(label, kind, verdict)``."""
        found = [("proof", "proof", self.proof), ("vacuity check", "vacuity", self.vacuity)] if self.claimed else []
        found += [(f"vacuity check at {r}", "vacuity", verdict) for r, verdict in self.vacuity_at]
        found += [(f"mutant {m.name}", "mutant", m.verdict) for m in self.mutants]
        return found + [(f"exception {region}", "exception", verdict) for region, verdict in self.exceptions]

    @property
    def seconds(self) -> float:
        """Wall time of the proof check itself."""
        return self.proof.seconds

    @property
    def total_seconds(self) -> float:
        """Wall time of every check of this theorem (proof, vacuity, mutants, exceptions)."""
        return sum(verdict.seconds for _, _, verdict in self.checks())

    @property
    def slowest_check(self) -> float:
        return max([0.0, *(verdict.seconds for _, _, verdict in self.checks())])

    @property
    def killed(self) -> int:
        return sum(m.status == "killed" for m in self.mutants)

    @property
    def ok(self) -> bool:
        return not self.problems()

    def problems(self) -> list[str]:
        """Why this theorem fails the suite, one line per reason (empty when it passes)."""
        found = []
        if self.claimed and self.proof.status != "proved":
            found.append(f"{self.name}: proof {self.proof.status}" + _readings(self.proof) + _detail(self.proof))
        for lemma in self.unproved_lemmas if self.claimed else ():
            found.append(f"{self.name}: uses lemma {lemma}, which is not proved")
        if self.claimed and self.vacuity.status != "satisfiable":
            found.append(f"{self.name}: vacuity check {self.vacuity.status}" + _detail(self.vacuity))
        for reading, verdict in self.vacuity_at:
            if verdict.status != "satisfiable":
                found.append(f"{self.name}: vacuity check at {reading} {verdict.status}" + _detail(verdict))
        for mutant in self.mutants:
            if mutant.status != "killed":
                found.append(f"{self.name}: mutant {mutant.name} {mutant.status}" + _detail(mutant.verdict))
        for region, verdict in self.exceptions:
            if verdict.status != "confirmed":
                found.append(f"{self.name}: exception {region} {verdict.status}" + _stale(verdict))
        return found + self.reading_mutant_problems() + self.margin_problems() + self.stability_problems()

    def reading_mutant_problems(self) -> list[str]:
        """A theorem that reads an option it claims another reading of must refute a mutant under such a reading."""
        if not self.claimed or self.pinned or not _claimed_other_readings(self.theorem, self.reads):
            return []
        if any(m.status == "killed" and m.under for m in self.mutants):
            return []
        return [f"{self.name}: reads {', '.join(self.reads)}, but refutes no mutant under a reading other than the "
                "default (give it one: Mutant(..., under=...) or mutant.at_reading(option, reading))"]

    def margin_problems(self) -> list[str]:
        """Checks that gave the good answer but needed more than the margin of their limit."""
        found = []
        for label, kind, verdict in self.checks():
            if verdict.status == GOOD[kind] and not self.within_margin(verdict):
                found.append(
                    f"{self.name}: {label} used {margin_used(verdict):.0%} of its rlimit at worst "
                    f"({worst_used(verdict):,} of {verdict.rlimit:,}), above the margin of {self.margin:.0%}"
                )
        return found

    def stability_problems(self) -> list[str]:
        """Checks whose perturbed runs disagreed (unstable) or ran out (brittle)."""
        found = []
        for label, _, verdict in self.checks():
            category = verdict.extra.get("category")
            if category in ("unstable", "brittle"):
                answers = ", ".join(r["answer"] for r in verdict.extra["stability"])
                found.append(f"{self.name}: {label} is {category} under perturbation ({answers})")
        return found


def _detail(verdict: Verdict) -> str:
    return f" ({verdict.detail})" if verdict.detail else ""


def _readings(verdict: Verdict) -> str:
    """The readings a counterexample was found and replayed under (every option it names)."""
    chosen = reading_values(verdict.counterexample or {})
    return f" under {', '.join(f'{k}={v}' for k, v in sorted(chosen.items()))}" if chosen else ""


def _stale(verdict: Verdict) -> str:
    if verdict.status == "stale":
        return " (the theorem holds under these readings too: the exception is not needed, remove it)"
    return _detail(verdict)


def is_claimed(thm: Theorem, pinned: dict[str, Any]) -> bool:
    """Whether fixed readings leave the theorem claimed: they lie in none of its ``unless`` regions."""
    if not pinned:
        return True
    full = {**defaults(), **pinned}
    return not any(in_region(full, region) for region in thm.unless)


@dataclass
class CacheUse:
    """How a run used the proof cache: checks whose answer was reused, decided, stored."""

    reused: list[str] = field(default_factory=list)
    decided: list[str] = field(default_factory=list)
    stored: int = 0
    #: Checks whose fresh answer differs from the cached one (``full`` mode); each is a failure.
    disagreements: list[str] = field(default_factory=list)
    #: The cache key of each check, by check.
    keys: dict[str, str] = field(default_factory=dict)


@dataclass
class SuiteResult:
    """Every theorem's result, with the run's settings and wall time."""

    theorems: list[TheoremResult]
    seconds: float
    jobs: int
    rlimit: int | None
    margin: float = DEFAULT_MARGIN
    cache: CacheUse | None = None
    #: Perturbed runs per check (``--stability K``), 0 for a normal run.
    stability: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems()

    def problems(self) -> list[str]:
        found = [p for t in self.theorems for p in t.problems()]
        if self.cache is not None:
            found += [f"{task}: the cached answer differs from a fresh one" for task in self.cache.disagreements]
        return found

    def count(self, status: str) -> int:
        return sum(t.status == status for t in self.theorems)

    def worst_margin(self) -> tuple[float, str] | None:
        """The largest share of its limit any check used, and which check."""
        figures = [
            (ratio, f"{t.name} {label}")
            for t in self.theorems
            for label, _, verdict in t.checks()
            if (ratio := margin_used(verdict)) is not None
        ]
        return max(figures) if figures else None

    def outside_margin(self) -> list[str]:
        return [p for t in self.theorems for p in t.margin_problems()]


# --------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------


def tasks_for(theorems: Sequence[Theorem], pinned: dict[str, Any] | None = None) -> list[Task]:
    """Every question about every theorem: proof, vacuity, each mutant, then each exception.

    Under fixed readings (``pinned``) a theorem not claimed there gets only the exception its readings lie
    in (the counterexample under them); an exception the readings lie outside is not asked.
    """
    tasks = []
    for thm in theorems:
        if is_claimed(thm, pinned or {}):
            tasks += [Task(thm.name, "proof"), Task(thm.name, "vacuity")]
            tasks.extend(Task(thm.name, "mutant", m.name) for m in thm.mutants)
        full = {**defaults(), **(pinned or {})}
        tasks.extend(Task(thm.name, "exception", region=i) for i, region in enumerate(thm.unless)
                     if not pinned or in_region(full, region))  # fmt: skip
    return tasks


def _mutant(thm: Theorem, task: Task) -> Mutant | None:
    """The task's mutant: one of the theorem's, or (``name@option=reading``) one gated to a reading."""
    if task.kind != "mutant" or task.mutant is None:
        return None
    own = next((m for m in thm.mutants if m.name == task.mutant), None)
    if own is not None:
        return own
    name, _, where = task.mutant.partition("@")
    base = next(m for m in thm.mutants if m.name == name)
    ((option, _, reading),) = parse_region(where)
    return base.at_reading(option, reading)


#: Reading mutants tried per theorem before it is reported as refuting none.
MOST_READING_MUTANTS = 6


def reading_mutants(thm: Theorem, reads: list[str]) -> list[Task]:
    """For a theorem whose proof reads an option, its mutants gated to a reading away from the defaults that it
    claims (``name@option=reading``), in order: bugs only a proof over every reading can refute. None when a
    mutant of its own already names such a reading (``under``)."""
    if any(m.under for m in thm.mutants):
        return []
    found = [Task(thm.name, "mutant", f"{m.name}@{option}={reading}")
             for option, reading in _claimed_other_readings(thm, reads) for m in thm.mutants if _gateable(m)]
    return found[:MOST_READING_MUTANTS]


def vacuity_readings(thm: Theorem, reads: list[str]) -> list[Task]:
    """When a theorem's assumptions read options, a vacuity check at each reading of them it claims: the
    assumptions must be satisfiable under every one, not just under some."""
    if not reads:
        return []
    tasks = []
    for region in itertools.product(*[_every_reading(option) for option in reads]):
        if not any(in_region(region_point(region), r) for r in thm.unless):
            tasks.append(Task(thm.name, "vacuity", reading=region_text(region)))
    return tasks


def _every_reading(option: str) -> list[tuple[str, str, Any]]:
    """An option's readings as atoms: each word, or an integer option at its least value and above it."""
    if option in INTEGER_OPTIONS:
        least = INTEGER_OPTIONS[option]
        return [(option, "=", least), (option, ">=", least + 1)]
    return [(option, "=", value) for value in OPTIONS.get(option, ())]


def _claimed_other_readings(thm: Theorem, reads: list[str]) -> list[tuple[str, Any]]:
    """Each ``(option, reading)`` away from the defaults, of an option the theorem reads, that it claims (no
    ``unless`` region holds that reading with every other option at its default)."""
    return [(option, reading) for option in reads for reading in _other_readings(option)
            if not any(in_region(region_point(((option, "=", reading),)), u) for u in thm.unless)]


def _gateable(mutant: Mutant) -> bool:
    """A mutant whose targets are functions can be gated to a reading (a patched table cannot)."""
    def is_function(target: str, replacement: Any) -> bool:
        module_name, _, attribute = target.partition(":")
        return callable(getattr(importlib.import_module(module_name), attribute)) and callable(replacement)

    return all(is_function(t, r) for t, r in ((mutant.target, mutant.replacement), *mutant.also))


def _other_readings(option: str) -> tuple[Any, ...]:
    if option in INTEGER_OPTIONS:
        return (INTEGER_OPTIONS[option] + 1,)
    return OPTIONS[option][1:] if option in OPTIONS else ()


@dataclass
class CachePlan:
    """How a run uses a proof cache: ``reuse`` its answers, or (``False``) decide every check again.

    ``code`` is the code stamp (:func:`referee.proofs.cache.code_stamp`) the index is valid for.
    """

    cache: ProofCache
    code: str = ""
    reuse: bool = True


def answer(thm: Theorem, task: Task, rlimit: int | None = None, plan: CachePlan | None = None,
           pinned: dict[str, Any] | None = None) -> Verdict:
    """Decide one task in this process (its answer looked up in the cache first when ``plan`` reuses)."""
    lookup = None
    if plan is not None and plan.reuse:
        cache = plan.cache

        def lookup(query: smt.Query, limit: int) -> SolverAnswer | None:
            return cache.get(cache_key(query.digest, task.kind, limit))

    return check(thm, task.kind, _mutant(thm, task), rlimit=rlimit, lookup=lookup, pinned=pinned, region=task.region,
                 reading=task.reading)


def _reset_main_z3_context() -> None:
    """Give the forked child a pristine main Z3 context.

    The child inherits every term the parent ever built. The check is decided from its
    SMT-LIB text in a new context anyway (core.solve); a fresh main context keeps the
    encoding's own terms apart from the parent's, and its memory from growing.
    """
    import z3

    z3.z3._main_ctx = None


def _child(connection: Any, thm: Theorem, task: Task, rlimit: int | None, plan: CachePlan | None, stability: int,
           pinned: dict[str, Any]) -> None:
    try:
        _reset_main_z3_context()
        verdict = answer(thm, task, rlimit, None if stability else plan, pinned)
        if task.kind == "proof" and verdict.status == "counterexample":
            _add_failing_regions(thm, verdict, rlimit, pinned)
        if task.kind == "proof" and verdict.status == "unknown" and not pinned:
            _add_what_was_decided(thm, verdict, rlimit)
        if stability:
            _perturbed_runs(verdict, stability)
    except BaseException as error:  # noqa: BLE001 - reported, never lost
        verdict = Verdict("error", 0.0, detail=f"{type(error).__name__}: {error}")
    verdict.extra.pop("query", None)
    connection.send(verdict)
    connection.close()


def _add_failing_regions(thm: Theorem, verdict: Verdict, rlimit: int | None, pinned: dict[str, Any]) -> None:
    """A theorem that fails says under which readings (each region with a replayed counterexample): its
    ``detail`` names them, ``extra['fails_under']`` holds them, so its statement can gain the precondition."""
    from .failing import failing_regions

    found = failing_regions(thm, verdict, thm.rlimit if rlimit is None else rlimit, pinned)
    verdict.detail = found.text() + (f"; {verdict.detail}" if verdict.detail else "")
    verdict.extra["fails_under"] = [{"region": region_text(region), "counterexample": values}
                                    for region, values in found.regions]  # fmt: skip
    verdict.extra["fails_under_complete"] = found.complete


def _add_what_was_decided(thm: Theorem, verdict: Verdict, rlimit: int | None) -> None:
    """An ``unknown`` over every reading says what was decided: the same proof at the default readings alone."""
    at_defaults = check(thm, "proof", rlimit=rlimit, pinned=defaults())
    verdict.extra["decided"] = f"at the default readings: {at_defaults.status}"
    verdict.detail = f"{verdict.detail}; {verdict.extra['decided']}" if verdict.detail else verdict.extra["decided"]


def _perturbed_runs(verdict: Verdict, count: int) -> None:
    """Decide the check's text under ``count`` perturbations (Mariposa) and categorise it.

    Perturbation ``i`` shuffles the assertions with seed ``i``, renames every symbol and
    runs the solver with seed ``i``; each is decided once, in a new context, under the
    check's own limit. ``extra`` gets ``stability`` (the original run first, then each
    perturbation) and ``category``: ``stable``, ``unstable`` (sat and unsat both answered)
    or ``brittle`` (a run ran out).
    """
    query = verdict.extra.get("query")
    if query is None or verdict.rlimit is None:
        return
    first = verdict.attempts[0] if verdict.attempts else None
    runs = [{"run": "original, seed 0", "answer": first.answer, "rlimit_used": first.rlimit_used}] if first else []
    for i in range(1, count + 1):
        found = smt.decide(smt.perturb(query, shuffle_seed=i), verdict.rlimit, seed=i)
        runs.append({"run": f"shuffled {i}, renamed, seed {i}", "answer": found.answer, "rlimit_used": found.rlimit_used})
    answers = {r["answer"] for r in runs}
    category = "unstable" if {"sat", "unsat"} <= answers else "brittle" if "unknown" in answers else "stable"
    verdict.extra.update(stability=runs, category=category)


@dataclass
class _Running:
    task: Task
    process: Any
    connection: Any
    started: float


def run(
    theorems: Sequence[Theorem],
    *,
    jobs: int = 1,
    rlimit: int | None = None,
    timeout: float = DEFAULT_TASK_TIMEOUT,
    on_verdict: Callable[[Task, Verdict], None] | None = None,
    plan: CachePlan | None = None,
    stability: int = 0,
    margin: float = DEFAULT_MARGIN,
    pinned: dict[str, Any] | None = None,
) -> SuiteResult:
    """Answer every task for ``theorems``, ``jobs`` fresh processes at a time.

    ``rlimit`` overrides each theorem's own limit. ``on_verdict`` is called as each
    answer arrives (for progress). Processes are forked, so theorems registered at run
    time (a test's own registry) are seen by the children exactly as by the parent.
    With a cache ``plan``, a check whose key is known is not decided again (its witness is
    still replayed); new answers are stored in the cache (the caller saves it).
    ``stability`` > 0 decides every check again under that many perturbations. ``pinned`` fixes readings (an
    engine's declaration): every check is then asked under them alone, and decided or looked up by its text.
    """
    start = time.perf_counter()
    pinned = dict(pinned or {})
    by_name = {thm.name: thm for thm in theorems}
    verdicts: dict[Task, Verdict] = {}
    reuse = plan if not (stability or pinned) else None  # the index names the every-reading checks only
    pending = _reused(tasks_for(theorems, pinned), by_name, verdicts, rlimit, reuse, on_verdict)
    followup = lambda task, verdict: _followups(task, verdict, by_name, verdicts, rlimit, reuse, on_verdict)  # noqa: E731
    for task, verdict in list(verdicts.items()):
        pending += followup(task, verdict)
    _run_children(pending, by_name, verdicts, jobs, rlimit, timeout, on_verdict, plan, stability, pinned, followup)
    use = _use_cache(plan, by_name, verdicts, rlimit, reindex=not pinned) if plan is not None else None
    results = [_assemble(thm, verdicts, margin, pinned) for thm in theorems]
    proved = {r.name for r in results if r.status == "proved"}
    for result in results:
        result.unproved_lemmas = [name for name in result.theorem.lemmas if name not in proved]
    return SuiteResult(results, time.perf_counter() - start, max(1, jobs), rlimit, margin, use, stability)


def _followups(task: Task, verdict: Verdict, by_name: dict[str, Theorem], verdicts: dict[Task, Verdict],
               rlimit: int | None, plan: CachePlan | None, on_verdict: Any) -> list[Task]:
    """The tasks a verdict calls for: after a proof that reads an option, its first reading mutant; after a reading
    mutant that survived, the next one (each asked once)."""
    thm = by_name[task.theorem]
    if task.kind == "proof":
        candidates = reading_mutants(thm, verdict.extra.get("reads") or [])[:1]
    elif task.kind == "vacuity" and task.reading is None and verdict.status == "satisfiable":
        candidates = vacuity_readings(thm, verdict.extra.get("reads") or [])
    elif "@" in (task.mutant or "") and verdict.status == "survived":
        proof = verdicts.get(Task(thm.name, "proof"))
        following = reading_mutants(thm, proof.extra.get("reads") or []) if proof else []
        candidates = following[following.index(task) + 1:][:1] if task in following else []
    else:
        return []
    fresh = [t for t in candidates if t not in verdicts]
    return _reused(fresh, by_name, verdicts, rlimit, plan, on_verdict) if fresh else []


def _reused(tasks: list[Task], by_name: dict[str, Theorem], verdicts: dict[Task, Verdict], rlimit: int | None,
            plan: CachePlan | None, on_verdict: Callable[[Task, Verdict], None] | None) -> list[Task]:
    """The tasks still to decide: each one the cache's index answers goes into ``verdicts`` (and is reported)."""
    pending = []
    for task in tasks:
        verdict = _from_index(by_name[task.theorem], task, rlimit, plan)
        if verdict is None:
            pending.append(task)
            continue
        verdicts[task] = verdict
        if on_verdict is not None:
            on_verdict(task, verdict)
    return pending


def _from_index(thm: Theorem, task: Task, rlimit: int | None, plan: CachePlan | None) -> Verdict | None:
    """The verdict from the cache by the check's name, when the index is for this code (replayed here)."""
    if plan is None or not plan.reuse:
        return None
    limit = thm.rlimit if rlimit is None else rlimit
    key = plan.cache.indexed(plan.code, str(task), limit)
    found = plan.cache.get(key) if key is not None else None
    if found is None:
        return None
    start = time.perf_counter()
    verdict = judge(thm, task.kind, _mutant(thm, task), found, limit, 0.0, region=task.region, reading=task.reading)
    verdict.seconds = time.perf_counter() - start
    verdict.extra.update(key=key, reused=True, reads=list(plan.cache.reads(key)))
    return verdict


def _use_cache(plan: CachePlan, by_name: dict[str, Theorem], verdicts: dict[Task, Verdict], rlimit: int | None,
               reindex: bool = True) -> CacheUse:
    """Store every decided answer (never ``unknown``), index every key (``reindex``), count what was reused."""
    from .cache import index_name

    use, keys = CacheUse(), {}
    for task, verdict in verdicts.items():
        limit = by_name[task.theorem].rlimit if rlimit is None else rlimit
        digest = verdict.extra.get("digest")
        key = verdict.extra.get("key") or (cache_key(digest, task.kind, limit) if digest else None)
        if key is None:
            continue
        use.keys[str(task)] = keys[index_name(str(task), limit)] = verdict.extra["key"] = key
        if verdict.extra.get("reused"):
            use.reused.append(str(task))
            continue
        use.decided.append(str(task))
        fresh: SolverAnswer | None = verdict.extra.pop("answer", None)
        if fresh is None:
            continue
        before = plan.cache.get(key)
        if before is not None and before.answer != fresh.answer:
            use.disagreements.append(str(task))
        use.stored += plan.cache.put(key, task.kind, fresh, str(task), reads=verdict.extra.get("reads") or [])
    if reindex:  # the index names the every-reading checks; a run under fixed readings keeps it
        plan.cache.reindex(plan.code, keys)
    return use


def _run_children(
    pending: list[Task],
    by_name: dict[str, Theorem],
    verdicts: dict[Task, Verdict],
    jobs: int,
    rlimit: int | None,
    timeout: float,
    on_verdict: Callable[[Task, Verdict], None] | None,
    plan: CachePlan | None,
    stability: int,
    pinned: dict[str, Any],
    followup: Callable[[Task, Verdict], list[Task]],
) -> None:
    """Decide each pending task in a forked process of its own, ``jobs`` at a time (and the tasks each calls for)."""
    running: list[_Running] = []
    fork = multiprocessing.get_context("fork")
    while pending or running:
        while pending and len(running) < max(1, jobs):
            task = pending.pop(0)
            receiver, sender = fork.Pipe(duplex=False)
            args = (sender, by_name[task.theorem], task, rlimit, plan, stability, pinned)
            process = fork.Process(target=_child, args=args, daemon=True)
            process.start()
            sender.close()
            running.append(_Running(task, process, receiver, time.perf_counter()))
        wait([r.connection for r in running] + [r.process.sentinel for r in running], timeout=0.5)
        for item in list(running):
            verdict = _collect(item, timeout * (1 + stability))
            if verdict is None:
                continue
            running.remove(item)
            verdicts[item.task] = verdict
            if on_verdict is not None:
                on_verdict(item.task, verdict)
            pending.extend(followup(item.task, verdict))


def _collect(item: _Running, timeout: float) -> Verdict | None:
    """The task's verdict if it has one (or has died, or overrun), else ``None``."""
    elapsed = time.perf_counter() - item.started
    if item.connection.poll():
        try:
            verdict = item.connection.recv()
        except EOFError:
            verdict = None
        item.process.join()
        item.connection.close()
        if verdict is not None:
            return verdict
        return Verdict("error", elapsed, detail=f"the checking process died (exit code {item.process.exitcode})")
    if not item.process.is_alive():
        item.process.join()
        item.connection.close()
        return Verdict("error", elapsed, detail=f"the checking process died (exit code {item.process.exitcode})")
    if elapsed > timeout:
        item.process.kill()
        item.process.join()
        item.connection.close()
        return Verdict(
            "unknown", elapsed, detail=f"stopped by the wall-clock safety net after {timeout:g} s (rlimit not reached)"
        )
    return None


def _assemble(thm: Theorem, verdicts: dict[Task, Verdict], margin: float = DEFAULT_MARGIN,
              pinned: dict[str, Any] | None = None) -> TheoremResult:
    mutants = [
        MutantResult(m.name, m.target, m.description, verdicts[Task(thm.name, "mutant", m.name)], m.under)
        for m in thm.mutants if Task(thm.name, "mutant", m.name) in verdicts
    ]
    own = {m.name for m in thm.mutants}
    gated = [t for t in verdicts if t.theorem == thm.name and t.kind == "mutant" and "@" in (t.mutant or "")
             and t.mutant not in own]
    killed = [t for t in gated if verdicts[t].status == "killed"]
    for task in killed[:1] or gated:  # the reading mutant it refutes, else every one it did not
        mutant = _mutant(thm, task)
        mutants.append(MutantResult(mutant.name, mutant.target, mutant.description, verdicts[task], mutant.under))
    unasked = Verdict("not claimed", 0.0, detail="the fixed readings lie in one of its unless regions")
    proof = verdicts.get(Task(thm.name, "proof"), unasked)
    vacuity = verdicts.get(Task(thm.name, "vacuity"), unasked)
    exceptions = [(region_text(region), verdicts[Task(thm.name, "exception", region=i)])
                  for i, region in enumerate(thm.unless) if Task(thm.name, "exception", region=i) in verdicts]  # fmt: skip
    vacuity_at = [(t.reading, verdicts[t]) for t in verdicts if t.theorem == thm.name and t.kind == "vacuity" and t.reading]
    return TheoremResult(thm, proof, vacuity, mutants, margin=margin, exceptions=exceptions, pinned=dict(pinned or {}),
                         vacuity_at=vacuity_at)


# --------------------------------------------------------------------------------------
# Records (JSON)
# --------------------------------------------------------------------------------------


def verdict_record(verdict: Verdict) -> dict[str, Any]:
    return {
        "status": verdict.status,
        "seconds": round(verdict.seconds, 3),
        "seed": verdict.seed,
        "rlimit": verdict.rlimit,
        "rlimit_used": verdict.rlimit_used,
        "counterexample": verdict.counterexample,
        "detail": verdict.detail,
        "attempts": [
            {"seed": a.seed, "answer": a.answer, "rlimit_used": a.rlimit_used, "reason": a.reason}
            for a in verdict.attempts
        ],
        "worst_rlimit_used": worst_used(verdict),
        "margin_used": None if (ratio := margin_used(verdict)) is None else round(ratio, 4),
        "query_digest": verdict.extra.get("digest"),
        "cache_key": verdict.extra.get("key"),
        "reused": bool(verdict.extra.get("reused")),
        "stability": verdict.extra.get("stability"),
        "fails_under": verdict.extra.get("fails_under"),
        "category": verdict.extra.get("category"),
    }


def theorem_record(result: TheoremResult) -> dict[str, Any]:
    """One theorem as a JSON-ready record (the shape ``referee prove --json`` prints)."""
    thm = result.theorem
    return {
        "name": thm.name,
        "clauses": [str(c) for c in thm.clauses],
        "statement": thm.statement,
        "bound": thm.bound,
        "module": thm.module,
        "status": result.status,
        "holds_under": result.holds_under,
        "reads": result.reads,
        "unless": [region_text(r) for r in thm.unless],
        "exceptions": [{"region": region, **verdict_record(verdict)} for region, verdict in result.exceptions],
        "lemmas": list(thm.lemmas),
        "seconds": round(result.seconds, 3),
        "total_seconds": round(result.total_seconds, 3),
        "rlimit": result.proof.rlimit,
        "rlimit_used": result.proof.rlimit_used,
        "counterexample": result.proof.counterexample if result.status != "proved" else None,
        "detail": result.proof.detail,
        "proof": verdict_record(result.proof),
        "vacuity": result.vacuity.status,
        "vacuity_check": verdict_record(result.vacuity),
        "vacuity_at": [{"reading": reading, **verdict_record(verdict)} for reading, verdict in result.vacuity_at],
        "mutants": [
            {"name": m.name, "target": m.target, "description": m.description, "under": m.under,
             **verdict_record(m.verdict)}
            for m in result.mutants
        ],
        "ok": result.ok,
        "problems": result.problems(),
    }


# --------------------------------------------------------------------------------------
# Query texts (for the determinism test and the cache's CI listing)
# --------------------------------------------------------------------------------------


def query_digests(theorems: Sequence[Theorem], tasks: Sequence[Task] | None = None) -> dict[str, str]:
    """The SHA-256 of each check's SMT-LIB text, by check, built here one after the other.

    Each text is built in a fresh main Z3 context, as in a forked child; a text that cannot be
    built is given as ``error: ...``.
    """
    by_name = {thm.name: thm for thm in theorems}
    found = {}
    for task in tasks if tasks is not None else tasks_for(theorems):
        thm = by_name[task.theorem]
        _reset_main_z3_context()
        try:
            found[str(task)] = encode_check(thm, task.kind, _mutant(thm, task), region=task.region).digest
        except Exception as error:  # noqa: BLE001 - reported in the digest, compared like one
            found[str(task)] = f"error: {type(error).__name__}: {error}"
    return found
