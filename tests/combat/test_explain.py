"""``referee explain``: a scenario resolved step by step, each step citing its clause (400.8)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from referee.cli import app
from referee.specs.trace import covers

runner = CliRunner()


def explain(tmp_path, scenario) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(scenario if isinstance(scenario, str) else json.dumps(scenario), encoding="utf-8")
    result = runner.invoke(app, ["explain", str(path)])
    return result.exit_code, result.stdout, result.stderr


@covers("combat:400.8-7")
def test_explain_cites_each_step_of_a_hit_with_its_numbers(tmp_path):
    code, out, _ = explain(tmp_path, {
        "board": [{"uid": "a", "armor": 81, "insurance": 1}, {"uid": "e", "side": 1}],
        "damage": {"target": "a", "amount": 87, "source": "e"},
    })
    assert code == 0
    assert "[combat:500.1-5] Armor 81" in out and "87 -> 60" in out  # exact, not a float's 61
    assert "[combat:500.1-6] flat reduction 16" in out and "60 -> 44" in out
    assert "[combat:500.1-9] 1 plain Insurance point(s) absorb 25." in out
    assert "[combat:500.1-13] a loses 19 Vitality (100 -> 81)." in out
    assert "damage_taken unit=a amount=19 other=e detail=hit" in out


def test_explain_indents_the_interceptors_own_instance(tmp_path):
    code, out, _ = explain(tmp_path, {
        "board": [{"uid": "a", "vitality": 20, "intercept_by": "c"}, {"uid": "c", "col": 1}, {"uid": "e", "side": 1}],
        "damage": {"target": "a", "amount": 50, "source": "e", "kind": "hit"},
    })
    assert code == 0
    assert "[combat:500.1f]" in out and "    [combat:500.1-13] c loses 50 Vitality (100 -> 50)." in out


def test_explain_accepts_a_protocol_scenario(tmp_path):
    code, out, _ = explain(tmp_path, {
        "protocol": "referee/1",
        "board": [{"uid": "a", "rune_tick_reduction": 5}, {"uid": "e", "side": 1}],
        "actions": [{"kind": "damage", "target": "a", "amount": 4, "source": "e", "damage_kind": "burn"}],
    })
    assert code == 0 and "never enters the pipeline" in out and "tick_prevented" in out


def test_invalid_scenarios_get_a_clear_error_and_exit_2(tmp_path):
    code, _, err = explain(tmp_path, "{not json")
    assert code == 2 and "not valid JSON" in err
    code, _, err = explain(tmp_path, {"board": [{"uid": "a"}], "damage": {"target": "zz", "amount": 3}})
    assert code == 2 and "zz" in err
    code, _, err = explain(tmp_path, {"board": [{"uid": "a", "armour": 3}], "damage": {"target": "a", "amount": 3}})
    assert code == 2 and "armour" in err
