"""202, 203 Costs and linked effects; 399, 403.1.a activating an ability."""

from __future__ import annotations

from referee.model.play.actions import process_pay_nonstandard_cost
from referee.model.play.cost import CostComponent, NonStandardCost, ResourceCost
from referee.model.play.examples import card, make_state, rune, unit
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import Ability, Effect, get_cancellation, process_activate
from referee.model.play.state import TRASH, Pool
from referee.specs.trace import covers

#: "[1], Exhaust this: give me +1 Might."
PUMP = Ability(CostComponent(ResourceCost.of(1), (NonStandardCost("exhaust_this"),)), Effect("buff_might", 1))


@covers("play:202", "play:403.1.a")
def test_202_cost_before_the_colon_buys_the_linked_effect():
    state = make_state(unit("u"), energy=1)
    result = process_activate(state, "u", PUMP, (PayResources(), PayCost(0)))
    assert result.legal and result.effect_happened
    assert result.state.get("u").might_bonus == 1 and result.state.get("u").exhausted
    assert result.state.pool == Pool(0)


@covers("play:203", "play:358.5")
def test_203_unpaid_cost_gets_no_linked_effect():
    state = make_state(unit("u"), energy=0)
    result = process_activate(state, "u", PUMP, (PayResources(), PayCost(0)))
    assert not result.legal and result.state is state
    assert get_cancellation(result).causes == ("357.1",)


@covers("play:203.1")
def test_203_1_paying_kill_a_friendly_unit_is_killing_it():
    state = make_state(unit("ally"))
    after, done = process_pay_nonstandard_cost(state, NonStandardCost("kill_friendly_unit"), None, ("ally",))
    assert done and after.get("ally").zone == TRASH


@covers("play:203.3")
def test_203_3_impossible_action_cannot_be_paid():
    state = make_state(unit("enemy", controller=1), card("spell", "spell"))
    for kind, target in (("kill_friendly_unit", "enemy"), ("discard_unit", "spell")):
        after, done = process_pay_nonstandard_cost(state, NonStandardCost(kind), None, (target,))
        assert not done and after is state


@covers("play:203.3", "play:414.4")
def test_203_3_impossible_exhaust_cost_means_no_effect():
    state = make_state(unit("u", exhausted=True), energy=1)
    result = process_activate(state, "u", PUMP, (PayResources(), PayCost(0)))
    assert not result.legal and result.state is state and not result.effect_happened


@covers("play:399", "play:357.1.a")
def test_399_activating_follows_the_steps_of_playing_runes_included():
    state = make_state(unit("u"), rune("r"))
    result = process_activate(state, "u", PUMP, (UseRune("r", "exhaust"), PayResources(), PayCost(0)))
    assert result.legal and result.state.get("r").exhausted and result.state.get("u").might_bonus == 1


@covers("play:399")
def test_invalid_399_only_the_controller_activates():
    state = make_state(unit("theirs", controller=1), energy=1)
    result = process_activate(state, "theirs", PUMP, (PayResources(), PayCost(0)))
    assert get_cancellation(result).check == "399"
