"""164.2 Basic Runes, 414 Exhaust as a cost, 416.3 Recycle as a cost."""

from __future__ import annotations

from referee.model.play.actions import (
    process_exhaust,
    process_exhaust_friendly_unit,
    process_recycle_from_trash,
    process_recycle_this,
)
from referee.model.play.examples import (
    MAY_EXHAUST_A_FRIENDLY_UNIT,
    VI_DESTRUCTIVE,
    card,
    make_state,
    rune,
    trash_card,
    unit,
)
from referee.model.play.payment import PayCost, PayResources
from referee.model.play.process import Choices, get_basic_rune_ability, get_cancellation, process_activate, process_play
from referee.model.play.state import DOMAINS, MAIN_DECK, RUNE_DECK, TRASH, Pool
from referee.specs.trace import covers


@covers("play:414.1.b")
def test_414_1_b_exhausted_object_cannot_be_exhausted_again():
    state = make_state(unit("tired", exhausted=True))
    after, done = process_exhaust(state, "tired")
    assert not done and after is state


@covers("play:414.1.b", "play:164.2.a")
def test_414_1_b_exhausted_rune_cannot_use_its_first_ability_until_readied():
    state = make_state(rune("r", exhausted=True))
    result = process_activate(state, "r", get_basic_rune_ability("exhaust"), (PayCost(0),))
    assert not result.legal and result.state is state
    ready = make_state(rune("r"))
    assert process_activate(ready, "r", get_basic_rune_ability("exhaust"), (PayCost(0),)).legal


@covers("play:414.4", "play:358.2", "play:358.5")
def test_414_4_exhausted_friendly_unit_is_not_paid_as_the_additional_cost():
    """The seed's example: "you may exhaust a friendly unit"; an exhausted one may not be exhausted again."""
    state = make_state(card("spell", "spell"), unit("tired", exhausted=True), energy=1)
    plan = (PayCost(0, ("tired",)), PayResources())
    result = process_play(state, "spell", MAY_EXHAUST_A_FRIENDLY_UNIT, Choices((True,)), plan)
    assert not result.legal and result.state is state
    assert get_cancellation(result).causes == ("414.4",)


@covers("play:414.4", "play:355.1.a")
def test_414_4_ready_friendly_unit_pays_it_and_skipping_it_is_fine():
    state = make_state(card("spell", "spell"), unit("fresh"), unit("tired", exhausted=True), energy=2)
    paid = process_play(state, "spell", MAY_EXHAUST_A_FRIENDLY_UNIT, Choices((True,)), (PayCost(0, ("fresh",)), PayResources()))
    assert paid.legal and paid.state.get("fresh").exhausted
    skipped = process_play(state, "spell", MAY_EXHAUST_A_FRIENDLY_UNIT, Choices((False,)), (PayResources(),))
    assert skipped.legal and not skipped.state.get("fresh").exhausted


@covers("play:414.4")
def test_invalid_414_4_enemy_unit_or_non_unit_is_not_a_friendly_unit():
    state = make_state(unit("enemy", controller=1), rune("r"))
    assert not process_exhaust_friendly_unit(state, "enemy")[1]
    assert not process_exhaust_friendly_unit(state, "r")[1]


@covers("play:414.5", "play:164.2.a")
def test_414_5_exhaust_symbol_is_the_cost_exhaust_this():
    ability = get_basic_rune_ability("exhaust")
    assert [c.kind for c in ability.cost.nonstandard] == ["exhaust_this"]
    assert ability.cost.resources.energy == 0 and ability.reaction


@covers("play:164.2.a")
def test_164_2_a_exhausting_a_rune_adds_one_energy():
    state = make_state(rune("r"))
    result = process_activate(state, "r", get_basic_rune_ability("exhaust"), (PayCost(0),))
    assert result.state.pool == Pool(1) and result.state.get("r").exhausted


@covers("play:164.2.b", "play:416.3")
def test_164_2_b_recycling_a_rune_adds_power_of_its_domain():
    state = make_state(rune("r", "chaos", exhausted=True))
    result = process_activate(state, "r", get_basic_rune_ability("recycle"), (PayCost(0),))
    assert result.legal
    assert result.state.pool.power[DOMAINS.index("chaos")] == 1
    assert result.state.get("r").zone == RUNE_DECK


@covers("play:416.3")
def test_invalid_416_3_recycle_this_needs_the_object_on_the_board():
    state = make_state(rune("r"))
    gone, _ = process_recycle_this(state, "r")
    assert not process_recycle_this(gone, "r")[1]


@covers("play:416.3", "play:203.3")
def test_416_3_vi_cannot_activate_with_an_empty_trash():
    """The seed's example: Vi, Destructive's "Recycle 1 from your trash" with no cards in the trash."""
    state = make_state(unit("vi"), card("h"))
    result = process_activate(state, "vi", VI_DESTRUCTIVE, (PayCost(0, ("h",)),))
    assert not result.legal and result.state is state
    assert get_cancellation(result).causes == ("416.3",)


@covers("play:416.3", "play:202")
def test_416_3_vi_recycles_one_card_each_activation():
    state = make_state(unit("vi"), trash_card("t1"), trash_card("t2"))
    once = process_activate(state, "vi", VI_DESTRUCTIVE, (PayCost(0, ("t1",)),))
    assert once.legal and once.state.get("vi").might_bonus == 1 and once.state.get("t1").zone == MAIN_DECK
    twice = process_activate(once.state, "vi", VI_DESTRUCTIVE, (PayCost(0, ("t2",)),))
    assert twice.state.get("vi").might_bonus == 2
    third = process_activate(twice.state, "vi", VI_DESTRUCTIVE, (PayCost(0, ("t1",)),))
    assert not third.legal


@covers("play:416.3")
def test_invalid_416_3_recycle_needs_exactly_n_distinct_cards_of_yours():
    state = make_state(trash_card("t1"), card("foe_t", "spell", TRASH, controller=1))
    assert not process_recycle_from_trash(state, ("t1", "t1"), 2)[1]
    assert not process_recycle_from_trash(state, ("foe_t",), 1)[1]
    assert process_recycle_from_trash(state, ("t1",), 1)[1]


@covers("play:416.3", "play:164.2.b")
def test_416_3_a_rune_recycled_from_the_trash_goes_to_the_rune_deck_as_recycle_this_sends_it():
    """PLAY-007: a recycled rune goes to its rune deck, any other card to its main deck, whichever cost recycles it."""
    state = make_state(card("tr", "rune", TRASH), trash_card("ts"))
    after, done = process_recycle_from_trash(state, ("tr", "ts"), 2)
    assert done and (after.get("tr").zone, after.get("ts").zone) == (RUNE_DECK, MAIN_DECK)
