"""Theorems of 500.9 Revival: what the shared body returns, where a Vessel puts the unit, and when Everlasting lands.

The body (:func:`~referee.model.combat.revival.revive_unit`) and the Vessel revival inside
:func:`~referee.model.combat.vitality.process_death` are single-source code: the theorems
run them on a symbolic unit, every number and flag a variable. The Everlasting timetable is
arithmetic too (:func:`~referee.model.combat.battle.compute_everlasting_due`,
:func:`~referee.model.combat.battle.compute_next_tick`), proved over every death time; that
the clock tries at exactly those times and revives at the first with a free slot is board
structure, held by the agreement test ``tests/combat/test_battle_clock_agreement.py`` (the
paired way of ``docs/architecture.md``), which runs the clock against the timetable.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, floordiv, ite, not_
from referee.model.combat import battle, damage, costs, revival, vitality
from referee.model.combat.damage import DamageInstance
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog

from referee.model.combat.legal import is_legal_board, is_legal_unit
from ..core import Mutant, Obligation, Vars, all_of, theorem
from .symbolic import symbolic_unit

#: How many retries of the Everlasting timetable the timing theorem follows (stated as its bound).
RETRIES = 3


def vessel_death(v: Vars) -> tuple[Board, Board, EventLog, Any]:
    """A living unit ``u`` (row 1, column 2) with a Vessel dies when ``dies`` holds; its killer ``q`` on the other half."""
    before = Board((symbolic_unit(v, "u", side=0, row=1, col=2), symbolic_unit(v, "q", side=1)))
    dies, log = v.bool("dies"), EventLog()
    after = vitality.process_death(before, "u", dies, "q", log)
    return before, after, log, dies


def has_vessel_and_dies(before: Board, dies: Any) -> Any:
    u = before.unit("u")
    return all_of(is_legal_board(before), u.alive, u.vessels > 0, dies)


def is_clean_revival(before: Unit, after: Unit) -> Any:
    """Full Vitality, battle-start Armor, no status of the last life (500.9c), read from the rule text."""
    return and_(
        after.alive, after.vitality == before.max_vitality, after.armor == before.armor - before.armor_change,
        after.armor_change == 0, not_(after.entrapped), not_(after.prismbroken), not_(after.dormant),
    )


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


def _keeps_armor(unit: Unit) -> Unit:
    """Battle-start numbers are not rebuilt: the Crushed Armor comes back."""
    return unit


def _keeps_statuses(unit: Unit) -> Unit:
    """Only Prismbreak is cleared; Entrapped and Dormant come back."""
    return unit.evolve(prismbroken=False, reliquary_speed=0)


def _vessel_restores_vitality_only(unit: Unit, revives: Any) -> Unit:
    """The pre-500.9c Vessel: full Vitality and a Vessel spent, nothing else rebuilt."""
    return ite(revives, unit.evolve(alive=True, vitality=unit.max_vitality, vessels=unit.vessels - 1), unit)


def _vessel_in_next_cell(unit: Unit, revives: Any) -> Unit:
    """The Vessel revival puts the unit one column to the right of where it died."""
    back = revival.revive_unit(unit).evolve(vessels=unit.vessels - 1)
    return ite(revives, back, unit).evolve(col=unit.col + 1)


def _body_keeps_charge(unit: Unit) -> Unit:
    """The body forgets to empty the charge the unit died with."""
    fresh = revival.reresolve_everlasting(revival.rearm_once_per_life(revival.clear_previous_life(
        revival.rebuild_battle_start_numbers(unit))))  # fmt: skip
    return fresh.evolve(alive=True, vitality=fresh.max_vitality, incarnation=unit.incarnation + 1)


def _rearms_nothing(unit: Unit) -> Unit:
    """Once-per-life effects stay spent (the defy-death regression)."""
    return unit


def _due_after_nine_seconds(died_ms: Any) -> Any:
    """Everlasting at 9 seconds."""
    return died_ms + 9_000


def _retry_off_the_grid(after_ms: Any) -> Any:
    """A retry one tick length later rather than at the next tick."""
    return after_ms + battle.TICK_MS


def _retry_at_the_same_tick(after_ms: Any) -> Any:
    """The tick at or before the failed try: not strictly later."""
    return floordiv(after_ms, battle.TICK_MS) * battle.TICK_MS


R = "referee.model.combat.revival"
KEEPS_ARMOR = Mutant("revival_keeps_the_crushed_armor", f"{R}:rebuild_battle_start_numbers", _keeps_armor)
KEEPS_STATUSES = Mutant("revival_keeps_entrapped_and_dormant", f"{R}:clear_previous_life", _keeps_statuses)
VESSEL_VITALITY_ONLY = Mutant("vessel_restores_vitality_only", "referee.model.combat.vitality:revive_from_vessel",
                              _vessel_restores_vitality_only)
VESSEL_NEXT_CELL = Mutant("vessel_revival_in_another_cell", "referee.model.combat.vitality:revive_from_vessel",
                          _vessel_in_next_cell)
KEEPS_CHARGE = Mutant("revival_keeps_the_charge", f"{R}:revive_unit", _body_keeps_charge)
REARMS_NOTHING = Mutant("defy_death_not_rearmed", f"{R}:rearm_once_per_life", _rearms_nothing)
NINE_SECONDS = Mutant("everlasting_at_nine_seconds", "referee.model.combat.battle:compute_everlasting_due",
                      _due_after_nine_seconds)
OFF_GRID = Mutant("everlasting_retry_off_the_tick_grid", "referee.model.combat.battle:compute_next_tick",
                  _retry_off_the_grid)
SAME_TICK = Mutant("everlasting_retry_not_later", "referee.model.combat.battle:compute_next_tick",
                   _retry_at_the_same_tick)


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.9c", mutants=[KEEPS_ARMOR, KEEPS_STATUSES])
def revived_unit_has_full_vitality_battle_start_armor_and_no_statuses(v: Vars) -> Obligation:
    """The revival body returns any unit alive at full Vitality, with its battle-start Armor and no Entrapped, Prismbreak or Dormant."""
    u = symbolic_unit(v, "u")
    return Obligation(assume=is_legal_unit(u), claim=is_clean_revival(u, revival.revive_unit(u)))


@theorem("combat:500.4d", "combat:500.9b", "combat:500.9c", mutants=[VESSEL_VITALITY_ONLY, KEEPS_ARMOR])
def vessel_revival_runs_the_whole_body(v: Vars) -> Obligation:
    """A unit with a Vessel that dies comes back with one Vessel fewer, full Vitality, battle-start Armor and no statuses."""
    before, after, _, dies = vessel_death(v)
    u, back = before.unit("u"), after.unit("u")
    return Obligation(assume=has_vessel_and_dies(before, dies),
                      claim=and_(is_clean_revival(u, back), back.vessels == u.vessels - 1))


@theorem("combat:500.9b", "combat:500.4d", mutants=[VESSEL_NEXT_CELL])
def phylactery_returns_to_the_cell_of_death(v: Vars) -> Obligation:
    """A Vessel revival returns the unit alive to the very cell it died in."""
    before, after, _, dies = vessel_death(v)
    back = after.unit("u")
    return Obligation(assume=has_vessel_and_dies(before, dies),
                      claim=and_(back.alive, back.position == before.unit("u").position))


@theorem("combat:500.9d", mutants=[KEEPS_CHARGE])
def revival_never_returns_the_charge(v: Vars) -> Obligation:
    """Whatever charge a unit died with, the revival body and a Vessel revival return it with none."""
    u = symbolic_unit(v, "u")
    before, after, _, dies = vessel_death(v)
    claim = and_(revival.revive_unit(u).charge == 0, after.unit("u").charge == 0)
    return Obligation(assume=all_of(is_legal_unit(u), has_vessel_and_dies(before, dies)), claim=claim)


@theorem("combat:500.9e", "combat:500.1-12", "combat:500.8f", mutants=[REARMS_NOTHING])
def defy_death_rearmed_by_a_revival_saves_again(v: Vars) -> Obligation:
    """A unit whose defy-death charge was spent in its last life survives any lethal Burn tick and any lethal retaliation after a revival."""
    u = symbolic_unit(v, "u", side=0).evolve(defy_death=False, defy_death_spent=True)
    back = revival.revive_unit(u)
    board = Board((back, symbolic_unit(v, "s", side=1)))
    amount = v.int("amount")
    hit, _, _ = damage.resolve_damage(board, DamageInstance("u", amount, "s", kind="burn"))
    paid, _ = costs.pay_vitality_cost(board, "u", amount, "retaliation", EventLog(), channel="thorns", beneficiary="s")
    return Obligation(assume=all_of(is_legal_board(Board((u, board.unit("s")))), amount > 0),
                      claim=and_(hit.unit("u").alive, paid.unit("u").alive))


@theorem("combat:500.9a", "combat:500.4d", mutants=[NINE_SECONDS, OFF_GRID, SAME_TICK],
         bound=f"the first {RETRIES} retries after the first try")
def everlasting_tries_ten_seconds_after_death_then_each_later_tick(v: Vars) -> Obligation:
    """An Everlasting revival first tries exactly 10 seconds after the death, and each retry is the first tick strictly after the try before, so no try is ever earlier than 10 seconds."""
    died = v.int("died_ms")
    tries = [battle.compute_everlasting_due(died)]
    for _ in range(RETRIES):
        tries.append(battle.compute_next_tick(tries[-1]))
    tick = battle.TICK_MS
    claims = [tries[0] == died + 10_000]
    for before, after in zip(tries, tries[1:]):
        on_grid = after == tick * floordiv(after, tick)
        claims.append(and_(after > before, after - tick <= before, on_grid, after >= died + 10_000))
    return Obligation(assume=died >= 0, claim=and_(*claims))



# --------------------------------------------------------------------------------------
# 500.9f-l: incarnation, Everlasting re-resolved, the channels, Reliquary
# --------------------------------------------------------------------------------------


def _keeps_life_grant(unit: Unit) -> Unit:
    """Everlasting is not re-resolved: a grant for one life survives the revival."""
    return unit


def _reliquary_adds(unit: Unit, amount: Any) -> Unit:
    """Reapplying Reliquary adds to the Speed that stands."""
    return unit.evolve(reliquary_speed=unit.reliquary_speed + amount)


def _hears_either_cause(unit: Unit, cause: str) -> Any:
    """The self channel ignores the cause: a Phylactery line hears an Everlasting revival."""
    from referee.model.arith import or_

    return or_(unit.hears_phylactery_revival, unit.hears_everlasting_revival)


def _entrapped_killer_is_legal(board: Board, killer: str | None) -> Any:
    """An Entrapped killer is still aimed at."""
    if killer is None or not board.has(killer):
        return False
    unit = board.unit(killer)
    return and_(unit.alive, not_(unit.dormant), not_(unit.discards_combat))


KEEPS_LIFE_GRANT = Mutant("everlasting_life_grant_survives", f"{R}:reresolve_everlasting", _keeps_life_grant)
RELIQUARY_ADDS = Mutant("reliquary_speed_adds", f"{R}:grant_reliquary_speed", _reliquary_adds)
EITHER_CAUSE = Mutant("self_channel_ignores_the_cause", f"{R}:hears_own_revival", _hears_either_cause)
ENTRAPPED_LEGAL = Mutant("entrapped_killer_still_aimed_at", f"{R}:is_legal_killer", _entrapped_killer_is_legal)


@theorem("combat:500.9f", "combat:500.9g", mutants=[KEEPS_LIFE_GRANT])
def revival_is_a_new_incarnation_and_keeps_only_battle_long_everlasting(v: Vars) -> Obligation:
    """A revived unit is one incarnation further on and holds Everlasting exactly when it had it from its ability or a battle-long grant."""
    u = symbolic_unit(v, "u")
    back = revival.revive_unit(u)
    claim = and_(back.incarnation == u.incarnation + 1,
                 back.everlasting == and_(u.everlasting, not_(u.everlasting_life_grant)), not_(back.everlasting_life_grant))
    return Obligation(assume=is_legal_unit(u), claim=claim)


@theorem("combat:500.9l", mutants=[RELIQUARY_ADDS])
def reliquary_speed_never_adds_the_larger_stands(v: Vars) -> Obligation:
    """Granting Reliquary Speed leaves the larger of what stands and what is granted, never their sum, and a revival grants the bearer's rune amount."""
    u, amount = symbolic_unit(v, "u"), v.int("amount")
    granted = revival.grant_reliquary_speed(u, amount).reliquary_speed
    larger = ite(u.reliquary_speed >= amount, u.reliquary_speed, amount)
    back = revival.revive_unit(u)
    return Obligation(assume=all_of(is_legal_unit(u), u.reliquary_speed >= 0, amount >= 0, u.reliquary >= 0),
                      claim=and_(granted == larger, back.reliquary_speed == u.reliquary))


@theorem("combat:500.9h", "combat:500.9i", "combat:500.9j", "combat:500.9k", mutants=[EITHER_CAUSE, ENTRAPPED_LEGAL])
def revival_channels_filter_the_self_line_by_cause_and_fall_back_to_focus(v: Vars) -> Obligation:
    """On a Vessel revival the unit's own line answers only if it names Phylactery, each living ally listener answers whatever it carries, and a listener aimed at a killer that is dead, Entrapped or Dormant falls back to its Focus roll."""
    before = Board((symbolic_unit(v, "u", side=0), symbolic_unit(v, "f", side=0, col=1), symbolic_unit(v, "q", side=1)))
    dies, log = v.bool("dies"), EventLog()
    vitality.process_death(before, "u", dies, "q", log)
    u, f, q = (before.unit(uid) for uid in ("u", "f", "q"))
    revived = and_(dies, u.alive, u.vessels > 0)
    legal = and_(q.alive, not_(q.entrapped), not_(q.dormant), not_(q.discards_combat))
    self_fires = and_(revived, u.hears_phylactery_revival)
    ally_fires = and_(revived, f.alive, f.hears_ally_revival)

    def guard(name: str, unit: str, other: Any = "any") -> Any:
        from referee.model.arith import or_

        return or_(False, *[g.when for g in log.entries if g.event.name == name and g.event.unit == unit
                            and (other == "any" or g.event.other == other)])  # fmt: skip

    claim = and_(
        guard("revival_self", "u") == self_fires,
        guard("revival_ally", "f") == ally_fires,
        guard("revival_focus", "u") == and_(self_fires, u.revival_aims_killer, not_(legal)),
        guard("revival_focus", "f") == and_(ally_fires, f.revival_aims_killer, not_(legal)),
        guard("revival_ally", "f", "u") == and_(ally_fires, not_(f.revival_aims_killer)),
    )
    return Obligation(assume=all_of(is_legal_board(before), u.alive), claim=claim)
