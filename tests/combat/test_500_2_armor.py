"""500.2 Armor: examples worked by hand from the rule text, exact at the boundaries a float misses.

The percentage leaves ``ceil(20*d / (sqrt(A) + 20))`` of ``d`` damage (500.2a, 500.2c); the
flat reduction then takes ``A // 5`` (500.2b), never below 0. A float written as
``ceil(d * (1 - sqrt(A)/(sqrt(A)+20)))`` is one too high on exact boundaries (87 into 81:
``87 * 20/29 = 60`` exactly, the float says 61); the model decides them with integers.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import pytest
from damage_scenarios import board, enemy, hit, unit

from referee.model.combat.armor import apply_armor_debuff, apply_armor_flat, apply_armor_percentage, compute_flat_reduction
from referee.model.combat.ruleset import Ruleset
from referee.specs.trace import covers

RECIPROCAL = Ruleset(negative_armor="reciprocal")


def exact_surviving(damage: int, armor: int) -> int:
    """An independent oracle: ceil(20d / (sqrt(A) + 20)) with exact or 60-digit arithmetic."""
    root = math.isqrt(armor)
    if root * root == armor:
        return math.ceil(Fraction(20 * damage, root + 20))
    getcontext().prec = 60  # sqrt(A) irrational: the quotient is never an integer
    value = Decimal(20 * damage) / (Decimal(armor).sqrt() + 20)
    return int(value.to_integral_value(rounding="ROUND_CEILING"))


# --------------------------------------------------------------------------------------
# 500.2a, 500.2c: the percentage, rounded up
# --------------------------------------------------------------------------------------


@covers("combat:500.2a")
def test_500_2a_thirty_into_a_hundred_armor_leaves_exactly_twenty():
    # sqrt(100) = 10: reduction 10/30 = 1/3; 30 * 20/30 = 20 exactly (a float says 21).
    assert apply_armor_percentage(30, 100) == 20


@covers("combat:500.2a", "combat:500.2c")
def test_500_2a_eighty_seven_into_eighty_one_armor_leaves_exactly_sixty():
    # sqrt(81) = 9: 87 * 20/29 = 1740/29 = 60 exactly (a float says 61).
    assert apply_armor_percentage(87, 81) == 60


@covers("combat:500.2a")
def test_500_2a_zero_armor_reduces_nothing():
    assert apply_armor_percentage(57, 0) == 57


@covers("combat:500.2c")
def test_500_2c_surviving_damage_rounds_up_at_exact_thirds():
    # 10 into 100: 10 * 20/30 = 6.67 -> 7; 11 -> 7.33 -> 8; 12 -> 8 exactly.
    assert [apply_armor_percentage(d, 100) for d in (10, 11, 12)] == [7, 8, 8]


@covers("combat:500.2c")
def test_500_2c_rounds_up_with_an_irrational_root():
    # sqrt(2) = 1.414...: 10 * 20 / 21.414 = 9.34 -> 10; 1 into 1: 20/21 -> 1.
    assert apply_armor_percentage(10, 2) == 10
    assert apply_armor_percentage(1, 1) == 1


@covers("combat:500.2a", "combat:500.2c")
def test_500_2c_agrees_with_an_exact_oracle_on_a_grid_with_every_perfect_square():
    for armor in range(0, 401):
        for damage in (1, 2, 3, 9, 15, 29, 30, 58, 60, 87, 99, 100, 120):
            assert apply_armor_percentage(damage, armor) == exact_surviving(damage, armor), (damage, armor)


# --------------------------------------------------------------------------------------
# 500.2b: the flat reduction
# --------------------------------------------------------------------------------------


@covers("combat:500.2b")
def test_500_2b_one_flat_point_per_five_armor():
    assert [compute_flat_reduction(a) for a in (0, 4, 5, 24, 25, 100)] == [0, 0, 1, 4, 5, 20]


@covers("combat:500.2b")
def test_500_2b_flat_applies_after_the_percentage():
    # 50 into 25: sqrt 5, 50 * 20/25 = 40, then -5 = 35. (Flat first: 45 * 20/25 = 36.)
    b = board(unit("a", armor=25), enemy())
    _, _, out = hit(b, "a", 50)
    assert out.after_armor == 35


@covers("combat:500.2b")
def test_500_2b_flat_never_takes_damage_below_zero():
    # 3 into 100: 3 * 20/30 = 2; flat 20 -> 0, not -18.
    assert apply_armor_flat(apply_armor_percentage(3, 100), 100) == 0


# --------------------------------------------------------------------------------------
# 500.2d, 500.2e: negative Armor
# --------------------------------------------------------------------------------------


@covers("combat:500.2d")
def test_500_2d_negative_armor_amplifies_by_the_mirrored_curve():
    # INT-001 mirror: B = 100, sqrt 10: damage * (20 + 20)/(20 + 10) = 30 * 40/30 = 40.
    assert apply_armor_percentage(30, -100) == 40


@covers("combat:500.2d")
def test_500_2d_reciprocal_reading_amplifies_by_the_inverse_share():
    # INT-001 reciprocal: 30 * (20 + 10)/20 = 45.
    assert apply_armor_percentage(30, -100, RECIPROCAL) == 45


@covers("combat:500.2d", "combat:500.2c")
def test_500_2d_amplified_damage_rounds_up_against_the_defender():
    # Armor -1: mirror 10 * 22/21 = 10.48 -> 11; reciprocal 10 * 21/20 = 10.5 -> 11.
    # Armor -4: mirror 20 * 24/22 = 21.8 -> 22.
    assert apply_armor_percentage(10, -1) == 11
    assert apply_armor_percentage(10, -1, RECIPROCAL) == 11
    assert apply_armor_percentage(20, -4) == 22


@covers("combat:500.2d")
def test_500_2d_negative_armor_gives_no_flat_amplification():
    # Armor -100 would be -20 "flat"; the pipeline takes exactly the 40 of the percentage.
    assert compute_flat_reduction(-100) == 0
    b = board(unit("a", armor=-100), enemy())
    after, _, out = hit(b, "a", 30)
    assert out.after_armor == 40 and after.unit("a").vitality == 60


@covers("combat:500.2e", "combat:500.2d")
def test_500_2e_a_unit_driven_to_negative_armor_takes_amplified_damage_through_the_pipeline():
    # As Crush or Repossess leaves it: Armor -25, sqrt 5: 20 * 30/25 = 24 exactly.
    b = board(unit("a", armor=-25, shield=4), enemy())
    after, _, out = hit(b, "a", 20)
    assert out.after_armor == 24 and out.shield_absorbed == 4 and after.unit("a").vitality == 80


@covers("combat:500.2e")
def test_500_2e_crush_and_repossess_drive_armor_below_zero():
    # 10 Armor, Crush for 30: 10 - 30 = -20, not floored at 0; Repossess stacks on top: -20 - 5 = -25.
    crushed = apply_armor_debuff(unit("a", armor=10), "crush", 30)
    assert crushed.armor == -20
    assert apply_armor_debuff(crushed, "repossess", 5).armor == -25


@covers("combat:500.2e")
def test_500_2e_piercing_roar_and_crippling_scream_never_touch_armor():
    a = unit("a", armor=40)
    assert apply_armor_debuff(a, "piercing_roar", 30) == a
    assert apply_armor_debuff(a, "crippling_scream", 30) == a


def test_invalid_500_2e_unknown_debuff_is_named():
    with pytest.raises(ValueError, match="'sunder'"):
        apply_armor_debuff(unit("a"), "sunder", 5)


# --------------------------------------------------------------------------------------
# 500.2f: flat reduction per instance
# --------------------------------------------------------------------------------------


@covers("combat:500.2f")
def test_500_2f_tremor_halves_lose_more_to_flat_armor():
    # One 40 hit into 25 Armor: 40 -> 32 -> 27. Two Tremor halves of 20: 20 -> 16 -> 11 each, 22.
    whole = board(unit("a", armor=25), enemy())
    _, _, one = hit(whole, "a", 40)
    after, _, first = hit(whole, "a", 20, kind="tremor")
    after, _, second = hit(after, "a", 20, kind="tremor")
    assert one.vitality_lost == 27 and first.vitality_lost + second.vitality_lost == 22
    assert after.unit("a").vitality == 78


@covers("combat:500.2f")
def test_500_2f_aoe_shares_lose_more_to_flat_armor():
    # 30 as one hit into 25 Armor: 24 - 5 = 19. Three AoE shares of 10: 8 - 5 = 3 each, 9.
    b = board(unit("a", armor=25), enemy())
    _, _, one = hit(b, "a", 30)
    lost = 0
    for _ in range(3):
        b, _, share = hit(b, "a", 10, kind="aoe")
        lost += share.vitality_lost
    assert (one.vitality_lost, lost) == (19, 9)


@pytest.mark.parametrize("armor", [1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 400])
@covers("combat:500.2a", "combat:500.2c")
def test_500_2c_exact_multiples_at_perfect_squares_are_not_rounded(armor):
    # d = k * (sqrt(A) + 20) survives as exactly 20k.
    root = math.isqrt(armor)
    for k in (1, 2, 3):
        assert apply_armor_percentage(k * (root + 20), armor) == 20 * k
