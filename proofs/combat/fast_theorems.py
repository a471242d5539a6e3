"""The pipeline's fast twin (``model/combat/fast.py``) computes the single-source pipeline's numbers, on every input.

The fast twin is plain Python with ``if``. Each theorem runs one of its steps on the same symbolic
inputs as the model's own step, with every branch explored and merged into one term
(``proofs/branches.py``), and claims the two equal, for every instance kind and both readings of
every option the step reads: the tick adjustment and the gates (500.1h, 500.1-1..3), then each
step of the mitigation (500.1-4..500.1-12). ``fast.mitigate`` composes the steps in the
pipeline's order, and its one shortcut (every figure 0 when nothing meets the layers) is proved
of the model itself (:func:`nothing_entering_meets_no_layer`). The composition, the events and
the board plumbing are held by the differential test ``tests/combat/test_fast_path.py``.

Some steps are shared code: the fast twin calls the model's own Armor searches
(``compute_surviving_after_positive_armor``, ``..._negative_armor``) and its Shield products
(``compute_drain_demand``, ``compute_damage_to_break``: nonlinear in a symbolic multiplier). So
the agreement of the steps around them is proved with those left uninterpreted (``abstract=``),
both sides applying the same function to their own terms. What a proof uses of them is proved on
the exact encoding as lemmas: 0 damage survives Armor as 0 and drains no Shield, and a pool never
takes less than nothing to break. Mutants are judged on the exact encoding.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, ceildiv, floordiv, ite, max_, min_, not_, or_
from referee.model.combat import armor, damage, fast, insurance, redirect, shield
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset

from ..branches import merged
from ..core import Mutant, Obligation, Vars, all_of, theorem
from .symbolic import symbolic_unit

def rulesets(v: Vars) -> tuple[Any, ...]:
    """The rulesets the steps are compared under: one, over every reading of every option (``proofs/readings.py``)."""
    return (v.ruleset(),)
#: An instance that meets Armor, a tick that skips it, and a Reflect (which may enter below it).
MITIGATION_KINDS = ("hit", "burn", "reflect")
ARMOR_SEARCHES = ("referee.model.combat.armor:compute_surviving_after_positive_armor",
                  "referee.model.combat.armor:compute_surviving_after_negative_armor")
#: Shared code the proofs leave uninterpreted: the Armor searches, and the two products of a
#: symbolic multiplier (nonlinear, and the same function applied on both sides).
SHIELD_PRODUCTS = ("referee.model.combat.shield:compute_drain_demand",
                   "referee.model.combat.shield:compute_damage_to_break")
SHARED_STEPS = (*ARMOR_SEARCHES, *SHIELD_PRODUCTS)

_POSITIVE = armor.compute_surviving_after_positive_armor
_NEGATIVE = armor.compute_surviving_after_negative_armor
_ADJUST_TICK = fast.adjust_tick


def _context(v: Vars) -> list[Any]:
    """The side conditions of the encoding so far (they only prune the branch exploration)."""
    from referee.model.arith import _CONTEXT

    context = _CONTEXT.get()
    return list(context.side_conditions) if context is not None and v.symbolic else []


def _equal_fields(model: Any, quick: Any, names: tuple[str, ...]) -> list[Any]:
    return [getattr(model, name) == getattr(quick, name) for name in names]


# --------------------------------------------------------------------------------------
# The lemma about the shared Armor searches
# --------------------------------------------------------------------------------------


def _one_survives_nothing(damage_in: Any, armor_value: Any) -> Any:
    return ite(damage_in == 0, 1, _POSITIVE(damage_in, armor_value))


SURVIVES_NOTHING = Mutant("something_survives_nothing", ARMOR_SEARCHES[0], _one_survives_nothing,
                          "0 damage into Armor leaves 1")


@theorem("combat:500.2a", "combat:500.2c", "combat:500.2d", mutants=[SURVIVES_NOTHING])
def armor_leaves_nothing_of_nothing(v: Vars) -> Obligation:
    """No damage into any Armor leaves no damage, under either reading of negative Armor."""
    value = v.int("armor")
    return Obligation(
        assume=True,
        claim=all_of(armor.compute_surviving_after_positive_armor(0, value) == 0,
                     *[armor.compute_surviving_after_negative_armor(0, value, rules) == 0 for rules in rulesets(v)]),
    )


def _drain_something_of_nothing(multiplier: Any, damage_in: Any) -> Any:
    return multiplier * damage_in + ite(damage_in == 0, 1, 0)


DRAINS_FROM_NOTHING = Mutant("nothing_drains_a_point", "referee.model.combat.shield:compute_drain_demand",
                             _drain_something_of_nothing, "0 damage drains one Shield point")


@theorem("combat:500.1-10", mutants=[DRAINS_FROM_NOTHING])
def shield_products_of_nothing_are_nothing(v: Vars) -> Obligation:
    """No damage demands no Shield points, and a pool never takes less than nothing to break, under either rounding."""
    multiplier, pool = v.int("multiplier"), v.int("pool")
    return Obligation(
        assume=multiplier >= 1,
        claim=all_of(shield.compute_drain_demand(multiplier, 0) == 0,
                     *[shield.compute_damage_to_break(pool, multiplier, rules) >= 0 for rules in rulesets(v)]),
    )


# --------------------------------------------------------------------------------------
# The tick adjustment and the gates: 500.1h, 500.1-1 .. 500.1-3
# --------------------------------------------------------------------------------------


def _floor_prismbroken_tick(recipient: Any, instance: Any) -> Any:
    tick = _ADJUST_TICK(recipient, instance)
    if instance.kind in ("burn", "venom") and not instance.redirected and recipient.prismbroken:
        return tick - ceildiv(3 * instance.amount, 2) + floordiv(3 * instance.amount, 2)
    return tick


def _dormancy_ignored(unit: Any, instance: Any) -> bool:
    return bool(unit.alive) and not (unit.is_tool or unit.is_hub)


FAST_TICK_FLOORED = Mutant("fast_tick_rounded_down", "referee.model.combat.fast:adjust_tick", _floor_prismbroken_tick,
                           "the fast twin rounds Prismbreak's 50% down")
FAST_DORMANT_REACHED = Mutant("fast_dormant_reached", "referee.model.combat.fast:is_reachable", _dormancy_ignored,
                              "the fast twin lets every instance reach a Dormant unit")


@theorem("combat:500.1h", "combat:500.1-1", "combat:500.1-2", "combat:500.1-3", "combat:500.1i",
         mutants=[FAST_TICK_FLOORED, FAST_DORMANT_REACHED])
def fast_gates_agree_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin's adjusted tick, prevented tick, discards and entering amount are the pipeline's, for every kind, moved or not."""
    r = symbolic_unit(v, "r")
    claims: list[Any] = []
    for kind in damage.DAMAGE_KINDS:
        for moved in (False, True):
            instance = DamageInstance("r", v.int("amount"), "s", kind, allows_dormant=v.bool("allows_dormant"),
                                      redirected=moved)
            amount = damage.compute_entering_amount(r, instance)
            quick = merged(lambda: fast.pass_gates(r, instance), context=_context(v))
            claims += [
                quick.amount == amount,
                quick.tick_prevented == damage.is_tick_prevented(r, instance, amount),
                quick.by_tool_or_hub == damage.is_discarded_by_tool_or_hub(r, amount),
                quick.by_dormancy == damage.is_discarded_by_dormancy(r, instance, amount),
                quick.entering == ite(damage.is_passing_gates(r, instance, amount), amount, 0),
                merged(lambda: fast.is_reachable(r, instance))
                == redirect.is_reachable(r, kind, instance.allows_dormant),
            ]
    return Obligation(assume=True, claim=all_of(*claims))


SHARED_LEMMAS = (armor_leaves_nothing_of_nothing, shield_products_of_nothing_are_nothing)


def shared_facts(v: Vars, r: Any, multiplier: Any) -> Any:
    """What the proofs know of the uninterpreted shared steps: the two lemmas, at this recipient and multiplier."""
    return all_of(v.lemma(armor_leaves_nothing_of_nothing, armor=r.armor),
                  v.lemma(shield_products_of_nothing_are_nothing, multiplier=multiplier, pool=r.shield))


# --------------------------------------------------------------------------------------
# The mitigation arithmetic, step by step: 500.1-4 .. 500.1-12
# --------------------------------------------------------------------------------------
#
# Each step of ``fast.mitigate`` against the model's own step; ``fast.mitigate`` composes them in
# the pipeline's order (held by the differential test), and its one shortcut, all figures 0 when
# nothing meets the layers, is proved of the model itself below. Measured: one theorem over the
# whole of ``mitigate`` leaves the remainder's equality unknown after 200M rlimit and 5 minutes.


def _ignored_even_below_armor(recipient: Any, instance: Any, entering: Any, ruleset: Ruleset) -> Any:
    return entering > 0 and recipient.ignore_charges > 0


def _armor_without_flat(recipient: Any, instance: Any, damage_in: Any, ruleset: Ruleset) -> Any:
    if instance.kind in ("burn", "venom", "reflect"):
        return damage_in
    value = recipient.armor
    if value >= 0:
        return armor.compute_surviving_after_positive_armor(damage_in, value)
    return armor.compute_surviving_after_negative_armor(damage_in, value, ruleset)


def _cap_always_printed(recipient: Any, damage_in: Any) -> Any:
    return min_(damage_in, max_(recipient.cap, 0))


def _points_rounded_down(points: Any, damage_in: Any) -> tuple[Any, Any]:
    spent = min_(max_(points, 0), floordiv(damage_in, 25))
    return spent, min_(damage_in, 25 * spent)


def _shield_absorbs_one_less_when_broken(pool: Any, multiplier: Any, damage_in: Any, ruleset: Ruleset) -> tuple[Any, Any]:
    demand = shield.compute_drain_demand(multiplier, damage_in)
    drained = min_(max_(pool, 0), demand)
    if demand <= pool:
        return drained, damage_in
    return drained, min_(damage_in, shield.compute_damage_to_break(pool, multiplier, ruleset) - 1)


def _redirect_one_over(remaining: Any, cap: Any, ruleset: Ruleset) -> Any:
    cap = max_(cap, 0)
    if ruleset.redirect_cap_moves == "up_to_cap":
        return min_(remaining, cap + 1)
    return max_(remaining - cap, 0)


def _excess_one_short(remaining: Any, cap: Any, ruleset: Ruleset) -> Any:
    """Bug: what exceeds the cap is moved one point short."""
    return max_(remaining - max_(cap, 0) - 1, 0)


def _defied_only_past_lethal(recipient: Any, kept: Any, ruleset: Ruleset) -> tuple[Any, Any]:
    defied = bool(recipient.defy_death) and kept > 0 and kept > recipient.vitality
    return defied, max_(recipient.vitality - ruleset.defy_death_leaves, 0) if defied else kept


FAST_IGNORES_BELOW = Mutant("fast_ignore_below_armor", "referee.model.combat.fast:is_ignored",
                            _ignored_even_below_armor, "the fast twin spends an ignore charge on a Reflect below Armor",
                            under="reflect_entry=below_armor")
FAST_FLAT_FORGOTTEN = Mutant("fast_flat_forgotten", "referee.model.combat.fast:reduce_by_armor", _armor_without_flat,
                             "the fast twin forgets Armor's flat reduction")
FAST_CAP_ALWAYS = Mutant("fast_cap_always", "referee.model.combat.fast:apply_cap", _cap_always_printed,
                         "the fast twin caps a unit with no printed cap")
FAST_POINTS_FLOORED = Mutant("fast_points_rounded_down", "referee.model.combat.fast:spend_points", _points_rounded_down,
                             "the fast twin spends one Insurance point per whole 25 only")
FAST_SHIELD_SHORT = Mutant("fast_broken_shield_absorbs_less", "referee.model.combat.fast:drain_shield",
                           _shield_absorbs_one_less_when_broken, "the fast twin's broken pool absorbs one point less")
FAST_REDIRECT_OVER_CAP = Mutant("fast_redirect_over_cap", "referee.model.combat.fast:compute_redirected",
                                _redirect_one_over, "the fast twin's ally redirect moves one past its cap")
#: A bug in the excess_over_cap reading's branch alone: only a proof over that reading refutes it.
FAST_EXCESS_SHORT = Mutant("fast_redirect_excess_short", "referee.model.combat.fast:compute_redirected",
                           _excess_one_short, "the fast twin's ally redirect moves one short of the excess",
                           ).at_reading("redirect_cap_moves", "excess_over_cap")
FAST_DEFY_LATE = Mutant("fast_defy_past_lethal", "referee.model.combat.fast:defy_death", _defied_only_past_lethal,
                        "the fast twin's rune misses an exactly lethal remainder")


def _instances(v: Vars, amount: Any) -> list[tuple[DamageInstance, Ruleset]]:
    """One instance of each mitigation kind under each reading, all of ``amount``."""
    return [(DamageInstance("r", amount, "s", kind), rules) for kind in MITIGATION_KINDS for rules in rulesets(v)]


@theorem("combat:500.1-4", "combat:500.1j", mutants=[FAST_IGNORES_BELOW])
def fast_ignore_charge_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin spends a damage-ignore charge exactly where the pipeline does, for every kind and reading."""
    r, entering = symbolic_unit(v, "r"), v.int("entering")
    claims = [merged(lambda: fast.is_ignored(r, instance, entering, rules))
              == damage.is_ignored(r, instance, entering, rules) for instance, rules in _instances(v, entering)]
    return Obligation(assume=True, claim=all_of(*claims))


@theorem("combat:500.1-5", "combat:500.1-6", "combat:500.1d", "combat:500.7j", mutants=[FAST_FLAT_FORGOTTEN],
         abstract=ARMOR_SEARCHES)
def fast_armor_step_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin's Armor step lets through what the pipeline's does, for every Armor, amount, kind and reading."""
    r, amount = symbolic_unit(v, "r"), v.int("damage")
    claims = [merged(lambda: fast.reduce_by_armor(r, instance, amount, rules))
              == damage.apply_armor(r, instance, amount, rules) for instance, rules in _instances(v, amount)]
    return Obligation(assume=amount >= 0, claim=all_of(*claims))


@theorem("combat:500.1-7", mutants=[FAST_CAP_ALWAYS])
def fast_cap_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin's post-Armor cap leaves what the pipeline's does."""
    r, amount = symbolic_unit(v, "r"), v.int("damage")
    return Obligation(assume=True, claim=merged(lambda: fast.apply_cap(r, amount)) == damage.apply_incoming_cap(r, amount))


@theorem("combat:500.1-8", "combat:500.1-9", "combat:500.1a", mutants=[FAST_POINTS_FLOORED])
def fast_insurance_points_agree_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin spends and absorbs with Insurance points exactly as the pipeline does."""
    points, amount = v.int("points"), v.int("damage")
    spent, absorbed = merged(lambda: fast.spend_points(points, amount))
    model_spent = insurance.compute_points_spent(points, amount)
    return Obligation(assume=True, claim=all_of(spent == model_spent,
                                                absorbed == insurance.compute_points_absorbed(amount, model_spent)))


@theorem("combat:500.1-10", "combat:500.1e", mutants=[FAST_SHIELD_SHORT], abstract=SHIELD_PRODUCTS)
def fast_shield_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin drains and absorbs with Shield exactly as the pipeline does, for every multiplier and both roundings."""
    pool, multiplier, amount = v.int("shield"), v.int("multiplier"), v.int("damage")
    claims: list[Any] = []
    for rules in rulesets(v):
        drained, absorbed = merged(lambda: fast.drain_shield(pool, multiplier, amount, rules))
        claims += [drained == shield.compute_shield_drain(pool, multiplier, amount),
                   absorbed == shield.compute_shield_absorbed(pool, multiplier, amount, rules)]
    return Obligation(assume=all_of(multiplier >= 1, amount >= 0), claim=all_of(*claims))


@theorem("combat:500.1-11", mutants=[FAST_REDIRECT_OVER_CAP, FAST_EXCESS_SHORT])
def fast_ally_redirect_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin's ally redirect moves what the pipeline's does, under both readings of its cap."""
    remaining, cap = v.int("remaining"), v.int("cap")
    claims = [merged(lambda: fast.compute_redirected(remaining, cap, rules))
              == redirect.compute_redirected(remaining, cap, rules) for rules in rulesets(v)]
    return Obligation(assume=True, claim=all_of(*claims))


@theorem("combat:500.1-12", mutants=[FAST_DEFY_LATE])
def fast_defy_death_agrees_with_the_pipeline(v: Vars) -> Obligation:
    """The fast twin's defy-death rune answers and leaves what the pipeline's does, for every floor it leaves."""
    r, kept = symbolic_unit(v, "r"), v.int("kept")
    claims: list[Any] = []
    for rules in rulesets(v):
        defied, remainder = merged(lambda: fast.defy_death(r, kept, rules))
        model_defied = damage.is_defied(r, kept)
        claims += [defied == model_defied, remainder == damage.apply_defy_death(r, kept, model_defied, rules)]
    return Obligation(assume=True, claim=all_of(*claims))


def _points_spent_on_nothing(points: Any, damage_in: Any) -> Any:
    return min_(max_(points, 0), ceildiv(damage_in, 25) + ite(damage_in == 0, 1, 0))


POINT_SPENT_ON_NOTHING = Mutant("point_spent_on_nothing", "referee.model.combat.insurance:compute_points_spent",
                                _points_spent_on_nothing, "an Insurance point is spent on 0 damage")


@theorem("combat:500.1-3", "combat:500.1-4", "combat:500.1-8", "combat:500.1-10", "combat:500.1-12",
         mutants=[POINT_SPENT_ON_NOTHING], lemmas=SHARED_LEMMAS, abstract=SHARED_STEPS)
def nothing_entering_meets_no_layer(v: Vars) -> Obligation:
    """When nothing enters or an ignore charge discards it, every later figure of steps 500.1-5 to 500.1-12 is 0, for every kind and reading."""
    r = symbolic_unit(v, "r")
    entering, multiplier, cap, is_open = v.int("entering"), v.int("multiplier"), v.int("redirect_cap"), v.bool("open")
    facts = shared_facts(v, r, multiplier)
    claims: list[Any] = []
    for instance, rules in _instances(v, entering):
        m = damage.compute_mitigation(r, instance, entering, multiplier, is_open, cap, rules)
        shut = or_(entering == 0, m.ignored)
        zero = [getattr(m, name) == 0 for name in fast.Figures._fields[2:] if name != "defied"]
        claims.append(or_(not_(shut), and_(not_(m.defied), *zero)))
    return Obligation(assume=all_of(entering >= 0, multiplier >= 1, facts), claim=all_of(*claims))
