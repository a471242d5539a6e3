"""Whole battles (``check`` with ``battle``): long sequences on the clock, the late mutants they find, and the cut
of a long failing battle down to a handful of actions."""

from __future__ import annotations

import pytest

from referee.engines.transports import PythonEngine
from referee.examples import engine, mutants
from referee.check.harness import CheckOptions, check
from referee.rulebooks.combat.battles import battle
from referee.check.shrink import cut_actions


def _options(**more) -> CheckOptions:
    return CheckOptions(database=None, battle=True, **{"seed": 5, "max_actions": 200, **more})


def test_the_example_engine_passes_whole_battles_of_200_actions(tmp_path):
    report = check(PythonEngine(engine.run), _options(examples=24, state_dir=str(tmp_path)))
    assert report.status == "pass", report.text()
    assert report.scenarios_run >= 24


@pytest.mark.parametrize("name", [m.name for m in mutants.LATE_MUTANTS])
def test_battle_mode_kills_each_late_mutant_and_cuts_it_to_a_handful_of_actions(name, tmp_path):
    report = check(PythonEngine(mutants.load(name).run), _options(examples=96, state_dir=str(tmp_path)))
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} battles"
    assert len(report.scenario["actions"]) <= 8, report.scenario["actions"]


@pytest.mark.parametrize("name", [m.name for m in mutants.LATE_MUTANTS])
def test_the_default_two_action_mix_does_not_reach_the_late_mutants(name, tmp_path):
    options = CheckOptions(database=None, seed=5, examples=600, shrink=False, state_dir=str(tmp_path))
    report = check(PythonEngine(mutants.load(name).run), options)
    assert report.status == "pass", f"{name} was found by two-action scenarios: {report.text()}"


def test_delta_debugging_cuts_a_long_failing_battle_in_few_calls():
    scenario = battle(7, 200)
    culprit = scenario["actions"][150]
    calls = []

    def still_fails(candidates):
        calls.append(len(candidates))
        return next((i for i, c in enumerate(candidates) if culprit in c["actions"]), None)

    cut, spent = cut_actions(scenario, still_fails)
    assert culprit in cut["actions"] and len(cut["actions"]) <= 4
    assert spent < 200, spent


def test_a_battle_is_a_legal_scenario_of_every_combat_kind():
    from referee.protocol import decode_scenario

    one = battle(3, 300)
    decode_scenario(one)
    kinds = {a["kind"] for a in one["actions"]}
    assert {"hit", "cost", "advance", "recover", "cull"} <= kinds and one["actions"][-1]["kind"] == "end_combat"
