"""INT-123 as a ruleset option: is it only retaliation into a boss that feeds no Feast, or any Vitality a boss loses?

500.6f: "The retaliating unit is credited with the Vitality it took. Against a normal unit that Vitality also feeds its
own Feast; against a boss it scores as damage dealt but feeds no Feast." ``boss_feast_exclusion = retaliation_only``
(the default): the exception is the retaliation's; a damage instance into a boss feeds Feast from the Vitality it took
(500.1e, 500.5c) like any other. ``all_boss_vitality``: Vitality taken from a boss never feeds Feast, whatever took
it; the credit stays (500.6f: 'scores as damage dealt'). The board below: ``a`` and ``c`` on side 0; the boss ``b``
(Shield 3) and ``e`` on side 1; no Armor or Insurance anywhere. Each expectation is worked by hand.
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

OPTION = "boss_feast_exclusion"
READINGS = ("retaliation_only", "all_boss_vitality")
NAMES = ("credit", "feast", "phasebreak_check", "stagger")


def _unit(uid: str, side: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, "vitality": 30, "max_vitality": 30, **fields}


def _scenario(reading: str, action: dict) -> dict:
    board = [_unit("a", 0, 0), _unit("c", 0, 1), _unit("b", 1, 0, is_boss=True, shield=3), _unit("e", 1, 1)]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board, "actions": [action]}


HIT_ON_BOSS = {"kind": "damage", "source": "a", "target": "b", "amount": 10}
#: A Venom tick of 11 on the boss, applied 1 each by ``a`` (the first applier, the instance's source) and ``c``.
TICK_ON_BOSS = {"kind": "tick", "target": "b", "amount": 11, "damage_kind": "venom",
                "appliers": [{"unit": "a", "applied": 1}, {"unit": "c", "applied": 1}]}
RETALIATION_FROM_BOSS = {"kind": "cost", "payer": "b", "amount": 4, "cost_kind": "retaliation", "beneficiary": "a"}


def _events(scenario: dict) -> list[tuple[str, str, int, str]]:
    decoded = decode_scenario(scenario)
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    return [(e.name, e.unit, e.amount, e.other) for e in events if e.name in NAMES]


@covers("combat:500.6f", "combat:500.5a", "combat:500.1e", "combat:500.6g")
def test_retaliation_only_a_hit_into_a_boss_feeds_its_source():
    """``a`` hits the boss for 10: Shield 3 absorbs 3, Vitality 30 -> 23. Credit 3 + 7 = 10, Feast the 7 Vitality
    (500.1e); the boss checks Phasebreak on the 7 lost and its Stagger advances by the 10 dealt (500.6g)."""
    assert _events(_scenario("retaliation_only", HIT_ON_BOSS)) == [
        ("credit", "a", 10, "b"), ("feast", "a", 7, "b"), ("phasebreak_check", "b", 7, "a"), ("stagger", "b", 10, "a")]


@covers("combat:500.6f", "combat:500.5a", "combat:500.6g")
def test_all_boss_vitality_a_hit_into_a_boss_is_credited_but_feeds_no_feast():
    """The same hit: credited 10 and the boss's meters as before, but the 7 Vitality feeds no Feast."""
    assert _events(_scenario("all_boss_vitality", HIT_ON_BOSS)) == [
        ("credit", "a", 10, "b"), ("phasebreak_check", "b", 7, "a"), ("stagger", "b", 10, "a")]


@covers("combat:500.6f", "combat:500.5b", "combat:500.5c")
@pytest.mark.parametrize(("reading", "feasts"), [("retaliation_only", [("feast", "a", 4, "b"), ("feast", "c", 4, "b")]),
                                                 ("all_boss_vitality", [])])
def test_a_shared_tick_on_a_boss(reading, feasts):
    """Venom ignores Armor (500.1d): Shield absorbs 3, Vitality loses 8; credited 11. Split 1:1 (500.5b): floors 5
    and 5, one point left, equal remainders, so the earlier applier takes it: a 6, c 5. Feast 8 by the credit shares
    6:5 (500.5c, INT-352): floors 48/11 -> 4 and 40/11 -> 3, remainders 48 - 44 = 4 and 40 - 33 = 7, so the point
    goes to c: a 4, c 4; none under all_boss_vitality. A tick is not direct damage: no Stagger (500.6g)."""
    assert _events(_scenario(reading, TICK_ON_BOSS)) == [
        ("credit", "a", 6, "b"), ("credit", "c", 5, "b"), *feasts, ("phasebreak_check", "b", 8, "a")]


@covers("combat:500.6f", "combat:500.6g")
@pytest.mark.parametrize("reading", READINGS)
def test_a_retaliation_into_a_boss_feeds_no_feast_under_either_reading(reading):
    """The boss pays a retaliation of 4 to ``a``: credited 4, no Feast (500.6f), a Phasebreak check, no Stagger."""
    assert _events(_scenario(reading, RETALIATION_FROM_BOSS)) == [("credit", "a", 4, "b"), ("phasebreak_check", "b", 4, "a")]


@covers("combat:500.5a", "combat:500.1e")
@pytest.mark.parametrize("reading", READINGS)
def test_a_hit_into_a_normal_unit_feeds_under_either_reading(reading):
    """``a`` hits ``e`` (no Shield) for 10: credit 10, Feast 10."""
    action = {**HIT_ON_BOSS, "target": "e"}
    assert _events(_scenario(reading, action)) == [("credit", "a", 10, "e"), ("feast", "a", 10, "e")]


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for action in (HIT_ON_BOSS, TICK_ON_BOSS, RETALIATION_FROM_BOSS, {**HIT_ON_BOSS, "target": "e"}):
        scenario = _scenario(reading, action)
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
