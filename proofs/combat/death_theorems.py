"""Theorems of 500.4 Death: what a death clears, who hears Macabre, Cull, and one Vessel Point batch per death.

Each runs the model's own :func:`~referee.model.combat.vitality.process_death` (or
:func:`~referee.model.combat.death.process_cull`) through its module on a board of symbolic
units: the dying unit ``u``, an ally ``f`` and an enemy ``q``, every number and flag a
variable, and a symbolic ``dies``. Structure (who is on the board, the event names) stays
concrete; which events happen is a Z3 condition.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, ite, not_, or_
from referee.model.combat import death, vitality
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog

from referee.model.combat.legal import is_legal_board
from ..core import Mutant, Obligation, Vars, all_of, theorem
from .symbolic import symbolic_unit

#: The running combat state a death clears (500.4b, INT-010).
CLEARED = ("vitality", "shield", "adrenaline", "momentum", "bolster", "charge")


def death_board(v: Vars) -> Board:
    return Board((symbolic_unit(v, "u", side=0), symbolic_unit(v, "f", side=0, col=1), symbolic_unit(v, "q", side=1)))


def run_death(v: Vars) -> tuple[Board, Board, EventLog, Any]:
    before, dies, log = death_board(v), v.bool("dies"), EventLog()
    return before, vitality.process_death(before, "u", dies, "q", log), log, dies


def guard_of(log: EventLog, name: str, unit: str | None = None) -> Any:
    """Whether an event ``name`` (on ``unit``) is emitted: the disjunction of its guards."""
    return or_(False, *[g.when for g in log.entries if g.event.name == name and (unit is None or g.event.unit == unit)])


def count_guarded(entries: list[Any]) -> Any:
    total: Any = 0
    for g in entries:
        total = total + ite(g.when, 1, 0)
    return total


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


def _clear_keeps_shield(unit: Unit) -> Unit:
    """Death clears Vitality and the running bonuses but leaves the Shield."""
    return unit.evolve(alive=False, vitality=0, adrenaline=0, momentum=0, bolster=0, charge=0)


def _macabre_for_the_dead_too(board: Board, dead: Unit, dies: Any, log: EventLog) -> None:
    """Macabre is heard by every other unit, dead ones included."""
    for other in board.units:
        if other.uid != dead.uid:
            log.emit("macabre", when=dies, unit=other.uid, other=dead.uid)


def _macabre_enemies_only(board: Board, dead: Unit, dies: Any, log: EventLog) -> None:
    """Macabre is heard only on the other side."""
    for other in board.units:
        if other.side != dead.side:
            log.emit("macabre", when=and_(dies, other.alive), unit=other.uid, other=dead.uid)


def _counts_without_the_death(log: EventLog, start: int) -> Any:
    """The batch leaves out its first event (the death that opened it) and counts only what followed."""
    return count_guarded(log.entries[start + 1:])


def _batch_before_revival(board: Board, uid: str, dies: Any, killer: str | None, log: EventLog,
                          ruleset: Any = None) -> Board:
    """The batch closes before the Vessel revival, so the revival and its listeners pay separately."""
    from referee.model.combat.revival import count_events, process_revival_channels, revive_from_vessel

    if dies is False:
        return board
    start, unit = len(log.entries), board.unit(uid)
    log.emit("death", when=dies, unit=uid, other=killer)
    dead = ite(dies, vitality.clear_combat_state(unit), unit)
    vitality.announce_macabre(board, unit, dies, log)
    log.emit("deathrattle", when=and_(dies, unit.deathrattle), unit=uid)
    log.emit("vessel_batch", when=dies, unit=uid, amount=count_events(log, start), detail="death")
    uses_vessel = and_(dies, unit.vessels > 0)
    log.emit("vessel_revival", when=uses_vessel, unit=uid)
    board = board.with_unit(revive_from_vessel(dead, uses_vessel))
    process_revival_channels(board, uid, "phylactery", killer, uses_vessel, log)
    log.emit("everlasting_scheduled", when=and_(dies, not_(uses_vessel), unit.everlasting), unit=uid, other=killer,
             amount=vitality.EVERLASTING_DELAY_MS)
    return board


def _cull_respects_defy_death(unit: Unit) -> Any:
    """Cull is stopped by an armed defy-death rune, as if it were lethal damage."""
    return and_(unit.alive, not_(unit.discards_combat), not_(unit.defy_death))


V = "referee.model.combat.vitality"
KEEPS_SHIELD = Mutant("death_keeps_the_shield", f"{V}:clear_combat_state", _clear_keeps_shield)
MACABRE_DEAD = Mutant("macabre_heard_by_the_dead", f"{V}:announce_macabre", _macabre_for_the_dead_too)
MACABRE_ENEMIES = Mutant("macabre_enemies_only", f"{V}:announce_macabre", _macabre_enemies_only)
COUNTS_WITHOUT_DEATH = Mutant("batch_leaves_out_the_death", "referee.model.combat.revival:count_events",
                              _counts_without_the_death)
BATCH_EARLY = Mutant("batch_closes_before_the_vessel_revival", f"{V}:process_death", _batch_before_revival)
CULL_DEFIED = Mutant("cull_stopped_by_defy_death", "referee.model.combat.death:is_culled", _cull_respects_defy_death)


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.4b", mutants=[KEEPS_SHIELD])
def death_clears_the_combat_state(v: Vars) -> Obligation:
    """A unit that dies with no Vessel is left dead with no Vitality, Shield, running bonus or charge."""
    before, after, _, dies = run_death(v)
    u, dead = before.unit("u"), after.unit("u")
    claim = and_(not_(dead.alive), *[getattr(dead, name) == 0 for name in CLEARED])
    return Obligation(assume=all_of(is_legal_board(before), u.alive, u.vessels <= 0, dies), claim=claim)


@theorem("combat:500.4c", mutants=[MACABRE_DEAD, MACABRE_ENEMIES])
def death_fires_macabre_for_every_other_living_unit_on_either_side(v: Vars) -> Obligation:
    """A death fires Macabre exactly for each other living unit, ally or enemy, and never for the dead unit itself."""
    before, _, log, dies = run_death(v)
    claims = [guard_of(log, "macabre", o.uid) == and_(dies, o.alive) for o in before.units if o.uid != "u"]
    claims.append(not_(guard_of(log, "macabre", "u")))
    return Obligation(assume=is_legal_board(before), claim=and_(*claims))


@theorem("combat:500.4e", "combat:500.9m", mutants=[COUNTS_WITHOUT_DEATH, BATCH_EARLY])
def every_death_is_one_vessel_point_batch_closed_after_its_revival(v: Vars) -> Obligation:
    """A death emits exactly one Vessel Point batch, after everything it fired (its Vessel revival and listeners included), counting exactly the events that happened since the death."""
    before, _, log, dies = run_death(v)
    batches = [i for i, g in enumerate(log.entries) if g.event.name == "vessel_batch"]
    starts = [i for i, g in enumerate(log.entries) if g.event.name == "death"]
    if len(batches) != 1 or len(starts) != 1:
        return Obligation(assume=is_legal_board(before), claim=False)
    batch, start = log.entries[batches[0]], starts[0]
    after_batch = [g.when for g in log.entries[batches[0] + 1:]]
    claim = and_(batch.when == dies, batch.event.amount == count_guarded(log.entries[start:batches[0]]),
                 not_(or_(False, *after_batch)))
    return Obligation(assume=is_legal_board(before), claim=claim)


@theorem("combat:500.4a", mutants=[CULL_DEFIED])
def cull_always_kills_a_living_unit(v: Vars) -> Obligation:
    """Cull kills every living unit that is not a Tool or Hub, whatever its Vitality, Shield, Insurance or defy-death rune, and spends none of them."""
    before, log = death_board(v), EventLog()
    after = death.process_cull(before, "u", "q", log)
    u, dead = before.unit("u"), after.unit("u")
    kept = and_(dead.insurance == u.insurance, dead.ignore_charges == u.ignore_charges)
    stays_dead = and_(not_(dead.alive), dead.defy_death == u.defy_death)  # a Vessel revival re-arms (500.9e)
    claim = and_(guard_of(log, "death", "u"), kept, ite(u.vessels > 0, dead.alive, stays_dead))
    return Obligation(assume=all_of(is_legal_board(before), u.alive, not_(u.discards_combat)), claim=claim)
