"""PLAY-025 (PLAY-008, 203.1, 354): what an object keeps when it changes zone.

The ruleset option ``leave_board_resets`` names the two readings: ``exhausted_only`` (the default) resets only
``exhausted`` off the board (PLAY-008) and keeps the location and the Might bonus in every zone; ``all_board_state``
treats an object in a new zone as a new object, with no board location (0) and no Might bonus (0).

The case, worked by hand: a spell in hand carrying location 1 (a card in hand may, the play rules' legal state)
is played for [1] with the additional cost "kill a friendly unit and discard a unit": u1 on the board at location
2, exhausted, with +1 Might this turn, is killed; h1, a unit in hand at location 1 with +2 Might, is discarded.
- exhausted_only: the spell on the chain keeps location 1; u1 in the trash is ready (PLAY-008) and keeps location 2
  and +1; h1 in the trash keeps location 1 and +2.
- all_board_state: the spell on the chain, u1 and h1 in the trash each have location 0 and +0; u1 is ready.
"""

from __future__ import annotations

import pytest

from referee.examples import play_engine
from referee.rulebooks.play.codec import state_to_json
from referee.rulebooks.play.run import decode_scenario, run
from referee.rulebooks.play.vectors import KILL_AND_DISCARD, PAY, play, scenario
from referee.specs.trace import covers

SPELL = {"oid": "c", "kind": "spell", "location": 1}
KILLED = {"oid": "u1", "kind": "unit", "zone": "board", "location": 2, "exhausted": True, "might_bonus": 1}
DISCARDED = {"oid": "h1", "kind": "unit", "location": 1, "might_bonus": 2}
PLAN = [{"step": "pay_cost", "index": 0, "targets": ["u1"]}, {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY]

EXPECTED = {  # oid -> (zone, location, exhausted, might_bonus), by hand from the module docstring
    "exhausted_only": {"c": ("chain", 1, False, 0), "u1": ("trash", 2, False, 1), "h1": ("trash", 1, False, 2)},
    "all_board_state": {"c": ("chain", 0, False, 0), "u1": ("trash", 0, False, 0), "h1": ("trash", 0, False, 0)},
}


def the_play(reading: str) -> dict:
    return scenario([SPELL, KILLED, DISCARDED], [play(**KILL_AND_DISCARD, plan=PLAN)], energy=1,
                    rules={"leave_board_resets": reading})


def fields_of(objects: list[dict]) -> dict:
    return {o["oid"]: (o["zone"], o["location"], o["exhausted"], o["might_bonus"]) for o in objects}


@covers("play:203.1", "play:354")
@pytest.mark.parametrize("reading", list(EXPECTED))
def test_the_model_moves_each_object_as_the_reading_says(reading):
    state, events = run(decode_scenario(the_play(reading)))
    assert [e.name for e in events] == ["played"]
    assert fields_of(state_to_json(state)["objects"]) == EXPECTED[reading]


@pytest.mark.parametrize("reading", list(EXPECTED))
def test_the_example_engine_agrees(reading):
    observed = play_engine.run_play(the_play(reading))
    assert [e["name"] for e in observed["events"]] == ["played"]
    assert fields_of(observed["state"]["objects"]) == EXPECTED[reading]


def test_a_cancelled_play_changes_nothing_under_either_reading():
    """358.5: with no Energy to pay, the play is undone and every object is as it was, whatever the reading."""
    for reading in EXPECTED:
        data = the_play(reading)
        data["state"]["pool"]["energy"] = 0
        state, events = run(decode_scenario(data))
        assert [e.name for e in events] == ["play_cancelled"]
        assert fields_of(state_to_json(state)["objects"]) == fields_of(data["state"]["objects"])
