"""INT-411 as a ruleset option: when in its next activation a unit's Reliquary Speed is cleared (500.9l).

``reliquary_clear_point = start`` (the default): the activation clears it as it begins, before its cost. ``after_cost``:
once the Bloodletting cost is paid ("Before activation, the listed vitality is paid", 800.4), at once for an activation
with no cost; a failed ability (800.4d) never activated and clears nothing. ``end``: once the activation has resolved,
any Speed granted during it included. The scenario that tells them apart is a revival inside the activation: a caster
holding Speed 3 from an earlier revival, a Reliquary rune of 7 and a Vessel, pays its own lethal Bloodletting cost of
10 from 5 Vitality, dies, and its Vessel revives it at once with Speed 7 (500.9b, 500.9l). Every expectation below is
derived by hand from those words.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.cli.app import app
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "reliquary_clear_point"
READINGS = ("start", "after_cost", "end")


def _unit(uid: str, side: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, **fields}


def _caster(**fields: object) -> dict:
    return _unit("c", 0, 0, **{"vitality": 5, "max_vitality": 30, "vessels": 1, "reliquary": 7, "reliquary_speed": 3,
                               **fields})


def _bloodletting(reading: str, cost: int = 10, **caster: object) -> dict:
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": [_caster(**caster), _unit("e", 1, 0, vitality=40)],
            "actions": [{"kind": "bloodletting", "caster": "c", "cost": cost, "hits": [{"target": "e", "amount": 4}]}]}


def _ability(reading: str) -> dict:
    """No cost: a plain hit by a caster holding Speed 3."""
    lines = [{"effect": "damage", "amount": 4}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": [_caster(), _unit("e", 1, 0, vitality=40)],
            "actions": [{"kind": "ability", "caster": "c", "targets": ["e"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[int, list[tuple[str, int]]]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    keep = ("reliquary_cleared", "bloodletting_paid", "vessel_revival", "damage_taken", "activation_failed")
    return state.unit("c").reliquary_speed, [(e.name, e.amount) for e in events if e.name in keep]


@covers("combat:500.9l", "combat:800.4a", "combat:800.4j")
def test_start_clears_the_old_speed_first_and_the_revival_s_speed_stands():
    speed, events = _run(_bloodletting("start"))
    assert speed == 7
    assert events == [("reliquary_cleared", 3), ("bloodletting_paid", 5), ("vessel_revival", 0), ("damage_taken", 4)]


@covers("combat:500.9l", "combat:800.4a", "combat:800.4j")
def test_after_cost_clears_the_revival_s_speed_once_the_cost_is_paid():
    speed, events = _run(_bloodletting("after_cost"))
    assert speed == 0  # the old 3 stood through the payment; the revival set 7; the activation then cleared it
    assert events == [("bloodletting_paid", 5), ("vessel_revival", 0), ("reliquary_cleared", 7), ("damage_taken", 4)]


@covers("combat:500.9l", "combat:800.4j")
def test_end_clears_the_revival_s_speed_once_the_activation_resolved():
    speed, events = _run(_bloodletting("end"))
    assert speed == 0
    assert events == [("bloodletting_paid", 5), ("vessel_revival", 0), ("damage_taken", 4), ("reliquary_cleared", 7)]


@covers("combat:500.9l", "combat:800.4d")
def test_a_failed_ability_clears_nothing_after_its_cost_but_clears_at_its_end():
    """A defied payment that moves nothing fails the ability (800.4d, INT-103): no activation after the cost."""
    failed = {"vitality": 1, "defy_death": True, "vessels": 0}
    assert _run(_bloodletting("after_cost", **failed)) == (3, [("activation_failed", 0)])
    assert _run(_bloodletting("end", **failed)) == (0, [("activation_failed", 0),
                                                        ("reliquary_cleared", 3)])


@pytest.mark.parametrize(("reading", "expected"), [
    ("start", [("reliquary_cleared", 3), ("damage_taken", 4)]),
    ("after_cost", [("reliquary_cleared", 3), ("damage_taken", 4)]),  # no cost to wait for: cleared as it begins
    ("end", [("damage_taken", 4), ("reliquary_cleared", 3)]),
])
def test_an_ability_with_no_cost(reading, expected):
    assert _run(_ability(reading)) == (0, expected)


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("build", [_bloodletting, _ability])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, build):
    scenario = build(reading)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)


@pytest.mark.parametrize("reading", ["after_cost", "end"])
def test_check_under_each_reading_passes_the_example_engine_on_activations(reading, tmp_path):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--ruleset",
                                      f"{OPTION}={reading}", "--kinds", "ability,bloodletting", "--examples", "300",
                                      "--seed", "5", "--database", str(tmp_path / "db")])
    assert result.exit_code == 0, result.output[-2000:]


def test_a_query_tells_the_readings_apart():
    """A caster revived during its own Bloodletting activation by a Vessel, with a Reliquary rune, ends with no Speed
    only where the activation clears it after the revival: never under start, which cleared before the cost."""
    question = 'event("vessel_revival", unit="source") and source.reliquary > 0 and after.source.reliquary_speed == 0'
    base = ("query", question, "--action", "bloodletting:caster=source,target=target", "--units", "2",
            "--source", "enemy")
    verdicts = {r: CliRunner().invoke(app, [*base, "--ruleset", f"{OPTION}={r}"]).output.split(":")[0] for r in READINGS}
    assert verdicts == {"start": "impossible", "after_cost": "found", "end": "found"}, verdicts
