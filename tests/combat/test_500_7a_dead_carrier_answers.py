"""INT-116 as a ruleset option: does a carrier the hit killed still answer it (500.7a, 500.4b)?

500.7a: Thorns and Riposte "answer the same event: any hostile damage event against the unit carrying them";
``dead_carrier_answers = answers`` (the default) reads that the event happened to a carrier, so a carrier the hit
killed still answers it (500.4b clears its combat state, not its printed runes). ``silent``: a dead unit's runes are
gone, so a carrier the instance killed answers nothing: no Thorns, no Riposte and no roll taken, no Retort, no
Reflect (500.7h). The expectations below are derived by hand from those words.
"""

from __future__ import annotations

import json

import pytest

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "dead_carrier_answers"
READINGS = ("answers", "silent")


def _unit(uid: str, side: int, col: int = 0, vitality: int = 50, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, "vitality": vitality,
            "max_vitality": max(vitality, 50), **fields}


def _scenario(reading: str, board: list[dict], target: str, amount: int, rolls: list[bool]) -> dict:
    hit = {"kind": "hit", "source": "a", "target": target, "amount": amount, "riposte_rolls": rolls}
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board, "actions": [hit]}


def _carrier(reading: str, vitality: int = 10, vessels: int = 0) -> dict:
    """``a`` (50 Vitality, no Armor) hits ``r`` (Thorns 3, Riposte 2, Retort 4) for 10; Riposte's roll is True."""
    board = [_unit("a", 0), _unit("r", 1, vitality=vitality, thorns=3, riposte=2, retort=4, vessels=vessels)]
    return _scenario(reading, board, "r", 10, [True])


def _boss(reading: str, vitality: int) -> dict:
    """``a`` hits a boss holding the Reflect rune for 40."""
    board = [_unit("a", 0), _unit("b", 1, vitality=vitality, is_boss=True, reflect=True)]
    return _scenario(reading, board, "b", 40, [])


def _redirected(reading: str) -> dict:
    """``a`` hits ``r`` (10 Vitality, Riposte 2, redirect cap 5 to ``g``) for 15; ``g`` holds Riposte 3; rolls
    False then True, one sequence for both units (500.1g, INT-113)."""
    board = [_unit("a", 0), _unit("r", 1, vitality=10, riposte=2, redirect_to="g", redirect_cap=5),
             _unit("g", 1, col=1, vitality=30, riposte=3)]
    return _scenario(reading, board, "r", 15, [False, True])


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    answers = {"thorns", "riposte", "riposte_missed", "retort", "reflect", "cost_refused"}
    return ({u.uid: u.vitality for u in state.units},
            [(e.name, e.unit, e.amount, e.other) for e in events if e.name in answers])


@covers("combat:500.7a", "combat:500.7b", "combat:500.7f", "combat:500.4b")
def test_answers_a_carrier_the_hit_killed_answers_it():
    """r has 10 and takes 10: it dies (500.4a). Its runes answer the event all the same: Thorns 3 (500.7b), Riposte 2
    on the True roll (500.7b), Retort 4 on damage that landed (500.7f): a pays 3 + 2 + 4 = 9, 50 - 9 = 41."""
    vitality, answers = _run(_carrier("answers"))
    assert vitality == {"a": 41, "r": 0}
    assert answers == [("thorns", "a", 3, "r"), ("riposte", "a", 2, "r"), ("retort", "a", 4, "r")]


@covers("combat:500.7a", "combat:500.4b")
def test_silent_a_carrier_the_hit_killed_answers_nothing():
    """The same hit kills r; its runes are gone with it: a pays nothing and keeps 50."""
    vitality, answers = _run(_carrier("silent"))
    assert vitality == {"a": 50, "r": 0} and answers == []


@covers("combat:500.7a", "combat:500.4d", "combat:500.9f")
@pytest.mark.parametrize(("reading", "attacker", "answered"), [("answers", 41, 3), ("silent", 50, 0)])
def test_a_carrier_a_vessel_revives_at_once_is_still_the_one_the_hit_killed(reading, attacker, answered):
    """r holds a Vessel: it dies, then revives at full (500.4d, 500.9c: 50). The hit killed it: under silent its
    runes answered nothing (a pays 0); under answers a pays 9 (41), in three answers."""
    vitality, answers = _run(_carrier(reading, vessels=1))
    assert vitality == {"a": attacker, "r": 50} and len(answers) == answered


@covers("combat:500.7a")
@pytest.mark.parametrize("reading", READINGS)
def test_a_carrier_the_hit_did_not_kill_answers_under_either_reading(reading):
    """r has 20 and takes 10 (10 left): alive, it answers 3 + 2 + 4 = 9 under either reading: a keeps 41."""
    vitality, answers = _run(_carrier(reading, vitality=20))
    assert vitality == {"a": 41, "r": 10} and len(answers) == 3


@covers("combat:500.7h", "combat:500.7i", "combat:500.4b")
@pytest.mark.parametrize(("reading", "vitality", "attacker"),
                         [("answers", 40, 48), ("silent", 40, 50), ("answers", 100, 48), ("silent", 100, 48)])
def test_a_boss_the_hit_killed_reflects_only_under_answers(reading, vitality, attacker):
    """40 lands on the boss: 5% of 40 = 2 back at a, below its Armor (500.7h, 500.7j): 50 - 2 = 48. A boss with 40
    dies of it and under silent reflects nothing (a keeps 50); a boss with 100 lives and reflects either way."""
    result, answers = _run(_boss(reading, vitality))
    assert result["a"] == attacker
    assert answers == ([("reflect", "b", 2, "a")] if attacker == 48 else [])


@covers("combat:500.7a", "combat:500.7b", "combat:500.1g", "combat:500.1-11")
@pytest.mark.parametrize(("reading", "attacker", "answers"), [
    ("answers", 47, [("riposte_missed", "a", 0, "r"), ("riposte", "a", 3, "g")]),
    ("silent", 50, [("riposte_missed", "a", 0, "g")]),
])
def test_a_silent_carrier_takes_no_riposte_roll(reading, attacker, answers):
    """15 at r; the redirect moves 5 to g (up to its cap, 500.1-11), r takes 10 of its 10 and dies, g takes 5 (25
    left). r answers first, then g, sharing the rolls (500.1g, INT-113). answers: r's Riposte takes roll 1 (False:
    missed), g's takes roll 2 (True): a pays 3, 47. silent: r rolls nothing, g takes roll 1 (False): a keeps 50."""
    vitality, got = _run(_redirected(reading))
    assert (vitality["a"], vitality["r"], vitality["g"]) == (attacker, 0, 25) and got == answers


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_carrier(reading), _carrier(reading, vessels=1), _carrier(reading, vitality=20),
                     _boss(reading, 40), _boss(reading, 100), _redirected(reading)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
