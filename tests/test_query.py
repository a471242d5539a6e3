"""``referee query``: Z3 answers designers' questions with scenarios that replay through the model."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.rulebooks.combat.run import run_actions
from referee.cli import app
from referee.protocol import decode_scenario
from referee.query import QueryError, parse_condition, run_query


def test_a_shielded_unit_can_die_to_one_burn_tick_and_the_witness_replays() -> None:
    answer = run_query("target.shield > 0 and outcome.died", kind="burn")
    assert answer.status == "found"
    scenario = decode_scenario(answer.scenario)
    assert scenario.board.unit("target").shield > 0
    after, log = run_actions(scenario.board, scenario.actions, scenario.ruleset)
    assert not after.unit("target").alive
    assert "death" in [e.name for e in log.events()]


def test_a_tool_never_dies_to_damage() -> None:
    assert run_query("target.is_tool and outcome.died").status == "impossible"


def test_vitality_never_rises_through_a_hit_without_a_vessel() -> None:
    assert run_query("after.vitality > target.vitality and target.vessels == 0").status == "impossible"


def test_vitality_can_rise_through_a_hit_that_spends_a_vessel() -> None:
    # Found by this very query: a lethal hit on a Phylactery unit revives it at full Vitality (500.9b-c).
    answer = run_query("after.vitality > target.vitality")
    assert answer.status == "found"
    assert "vessel_revival" in [e["name"] for e in answer.observation["events"]]


def test_an_event_condition_is_answered() -> None:
    answer = run_query('event("insurance_prevented") and not event("damage_taken")')
    assert answer.status == "found"
    names = [e["name"] for e in answer.observation["events"]]
    assert "insurance_prevented" in names and "damage_taken" not in names


def test_a_tiny_resource_limit_is_unknown_never_an_answer() -> None:
    assert run_query("target.shield > 0 and outcome.died", kind="burn", rlimit=1).status == "unknown"


@pytest.mark.parametrize(
    ("condition", "named"),
    [
        ("target.shield > 0 and bogus", "bogus"),
        ("event('nope')", "nope"),
        ("target.shield ** 2 > 1", "target.shield ** 2"),
        ("__import__('os')", "__import__"),
        ("target.shield >", "not an expression"),
    ],
)
def test_invalid_condition_is_rejected_naming_the_fragment(condition: str, named: str) -> None:
    with pytest.raises(QueryError, match=named.replace("*", r"\*").replace("(", r"\(")):
        parse_condition(condition)


def test_cli_exit_codes_say_found_impossible_and_bad_query() -> None:
    runner = CliRunner()
    found = runner.invoke(app, ["query", "target.shield > 0 and outcome.died", "--kind", "burn", "--json"])
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["status"] == "found"
    assert runner.invoke(app, ["query", "target.is_tool and outcome.died"]).exit_code == 1
    assert runner.invoke(app, ["query", "nonsense_name > 1"]).exit_code == 2
    assert runner.invoke(app, ["query", "outcome.died", "--kind", "laser"]).exit_code == 2
