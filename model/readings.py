"""Ruleset readings as symbols: one run of the model covers every reading of an option.

The model reads a ruleset option (``ruleset.negative_armor``) to choose between the
readings of the interpretation register. On a *symbolic* ruleset an option not yet fixed is
a :class:`SymbolicReading`, a solver variable over the option's readings: comparing it with a
reading gives a Z3 Boolean, and :func:`by_reading` runs every reading's branch and joins them
with ``ite``, so one formula covers them all (state merging, as in KLEE-style symbolic execution).

Any other use is refused: a Python ``if`` on the comparison raises
:class:`~referee.model.arith.SymbolicBranchError` (its ``term`` names the reading), as does
hashing or printing one. The caller (``referee.query``) then fixes that option to each of its
readings in turn (a *fork*). A symbolic reading can therefore never be taken for one of its
values: where the model branches on an option in Python, the search splits there instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .arith import SymbolicBranchError, ite

#: The prefix of a reading's solver variable: ``reading.negative_armor``.
READING_PREFIX = "reading."


class SymbolicReading:
    """An option whose reading is a solver variable: a Bool for two readings (true: the second), else an Int index."""

    __slots__ = ("name", "readings", "term")

    def __init__(self, name: str, readings: tuple[str, ...], term: Any) -> None:
        self.name = name
        self.readings = readings
        self.term = term

    def is_reading(self, reading: str) -> Any:
        """The Z3 Boolean "this option reads ``reading``"."""
        if reading not in self.readings:
            raise ValueError(f"{reading!r} is not a reading of {self.name} ({', '.join(self.readings)})")
        index = self.readings.index(reading)
        if len(self.readings) == 2:
            import z3

            return self.term if index == 1 else z3.Not(self.term)
        return self.term == index

    def __eq__(self, other: object) -> Any:  # type: ignore[override]
        return self.is_reading(other)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> Any:  # type: ignore[override]
        import z3

        return z3.Not(self.is_reading(other))  # type: ignore[arg-type]

    def _refuse(self, *_: Any) -> Any:
        error = SymbolicBranchError(f"the ruleset option {self.name} is symbolic here: compare it with a reading")
        error.term = self.is_reading(self.readings[0])
        raise error

    __hash__ = _refuse  # type: ignore[assignment]
    __bool__ = _refuse
    __str__ = _refuse  # type: ignore[assignment]
    __format__ = _refuse  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SymbolicReading({self.name})"


def word_options(cls: type) -> dict[str, tuple[str, ...]]:
    """Every option of a ruleset class whose readings are words, from its own declaration (the default first)."""
    import typing
    from dataclasses import fields

    hints = typing.get_type_hints(cls)
    out = {}
    for f in fields(cls):
        words = typing.get_args(hints[f.name])
        if words and all(isinstance(w, str) for w in words):
            out[f.name] = (f.default, *(w for w in words if w != f.default))
    return out


def reading_variable(v: Any, name: str, readings: tuple[str, ...]) -> SymbolicReading:
    """Option ``name`` as a variable of ``v`` (``reading.<name>``): a Bool for two readings (true: the second),
    else an Int index."""
    term = v.bool(READING_PREFIX + name) if len(readings) == 2 else v.int(READING_PREFIX + name)
    return SymbolicReading(name, readings, term)


def by_reading(option: Any, **branches: Callable[[], Any]) -> Any:
    """The branch of the option's reading, each branch a thunk named for its reading.

    Concretely only the chosen branch runs; on a :class:`SymbolicReading` every branch runs and
    the results are joined with ``ite`` (so the branches must have the same shape, as ``ite``'s do).
    """
    if not isinstance(option, SymbolicReading):
        return branches[option]()
    missing = set(option.readings) - set(branches)
    if missing:
        raise ValueError(f"by_reading({option.name}): no branch for {', '.join(sorted(missing))}")
    *first, last = option.readings
    result = branches[last]()
    for reading in reversed(first):
        result = ite(option.is_reading(reading), branches[reading](), result)
    return result


def readings_in(term: Any) -> list[str]:
    """The options whose reading variables occur in a Z3 term (sorted), e.g. a branch the model could not merge."""
    if term is None:
        return []
    import z3

    seen, names, stack = set(), set(), [term]
    while stack:  # each shared subterm once: a pipeline's terms share most of theirs
        node = stack.pop()
        if node.get_id() in seen:
            continue
        seen.add(node.get_id())
        if z3.is_const(node) and node.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            names.add(node.decl().name())
        stack.extend(node.children())
    return sorted(name[len(READING_PREFIX):] for name in names if name.startswith(READING_PREFIX))
