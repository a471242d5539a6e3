"""Arithmetic that runs unchanged on Python integers and on Z3 terms.

The arithmetic rules (the damage pipeline, costs, recovery) are written once, over
these helpers. Called with ``int`` and ``bool`` they compute the model's answer;
called with Z3 terms inside :func:`symbolic` they build the Z3 encoding of the same
rule. That is DESIGN's way (a), "single source": the encoding *is* the model run on
symbols, so the two cannot drift apart. The model never imports Z3 itself; the
helpers only recognise Z3 terms when they are handed some.

Three traps this module closes, each measured (DESIGN, proofs/):

* ``bool(x == y)`` on Z3 terms silently compares structure. Inside :func:`symbolic`
  any ``if`` on a symbolic condition raises :class:`SymbolicBranchError` instead, so
  model code that branches with Python ``if`` where it needs :func:`ite` is caught.
* Z3's integer division is Euclidean, equal to Python's ``//`` only for a positive
  divisor, so :func:`floordiv` and :func:`ceildiv` demand a positive divisor.
* :func:`ite` evaluates both branches, so both must be safe to evaluate.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any


class SymbolicBranchError(TypeError):
    """Model code asked Python for the truth of a symbolic condition (``term``: that condition, when known)."""

    term: Any = None


#: Types that are never symbolic; checking membership here first keeps the concrete path fast.
_CONCRETE_TYPES = frozenset({bool, int, str, type(None), tuple})


def is_symbolic(*values: Any) -> bool:
    """True when any value is a Z3 term (checked without importing Z3)."""
    for v in values:
        kind = type(v)
        if kind not in _CONCRETE_TYPES and kind.__module__.startswith("z3"):
            return True
    return False


def _z3():
    import z3  # imported lazily: the model itself never needs Z3

    return z3


def ite(condition: Any, then: Any, otherwise: Any) -> Any:
    """``then`` if ``condition`` else ``otherwise``; a Z3 ``If`` for a symbolic condition.

    Dataclass values (a :class:`~referee.model.combat.state.Unit`) are chosen field by field.
    """
    if condition is True:  # the concrete path, first and cheapest
        return then
    if condition is False:
        return otherwise
    if not is_symbolic(condition):
        return then if condition else otherwise
    if is_dataclass(then):
        return replace(
            then,
            **{
                f.name: ite(condition, getattr(then, f.name), getattr(otherwise, f.name))
                for f in fields(then)
                if getattr(then, f.name) is not getattr(otherwise, f.name)
            },
        )
    if isinstance(then, str) or then is None:
        if then == otherwise:
            return then
        error = SymbolicBranchError(f"cannot choose symbolically between {then!r} and {otherwise!r}")
        error.term = condition
        raise error
    return _z3().If(condition, then, otherwise)


def not_(condition: Any) -> Any:
    """Logical negation of a bool or a Z3 Boolean."""
    if condition is True or condition is False:
        return not condition
    return _z3().Not(condition) if is_symbolic(condition) else not condition


def and_(*conditions: Any) -> Any:
    """Logical conjunction of bools or Z3 Booleans."""
    for c in conditions:
        if c is not True and c is not False:
            return _z3().And(*conditions) if is_symbolic(*conditions) else all(conditions)
    return False not in conditions  # every one a bool: the concrete path, without a call to all()


def or_(*conditions: Any) -> Any:
    """Logical disjunction of bools or Z3 Booleans."""
    for c in conditions:
        if c is not True and c is not False:
            return _z3().Or(*conditions) if is_symbolic(*conditions) else any(conditions)
    return True in conditions  # every one a bool: the concrete path, without a call to any()


def min_(a: Any, b: Any) -> Any:
    """The smaller of two integers or integer terms."""
    if type(a) is int and type(b) is int:  # the concrete path: what ite(a <= b, a, b) returns on ints
        return a if a <= b else b
    return ite(a <= b, a, b)


def max_(a: Any, b: Any) -> Any:
    """The larger of two integers or integer terms."""
    if type(a) is int and type(b) is int:  # the concrete path: what ite(a >= b, a, b) returns on ints
        return a if a >= b else b
    return ite(a >= b, a, b)


def clamp(value: Any, low: Any, high: Any) -> Any:
    """``value`` limited to ``[low, high]`` (requires ``low <= high``)."""
    return min_(max_(value, low), high)


def floordiv(a: Any, b: int) -> Any:
    """``floor(a / b)`` for a positive literal divisor ``b``."""
    if type(a) is int and type(b) is int and b > 0:  # the concrete path, checks included
        return a // b
    _require_positive_divisor(b)
    return a / b if is_symbolic(a) else a // b


def ceildiv(a: Any, b: int) -> Any:
    """``ceil(a / b)`` for a positive literal divisor ``b``."""
    if type(a) is int and type(b) is int and b > 0:  # the concrete path, checks included
        return -((-a) // b)
    _require_positive_divisor(b)
    return -((-a) / b) if is_symbolic(a) else -((-a) // b)


def _require_positive_divisor(b: Any) -> None:
    if is_symbolic(b) or not isinstance(b, int) or b <= 0:
        raise ValueError(f"divisor must be a positive integer literal, got {b!r}")


# --------------------------------------------------------------------------------------
# Symbolic mode
# --------------------------------------------------------------------------------------


@dataclass
class SymbolicContext:
    """What a symbolic run of the model adds beyond its return value.

    ``side_conditions`` define the fresh variables that :func:`least_such_that`
    introduces; an encoding is the return value *together with* these.
    """

    side_conditions: list[Any] = field(default_factory=list)
    _names: Iterator[int] = field(default_factory=itertools.count)

    def fresh_int(self, hint: str) -> Any:
        return _z3().Int(f"{hint}!{next(self._names)}")


_CONTEXT: contextvars.ContextVar[SymbolicContext | None] = contextvars.ContextVar(
    "referee_symbolic_context", default=None
)


def _strict_bool(self: Any) -> bool:
    z3 = _z3()
    if z3.is_true(self):
        return True
    if z3.is_false(self):
        return False
    error = SymbolicBranchError(f"Python `if` on the symbolic condition {self}; write the rule with ite/and_/or_")
    error.term = self  # what the condition depends on: a symbolic reading here makes the caller fix it (model/readings.py)
    raise error


@contextlib.contextmanager
def symbolic() -> Iterator[SymbolicContext]:
    """Run model code on Z3 terms: collect side conditions, forbid Python branching on terms."""
    z3 = _z3()
    context = SymbolicContext()
    token = _CONTEXT.set(context)
    saved = z3.BoolRef.__bool__
    z3.BoolRef.__bool__ = _strict_bool  # type: ignore[method-assign]
    try:
        yield context
    finally:
        z3.BoolRef.__bool__ = saved  # type: ignore[method-assign]
        _CONTEXT.reset(token)


_SINGLE_SOURCE: contextvars.ContextVar[bool] = contextvars.ContextVar("referee_single_source", default=False)


class single_source:
    """Within the block a concrete run takes the single-source code only, never a fast twin.

    A fast twin (``model/combat/fast.py``) is plain-Python code held equal to the single-source
    rules; a proof's replay and a mutant (which patches a single-source function) must run the
    rules themselves. A class rather than a generator: ``--stats`` enters one for every scenario.
    """

    def __enter__(self) -> None:
        self.token = _SINGLE_SOURCE.set(True)

    def __exit__(self, *exc: object) -> None:
        _SINGLE_SOURCE.reset(self.token)


def least_such_that(
    predicate: Callable[[Any], Any], low: Any, high: Any, hint: str, guess: Callable[[], int] | None = None
) -> Any:
    """The least ``n`` in ``[low, high]`` with ``predicate(n)``, for a predicate monotone in ``n``.

    ``predicate(high)`` must hold. Concretely this is a binary search, tried first at
    ``guess()`` when given: a guess ``g`` is returned only when the predicate itself holds at
    ``g`` and fails at ``g - 1`` (or ``g`` is ``low``), which for a monotone predicate makes
    ``g`` the least, so a guess (a float estimate, say) can speed the search but never decide
    it. Symbolically the guess is ignored, and ``least_such_that`` is
    a fresh integer ``n`` pinned by ``low <= n <= high``, ``predicate(n)`` and
    ``n == low or not predicate(n - 1)``, which has exactly one solution for a monotone
    predicate (the encoding's functionality is proved in ``proofs/``).
    """
    if is_symbolic(low, high) or _is_symbolic_predicate(predicate, high):
        context = _CONTEXT.get()
        if context is None:
            raise SymbolicBranchError("least_such_that on Z3 terms needs `with symbolic():`")
        z3 = _z3()
        n = context.fresh_int(hint)
        context.side_conditions.extend(
            [low <= n, n <= high, predicate(n), z3.Or(n == low, z3.Not(predicate(n - 1)))]
        )
        return n
    if guess is not None and low < high:
        try:
            g = guess()
        except (ArithmeticError, ValueError):  # an estimate outside its own domain (``ite`` runs both branches)
            g = None
        if type(g) is int and low <= g <= high and predicate(g) is True and (g == low or predicate(g - 1) is False):
            return g
    while low < high:
        middle = (low + high) // 2
        if predicate(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _is_symbolic_predicate(predicate: Callable[[Any], Any], probe: Any) -> bool:
    return is_symbolic(predicate(probe))
