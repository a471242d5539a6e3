"""500.1-10, 500.1e Shield: absorbs what remains, before Vitality, up to its pool.

A source whose card prints a Shield damage multiplier ``m`` drains ``m`` Shield points per
point of damage. While the pool holds, the whole remainder is absorbed and ``m`` times it
drained. When the pool breaks it absorbs the damage that paid it off: ``ceil(S/m)`` under
the default reading (the least damage that drains ``S``), ``floor(S/m)`` under the other
(INT-002, ``Ruleset.shield_multiplier_rounding``).

Worked example: 10 damage from a source with multiplier 2 into a Shield of 5. ``2*10 = 20``
exceeds 5, so the pool breaks: 5 drained, ``ceil(5/2) = 3`` absorbed, 7 carries on
(``floor``: 2 absorbed, 8 carries on).
"""

from __future__ import annotations

from ..arith import ceildiv, floordiv, is_symbolic, ite, least_such_that, max_, min_
from ..clauses import combat
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Int


@combat.implements("500.1-10")
def compute_multiplier(printed: Int) -> Int:
    """A source's Shield damage multiplier, at least 1 (500.1-10)."""
    return max_(printed, 1)


@combat.implements("500.1-10")
def compute_drain_demand(multiplier: Int, damage: Int) -> Int:
    """The Shield points ``damage`` would drain from a pool large enough: ``multiplier`` per point (500.1-10)."""
    return multiplier * damage


@combat.implements("500.1-10")
def compute_shield_drain(shield: Int, multiplier: Int, damage: Int) -> Int:
    """Shield points removed: ``multiplier`` per point of damage, up to the pool (500.1-10)."""
    return min_(max_(shield, 0), compute_drain_demand(multiplier, damage))


@combat.implements("500.1-10")
def compute_damage_to_break(shield: Int, multiplier: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """The damage a breaking pool absorbs: ``ceil(S/m)`` or ``floor(S/m)`` (500.1-10, INT-002).

    A symbolic multiplier is no literal divisor, so there the quotient is the least ``k`` that pays the
    pool off (``ceil``) or the least whose successor would overpay it (``floor``). On a symbolic reading
    both roundings are built and joined (``model/readings.py``).
    """
    pool = max_(shield, 0)
    rounding = ruleset.shield_multiplier_rounding
    if not is_symbolic(multiplier):
        return by_reading(rounding, ceil=lambda: ceildiv(pool, multiplier), floor=lambda: floordiv(pool, multiplier))
    return by_reading(
        rounding,
        ceil=lambda: least_such_that(lambda k: k * multiplier >= pool, 0, pool, "shield_ceil"),
        floor=lambda: least_such_that(lambda k: (k + 1) * multiplier > pool, 0, pool, "shield_floor"),
    )


@combat.implements("500.1-10", "500.1e")
def compute_shield_absorbed(shield: Int, multiplier: Int, damage: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """Damage the Shield absorbs: all of it while the pool holds, else what paid it off (500.1-10)."""
    holds = compute_drain_demand(multiplier, damage) <= shield
    return ite(holds, damage, min_(damage, compute_damage_to_break(shield, multiplier, ruleset)))
