"""``referee exhaust`` under declared readings: an engine that implements one reading of an open question declares
it (``--ruleset name=value`` or ``referee.toml``'s ``ruleset`` table), every scenario of the tier carries it, a
family that varies it runs only the declared value, and the engine is judged on the reading it implements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.check.compare import Comparison
from referee.examples import engine, mutants
from referee.vectors import exhaust


def forcing(run, name: str, value: str):
    """An engine hard-wired to one reading: ``run`` (the example engine or a mutant of it) given every combat
    scenario with ``name`` forced to ``value``, whatever the scenario says (play scenarios untouched)."""

    def forced(scenario: dict) -> dict:
        if scenario.get("rulebook", "combat") != "combat":
            return run(scenario)
        return run({**scenario, "ruleset": {**scenario.get("ruleset", {}), name: value}})

    return forced


def _InProcess(run, name):  # noqa: N802 - stands for the class of tests/test_exhaust.py
    """A ``run`` function as an engine (no worker: the model's expectations are shared by the runs of a scope)."""
    from types import SimpleNamespace

    from test_exhaust import _InProcess as InProcess

    return InProcess(SimpleNamespace(run=run), name)


_SCOPES: dict[tuple[str, ...], tuple[exhaust.Scope, dict]] = {}


def tiny_under(*pairs: str) -> tuple[exhaust.Scope, dict]:
    """The whole tiny tier under the declared ``pairs`` and a memo of the model's observations (made once)."""
    if pairs not in _SCOPES:
        _SCOPES[pairs] = (exhaust.scope("tiny", readings=exhaust.declared_readings(list(pairs))), {})
    return _SCOPES[pairs]


def run_tiny(run, name: str, *pairs: str, stop_at_first: bool = False) -> exhaust.ExhaustReport:
    found, memo = tiny_under(*pairs)
    return exhaust.check(_InProcess(run, name), found, Comparison(), expectations=memo, stop_at_first=stop_at_first)


def diverging(report: exhaust.ExhaustReport) -> int:
    return sum(bad for _, bad in report.lines.values())


# --------------------------------------------------------------------------------------
# The reproduction and its done-when
# --------------------------------------------------------------------------------------


def test_an_engine_hard_wired_to_after_shield_fails_undeclared_and_passes_when_it_declares_it():
    hard_wired = forcing(engine.run, "damage_event_test", "after_shield")
    undeclared = run_tiny(hard_wired, "after_shield")
    # one reading taken differently is one bug: exhaust groups as check does (its group key), one group, named at
    # the rule the reading decides (Thorns silenced or not, 500.7d); by symptom it was 4 groups
    assert (undeclared.status, diverging(undeclared), len(undeclared.groups)) == ("mismatch", 24, 1)
    assert "(at combat:500.7d)" in undeclared.text(), undeclared.text()
    declared = run_tiny(hard_wired, "after_shield", "damage_event_test=after_shield")
    assert declared.status == "pass", declared.text()
    assert declared.scenarios == len(tiny_under("damage_event_test=after_shield")[0].scenarios) > 6000
    assert "readings: damage_event_test=after_shield" in declared.text()


def test_a_seeded_bug_in_the_after_shield_engine_still_fails_when_it_declares_it():
    bugged = forcing(mutants.load("thorns_on_nothing").run, "damage_event_test", "after_shield")
    report = run_tiny(bugged, "thorns_on_nothing", "damage_event_test=after_shield", stop_at_first=True)
    assert report.status == "mismatch" and report.first_line is not None


def test_an_engine_with_raw_amount_lethal_redirects_passes_declaring_it_and_its_seeded_bug_fails():
    raw = forcing(engine.run, "lethal_redirect_test", "raw_amount")
    declared = run_tiny(raw, "raw_amount", "lethal_redirect_test=raw_amount")
    assert declared.status == "pass", declared.text()
    assert declared.scenarios == len(tiny_under()[0].scenarios)  # no family varies this reading
    bugged = forcing(mutants.load("defy_death_misses_exact_lethal").run, "lethal_redirect_test", "raw_amount")
    report = run_tiny(bugged, "raw_amount bug", "lethal_redirect_test=raw_amount", stop_at_first=True)
    assert report.status == "mismatch"


def test_a_reading_a_family_pins_is_replaced_by_the_declared_one():
    """The full-half revival family pins ``everlasting_slot_order = reading_order``: an engine implementing the
    default order fails those scenarios undeclared, and passes them, re-read under its order, when it declares it."""
    clock = frozenset({"cull", "advance", "end_combat"})
    undeclared = exhaust.scope("tiny", clock)
    declared = exhaust.scope("tiny", clock, readings=exhaust.declared_readings(["everlasting_slot_order=death_cell_first"]))
    default_order = _InProcess(forcing(engine.run, "everlasting_slot_order", "death_cell_first"), "death_cell_first")
    failed = exhaust.check(default_order, undeclared, Comparison())
    assert failed.status == "mismatch" and failed.first_line.startswith("clock/everlasting")
    passed = exhaust.check(default_order, declared, Comparison())
    assert passed.status == "pass" and passed.scenarios == len(undeclared.scenarios), passed.text()
    assert declared.enumerated.by_family["clock/everlasting"] == undeclared.enumerated.by_family["clock/everlasting"]


# --------------------------------------------------------------------------------------
# What the scope holds under declared readings
# --------------------------------------------------------------------------------------


def test_every_scenario_carries_the_declared_readings_and_keeps_its_others():
    found = exhaust.scope("tiny", readings=exhaust.declared_readings(
        ["damage_event_test=after_shield", "either_discount=power_first"]))
    plain = {json.dumps(s["board" if "board" in s else "state"], sort_keys=True) for _, s in tiny_under()[0].scenarios}
    for _, scenario in found.scenarios:
        if scenario.get("rulebook") == "play":
            assert scenario["rules"] == {"either_discount": "power_first"}
        else:
            assert scenario["ruleset"]["damage_event_test"] == "after_shield"
            assert set(scenario["ruleset"]) <= {"damage_event_test", "everlasting_slot_order"}
        assert json.dumps(scenario["board" if "board" in scenario else "state"], sort_keys=True) in plain


def test_a_family_varying_a_declared_reading_runs_only_the_declared_value_and_says_so():
    undeclared = exhaust.scope("tiny", frozenset({"hit"}))
    found = exhaust.scope("tiny", frozenset({"hit"}), readings=exhaust.declared_readings(["damage_event_test=after_shield"]))
    candidates, all_of_them = undeclared.enumerated.by_family["hit/answers"]
    assert found.enumerated.by_family["hit/answers"] == (candidates, all_of_them // 2)
    assert found.left_out[f"hit/answers {exhaust.VARIES_A_READING}"] == all_of_them // 2 == found.varied_out
    answers = [s for f, s in found.scenarios if f == "hit/answers"]
    assert len(answers) == all_of_them // 2
    assert {s["ruleset"]["damage_event_test"] for s in answers} == {"after_shield"}


def test_the_declared_values_are_spelled_as_the_scenarios_spell_them():
    assert exhaust.declared_readings(["defy_death_leaves=2", "negative_armor=reciprocal"]) == {
        "combat": {"defy_death_leaves": 2, "negative_armor": "reciprocal"}}
    assert exhaust.declared_readings([]) == {} and exhaust.declared_readings(None) == {}


# --------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------

FORCED_ENGINE = '''
from referee.examples import engine


def run(scenario):
    """The example engine hard-wired to damage_event_test = after_shield."""
    if scenario.get("rulebook", "combat") == "combat":
        scenario = {**scenario, "ruleset": {**scenario.get("ruleset", {}), "damage_event_test": "after_shield"}}
    return engine.run(scenario)
'''


def _referee(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "import sys; from referee.cli.app import main; sys.argv[0] = 'referee'; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=600)


def test_the_cli_passes_an_engine_declaring_its_reading_in_referee_toml_and_fails_it_undeclared(tmp_path):
    (tmp_path / "forced_engine.py").write_text(FORCED_ENGINE)
    run = ("exhaust", "--tier", "tiny", "--kinds", "hit", "--python", "forced_engine:run", "--in-process")
    failed = _referee(*run, cwd=tmp_path)
    assert failed.returncode == 1 and "FAIL" in failed.stdout, failed.stdout + failed.stderr
    (tmp_path / "referee.toml").write_text('ruleset = { damage_event_test = "after_shield" }\n')
    passed = _referee(*run, cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "PASS" in passed.stdout and "readings: damage_event_test=after_shield" in passed.stdout


def test_the_count_line_names_the_readings_fixed_and_the_json_records_them(tmp_path):
    result = _referee("exhaust", "--tier", "tiny", "--kinds", "hit", "--ruleset", "damage_event_test=after_shield",
                      cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "; readings fixed: damage_event_test=after_shield (180 scenario(s) of families varying them left out" \
        in result.stdout.splitlines()[0]
    counted = _referee("exhaust", "--tier", "tiny", "--kinds", "hit", "--ruleset", "damage_event_test=after_shield",
                       "--json", cwd=tmp_path)
    body = json.loads(counted.stdout)
    assert body["ruleset"] == {"damage_event_test": "after_shield"}
    assert body["families"]["hit/answers"] == {"candidates": 360, "scenarios": 180}
    plain = json.loads(_referee("exhaust", "--tier", "tiny", "--kinds", "hit", "--json", cwd=tmp_path).stdout)
    assert "ruleset" not in plain and plain["families"]["hit/answers"] == {"candidates": 360, "scenarios": 360}


@pytest.mark.parametrize("pair, named", [
    ("nope=1", "unknown ruleset option 'nope'"),
    ("damage_event_test=bogus", "ruleset.damage_event_test: 'bogus' is not one of"),
    ("damage_event_test", "--ruleset 'damage_event_test': expected name=value"),
])
def test_an_unknown_option_or_value_is_a_usage_error_naming_it(pair, named, tmp_path):
    result = _referee("exhaust", "--tier", "tiny", "--ruleset", pair, cwd=tmp_path)
    assert result.returncode == 2 and named in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_a_bad_reading_in_referee_toml_is_a_usage_error_naming_the_file(tmp_path):
    (tmp_path / "referee.toml").write_text('ruleset = { damage_event_test = "sideways" }\n')
    result = _referee("exhaust", "--tier", "tiny", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "referee.toml: ruleset: ruleset.damage_event_test: 'sideways' is not one of" in result.stderr


def test_a_tier_exported_under_a_declared_reading_records_it_and_replays_against_the_engine(tmp_path):
    (tmp_path / "forced_engine.py").write_text(FORCED_ENGINE)
    profile = ("exhaust", "--tier", "tiny", "--kinds", "hit", "--features", "thorns,armor,boss,defy_death")
    for folder, declared in (("plain", ()), ("declared", ("--ruleset", "damage_event_test=after_shield"))):
        exported = _referee(*profile, *declared, "--export", str(tmp_path / folder), cwd=tmp_path)
        assert exported.returncode == 0, exported.stderr
    manifest = json.loads((tmp_path / "declared" / "manifest.json").read_text())
    assert manifest["exhaust"]["ruleset"] == {"damage_event_test": "after_shield"}
    assert manifest["vectors"] and all(v["ruleset"]["damage_event_test"] == "after_shield" for v in manifest["vectors"])
    assert "ruleset" not in json.loads((tmp_path / "plain" / "manifest.json").read_text())["exhaust"]
    replay = ("vectors", "run", "--python", "forced_engine:run", "--in-process")
    failed = _referee(*replay[:2], str(tmp_path / "plain"), *replay[2:], cwd=tmp_path)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    passed = _referee(*replay[:2], str(tmp_path / "declared"), *replay[2:], "--ruleset", "damage_event_test=after_shield",
                      cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert manifest["rulebooks"]["combat"]["ruleset"]["damage_event_test"] == "after_shield"  # as `vectors export`
