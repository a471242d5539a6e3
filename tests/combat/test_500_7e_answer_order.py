"""INT-110 as a ruleset option: in what order one carrier answers the several attackers of one event (500.7e).

500.7e: Thorns and Riposte "fire once per damaging source per event, so a tick attributed to several enemies retaliates
against each of them"; 500.7b and 500.7f give each attacker Thorns, a Riposte roll and Retort. ``answer_order =
per_attacker`` (the default): each attacker in attribution order gets Thorns, then Riposte, then Retort. ``per_kind``:
every attacker's Thorns, then every Riposte, then every Retort. The sides are checked before either fires (500.6h):
an ally applier's refusal comes in the first pass, at its place. The expectations below are derived by hand.
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

OPTION = "answer_order"
READINGS = ("per_attacker", "per_kind")
CHANNELS = ("thorns", "riposte", "riposte_missed", "retort", "cost_refused")


def _scenario(reading: str, appliers: tuple[str, ...] = ("a", "b"), rolls: tuple[bool, ...] = (True, False)) -> dict:
    """A Burn tick of 10 on ``r`` (Thorns 2, Riposte 3, Retort 4), 5 applied by each applier; ``a`` and ``b`` are
    its enemies, ``g`` its ally."""
    board = [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 50, "max_vitality": 50},
             {"uid": "b", "side": 0, "row": 0, "col": 1, "vitality": 50, "max_vitality": 50},
             {"uid": "r", "side": 1, "row": 0, "col": 0, "vitality": 50, "max_vitality": 50, "thorns": 2,
              "riposte": 3, "retort": 4},
             {"uid": "g", "side": 1, "row": 0, "col": 1, "vitality": 50, "max_vitality": 50}]
    tick = {"kind": "tick", "target": "r", "amount": 10, "damage_kind": "burn", "riposte_rolls": list(rolls),
            "appliers": [{"unit": uid, "applied": 5} for uid in appliers]}
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board, "actions": [tick]}


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    return {u.uid: u.vitality for u in state.units}, [(e.name, e.unit) for e in events if e.name in CHANNELS]


@covers("combat:500.7e", "combat:500.7b", "combat:500.7f")
@pytest.mark.parametrize(("reading", "answers"), [
    ("per_attacker", [("thorns", "a"), ("riposte", "a"), ("retort", "a"),
                      ("thorns", "b"), ("riposte_missed", "b"), ("retort", "b")]),
    ("per_kind", [("thorns", "a"), ("thorns", "b"), ("riposte", "a"), ("riposte_missed", "b"),
                  ("retort", "a"), ("retort", "b")]),
])
def test_the_answers_come_in_the_reading_s_order(reading, answers):
    """The tick lands 10 on r (Burn ignores Armor; no Shield): a damage event that landed (500.7c, 500.7f), attributed
    to a and b. Riposte's rolls go to a then b under either order (True, False): a pays 2 + 3 + 4 = 9 (41), b pays
    2 + 4 = 6 (44); only the order of the answers differs."""
    vitality, got = _run(_scenario(reading))
    assert got == answers and (vitality["a"], vitality["b"], vitality["r"]) == (41, 44, 40)


@covers("combat:500.7e", "combat:500.6h")
@pytest.mark.parametrize(("reading", "answers"), [
    ("per_attacker", [("thorns", "a"), ("riposte", "a"), ("retort", "a"), ("cost_refused", "g"),
                      ("thorns", "b"), ("riposte", "b"), ("retort", "b")]),
    ("per_kind", [("thorns", "a"), ("cost_refused", "g"), ("thorns", "b"), ("riposte", "a"), ("riposte", "b"),
                  ("retort", "a"), ("retort", "b")]),
])
def test_an_ally_applier_is_refused_at_its_place_in_the_first_pass(reading, answers):
    """Appliers a, g (r's ally: refused, no roll, 500.6h) and b; rolls True, True go to a and b."""
    vitality, got = _run(_scenario(reading, ("a", "g", "b"), (True, True)))
    assert got == answers and (vitality["a"], vitality["b"], vitality["g"]) == (41, 41, 50)


@covers("combat:500.7e")
@pytest.mark.parametrize("reading", READINGS)
def test_one_attacker_is_answered_alike_under_either_reading(reading):
    """A tick a alone applied: Thorns, Riposte (True), Retort, in that order: a pays 9 (41)."""
    vitality, got = _run(_scenario(reading, ("a",), (True,)))
    assert got == [("thorns", "a"), ("riposte", "a"), ("retort", "a")] and vitality["a"] == 41


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading), _scenario(reading, ("a", "g", "b"), (True, True)),
                     _scenario(reading, ("a",), (True,))):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
