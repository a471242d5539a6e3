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

from referee.model.arith import and_, ite, max_, not_, or_
from referee.model.combat import abilities, armor, bloodletting, costs, damage, death, recovery, retaliation, revival, vitality
from referee.model.combat.damage import DAMAGE_KINDS, DamageInstance, DamageOutcome
from referee.model.combat import battle_guarded, keywords
from referee.model.combat.ability_text import Ability, Line, amount
from referee.model.combat.legal import is_legal_board, is_legal_damage_action, is_legal_pending_revival
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .fixtures import each_stays_legal
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


def _heal_uncapped(target: Unit, lane: str, amount: Any, *_: Any) -> Any:
    """A heal is not capped by the missing Vitality (500.3c forgotten)."""
    return amount


def _crush_strips_shield(unit: Unit, debuff: str, amount: Any) -> Unit:
    """Crush lowers the Shield pool with the Armor, past 0."""
    return _ORIGINAL_DEBUFF(unit, debuff, amount).evolve(shield=unit.shield - amount)


_ORIGINAL_DEBUFF = armor.apply_armor_debuff
_ORIGINAL_CLEAR = vitality.clear_combat_state
_ORIGINAL_LISTENERS = vitality.process_vitality_loss_listeners

REVIVAL_LEAVES_DEAD = Mutant("revival_leaves_the_unit_dead", "referee.model.combat.revival:revive_unit",
                             _revive_without_alive, "a revived unit comes back at full Vitality but not alive")
DEATH_LEAVES_ALIVE = Mutant("death_leaves_the_unit_alive", "referee.model.combat.vitality:clear_combat_state",
                            lambda unit: _ORIGINAL_CLEAR(unit).evolve(alive=True),
                            "a death clears the combat state but leaves the unit alive at 0 Vitality")
def _runes_lose_the_amount(unit: Unit, lost: Any, log: EventLog) -> Unit:
    """The runes that reset on Vitality loss lose the amount lost instead of their whole bonus (500.6c, 500.8d)."""
    after = _ORIGINAL_LISTENERS(unit, lost, log)
    return after.evolve(**{rune: getattr(unit, rune) - lost for rune in vitality.VITALITY_LOSS_RUNES})


RUNES_LOSE_THE_AMOUNT = Mutant("runes_lose_the_amount", "referee.model.combat.vitality:process_vitality_loss_listeners",
                               _runes_lose_the_amount, "Adrenaline, Momentum and Bolster drop by the Vitality lost, past 0")
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
    before = unlinked_board(v)
    tick = DamageInstance("a", v.int("action.amount"), "b", kind="burn", appliers=(("b", 2), ("c", 1)),
                          riposte_rolls=tuple(v.bool(f"action.roll{i}") for i in range(6)))
    after, _ = retaliation.resolve_hit(before, tick)
    return stays_legal(before, after)


@theorem("combat:500.8b", "combat:500.8g", "combat:500.4a", "combat:500.9c", mutants=[REVIVAL_LEAVES_DEAD])
def cost_keeps_the_board_legal(v: Vars) -> Obligation:
    """A Vitality cost of any kind (Bloodletting, Interest, self-destruct, retaliation) leaves a legal board legal."""

    def pay(kind: str) -> tuple[Board, Board]:
        before = legal_board(v)
        after, _ = costs.pay_vitality_cost(before, "a", v.int("action.amount"), kind, EventLog(), beneficiary="b")
        return before, after

    return each_stays_legal(costs.COST_KINDS, pay)


@theorem("combat:500.4a", "combat:500.4b", "combat:500.9c", mutants=[REVIVAL_LEAVES_DEAD, DEATH_LEAVES_ALIVE])
def cull_keeps_the_board_legal(v: Vars) -> Obligation:
    """Cull by an enemy leaves a legal board legal."""
    before = legal_board(v)
    after, _ = death.resolve_cull(before, "a", "b")
    return stays_legal(before, after)


@theorem("combat:500.3c", "combat:500.3d", "combat:500.3g", mutants=[HEAL_UNCAPPED])
def recovery_keeps_the_board_legal(v: Vars) -> Obligation:
    """A heal, a Shield gain or a Tool repair of any amount leaves a legal board legal."""

    def recover(lane: str) -> tuple[Board, Board]:
        before = legal_board(v)
        after, _ = recovery.resolve_recovery(before, "a", v.int("action.amount"), lane=lane)
        return before, after

    return each_stays_legal(recovery.RECOVERY_LANES, recover)


@theorem("combat:500.2e", mutants=[CRUSH_STRIPS_SHIELD])
def armor_debuff_keeps_the_board_legal(v: Vars) -> Obligation:
    """Crush, Repossess, Piercing Roar and Crippling Scream of any amount leave a legal board legal."""

    def debuff(name: str) -> tuple[Board, Board]:
        before = legal_board(v)
        target = armor.apply_armor_debuff(before.unit("a"), name, v.int("action.amount"))
        return before, before.with_unit(target)

    return each_stays_legal(armor.ARMOR_SHREDDING_DEBUFFS + armor.NON_ARMOR_DEBUFFS, debuff)


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


# --------------------------------------------------------------------------------------
# damage and hit: every lane, on two units (what Z3 decides within the rlimit)
# --------------------------------------------------------------------------------------

#: The bound of the damage and hit theorems, printed in the report.
PAIR_BOUND = ("a board of two units: the recipient and an enemy source (none for an overtime tick), no redirect "
              "or intercept link (a linked ally makes the whole pipeline time out at 20M rlimit); the default readings")


def pair_board(v: Vars) -> Board:
    """The recipient ``a`` and its enemy ``b``, no links."""
    return Board(tuple(u for u in unlinked_board(v).units if u.uid != "c"))


def unlinked_board(v: Vars) -> Board:
    """:func:`legal_board` without its links."""
    return Board(tuple(u.evolve(redirect_to=None, intercept_by=None) for u in legal_board(v).units))


def lane_stays_legal(v: Vars, lane: str) -> Obligation:
    """One lane from its legal source on :func:`pair_board`: the board after is legal whenever the board was."""
    before = pair_board(v)
    action = {"kind": "damage", "damage_kind": lane, "source": None if lane == "overtime" else "b"}
    after, _, _ = damage.resolve_damage(before, instance(v, lane, action["source"]))
    return Obligation(assume=and_(is_legal_board(before), is_legal_damage_action(before, action)),
                      claim=is_legal_board(after))


def _damage_theorem(lane: str) -> Any:
    """``damage_keeps_the_board_legal_<lane>``: the damage kind's theorem split by lane (one query over every lane
    ran out of its rlimit under load; each lane alone is a smaller question)."""

    def build(v: Vars) -> Obligation:
        return lane_stays_legal(v, lane)

    build.__name__ = build.__qualname__ = f"damage_keeps_the_board_legal_{lane}"
    build.__doc__ = f"A legal {lane} damage instance, through 500.1 alone, leaves a legal board legal."
    return theorem("combat:500.1-13", "combat:500.4a", "combat:500.9c", mutants=[RUNES_LOSE_THE_AMOUNT],
                   bound=PAIR_BOUND)(build)


#: The damage kind's legality theorems, one per lane (500.1-13, 500.4a, 500.9c).
DAMAGE_LEGALITY = tuple(_damage_theorem(lane) for lane in DAMAGE_KINDS)


def any_outcome(v: Vars, target: str) -> DamageOutcome:
    """A damage outcome on ``target`` whose every number and flag is a variable (no damage moved away): what
    retaliation reads of the instance it answers, over-approximated."""
    values = {}
    for name, kind in DamageOutcome.__annotations__.items():
        if name in ("target", "interceptor_outcome", "receiver_outcome"):
            continue
        values[name] = v.bool(f"out.{name}") if "Bool" in str(kind) else v.int(f"out.{name}")
    return DamageOutcome(target=target, **values)


@theorem("combat:500.6a", "combat:500.6d", "combat:500.6e", "combat:500.7h", "combat:500.4a",
         mutants=[RUNES_LOSE_THE_AMOUNT], bound=PAIR_BOUND)
def hit_answers_keep_the_board_legal(v: Vars) -> Obligation:
    """Whatever a legal instance of any lane did, Thorns, Riposte, Retort and a boss Reflect answering it leave a legal board legal."""
    before = pair_board(v)
    claims = []
    for lane in DAMAGE_KINDS:
        source = None if lane == "overtime" else "b"
        log = EventLog()
        after = retaliation.process_retaliation(before, instance(v, lane, source), any_outcome(v, "a"), log)
        claims.append(is_legal_board(after))
    return Obligation(assume=is_legal_board(before), claim=and_(*claims))


# --------------------------------------------------------------------------------------
# The battle clock: advance (a loop over the pending revivals, bounded) and end_combat
# --------------------------------------------------------------------------------------

#: The bound of the clock theorems, printed in the report.
CLOCK_BOUND = ("two pending Everlasting revivals (a on side 0, b on side 1, each in its own cell), any death times, "
               "any step; the guarded clock of model/combat/battle_guarded.py, held to advance's while by "
               "tests/test_query_clock.py")


def pending_clock(v: Vars) -> tuple[battle_guarded.GuardedBattle, Any]:
    """The unlinked board with ``a`` and ``b`` each maybe pending (``a.pending``, ``b.pending``), now ``now_ms``."""
    board = unlinked_board(v)
    now = v.int("now_ms")
    pending = tuple(battle_guarded.GuardedRevival(uid, v.int(f"{uid}.died_ms"), None, v.bool(f"{uid}.pending"))
                    for uid in ("a", "b"))
    legal = all_of(is_legal_board(board), now >= 0,
                   *[or_(not_(p.active), is_legal_pending_revival(board, p.uid, p.died_ms, now)) for p in pending])
    return battle_guarded.GuardedBattle(board, now, pending), legal


def _end_keeps_running(battle: battle_guarded.GuardedBattle) -> tuple[battle_guarded.GuardedBattle, EventLog]:
    """Combat 'ends' but keeps its revivals pending and running."""
    return battle, EventLog()


END_KEEPS_REVIVING = Mutant("end_combat_keeps_reviving_dead_bodies", "referee.model.combat.battle_guarded:end_guarded",
                            _end_keeps_running, "end_combat lapses nothing, and a revival returns its unit not alive",
                            also=(("referee.model.combat.revival:revive_unit", _revive_without_alive),))


@theorem("combat:500.9a", "combat:500.4d", "combat:500.9c", mutants=[REVIVAL_LEAVES_DEAD], bound=CLOCK_BOUND)
def advance_keeps_the_board_legal(v: Vars) -> Obligation:
    """Time moving on by any step, firing the Everlasting revivals due, leaves a legal board legal."""
    battle, legal = pending_clock(v)
    after, _, _ = battle_guarded.advance_guarded(battle, v.int("ms"), v.ruleset())
    return Obligation(assume=all_of(legal, v.int("ms") >= 0), claim=is_legal_board(after.board))


@theorem("combat:500.9a", mutants=[END_KEEPS_REVIVING], bound=CLOCK_BOUND)
def end_combat_keeps_the_board_legal(v: Vars) -> Obligation:
    """Combat ending, and any time moving on after it, leaves a legal board legal."""
    battle, legal = pending_clock(v)
    ended, _ = battle_guarded.end_guarded(battle)
    after, _, _ = battle_guarded.advance_guarded(ended, v.int("ms"), v.ruleset())
    return Obligation(assume=all_of(legal, v.int("ms") >= 0), claim=and_(is_legal_board(ended.board),
                                                                         is_legal_board(after.board)))


# --------------------------------------------------------------------------------------
# bloodletting: the cost step (the payer is structure); its hits are hit actions
# --------------------------------------------------------------------------------------

#: The payer situations of 800.4b-d as pinned flags (caster ``a`` at row 1, its ally ``c`` first in reading order).
PAYER_SHAPES = {
    "ally_pays": ({}, {}),
    "caster_pays": ({}, {"alive": False, "vitality": 0}),
    "boss_caster": ({"is_boss": True}, {}),
    "nobody_eligible": ({"entrapped": True}, {"alive": False, "vitality": 0}),
    "tool_pays": ({}, {"is_tool": True}),
}


def _payer_board(v: Vars, caster: dict[str, Any], ally: dict[str, Any]) -> Board:
    plain = {"alive": True, "entrapped": False, "is_boss": False, "is_tool": False, "is_hub": False}
    a = symbolic_unit(v, "a", side=0, row=1, col=0, redirect_to=None, intercept_by=None, **{**plain, **caster})
    c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None, **{**plain, **ally})
    b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
    return Board((a, b, c))


@theorem("combat:800.4a", "combat:800.4b", "combat:800.4d", "combat:500.8b", "combat:500.4a",
         mutants=[REVIVAL_LEAVES_DEAD], bound="the five payer situations of PAYER_SHAPES (the payer is structure); "
         "the activation's hits are hit actions (damage_keeps_the_board_legal_<lane>, hit_answers_keep_the_board_legal)")
def bloodletting_keeps_the_board_legal(v: Vars) -> Obligation:
    """A Bloodletting cost of any printed amount, whoever pays it, leaves a legal board legal."""

    def pay(shape: tuple[dict[str, Any], dict[str, Any]]) -> tuple[Board, Board]:
        before = _payer_board(v, *shape)
        after, _ = bloodletting.process_bloodletting(before, "a", v.int("action.cost"), EventLog())
        return before, after

    return each_stays_legal(PAYER_SHAPES.values(), pay)


# --------------------------------------------------------------------------------------
# ability: one printed line per theorem, split by keyword (each line is its own question)
# --------------------------------------------------------------------------------------

#: The bound of the ability theorems, printed in the report.
ABILITY_BOUND = ("one printed line of the keyword, its amount any integer (a card number times any 'per' count), "
                 "after the activation step; a hit on the two-unit board of PAIR_BOUND at the caster's one target, "
                 "every other keyword at both enemies of the caster on the linked three-unit board; the default "
                 "readings. A printed ability is its lines in resolution order, each line a step from the board the "
                 "last one left (400.8-2), so a legal board stays legal through any number of lines")


def _status_unfloored(unit: Unit, effect: str, amount: Any) -> Unit:
    """Burn, Venom and Maim add a negative amount too: a count below 0 (INT-208 forgotten)."""
    name = keywords.STATUS_FIELDS[effect]
    return unit.evolve(**{name: getattr(unit, name) + amount})


def _restore_uncapped(unit: Unit, amount: Any) -> tuple[Any, Any]:
    """A Restore line lifts Vitality past the maximum (500.3c forgotten)."""
    return ite(unit.alive, max_(amount, 0), 0), 0


def _crush_strips_the_shield_too(unit: Unit, amount: Any) -> Unit:
    """A Crush line lowers the Shield pool with the Armor, past 0."""
    return unit.evolve(armor=unit.armor - amount, shield=unit.shield - amount)


STATUS_UNFLOORED = Mutant("ability_status_unfloored", "referee.model.combat.keywords:apply_status", _status_unfloored,
                          "a Burn, Venom or Maim line of a negative amount takes the count below 0")
RESTORE_UNCAPPED = Mutant("ability_restore_uncapped", "referee.model.combat.keywords:compute_restoration",
                          _restore_uncapped, "a Restore line lifts Vitality past the maximum")

#: Each keyword's theorem: its mutants, and whether it is the hit (the two-unit board at one target).
ABILITY_LINES: dict[str, tuple[Mutant, ...]] = {
    "damage": (RUNES_LOSE_THE_AMOUNT,),
    "burn": (STATUS_UNFLOORED,), "venom": (STATUS_UNFLOORED,), "maim": (STATUS_UNFLOORED,),
    "crush": (Mutant("ability_crush_strips_the_shield", "referee.model.combat.keywords:apply_crush",
                     _crush_strips_the_shield_too, "a Crush line also lowers the Shield, past 0"),),
    "cull": (DEATH_LEAVES_ALIVE, REVIVAL_LEAVES_DEAD),
    "restore": (RESTORE_UNCAPPED,),
    "bloodletting": (REVIVAL_LEAVES_DEAD,),
}


def one_line_ability(v: Vars, effect: str) -> tuple[Ability, tuple[str, ...]]:
    """The ability of one ``effect`` line whose amount is the card number ``{x}`` (a variable), and its targets."""
    to = "target" if effect == "damage" else "enemies"
    line = Line(effect, amount("{x}"), to=to)
    return Ability((line,), numbers=(("x", v.int("action.amount")),)), ("a",)


def ability_stays_legal(v: Vars, effect: str) -> Obligation:
    """``b`` activates a one-line ``effect`` ability: the board after is legal whenever the board was."""
    before = pair_board(v) if effect == "damage" else legal_board(v)
    ability, targets = one_line_ability(v, effect)
    rolls = tuple(v.bool(f"action.roll{i}") for i in range(3))
    after, _ = abilities.resolve_ability(before, "b", ability, targets, riposte_rolls=rolls)
    return stays_legal(before, after)


def _ability_theorem(effect: str, mutants: tuple[Mutant, ...]) -> Any:
    """``ability_keeps_the_board_legal_<effect>``: the ability kind's theorem split by keyword."""

    def build(v: Vars) -> Obligation:
        return ability_stays_legal(v, effect)

    build.__name__ = build.__qualname__ = f"ability_keeps_the_board_legal_{effect}"
    build.__doc__ = f"An ability's {effect} line of any amount, after the activation, leaves a legal board legal."
    clauses = ("combat:400.8-5", "combat:400.8-6", "combat:400.8-7", "combat:500.9l", "combat:500.4a")
    return theorem(*clauses, mutants=list(mutants), bound=ABILITY_BOUND)(build)


#: The ability kind's legality theorems, one per keyword a line can print (400.8-6, 800.4).
ABILITY_LEGALITY = tuple(_ability_theorem(effect, mutants) for effect, mutants in ABILITY_LINES.items())


# --------------------------------------------------------------------------------------
# INT-120: a maximum of 0 under either reading of zero_maximum_revival
# --------------------------------------------------------------------------------------

def _floor_forgotten(dead: Unit, ruleset: Any) -> Unit:
    """The Vessel revives a unit at a maximum of 0 without flooring it: alive at 0 of 0."""
    return dead


FLOOR_FORGOTTEN = Mutant("zero_maximum_revived_unfloored", "referee.model.combat.vitality:floor_revivable_maximum",
                         _floor_forgotten, "under returns_at_one the revival of a maximum of 0 is not floored at 1",
                         under="zero_maximum_revival=returns_at_one")


@theorem("combat:500.8g", "combat:500.9c", "combat:500.4a", mutants=[FLOOR_FORGOTTEN, REVIVAL_LEAVES_DEAD])
def interest_keeps_the_board_legal_under_either_zero_maximum_reading(v: Vars) -> Obligation:
    """An Interest payment of any amount leaves a legal board legal under both readings of INT-120."""

    def pay(ruleset: Ruleset) -> tuple[Board, Board]:
        before = legal_board(v)
        after, _ = costs.pay_vitality_cost(before, "a", v.int("action.amount"), "interest", EventLog(),
                                           beneficiary="b", ruleset=ruleset)
        return before, after

    return each_stays_legal((v.ruleset(),), pay)
