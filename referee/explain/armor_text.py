"""The Armor step in numbers: the exact surviving value before 500.2c rounds it.

The model decides the rounding without ever computing the value (``model/combat/armor.py``);
a reader wants to see it. For a perfect-square Armor the value is rational and shown as a
Fraction (31 into 100 Armor: ``31 x 20/30 = 20 2/3``); otherwise ``sqrt(A)`` is irrational and
the value is shown to four decimals, computed from an integer square root (never a float).
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

from referee.model.combat.armor import ARMOR_CURVE
from referee.model.combat.ruleset import Ruleset

from .steps import mixed

_SCALE = 10**12


def root(n: int) -> tuple[Fraction, bool]:
    """``sqrt(n)`` as a Fraction: exact for a perfect square, else to 12 decimals; and whether exact."""
    r = isqrt(n)
    if r * r == n:
        return Fraction(r), True
    return Fraction(isqrt(n * _SCALE * _SCALE), _SCALE), False


def surviving_value(damage: int, armor: int, ruleset: Ruleset) -> tuple[Fraction, bool, str]:
    """The unrounded damage after Armor's percentage step, whether it is exact, and the formula in words."""
    if armor >= 0:
        s, exact = root(armor)
        factor = Fraction(ARMOR_CURVE) / (s + ARMOR_CURVE)
        shown = f"{ARMOR_CURVE}/{s + ARMOR_CURVE}" if exact else f"{ARMOR_CURVE}/(sqrt({armor})+{ARMOR_CURVE})"
        return damage * factor, exact, f"{damage} x {shown}"
    s, exact = root(-armor)
    if ruleset.negative_armor == "mirror":
        factor = (2 * s + ARMOR_CURVE) / (s + ARMOR_CURVE)
        shown = (f"{2 * s + ARMOR_CURVE}/{s + ARMOR_CURVE}" if exact
                 else f"(2 sqrt({-armor})+{ARMOR_CURVE})/(sqrt({-armor})+{ARMOR_CURVE})")
    else:
        factor = (s + ARMOR_CURVE) / ARMOR_CURVE
        shown = f"{s + ARMOR_CURVE}/{ARMOR_CURVE}" if exact else f"(sqrt({-armor})+{ARMOR_CURVE})/{ARMOR_CURVE}"
    return damage * factor, exact, f"{damage} x {shown}"


def value_text(value: Fraction, exact: bool) -> str:
    """``20 2/3`` when exact, ``~21.3537`` (four decimals, truncated) when not."""
    if exact:
        return mixed(value)
    scaled = value.numerator * 10**4 // value.denominator
    return f"~{scaled // 10**4}.{scaled % 10**4:04d}"
