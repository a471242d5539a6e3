"""``referee validate``: a match an engine logged, replayed through the model; partial logs; every divergence once."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from referee.rulebooks.combat.battles import battle
from referee.cli.app import app
from referee.check.compare import Comparison
from referee.examples import engine, mutants
from referee.check.harness import judge
from referee.check.validate import validate


def _trace(scenario: dict, module=engine) -> list[str]:
    out = io.StringIO()
    module.write_trace(scenario, out)
    return out.getvalue().splitlines()


def _first_diverging_action(scenario: dict, module) -> int:
    """The first k such that the first k actions, run as one scenario, diverge: found without any trace."""
    for k in range(1, len(scenario["actions"]) + 1):
        prefix = {**scenario, "actions": scenario["actions"][:k]}
        verdict = judge(prefix, module.run(prefix), Comparison())[0]
        assert verdict in ("ok", "mismatch"), verdict
        if verdict == "mismatch":
            return k
    raise AssertionError("the mutant never diverges")


def test_a_ten_thousand_action_trace_of_the_example_engine_passes(tmp_path):
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(_trace(battle(11, 10_000))) + "\n")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "PASS: 10000 actions in 1 trace(s)" in result.output


def test_the_example_engine_writes_its_trace_over_json_lines(tmp_path):
    path = tmp_path / "log.jsonl"
    scenario = battle(3, 200)
    command = [sys.executable, "-m", "referee.examples.engine", "--trace", str(path)]
    done = subprocess.run(command, input=json.dumps(scenario) + "\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["events"], done.stderr
    result = CliRunner().invoke(app, ["validate", str(path), "--json"])
    report = json.loads(result.output)
    assert (result.exit_code, report["status"], report["actions"]) == (0, "pass", 200)


@pytest.mark.parametrize("name, clause", [("interest_keeps_max_vitality", "combat:500.8g"),
                                          ("vessel_not_spent", "combat:500.4d")])
def test_a_mutant_engines_trace_fails_at_the_first_diverging_action_with_its_clause(name, clause):
    scenario = battle(7, 400)
    module = mutants.load(name)
    report = validate(iter(_trace(scenario, module)), name)
    found = next(iter(report.found.values()))
    assert report.status == "mismatch" and report.exit_code == 1
    assert found.action == _first_diverging_action(scenario, module)
    # every divergence of that action is listed, each at the step that last wrote its field
    assert clause in {f.clause for f in report.found.values() if f.action == found.action}


@pytest.mark.parametrize("keep", ["board", "events"])
def test_a_partial_trace_still_finds_the_bug(keep):
    scenario = battle(7, 400)
    lines = [json.loads(line) for line in _trace(scenario, mutants.load("interest_keeps_max_vitality"))]
    partial = [lines[0]] + [{"action": line["action"], keep: line[keep]} for line in lines[1:]]
    if keep == "board":  # the final board only
        partial = [lines[0]] + [{"action": line["action"]} for line in lines[1:-1]] + [
            {"action": lines[-1]["action"], "board": lines[-1]["board"]}]
    report = validate(iter(json.dumps(p) for p in partial), "partial")
    assert report.status == "mismatch", report.found


def test_only_the_fields_a_partial_line_logs_are_compared():
    scenario = battle(5, 50)
    lines = [json.loads(line) for line in _trace(scenario)]
    lines[1]["board"] = [{"uid": u["uid"], "vitality": u["vitality"]} for u in lines[1]["board"]]
    lines[1]["events"] = [{"name": e["name"]} for e in lines[1]["events"]]
    report = validate(iter(json.dumps(line) for line in lines), "fields")
    assert report.status == "pass"
    lines[1]["board"][0]["vitality"] += 1
    assert validate(iter(json.dumps(line) for line in lines), "fields").status == "mismatch"


def test_keep_going_resynchronises_and_lists_each_distinct_divergence_once():
    scenario = battle(7, 1500)
    module = mutants.load_together(("interest_keeps_max_vitality", "vessel_not_spent"))
    stopped = validate(iter(_trace(scenario, module)), "two", keep_going=False)
    report = validate(iter(_trace(scenario, module)), "two", keep_going=True)
    assert len({f.action for f in stopped.found.values()}) == 1 and stopped.actions < 1500  # stops at that action
    assert report.actions == 1500 and len(report.found) > len(stopped.found)
    keys = {f.key for f in report.found.values()}
    assert any("max_vitality" in k for k in keys) and any("vessels" in k for k in keys)
    # each distinct divergence listed once, with every later action that showed it counted under it
    assert len(keys) == len(report.found) and sum(f.count for f in report.found.values()) > 2 * len(keys), keys


def test_an_unreadable_line_is_named_and_exits_2(tmp_path):
    path = tmp_path / "bad.jsonl"
    lines = _trace(battle(5, 5))
    lines[3] = lines[3][:-5]
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "line 4: not JSON" in result.output
    path.write_text('{"action": {"kind": "hit"}}\n')
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "line 1: an action before any header line" in result.output


def test_every_line_of_a_trace_is_valid_under_the_published_trace_schema():
    import jsonschema

    from referee.check.validate import trace_schema

    validator = jsonschema.Draft202012Validator(trace_schema())
    for line in _trace(battle(9, 100)):
        validator.validate(json.loads(line))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"action": {"kind": "hit"}, "extra": 1})


def test_the_battle_generator_is_reproducible_and_long():
    one, two = battle(21, 300), battle(21, 300)
    assert one == two and len(one["actions"]) == 300 and one["actions"][-1] == {"kind": "end_combat"}
    assert len(one["board"]) == 6 and {a["kind"] for a in one["actions"]} >= {"hit", "advance", "cost", "cull"}


# -- under the engine's referee.toml: profile, readings, known divergences ---------------------------------------------


def _mutant_trace(tmp_path, name="vessel_not_spent", actions=400):
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(_trace(battle(7, actions), mutants.load(name))) + "\n")
    return path


def test_a_feature_the_engines_profile_leaves_out_is_not_compared(tmp_path, monkeypatch):
    path = _mutant_trace(tmp_path, "vessel_not_spent")
    whole = validate(open(path), "m", keep_going=True)
    assert any(f.key.startswith("board[].vessels") for f in whole.found.values())
    (tmp_path / "referee.toml").write_text('without = ["vessel"]\n')
    left_out = validate(open(path), "m", keep_going=True, profile=_profile(tmp_path))
    assert left_out.actions == whole.actions
    assert not any(f.key.startswith("board[].vessels") for f in left_out.found.values()), left_out.found.keys()


def _profile(folder):
    from referee.check.validate import profile_from_config

    return profile_from_config(folder)


def test_the_readings_of_referee_toml_are_the_matchs_and_a_contradiction_is_named(tmp_path, monkeypatch):
    lines = _trace(battle(5, 20))
    (tmp_path / "referee.toml").write_text('[ruleset]\nnegative_armor = "reciprocal"\n')
    report = validate(iter(lines), "m", profile=_profile(tmp_path))
    assert report.status in ("pass", "mismatch") and not report.error  # the header says nothing: the file's reading
    header = json.loads(lines[0])
    header["ruleset"] = {"negative_armor": "mirror"}
    clash = validate(iter([json.dumps(header), *lines[1:]]), "m", profile=_profile(tmp_path))
    assert clash.exit_code == 2 and "ruleset.negative_armor: the log says 'mirror', referee.toml 'reciprocal'" in clash.error


def test_a_known_divergence_of_referee_known_toml_is_reported_not_failed(tmp_path, monkeypatch):
    path = _mutant_trace(tmp_path)
    first = validate(open(path), "m", keep_going=True)
    keys = sorted(f.key for f in first.found.values())
    (tmp_path / "referee-known.toml").write_text(
        "".join(f'[[known]]\nkey = "{key}"\nreason = "ticket 7"\n' for key in keys))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", str(path), "--keep-going"])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "(known: ticket 7)" in result.output


@pytest.mark.parametrize("name", ["interest_keeps_max_vitality", "vessel_not_spent", "cost_spends_shield",
                                  "death_only_below_zero", "floor_instead_of_ceil"])
def test_validate_names_the_clause_check_names_for_the_same_first_divergence(name):
    """One attribution for every verb (issue #45): a mutant's trace fails at the clause ``check`` names for the match
    cut after the first diverging action."""
    from referee.check.grouping.api import clause_at_fault

    scenario, module = battle(7, 400), mutants.load(name)
    report = validate(iter(_trace(scenario, module)), name)
    found = next(iter(report.found.values()))
    prefix = {**scenario, "actions": scenario["actions"][:found.action]}
    verdict, divergences = judge(prefix, module.run(json.loads(json.dumps(prefix))), Comparison())
    assert verdict == "mismatch" and found.clause == clause_at_fault(prefix, divergences), (found.clause, verdict)
