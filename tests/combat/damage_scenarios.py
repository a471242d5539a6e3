"""Small builders for damage-pipeline tests: boards of units at distinct cells, event views."""

from __future__ import annotations

from typing import Any

from referee.model.combat.damage import DamageInstance, DamageOutcome, resolve_damage
from referee.model.events import EventLog
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit


def unit(uid: str, side: int = 0, **fields: Any) -> Unit:
    """A unit; its cell is given by the board builder."""
    return Unit(uid=uid, side=side, **fields)


def board(*units: Unit) -> Board:
    """A board with each unit in its own column (row 0), in the order given."""
    placed = []
    for col, u in enumerate(units):
        placed.append(u.evolve(col=col))
    return Board(tuple(placed))


def hit(b: Board, target: str, amount: int, source: str | None = "enemy", ruleset: Ruleset = DEFAULT, **kw: Any
        ) -> tuple[Board, EventLog, DamageOutcome]:
    """Resolve one instance of ``amount`` at ``target``."""
    return resolve_damage(b, DamageInstance(target, amount, source, **kw), ruleset)


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    """``(unit, amount, other, detail)`` of every event called ``name``."""
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def enemy(**fields: Any) -> Unit:
    """The usual attacker, on side 1."""
    return unit("enemy", side=1, **fields)
