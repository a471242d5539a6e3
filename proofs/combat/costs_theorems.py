"""Theorems of 500.8 Vitality costs: what a cost never touches, what it can take, and who dies.

Every theorem runs the model's own :func:`~referee.model.combat.costs.pay_vitality_cost` on
symbolic units (DESIGN, proofs/ way (a)), once per cost kind, through the module so that
a mutant patched into ``referee.model.combat.costs`` or ``referee.model.combat.vitality`` is seen.
The board is a payer ``p`` and an enemy ``q`` on the other half, both with every numeric
and Boolean field a variable; :func:`is_well_formed` states what a legal unit looks like.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Iterator
from typing import Any

from referee.model.combat import costs, vitality
from referee.model.arith import and_, ceildiv, ite, max_, min_, not_, or_
from referee.model.events import EventLog
from referee.model.combat.state import Board

from referee.model.combat.legal import is_legal_unit

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .fixtures import Runs, amounts_when, emitted, legal_units, two_sides

#: The channel each kind reports on in these theorems (retaliation: Thorns, say).
CHANNELS = {"bloodletting": "bloodletting_paid", "interest": "cost_paid", "self_destruct": "cost_paid", "retaliation": "thorns"}
#: Events that belong to a damage instance and its reactions (500.8c, 500.6b).
DAMAGE_REACTIONS = (
    "damage_taken", "shield_damaged", "shield_broken", "insurance_prevented", "ignore_charge_spent",
    "thorns", "riposte", "retort", "subrogation", "reflect", "stagger", "redirect", "lethal_redirect",
)  # fmt: skip
#: 500.8f, read from the rule text (not from the model's table, which a mutant may patch).
DEFY_DEATH_OPTS_IN = {"bloodletting": True, "retaliation": True, "interest": False, "self_destruct": False}
#: Fields a cost never changes on its payer (500.8a); Shield only through death (500.4b).
UNTOUCHED = ("insurance", "subrogated", "ignore_charges", "armor", "has_cap", "cap")


# --------------------------------------------------------------------------------------
# Helpers shared by the cost theorems
# --------------------------------------------------------------------------------------


#: A legal unit (shared with every other chapter's theorems).
is_well_formed = is_legal_unit


def cost_board(v: Vars) -> Board:
    """A payer ``p`` on one half and an enemy ``q`` on the other, every number and flag a variable."""
    return two_sides(v, "p", "q")


def run_cost(v: Vars, kind: str) -> tuple[Board, Board, EventLog, Any]:
    """The payer pays the symbolic ``amount`` as a cost of ``kind`` to ``q``: ``(before, after, log, lost)``."""
    before = cost_board(v)
    log = EventLog()
    after, lost = costs.pay_vitality_cost(
        before, "p", v.int(f"amount_{kind}"), kind, log, channel=CHANNELS[kind], beneficiary="q"
    )
    return before, after, log, lost


#: Every unit of the board a legal unit.
well_formed_board = legal_units


def cost_runs(v: Vars, runs: Runs) -> Iterator[tuple[str, tuple[Board, Board, EventLog, Any]]]:
    """A cost of every kind (:func:`run_cost`), each run's board assumed well formed as it is made."""
    return runs.each(costs.COST_KINDS, lambda kind: run_cost(v, kind), lambda run: well_formed_board(run[0]))


# --------------------------------------------------------------------------------------
# Mutants: realistic cost bugs
# --------------------------------------------------------------------------------------

_original_lose_vitality = vitality.lose_vitality
_original_pay = costs.pay_vitality_cost
_original_price = costs.compute_price


def _lose_vitality_through_shield(board, uid, amount, killer, log, announce=None, **death):
    """The cost is routed through Shield first, as damage would be."""
    unit = board.unit(uid)
    absorbed = min_(max_(unit.shield, 0), max_(amount, 0))
    board = board.with_unit(replace(unit, shield=unit.shield - absorbed))
    return _original_lose_vitality(board, uid, amount - absorbed, killer, log, announce, **death)


def _pay_spending_ignore_charge(board, payer, amount, kind, log, **options):
    """A damage-ignore charge discards the cost, as it would a damage instance."""
    unit = board.unit(payer)
    has = unit.ignore_charges > 0
    board = board.with_unit(replace(unit, ignore_charges=ite(has, unit.ignore_charges - 1, unit.ignore_charges)))
    return _original_pay(board, payer, ite(has, 0, amount), kind, log, **options)


def _pay_spending_insurance(board, payer, amount, kind, log, **options):
    """Insurance points meet the cost (one point per 25, as in 500.1a)."""
    unit = board.unit(payer)
    spent = min_(max_(unit.insurance, 0), ceildiv(max_(amount, 0), 25))
    board = board.with_unit(replace(unit, insurance=unit.insurance - spent))
    return _original_pay(board, payer, max_(amount - 25 * spent, 0), kind, log, **options)


def _lose_vitality_unclamped(board, uid, amount, killer, log, announce=None, **death):
    """No clamp: the whole price leaves, carrying a debt below 0."""
    unit = board.unit(uid)
    lost = ite(unit.alive, amount, 0)
    after = replace(unit, vitality=unit.vitality - lost)
    if announce is not None:
        announce(lost)
    after = vitality.process_vitality_loss_listeners(after, lost, log)
    dies = and_(lost > 0, vitality.is_killed_by_vitality(unit, after))
    return vitality.process_death(board.with_unit(after), uid, dies, killer, log, **death), lost


def _price_unclamped(unit, amount, kind):
    return ite(unit.discards_combat, 0, unit.vitality if kind == "self_destruct" else amount)


def _price_negative_heals(unit, amount, kind):
    """Forgets that a negative price is no price: it heals the payer."""
    owed = unit.vitality if kind == "self_destruct" else min_(amount, unit.vitality)
    return ite(unit.discards_combat, 0, owed)


def _lose_vitality_announcing_damage(board, uid, amount, killer, log, announce=None, **death):
    """The shared loss step also fires the on-damage-taken fanout, for costs too."""
    def both(lost):
        if announce is not None:
            announce(lost)
        log.emit("damage_taken", when=lost > 0, unit=uid, amount=lost, other=killer)

    return _original_lose_vitality(board, uid, amount, killer, log, both, **death)


def _lose_vitality_through_shield_with_trigger(board, uid, amount, killer, log, announce=None, **death):
    """The cost is routed through Shield first and fires the Shield-damaged trigger."""
    unit = board.unit(uid)
    absorbed = min_(max_(unit.shield, 0), max_(amount, 0))
    log.emit("shield_damaged", when=absorbed > 0, unit=uid, amount=absorbed)
    board = board.with_unit(replace(unit, shield=unit.shield - absorbed))
    return _original_lose_vitality(board, uid, amount - absorbed, killer, log, announce, **death)


def _lose_vitality_announcing_price(board, uid, amount, killer, log, announce=None, **death):
    """Listeners read the price asked, not the Vitality that left."""

    def printed(lost):
        if announce is not None:
            announce(ite(lost > 0, amount, lost))

    return _original_lose_vitality(board, uid, amount, killer, log, printed, **death)


def _self_destruct_stopped_by_ignore_charge(unit, amount, kind):
    price = _original_price(unit, amount, kind)
    return ite(and_(kind == "self_destruct", unit.ignore_charges > 0), 0, price)


def _refusal_forgets_entrapped(unit, kind):
    reasons = [("dead", not_(unit.alive))]
    if kind == "retaliation":
        reasons.append(("dormant", and_(unit.alive, unit.dormant)))
    return tuple(reasons)


def _price_charges_tools(unit, amount, kind):
    return unit.vitality if kind == "self_destruct" else min_(max_(amount, 0), unit.vitality)


def _max_vitality_never_debited(unit, price, kind):
    return unit.max_vitality


def _max_vitality_debited_by_every_cost(unit, price, kind):
    return unit.max_vitality - price


SHIELD_FIRST = Mutant("cost_through_shield", "referee.model.combat.vitality:lose_vitality", _lose_vitality_through_shield,
                      "the cost is absorbed by Shield before Vitality")  # fmt: skip
IGNORE_CHARGE = Mutant("ignore_charge_discards_cost", "referee.model.combat.costs:pay_vitality_cost", _pay_spending_ignore_charge,
                       "a damage-ignore charge is spent and the cost discarded")  # fmt: skip
INSURANCE = Mutant("insurance_meets_cost", "referee.model.combat.costs:pay_vitality_cost", _pay_spending_insurance,
                   "Insurance points absorb the cost")  # fmt: skip
UNCLAMPED = Mutant(
    "debt_carried_forward", "referee.model.combat.vitality:lose_vitality", _lose_vitality_unclamped,
    "no clamp to the payer's Vitality", also=(("referee.model.combat.costs:compute_price", _price_unclamped),),
)  # fmt: skip
NEGATIVE_HEALS = Mutant(
    "negative_price_heals", "referee.model.combat.costs:compute_price", _price_negative_heals,
    "a negative price is paid, healing the payer",
)  # fmt: skip
DAMAGE_FANOUT = Mutant("cost_fires_damage_taken", "referee.model.combat.vitality:lose_vitality", _lose_vitality_announcing_damage,
                       "the shared loss step fires on-damage-taken for a cost")  # fmt: skip
PRINTED_PRICE = Mutant(
    "listeners_read_printed_price", "referee.model.combat.vitality:lose_vitality", _lose_vitality_announcing_price,
    "the channel carries the price asked, not the Vitality moved",
    also=(("referee.model.combat.costs:compute_price", _price_unclamped),),
)  # fmt: skip
SELF_DESTRUCT_AS_DAMAGE = Mutant(
    "self_destruct_absorbed_by_shield", "referee.model.combat.costs:scraps_shield", lambda unit, kind: False,
    "the self-destruct's Shield is damaged rather than scrapped, and absorbs part of it",
    also=(("referee.model.combat.vitality:lose_vitality", _lose_vitality_through_shield),),
)  # fmt: skip
SHIELD_TRIGGER = Mutant("cost_fires_shield_damaged", "referee.model.combat.vitality:lose_vitality",
                        _lose_vitality_through_shield_with_trigger, "the cost drains Shield and fires its trigger")  # fmt: skip
SELF_DESTRUCT_DEFIED = Mutant(
    "defy_death_answers_self_destruct", "referee.model.combat.costs:DEFY_DEATH_ANSWERS",
    {**costs.DEFY_DEATH_ANSWERS, "self_destruct": True}, "defy-death saves a self-destruct",  # type: ignore[arg-type]
)  # fmt: skip
INTEREST_DEFIED = Mutant(
    "defy_death_answers_interest", "referee.model.combat.costs:DEFY_DEATH_ANSWERS",
    {**costs.DEFY_DEATH_ANSWERS, "interest": True}, "defy-death saves an Interest payment",  # type: ignore[arg-type]
)  # fmt: skip
RETALIATION_NOT_DEFIED = Mutant(
    "defy_death_ignores_retaliation", "referee.model.combat.costs:DEFY_DEATH_ANSWERS",
    {**costs.DEFY_DEATH_ANSWERS, "retaliation": False}, "defy-death does not answer retaliation",  # type: ignore[arg-type]
)  # fmt: skip
def _defied_for(extra: str) -> Any:
    """Bug: the defy-death rune also answers ``extra`` (a kind that does not opt in, 500.8f)."""
    def defied(unit: Any, price: Any, kind: str) -> Any:
        opts_in = costs.DEFY_DEATH_ANSWERS[kind] or kind == extra
        return and_(opts_in, unit.defy_death, price > 0, price >= unit.vitality)
    return defied


#: The same bugs as functions, gated to a rune that leaves 2: only a proof over defy_death_leaves refutes them.
SELF_DESTRUCT_DEFIED_AT_TWO = Mutant("defy_death_answers_self_destruct", "referee.model.combat.costs:is_defied",
                                     _defied_for("self_destruct"), "defy-death saves a self-destruct",
                                     ).at_reading("defy_death_leaves", 2)
INTEREST_DEFIED_AT_TWO = Mutant("defy_death_answers_interest", "referee.model.combat.costs:is_defied",
                                _defied_for("interest"), "defy-death saves an Interest payment",
                                ).at_reading("defy_death_leaves", 2)
SELF_DESTRUCT_IGNORED = Mutant("ignore_charge_stops_self_destruct", "referee.model.combat.costs:compute_price",
                               _self_destruct_stopped_by_ignore_charge, "an ignore charge talks a self-destruct out of it")  # fmt: skip
FORGETS_ENTRAPPED = Mutant("entrapped_payer_pays", "referee.model.combat.costs:compute_refusal_reasons", _refusal_forgets_entrapped,
                           "an Entrapped payer is not refused")  # fmt: skip
TOOLS_PAY = Mutant("tools_pay_costs", "referee.model.combat.costs:compute_price", _price_charges_tools,
                   "a Tool or Hub pays like any unit")  # fmt: skip
NO_DEBIT = Mutant("interest_never_debits", "referee.model.combat.costs:compute_max_vitality_after", _max_vitality_never_debited,
                  "Interest leaves maximum Vitality alone")  # fmt: skip
EVERY_DEBIT = Mutant("every_cost_debits", "referee.model.combat.costs:compute_max_vitality_after", _max_vitality_debited_by_every_cost,
                     "every cost lowers maximum Vitality")  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.8a", "combat:500.6a", "combat:800.4f", mutants=[SHIELD_FIRST, IGNORE_CHARGE, INSURANCE])
def cost_never_spends_shield_insurance_ignore_charges_or_armor(v: Vars) -> Obligation:
    """A Vitality cost of any kind leaves Insurance, Subrogated Insurance, ignore charges and the cap unchanged, Armor unchanged unless a Vessel revival rebuilds it, and Shield unchanged unless the payer dies."""
    runs = Runs()
    for _, (before, after, log, _) in cost_runs(v, runs):
        p0, p1 = before.unit("p"), after.unit("p")
        runs.claim(*[getattr(p0, f) == getattr(p1, f) for f in UNTOUCHED if f != "armor"])
        revived = emitted(log, "vessel_revival", "p")
        runs.claim(p1.armor == ite(revived, p0.armor - p0.armor_change, p0.armor))  # 500.9c
        runs.claim(or_(p0.shield == p1.shield, emitted(log, "death", "p")))
    return runs.obligation()


@theorem("combat:500.8b", "combat:800.4g", mutants=[UNCLAMPED, NEGATIVE_HEALS])
def cost_never_exceeds_the_payers_vitality(v: Vars) -> Obligation:
    """What a cost takes is between 0 and the payer's Vitality, and Vitality never goes below 0."""
    runs = Runs()
    for _, (before, after, _, lost) in cost_runs(v, runs):
        runs.claim(lost >= 0, lost <= before.unit("p").vitality, after.unit("p").vitality >= 0)
    return runs.obligation()


@theorem("combat:500.8c", "combat:500.6b", "combat:800.4i", mutants=[DAMAGE_FANOUT, SHIELD_TRIGGER])
def cost_emits_no_damage_reaction(v: Vars) -> Obligation:
    """A Vitality cost emits no damage-taken fanout, no Shield trigger and no retaliation but its own channel."""
    runs = Runs()
    runs.claim(True)  # no reaction at all in any run is still a claim
    for kind, (_, _, log, _) in cost_runs(v, runs):
        for g in log.entries:
            own = g.event.name == CHANNELS[kind] and g.event.unit == "p"
            if g.event.name in DAMAGE_REACTIONS and not own:
                runs.claim(not_(g.when))
    return runs.obligation()


@theorem("combat:500.8i", "combat:800.4g", "combat:800.4i", mutants=[PRINTED_PRICE])
def cost_channel_reports_the_vitality_that_left(v: Vars) -> Obligation:
    """The payment's channel fires exactly when Vitality left the payer, and carries that amount."""
    runs = Runs()
    for kind, (_, _, log, lost) in cost_runs(v, runs):
        runs.claim(emitted(log, CHANNELS[kind], "p") == (lost > 0))
        runs.claim(amounts_when(log, CHANNELS[kind], "p", lambda amount: amount == lost))
    return runs.obligation()


@theorem("combat:500.8h", "combat:500.4a", mutants=[SELF_DESTRUCT_DEFIED, SELF_DESTRUCT_IGNORED, SELF_DESTRUCT_AS_DAMAGE])
def self_destruct_always_kills(v: Vars) -> Obligation:
    """A living, free (not Entrapped) unit that is not a Tool or Hub dies when it self-destructs, whatever Shield, Insurance, ignore charges or defy-death rune it holds."""
    before = cost_board(v)
    log = EventLog()
    costs.process_self_destruct(before, "p", log)
    p = before.unit("p")
    can_pay = and_(p.alive, not_(p.entrapped), not_(p.discards_combat))
    return Obligation(assume=all_of(well_formed_board(before), can_pay), claim=emitted(log, "death", "p"))


@theorem("combat:500.8h", mutants=[SELF_DESTRUCT_DEFIED, SELF_DESTRUCT_DEFIED_AT_TWO])
def self_destruct_keeps_everlasting_and_the_defy_death_charge(v: Vars) -> Obligation:
    """A self-destruct schedules an Everlasting revival when there is no Vessel, and never spends a defy-death charge (a Vessel revival may only re-arm one spent earlier)."""
    before = cost_board(v)
    log = EventLog()
    after, _ = costs.process_self_destruct(before, "p", log)
    p = before.unit("p")
    can_pay = and_(p.alive, not_(p.entrapped), not_(p.discards_combat))
    schedules = emitted(log, "everlasting_scheduled", "p") == and_(p.everlasting, p.vessels <= 0)
    rearmed = or_(p.defy_death, p.defy_death_spent)  # 500.9e
    keeps = after.unit("p").defy_death == ite(p.vessels > 0, rearmed, p.defy_death)
    return Obligation(assume=all_of(well_formed_board(before), can_pay), claim=and_(schedules, keeps))


@theorem("combat:500.8g", mutants=[NO_DEBIT, EVERY_DEBIT], unless=["zero_maximum_revival=returns_at_one"])
def interest_lowers_max_vitality_by_exactly_what_was_paid(v: Vars) -> Obligation:
    """Interest lowers maximum Vitality by exactly the Vitality paid; no other cost changes it."""
    runs = Runs()
    for kind, (before, after, _, lost) in cost_runs(v, runs):
        debit = lost if kind == "interest" else 0
        runs.claim(after.unit("p").max_vitality == before.unit("p").max_vitality - debit)
    return runs.obligation()


@theorem("combat:500.8e", "combat:500.6e", mutants=[FORGETS_ENTRAPPED, TOOLS_PAY])
def refused_or_discarding_payer_loses_nothing(v: Vars) -> Obligation:
    """A dead or Entrapped payer (or a Dormant one, for retaliation), a Tool and a Hub lose nothing to a cost."""
    runs = Runs()
    for kind, (before, after, _, lost) in cost_runs(v, runs):
        p = before.unit("p")
        exempt = or_(not_(p.alive), p.entrapped, p.discards_combat, and_(kind == "retaliation", p.dormant))
        runs.claim(or_(not_(exempt), and_(lost == 0, after.unit("p").vitality == p.vitality)))
    return runs.obligation()


@theorem("combat:500.8f", "combat:500.6d", "combat:800.4h", mutants=[INTEREST_DEFIED, RETALIATION_NOT_DEFIED, INTEREST_DEFIED_AT_TWO])
def defy_death_answers_only_retaliation_and_bloodletting(v: Vars) -> Obligation:
    """An armed defy-death rune saves a payer from a lethal Retaliation or Bloodletting cost, spending its charge, and never from Interest or a self-destruct, keeping its charge."""
    runs = Runs()
    for kind, (before, after, log, _) in cost_runs(v, runs):
        p = before.unit("p")
        lethal = and_(p.alive, not_(p.entrapped), not_(p.dormant), not_(p.discards_combat), p.defy_death,
                      v.int(f"amount_{kind}") >= p.vitality, p.vitality > 1)  # fmt: skip
        if DEFY_DEATH_OPTS_IN[kind]:
            saved = and_(not_(emitted(log, "death", "p")), not_(after.unit("p").defy_death))
        else:
            saved = and_(emitted(log, "death", "p"), after.unit("p").defy_death)
        runs.claim(or_(not_(lethal), saved))
        runs.assume(v.int(f"amount_{kind}") >= 0)
    return runs.obligation()


#: 500.8d / 500.6c, read from the rule text: the runes that reset on Vitality loss.
RESET_RUNES = ("adrenaline", "momentum", "bolster")


def _listeners_for_damage_only(unit, lost, log):
    """The loss listeners are wired to the damage-taken fanout, so a cost never reaches them."""
    return unit


def _no_macabre_for_costs(board, dead, dies, log):
    """Deaths by cost skip Macabre (a special death route for costs)."""
    return None


RUNES_FORGOTTEN = Mutant("bolster_not_reset", "referee.model.combat.vitality:VITALITY_LOSS_RUNES", ("adrenaline", "momentum"),
                         "Bolster is left out of the runes that reset")  # type: ignore[arg-type]  # fmt: skip
LISTENERS_SKIPPED = Mutant("cost_skips_loss_listeners", "referee.model.combat.vitality:process_vitality_loss_listeners",
                           _listeners_for_damage_only, "Vitality lost to a cost does not reach the loss listeners")  # fmt: skip
NO_MACABRE = Mutant("cost_death_without_macabre", "referee.model.combat.vitality:announce_macabre", _no_macabre_for_costs,
                    "a death by cost fires no Macabre")  # fmt: skip


@theorem("combat:500.8d", "combat:500.6c", mutants=[RUNES_FORGOTTEN, LISTENERS_SKIPPED])
def vitality_lost_to_a_cost_resets_the_runes_and_reevaluates_thresholds(v: Vars) -> Obligation:
    """Whenever a cost takes Vitality, Adrenaline, Momentum and Bolster end at 0 and thresholds re-evaluate; when it takes none, they are untouched."""
    runs = Runs()
    for _, (before, after, log, lost) in cost_runs(v, runs):
        p0, p1 = before.unit("p"), after.unit("p")
        reset = and_(*[getattr(p1, rune) == 0 for rune in RESET_RUNES], emitted(log, "threshold_reevaluated", "p"))
        kept = and_(*[getattr(p1, rune) == getattr(p0, rune) for rune in RESET_RUNES])
        runs.claim(ite(lost > 0, reset, kept))
    return runs.obligation()


@theorem("combat:500.8j", "combat:500.6d", "combat:500.4c", mutants=[NO_MACABRE])
def death_by_cost_is_an_ordinary_death(v: Vars) -> Obligation:
    """A cost that empties the payer's Vitality announces its death, fires Macabre for the other living unit and resolves its deathrattle."""
    runs = Runs()
    for _, (before, _, log, lost) in cost_runs(v, runs):
        p, q = before.unit("p"), before.unit("q")
        emptied = and_(lost > 0, lost == p.vitality)
        ordinary = and_(
            emitted(log, "death", "p"),
            emitted(log, "macabre", "q") == q.alive,
            emitted(log, "deathrattle", "p") == p.deathrattle,
        )
        runs.claim(or_(not_(emptied), ordinary))
    return runs.obligation()
