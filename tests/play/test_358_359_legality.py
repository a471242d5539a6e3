"""350.1, 354, 355.2, 358 Check legality and undo, 359.2.c a played unit enters exhausted."""

from __future__ import annotations

from referee.model.play.cost import CostComponent, NonStandardCost, ResourceCost
from referee.model.play.examples import card, make_state, rune, trash_card, unit
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import (
    CardText,
    Choices,
    get_cancellation,
    is_played,
    process_move_to_chain,
    process_play,
)
from referee.model.play.state import BOARD, CHAIN, HAND, TRASH
from referee.specs.trace import covers

UNIT = CardText(cost=CostComponent(ResourceCost.of(1)))
SPELL = CardText(cost=CostComponent(ResourceCost.of(1)))


@covers("play:354")
def test_354_card_moves_from_hand_to_chain_first():
    state = make_state(card("u"))
    assert process_move_to_chain(state, "u").get("u").zone == CHAIN


@covers("play:354", "play:358.5")
def test_invalid_354_card_not_in_hand_cannot_be_played():
    state = make_state(trash_card("s"), energy=1)
    result = process_play(state, "s", SPELL, Choices(), (PayResources(),))
    assert get_cancellation(result).check == "354"
    assert result.state is state and result.state.get("s").zone == TRASH


@covers("play:354")
def test_invalid_354_opponents_card_cannot_be_played():
    state = make_state(card("s", "spell", HAND, controller=1), energy=1)
    result = process_play(state, "s", SPELL, Choices(), (PayResources(),))
    assert get_cancellation(result).check == "354"


@covers("play:355.2", "play:359.2.c")
def test_355_2_unit_enters_at_the_chosen_location():
    state = make_state(card("u"), energy=1, location_count=3)
    result = process_play(state, "u", UNIT, Choices(location=2), (PayResources(),))
    assert result.state.get("u").zone == BOARD and result.state.get("u").location == 2


@covers("play:355.2", "play:358.5")
def test_invalid_355_2_location_that_does_not_exist():
    state = make_state(card("u"), energy=1, location_count=3)
    for location in (-1, 3):
        result = process_play(state, "u", UNIT, Choices(location=location), (PayResources(),))
        assert get_cancellation(result).check == "355.2"
        assert result.state is state


@covers("play:355.2")
def test_355_2_a_spell_needs_no_location():
    state = make_state(card("s", "spell"), energy=1)
    assert process_play(state, "s", SPELL, Choices(location=99), (PayResources(),)).legal


@covers("play:358.2")
def test_358_2_all_costs_paid_passes_the_check():
    state = make_state(card("u"), energy=1)
    result = process_play(state, "u", UNIT, Choices(), (PayResources(),))
    assert dict(result.checks)["358.2"] is True
    assert get_cancellation(result) is None


@covers("play:358.2", "play:358.5")
def test_358_5_every_action_of_the_process_is_undone():
    """Rune exhausted, rune recycled, unit killed, card on the chain: all of it undone when a check fails."""
    text = CardText(
        cost=CostComponent(ResourceCost.of(3)),
        additional=(CostComponent(nonstandard=(NonStandardCost("kill_friendly_unit"),)),),
    )
    state = make_state(card("u"), rune("r1"), rune("r2"), unit("ally"))
    plan = (UseRune("r1", "exhaust"), UseRune("r2", "exhaust"), PayCost(0, ("ally",)), PayResources())
    result = process_play(state, "u", text, Choices((True,)), plan)
    assert not result.legal
    assert result.state is state
    assert result.payment.state.get("ally").zone == TRASH  # what was done, before the undo
    assert result.payment.state.get("r1").exhausted


@covers("play:359.2.c")
def test_359_2_c_played_unit_enters_exhausted():
    state = make_state(card("u"), energy=1)
    entered = process_play(state, "u", UNIT, Choices(location=1), (PayResources(),)).state.get("u")
    assert (entered.zone, entered.location, entered.exhausted) == (BOARD, 1, True)


@covers("play:350.1")
def test_350_1_played_only_after_the_whole_process():
    state = make_state(card("u"), energy=1)
    assert is_played(process_play(state, "u", UNIT, Choices(), (PayResources(),)))
    assert not is_played(process_play(state, "u", UNIT, Choices(), ()))


@covers("play:350.1")
def test_350_1_a_played_spell_waits_on_the_chain():
    state = make_state(card("s", "spell"), energy=1)
    assert process_play(state, "s", SPELL, Choices(), (PayResources(),)).state.get("s").zone == CHAIN


def test_invalid_objects_name_their_bad_field():
    import pytest

    from referee.model.play.state import GameObject

    with pytest.raises(ValueError, match="object 'x': unknown kind 'wizard'"):
        GameObject("x", "wizard")
    with pytest.raises(ValueError, match="object 'x': unknown domain 'purple'"):
        GameObject("x", "rune", domain="purple")
    with pytest.raises(ValueError, match="duplicate object id"):
        make_state(card("a"), card("a"))
