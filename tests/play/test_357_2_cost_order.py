"""357.2: whether the order of non-standard costs can change the outcome (Z3's answer, replayed)."""

from __future__ import annotations

import pytest

from referee.model.play.examples import card, make_state, unit
from referee.model.play.state import HAND, MAIN_DECK, TRASH
from referee.proofs.core import Vars
from referee.proofs.play.order import (
    COST_INSTANCES,
    PAIRS,
    both_orders,
    find_order_dependent_pairs,
    order_state,
    pay_in_order,
)
from referee.specs.trace import covers

#: The pairs whose order can decide whether both are paid; ``docs/play.md`` states the same list.
EXPECTED_ORDER_DEPENDENT = {
    ("exhaust this", "recycle this"): ("exhaust this", "recycle this"),
    ("exhaust this", "kill u1"): ("exhaust this", "kill u1"),
    ("recycle this", "exhaust unit u1"): ("exhaust unit u1", "recycle this"),
    ("exhaust unit u1", "kill u1"): ("exhaust unit u1", "kill u1"),
    ("exhaust unit u2", "kill u2"): ("exhaust unit u2", "kill u2"),
    ("kill u2", "recycle u2 from trash"): ("kill u2", "recycle u2 from trash"),
    ("discard h1", "recycle h1 from trash"): ("discard h1", "recycle h1 from trash"),
    ("discard h1", "recycle t1, h1 from trash"): ("discard h1", "recycle t1, h1 from trash"),
    ("discard u2", "recycle u2 from trash"): ("discard u2", "recycle u2 from trash"),
}


@pytest.fixture(scope="module")
def witnesses():
    return find_order_dependent_pairs()


@covers("play:357.2", "play:416.3", "play:414.4")
def test_357_2_order_matters_exactly_for_these_pairs(witnesses):
    found = {(w.first.label, w.second.label): w.paying_order for w in witnesses}
    assert found == EXPECTED_ORDER_DEPENDENT


@covers("play:357.2")
def test_357_2_every_order_witness_replays_through_the_model(witnesses):
    for w in witnesses:
        state = order_state(Vars(w.values))
        _, ok_ab, _, ok_ba = both_orders(state, w.first, w.second)
        assert ok_ab != ok_ba, (w.first.label, w.second.label)


@covers("play:357.2", "play:416.3")
def test_357_2_discard_then_recycle_pays_both_the_reverse_does_not():
    """The counterexample of docs/play.md: an empty trash, a unit card in hand."""
    discard = next(c for c in COST_INSTANCES if c.label == "discard h1")
    recycle = next(c for c in COST_INSTANCES if c.label == "recycle h1 from trash")
    state = make_state(unit("u1"), unit("u2"), unit("foe", controller=1), card("h1"), card("t1", "spell", HAND))
    after, ok = pay_in_order(state, discard, recycle)
    assert ok and after.get("h1").zone == MAIN_DECK
    after, ok = pay_in_order(state, recycle, discard)
    assert not ok and after.get("h1").zone == TRASH  # the discard alone went through; 358.5 undoes it in a play


@covers("play:357.2")
def test_357_2_kill_and_discard_commute_on_every_concrete_board():
    kill = next(c for c in COST_INSTANCES if c.label == "kill u2")
    discard = next(c for c in COST_INSTANCES if c.label == "discard h1")
    for u2_zone in range(6):
        for h1_zone in range(6):
            state = make_state(unit("u1"), unit("u2", u2_zone), unit("foe", controller=1), card("h1", "unit", h1_zone), card("t1", "spell"))
            s_ab, ok_ab, s_ba, ok_ba = both_orders(state, kill, discard)
            assert ok_ab == ok_ba and s_ab == s_ba


def test_order_question_covers_every_pair_of_the_seeds_cost_kinds():
    kinds = {c.cost.kind for c in COST_INSTANCES}
    assert kinds == {
        "exhaust_this", "recycle_this", "exhaust_friendly_unit", "recycle_from_trash", "kill_friendly_unit", "discard_unit"
    }  # fmt: skip
    assert len(PAIRS) == len(COST_INSTANCES) * (len(COST_INSTANCES) - 1) // 2
