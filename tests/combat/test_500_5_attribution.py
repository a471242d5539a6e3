"""500.5 Damage attribution: credit to the dealer, shared ticks split by what each applied, Feast, self-destruct."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.model.combat.attribution import compute_applied, compute_feast_weights, compute_shares
from referee.model.combat.costs import resolve_self_destruct
from referee.model.combat.damage import DamageInstance, resolve_damage
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    """``(unit, amount, other)`` of every event called ``name``."""
    return [(e.unit, e.amount, e.other) for e in log.events() if e.name == name]


def three_appliers(recipient: dict[str, Any] | None = None) -> Board:
    """A recipient ``r`` on side 1 and three enemies ``a``, ``b``, ``c`` on side 0."""
    return Board((Unit("r", side=1, **(recipient or {})), Unit("a", col=0), Unit("b", col=1), Unit("c", col=2)))


def tick(appliers: tuple, amount: int, ruleset: Ruleset = DEFAULT, kind: str = "burn", recipient: dict | None = None):
    return resolve_damage(three_appliers(recipient), DamageInstance("r", amount, "a", kind, appliers=appliers), ruleset)


# --------------------------------------------------------------------------------------
# 500.5a Credit to the dealer
# --------------------------------------------------------------------------------------


@covers("combat:500.5a")
def test_500_5a_a_hit_is_credited_to_the_unit_that_dealt_it():
    _, log, _ = resolve_damage(three_appliers(), DamageInstance("r", 30, "b"))
    assert events(log, "credit") == [("b", 30, "r")] and events(log, "feast") == [("b", 30, "r")]


@covers("combat:500.5a")
@pytest.mark.parametrize("kind", ["burn", "venom"])
def test_500_5a_a_tick_is_credited_to_the_unit_that_applied_it(kind):
    _, log, _ = resolve_damage(three_appliers(), DamageInstance("r", 7, "c", kind))
    assert events(log, "credit") == [("c", 7, "r")] and events(log, "feast") == [("c", 7, "r")]


@covers("combat:500.5a")
def test_500_5a_an_instance_with_no_actor_is_credited_to_nobody():
    _, log, _ = resolve_damage(three_appliers(), DamageInstance("r", 7, None, "overtime"))
    assert events(log, "credit") == [] and events(log, "feast") == []


# --------------------------------------------------------------------------------------
# 500.5b Shared ticks
# --------------------------------------------------------------------------------------


@covers("combat:500.5b")
def test_500_5b_regression_a_tick_applied_by_several_units_is_divided_between_them():
    # Before appliers carried amounts, the whole tick was credited to the source.
    _, log, _ = tick((("a", 1), ("b", 3)), 20)
    assert events(log, "credit") == [("a", 5, "r"), ("b", 15, "r")]


@covers("combat:500.5b")
def test_500_5b_shares_that_do_not_divide_go_to_the_largest_remainders():
    # 10 by 2:3:4 is 2.22, 3.33, 4.44: floors 2, 3, 4 leave 1, which goes to c (remainder 4/9).
    _, log, _ = tick((("a", 2), ("b", 3), ("c", 4)), 10)
    assert events(log, "credit") == [("a", 2, "r"), ("b", 3, "r"), ("c", 5, "r")]


@covers("combat:500.5b")
def test_500_5b_equal_remainders_go_to_the_earlier_applier():
    # 10 by 1:1:1: floors 3, 3, 3 with equal remainders; the leftover point goes to a.
    _, log, _ = tick(("a", "b", "c"), 10)
    assert events(log, "credit") == [("a", 4, "r"), ("b", 3, "r"), ("c", 3, "r")]
    # 11 by 1:1:1: two leftover points, to a and b.
    _, log, _ = tick(("a", "b", "c"), 11)
    assert [amount for _, amount, _ in events(log, "credit")] == [4, 4, 3]


@covers("combat:500.5b")
def test_500_5b_a_share_that_rounds_to_nothing_is_not_credited():
    _, log, _ = tick((("a", 1), ("b", 10)), 5)
    assert events(log, "credit") == [("b", 5, "r")]


@covers("combat:500.5b")
def test_500_5b_a_uid_named_twice_adds_up_in_its_first_place():
    assert compute_applied(DamageInstance("r", 1, "a", "burn", appliers=(("b", 2), ("a", 1), ("b", 3)))) == (("b", 5), ("a", 1))
    _, log, _ = tick((("b", 2), ("a", 1), ("b", 3)), 12)
    assert events(log, "credit") == [("b", 10, "r"), ("a", 2, "r")]


@covers("combat:500.5b")
def test_500_5b_the_remainder_to_first_option():
    # INT-351's alternative: floors 2, 3, 4 and the leftover point to the first applier.
    _, log, _ = tick((("a", 2), ("b", 3), ("c", 4)), 10, Ruleset(tick_share_rounding="remainder_to_first"))
    assert events(log, "credit") == [("a", 3, "r"), ("b", 3, "r"), ("c", 4, "r")]


@covers("combat:500.5b")
def test_500_5b_the_adjusted_tick_is_what_is_divided():
    # 500.1h first: a 7 tick into a Prismbroken unit is ceil(21/2) = 11, then split 1:1 as 6 and 5.
    _, log, _ = tick(("a", "b"), 7, recipient={"prismbroken": True})
    assert events(log, "credit") == [("a", 6, "r"), ("b", 5, "r")]


@covers("combat:500.5b")
@pytest.mark.parametrize("bad", [("a", 0), ("a", -2), ("a",), (3, 1), ("a", True)])
def test_invalid_500_5b_an_applier_must_name_a_uid_and_a_positive_amount(bad):
    with pytest.raises(ValueError, match=r"appliers\[0\] must be a uid or a \(uid, applied > 0\) pair"):
        DamageInstance("r", 5, "a", "burn", appliers=(bad,))


# --------------------------------------------------------------------------------------
# 500.5c Feast from the Vitality portion
# --------------------------------------------------------------------------------------


@covers("combat:500.5c")
def test_500_5c_feast_is_the_vitality_portion_of_each_share():
    # 20 split 1:3 is credit 5 and 15; Shield took 8, so 12 reached Vitality: Feast 3 and 9.
    _, log, _ = tick((("a", 1), ("b", 3)), 20, recipient={"shield": 8})
    assert events(log, "credit") == [("a", 5, "r"), ("b", 15, "r")]
    assert events(log, "feast") == [("a", 3, "r"), ("b", 9, "r")]


@covers("combat:500.5c")
def test_500_5c_a_tick_shield_swallows_whole_feeds_no_feast():
    _, log, _ = tick((("a", 1), ("b", 3)), 20, recipient={"shield": 50})
    assert events(log, "credit") == [("a", 5, "r"), ("b", 15, "r")] and events(log, "feast") == []


@covers("combat:500.5c", "combat:500.1b")
def test_500_5c_insurance_absorbed_damage_is_neither_credited_nor_fed():
    # One Insurance point absorbs 25 of a 30 tick: 5 left, split 2:3 as 2 and 3.
    _, log, _ = tick((("a", 2), ("b", 3)), 30, recipient={"insurance": 1})
    assert events(log, "credit") == [("a", 2, "r"), ("b", 3, "r")]
    assert events(log, "feast") == [("a", 2, "r"), ("b", 3, "r")]


@covers("combat:500.5c")
def test_500_5c_feast_is_scaled_from_the_credit_shares_not_divided_afresh():
    # INT-352. Appliers 1:3:3 share credit 4 as 0, 2, 2; 3 of it reached Vitality (Shield took 1).
    # Scaled from those shares the Feast is 0, 2, 1 (a has no share to feed it); divided afresh by
    # what each applied (the of_applied option) it is 1, 1, 1.
    appliers = (("a", 1), ("b", 3), ("c", 3))
    _, log, _ = tick(appliers, 4, recipient={"shield": 1})
    assert events(log, "credit") == [("b", 2, "r"), ("c", 2, "r")]
    assert events(log, "feast") == [("b", 2, "r"), ("c", 1, "r")]
    _, log, _ = tick(appliers, 4, Ruleset(tick_feast_shares="of_applied"), recipient={"shield": 1})
    assert events(log, "feast") == [("a", 1, "r"), ("b", 1, "r"), ("c", 1, "r")]


@covers("combat:500.5c")
def test_500_5c_feast_shares_stop_at_the_vitality_the_unit_had():
    # A 40 tick split 1:1 on a unit with 9 Vitality: credit 5 and 4, Feast the same 9.
    _, log, _ = tick(("a", "b"), 40, recipient={"vitality": 9})
    assert events(log, "credit") == [("a", 5, "r"), ("b", 4, "r")] and events(log, "feast") == [("a", 5, "r"), ("b", 4, "r")]


# --------------------------------------------------------------------------------------
# 500.5d Self-destruct
# --------------------------------------------------------------------------------------


@covers("combat:500.5d")
def test_500_5d_a_self_destruct_keeps_kill_credit_for_its_dead_source():
    board = Board((Unit("s", side=0), Unit("r", side=1, vitality=30)))
    board, _ = resolve_self_destruct(board, "s")
    assert not board.unit("s").alive
    after, log, _ = resolve_damage(board, DamageInstance("r", 50, "s", "aoe"))
    assert not after.unit("r").alive
    assert events(log, "death") == [("r", 0, "s")]
    assert events(log, "credit") == [("s", 30, "r")] and events(log, "feast") == [("s", 30, "r")]


# --------------------------------------------------------------------------------------
# 500.7e A shared tick answers each applier
# --------------------------------------------------------------------------------------


@covers("combat:500.7e", "combat:500.5b")
def test_500_7e_a_tick_with_applied_amounts_answers_each_applier_once():
    board = three_appliers({"thorns": 2})
    _, log = resolve_hit(board, DamageInstance("r", 10, "a", "venom", appliers=(("a", 4), ("b", 1), ("a", 1))))
    assert events(log, "thorns") == [("a", 2, "r"), ("b", 2, "r")]


@covers("combat:500.7e", "combat:500.5b")
def test_500_7e_an_applier_whose_share_rounds_to_nothing_is_still_answered():
    # INT-354: Thorns do not read the size of the hit (500.7c).
    board = three_appliers({"thorns": 2})
    _, log = resolve_hit(board, DamageInstance("r", 3, "a", "burn", appliers=(("a", 10), ("c", 1))))
    assert events(log, "credit")[:1] == [("a", 3, "r")] and events(log, "thorns") == [("a", 2, "r"), ("c", 2, "r")]


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

weights_lists = st.lists(st.integers(1, 40), min_size=1, max_size=5).map(tuple)


@covers("combat:500.5b")
@settings(max_examples=500, deadline=None)
@given(st.integers(0, 500), weights_lists)
def test_shares_sum_exactly_and_each_is_within_one_of_its_proportion(total, weights):
    shares = compute_shares(total, weights)
    assert sum(shares) == total
    for share, weight in zip(shares, weights):
        assert abs(share - Fraction(total * weight, sum(weights))) < 1


@covers("combat:500.5b")
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 500), weights_lists)
def test_remainder_to_first_sums_exactly_and_floors_every_other_share(total, weights):
    shares = compute_shares(total, weights, Ruleset(tick_share_rounding="remainder_to_first"))
    assert sum(shares) == total
    assert all(s == total * w // sum(weights) for s, w in zip(shares[1:], weights[1:]))


@covers("combat:500.5c")
@settings(max_examples=500, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), weights_lists)
def test_feast_sums_to_the_vitality_portion_and_never_exceeds_a_share(credited, lost, weights):
    lost = min(lost, credited)
    credit = compute_shares(credited, weights)
    feast = compute_shares(lost, compute_feast_weights(credited, weights, credit))
    assert sum(feast) == lost and all(0 <= f <= c for f, c in zip(feast, credit))


@covers("combat:500.5b", "combat:500.5c")
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 120), st.integers(0, 60), st.integers(0, 2), weights_lists.filter(lambda w: len(w) <= 3))
def test_a_shared_tick_credits_exactly_what_one_source_would_be_credited(amount, shield, insurance, weights):
    appliers = tuple(zip(("a", "b", "c"), weights))
    recipient = {"shield": shield, "insurance": insurance}
    _, shared, _ = tick(appliers, amount, recipient=recipient)
    _, alone, _ = tick((), amount, recipient=recipient)
    assert sum(a for _, a, _ in events(shared, "credit")) == sum(a for _, a, _ in events(alone, "credit"))
    assert sum(a for _, a, _ in events(shared, "feast")) == sum(a for _, a, _ in events(alone, "feast"))
