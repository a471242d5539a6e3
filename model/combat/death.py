"""500.4a Cull: the second way to die, destroyed outright.

A unit dies when its Vitality reaches 0 (:func:`~referee.model.combat.vitality.lose_vitality`)
or when Cull destroys it outright (500.4a). Cull is not damage and not a cost: nothing in
the pipeline or 500.8 sees it, no defy-death rune answers it, and the death it causes is an
ordinary one (:func:`~referee.model.combat.vitality.process_death`): Macabre, deathrattles,
Phylactery and Everlasting, one Vessel Point batch (500.4b-e). What it may destroy is INT-407.
"""

from __future__ import annotations

from ..arith import and_, not_
from ..clauses import combat
from ..events import EventLog
from .state import Board, Bool, Unit
from .vitality import process_death


@combat.implements("500.4a")
def is_culled(unit: Unit) -> Bool:
    """Cull destroys a living unit outright; a Tool or Hub discards it (500.4a, 500.1-1, INT-407)."""
    return and_(unit.alive, not_(unit.discards_combat))


@combat.implements("500.4a")
def process_cull(board: Board, uid: str, source: str | None, log: EventLog) -> Board:
    """Cull destroys the unit outright: no prevention, then the ordinary death with its killer (500.4a)."""
    unit = board.unit(uid)
    culled = is_culled(unit)
    log.emit("culled", when=culled, unit=uid, amount=unit.vitality, other=source)
    return process_death(board, uid, culled, source, log)


def resolve_cull(board: Board, uid: str, source: str | None = None) -> tuple[Board, EventLog]:
    """Action: ``source`` culls ``uid``; the board and its events."""
    log = EventLog()
    return process_cull(board, uid, source, log), log
