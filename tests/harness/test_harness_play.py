"""The play rulebook in the harness: protocol, strategies, the example engine and its play mutants."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from conftest import compiled
from referee.actions import ACTION_KINDS, default_kinds, kinds_of
from referee.cli.app import app
from referee.engines.transports import PythonEngine, SubprocessEngine
from referee.examples import play_engine
from referee.examples.engine import run as clean_engine
from referee.examples.mutants import BY_NAME, MUTANTS, load
from referee.check.harness import CheckOptions, check, model_observation
from referee.protocol import ProtocolError, decode_observation, decode_scenario, schema_text
from referee.check.strategies import scenarios

PLAY_KINDS = ("play_card", "activate")
PLAY_MUTANTS = [m.name for m in MUTANTS if m.source == "play_engine.py"]
SCENARIO_SCHEMA = json.loads(schema_text("scenario"))
OBSERVATION_SCHEMA = json.loads(schema_text("observation"))


SCENARIO_VALIDATOR, OBSERVATION_VALIDATOR = compiled(SCENARIO_SCHEMA), compiled(OBSERVATION_SCHEMA)


def options(**overrides) -> CheckOptions:
    base = dict(examples=300, seed=7, kinds=PLAY_KINDS, database=None)
    base.update(overrides)
    return CheckOptions(**base)


def frigid_touch() -> dict:
    """The seed's 356.4.c example: [2] plus an optional [A], Ezreal's discount on the optional part."""
    return {
        "protocol": "referee/2", "rulebook": "play",
        "state": {"pool": {"energy": 2, "power": {}},
                  "objects": [{"oid": "c", "kind": "spell"}, {"oid": "u1", "zone": "board"}]},
        "actions": [{"kind": "play_card", "card": "c", "cost": {"energy": 2},
                     "additional": [{"any_power": 1, "optional": True}], "pay_optional": [True],
                     "modifiers": {"discounts": [{"energy": 1, "power": 1, "either": True,
                                                  "applies_to": "optional_additional"}]},
                     "plan": [{"step": "pay_resources"}]}],
    }


def test_play_kinds_are_registered_for_the_play_rulebook_only():
    assert kinds_of("play") == PLAY_KINDS
    assert not set(PLAY_KINDS) & set(default_kinds())
    assert all(ACTION_KINDS[k].rulebook == "play" for k in PLAY_KINDS)


def test_the_seeds_worked_example_is_played_and_round_trips():
    scenario = frigid_touch()
    SCENARIO_VALIDATOR.validate(scenario)
    expected = model_observation(scenario)
    assert [e.name for e in expected.events] == ["played"]
    assert expected.state.pool.energy == 0  # the [A] was discounted to nothing as it was added
    observed = clean_engine(scenario)
    OBSERVATION_VALIDATOR.validate(observed)
    decoded = decode_observation(observed, rulebook="play")
    assert decoded.state == expected.state and decoded.events == expected.events


def test_one_short_is_cancelled_with_the_check_and_undone():
    scenario = frigid_touch()
    scenario["state"]["pool"]["energy"] = 1
    expected = model_observation(scenario)
    assert [(e.name, e.detail) for e in expected.events] == [("play_cancelled", "358.2")]
    assert expected.state == decode_scenario(scenario).state
    assert clean_engine(scenario)["events"] == [{"name": "play_cancelled", "unit": "c", "detail": "358.2"}]


@settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios(kinds=PLAY_KINDS))
def test_generated_play_scenarios_decode_validate_and_round_trip(scenario):
    SCENARIO_VALIDATOR.validate(scenario)
    decoded = decode_scenario(json.loads(json.dumps(scenario)))
    assert decoded.rulebook == "play" and decoded.state is not None
    observed = play_engine.run_play(scenario)
    OBSERVATION_VALIDATOR.validate(observed)
    decode_observation(observed, rulebook="play")


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda s: s["state"]["objects"][0].update(zone="pocket"), "scenario.state.objects[0].zone"),
        (lambda s: s["state"]["pool"].update(energy="2"), "scenario.state.pool.energy"),
        (lambda s: s["state"].pop("pool"), "scenario.state.pool"),
        (lambda s: s["actions"][0].update(card="nobody"), "scenario.actions[0].card"),
        (lambda s: s["actions"][0]["plan"].append({"step": "use_rune", "rune": "c", "ability": "burn"}),
         "scenario.actions[0].plan[1].ability"),
        (lambda s: s["actions"][0]["modifiers"]["discounts"][0].update(applies_to="printed"),
         "scenario.actions[0].modifiers.discounts[0].applies_to"),
        (lambda s: s["actions"][0].update(pay_optional=[]), "scenario.actions[0].pay_optional"),
        (lambda s: s["actions"][0].update(kind="damage"), "scenario.actions[0].kind"),
        (lambda s: s.update(rulebook="cards"), "scenario.rulebook"),
        (lambda s: s.update(board=[]), "scenario.board"),
    ],
)
def test_malformed_play_scenario_names_the_field(mutate, path):
    scenario = copy.deepcopy(frigid_touch())
    mutate(scenario)
    with pytest.raises(ProtocolError) as caught:
        decode_scenario(scenario)
    assert caught.value.path == path, str(caught.value)
    assert str(caught.value).startswith(path + ":")


def test_a_play_action_in_a_combat_scenario_is_refused_by_name():
    scenario = {"protocol": "referee/2", "board": [{"uid": "a"}], "actions": [{"kind": "play_card"}]}
    with pytest.raises(ProtocolError) as caught:
        decode_scenario(scenario)
    assert caught.value.path == "scenario.actions[0].kind" and "play" in str(caught.value)


def test_a_play_observation_without_its_state_is_a_missing_field():
    with pytest.raises(ProtocolError) as caught:
        decode_observation({"protocol": "referee/2", "events": []}, rulebook="play")
    assert caught.value.kind == "missing" and caught.value.path == "observation.state"


def test_clean_engine_passes_on_play_in_process(in_tmp):
    report = check(PythonEngine(clean_engine), options(examples=600))
    assert report.status == "pass", report.text()
    assert report.scenarios_run == 600


def test_clean_engine_passes_on_play_over_json_lines(engine_cmd, in_tmp):
    with SubprocessEngine(engine_cmd(), batch_size=32) as engine:
        report = check(engine, options(examples=320, seed=8))
    assert report.status == "pass", report.text()


def test_mixed_rulebooks_draw_both_kinds_of_scenario(in_tmp):
    report = check(PythonEngine(clean_engine), options(examples=150, kinds=("cost", "play_card")))
    assert report.status == "pass", report.text()


def test_there_are_at_least_six_play_mutants():
    assert len(PLAY_MUTANTS) >= 6


@pytest.mark.parametrize("name", PLAY_MUTANTS)
def test_every_play_mutant_is_killed_and_shrunk(name, in_tmp):
    mutant = BY_NAME[name]
    report = check(PythonEngine(load(name).run), options(kinds=mutant.kinds, examples=1500, shrink_budget=300))
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} scenarios"
    assert report.scenario["rulebook"] == "play" and len(report.scenario["actions"]) == 1
    assert report.divergences[0].path.startswith(("events", "state."))


def test_a_play_mutant_fails_from_the_command_line_with_a_shrunk_scenario(engine_cmd, in_tmp):
    result = CliRunner().invoke(app, ["check", "--engine", engine_cmd("--mutant", "unit_enters_ready"),
                                      "--kinds", "play_card,activate", "--examples", "500", "--seed", "3",
                                      "--database", ""])
    assert result.exit_code == 1, result.output
    assert "scenario (shrunk)" in result.output and "state.objects.c.exhausted" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", PLAY_MUTANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_play_mutant_is_killed_over_json_lines_on_several_seeds(name, seed, engine_cmd, in_tmp):
    mutant = BY_NAME[name]
    with SubprocessEngine(engine_cmd("--mutant", name), batch_size=32) as engine:
        report = check(engine, options(kinds=mutant.kinds, examples=3000, seed=seed))
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} scenarios over JSON lines"


@pytest.mark.slow
def test_clean_engine_passes_a_long_play_campaign(in_tmp):
    report = check(PythonEngine(clean_engine), options(examples=10_000, seed=11))
    assert report.status == "pass", report.text()


def test_the_play_reading_is_chosen_with_ruleset_and_sent_with_every_play_scenario(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--kinds", "play_card,activate",
                                      "--ruleset", "either_discount=power_first", "--examples", "300", "--seed", "5",
                                      "--database", "", "--json"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--kinds", "play_card",
                                   "--ruleset", "either_discount=sideways"])
    assert bad.exit_code == 2 and "either_discount" in bad.output


def test_a_power_first_scenario_differs_from_energy_first_on_an_either_discount():
    scenario = frigid_touch()
    scenario["state"]["pool"] = {"energy": 2, "power": {"fury": 1}}
    scenario["actions"][0]["modifiers"]["discounts"][0]["applies_to"] = "total"
    energy_first = model_observation(scenario).state.pool
    scenario["rules"] = {"either_discount": "power_first"}
    power_first = model_observation(scenario).state.pool
    assert energy_first != power_first
    assert clean_engine(scenario)["state"]["pool"]["energy"] == power_first.energy
