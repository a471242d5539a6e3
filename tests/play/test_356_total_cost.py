"""356 Determine total cost (and 355.1.a, the choice to pay an optional additional cost)."""

from __future__ import annotations

import pytest

from referee.model.play.cost import (
    CostComponent,
    Discount,
    Modifiers,
    NonStandardCost,
    ResourceCost,
    apply_discount,
    compute_total_cost,
)
from referee.model.play.examples import EZREAL_PRODIGY, FRIGID_TOUCH, KILL_A_FRIENDLY_UNIT
from referee.model.play.rules import PlayRules
from referee.specs.trace import covers


def total_of(text, pay_optional=(), modifiers=Modifiers(), rules=PlayRules()):
    return compute_total_cost(text.cost, text.additional, pay_optional, modifiers, rules)


@covers("play:356.4.c", "play:355.1.a")
def test_356_4_c_ezreal_discount_applies_to_frigid_touch_optional_cost_when_added():
    """The seed's example: the optional [A] is added already discounted; the spell's own [2] is untouched."""
    total = total_of(FRIGID_TOUCH, (True,), Modifiers(discounts=(EZREAL_PRODIGY,)))
    assert total.resources == ResourceCost.of(2)


@covers("play:356.4.c")
def test_356_4_c_component_discount_applies_when_component_added_not_to_the_total():
    """Taken off the running total [2][A], the "[1] or [A]" discount would take Energy and leave [1][A]."""
    running_total = apply_discount(ResourceCost.of(2, any_power=1), EZREAL_PRODIGY)
    assert running_total == ResourceCost.of(1, any_power=1)
    assert total_of(FRIGID_TOUCH, (True,), Modifiers(discounts=(EZREAL_PRODIGY,))).resources.energy == 2


@covers("play:356.4.c", "play:356.6")
def test_356_4_c_component_discount_never_spills_onto_other_components():
    card = FRIGID_TOUCH.__class__(
        cost=CostComponent(ResourceCost.of(3)),
        additional=(CostComponent(ResourceCost.of(1), optional=True),),
    )
    big = Discount(energy=5, applies_to="optional_additional")
    assert total_of(card, (True,), Modifiers(discounts=(big,))).resources == ResourceCost.of(3)


@covers("play:356.4.c")
def test_356_4_c_component_discount_before_whole_cost_discounts():
    """Component discount first, then the whole-cost one: [2] + ([1] - 1) then - 1 = [1]."""
    card = FRIGID_TOUCH.__class__(
        cost=CostComponent(ResourceCost.of(2)),
        additional=(CostComponent(ResourceCost.of(1), optional=True),),
    )
    modifiers = Modifiers(discounts=(Discount(energy=1), Discount(energy=1, applies_to="optional_additional")))
    assert total_of(card, (True,), modifiers).resources == ResourceCost.of(1)


@covers("play:355.1.a")
def test_355_1_a_skipped_optional_additional_cost_is_not_owed():
    total = total_of(FRIGID_TOUCH, (False,))
    assert total.resources == ResourceCost.of(2)
    assert total_of(FRIGID_TOUCH, (True,)).resources == ResourceCost.of(2, any_power=1)


@covers("play:355.1.a", "play:356.7")
def test_355_1_a_skipped_optional_nonstandard_cost_is_not_owed():
    card = FRIGID_TOUCH.__class__(
        additional=(CostComponent(nonstandard=(NonStandardCost("exhaust_friendly_unit"),), optional=True),)
    )
    assert [o.owed for o in total_of(card, (False,)).nonstandard] == [False]
    assert [o.owed for o in total_of(card, (True,)).nonstandard] == [True]


@covers("play:356.2")
def test_356_2_additional_costs_in_any_order_give_the_same_total():
    a = CostComponent(ResourceCost.of(1, fury=1))
    b = CostComponent(ResourceCost.of(any_power=2), optional=True)
    discounts = (EZREAL_PRODIGY, Discount(energy=1))
    one = compute_total_cost(CostComponent(ResourceCost.of(2)), (a, b), (True, True), Modifiers(discounts=discounts))
    two = compute_total_cost(CostComponent(ResourceCost.of(2)), (b, a), (True, True), Modifiers(discounts=discounts))
    assert one.resources == two.resources == ResourceCost.of(2, fury=1, any_power=1)


@covers("play:356.3")
def test_356_3_increases_apply_after_additional_costs_and_before_discounts():
    """[1] + increase [1] - discount [2] = [0]; discounting before the increase would give [1]."""
    modifiers = Modifiers(increases=(ResourceCost.of(1),), discounts=(Discount(energy=2),))
    assert total_of(KILL_A_FRIENDLY_UNIT, (True,), modifiers).resources == ResourceCost.of(0)


@covers("play:356.4")
def test_356_4_discounts_reduce_energy_and_power():
    card = FRIGID_TOUCH.__class__(cost=CostComponent(ResourceCost.of(3, calm=1, any_power=2)))
    total = total_of(card, (), Modifiers(discounts=(Discount(energy=1, power=2),)))
    assert total.resources == ResourceCost.of(2, calm=1)


@covers("play:356.4")
def test_356_4_power_discount_takes_any_power_first_then_domains_in_order():
    cost = ResourceCost.of(0, any_power=1, fury=1, calm=1)
    assert apply_discount(cost, Discount(power=2)) == ResourceCost.of(0, calm=1)


@pytest.mark.parametrize(
    "rules,expected",
    [
        (PlayRules(either_discount="energy_first"), ResourceCost.of(0, any_power=1)),
        (PlayRules(either_discount="power_first"), ResourceCost.of(1)),
    ],
)
@covers("play:356.4", "play:356.4.c")
def test_356_4_either_discount_takes_one_part_under_each_reading(rules, expected):
    assert apply_discount(ResourceCost.of(1, any_power=1), EZREAL_PRODIGY, rules) == expected


@covers("play:356.6")
def test_356_6_discount_larger_than_cost_stops_at_zero():
    total = total_of(KILL_A_FRIENDLY_UNIT, (True,), Modifiers(discounts=(Discount(energy=5, power=5),)))
    assert total.resources == ResourceCost.of(0)


@covers("play:356.6")
def test_356_6_power_discount_never_drives_a_domain_negative():
    assert apply_discount(ResourceCost.of(0, mind=1), Discount(power=3)) == ResourceCost.of(0)


@covers("play:356.7")
def test_356_7_kill_a_friendly_unit_is_a_nonstandard_additional_cost():
    """The seed's example: "As an additional cost to play me, kill a friendly unit"."""
    total = total_of(KILL_A_FRIENDLY_UNIT, (True,))
    assert total.resources == ResourceCost.of(1)
    assert [(o.cost.kind, o.owed) for o in total.nonstandard] == [("kill_friendly_unit", True)]


@covers("play:356.4")
def test_invalid_negative_discount_is_rejected():
    with pytest.raises(ValueError, match="negative discount"):
        Discount(energy=-1)


def test_invalid_choices_must_match_additional_costs():
    with pytest.raises(ValueError, match="one pay/skip choice per additional cost"):
        total_of(FRIGID_TOUCH, ())


def test_invalid_play_rules_option_is_named():
    with pytest.raises(ValueError, match="either_discount"):
        PlayRules.from_json({"either_discount": "both"})
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        PlayRules.from_json({"colour": 1})
