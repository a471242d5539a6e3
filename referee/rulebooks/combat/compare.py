"""Comparing a combat engine's final board with the model's."""

from __future__ import annotations

from ...rulebook import Divergence
from ...wire import Observation
from .codec import PLACEMENT_FIELDS, UNIT_FIELDS

#: The unit fields an engine may be compared on (``--compare fields``).
STATE_FIELDS = tuple(name for name in UNIT_FIELDS if name not in PLACEMENT_FIELDS)


def state_divergences(model: Observation, engine: Observation, names: tuple[str, ...]) -> list[Divergence]:
    out = []
    theirs = {u.uid: u for u in engine.state.units}
    ours = {u.uid: u for u in model.state.units}
    for unit in model.state.units:
        other = theirs.get(unit.uid)
        if other is None:
            out.append(Divergence("state", f"board.{unit.uid}", "present", "absent"))
            continue
        if _identical(unit, other):
            continue  # the common case: every field equal, with the same type, decided in one pass
        for name in (*PLACEMENT_FIELDS[1:], *names):
            a, b = getattr(unit, name), getattr(other, name)
            if a != b or type(a) is not type(b):
                out.append(Divergence("state", f"board.{unit.uid}.{name}", a, b))
    for uid in theirs:
        if uid not in ours:
            out.append(Divergence("state", f"board.{uid}", "absent", "present"))
    return out


def _identical(a: object, b: object) -> bool:
    """Every field of two units equal and of the same type (``True`` is not ``1``), in the same order."""
    x, y = vars(a), vars(b)
    return x == y and list(map(type, x.values())) == list(map(type, y.values()))


def describe_state(fields: tuple[str, ...] | None) -> str:
    """How the comparison of final boards reads in a report."""
    return "every unit field" if fields is None else "unit fields " + ", ".join(fields)
