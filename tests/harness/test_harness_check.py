"""``referee check``: the clean example engine passes, seeded mutants fail with a shrunk
scenario and the clause trail, in-process and over JSON lines; comparison modes, the example
database, replay and JUnit output."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.check.compare import Comparison
from referee.engines.transports import PythonEngine, SubprocessEngine
from referee.examples.engine import run as clean_engine
from referee.examples.mutants import BY_NAME, MUTANTS, load
from referee.check.harness import CheckOptions, check
from referee.specs.trace import covers

#: A fixed budget within which every mutant of the default run dies (the full table: slow).
BUDGET = 1500
#: Mutants killed in the default run: one per rule area, each quick to find.
QUICK = (
    "shield_before_insurance",
    "cap_off_by_one",
    "insurance_point_not_spent_whole",
    "negative_armor_flat_amplifies",
    "death_only_below_zero",
    "cost_spends_shield",
    "missing_dormant_gate",
    "thorns_on_nothing",
    "bloodletting_column_order",
)


def options(**changes) -> CheckOptions:
    return CheckOptions(**{"examples": BUDGET, "seed": 7, "database": None, **changes})


def test_clean_engine_passes_in_process(in_tmp):
    report = check(PythonEngine(clean_engine), options(examples=400))
    assert report.status == "pass", report.text()
    assert report.scenarios_run == 400


def test_clean_engine_passes_over_json_lines(engine_cmd, in_tmp):
    with SubprocessEngine(engine_cmd(), batch_size=16) as engine:
        report = check(engine, options(examples=320))
    assert report.status == "pass", report.text()
    assert report.scenarios_run == 320


def _assert_explained_failure(report, mutant) -> None:
    assert report.status == "mismatch", report.text()
    assert report.scenario["protocol"] == "referee/2"
    assert report.divergences and report.divergences[0].model != report.divergences[0].engine
    assert report.trail, "the clause trail is empty"
    assert any(c.startswith("combat:") for c in report.clauses)
    text = report.text()
    assert "first divergence:" in text and "clause trail" in text and "replay:" in text


@pytest.mark.parametrize("name", QUICK)
def test_mutant_is_killed_with_a_shrunk_scenario_and_the_clause_trail(name, in_tmp):
    mutant = BY_NAME[name]
    report = check(PythonEngine(load(name).run), options(kinds=mutant.kinds))
    _assert_explained_failure(report, mutant)
    # shrunk: a single action on at most two units is enough for each of these bugs
    assert len(report.scenario["actions"]) == 1, report.text()


def test_mutant_is_killed_over_json_lines_through_the_cli(engine_cmd, in_tmp):
    command = engine_cmd("--mutant", "cap_off_by_one")
    args = ["check", "--engine", command, "--examples", "600", "--seed", "7", "--kinds", "damage", "--batch", "8",
            "--database", "", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["status"] == "mismatch"
    assert report["divergences"] and report["trail"]
    assert "combat:500.1-7" in report["clauses"]
    assert report["replay"].startswith("referee check --engine")


@covers("combat:500.2c")
def test_float_armor_step_is_killed(in_tmp):
    """The float Armor step (1 in 2,000 uniform pairs) dies within the budget: the strategies aim at it."""
    report = check(PythonEngine(load("float_armor_step").run), options(kinds=("damage",), examples=3000))
    _assert_explained_failure(report, BY_NAME["float_armor_step"])
    assert "combat:500.2c" in report.clauses


def test_found_bug_is_retried_first_from_the_example_database(in_tmp):
    engine = PythonEngine(load("strict_armor_boundary").run)
    first = check(engine, options(kinds=("damage",), examples=3000, seed=11, database=".referee/examples"))
    assert first.status == "mismatch"
    again = check(engine, options(kinds=("damage",), examples=3000, seed=12345, database=".referee/examples"))
    assert again.status == "mismatch"
    assert again.first_failure_after == 1, "the stored failure was not replayed first"


def test_replay_file_reproduces_the_failure(in_tmp):
    runner = CliRunner()
    python = "referee.examples.mutants:cost_spends_shield"
    result = runner.invoke(app, ["check", "--python", python, "--kinds", "cost", "--seed", "3", "--examples", "500",
                                 "--junit", "report.xml"])
    assert result.exit_code == 1
    assert (in_tmp / "report.xml").read_text().count("<failure") == 1
    replay_path = result.output.split("--replay ")[-1].split()[0]
    again = runner.invoke(app, ["check", "--python", python, "--replay", replay_path])
    assert again.exit_code == 1 and "first divergence" in again.output
    clean = runner.invoke(app, ["check", "--python", "referee.examples.engine:run", "--replay", replay_path])
    assert clean.exit_code == 0, clean.output


def _strip_events(scenario: dict) -> dict:
    observation = clean_engine(scenario)
    del observation["events"]
    return observation


def _only_vitality(scenario: dict) -> dict:
    observation = clean_engine(scenario)
    keep = ("uid", "side", "row", "col", "vitality", "alive")
    observation["board"] = [{k: u[k] for k in keep} for u in observation["board"]]
    observation["events"] = [e for e in observation["events"] if e["name"] == "damage_taken"]
    return observation


def test_engine_without_events_is_checked_on_the_final_state(in_tmp):
    state = Comparison.from_options("state")
    report = check(PythonEngine(_strip_events), options(examples=150, comparison=state))
    assert report.status == "pass", report.text()
    assert "events not compared" in report.text()
    full = check(PythonEngine(_strip_events), options(examples=50))
    assert full.status == "fault" and full.fault.kind == "missing"
    assert "observation.events: missing" in full.fault.message


def test_engine_with_some_fields_and_events_is_checked_on_what_it_emits(in_tmp):
    chosen = Comparison.from_options("fields", "vitality,alive", "damage_taken")
    report = check(PythonEngine(_only_vitality), options(examples=150, comparison=chosen))
    assert report.status == "pass", report.text()
    assert "unit fields vitality, alive" in report.text()
    assert "only the events damage_taken" in report.text()


@pytest.mark.slow
@pytest.mark.parametrize("name", [m.name for m in MUTANTS])
def test_every_mutant_is_killed_within_the_budget(name, in_tmp):
    mutant = BY_NAME[name]
    report = check(PythonEngine(load(name).run), options(kinds=mutant.kinds, examples=3000, shrink=False,
                                                         **_timeline(mutant)))
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} scenarios"


def _timeline(mutant) -> dict:
    """The scenario length and readings a mutant's bug needs (a battle-clock bug: a death, then time)."""
    from referee.model.combat.ruleset import Ruleset

    rules = {"combat": Ruleset.from_json(dict(mutant.ruleset))} if mutant.ruleset else {}
    return {"max_actions": mutant.max_actions, "rules": rules}


@pytest.mark.slow
@pytest.mark.parametrize("name", [m.name for m in MUTANTS])
def test_every_mutant_is_killed_over_json_lines(name, engine_cmd, in_tmp):
    mutant = BY_NAME[name]
    with SubprocessEngine(engine_cmd("--mutant", name), batch_size=32) as engine:
        report = check(engine, options(kinds=mutant.kinds, examples=3000, shrink=False, **_timeline(mutant)))
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} scenarios over JSON lines"


@pytest.mark.slow
def test_crosshair_backend_runs_for_a_python_engine(in_tmp):
    """The optional CrossHair search backend (hypothesis-crosshair) drives a Python engine."""
    report = check(PythonEngine(clean_engine), options(examples=5, kinds=("cost",), backend="crosshair"))
    assert report.status == "pass", report.text()
    assert report.scenarios_run >= 1


def test_whole_battles_through_the_command_line(in_tmp):
    """``--battle`` (issue 27's whole battles, declared once in referee.check.options) reaches the check and its replay."""
    from pathlib import Path

    from referee.check.options import CHECK, resolve
    from referee.check.plan import check_plan

    argv = ["check", "--python", "referee.examples.engine:run", "--battle", "--max-actions", "50", "-n", "8", "--seed", "1"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert "referee check: PASS" in result.output
    _, options = check_plan(resolve(CHECK, {"battle": True, "python": "referee.examples.engine:run"}, None), Path("."))
    assert options.battle is True and "--battle" in options.command.split()
