"""Theorems of 500.2 Armor: the percentage, its rounding, the flat reduction, and their order.

The Armor step is the percentage (pipeline step 500.1-5) followed by the flat reduction
(500.1-6); :func:`compute_armor_step` composes the two model functions exactly as the
pipeline does, through the module so that a mutant patched into ``referee.model.combat.armor``
is seen.

Where a theorem needs ``sqrt(A)`` it never uses a float or a real square root: a
statement about ``s * (sqrt(A) + 20)`` is written by squaring, as the model decides it.

500.2f ("splitting damage loses more of it to high flat Armor") is proved in steps,
because Z3 does not find the argument through three rounded square roots at once
(measured: unknown after 60M rlimit). Three facts about the squared test
(``covers_with_positive_armor``) are proved directly; from them, with the test encoded
as an uninterpreted predicate that only those lemma instances constrain, that the
percentage is monotone in damage and that splitting gains at most one point of rounding;
and from those, 500.2f itself. Its true form needs at least 5 Armor: below that there is
no flat point, and rounding up alone lets a split through with more (21 damage into 1
Armor leaves 20; 10 + 11 leave 10 + 11 = 21).
"""

from __future__ import annotations

from typing import Any

from referee.model.combat import armor
from referee.model.arith import and_, floordiv, ite, least_such_that, max_, not_, or_
from referee.model.combat.ruleset import DEFAULT, Ruleset

from ..core import Mutant, Obligation, Vars, all_of, theorem

RECIPROCAL = Ruleset(negative_armor="reciprocal")


def compute_armor_step(damage: Any, armor_value: Any, ruleset: Ruleset = DEFAULT) -> Any:
    """The damage Armor lets through: the percentage, then the flat reduction (500.1-5, 500.1-6)."""
    return armor.apply_armor_flat(armor.apply_armor_percentage(damage, armor_value, ruleset), armor_value)


def is_ceiling_of_positive_armor_share(s: Any, damage: Any, armor_value: Any) -> Any:
    """``s = ceil(20*d / (sqrt(A) + 20))``: ``s*(sqrt(A)+20) >= 20d > (s-1)*(sqrt(A)+20)``, squared.

    For ``s >= 0`` the first inequality is ``s*sqrt(A) >= 20(d-s)``: it holds outright when
    ``d <= s`` and otherwise squares to ``s^2 A >= 400 (d-s)^2``. The second, for ``s >= 1``,
    is ``(s-1)*sqrt(A) < 20(d-s+1)``, that is ``d >= s`` and ``(s-1)^2 A < 400 (d-s+1)^2``;
    for ``s = 0`` it reads ``-(sqrt(A)+20) < 20d``, true for every ``d >= 0``.
    """
    reaches = or_(damage - s <= 0, s * s * armor_value >= 400 * (damage - s) * (damage - s))
    below = or_(
        s == 0,
        and_(damage - s + 1 > 0, (s - 1) * (s - 1) * armor_value < 400 * (damage - s + 1) * (damage - s + 1)),
    )
    return and_(s >= 0, reaches, below)


# --------------------------------------------------------------------------------------
# Mutants: realistic Armor bugs
# --------------------------------------------------------------------------------------

_original_percentage = armor.apply_armor_percentage
_original_flat = armor.apply_armor_flat
_original_least = least_such_that
_original_positive = armor.compute_surviving_after_positive_armor


def _floor_surviving_after_positive_armor(damage: Any, armor_value: Any) -> Any:
    """Rounds the surviving damage down: the largest ``s`` with ``s*(sqrt(A)+20) <= 20d``."""
    return least_such_that(
        lambda s: or_(damage - s - 1 < 0, (s + 1) * (s + 1) * armor_value > 400 * (damage - s - 1) * (damage - s - 1)),
        0,
        damage,
        "armor_floor",
    )


def _strict_covers_with_positive_armor(s: Any, damage: Any, armor_value: Any) -> Any:
    """``>`` where the rule has ``>=``: one more damage survives at every exact boundary."""
    shortfall = 20 * (damage - s)
    return or_(shortfall <= 0, s * s * armor_value > shortfall * shortfall)


def _flat_reduction_for_any_armor(armor_value: Any) -> Any:
    """Forgets 500.2d: negative Armor gives a (negative) flat change, i.e. flat amplification."""
    return floordiv(armor_value, armor.ARMOR_PER_FLAT_POINT)


def _no_flat_reduction(armor_value: Any) -> Any:
    """Forgets 500.2b: no flat reduction at all."""
    return 0


def _flat_reduction_uncapped(damage: Any, armor_value: Any) -> Any:
    """Lets the flat reduction push damage below 0 (500.2b says it stops at 0)."""
    return damage - armor.compute_flat_reduction(armor_value)


def _flat_reduction_added(damage: Any, armor_value: Any) -> Any:
    """Adds the flat reduction instead of subtracting it (a sign slip)."""
    return max_(damage + armor.compute_flat_reduction(armor_value), 0)


def _covers_squared_without_sign_guard(s: Any, damage: Any, armor_value: Any) -> Any:
    """Squares ``s*sqrt(A) >= 20(d-s)`` without first checking that ``d-s`` is positive."""
    shortfall = 20 * (damage - s)
    return s * s * armor_value >= shortfall * shortfall


def _surviving_with_denominator_without_root(damage: Any, armor_value: Any) -> Any:
    """The typo ``sqrt(A) / (A + 20)`` for ``sqrt(A) / (sqrt(A) + 20)``: d*(A+20-sqrt(A))/(A+20), rounded up."""
    return least_such_that(
        lambda s: or_(
            damage - s <= 0,
            damage * damage * armor_value >= (damage - s) * (damage - s) * (armor_value + 20) * (armor_value + 20),
        ),
        0,
        damage,
        "armor_typo",
    )


def _percentage_after_flat(damage: Any, armor_value: Any, ruleset: Ruleset = DEFAULT) -> Any:
    """Applies the flat reduction first and the percentage to what remains (500.2b reversed)."""
    return _original_percentage(_original_flat(damage, armor_value), armor_value, ruleset)


def _flat_already_applied(damage: Any, armor_value: Any) -> Any:
    return damage


def _negative_armor_reduces(damage: Any, armor_value: Any, ruleset: Ruleset = DEFAULT) -> Any:
    """Treats negative Armor like positive Armor of the same size (a sign slip)."""
    return armor.compute_surviving_after_positive_armor(damage, -armor_value)


def _positive_armor_amplifies(damage: Any, armor_value: Any) -> Any:
    """Applies the negative-Armor amplification to positive Armor (the opposite sign slip)."""
    return armor.compute_surviving_after_negative_armor(damage, -armor_value)


def _negative_denominator_without_root(damage: Any, armor_value: Any, ruleset: Ruleset = DEFAULT) -> Any:
    """The typo ``sqrt(B) / (B + 20)`` in the mirrored amplification: d*(1 + sqrt(B)/(B+20)), rounded up."""
    weakness = -armor_value
    return least_such_that(
        lambda s: (s - damage) * (s - damage) * (weakness + 20) * (weakness + 20) >= damage * damage * weakness,
        damage,
        2 * damage,
        "armor_neg_typo",
    )


def _flat_reduction_from_six(armor_value: Any) -> Any:
    """``>`` for ``>=`` at the first threshold: 5 Armor gives no flat point."""
    return ite(armor_value > armor.ARMOR_PER_FLAT_POINT, floordiv(armor_value, armor.ARMOR_PER_FLAT_POINT), 0)


def _flat_reduction_from_magnitude(armor_value: Any) -> Any:
    """Forgets 500.2d the other way: negative Armor gives a flat *reduction* of |A|/5."""
    return floordiv(ite(armor_value >= 0, armor_value, -armor_value), armor.ARMOR_PER_FLAT_POINT)


def _percentage_skipped_for_small_hits(damage: Any, armor_value: Any) -> Any:
    """Skips the percentage for hits under 20 damage (a misread threshold)."""
    return ite(damage < 20, damage, _original_positive(damage, armor_value))


def _least_plus_one(predicate: Any, low: Any, high: Any, hint: str, guess: Any = None) -> Any:
    """An off-by-one search: one above the least ``n`` (unless that is ``high``)."""
    n = _original_least(predicate, low, high, hint)
    return ite(n < high, n + 1, n)


def _least_without_minimality(predicate: Any, low: Any, high: Any, hint: str, guess: Any = None) -> Any:
    """Any ``n`` in range satisfying the predicate, not the least (``high`` when concrete)."""
    from referee.model.arith import _CONTEXT, is_symbolic

    if is_symbolic(low, high, predicate(high)):
        context = _CONTEXT.get()
        n = context.fresh_int(hint)
        context.side_conditions.extend([low <= n, n <= high, predicate(n)])
        return n
    return high


FLOOR_INSTEAD_OF_CEIL = Mutant(
    "floor_instead_of_ceil",
    "referee.model.combat.armor:compute_surviving_after_positive_armor",
    _floor_surviving_after_positive_armor,
    "surviving damage rounded down instead of up",
)
STRICT_BOUNDARY = Mutant(
    "strict_inequality_at_boundary",
    "referee.model.combat.armor:covers_with_positive_armor",
    _strict_covers_with_positive_armor,
    "`>` for `>=` in the squared test: wrong exactly at perfect squares",
)
NEGATIVE_FLAT = Mutant(
    "negative_armor_flat_amplification",
    "referee.model.combat.armor:compute_flat_reduction",
    _flat_reduction_for_any_armor,
    "negative Armor gives a negative flat reduction",
)
NO_FLAT = Mutant(
    "flat_reduction_forgotten",
    "referee.model.combat.armor:compute_flat_reduction",
    _no_flat_reduction,
    "no flat reduction",
)
UNCAPPED_FLAT = Mutant(
    "flat_reduction_below_zero",
    "referee.model.combat.armor:apply_armor_flat",
    _flat_reduction_uncapped,
    "the flat reduction may leave negative damage",
)
SQUARED_WITHOUT_SIGN_GUARD = Mutant(
    "squared_without_sign_guard",
    "referee.model.combat.armor:covers_with_positive_armor",
    _covers_squared_without_sign_guard,
    "squares both sides without checking the right side is positive",
)
DENOMINATOR_WITHOUT_ROOT = Mutant(
    "denominator_without_root",
    "referee.model.combat.armor:compute_surviving_after_positive_armor",
    _surviving_with_denominator_without_root,
    "sqrt(A)/(A+20) for sqrt(A)/(sqrt(A)+20)",
)
FLAT_ADDED = Mutant(
    "flat_reduction_added",
    "referee.model.combat.armor:apply_armor_flat",
    _flat_reduction_added,
    "the flat reduction added to the damage",
)
FLAT_BEFORE_PERCENTAGE = Mutant(
    "flat_before_percentage",
    "referee.model.combat.armor:apply_armor_percentage",
    _percentage_after_flat,
    "the flat reduction applied before the percentage",
    also=(("referee.model.combat.armor:apply_armor_flat", _flat_already_applied),),
    search_within=lambda v: and_(v.int("armor") <= 100, v.int("damage") <= 100),  # 25 Armor and 100 damage differ
)
NEGATIVE_REDUCES = Mutant(
    "negative_armor_reduces",
    "referee.model.combat.armor:compute_surviving_after_negative_armor",
    _negative_armor_reduces,
    "negative Armor treated as positive (sign slip)",
)
NEGATIVE_TYPO = Mutant(
    "negative_denominator_without_root",
    "referee.model.combat.armor:compute_surviving_after_negative_armor",
    _negative_denominator_without_root,
    "sqrt(B)/(B+20) for sqrt(B)/(sqrt(B)+20) in the amplification",
)
FLAT_FROM_SIX = Mutant(
    "first_flat_point_at_six",
    "referee.model.combat.armor:compute_flat_reduction",
    _flat_reduction_from_six,
    "5 Armor gives no flat reduction (`>` for `>=`)",
)
MAGNITUDE_FLAT = Mutant(
    "negative_armor_flat_reduction",
    "referee.model.combat.armor:compute_flat_reduction",
    _flat_reduction_from_magnitude,
    "negative Armor gives a flat reduction of |A|/5",
)
POSITIVE_AMPLIFIES = Mutant(
    "positive_armor_amplifies",
    "referee.model.combat.armor:compute_surviving_after_positive_armor",
    _positive_armor_amplifies,
    "positive Armor treated as negative (sign slip)",
)
SKIPPED_FOR_SMALL_HITS = Mutant(
    "percentage_skipped_for_small_hits",
    "referee.model.combat.armor:compute_surviving_after_positive_armor",
    _percentage_skipped_for_small_hits,
    "hits under 20 damage skip the percentage",
)
SEARCH_OFF_BY_ONE = Mutant(
    "search_one_above_least",
    "referee.model.arith:least_such_that",
    _least_plus_one,
    "the search returns one more than the least value",
    solver="bounded-witness",  # its witness is small; the SMT core ran out of rlimit on seed 0 (issue 21)
)
FORGETS_MINIMALITY = Mutant(
    "least_such_that_forgets_minimality",
    "referee.model.arith:least_such_that",
    _least_without_minimality,
    "the encoding pins a satisfying value, not the least",
    # 57 s of wall clock for 1.9M units once in the whole space: Z3's nonlinear core spends time it does not count
    search_within=lambda v: and_(-400 <= v.int("armor"), v.int("armor") <= 400, v.int("damage") <= 400),
)


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.2a", "combat:500.2b", mutants=[POSITIVE_AMPLIFIES, FLAT_ADDED])
def armor_never_increases_damage_when_non_negative(v: Vars) -> Obligation:
    """Armor of 0 or more never lets through more damage than arrived."""
    d, a = v.int("damage"), v.int("armor")
    return Obligation(assume=all_of(d >= 0, a >= 0), claim=compute_armor_step(d, a) <= d)


@theorem("combat:500.2a", "combat:500.2d", mutants=[NEGATIVE_REDUCES, MAGNITUDE_FLAT])
def negative_armor_never_reduces_damage(v: Vars) -> Obligation:
    """Negative Armor never lets through less damage than arrived (default reading, mirror)."""
    d, a = v.int("damage"), v.int("armor")
    return Obligation(assume=all_of(d >= 0, a < 0), claim=compute_armor_step(d, a) >= d)


@theorem("combat:500.2a", "combat:500.2d", mutants=[NEGATIVE_REDUCES, MAGNITUDE_FLAT])
def negative_armor_never_reduces_damage_reciprocal(v: Vars) -> Obligation:
    """Under the reciprocal reading too, negative Armor never lets through less damage than arrived."""
    d, a = v.int("damage"), v.int("armor")
    return Obligation(assume=all_of(d >= 0, a < 0), claim=compute_armor_step(d, a, v.ruleset(negative_armor="reciprocal")) >= d)


@theorem("combat:500.2b", "combat:500.2d", mutants=[UNCAPPED_FLAT])
def armor_never_leaves_negative_damage(v: Vars) -> Obligation:
    """Whatever the Armor, the damage it lets through is never below 0."""
    d, a = v.int("damage"), v.int("armor")
    return Obligation(assume=d >= 0, claim=compute_armor_step(d, a) >= 0)


@theorem("combat:500.2d", mutants=[NEGATIVE_FLAT])
def negative_armor_gives_no_flat_change(v: Vars) -> Obligation:
    """Armor of 0 or less changes damage only by its percentage: no flat reduction or amplification."""
    d, a = v.int("damage"), v.int("armor")
    percentage = armor.apply_armor_percentage(d, a)
    return Obligation(assume=all_of(d >= 0, a <= 0), claim=compute_armor_step(d, a) == percentage)


@theorem("combat:500.2a", "combat:500.2c", mutants=[FLOOR_INSTEAD_OF_CEIL, STRICT_BOUNDARY])
def surviving_damage_rounds_up(v: Vars) -> Obligation:
    """Non-negative Armor leaves exactly ceil(20d / (sqrt(A) + 20)) of d damage before the flat reduction."""
    d, a = v.int("damage"), v.int("armor")
    s = armor.apply_armor_percentage(d, a)
    return Obligation(assume=all_of(d >= 0, a >= 0), claim=is_ceiling_of_positive_armor_share(s, d, a))


@theorem("combat:500.2b", mutants=[FLAT_BEFORE_PERCENTAGE, NO_FLAT])
def flat_reduction_applies_after_percentage(v: Vars) -> Obligation:
    """Non-negative Armor lets through max(ceil(20d / (sqrt(A) + 20)) - floor(A/5), 0): the flat reduction comes second."""
    d, a, s = v.int("damage"), v.int("armor"), v.int("percentage_survivor")
    return Obligation(
        assume=all_of(d >= 0, a >= 0, is_ceiling_of_positive_armor_share(s, d, a)),
        claim=compute_armor_step(d, a) == max_(s - floordiv(a, 5), 0),
    )


# Lemmas about the squared test itself (no least_such_that): the facts the rounding needs.


@theorem("combat:500.2a", "combat:500.2c", mutants=[SQUARED_WITHOUT_SIGN_GUARD])
def more_survivors_still_cover_the_damage(v: Vars) -> Obligation:
    """If s surviving points satisfy s*(sqrt(A)+20) >= 20d, so does any larger number t."""
    s, t, d, a = v.int("survivors"), v.int("more_survivors"), v.int("damage"), v.int("armor")
    return Obligation(
        assume=all_of(a >= 0, d >= 0, 0 <= s, s <= t, armor.covers_with_positive_armor(s, d, a)),
        claim=armor.covers_with_positive_armor(t, d, a),
    )


@theorem("combat:500.2a", "combat:500.2c", mutants=[SQUARED_WITHOUT_SIGN_GUARD])
def less_damage_is_still_covered(v: Vars) -> Obligation:
    """If s surviving points satisfy s*(sqrt(A)+20) >= 20d, they satisfy it for any smaller damage too."""
    s, d, e, a = v.int("survivors"), v.int("damage"), v.int("less_damage"), v.int("armor")
    return Obligation(
        assume=all_of(a >= 0, s >= 0, 0 <= e, e <= d, armor.covers_with_positive_armor(s, d, a)),
        claim=armor.covers_with_positive_armor(s, e, a),
    )


@theorem("combat:500.2a", "combat:500.2c", mutants=[STRICT_BOUNDARY])
def armor_shortfalls_bound_their_cross_term(v: Vars) -> Obligation:
    """If s1 falls short of d1 and s2 of d2 (s*(sqrt(A)+20) < 20d), then A*s1*s2 < 20(d1-s1) * 20(d2-s2)."""
    s1, s2, d1, d2, a = v.int("s1"), v.int("s2"), v.int("d1"), v.int("d2"), v.int("armor")
    covers = armor.covers_with_positive_armor
    shortfall1, shortfall2 = armor.ARMOR_CURVE * (d1 - s1), armor.ARMOR_CURVE * (d2 - s2)
    return Obligation(
        assume=all_of(a >= 0, s1 >= 0, s2 >= 0, d1 >= 0, d2 >= 0, not_(covers(s1, d1, a)), not_(covers(s2, d2, a))),
        # Stated for positive shortfalls only (which falling short implies): what the sum below needs.
        claim=or_(shortfall1 <= 0, shortfall2 <= 0, s1 * s2 * a < shortfall1 * shortfall2),
    )


# The cross term is the nonlinear core of the sum; given it, the rest adds three strict
# inequalities. Asked in one step, Z3 found it on some seeds only (issue 21).
@theorem(
    "combat:500.2a",
    "combat:500.2c",
    mutants=[SQUARED_WITHOUT_SIGN_GUARD],
    lemmas=[armor_shortfalls_bound_their_cross_term],
)
def armor_shortfalls_add_up(v: Vars) -> Obligation:
    """If s1 falls short of d1 and s2 of d2 (s*(sqrt(A)+20) < 20d), then s1+s2 falls short of d1+d2."""
    s1, s2, d1, d2, a = v.int("s1"), v.int("s2"), v.int("d1"), v.int("d2"), v.int("armor")
    covers = armor.covers_with_positive_armor
    return Obligation(
        assume=all_of(
            a >= 0, s1 >= 0, s2 >= 0, d1 >= 0, d2 >= 0, not_(covers(s1, d1, a)), not_(covers(s2, d2, a)),
            v.lemma(armor_shortfalls_bound_their_cross_term, s1=s1, s2=s2, d1=d1, d2=d2, armor=a),
        ),
        claim=not_(covers(s1 + s2, d1 + d2, a)),
    )


# Lemmas about the percentage survivor, from the facts above.


@theorem(
    "combat:500.2a",
    "combat:500.2c",
    mutants=[SKIPPED_FOR_SMALL_HITS],
    lemmas=[more_survivors_still_cover_the_damage, less_damage_is_still_covered],
    abstract=["referee.model.combat.armor:covers_with_positive_armor"],
)
def more_damage_never_leaves_less_after_percentage(v: Vars) -> Obligation:
    """With non-negative Armor, more incoming damage never leaves less after the percentage reduction."""
    d1, d2, a = v.int("damage"), v.int("more_damage"), v.int("armor")
    p1 = armor.compute_surviving_after_positive_armor(d1, a)
    p2 = armor.compute_surviving_after_positive_armor(d2, a)
    return Obligation(
        assume=all_of(
            0 <= d1,
            d1 <= d2,
            a >= 0,
            v.lemma(less_damage_is_still_covered, survivors=p2, damage=d2, less_damage=d1, armor=a),
            v.lemma(more_survivors_still_cover_the_damage, survivors=p2, more_survivors=p1 - 1, damage=d1, armor=a),
        ),
        claim=p1 <= p2,
    )


@theorem(
    "combat:500.2a",
    "combat:500.2c",
    mutants=[SEARCH_OFF_BY_ONE],
    lemmas=[more_survivors_still_cover_the_damage, armor_shortfalls_add_up, more_damage_never_leaves_less_after_percentage],
    abstract=["referee.model.combat.armor:covers_with_positive_armor"],
)
def splitting_damage_gains_at_most_one_point_of_rounding(v: Vars) -> Obligation:
    """With non-negative Armor, two instances survive the percentage with at most 1 more point than their sum would."""
    d1, d2, a = v.int("first"), v.int("second"), v.int("armor")
    p1 = armor.compute_surviving_after_positive_armor(d1, a)
    p2 = armor.compute_surviving_after_positive_armor(d2, a)
    p = armor.compute_surviving_after_positive_armor(d1 + d2, a)
    return Obligation(
        assume=all_of(
            d1 >= 0,
            d2 >= 0,
            a >= 0,
            v.lemma(armor_shortfalls_add_up, s1=p1 - 1, s2=p2 - 1, d1=d1, d2=d2, armor=a),
            v.lemma(
                more_survivors_still_cover_the_damage,
                survivors=p,
                more_survivors=(p1 - 1) + (p2 - 1),
                damage=d1 + d2,
                armor=a,
            ),
            v.lemma(more_damage_never_leaves_less_after_percentage, damage=d1, more_damage=d1 + d2, armor=a),
            v.lemma(more_damage_never_leaves_less_after_percentage, damage=d2, more_damage=d1 + d2, armor=a),
        ),
        claim=p1 + p2 <= p + 1,
    )


@theorem(
    "combat:500.2b",
    "combat:500.2f",
    mutants=[NO_FLAT, FLAT_FROM_SIX],
    lemmas=[splitting_damage_gains_at_most_one_point_of_rounding, more_damage_never_leaves_less_after_percentage],
    abstract=["referee.model.combat.armor:covers_with_positive_armor"],
)
def flat_reduction_is_per_instance(v: Vars) -> Obligation:
    """With at least 5 Armor, splitting damage into two instances never lets more through than one instance."""
    d1, d2, a = v.int("first"), v.int("second"), v.int("armor")
    split = compute_armor_step(d1, a) + compute_armor_step(d2, a)
    return Obligation(
        assume=all_of(
            d1 >= 0,
            d2 >= 0,
            a >= 5,
            v.lemma(splitting_damage_gains_at_most_one_point_of_rounding, first=d1, second=d2, armor=a),
            v.lemma(more_damage_never_leaves_less_after_percentage, damage=d1, more_damage=d1 + d2, armor=a),
            v.lemma(more_damage_never_leaves_less_after_percentage, damage=d2, more_damage=d1 + d2, armor=a),
        ),
        claim=split <= compute_armor_step(d1 + d2, a),
    )


# Monotone in Armor.


@theorem("combat:500.2a", "combat:500.2c", mutants=[DENOMINATOR_WITHOUT_ROOT, POSITIVE_AMPLIFIES])
def more_non_negative_armor_never_leaves_more_after_percentage(v: Vars) -> Obligation:
    """Of two non-negative Armor values, the larger never leaves more of the same damage after the percentage."""
    d, low, high = v.int("damage"), v.int("armor"), v.int("more_armor")
    return Obligation(
        assume=all_of(d >= 0, 0 <= low, low <= high),
        claim=armor.apply_armor_percentage(d, high) <= armor.apply_armor_percentage(d, low),
    )


@theorem(
    "combat:500.2a",
    "combat:500.2b",
    mutants=[FLAT_ADDED],
    lemmas=[more_non_negative_armor_never_leaves_more_after_percentage],
)
def more_armor_never_means_more_damage_when_non_negative(v: Vars) -> Obligation:
    """Of two non-negative Armor values, the larger never lets through more of the same damage."""
    d, low, high = v.int("damage"), v.int("armor"), v.int("more_armor")
    percentage_fact = v.lemma(
        more_non_negative_armor_never_leaves_more_after_percentage, damage=d, armor=low, more_armor=high
    )
    return Obligation(
        assume=all_of(d >= 0, 0 <= low, low <= high, percentage_fact),
        claim=compute_armor_step(d, high) <= compute_armor_step(d, low),
    )


@theorem("combat:500.2a", "combat:500.2d", mutants=[NEGATIVE_TYPO, NEGATIVE_REDUCES])
def more_armor_never_means_more_damage_when_negative(v: Vars) -> Obligation:
    """Of two negative Armor values, the larger (nearer 0) never lets through more of the same damage."""
    d, low, high = v.int("damage"), v.int("armor"), v.int("more_armor")
    return Obligation(
        assume=all_of(d >= 0, low <= high, high < 0),
        claim=compute_armor_step(d, high) <= compute_armor_step(d, low),
    )


@theorem("combat:500.2a", "combat:500.2d", mutants=[NEGATIVE_REDUCES, POSITIVE_AMPLIFIES])
def more_armor_never_means_more_damage_across_zero(v: Vars) -> Obligation:
    """Non-negative Armor never lets through more of the same damage than negative Armor."""
    d, low, high = v.int("damage"), v.int("armor"), v.int("more_armor")
    return Obligation(
        assume=all_of(d >= 0, low < 0, 0 <= high),
        claim=compute_armor_step(d, high) <= compute_armor_step(d, low),
    )


@theorem("combat:500.2a", "combat:500.2c", mutants=[FORGETS_MINIMALITY])
def positive_armor_encoding_is_functional(v: Vars) -> Obligation:
    """Any s meeting least_such_that's defining conditions for non-negative Armor is the model's survivor."""
    d, a, other = v.int("damage"), v.int("armor"), v.int("other")
    covers = lambda s: armor.covers_with_positive_armor(s, d, a)  # noqa: E731
    return Obligation(
        assume=all_of(d >= 0, a >= 0, 0 <= other, other <= d, covers(other), or_(other == 0, not_(covers(other - 1)))),
        claim=other == armor.compute_surviving_after_positive_armor(d, a),
    )


@theorem("combat:500.2d", mutants=[FORGETS_MINIMALITY])
def negative_armor_encoding_is_functional(v: Vars) -> Obligation:
    """Any s meeting least_such_that's defining conditions for negative Armor (mirror) is the model's amplified damage."""
    d, a, other = v.int("damage"), v.int("armor"), v.int("other")
    covers = lambda s: armor.covers_with_mirrored_negative_armor(s, d, a)  # noqa: E731
    return Obligation(
        assume=all_of(
            d >= 0, a < 0, d <= other, other <= 2 * d, covers(other), or_(other == d, not_(covers(other - 1)))
        ),
        claim=other == armor.compute_surviving_after_negative_armor(d, a, v.ruleset(negative_armor="mirror")),
    )
