"""PEP 316 contracts on the play model's integer helpers, for ``crosshair check`` (run by test_play_crosshair.py).

CrossHair explores every path of each function on symbolic integers; "Confirmed over all
paths" is a proof for these loop-free helpers. Not collected by pytest (no ``test_`` prefix).
"""

from __future__ import annotations

from referee.model.play.cost import Discount, ResourceCost, apply_discount, compute_reduced, reduce_power
from referee.model.play.payment import can_pay_resources, compute_pool_after_payment
from referee.model.play.state import DOMAINS, Pool


def reduced_amount_is_clamped(amount: int, reduction: int) -> int:
    """
    pre: reduction >= 0
    post: __return__ >= 0
    post: __return__ == amount - reduction or __return__ == 0
    post: __return__ <= max(amount, 0)
    """
    return compute_reduced(amount, reduction)


def power_discount_takes_what_it_can_and_no_more(any_power: int, fury: int, calm: int, reduction: int) -> int:
    """
    pre: any_power >= 0 and fury >= 0 and calm >= 0 and reduction >= 0
    post: __return__ == min(reduction, any_power + fury + calm)
    """
    before = ResourceCost.of(0, any_power, fury=fury, calm=calm)
    after = reduce_power(before, reduction)
    assert after.any_power >= 0 and min(after.power) >= 0
    return before.total_power - after.total_power


def either_discount_takes_one_part(energy: int, any_power: int, amount: int) -> int:
    """
    pre: energy >= 0 and any_power >= 0 and amount >= 0
    post: __return__ == min(amount, energy) if energy > 0 else __return__ == min(amount, any_power)
    """
    before = ResourceCost.of(energy, any_power)
    after = apply_discount(before, Discount(amount, amount, either=True))
    return (before.energy - after.energy) + (before.any_power - after.any_power)


def payment_spends_exactly_the_cost(energy: int, fury: int, mind: int, cost_energy: int, cost_fury: int, cost_any: int) -> bool:
    """
    pre: min(energy, fury, mind, cost_energy, cost_fury, cost_any) >= 0
    post: __return__ == (cost_energy <= energy and cost_fury <= fury and cost_any <= fury - cost_fury + mind)
    """
    power = tuple(fury if d == "fury" else mind if d == "mind" else 0 for d in DOMAINS)
    pool = Pool(energy, power)
    cost = ResourceCost.of(cost_energy, cost_any, fury=cost_fury)
    paid = can_pay_resources(pool, cost)
    if paid:
        after = compute_pool_after_payment(pool, cost, DOMAINS)
        assert after.energy >= 0 and min(after.power) >= 0
        assert energy - after.energy == cost_energy
        assert fury + mind - sum(after.power) == cost_fury + cost_any
    return paid
