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
import multiprocessing
import pkgutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from .core import THEOREMS, Theorem, Verdict, check_mutant, check_vacuity, prove

#: Wall-clock safety net per task, in seconds. The verdict is governed by the rlimit; this
#: only stops a solver whose work the rlimit does not count (nonlinear arithmetic can
#: spend time between resource checks). A task stopped this way is ``unknown``.
DEFAULT_TASK_TIMEOUT = 300.0


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
    """One question: ``kind`` is ``proof``, ``vacuity`` or ``mutant`` (then ``mutant`` names it)."""

    theorem: str
    kind: str
    mutant: str | None = None

    def __str__(self) -> str:
        return f"{self.theorem} {self.kind}" + (f" {self.mutant}" if self.mutant else "")


@dataclass
class MutantResult:
    """How the theorem fared against one deliberate bug: ``killed`` is the good answer."""

    name: str
    target: str
    description: str
    verdict: Verdict

    @property
    def status(self) -> str:
        return self.verdict.status


@dataclass
class TheoremResult:
    """The three answers for one theorem."""

    theorem: Theorem
    proof: Verdict
    vacuity: Verdict
    mutants: list[MutantResult] = field(default_factory=list)
    #: Lemmas this theorem uses whose own proof did not come back ``proved``.
    unproved_lemmas: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.theorem.name

    @property
    def status(self) -> str:
        return self.proof.status

    @property
    def seconds(self) -> float:
        """Wall time of the proof check itself."""
        return self.proof.seconds

    @property
    def total_seconds(self) -> float:
        """Wall time of every check of this theorem (proof, vacuity, mutants)."""
        return self.proof.seconds + self.vacuity.seconds + sum(m.verdict.seconds for m in self.mutants)

    @property
    def slowest_check(self) -> float:
        return max([self.proof.seconds, self.vacuity.seconds, *(m.verdict.seconds for m in self.mutants)])

    @property
    def killed(self) -> int:
        return sum(m.status == "killed" for m in self.mutants)

    @property
    def ok(self) -> bool:
        return not self.problems()

    def problems(self) -> list[str]:
        """Why this theorem fails the suite, one line per reason (empty when it passes)."""
        found = []
        if self.proof.status != "proved":
            found.append(f"{self.name}: proof {self.proof.status}" + _detail(self.proof))
        for lemma in self.unproved_lemmas:
            found.append(f"{self.name}: uses lemma {lemma}, which is not proved")
        if self.vacuity.status != "satisfiable":
            found.append(f"{self.name}: vacuity check {self.vacuity.status}" + _detail(self.vacuity))
        for mutant in self.mutants:
            if mutant.status != "killed":
                found.append(f"{self.name}: mutant {mutant.name} {mutant.status}" + _detail(mutant.verdict))
        return found


def _detail(verdict: Verdict) -> str:
    return f" ({verdict.detail})" if verdict.detail else ""


@dataclass
class SuiteResult:
    """Every theorem's result, with the run's settings and wall time."""

    theorems: list[TheoremResult]
    seconds: float
    jobs: int
    rlimit: int | None

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.theorems)

    def problems(self) -> list[str]:
        return [p for t in self.theorems for p in t.problems()]

    def count(self, status: str) -> int:
        return sum(t.status == status for t in self.theorems)


# --------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------


def tasks_for(theorems: Sequence[Theorem]) -> list[Task]:
    """Every question about every theorem: proof, vacuity, then each mutant."""
    tasks = []
    for thm in theorems:
        tasks.append(Task(thm.name, "proof"))
        tasks.append(Task(thm.name, "vacuity"))
        tasks.extend(Task(thm.name, "mutant", m.name) for m in thm.mutants)
    return tasks


def answer(thm: Theorem, task: Task, rlimit: int | None = None) -> Verdict:
    """Decide one task in this process."""
    if task.kind == "proof":
        return prove(thm, rlimit=rlimit)
    if task.kind == "vacuity":
        return check_vacuity(thm, rlimit=rlimit)
    mutant = next(m for m in thm.mutants if m.name == task.mutant)
    return check_mutant(thm, mutant, rlimit=rlimit)


def _reset_main_z3_context() -> None:
    """Give the forked child a pristine main Z3 context.

    The child inherits every term the parent ever built. Z3's search on the nonlinear
    Armor queries depends on term ids, so a theorem proved in under a second in a fresh
    process ran out of resources when the parent had built other encodings first (seen in
    the test suite). Building the encoding in a fresh main context makes each verdict
    independent of what ran before.
    """
    import z3

    z3.z3._main_ctx = None


def _child(connection: Any, thm: Theorem, task: Task, rlimit: int | None) -> None:
    try:
        _reset_main_z3_context()
        verdict = answer(thm, task, rlimit)
    except BaseException as error:  # noqa: BLE001 - reported, never lost
        verdict = Verdict("error", 0.0, detail=f"{type(error).__name__}: {error}")
    connection.send(verdict)
    connection.close()


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
) -> SuiteResult:
    """Answer every task for ``theorems``, ``jobs`` fresh processes at a time.

    ``rlimit`` overrides each theorem's own limit. ``on_verdict`` is called as each
    answer arrives (for progress). Processes are forked, so theorems registered at run
    time (a test's own registry) are seen by the children exactly as by the parent.
    """
    start = time.perf_counter()
    by_name = {thm.name: thm for thm in theorems}
    pending = tasks_for(theorems)
    verdicts: dict[Task, Verdict] = {}
    running: list[_Running] = []
    fork = multiprocessing.get_context("fork")
    jobs = max(1, jobs)
    while pending or running:
        while pending and len(running) < jobs:
            task = pending.pop(0)
            receiver, sender = fork.Pipe(duplex=False)
            process = fork.Process(target=_child, args=(sender, by_name[task.theorem], task, rlimit), daemon=True)
            process.start()
            sender.close()
            running.append(_Running(task, process, receiver, time.perf_counter()))
        wait([r.connection for r in running] + [r.process.sentinel for r in running], timeout=0.5)
        for item in list(running):
            verdict = _collect(item, timeout)
            if verdict is None:
                continue
            running.remove(item)
            verdicts[item.task] = verdict
            if on_verdict is not None:
                on_verdict(item.task, verdict)
    results = [_assemble(thm, verdicts) for thm in theorems]
    proved = {r.name for r in results if r.status == "proved"}
    for result in results:
        result.unproved_lemmas = [name for name in result.theorem.lemmas if name not in proved]
    return SuiteResult(results, time.perf_counter() - start, jobs, rlimit)


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


def _assemble(thm: Theorem, verdicts: dict[Task, Verdict]) -> TheoremResult:
    mutants = [
        MutantResult(m.name, m.target, m.description, verdicts[Task(thm.name, "mutant", m.name)])
        for m in thm.mutants
    ]
    return TheoremResult(thm, verdicts[Task(thm.name, "proof")], verdicts[Task(thm.name, "vacuity")], mutants)


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
        "mutants": [
            {"name": m.name, "target": m.target, "description": m.description, **verdict_record(m.verdict)}
            for m in result.mutants
        ],
        "ok": result.ok,
        "problems": result.problems(),
    }
