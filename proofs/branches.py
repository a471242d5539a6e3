"""Plain Python that branches with ``if``, run on Z3 terms: every branch explored, merged into one term.

The single-source model never branches on a term (``arith`` refuses it), so running it on Z3
variables *is* its encoding. A fast twin written with Python's own ``if`` (``model/combat/fast.py``)
cannot be run that way: the first ``if`` on a symbolic condition has no single answer. :func:`merged`
answers it both ways. It runs the code with Z3 terms; the first time Python asks for the truth of
a condition that is not a constant, the run stops, and the code is run twice more from the start,
once answering ``True`` and once ``False`` at that point (and replaying the earlier answers),
recursively. The outputs of the two sides are joined with ``If(condition, ...)``, so the result is
a term equal to what the code returns, on every input: the tree of answers covers every path.

A side whose path condition Z3 shows unsatisfiable (under a small ``rlimit``) is not explored; an
``unknown`` is explored, since exploring an impossible path only adds a term that never applies.
The code must be deterministic and take the same branches given the same answers (checked: a
replayed condition must be the one recorded), and the paths are bounded by ``max_paths``: going
past it raises :class:`TooManyPaths`, never returns a part of the paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Resource limit of one feasibility check of a path condition (Z3 ``rlimit`` units).
FEASIBILITY_RLIMIT = 200_000


class TooManyPaths(RuntimeError):
    """The code has more paths than the exploration was allowed to follow."""


class BranchMismatch(RuntimeError):
    """A replayed run asked a different condition than the recorded one: the code is not deterministic."""


class _Fork(BaseException):
    """Raised at the first unanswered symbolic condition (a BaseException: no ``except Exception`` swallows it)."""

    def __init__(self, condition: Any) -> None:
        super().__init__()
        self.condition = condition


def merged(run: Callable[[], Any], *, context: list[Any] | None = None, max_paths: int = 4096) -> Any:
    """What ``run()`` returns, as one term over every path its Python branches can take.

    ``context`` holds facts every path may assume (the side conditions of the encoding); they
    only prune the exploration. Called with concrete inputs, ``run`` meets no symbolic branch
    and its result is returned as it is.
    """
    budget = [max_paths]
    return _explore(run, (), list(context or ()), budget)


def _explore(run: Callable[[], Any], answers: tuple[tuple[Any, bool], ...], context: list[Any],
             budget: list[int]) -> Any:
    outcome = _run_along(run, answers)
    if not isinstance(outcome, _Fork):
        budget[0] -= 1
        if budget[0] < 0:
            raise TooManyPaths("the code has more paths than max_paths allows")
        return outcome
    condition = outcome.condition
    sides = [value for value in (True, False) if _is_feasible(answers + ((condition, value),), context)]
    if len(sides) == 1:
        return _explore(run, answers + ((condition, sides[0]),), context, budget)
    then = _explore(run, answers + ((condition, True),), context, budget)
    otherwise = _explore(run, answers + ((condition, False),), context, budget)
    return join(condition, then, otherwise)


def _run_along(run: Callable[[], Any], answers: tuple[tuple[Any, bool], ...]) -> Any:
    """Run the code, answering its symbolic conditions from ``answers``; a :class:`_Fork` at the first unanswered one."""
    import z3

    position = 0

    def decide(term: Any) -> bool:
        nonlocal position
        if z3.is_true(term):
            return True
        if z3.is_false(term):
            return False
        if position == len(answers):
            raise _Fork(term)
        recorded, value = answers[position]
        if not recorded.eq(term):
            raise BranchMismatch(f"replay asked {term} where the recorded run asked {recorded}")
        position += 1
        return value

    saved = z3.BoolRef.__bool__
    z3.BoolRef.__bool__ = decide  # type: ignore[method-assign]
    try:
        return run()
    except _Fork as fork:
        return fork
    finally:
        z3.BoolRef.__bool__ = saved  # type: ignore[method-assign]


def _is_feasible(answers: tuple[tuple[Any, bool], ...], context: list[Any]) -> bool:
    """Whether the path condition may hold: not shown unsatisfiable within the rlimit."""
    import z3

    from .smt import TACTICS

    # The pipeline every check is decided by: Z3's default solver gives a nonlinear sub-solver a
    # wall-clock budget, so a path it showed infeasible quiet could stay open loaded, and the
    # merged term (the check's text) followed the load.
    solver = z3.Then(*TACTICS).solver()
    solver.set("rlimit", FEASIBILITY_RLIMIT)
    solver.add(*context, *(condition if value else z3.Not(condition) for condition, value in answers))
    return solver.check() != z3.unsat


def join(condition: Any, then: Any, otherwise: Any) -> Any:
    """``If(condition, then, otherwise)`` leaf by leaf through tuples (named tuples keep their type)."""
    import z3

    if isinstance(then, tuple) and isinstance(otherwise, tuple) and len(then) == len(otherwise):
        parts = [join(condition, a, b) for a, b in zip(then, otherwise)]
        return type(then)(*parts) if hasattr(then, "_fields") else tuple(parts)
    if _same(then, otherwise):
        return then
    return z3.If(condition, _term(then), _term(otherwise))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (bool, int, str, type(None))) and isinstance(b, (bool, int, str, type(None))):
        return type(a) is type(b) and a == b
    return hasattr(a, "eq") and hasattr(b, "eq") and a.eq(b)


def _term(value: Any) -> Any:
    import z3

    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    if isinstance(value, z3.ExprRef):
        return value
    raise TypeError(f"cannot join a branch that returned {value!r}: only integers, Booleans and their terms")
