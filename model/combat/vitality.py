"""Losing Vitality, and dying: the steps shared by damage (500.1-13) and costs (500.8).

Damage and Vitality costs reach a unit's Vitality by different roads, but once Vitality
has left, the same listeners answer (500.6c, 500.8d) and a unit at 0 dies the ordinary
way (500.4, 500.6d, 500.8j). Both roads end here.
"""

from __future__ import annotations

from collections.abc import Callable

from ..arith import and_, is_symbolic, ite, not_
from ..clauses import combat
from ..events import EventLog
from .revival import count_events, floor_revivable_maximum, is_revivable, process_revival_channels, revive_from_vessel
from .ruleset import Ruleset
from .state import Board, Bool, Int, Unit

#: An Everlasting unit revives this many milliseconds after its death (500.4d, 500.9a).
EVERLASTING_DELAY_MS = 10_000

#: The runes that lose their accumulated bonus when Vitality is lost (500.6c, 500.8d).
VITALITY_LOSS_RUNES = ("adrenaline", "momentum", "bolster")


def is_known_false(condition: Bool) -> bool:
    """A concrete ``False``: lets the concrete run skip copying a unit that would come out unchanged."""
    if condition is False or condition is True:  # the concrete path, first and cheapest
        return condition is False
    return not is_symbolic(condition) and not condition


@combat.implements("500.6c", "500.8d")
def process_vitality_loss_listeners(unit: Unit, lost: Int, log: EventLog) -> Unit:
    """Vitality left the unit: the reset runes lose their bonus and thresholds re-evaluate (500.6c, 500.8d)."""
    happened = lost > 0
    log.emit("vitality_lost", when=happened, unit=unit.uid, amount=lost)
    for rune in VITALITY_LOSS_RUNES:
        log.emit("rune_reset", when=and_(happened, getattr(unit, rune) > 0), unit=unit.uid, detail=rune)
    log.emit("threshold_reevaluated", when=happened, unit=unit.uid)
    if is_known_false(happened):
        return unit  # concretely nothing left: the unit is unchanged (no copy)
    return unit.evolve(**{rune: ite(happened, 0, getattr(unit, rune)) for rune in VITALITY_LOSS_RUNES})


@combat.implements("500.1-13", "500.4a")
def is_killed_by_vitality(before: Unit, after: Unit) -> Bool:
    """A living unit whose Vitality reaches 0 dies (500.1-13, 500.4a)."""
    return and_(before.alive, after.vitality <= 0)


@combat.implements("500.4b")
def clear_combat_state(unit: Unit) -> Unit:
    """On death the combat state is cleared: no Vitality, Shield, running bonuses or charge remain (500.4b, INT-010)."""
    return unit.evolve(alive=False, vitality=0, shield=0, adrenaline=0, momentum=0, bolster=0, charge=0)


@combat.implements("500.4c")
def announce_macabre(board: Board, dead: Unit, dies: Bool, log: EventLog) -> None:
    """Death fires Macabre for every other living unit on the board, either side (500.4c, INT-011)."""
    for other in board.units:
        if other.uid != dead.uid:
            log.emit("macabre", when=and_(dies, other.alive), unit=other.uid, other=dead.uid)


@combat.implements("500.4a", "500.4b", "500.4c", "500.4d", "500.4e", "500.6d", "500.8h", "500.8j", "500.9b", "500.9m")
def process_death(board: Board, uid: str, dies: Bool, killer: str | None, log: EventLog,
                  ruleset: Ruleset | None = None) -> Board:
    """Resolve a death when ``dies`` holds: announce it, Macabre, deathrattle, then revival (500.4).

    The death, everything it fires and an immediate Vessel revival with its listeners are one
    Vessel Point batch, reported last by ``vessel_batch`` with the number of events it pooled
    (500.4e, 500.9m, INT-408). An Everlasting revival is scheduled with the killer it will carry (500.9k).
    ``ruleset`` comes with a death an Interest payment caused, the only one whose maximum may be 0 (INT-120).
    """
    if is_known_false(dies):
        return board  # concretely no death: every event below is off and the unit is unchanged
    start = len(log.entries)
    unit = board.unit(uid)
    log.emit("death", when=dies, unit=uid, other=killer)
    dead = ite(dies, floor_revivable_maximum(clear_combat_state(unit), ruleset), unit)
    announce_macabre(board, unit, dies, log)
    log.emit("deathrattle", when=and_(dies, unit.deathrattle), unit=uid)
    uses_vessel = and_(dies, unit.vessels > 0, is_revivable(unit, ruleset))
    log.emit("vessel_revival", when=uses_vessel, unit=uid)
    board = board.with_unit(revive_from_vessel(dead, uses_vessel))
    process_revival_channels(board, uid, "phylactery", killer, uses_vessel, log)
    log.emit("everlasting_scheduled", when=and_(dies, not_(uses_vessel), unit.everlasting, is_revivable(unit, ruleset)),
             unit=uid, other=killer,
             amount=EVERLASTING_DELAY_MS)
    log.emit("vessel_batch", when=dies, unit=uid, amount=count_events(log, start), detail="death")
    return board


@combat.implements("500.1-13", "500.8b")
def lose_vitality(
    board: Board,
    uid: str,
    amount: Int,
    killer: str | None,
    log: EventLog,
    announce: Callable[[Int], None] | None = None,
    ruleset: Ruleset | None = None,
) -> tuple[Board, Int]:
    """Take up to ``amount`` Vitality from a living unit, run the loss listeners, and resolve a death.

    Returns the new board and the Vitality that actually left (never more than the unit had:
    500.8b, 500.8i). ``amount`` must be non-negative; mitigation has already happened.
    ``announce(lost)`` emits the caller's own channel (``damage_taken``, ``cost_paid``...)
    before the loss listeners and the death. ``ruleset`` is the death's (:func:`process_death`): an Interest
    payment's only.
    """
    unit = board.unit(uid)
    lost = ite(unit.alive, ite(amount <= unit.vitality, amount, unit.vitality), 0)
    after = unit if is_known_false(lost != 0) else unit.evolve(vitality=unit.vitality - lost)
    if announce is not None:
        announce(lost)
    after = process_vitality_loss_listeners(after, lost, log)
    dies = and_(lost > 0, is_killed_by_vitality(unit, after))
    return process_death(board.with_unit(after), uid, dies, killer, log, ruleset), lost
