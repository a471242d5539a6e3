"""``referee query --action play_card``: the play rulebook's process (350-359) searched over the play theorems' space."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.query import QueryError, run_query
from referee.specs.trace import covers


def run(*argv: str):
    return CliRunner().invoke(app, ["query", *argv])


@covers("play:357.1.a", "play:164.2.a", "play:350.1")
def test_357_1_a_a_play_witness_replays_through_the_play_rulebook_and_the_example_engine() -> None:
    result = run("first.played and before.pool.energy == 0 and first.total.energy > 0", "--action", "play_card",
                 "--python", "referee.examples.engine:run", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["scenario"]["rulebook"] == "play" and answer["engine"]["agrees"]
    assert answer["observation"]["events"][0]["name"] == "played"
    runes = [o for o in answer["scenario"]["state"]["objects"] if o["kind"] == "rune"]
    assert any(o["zone"] == "board" and not o["exhausted"] for o in runes)  # a ready rune pays (164.2.a)


@covers("play:358.5")
def test_358_5_the_query_finds_a_model_that_keeps_a_cancelled_plays_partial_actions(monkeypatch) -> None:
    """The question "does a cancelled play change anything?" is impossible; with the undo broken, it is found."""
    from referee.model.play import process

    condition = "first.cancelled and after.card.zone != before.card.zone"
    assert run_query(condition, actions=("play_card",), ruleset="defaults").status == "impossible"
    monkeypatch.setattr(process, "finish_or_undo", lambda legal, original, finished: finished)
    found = run_query(condition, actions=("play_card",), ruleset="defaults")
    assert found.status == "found" and found.observation["events"][0]["name"] == "play_cancelled"


@pytest.mark.parametrize("argv,named", [
    (["first.played", "--action", "play_card", "--action", "hit"], "exactly one --action play_card"),
    (["first.played", "--action", "play_card", "--ruleset", "either_discount=sideways"], "not one of energy_first"),
    (["first.played", "--action", "play_card", "--maximize", "first.location"], "--minimize/--maximize"),
    (["first.outcome.died", "--action", "play_card"], "no field 'outcome'"),
    (["first.played", "--action", "play_card", "--without", "shield"], "a play query takes none"),
    (["first.played", "--action", "activate", "--whole-domain"], "a play query takes none"),  # was silently ignored
])
def test_invalid_play_query_is_a_usage_error_naming_why(argv, named) -> None:
    result = run(*argv, "--json")
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["status"] == "error" and named in result.output


def test_a_play_query_that_runs_out_of_rlimit_is_unknown_and_says_which_cells_are_open() -> None:
    answer = run_query("first.played and first.total.energy > 3", actions=("play_card",), ruleset="defaults", rlimit=1)
    assert answer.status == "unknown", answer.detail
    assert answer.progress["cells_built"] == 3 and len(answer.progress["open_cells"]) == 3 - answer.progress["cells_decided"]


def test_the_play_condition_names_come_from_the_play_schema() -> None:
    with pytest.raises(QueryError, match="unknown name"):
        run_query("target.alive", actions=("play_card",))


@covers("play:414.1.b", "play:164.2.a")
def test_414_1_b_an_activation_witness_replays_and_an_exhausted_rune_adds_nothing() -> None:
    found = run("first.activated and after.rune_a.exhausted and after.pool.energy == before.pool.energy + 1",
                "--action", "activate:ability=exhaust", "--python", "referee.examples.engine:run", "--json")
    assert found.exit_code == 0, found.output
    answer = json.loads(found.stdout)
    assert answer["scenario"]["actions"][0]["kind"] == "activate" and answer["engine"]["agrees"]
    assert answer["observation"]["events"][0]["name"] == "activated"
    impossible = run_query("before.rune_a.exhausted and after.pool.energy > before.pool.energy",
                           actions=("activate:ability=exhaust",))
    assert impossible.status == "impossible" and "activating each of the abilities exhaust" in impossible.space


@covers("play:203")
def test_203_the_activate_query_finds_a_model_whose_effect_happens_without_its_cost(monkeypatch) -> None:
    """Mutant: the linked effect happens whether or not the cost was paid; the query finds it."""
    from referee.proofs.play.process_theorems import activate_effect_regardless
    from referee.model.play import process

    monkeypatch.setattr(process, "process_activate", activate_effect_regardless)
    answer = run_query("first.effect_happened and not first.cost_paid", actions=("activate:ability=exhaust",))
    assert answer.status == "found"  # the play rulebook's replay runs the same mutant, so the witness stands


def test_an_unknown_ability_is_a_usage_error_naming_the_known_ones() -> None:
    with pytest.raises(QueryError, match="ability=NAME"):
        run_query("first.activated", actions=("activate:ability=fireball",))
