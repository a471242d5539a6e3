"""INT-201 as a ruleset option: the lane of a line that prints none (400.8-2).

400.8-2 places each line "into a lane using 400.7", which the seeds leave out; the worked example names the
activation lane, the hit and the post-damage riders resolving "in printed order (400.7)". ``unlaned_rider_lane =
after_hit`` (the default): a line other than damage that prints no lane rides on the hit's result, after it. ``hit``:
it resolves in the hit lane with the damage, in printed order. Under both a damage line printing none is the hit, and
Crush, Maim, Cull and Bloodletting keep their forced lanes.

The board: the caster ``c`` (side 0) and ``t`` (side 1) at 8 of 40 Vitality. The ability, printed in this order with
no lanes: "Burn 2 / Deal 10 damage". By hand: after_hit, the hit lane comes first (400.8-2): 10 damage takes ``t``
8 -> 0 and kills it, then the Burn meets a dead target and is refused (400.8-5: line_refused, dead), ``t`` has 0 Burn.
hit: both lines are in the hit lane, in printed order: the Burn gives ``t`` 2 stacks (400.8-6), then the hit kills
it (status_applied, then the death).

A second board tells the readings apart for a rider printed after the damage: "Deal 3 damage / Restore 5 vitality to
the caster per Burning enemy (printed post-damage) / Burn 2", the caster at 20 of 30. after_hit: the hit takes ``t``
8 -> 5; then the post-damage lane in printed order: the Restore counts Burning enemies as it resolves (400.8-3, 400.8a):
none, 5 x 0 = 0 (no minimum, 400.8c); then the Burn. hit: the hit lane in printed order, the damage then the Burn
(``t`` Burning); then the post-damage Restore counts one Burning enemy: 5 x 1 = 5 restored to ``c``.
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

OPTION = "unlaned_rider_lane"
READINGS = ("after_hit", "hit")
BURN_THEN_HIT = [{"effect": "burn", "amount": 2}, {"effect": "damage", "amount": 10}]
#: "Deal 3 damage / Restore 5 to the caster per Burning enemy (post-damage) / Burn 2", the Burn printing no lane.
HIT_RESTORE_BURN = [{"effect": "damage", "amount": 3},
                    {"effect": "restore", "amount": 5, "lane": "after_hit", "to": "caster", "per": "burning_enemy"},
                    {"effect": "burn", "amount": 2}]
#: "Deal 10 damage / Crush 3", no lanes: Crush always lands before the hit (400.8-2), under either reading.
HIT_THEN_CRUSH = [{"effect": "damage", "amount": 10}, {"effect": "crush", "amount": 3}]


def _scenario(reading: str, lines: list[dict], caster_vitality: int = 30) -> dict:
    board = [{"uid": "c", "side": 0, "row": 0, "col": 0, "vitality": caster_vitality, "max_vitality": 30},
             {"uid": "t", "side": 1, "row": 0, "col": 0, "vitality": 8, "max_vitality": 40}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "c", "targets": ["t"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> list[tuple[str, str | None, object]]:
    decoded = decode_scenario(scenario)
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    wanted = ("line_resolved", "line_refused", "status_applied", "death")
    return [(e.name, e.unit, e.detail if e.name != "death" else None) for e in events if e.name in wanted]


@covers("combat:400.8-2", "combat:400.8-5")
def test_after_hit_the_unlaned_burn_meets_the_target_the_hit_killed():
    assert _run(_scenario("after_hit", BURN_THEN_HIT)) == [
        ("line_resolved", "c", "damage"), ("death", "t", None), ("line_resolved", "c", "burn"),
        ("line_refused", "t", "dead")]


@covers("combat:400.8-2", "combat:400.8-6")
def test_hit_the_unlaned_burn_resolves_in_printed_order_before_the_damage():
    assert _run(_scenario("hit", BURN_THEN_HIT)) == [
        ("line_resolved", "c", "burn"), ("status_applied", "t", "burn"), ("line_resolved", "c", "damage"),
        ("death", "t", None)]


@covers("combat:400.8-2", "combat:400.8a", "combat:400.8c")
@pytest.mark.parametrize(("reading", "resolved"), [
    ("after_hit", [("damage", 3), ("restore", 0), ("burn", 2)]),
    ("hit", [("damage", 3), ("burn", 2), ("restore", 5)])])
def test_an_unlaned_rider_printed_after_the_hit_meets_a_post_damage_count(reading, resolved):
    """The Restore's count of Burning enemies sees the unlaned Burn only where the Burn resolves in the hit lane."""
    decoded = decode_scenario(_scenario(reading, HIT_RESTORE_BURN, caster_vitality=20))
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    assert [(e.detail, e.amount) for e in events if e.name == "line_resolved"] == resolved
    restored = [(e.unit, e.amount) for e in events if e.name == "vitality_restored"]
    assert restored == ([("c", 5)] if reading == "hit" else [])


@covers("combat:400.8-2")
@pytest.mark.parametrize("reading", READINGS)
def test_a_forced_lane_is_the_same_under_either_reading(reading):
    """Crush lowers Armor before the hit (0 -> -3), then the 10 damage kills ``t``."""
    assert _run(_scenario(reading, HIT_THEN_CRUSH)) == [
        ("line_resolved", "c", "crush"), ("status_applied", "t", "crush"), ("line_resolved", "c", "damage"),
        ("death", "t", None)]


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading, BURN_THEN_HIT), _scenario(reading, HIT_THEN_CRUSH),
                     _scenario(reading, HIT_RESTORE_BURN, caster_vitality=20)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
