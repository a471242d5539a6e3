"""INT-122 as a ruleset option: whose Bloodletting reduction runes lower a cost, and how several combine (800.4l).

800.4l: "A Bloodletting reduction rune lowers the cost before a payer is chosen." ``bloodletting_reduction_scope =
caster_only`` (the default): the caster's own rune. ``side_sum``: every living unit's rune on the caster's side, added.
``side_largest``: the largest of them. The board below: the caster ``c`` (rune 1) at column 1, an ally ``a`` (rune 2)
first in reading order at column 0 (so ``a`` pays, 800.4b), a dead ally ``d`` (rune 4), an enemy ``e`` (rune 5, on the
other side, never counted). A printed cost of 10. By hand: caster_only 10 - 1 = 9; side_sum 10 - (1 + 2) = 7 (the dead
rune and the enemy's do not count); side_largest 10 - 2 = 8. A cost reduced to 0 skips the step (800.4m).
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

OPTION = "bloodletting_reduction_scope"
READINGS = ("caster_only", "side_sum", "side_largest")


def _unit(uid: str, side: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, "vitality": 30, "max_vitality": 30, **fields}


def _scenario(reading: str, cost: int = 10) -> dict:
    board = [_unit("a", 0, 0, bloodletting_reduction=2), _unit("c", 0, 1, bloodletting_reduction=1),
             _unit("d", 0, 2, bloodletting_reduction=4, alive=False, vitality=0),
             _unit("e", 1, 0, bloodletting_reduction=5)]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "bloodletting", "caster": "c", "cost": cost, "hits": [{"target": "e", "amount": 3}]}]}


def _paid(scenario: dict) -> list[tuple[str, str, int]]:
    decoded = decode_scenario(scenario)
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    return [(e.name, e.unit, e.amount) for e in events if e.name == "bloodletting_paid"]


@covers("combat:800.4l", "combat:800.4b")
@pytest.mark.parametrize(("reading", "paid"), [("caster_only", 9), ("side_sum", 7), ("side_largest", 8)])
def test_the_payer_pays_the_cost_the_reading_reduces(reading, paid):
    assert _paid(_scenario(reading)) == [("bloodletting_paid", "a", paid)]


@covers("combat:800.4l", "combat:800.4m")
@pytest.mark.parametrize(("reading", "paid"), [("caster_only", [("bloodletting_paid", "a", 2)]), ("side_sum", []),
                                               ("side_largest", [("bloodletting_paid", "a", 1)])])
def test_a_cost_the_side_s_runes_take_to_0_is_skipped(reading, paid):
    """A printed 3: 3 - 1 = 2, 3 - 3 = 0 (skipped: nobody pays, 800.4m), 3 - 2 = 1."""
    assert _paid(_scenario(reading, cost=3)) == paid


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for cost in (3, 10):
        scenario = _scenario(reading, cost)
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)


@pytest.mark.parametrize("reading", ["side_sum", "side_largest"])
def test_check_under_each_reading_passes_the_example_engine(reading, tmp_path):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--ruleset",
                                      f"{OPTION}={reading}", "--kinds", "ability,bloodletting", "--examples", "300",
                                      "--seed", "5", "--database", str(tmp_path / "db")])
    assert result.exit_code == 0, result.output[-2000:]


def test_a_query_tells_the_readings_apart():
    """An ally's rune lowers the caster's cost below its own rune's reduction only where the side's runes count."""
    question = ("first.bloodletting.cost < first.cost - source.bloodletting_reduction and "
                "source.bloodletting_reduction >= 0 and first.cost > 0")
    base = ("query", question, "--action", "bloodletting:caster=source,target=target", "--units", "2",
            "--source", "ally")
    verdicts = {r: CliRunner().invoke(app, [*base, "--ruleset", f"{OPTION}={r}"]).output.split(":")[0] for r in READINGS}
    assert verdicts == {"caster_only": "impossible", "side_sum": "found", "side_largest": "found"}, verdicts
