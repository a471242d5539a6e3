"""A check as SMT-LIB text, and deciding that text alone in a fresh Z3 context.

Every check (proof, vacuity, mutant) is first written out as SMT-LIB (:func:`query_text`)
and then decided from that text only (:func:`decide`): a new ``z3.Context`` parses it, so
the solver sees the same terms, with the same ids in the same order, whatever the process
built, freed or translated before. Run-to-run differences in the work Z3 does then come from
the text alone, and the text is a function of the code (tests/test_proof_determinism.py).

:func:`perturb` rewrites a text in Mariposa's sense (assertions shuffled, symbols renamed;
the solver seed is the third perturbation, given to :func:`decide`): each preserves the
meaning, so a stable check answers the same under all of them.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Sorts a theorem variable can have (see :class:`referee.proofs.core.Vars`).
INT, BOOL = "int", "bool"


@dataclass(frozen=True)
class Query:
    """One check's question: the SMT-LIB text, and the theorem's variables with their sorts."""

    text: str
    variables: tuple[tuple[str, str], ...]
    #: The name of the solver configuration (:data:`SOLVERS`) that decides the text.
    solver: str = "default"
    #: The ruleset options the obligation depends on (its cone of influence); not part of its identity.
    reads: tuple[str, ...] = ()

    @property
    def digest(self) -> str:
        """SHA-256 of the text, and of the solver's name when it is not the default (the query's identity)."""
        named = self.text if self.solver == DEFAULT_SOLVER else f"{self.solver}\0{self.text}"
        return hashlib.sha256(named.encode()).hexdigest()


@dataclass
class Answer:
    """What Z3 said about one text under one seed."""

    answer: str  # sat | unsat | unknown
    seed: int
    rlimit_used: int | None
    reason: str = ""
    values: dict[str, Any] | None = field(default=None)


def query_text(formulas: Sequence[Any]) -> str:
    """The SMT-LIB text asserting every formula (built in the current main context).

    Z3's ``Solver.sexpr()`` printer names a shared subterm by its occurrences in the text
    itself; ``to_smt2()`` also let-binds terms by their reference count, which counts Python's
    live references too, so its text followed what the garbage collector had freed.
    """
    import z3

    solver = z3.Solver()
    solver.add(*[z3.BoolVal(f) if isinstance(f, bool) else f for f in formulas])
    return solver.sexpr()


def variables_of(created: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The ``(name, sort)`` of each theorem variable, in the order the theorem made them."""
    import z3

    return tuple((name, BOOL if z3.is_bool(term) else INT) for name, term in created.items())


#: The solver every check is decided by: simplification, then Z3's SMT core. Z3's default
#: solver picks a tactic by logic, and its nonlinear one gives a sub-solver a wall-clock budget
#: (``try_for``), so the work done for one text followed the machine's load (issue 21: the same
#: text used 12.3M, then 15.2M units in one process). These tactics count work, never time.
#: (``propagate-values`` is left out: on one satisfiable mutant check it ran for minutes
#: without spending rlimit, where this pipeline answers in 0.1 s.)
TACTICS = ("simplify", "solve-eqs", "smt")

DEFAULT_SOLVER = "default"

#: The solver configurations a check may name (``@theorem(solver=...)``, ``Mutant(solver=...)``),
#: each a clock-free tactic pipeline: ``(tactic name, parameters)`` steps.
#:
#: * ``default``: :data:`TACTICS`.
#: * ``bounded-witness``: integers as 14-bit vectors (``nla2bv``), bit-blasted and handed to
#:   the SAT solver. It searches for a witness among small values only: a ``sat`` answer is a
#:   real model (replayed like any other), an empty bounded space is ``unknown``, never
#:   ``unsat``, so it suits checks that expect a witness (mutants), never a proof.
SOLVERS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    DEFAULT_SOLVER: tuple((name, {}) for name in TACTICS),
    "bounded-witness": (
        ("simplify", {}),
        ("nla2bv", {"nla2bv_max_bv_size": 14}),
        ("simplify", {}),
        ("solve-eqs", {}),
        ("bit-blast", {}),
        ("sat", {}),
    ),
}

#: Configurations that search a bounded space: their ``unsat`` says nothing of the whole space,
#: so :func:`decide` reports it as ``unknown`` (and :func:`referee.proofs.core.theorem` refuses
#: them for a theorem's proof).
WITNESS_ONLY = frozenset({"bounded-witness"})


def solver_tactic(name: str, ctx: Any) -> Any:
    """The tactic pipeline of :data:`SOLVERS` ``[name]`` in ``ctx``."""
    import z3

    if name not in SOLVERS:
        raise ValueError(f"unknown solver configuration {name!r} (known: {', '.join(SOLVERS)})")
    steps = [z3.With(z3.Tactic(step, ctx), **params) if params else z3.Tactic(step, ctx) for step, params in SOLVERS[name]]
    return z3.Then(*steps, ctx=ctx)


def new_solver(rlimit: int, seed: int, name: str = DEFAULT_SOLVER) -> tuple[Any, Any]:
    """A solver over :data:`SOLVERS` ``[name]`` in a new Z3 context, with the limit and seed set: ``(solver, ctx)``."""
    import z3

    ctx = z3.Context()
    solver = solver_tactic(name, ctx).solver()
    solver.set("rlimit", rlimit)
    solver.set("random_seed", seed)
    return solver, ctx


def decide(query: Query, rlimit: int, seed: int) -> Answer:
    """Decide ``query.text`` in a new Z3 context under ``rlimit`` and ``seed``."""
    import z3

    solver, ctx = new_solver(rlimit, seed, query.solver)
    solver.from_string(query.text)
    result = solver.check()
    used = rlimit_count(solver)
    if result == z3.unsat and query.solver in WITNESS_ONLY:
        return Answer("unknown", seed, used, f"no witness in the bounded space of {query.solver}")
    if result == z3.unsat:
        return Answer("unsat", seed, used)
    if result == z3.sat:
        return Answer("sat", seed, used, values=model_values(query.variables, solver.model(), ctx))
    return Answer("unknown", seed, used, solver.reason_unknown())


def rlimit_count(solver: Any) -> int | None:
    """The resource units the solver's last check used (Z3's ``rlimit count``)."""
    stats = solver.statistics()
    for key in stats.keys():
        if key == "rlimit count":
            return int(stats.get_key_value(key))
    return None


def model_values(variables: Sequence[tuple[str, str]], model: Any, ctx: Any) -> dict[str, Any]:
    """Each theorem variable's value in ``model`` (a variable the text does not mention gets its default)."""
    import z3

    values: dict[str, Any] = {}
    for name, sort in variables:
        term = z3.Bool(name, ctx) if sort == BOOL else z3.Int(name, ctx)
        value = model.eval(term, model_completion=True)
        values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
    return values


def perturb(query: Query, shuffle_seed: int) -> Query:
    """The same question with its assertions shuffled and every symbol renamed (Mariposa).

    Constants and uninterpreted functions are renamed ``p!<i>`` in order of first appearance
    after the shuffle; the meaning is unchanged, only the names and the order Z3 sees them.
    """
    import z3

    ctx = z3.Context()
    parsed = list(z3.parse_smt2_string(query.text, ctx=ctx))
    random.Random(shuffle_seed).shuffle(parsed)
    renamed = _renamed(parsed, ctx)
    solver = z3.Solver(ctx=ctx)
    solver.add(*renamed)
    return Query(solver.sexpr(), (), query.solver)


def _renamed(formulas: list[Any], ctx: Any) -> list[Any]:
    """``formulas`` with every uninterpreted symbol given a fresh neutral name."""
    import z3

    constants, functions = _symbols(formulas)
    pairs = [(c, z3.Const(f"p!{i}", c.sort())) for i, c in enumerate(constants)]
    renamed = [z3.substitute(f, *pairs) if pairs else f for f in formulas]
    if functions:
        base = len(constants)
        fresh = []
        for i, decl in enumerate(functions):
            domain = [decl.domain(k) for k in range(decl.arity())]
            new = z3.Function(f"p!{base + i}", *domain, decl.range())
            fresh.append((decl, new(*[z3.Var(k, sort) for k, sort in enumerate(domain)])))
        renamed = [z3.substitute_funs(f, *fresh) for f in renamed]
    return renamed


def _symbols(formulas: list[Any]) -> tuple[list[Any], list[Any]]:
    """The uninterpreted constants and functions of ``formulas``, in order of first appearance."""
    import z3

    constants: dict[Any, Any] = {}
    functions: dict[Any, Any] = {}
    seen: set[int] = set()
    stack = list(reversed(formulas))
    while stack:
        term = stack.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_app(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            if term.num_args() == 0:
                constants.setdefault(term.decl().name(), term)
            else:
                functions.setdefault(term.decl().name(), term.decl())
        if z3.is_app(term):
            stack.extend(reversed(term.children()))
    return list(constants.values()), list(functions.values())
