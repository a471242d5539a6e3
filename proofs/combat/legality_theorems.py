"""Legality is closed: every action kind takes a legal board (``model/combat/legal.py``) to a legal board.

Each theorem runs one action kind's model entry on a board of symbolic units (every number and
flag a variable), under the default readings, and claims the board it returns satisfies
:func:`~referee.model.combat.legal.is_legal_board` whenever the board and the action it started
from did. The boards: a recipient ``a`` at (0, 0, 0) whose redirect and intercept links name its
ally ``c`` at (0, 0, 2), and an enemy ``b`` at (1, 0, 1). A theorem over a model that branches on
structure (the lane, the cost kind) states one obligation per branch, conjoined.

One more theorem holds what a legal board says nothing about: an overtime tick has no actor behind it
(500.1c), so whatever its ``source`` field says, nobody is credited, fed or answering for it.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, not_, or_
from referee.model.combat import armor, costs, death, recovery, retaliation, revival, vitality
from referee.model.combat.damage import DamageInstance
from referee.model.combat.legal import is_legal_board
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .symbolic import symbolic_unit

#: The channels that name an actor behind a damage instance: credit, Feast, and every answer to it.
ACTOR_CHANNELS = ("credit", "feast", "thorns", "riposte", "riposte_missed", "retort", "subrogation", "reflect", "stagger")


def legal_board(v: Vars) -> Board:
    """``a`` (links to its ally ``c``), its enemy ``b``, and ``c``: every field a variable."""
    a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to="c", intercept_by="c")
    b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
    c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None)
    return Board((a, b, c))


def instance(v: Vars, lane: str, source: str | None) -> DamageInstance:
    rolls = tuple(v.bool(f"action.roll{i}") for i in range(3))
    return DamageInstance("a", v.int("action.amount"), source, kind=lane,
                          allows_dormant=v.bool("action.allows_dormant"), riposte_rolls=rolls)


def stays_legal(before: Board, after: Board, *assume: Any) -> Obligation:
    return Obligation(assume=all_of(is_legal_board(before), *assume), claim=is_legal_board(after))


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


_ORIGINAL_REVIVE = revival.revive_unit


def _revive_without_alive(unit: Unit) -> Unit:
    """The revival body restores Vitality but forgets to bring the unit back to life."""
    return _ORIGINAL_REVIVE(unit).evolve(alive=False)


def _heal_uncapped(target: Unit, lane: str, amount: Any) -> Any:
    """A heal is not capped by the missing Vitality (500.3c forgotten)."""
    return amount


def _crush_strips_shield(unit: Unit, debuff: str, amount: Any) -> Unit:
    """Crush lowers the Shield pool with the Armor, past 0."""
    return _ORIGINAL_DEBUFF(unit, debuff, amount).evolve(shield=unit.shield - amount)


_ORIGINAL_DEBUFF = armor.apply_armor_debuff
_ORIGINAL_CLEAR = vitality.clear_combat_state

REVIVAL_LEAVES_DEAD = Mutant("revival_leaves_the_unit_dead", "referee.model.combat.revival:revive_unit",
                             _revive_without_alive, "a revived unit comes back at full Vitality but not alive")
DEATH_LEAVES_ALIVE = Mutant("death_leaves_the_unit_alive", "referee.model.combat.vitality:clear_combat_state",
                            lambda unit: _ORIGINAL_CLEAR(unit).evolve(alive=True),
                            "a death clears the combat state but leaves the unit alive at 0 Vitality")
HEAL_UNCAPPED = Mutant("heal_uncapped", "referee.model.combat.recovery:apply_recovery_cap", _heal_uncapped,
                       "a heal lifts Vitality past the maximum")
CRUSH_STRIPS_SHIELD = Mutant("crush_strips_shield", "referee.model.combat.armor:apply_armor_debuff",
                             _crush_strips_shield, "Crush also lowers the Shield, past 0")


def _overtime_keeps_its_actor(instance: DamageInstance) -> DamageInstance:
    """An overtime tick keeps whatever source it names (credited, fed, answered)."""
    return instance


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.5b", "combat:500.7e", "combat:500.4a", mutants=[DEATH_LEAVES_ALIVE])
def tick_keeps_the_board_legal(v: Vars) -> Obligation:
    """A Burn tick two units applied (an enemy and an ally of the target) leaves a legal board legal."""
    before = Board(tuple(u.evolve(redirect_to=None, intercept_by=None) for u in legal_board(v).units))
    tick = DamageInstance("a", v.int("action.amount"), "b", kind="burn", appliers=(("b", 2), ("c", 1)),
                          riposte_rolls=tuple(v.bool(f"action.roll{i}") for i in range(6)))
    after, _ = retaliation.resolve_hit(before, tick)
    return stays_legal(before, after)


@theorem("combat:500.8b", "combat:500.8g", "combat:500.4a", "combat:500.9c", mutants=[REVIVAL_LEAVES_DEAD])
def cost_keeps_the_board_legal(v: Vars) -> Obligation:
    """A Vitality cost of any kind (Bloodletting, Interest, self-destruct, retaliation) leaves a legal board legal."""
    claims, assumes = [], []
    for kind in costs.COST_KINDS:
        before = legal_board(v)
        after, _ = costs.pay_vitality_cost(before, "a", v.int("action.amount"), kind, EventLog(), beneficiary="b")
        claims.append(is_legal_board(after))
        assumes.append(is_legal_board(before))
    return Obligation(assume=all_of(*assumes), claim=and_(*claims))


@theorem("combat:500.4a", "combat:500.4b", "combat:500.9c", mutants=[REVIVAL_LEAVES_DEAD, DEATH_LEAVES_ALIVE])
def cull_keeps_the_board_legal(v: Vars) -> Obligation:
    """Cull by an enemy leaves a legal board legal."""
    before = legal_board(v)
    after, _ = death.resolve_cull(before, "a", "b")
    return stays_legal(before, after)


@theorem("combat:500.3c", "combat:500.3d", "combat:500.3g", mutants=[HEAL_UNCAPPED])
def recovery_keeps_the_board_legal(v: Vars) -> Obligation:
    """A heal, a Shield gain or a Tool repair of any amount leaves a legal board legal."""
    claims, assumes = [], []
    for lane in recovery.RECOVERY_LANES:
        before = legal_board(v)
        after, _ = recovery.resolve_recovery(before, "a", v.int("action.amount"), lane=lane)
        claims.append(is_legal_board(after))
        assumes.append(is_legal_board(before))
    return Obligation(assume=all_of(*assumes), claim=and_(*claims))


@theorem("combat:500.2e", mutants=[CRUSH_STRIPS_SHIELD])
def armor_debuff_keeps_the_board_legal(v: Vars) -> Obligation:
    """Crush, Repossess, Piercing Roar and Crippling Scream of any amount leave a legal board legal."""
    claims, assumes = [], []
    for debuff in armor.ARMOR_SHREDDING_DEBUFFS + armor.NON_ARMOR_DEBUFFS:
        before = legal_board(v)
        target = armor.apply_armor_debuff(before.unit("a"), debuff, v.int("action.amount"))
        claims.append(is_legal_board(before.with_unit(target)))
        assumes.append(is_legal_board(before))
    return Obligation(assume=all_of(*assumes), claim=and_(*claims))


@theorem("combat:500.1c", mutants=[Mutant("overtime_keeps_its_actor", "referee.model.combat.damage:strip_overtime_actor",
                                           _overtime_keeps_its_actor, "an overtime tick credits and is answered")])
def overtime_tick_answers_nobody(v: Vars) -> Obligation:
    """An overtime tick naming an enemy as its source credits nobody, feeds no Feast and is answered by nobody."""
    a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
    b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
    before = Board((a, b))
    _, log = retaliation.resolve_hit(before, instance(v, "overtime", "b"))
    claims = [not_(or_(False, *[g.when for g in log.entries if g.event.name == name])) for name in ACTOR_CHANNELS]
    claims.append(not_(or_(False, *[g.when for g in log.entries if g.event.other == "b"])))  # b as killer, attacker...
    return Obligation(assume=is_legal_board(before), claim=and_(*claims))
