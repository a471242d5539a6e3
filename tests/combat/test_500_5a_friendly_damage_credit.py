"""INT-357 as a ruleset option: is damage a unit deals to itself or an ally credited, and does it feed its Feast?

500.5a: "Damage is credited to the unit that dealt it". ``friendly_damage_credit = credited`` (the default): no side
condition, so a unit is credited and fed for damage to itself or an ally as for an enemy. ``enemies_only``: only damage
to an enemy is credited and feeds Feast; a share of damage to the dealer itself or an ally is credited to nobody (it is
still divided off, never handed to another applier). The board below: ``a`` and ``b`` on side 0 (allies), ``e`` on
side 1; ``b`` holds a Shield of 4, nobody has Armor or Insurance. Each expectation is worked by hand from the rules:
credit is the Shield-absorbed damage plus the Vitality lost (500.1-10, 500.1-13, INT-019), Feast the Vitality portion
only (500.1e, 500.5c).
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

OPTION = "friendly_damage_credit"
READINGS = ("credited", "enemies_only")


def _unit(uid: str, side: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, "vitality": 30, "max_vitality": 30, **fields}


def _scenario(reading: str, action: dict) -> dict:
    board = [_unit("a", 0, 0), _unit("b", 0, 1, shield=4), _unit("e", 1, 0)]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board, "actions": [action]}


def _damage(source: str, target: str, amount: int) -> dict:
    return {"kind": "damage", "source": source, "target": target, "amount": amount}


#: A Burn tick of 9 on ``b``, applied 1 by its ally ``a`` (the first applier, the instance's source) and 2 by ``e``.
SHARED_TICK = {"kind": "tick", "target": "b", "amount": 9, "damage_kind": "burn",
               "appliers": [{"unit": "a", "applied": 1}, {"unit": "e", "applied": 2}]}


def _credit(scenario: dict) -> list[tuple[str, str, int, str]]:
    decoded = decode_scenario(scenario)
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    return [(e.name, e.unit, e.amount, e.other) for e in events if e.name in ("credit", "feast")]


@covers("combat:500.5a", "combat:500.1e")
def test_credited_a_hit_on_an_ally_credits_and_feeds_its_dealer():
    """``a`` hits its ally ``b`` for 10: Shield 4 absorbs 4, Vitality 30 -> 24. Credit 4 + 6 = 10, Feast 6 (500.5a
    names no side)."""
    assert _credit(_scenario("credited", _damage("a", "b", 10))) == [("credit", "a", 10, "b"), ("feast", "a", 6, "b")]


@covers("combat:500.5a", "combat:500.1e")
def test_enemies_only_a_hit_on_an_ally_is_credited_to_nobody():
    """The same 10 into the ally: friendly fire, so no credit and no Feast."""
    assert _credit(_scenario("enemies_only", _damage("a", "b", 10))) == []


@covers("combat:500.5a")
@pytest.mark.parametrize(("reading", "events"), [("credited", [("credit", "a", 5, "a"), ("feast", "a", 5, "a")]),
                                                 ("enemies_only", [])])
def test_damage_a_unit_deals_itself(reading, events):
    """``a`` hits itself for 5 (no Shield): Vitality 30 -> 25, credit 5 and Feast 5, or nothing under enemies_only."""
    assert _credit(_scenario(reading, _damage("a", "a", 5))) == events


@covers("combat:500.5a")
@pytest.mark.parametrize("reading", READINGS)
def test_damage_to_an_enemy_is_credited_under_either_reading(reading):
    """``a`` hits the enemy ``e`` for 7: credit 7, Feast 7 whatever the reading."""
    assert _credit(_scenario(reading, _damage("a", "e", 7))) == [("credit", "a", 7, "e"), ("feast", "a", 7, "e")]


@covers("combat:500.5a", "combat:500.5b", "combat:500.5c")
def test_credited_a_shared_tick_on_an_ally_credits_both_appliers():
    """The tick of 9 on ``b`` (Burn ignores Armor, 500.1d): Shield absorbs 4, Vitality loses 5; credited 9. Split 1:2
    (500.5b): a 9 * 1/3 = 3, e 9 * 2/3 = 6, exact. Feast 5 by the credit shares 3:6 (500.5c, INT-352): floors
    15/9 -> 1 and 30/9 -> 3, one point left, remainders 15 - 9 = 6 and 30 - 27 = 3, so it goes to a: a 2, e 3."""
    assert _credit(_scenario("credited", SHARED_TICK)) == [
        ("credit", "a", 3, "b"), ("credit", "e", 6, "b"), ("feast", "a", 2, "b"), ("feast", "e", 3, "b")]


@covers("combat:500.5a", "combat:500.5b", "combat:500.5c")
def test_enemies_only_a_shared_tick_credits_only_the_enemy_applier():
    """The same split; ``a`` is ``b``'s ally, so its share (credit 3, Feast 2) is credited to nobody and ``e`` keeps
    exactly its own share: credit 6, Feast 3 (nothing handed over)."""
    assert _credit(_scenario("enemies_only", SHARED_TICK)) == [("credit", "e", 6, "b"), ("feast", "e", 3, "b")]


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for action in (_damage("a", "b", 10), _damage("a", "a", 5), _damage("a", "e", 7), SHARED_TICK):
        scenario = _scenario(reading, action)
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
