"""Theorems over the single-source encoding, and how one obligation is decided.

A theorem is a Python function of :class:`Vars` that returns an :class:`Obligation`:
assumptions and a claim, both built by running model code. Run with Z3 variables it is
the encoding; run with the concrete values of a Z3 model it is the model itself, which
is how a counterexample is replayed before it is shown (DESIGN, proofs/).

Three questions are asked of every theorem, each in a fresh process and a fresh Z3
context, under a resource limit (``rlimit``) so that the verdict is the same on every
machine:

* proof: ``assume and not claim`` is unsatisfiable;
* vacuity: ``assume`` alone is satisfiable (otherwise the theorem proves nothing);
* each mutant: with a deliberate bug patched into the model, a counterexample exists.

An ``unknown`` is retried with other random seeds and is never reported as proved.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from referee.model.arith import and_, symbolic
from referee.model.clauses import ClauseId, parse_clause_id
from referee.model.state import Unit

#: The default resource limit for one check (Z3 ``rlimit`` units, machine independent).
DEFAULT_RLIMIT = 20_000_000
#: Seeds tried in turn while the answer is ``unknown``.
RETRY_SEEDS = (0, 1, 2)


# --------------------------------------------------------------------------------------
# Variables: symbolic while proving, concrete while replaying
# --------------------------------------------------------------------------------------


class Vars:
    """Named inputs of a theorem: Z3 constants, or the values of a counterexample."""

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self._values = values
        self.created: dict[str, Any] = {}

    @property
    def symbolic(self) -> bool:
        return self._values is None

    def int(self, name: str) -> Any:
        return self._get(name, "int")

    def bool(self, name: str) -> Any:
        return self._get(name, "bool")

    def _get(self, name: str, sort: str) -> Any:
        if name in self.created:
            return self.created[name]
        if self._values is None:
            import z3

            value = z3.Int(name) if sort == "int" else z3.Bool(name)
        else:
            default = 0 if sort == "int" else False
            value = self._values.get(name, default)
        self.created[name] = value
        return value

    def unit(self, uid: str, *, side: int = 0, row: int = 0, col: int = 0, **fixed: Any) -> Unit:
        """A unit whose every numeric and Boolean field is a variable ``uid.field``.

        ``fixed`` pins fields to given values (for example ``redirect_to=None``).
        """
        values: dict[str, Any] = {}
        for f in fields(Unit):
            if f.name in ("uid", "side", "row", "col") or f.name in fixed:
                continue
            if isinstance(f.default, bool):
                values[f.name] = self.bool(f"{uid}.{f.name}")
            elif isinstance(f.default, int):
                values[f.name] = self.int(f"{uid}.{f.name}")
        return Unit(uid=uid, side=side, row=row, col=col, **values, **fixed)


# --------------------------------------------------------------------------------------
# Theorems and mutants
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Obligation:
    """What a theorem asks: under ``assume``, ``claim`` holds."""

    assume: Any
    claim: Any


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug: ``target`` (``module:attribute``) replaced by ``replacement``."""

    name: str
    target: str
    replacement: Callable[..., Any]
    description: str = ""

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        module_name, _, attribute = self.target.partition(":")
        module = importlib.import_module(module_name)
        original = getattr(module, attribute)
        setattr(module, attribute, self.replacement)
        try:
            yield
        finally:
            setattr(module, attribute, original)


@dataclass(frozen=True)
class Theorem:
    """A named invariant over the encoding, with the clauses it speaks for."""

    name: str
    clauses: tuple[ClauseId, ...]
    statement: str
    build: Callable[[Vars], Obligation]
    mutants: tuple[Mutant, ...]
    bound: str | None = None
    rlimit: int = DEFAULT_RLIMIT
    module: str = ""


THEOREMS: dict[str, Theorem] = {}


def theorem(
    *clauses: str,
    mutants: tuple[Mutant, ...] | list[Mutant],
    bound: str | None = None,
    rlimit: int = DEFAULT_RLIMIT,
) -> Callable[[Callable[[Vars], Obligation]], Theorem]:
    """Register a theorem; its name is the function's, its statement the docstring."""

    def register(build: Callable[[Vars], Obligation]) -> Theorem:
        if not mutants:
            raise ValueError(f"theorem {build.__name__} needs at least one mutant")
        if not (build.__doc__ or "").strip():
            raise ValueError(f"theorem {build.__name__} needs a one-sentence docstring")
        if build.__name__ in THEOREMS:
            raise ValueError(f"duplicate theorem name {build.__name__}")
        ids = tuple(parse_clause_id(c) for c in clauses)
        thm = Theorem(
            name=build.__name__,
            clauses=ids,
            statement=" ".join(build.__doc__.split()),
            build=build,
            mutants=tuple(mutants),
            bound=bound,
            rlimit=rlimit,
            module=build.__module__,
        )
        THEOREMS[thm.name] = thm
        return thm

    return register


# --------------------------------------------------------------------------------------
# Deciding one question
# --------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """The answer to one question about one theorem (proof, vacuity, or a mutant)."""

    status: str  # proved | counterexample | unknown | encoding-defect | vacuous | satisfiable | killed | survived
    seconds: float
    seed: int | None = None
    counterexample: dict[str, Any] | None = None
    detail: str = ""
    rlimit_used: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _encode(thm: Theorem, mutant: Mutant | None) -> tuple[Vars, Obligation, list[Any]]:
    variables = Vars()
    with contextlib.ExitStack() as stack:
        if mutant is not None:
            stack.enter_context(mutant.applied())
        context = stack.enter_context(symbolic())
        obligation = thm.build(variables)
    return variables, obligation, context.side_conditions


def _solve(formulas: list[Any], rlimit: int) -> tuple[str, Any, int | None, int]:
    import z3

    for seed in RETRY_SEEDS:
        solver = z3.Solver()
        solver.set("rlimit", rlimit)
        solver.set("random_seed", seed)
        solver.add(*formulas)
        result = solver.check()
        if result == z3.unsat:
            return "unsat", None, seed, _rlimit_count(solver)
        if result == z3.sat:
            return "sat", solver.model(), seed, _rlimit_count(solver)
    return "unknown", None, None, None


def _rlimit_count(solver: Any) -> int | None:
    stats = solver.statistics()
    for key in stats.keys():
        if key == "rlimit count":
            return int(stats.get_key_value(key))
    return None


def _model_values(variables: Vars, model: Any) -> dict[str, Any]:
    import z3

    values: dict[str, Any] = {}
    for name, term in variables.created.items():
        value = model.eval(term, model_completion=True)
        values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
    return values


def replay(thm: Theorem, values: dict[str, Any], mutant: Mutant | None = None) -> tuple[bool, bool]:
    """Run the theorem concretely on a counterexample: ``(assumption holds, claim holds)``."""
    variables = Vars(values)
    with mutant.applied() if mutant is not None else contextlib.nullcontext():
        obligation = thm.build(variables)
    return bool(obligation.assume), bool(obligation.claim)


def prove(thm: Theorem, mutant: Mutant | None = None) -> Verdict:
    """Decide ``assume => claim`` for the encoding (or for one mutant of it)."""
    import z3

    start = time.perf_counter()
    variables, obligation, side = _encode(thm, mutant)
    answer, model, seed, used = _solve([*side, obligation.assume, z3.Not(obligation.claim)], thm.rlimit)
    seconds = time.perf_counter() - start
    if answer == "unsat":
        return Verdict("proved", seconds, seed, rlimit_used=used)
    if answer == "unknown":
        return Verdict("unknown", seconds, None, detail=f"no answer within rlimit {thm.rlimit} for seeds {RETRY_SEEDS}")
    values = _model_values(variables, model)
    assumed, claimed = replay(thm, values, mutant)
    if assumed and not claimed:
        return Verdict("counterexample", seconds, seed, counterexample=values, rlimit_used=used)
    return Verdict(
        "encoding-defect",
        seconds,
        seed,
        counterexample=values,
        detail="Z3 found a counterexample that the model does not reproduce "
        f"(assumption holds: {assumed}, claim holds: {claimed})",
    )


def check_vacuity(thm: Theorem) -> Verdict:
    """The assumptions alone must be satisfiable, or the theorem proves nothing."""
    start = time.perf_counter()
    variables, obligation, side = _encode(thm, None)
    answer, model, seed, used = _solve([*side, obligation.assume], thm.rlimit)
    seconds = time.perf_counter() - start
    status = {"sat": "satisfiable", "unsat": "vacuous", "unknown": "unknown"}[answer]
    witness = _model_values(variables, model) if model is not None else None
    return Verdict(status, seconds, seed, counterexample=witness, rlimit_used=used)


def check_mutant(thm: Theorem, mutant: Mutant) -> Verdict:
    """A mutant is killed when the theorem has a replayable counterexample against it."""
    verdict = prove(thm, mutant)
    verdict.status = {"counterexample": "killed", "proved": "survived"}.get(verdict.status, verdict.status)
    return verdict


def all_of(*conditions: Any) -> Any:
    """Conjunction that reads well in theorem assumptions."""
    return and_(*conditions)
