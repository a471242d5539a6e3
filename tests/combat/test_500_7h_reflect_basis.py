"""INT-111 as a ruleset option: which number a boss Reflect takes 5% of (500.7h, 500.7i).

500.7h: the Reflect "deals 5% of the damage the attacker actually put on the boss straight back at it, rounded down
but never below 1"; 500.7i: it "reads the hit after the boss's own Armor, Shield, and Insurance". ``reflect_basis =
vitality_lost`` (the default): the Vitality the boss lost. ``after_shield``: what the boss's Shield left (500.1-10),
before the ally redirect (500.1-11), the defy-death rune and the Vitality clamp, so overkill counts. The attacker
``a`` (50 Vitality, no Armor, Insurance or Shield) meets the Reflect below its Armor (500.7j) and loses all of it.
The expectations below are derived by hand from those words.
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

OPTION = "reflect_basis"
READINGS = ("vitality_lost", "after_shield")


def _scenario(reading: str, amount: int, vitality: int = 100, **boss: object) -> dict:
    """``a`` hits the boss ``b`` (the Reflect rune, ``vitality`` of 100) for ``amount``; ``g`` is the boss's ally."""
    board = [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 50, "max_vitality": 50},
             {"uid": "b", "side": 1, "row": 0, "col": 0, "vitality": vitality, "max_vitality": 100, "is_boss": True,
              "reflect": True, **boss},
             {"uid": "g", "side": 1, "row": 0, "col": 1, "vitality": 50, "max_vitality": 50}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "hit", "source": "a", "target": "b", "amount": amount}]}


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    return {u.uid: u.vitality for u in state.units}, [(e.unit, e.amount, e.other) for e in events if e.name == "reflect"]


@covers("combat:500.7h", "combat:500.7i")
@pytest.mark.parametrize(("reading", "reflected"), [("vitality_lost", 1), ("after_shield", 5)])
def test_overkill_counts_only_after_the_shield(reading, reflected):
    """100 at a boss with 30 Vitality: it loses 30 and dies. vitality_lost: 5% of 30 = 1.5, rounded down 1 (never
    below 1): 1. after_shield: nothing absorbed it, 100 is left after the Shield: 5% of 100 = 5. a: 50 - that."""
    vitality, reflects = _run(_scenario(reading, 100, vitality=30))
    assert reflects == [("b", reflected, "a")] and vitality == {"a": 50 - reflected, "b": 0, "g": 50}


@covers("combat:500.7h", "combat:500.7i", "combat:500.1-11")
@pytest.mark.parametrize(("reading", "reflected"), [("vitality_lost", 2), ("after_shield", 3)])
def test_what_the_ally_redirect_moves_counts_only_after_the_shield(reading, reflected):
    """60 at the boss, whose redirect moves up to 20 of what its Shield left to g (500.1-11, INT-003): the boss loses
    40 (5% = 2), g loses 20; after_shield reads the 60 the (empty) Shield left: 5% of 60 = 3."""
    vitality, reflects = _run(_scenario(reading, 60, redirect_to="g", redirect_cap=20))
    assert reflects == [("b", reflected, "a")] and vitality == {"a": 50 - reflected, "b": 60, "g": 30}


@covers("combat:500.7h", "combat:500.7i", "combat:500.1-10")
@pytest.mark.parametrize("reading", READINGS)
def test_a_shield_is_read_through_under_either_reading(reading):
    """60 at the boss with Shield 20: the Shield absorbs 20 (500.1-10), 40 is left and lost: 5% of 40 = 2 either way."""
    vitality, reflects = _run(_scenario(reading, 60, shield=20))
    assert reflects == [("b", 2, "a")] and vitality == {"a": 48, "b": 60, "g": 50}


@covers("combat:500.7i", "combat:500.1-9")
@pytest.mark.parametrize("reading", READINGS)
def test_a_hit_the_boss_fully_absorbs_reflects_nothing_under_either_reading(reading):
    """20 at the boss with one Insurance point: the point absorbs up to 25 (500.1-9), nothing is left: no Reflect."""
    vitality, reflects = _run(_scenario(reading, 20, insurance=1))
    assert reflects == [] and vitality == {"a": 50, "b": 100, "g": 50}


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading, 100, vitality=30), _scenario(reading, 60, redirect_to="g", redirect_cap=20),
                     _scenario(reading, 60, shield=20), _scenario(reading, 20, insurance=1)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
