"""357 Pay costs, and 444.2.a, declining to pay resources."""

from __future__ import annotations

import pytest

from referee.model.play.cost import CostComponent, ResourceCost
from referee.model.play.examples import KILL_AND_DISCARD, card, make_state, rune, unit
from referee.model.play.payment import PayCost, PayResources, UseRune, can_pay_resources, compute_pool_after_payment
from referee.model.play.process import CardText, Choices, get_cancellation, process_play
from referee.model.play.state import BOARD, CHAIN, DOMAINS, HAND, MAIN_DECK, RUNE_DECK, TRASH, Pool
from referee.specs.trace import covers


def power(**amounts):
    return tuple(amounts.get(d, 0) for d in DOMAINS)


SPELL = CardText(cost=CostComponent(ResourceCost.of(2, calm=1, any_power=1)))


@covers("play:357.1")
def test_357_1_combined_energy_and_power_paid_in_one_payment():
    state = make_state(card("spell", "spell"), energy=3, power=power(calm=1, mind=2))
    result = process_play(state, "spell", SPELL, Choices(), (PayResources(),))
    assert result.legal
    assert result.state.pool == Pool(1, power(mind=1))
    assert result.state.get("spell").zone == CHAIN


@covers("play:357.1")
def test_357_1_any_power_comes_from_the_domains_in_the_players_order():
    pool = Pool(0, power(fury=1, mind=1))
    cost = ResourceCost.of(any_power=1)
    assert compute_pool_after_payment(pool, cost, DOMAINS) == Pool(0, power(mind=1))
    order = ("mind", "fury", "calm", "body", "chaos", "order")
    assert compute_pool_after_payment(pool, cost, order) == Pool(0, power(fury=1))


@covers("play:357.1")
def test_357_1_domain_power_cannot_be_paid_with_another_domain():
    assert not can_pay_resources(Pool(5, power(fury=3)), ResourceCost.of(0, calm=1))
    assert can_pay_resources(Pool(5, power(fury=3)), ResourceCost.of(0, any_power=3))


@covers("play:357.1", "play:358.2", "play:358.5")
def test_invalid_357_1_short_pool_pays_nothing_and_the_play_is_undone():
    state = make_state(card("spell", "spell"), energy=1, power=power(calm=1, mind=2))
    result = process_play(state, "spell", SPELL, Choices(), (PayResources(),))
    assert not result.legal
    assert result.state is state
    assert get_cancellation(result).causes == ("357.1",)


@covers("play:357.1.a", "play:164.2.a", "play:164.2.b")
def test_357_1_a_runes_add_the_resources_being_paid():
    state = make_state(card("spell", "spell"), rune("r1", "calm"), rune("r2", "fury"), rune("r3", "mind"), energy=1)
    plan = (UseRune("r1", "exhaust"), UseRune("r1", "recycle"), UseRune("r2", "recycle"), PayResources())
    result = process_play(state, "spell", SPELL, Choices(), plan)
    assert result.legal
    assert result.payment.added == Pool(1, power(calm=1, fury=1))
    assert result.state.pool == Pool(0, power())
    assert result.state.get("r1").zone == RUNE_DECK and result.state.get("r2").zone == RUNE_DECK
    assert result.state.get("r3") == state.get("r3")


@covers("play:357.1.a", "play:358.5")
def test_357_1_a_runes_used_after_paying_do_not_help_and_are_undone():
    state = make_state(card("spell", "spell"), rune("r1", "calm"), rune("r2", "fury"), energy=1, power=power(calm=1))
    plan = (PayResources(), UseRune("r1", "exhaust"), UseRune("r2", "recycle"))
    result = process_play(state, "spell", SPELL, Choices(), plan)
    assert not result.legal
    assert result.state is state
    assert not result.state.get("r1").exhausted


def kill_and_discard_state():
    return make_state(card("c", "spell"), unit("ally"), card("h"), energy=1)


@covers("play:357.2", "play:203.1")
def test_357_2_kill_then_discard_or_discard_then_kill_end_alike():
    """The seed's example: "kill a friendly unit and discard a unit" paid in either order."""
    state = kill_and_discard_state()
    kill_first = (PayCost(0, ("ally",)), PayCost(1, ("h",)), PayResources())
    discard_first = (PayCost(1, ("h",)), PayResources(), PayCost(0, ("ally",)))
    one = process_play(state, "c", KILL_AND_DISCARD, Choices((True,)), kill_first)
    two = process_play(state, "c", KILL_AND_DISCARD, Choices((True,)), discard_first)
    assert one.legal and two.legal
    assert one.state == two.state
    assert one.state.get("ally").zone == TRASH and one.state.get("h").zone == TRASH


@covers("play:357.2", "play:358.2")
def test_invalid_357_2_a_cost_paid_twice_or_never_cancels():
    state = kill_and_discard_state()
    twice = (PayCost(0, ("ally",)), PayCost(0, ("ally",)), PayCost(1, ("h",)), PayResources())
    never = (PayCost(0, ("ally",)), PayResources())
    r_twice = process_play(state, "c", KILL_AND_DISCARD, Choices((True,)), twice)
    r_never = process_play(state, "c", KILL_AND_DISCARD, Choices((True,)), never)
    assert get_cancellation(r_twice).causes == ("357.2",)
    assert get_cancellation(r_never).causes == ("203.3",)
    assert r_twice.state is state and r_never.state is state


@covers("play:444.2.a", "play:358.5")
def test_444_2_a_choosing_not_to_pay_resources_undoes_the_play():
    state = make_state(card("spell", "spell"), rune("r1"), energy=5, power=power(calm=3))
    result = process_play(state, "spell", SPELL, Choices(), (UseRune("r1", "exhaust"),))
    assert not result.legal
    assert result.state is state
    assert get_cancellation(result).check == "358.2"
    assert get_cancellation(result).causes == ("444.2.a",)


@covers("play:444.2.a")
def test_444_2_a_nothing_to_decline_when_nothing_is_owed():
    free = CardText()
    state = make_state(card("spell", "spell"))
    result = process_play(state, "spell", free, Choices(), ())
    assert result.legal
    assert result.state.get("spell").zone == CHAIN


def test_invalid_unknown_object_in_a_plan_is_named():
    state = kill_and_discard_state()
    with pytest.raises(KeyError, match="'ghost'"):
        process_play(state, "c", KILL_AND_DISCARD, Choices((True,)), (PayCost(0, ("ghost",)),))


def test_zone_codes_are_distinct():
    assert len({HAND, CHAIN, BOARD, TRASH, MAIN_DECK, RUNE_DECK}) == 6


@covers("play:357.1.a", "play:164.2.a", "play:164.2.b", "play:414.4")
def test_357_1_a_a_rune_exhausted_then_recycled_adds_both_the_reverse_only_power():
    """The same order effect as 357.2's, for Reaction adds: a recycled rune is gone and cannot be exhausted."""
    state = make_state(card("spell", "spell"), rune("r", "calm"))
    two = CardText(cost=CostComponent(ResourceCost.of(1, calm=1)))
    exhaust_first = process_play(state, "spell", two, Choices(), (UseRune("r", "exhaust"), UseRune("r", "recycle"), PayResources()))
    recycle_first = process_play(state, "spell", two, Choices(), (UseRune("r", "recycle"), UseRune("r", "exhaust"), PayResources()))
    assert exhaust_first.legal and exhaust_first.payment.added == Pool(1, power(calm=1))
    assert not recycle_first.legal and recycle_first.payment.added == Pool(0, power(calm=1))
    assert get_cancellation(recycle_first).causes == ("357.1",)
