"""500.2 Armor: the percentage and the flat reduction, decided exactly.

The percentage reduction is ``sqrt(A) / (sqrt(A) + 20)`` and the surviving damage rounds
up (500.2c), so ``d`` damage into ``A >= 0`` Armor leaves ``ceil(20*d / (sqrt(A) + 20))``.
``sqrt(A)`` is usually irrational, so no float is trusted with it: the surviving damage
is the least ``s`` with ``s * (sqrt(A) + 20) >= 20 * d``, and that inequality is decided
by squaring both sides of ``s * sqrt(A) >= 20 * (d - s)``.

Worked example (the boundary a float gets wrong): 87 damage into 81 Armor. ``sqrt(81) =
9``, so exactly ``87 * 20 / 29 = 60`` survives; ``60 * 9 = 540 >= 20 * 27 = 540`` holds
and ``59 * 9 = 531 >= 20 * 28 = 560`` does not, so 60 survives, where a float gives 61.

Speed: concretely the least ``s`` is searched for first at a float estimate, but the estimate
only says where to look: ``least_such_that`` returns it only when the exact integer test holds
there and fails one below (``referee.model.arith.least_such_that``), so the float decides nothing.
"""

from __future__ import annotations

import math

from ..arith import and_, floordiv, ite, least_such_that, max_, or_
from ..clauses import combat
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Int, Unit

#: The constant in sqrt(A) / (sqrt(A) + 20) (500.2a).
ARMOR_CURVE = 20
#: One point of flat reduction for every this much Armor (500.2b).
ARMOR_PER_FLAT_POINT = 5


def covers_with_positive_armor(s: Int, damage: Int, armor: Int) -> Int:
    """Whether ``s * (sqrt(armor) + 20) >= 20 * damage``, for ``s >= 0`` and ``armor >= 0``."""
    shortfall = ARMOR_CURVE * (damage - s)
    return or_(shortfall <= 0, s * s * armor >= shortfall * shortfall)


def covers_with_mirrored_negative_armor(s: Int, damage: Int, armor: Int) -> Int:
    """Whether ``s * (sqrt(B) + 20) >= damage * (2 * sqrt(B) + 20)`` for ``B = -armor``, ``d <= s <= 2d``."""
    weakness = -armor
    return (2 * damage - s) * (2 * damage - s) * weakness <= ARMOR_CURVE * ARMOR_CURVE * (s - damage) * (s - damage)


def covers_with_reciprocal_negative_armor(s: Int, damage: Int, armor: Int) -> Int:
    """Whether ``20 * s >= damage * (20 + sqrt(B))`` for ``B = -armor`` and ``s >= damage``."""
    weakness = -armor
    excess = s - damage
    return and_(excess >= 0, ARMOR_CURVE * ARMOR_CURVE * excess * excess >= damage * damage * weakness)


@combat.implements("500.2a", "500.2c")
def compute_surviving_after_positive_armor(damage: Int, armor: Int) -> Int:
    """Damage left after the percentage reduction of non-negative Armor, rounded up (500.2a, 500.2c)."""
    return least_such_that(lambda s: covers_with_positive_armor(s, damage, armor), 0, damage, "armor_pct",
                           lambda: math.ceil(ARMOR_CURVE * damage / (math.sqrt(armor) + ARMOR_CURVE)))


@combat.implements("500.2d")
def compute_surviving_after_negative_armor(damage: Int, armor: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """Damage after the amplification of negative Armor, rounded up against the defender (500.2d, INT-001).

    On a symbolic reading both amplifications are built and joined (``model/readings.py``).
    """
    return by_reading(
        ruleset.negative_armor,
        mirror=lambda: compute_surviving_after_mirrored_armor(damage, armor),
        reciprocal=lambda: compute_surviving_after_reciprocal_armor(damage, armor),
    )


@combat.implements("500.2d")
def compute_surviving_after_mirrored_armor(damage: Int, armor: Int) -> Int:
    """INT-001's ``mirror`` reading at Armor ``-B``: damage times ``(20 + 2*sqrt(B)) / (20 + sqrt(B))``, up (500.2d)."""
    return least_such_that(
        lambda s: covers_with_mirrored_negative_armor(s, damage, armor), damage, 2 * damage, "armor_neg",
        lambda: math.ceil(damage * (2 * math.sqrt(-armor) + ARMOR_CURVE) / (math.sqrt(-armor) + ARMOR_CURVE)),
    )


@combat.implements("500.2d")
def compute_surviving_after_reciprocal_armor(damage: Int, armor: Int) -> Int:
    """INT-001's ``reciprocal`` reading at Armor ``-B``: damage times ``(20 + sqrt(B)) / 20``, rounded up (500.2d)."""
    return least_such_that(
        lambda s: covers_with_reciprocal_negative_armor(s, damage, armor),
        damage,
        damage + damage * max_(-armor, 1),
        "armor_neg",
        lambda: math.ceil(damage * (ARMOR_CURVE + math.sqrt(-armor)) / ARMOR_CURVE),
    )


@combat.implements("500.2a", "500.2c", "500.2d")
def apply_armor_percentage(damage: Int, armor: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """500.1-5: Armor's percentage reduction (amplification when Armor is negative)."""
    return ite(
        armor >= 0,
        compute_surviving_after_positive_armor(damage, armor),
        compute_surviving_after_negative_armor(damage, armor, ruleset),
    )


@combat.implements("500.2b", "500.2d")
def compute_flat_reduction(armor: Int) -> Int:
    """1 damage for every 5 Armor; negative Armor gives no flat change (500.2b, 500.2d)."""
    return ite(armor > 0, floordiv(armor, ARMOR_PER_FLAT_POINT), 0)


@combat.implements("500.2b", "500.2f")
def apply_armor_flat(damage: Int, armor: Int) -> Int:
    """500.1-6: the flat reduction, after the percentage, per instance, never below 0 (500.2b, 500.2f)."""
    return max_(damage - compute_flat_reduction(armor), 0)


#: Debuffs that lower Armor, with no floor at 0 (500.2e).
ARMOR_SHREDDING_DEBUFFS = ("crush", "repossess")
#: Debuffs that read like Armor shred but touch Power and Speed only (500.2e).
NON_ARMOR_DEBUFFS = ("piercing_roar", "crippling_scream")


@combat.implements("500.2e")
def apply_armor_debuff(unit: Unit, debuff: str, amount: Int) -> Unit:
    """Crush and Repossess lower Armor, past 0 if need be; Piercing Roar and Crippling Scream leave it (500.2e)."""
    if debuff in ARMOR_SHREDDING_DEBUFFS:
        lowered = max_(amount, 0)  # a combat stat change a revival undoes (500.9c)
        return unit.evolve(armor=unit.armor - lowered, armor_change=unit.armor_change - lowered)
    if debuff in NON_ARMOR_DEBUFFS:
        return unit
    known = ", ".join(ARMOR_SHREDDING_DEBUFFS + NON_ARMOR_DEBUFFS)
    raise ValueError(f"unknown debuff {debuff!r} (known: {known})")
