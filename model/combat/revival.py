"""500.9 Revival: the body both causes share, and the channels a revival dispatches.

Two causes bring a dead unit back (500.9 intro): a Phylactery Vessel, spent the moment the
death has resolved, in the cell of death (500.9b, :func:`~referee.model.combat.vitality.process_death`);
and an Everlasting timer, 10 seconds later, in a free slot of the unit's own half, retried on
later ticks while the half is full (500.9a, :mod:`~referee.model.combat.battle`). From there
both run :func:`revive_unit` (500.9c-g, 500.9l) and :func:`process_revival_channels` (500.9h-k).

Worked example: a unit with Armor 50 is Crushed to 20 (``armor_change = -30``), Entrapped and
Prismbroken, saved once by its defy-death rune (``defy_death_spent``), then killed with 40
charge built. Its Vessel revives it: full Vitality, Armor 50, no status, charge 0, its
defy-death rune armed again, and one more target incarnation.

The functions are written over ``arith`` so they run on Z3 terms too; the slot search
(:func:`get_everlasting_slot`) is board structure and stays concrete.
"""

from __future__ import annotations

from ..arith import and_, ite, max_, not_, or_
from ..clauses import combat
from ..events import EventLog
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit

#: The revival causes, as the channels carry them (500.9h).
CAUSES = ("phylactery", "everlasting")
#: The statuses and timed effects of a life that a revival leaves behind (500.9c, INT-402).
LIFE_STATUSES = ("entrapped", "prismbroken", "dormant")
#: Statuses carried as amounts (a running Burn or Venom, Maim points): gone with the life too.
LIFE_STATUS_AMOUNTS = ("burn", "venom", "maim")


@combat.implements("500.9c")
def rebuild_battle_start_numbers(unit: Unit) -> Unit:
    """Battle-start numbers are rebuilt: Armor loses this life's changes (500.9c, INT-402)."""
    return unit.evolve(armor=unit.armor - unit.armor_change, armor_change=0)


@combat.implements("500.9c")
def clear_previous_life(unit: Unit) -> Unit:
    """Every status and timed effect of the previous life is gone (500.9c, INT-402)."""
    return unit.evolve(**{status: False for status in LIFE_STATUSES}, **{status: 0 for status in LIFE_STATUS_AMOUNTS},
                       reliquary_speed=0)


@combat.implements("500.9e")
def rearm_once_per_life(unit: Unit) -> Unit:
    """Once-per-life rune effects are re-armed: a spent defy-death charge is back (500.9e)."""
    return unit.evolve(defy_death=or_(unit.defy_death, unit.defy_death_spent), defy_death_spent=False)


@combat.implements("500.9g")
def reresolve_everlasting(unit: Unit) -> Unit:
    """Everlasting is re-resolved from the ability and battle-long grants; a life-long grant is gone (500.9g)."""
    return unit.evolve(everlasting=and_(unit.everlasting, not_(unit.everlasting_life_grant)), everlasting_life_grant=False)


@combat.implements("500.9l")
def grant_reliquary_speed(unit: Unit, amount: Int) -> Unit:
    """Reliquary hands Speed until the next activation; reapplying does not add, the larger stands (500.9l, INT-409)."""
    return unit.evolve(reliquary_speed=max_(unit.reliquary_speed, amount))


@combat.implements("500.9c", "500.9d", "500.9e", "500.9f", "500.9g", "500.9l")
def revive_unit(unit: Unit) -> Unit:
    """The shared body: full Vitality, battle-start numbers, no status, empty charge, re-armed, new target (500.9c-g)."""
    fresh = reresolve_everlasting(rearm_once_per_life(clear_previous_life(rebuild_battle_start_numbers(unit))))
    fresh = fresh.evolve(alive=True, vitality=fresh.max_vitality, charge=0, incarnation=unit.incarnation + 1)
    return grant_reliquary_speed(fresh, fresh.reliquary)


@combat.implements("500.9c", "500.4a")
def is_revivable(unit: Unit, ruleset: Ruleset | None = None) -> Bool:
    """A unit whose maximum Vitality is above 0 can come back: a revival "at full Vitality" of 0 would be a unit
    whose Vitality is 0, which is dead (500.9c, 500.4a). Only Interest lowers the maximum (500.8g); one paid
    from full Vitality leaves 0, and then, by default, no Vessel is spent and no Everlasting revival is
    scheduled; under ``zero_maximum_revival = returns_at_one`` it comes back at 1 of 1 (INT-120).

    ``ruleset`` is given only for a death an Interest payment caused: any other death is of a unit whose
    maximum is above 0 on a legal board, where both readings agree and none is read. On a symbolic reading
    both answers are joined (``model/readings.py``)."""
    if ruleset is None:
        return unit.max_vitality > 0
    return by_reading(
        ruleset.zero_maximum_revival, stays_dead=lambda: unit.max_vitality > 0, returns_at_one=lambda: True
    )


@combat.implements("500.9c", "500.8g", "500.4a")
def floor_revivable_maximum(dead: Unit, ruleset: Ruleset | None) -> Unit:
    """Under ``zero_maximum_revival = returns_at_one`` a dead unit's maximum of 0 is floored at 1 when a revival
    is ahead of it (a Vessel now, Everlasting later), so that revival returns it at 1 of 1, alive at Vitality
    above 0 (500.9c, 500.4a); by default, and for a death no Interest caused, the maximum stands (INT-120).
    On a symbolic reading the two units are joined field by field (``model/readings.py``)."""
    if ruleset is None:
        return dead

    def floored() -> Unit:
        ahead = or_(dead.vessels > 0, dead.everlasting)
        return dead.evolve(max_vitality=ite(ahead, max_(dead.max_vitality, 1), dead.max_vitality))

    return by_reading(ruleset.zero_maximum_revival, stays_dead=lambda: dead, returns_at_one=floored)


@combat.implements("500.4d", "500.9b", "500.9c")
def revive_from_vessel(unit: Unit, revives: Bool) -> Unit:
    """A Phylactery unit spends a Vessel and the shared body returns it in its own cell (500.4d, 500.9b-c)."""
    return ite(revives, revive_unit(unit).evolve(vessels=unit.vessels - 1), unit)


# --------------------------------------------------------------------------------------
# The channels: 500.9h-k
# --------------------------------------------------------------------------------------


@combat.implements("500.9k", "500.6e")
def is_legal_killer(board: Board, killer: str | None) -> Bool:
    """The killer is still there and a legal target: on the board, alive, not Entrapped, not Dormant (500.9k)."""
    if killer is None or not board.has(killer):
        return False
    unit = board.unit(killer)
    return and_(unit.alive, not_(unit.entrapped), not_(unit.dormant), not_(unit.discards_combat))


@combat.implements("500.9i")
def hears_own_revival(unit: Unit, cause: str) -> Bool:
    """The self channel filters on the cause: a line naming Phylactery hears only a Phylactery revival (500.9i)."""
    return unit.hears_phylactery_revival if cause == "phylactery" else unit.hears_everlasting_revival


@combat.implements("500.9k")
def emit_revival_listener(
    board: Board, channel: str, listener: Unit, revived: str, cause: str, killer: str | None, fires: Bool,
    log: EventLog,
) -> None:
    """One listener answers: aimed at the revived unit, or at the killer, else its own Focus roll (500.9k, INT-405)."""
    at_killer = and_(fires, listener.revival_aims_killer)
    legal = is_legal_killer(board, killer)
    log.emit(channel, when=and_(fires, not_(listener.revival_aims_killer)), unit=listener.uid, other=revived,
             detail=cause)
    log.emit(channel, when=and_(at_killer, legal), unit=listener.uid, other=killer, detail=cause)
    log.emit(channel, when=and_(at_killer, not_(legal)), unit=listener.uid, other=None, detail=cause)
    log.emit("revival_focus", when=and_(at_killer, not_(legal)), unit=listener.uid, other=killer, detail=cause)


@combat.implements("500.9h", "500.9i", "500.9j", "500.9k")
def process_revival_channels(
    board: Board, uid: str, cause: str, killer: str | None, revived: Bool, log: EventLog
) -> None:
    """The self channel (filtered by cause), then each living ally's generic channel, both carrying the killer (500.9h-k)."""
    unit = board.unit(uid)
    emit_revival_listener(board, "revival_self", unit, uid, cause, killer, and_(revived, hears_own_revival(unit, cause)),
                          log)
    for ally in board.in_reading_order(unit.side):
        if ally.uid != uid:
            fires = and_(revived, ally.alive, ally.hears_ally_revival)
            emit_revival_listener(board, "revival_ally", ally, uid, cause, killer, fires, log)


# --------------------------------------------------------------------------------------
# Where an Everlasting unit returns: 500.9a
# --------------------------------------------------------------------------------------


@combat.implements("500.9a")
def holds_cell(unit: Unit, ruleset: Ruleset) -> Bool:
    """Whether ``unit`` holds its cell against another unit's Everlasting revival (500.9a, INT-403): a living unit
    always; a dead one by default not (``dead_unit_cell = freed``: it keeps its last cell as a record only, so the
    cell can fill while it is down), and under ``held`` it keeps holding its cell until it revives or the battle
    ends. The one place the reading is read: the concrete search (:func:`get_held_cells`) and the clock on symbols
    (``battle_guarded.has_free_slot``) both ask it."""
    return or_(unit.alive, ruleset.dead_unit_cell == "held")


@combat.implements("500.9a")
def get_held_cells(board: Board, unit: Unit, ruleset: Ruleset) -> set[tuple[int, int, int]]:
    """The cells the other units hold against ``unit``'s revival (500.9a, INT-403), on a board whose lives are
    concrete (a unit whose life is a term holds none here: the clock on symbols counts those itself)."""
    return {u.position for u in board.units
            if u.uid != unit.uid and (u.alive is True or (u.alive is False and holds_cell(u, ruleset)))}


@combat.implements("500.9a")
def get_free_slots(
    board: Board, unit: Unit, rows: int, cols: int, ruleset: Ruleset = DEFAULT
) -> tuple[tuple[int, int, int], ...]:
    """The unit's own half's cells no other unit holds (:func:`holds_cell`), in reading order (500.9a, INT-403)."""
    held = get_held_cells(board, unit, ruleset)
    cells = ((unit.side, row, col) for row in range(rows) for col in range(cols))
    return tuple(cell for cell in cells if cell not in held)


@combat.implements("500.9a")
def get_everlasting_slot(
    board: Board, unit: Unit, rows: int, cols: int, ruleset: Ruleset = DEFAULT
) -> tuple[int, int, int] | None:
    """The slot an Everlasting revival takes, or ``None`` while the half is full (500.9a, INT-403, INT-404)."""
    free = get_free_slots(board, unit, rows, cols, ruleset)
    held = unit.position in get_held_cells(board, unit, ruleset)
    if ruleset.everlasting_slot_order == "death_cell_first" and not held:
        return unit.position
    return free[0] if free else None


def count_events(log: EventLog, start: int) -> Int:
    """How many events the log gained since ``start`` (a term in a symbolic run)."""
    total: Int = 0
    for entry in log.entries[start:]:
        total = total + ite(entry.when, 1, 0)
    return total
