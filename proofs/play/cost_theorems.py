"""Theorems about step 3, the total cost (356.2-356.7), over the single-source encoding of :mod:`referee.model.play.cost`."""

from __future__ import annotations

from referee.model.arith import and_, ite
from referee.model.play import cost
from referee.model.play.cost import (
    ZERO_COST,
    CostComponent,
    Discount,
    Modifiers,
    NonStandardCost,
    ResourceCost,
    add_resources,
    select_resources,
)
from referee.model.play.rules import PlayRules
from referee.proofs.core import Mutant, Obligation, Vars, theorem

from .scenario import is_well_formed_card, is_well_formed_cost, symbolic_card, symbolic_cost, symbolic_discount

READINGS = (PlayRules(either_discount="energy_first"), PlayRules(either_discount="power_first"))


def parts(c: ResourceCost) -> tuple:
    """Every Energy and Power part of a cost."""
    return (c.energy, c.any_power, *c.power)


# --------------------------------------------------------------------------------------
# Mutants: plausible ways to get step 3 wrong
# --------------------------------------------------------------------------------------


def unclamped_reduction(amount, reduction):
    """Bug: a reduction may take a part below 0."""
    return amount - reduction


def reduce_power_from_any_only(c: ResourceCost, reduction) -> ResourceCost:
    """Bug: a Power discount is taken whole off ``[A]``, even below 0."""
    return ResourceCost(energy=c.energy, power=c.power, any_power=c.any_power - reduction)


def discount_component_on_running_total(total, additional, pay_optional, discounts, rules=PlayRules()):
    """Bug: a component's discount is taken off the running total when the component is added."""
    owed_nonstandard = []
    for component, choice in zip(additional, pay_optional):
        owed = cost.is_owed(component, choice)
        total = add_resources(total, select_resources(owed, component.resources, ZERO_COST))
        for discount in discounts:
            if cost.is_component_discount(discount, component):
                total = select_resources(owed, cost.apply_discount(total, discount, rules), total)
        owed_nonstandard += [cost.OwedCost(c, owed) for c in component.nonstandard]
    return total, tuple(owed_nonstandard)


def component_discount_for_every_component(discount: Discount, component: CostComponent) -> bool:
    """Bug: a discount on optional additional costs is also applied to mandatory ones."""
    return discount.applies_to != "total"


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem(
    "play:356.6",
    "play:356.4",
    "play:356.4.c",
    "play:356.2",
    "play:356.3",
    mutants=[
        Mutant("unclamped_reduction", "referee.model.play.cost:compute_reduced", unclamped_reduction),
        Mutant("power_discount_from_any_only", "referee.model.play.cost:reduce_power", reduce_power_from_any_only),
    ],
)
def costs_never_negative_after_discounts(v: Vars) -> Obligation:
    """Under either reading of an "or" discount, no Energy or Power part of a total cost is ever below 0."""
    text, modifiers = symbolic_card(v)
    choices = (True, v.bool("pay_optional"))
    totals = [cost.compute_total_cost(text.cost, text.additional, choices, modifiers, r) for r in (v.play_rules(),)]
    claim = and_(*(p >= 0 for t in totals for p in parts(t.resources)))
    return Obligation(assume=is_well_formed_card(text, modifiers), claim=claim)


@theorem(
    "play:356.4.c",
    "play:356.2",
    "play:355.1.a",
    mutants=[
        Mutant(
            "component_discount_on_running_total",
            "referee.model.play.cost:add_additional_costs",
            discount_component_on_running_total,
        ),
        Mutant(
            "component_discount_on_every_component",
            "referee.model.play.cost:is_component_discount",
            component_discount_for_every_component,
        ),
    ],
)
def component_discount_never_reduces_another_component(v: Vars) -> Obligation:
    """A discount on one component never leaves the total below the undiscounted sum of the other components."""
    printed = symbolic_cost(v, "printed")
    mandatory = CostComponent(symbolic_cost(v, "mandatory"), (NonStandardCost("discard_unit"),))
    optional = CostComponent(symbolic_cost(v, "optional"), optional=True)
    increase = symbolic_cost(v, "increase")
    paid = v.bool("pay_optional")
    claims, assumptions = [], [is_well_formed_cost(c) for c in (printed, mandatory.resources, optional.resources, increase)]
    for either in (True, False):
        discount = symbolic_discount(v, f"ezreal_{either}", "optional_additional", either)
        assumptions += [discount.energy >= 0, discount.power >= 0]
        modifiers = Modifiers(increases=(increase,), discounts=(discount,))
        for rules in (v.play_rules(),):
            total = cost.compute_total_cost(CostComponent(printed), (mandatory, optional), (True, paid), modifiers, rules)
            others = add_resources(add_resources(printed, mandatory.resources), increase)
            claims += [t >= o for t, o in zip(parts(total.resources), parts(others))]
            # and the discounted component still adds nothing negative
            claims += [t <= o + ite(paid, p, 0) for t, o, p in zip(parts(total.resources), parts(others), parts(optional.resources))]
    return Obligation(assume=and_(*assumptions), claim=and_(*claims))
