"""Theorems of 500.6 and 500.7: what retaliates, against whom, and the boss Reflect rune.

The hit-level theorems run the model's own :func:`~referee.model.combat.retaliation.resolve_hit`
(the damage pipeline, then what answers it) on a recipient ``r`` and an attacker ``a`` on
opposite halves, every number and flag a variable, and Riposte's roll a Boolean variable.
"""

from __future__ import annotations

from typing import Any

from referee.model.combat import costs, damage, retaliation
from referee.model.arith import and_, floordiv, max_, min_, not_, or_
from referee.model.arith import ite as ite_
from referee.model.combat.damage import DamageInstance
from referee.model.events import EventLog
from referee.model.combat.state import Board

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .costs_theorems import emitted, is_well_formed
from .symbolic import pinned, symbolic_unit

ANSWERS = ("thorns", "riposte", "retort")


#: Fields no hit in these theorems reads (ticks, the Bloodletting rune): pinned to keep the encoding small.
UNREAD = dict(prismbroken=False, rune_tick_reduction=0, forge_tick_reduction=0, bloodletting_reduction=0)


def hit_board(v: Vars, *, ally: bool = False, armor: bool = True) -> Board:
    """A recipient ``r`` and an attacker ``a``: enemies, or allies when ``ally``; without Armor unless ``armor``.

    Armor's square root makes satisfying assignments slow to find; a theorem whose claim
    does not depend on how much Armor removes pins it to 0 and says so in its bound.
    """
    pinned = UNREAD if armor else {**UNREAD, "armor": 0, "shield_multiplier": 1}
    return Board((symbolic_unit(v, "r", side=1, row=0, col=0, **pinned), symbolic_unit(v, "a", side=1 if ally else 0, row=0, col=1, **pinned)))


NO_ARMOR = "Armor 0 and Shield multiplier 1 on both units (the claim reads no amount they remove)"


def hit(v: Vars, source: str = "a") -> DamageInstance:
    return DamageInstance(target="r", amount=v.int("amount"), source=source, kind="hit", riposte_rolls=(v.bool("roll"),))


def well_formed(board: Board) -> Any:
    return and_(*[is_well_formed(u) for u in board.units])


# --------------------------------------------------------------------------------------
# Mutants: realistic retaliation and Reflect bugs
# --------------------------------------------------------------------------------------

_original_pay_retaliation = retaliation.pay_retaliation
_original_credit = costs.process_retaliation_credit


def _reflect_floor_only(landed):
    return floordiv(retaliation.REFLECT_PERCENT * landed, 100)


def _reflect_at_least_one_always(landed):
    return max_(floordiv(retaliation.REFLECT_PERCENT * landed, 100), 1)


def _reflect_fifty_percent(landed):
    from referee.model.arith import ite

    return ite(landed > 0, max_(floordiv(50 * landed, 100), 1), 0)


def _reflect_as_a_hit(board, boss, instance, outcome, log, ruleset):
    """The Reflect comes back as an ordinary hit, which the attacker's own retaliation answers."""
    from referee.model.arith import ite

    attacker = instance.source
    if attacker is None or not retaliation.is_hostile(board, boss, attacker):
        return board
    amount = retaliation.compute_reflect_amount(retaliation.compute_reflect_basis(outcome, ruleset))
    reflects = and_(retaliation.has_reflect(boss), amount > 0)
    back = DamageInstance(target=attacker, amount=ite(reflects, amount, 0), source=boss.uid, kind="hit")
    board, step, answered = damage.resolve_damage(board, back, ruleset)
    log.extend(step)
    rolls = retaliation.RollCursor((True,), 0, "the reflected hit")
    return retaliation.process_answer_attacker(board, board.unit(attacker), boss.uid, answered, rolls, log, ruleset)


def _retaliation_answered(board, payer, retaliator, amount, channel, fires, log, ruleset,
                          kinds=retaliation.ANSWER_KINDS):
    """Retaliation treated as a damage event: the payer's own Thorns answer it."""
    before = board.unit(payer)
    board = _original_pay_retaliation(board, payer, retaliator, amount, channel, fires, log, ruleset, kinds)
    bounced = and_(fires, before.thorns > 0, before.alive, channel in kinds)
    return _original_pay_retaliation(board, retaliator, payer, before.thorns, "thorns", bounced, log, ruleset)


def _credit_always_feeds(payer, retaliator, lost, log):
    took = lost > 0
    log.emit("credit", when=took, unit=retaliator, other=payer.uid, amount=lost)
    log.emit("feast", when=took, unit=retaliator, other=payer.uid, amount=lost)
    log.emit("phasebreak_check", when=and_(took, payer.is_boss), unit=payer.uid, other=retaliator, amount=lost)


def _credit_staggers(payer, retaliator, lost, log):
    _original_credit(payer, retaliator, lost, log)
    log.emit("stagger", when=and_(lost > 0, payer.is_boss), unit=payer.uid, amount=lost)


REFLECT_FLOOR_ONLY = Mutant("reflect_without_minimum", "referee.model.combat.retaliation:compute_reflect_amount",
                            _reflect_floor_only, "5% rounded down, with no minimum of 1")  # fmt: skip
REFLECT_ALWAYS_ONE = Mutant("reflect_even_when_nothing_landed", "referee.model.combat.retaliation:compute_reflect_amount",
                            _reflect_at_least_one_always, "the minimum of 1 applies when nothing landed")  # fmt: skip
REFLECT_CEIL = Mutant("reflect_rounded_up", "referee.model.combat.retaliation:compute_reflect_amount",
                      lambda landed: -floordiv(-5 * landed, 100), "5% rounded up")  # fmt: skip
REFLECT_FIFTY = Mutant("reflect_fifty_percent", "referee.model.combat.retaliation:compute_reflect_amount",
                       _reflect_fifty_percent, "50% instead of 5%")  # fmt: skip
REFLECT_AS_HIT = Mutant("reflect_answered_by_retaliation", "referee.model.combat.retaliation:process_reflect",
                        _reflect_as_a_hit, "the Reflect is a hit that the attacker's Thorns and Riposte answer",
                        search_within=lambda v: and_(pinned(v, "r", has_cap=False, defy_death=False, vessels=0),
                                                     pinned(v, "a", has_cap=False, defy_death=False, vessels=0)))  # fmt: skip
RETALIATION_ANSWERED = Mutant("retaliation_answers_retaliation", "referee.model.combat.retaliation:pay_retaliation",
                              _retaliation_answered, "the payer's Thorns answer the retaliation it pays")  # fmt: skip
RETORT_ON_EVENT = Mutant(
    "retort_on_absorbed_hit", "referee.model.combat.retaliation:is_landed", lambda outcome: outcome.damage_event,
    "Retort answers any damage event, as Thorns does",
)  # fmt: skip
THORNS_ON_LANDED = Mutant(
    "thorns_only_on_landed", "referee.model.combat.retaliation:is_answerable_event", lambda outcome: outcome.vitality_lost > 0,
    "Thorns and Riposte read whether damage landed",
    search_within=lambda v: and_(pinned(v, "r", has_cap=False, defy_death=False, vessels=0),
                                 pinned(v, "a", has_cap=False, defy_death=False, vessels=0)),
)  # fmt: skip
FEAST_FROM_BOSS = Mutant("feast_from_boss", "referee.model.combat.costs:process_retaliation_credit", _credit_always_feeds,
                         "retaliation into a boss feeds Feast")  # fmt: skip
STAGGER = Mutant("retaliation_staggers", "referee.model.combat.costs:process_retaliation_credit", _credit_staggers,
                 "retaliation into a boss advances Stagger")  # fmt: skip
NO_SIDE_CHECK = Mutant(
    "sides_never_checked", "referee.model.combat.retaliation:is_hostile", lambda board, recipient, attacker: True,
    "retaliation does not check sides", also=(("referee.model.combat.costs:compute_side_refusal", lambda *args: None),),
)  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.7h", "combat:500.7i", mutants=[REFLECT_FLOOR_ONLY, REFLECT_ALWAYS_ONE])
def reflect_is_at_least_one_exactly_when_damage_landed(v: Vars) -> Obligation:
    """The Reflect amount is at least 1 exactly when damage landed on the boss, and never more than what landed."""
    landed = v.int("landed")
    amount = retaliation.compute_reflect_amount(landed)
    claim = and_((amount >= 1) == (landed > 0), amount <= landed, amount >= 0)
    return Obligation(assume=landed >= 0, claim=claim)


@theorem("combat:500.7h", mutants=[REFLECT_CEIL, REFLECT_FIFTY])
def reflect_is_five_percent_rounded_down(v: Vars) -> Obligation:
    """From 20 landed up, the Reflect amount is 5% of what landed, rounded down."""
    landed = v.int("landed")
    amount = retaliation.compute_reflect_amount(landed)
    return Obligation(assume=landed >= 20, claim=and_(20 * amount <= landed, landed < 20 * (amount + 1)))


@theorem("combat:500.6b", "combat:500.7k", mutants=[REFLECT_AS_HIT, RETALIATION_ANSWERED], bound=NO_ARMOR)
def retaliation_never_triggers_retaliation(v: Vars) -> Obligation:
    """In a hit and everything that answers it, the recipient never pays Thorns, Riposte or Retort back to its attacker."""
    board = hit_board(v, armor=False)
    _, log = retaliation.resolve_hit(board, hit(v))
    bounced = [emitted(log, name, "r") for name in ANSWERS]
    return Obligation(assume=all_of(well_formed(board), v.int("amount") >= 0), claim=not_(or_(*bounced)))


@theorem("combat:500.7a", "combat:500.7b", "combat:500.7c", "combat:500.7d", "combat:500.7f",
         mutants=[RETORT_ON_EVENT, THORNS_ON_LANDED])  # fmt: skip
def thorns_answer_every_damage_event_and_retort_only_landed_damage(v: Vars) -> Obligation:
    """Against a legal enemy, Thorns fire exactly on a damage event, whatever its size, and Retort exactly when damage landed;
    a carrier the hit killed answers as ``dead_carrier_answers`` reads (INT-116)."""
    board = hit_board(v)
    after, log, outcome = damage.resolve_damage(board, hit(v))
    answers = EventLog()
    retaliation.process_retaliation(after, hit(v), outcome, answers)
    r, a = after.unit("r"), after.unit("a")
    legal = and_(a.alive, not_(a.entrapped), not_(a.dormant), not_(a.discards_combat), not_(a.defy_death))
    answers_it = retaliation.is_answering_carrier(outcome)  # INT-116: a carrier the hit killed, as the reading has it
    thorns = emitted(answers, "thorns", "a") == and_(answers_it, outcome.damage_event, r.thorns > 0)
    retort_only_landed = or_(not_(emitted(answers, "retort", "a")), outcome.vitality_lost > 0)
    # Retort is paid after Thorns and Riposte; with neither present, landed damage always draws it.
    alone = and_(answers_it, outcome.vitality_lost > 0, r.retort > 0, r.thorns <= 0, r.riposte <= 0)
    retort_fires = or_(not_(alone), emitted(answers, "retort", "a"))
    assume = all_of(well_formed(board), v.int("amount") >= 0, legal)
    return Obligation(assume=assume, claim=and_(thorns, retort_only_landed, retort_fires))


@theorem("combat:500.6f", "combat:500.6g", mutants=[FEAST_FROM_BOSS, STAGGER])
def retaliation_into_a_boss_scores_but_feeds_no_feast_and_no_stagger(v: Vars) -> Obligation:
    """The retaliator is credited with what its retaliation took; Feast only against a non-boss; a boss checks Phasebreak and never Stagger."""
    board = Board((symbolic_unit(v, "p", side=0), symbolic_unit(v, "q", side=1)))
    log = EventLog()
    _, lost = costs.pay_vitality_cost(board, "p", v.int("amount"), "retaliation", log, channel="thorns", beneficiary="q")
    p = board.unit("p")
    credited = and_(emitted(log, "credit", "q") == (lost > 0),
                    and_(True, *[or_(not_(g.when), g.event.amount == lost) for g in log.entries if g.event.name == "credit"]))  # fmt: skip
    feast = emitted(log, "feast", "q") == and_(lost > 0, not_(p.is_boss))
    phasebreak = emitted(log, "phasebreak_check", "p") == and_(lost > 0, p.is_boss)
    claim = and_(credited, feast, phasebreak, not_(emitted(log, "stagger")))
    return Obligation(assume=well_formed(board), claim=claim)


@theorem("combat:500.6h", mutants=[NO_SIDE_CHECK], bound=NO_ARMOR)
def retaliation_never_against_itself_or_an_ally(v: Vars) -> Obligation:
    """Damage from an ally or from the unit itself is never answered by Thorns, Riposte or Retort."""
    claims, assume = [], []
    for ally, source in ((True, "a"), (False, "r")):
        board = hit_board(v, ally=ally, armor=False)
        after, log, outcome = damage.resolve_damage(board, hit(v, source))
        answers = EventLog()
        final = retaliation.process_retaliation(after, hit(v, source), outcome, answers)
        paid = [emitted(answers, name) for name in ANSWERS]
        claims.append(and_(not_(or_(*paid)), *[final.unit(u).vitality == after.unit(u).vitality for u in ("r", "a")]))
        assume.append(well_formed(board))
    return Obligation(assume=all_of(*assume, v.int("amount") >= 0), claim=and_(*claims))


def _only_the_source_answers(instance):
    """Attribution ignored: only the instance's source is answered."""
    return () if instance.source is None else (instance.source,)


def _reflect_meets_armor(board, boss, instance, outcome, log, ruleset):
    """The Reflect comes back as an ordinary hit, meeting the attacker's Armor (but no retaliation)."""
    from referee.model.arith import ite

    attacker = instance.source
    if attacker is None or not retaliation.is_hostile(board, boss, attacker):
        return board
    amount = retaliation.compute_reflect_amount(retaliation.compute_reflect_basis(outcome, ruleset))
    reflects = and_(retaliation.has_reflect(boss), amount > 0)
    log.emit("reflect", when=reflects, unit=boss.uid, other=attacker, amount=amount)
    back = DamageInstance(target=attacker, amount=ite(reflects, amount, 0), source=boss.uid, kind="aoe")
    board, step, _ = damage.resolve_damage(board, back, ruleset)
    log.extend(step)
    return board


SOURCE_ONLY = Mutant("only_the_source_is_answered", "referee.model.combat.retaliation:compute_attackers", _only_the_source_answers,
                     "a tick attributed to several enemies answers only its source")  # fmt: skip
REFLECT_MEETS_ARMOR = Mutant("reflect_meets_attacker_armor", "referee.model.combat.retaliation:process_reflect",
                             _reflect_meets_armor, "the Reflect is reduced by the attacker's Armor")  # fmt: skip


@theorem("combat:500.7e", "combat:500.7a", mutants=[SOURCE_ONLY], bound=NO_ARMOR)
def a_tick_attributed_to_several_enemies_answers_each(v: Vars) -> Obligation:
    """When a Burn tick attributed to two enemies is a damage event, Thorns make each of them pay, once (a carrier the
    tick killed: as ``dead_carrier_answers`` reads, INT-116)."""
    pinned = {**UNREAD, "armor": 0, "shield_multiplier": 1}
    board = Board((symbolic_unit(v, "r", side=1, **pinned), symbolic_unit(v, "a", side=0, col=0, **pinned), symbolic_unit(v, "b", side=0, col=1, **pinned)))
    tick = DamageInstance(target="r", amount=v.int("amount"), source="a", kind="burn", appliers=("a", "b"),
                          riposte_rolls=(v.bool("roll_a"), v.bool("roll_b")))  # fmt: skip
    after, log, outcome = damage.resolve_damage(board, tick)
    answers = EventLog()
    retaliation.process_retaliation(after, tick, outcome, answers)
    r = after.unit("r")
    answers_it = retaliation.is_answering_carrier(outcome)  # INT-116: a carrier the tick killed, as the reading has it
    claims = []
    for uid in ("a", "b"):
        u = after.unit(uid)
        legal = and_(u.alive, not_(u.entrapped), not_(u.dormant), not_(u.discards_combat), not_(u.defy_death))
        # INT-110: each answer order is its own guarded run, so "once" counts the Thorns that fire, not the entries
        fired = sum((ite_(g.when, 1, 0) for g in answers.entries if g.event.name == "thorns" and g.event.unit == uid), 0)
        due = and_(answers_it, legal, outcome.damage_event, r.thorns > 0)
        claims.append(and_(fired <= 1, or_(not_(due), emitted(answers, "thorns", uid))))
    return Obligation(assume=all_of(well_formed(board), v.int("amount") >= 0), claim=and_(*claims))


@theorem("combat:500.7j", "combat:500.7i", mutants=[REFLECT_MEETS_ARMOR], bound="attacker Armor in 0..400; boss Armor 0")
def reflect_skips_the_attackers_armor(v: Vars) -> Obligation:
    """Against an attacker with no Insurance, Shield, cap, ignore charge or defy-death rune, a Reflect takes exactly its amount from Vitality (up to what it has), whatever the attacker's Armor (a boss the hit
    killed reflects as ``dead_carrier_answers`` reads, INT-116)."""
    boss = symbolic_unit(v, "r", side=1, is_boss=True, reflect=True, armor=0, thorns=0, riposte=0, retort=0, subrogated=0, **UNREAD)
    attacker = symbolic_unit(v, "a", side=0, insurance=0, subrogated=0, shield=0, ignore_charges=0, defy_death=False, has_cap=False,
                      thorns=0, riposte=0, retort=0, **UNREAD)  # fmt: skip
    board = Board((boss, attacker))
    instance = DamageInstance(target="r", amount=v.int("amount"), source="a", kind="hit")
    after, log, outcome = damage.resolve_damage(board, instance)
    answers = EventLog()
    final = retaliation.process_retaliation(after, instance, outcome, answers)
    reflected = retaliation.compute_reflect_amount(retaliation.compute_reflect_basis(outcome))  # INT-111: the reading's basis
    answers_it = retaliation.is_answering_carrier(outcome)  # INT-116: a boss the hit killed, as the reading has it
    a0 = after.unit("a")
    took = a0.vitality - final.unit("a").vitality
    reached = and_(answers_it, a0.alive, not_(a0.dormant), not_(a0.discards_combat))
    expected = ite_(reached, min_(reflected, a0.vitality), 0)
    assume = all_of(well_formed(board), v.int("amount") >= 0, a0.vessels == 0, attacker.armor >= 0, attacker.armor <= 400)
    return Obligation(assume=assume, claim=took == expected)
