"""Vectors under declared readings, and a folder that is the suite its manifest describes.

``vectors export --ruleset name=value`` (or ``referee.toml``'s ``ruleset`` table) fixes the declared readings in
every vector and computes each expected observation under them; the manifest records every option's reading
(``rulebooks.<name>.ruleset``). ``vectors run`` refuses a suite exported under other readings than it declares,
naming each option, and a folder whose vector files disagree with its manifest (exit 2 before any vector runs).
The issue's done-when: an engine reading ``lethal_redirect_test = "raw_amount"`` passes its own vectors, and a
seeded bug in it still fails them.

The vectors are the hand-written boundary cases and two lethal-intercept cases (no Z3 search: the export under
readings is the same whatever found the vectors; ``tests/harness/test_harness_vectors.py`` covers the search).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import rulebooks
from referee.cli.app import app
from referee.rulebook import Vector
from referee.rulebooks.combat.vectors import _scenario, boundary_vectors
from referee.trail import clauses_applied
from referee.vectors import suite as vectors_module
from referee.vectors.suite import Generated, _settle_under_readings

RUNNER = CliRunner()
RAW = "lethal_redirect_test=raw_amount"
ENGINE_MODULE = "referee_test_raw_amount_engine"
#: The example engine, reading ``lethal_redirect_test`` as ``raw_amount`` whatever a scenario says (its one
#: non-default reading), and the same engine with a seeded bug (surviving damage rounded down, 500.2c).
ENGINE_SOURCE = '''
from referee.examples import engine, mutants

def _raw(scenario):
    if "ruleset" in scenario:
        scenario = {**scenario, "ruleset": {**scenario["ruleset"], "lethal_redirect_test": "raw_amount"}}
    return scenario

def run(scenario):
    return engine.run(_raw(scenario))

def run_mutant(scenario):
    return mutants.load("floor_instead_of_ceil").run(_raw(scenario))
'''


def _intercept_case(name: str, target: dict, amount: int) -> Vector:
    """A hit on a unit Lethal-Intercepted by an ally: whether it is lethal depends on ``lethal_redirect_test``."""
    scenario = _scenario([{"uid": "a", "intercept_by": "c", **target}, {"uid": "b", "side": 1, "col": 1},
                          {"uid": "c", "col": 2}],
                         [{"kind": "damage", "target": "a", "amount": amount, "source": "b", "damage_kind": "hit",
                           "allows_dormant": False, "riposte_rolls": [True]}])
    book = rulebooks.of_scenario(scenario)
    state, events, steps = book.observe(scenario)
    clauses = clauses_applied(steps)
    return Vector(scenario, book.encode_observation(state, events, None), clauses, f"boundary: {name}", "boundary",
                  primary=clauses[0], label=name)


def _found() -> list[Vector]:
    return [*boundary_vectors(), _intercept_case("intercept-shield-absorbs", {"vitality": 5, "shield": 10}, 8),
            _intercept_case("intercept-armor-absorbs", {"vitality": 5, "armor": 100}, 6)]


def _export(folder: Path, *flags: str) -> None:
    found = _found()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vectors_module, "generate", lambda progress=None, only=None, profile=None: Generated(found, {}))
        result = RUNNER.invoke(app, ["vectors", "export", str(folder), "--quiet", *flags])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same vectors exported under the default readings and under ``lethal_redirect_test=raw_amount``."""
    out = {"defaults": tmp_path_factory.mktemp("defaults"), "raw": tmp_path_factory.mktemp("raw")}
    _export(out["defaults"])
    _export(out["raw"], "--ruleset", RAW)
    return out


@pytest.fixture()
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / f"{ENGINE_MODULE}.py").write_text(ENGINE_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return ENGINE_MODULE


def _run(folder: Path, python: str, *flags: str):
    return RUNNER.invoke(app, ["vectors", "run", str(folder), "--python", python, "--in-process", *flags])


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def _copy(folder: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(folder, tmp_path / "copy"))


# -- the done-when ----------------------------------------------------------------------------------------


def test_an_engine_with_one_non_default_reading_passes_its_own_vectors_and_its_seeded_bug_fails_them(suites, engine):
    passed = _run(suites["raw"], f"{engine}:run", "--ruleset", RAW, "--json")
    assert passed.exit_code == 0, passed.output[-2000:]
    report = json.loads(passed.output)
    assert report["vectors"] == len(_found()) and not report["failed"]
    seeded = _run(suites["raw"], f"{engine}:run_mutant", "--ruleset", RAW, "--json")
    assert seeded.exit_code == 1, seeded.output[-2000:]
    failed = json.loads(seeded.output)["failed"]  # its own failures (Armor rounding), not the reading's
    assert failed and all(f["status"] == "mismatch" and "-armor-" in f["path"] for f in failed), failed


def test_the_same_engine_fails_the_default_vectors_only_where_the_reading_matters(suites, engine):
    """Before: the only suite there was, the defaults', failed a correct raw_amount engine on each vector whose
    outcome the reading decides (and every seeded bug "failed" the same ones)."""
    result = _run(suites["defaults"], f"{engine}:run", "--json")
    assert result.exit_code == 1, result.output[-2000:]
    failed = [f["path"] for f in json.loads(result.output)["failed"]]
    assert len(failed) == 2 and all("-intercept-" in path for path in failed), failed


def test_a_suite_exported_under_defaults_is_refused_by_a_run_declaring_another_reading(suites, engine):
    result = _run(suites["defaults"], f"{engine}:run", "--ruleset", RAW)
    assert result.exit_code == 2, result.output[-2000:]
    assert "lethal_redirect_test: exported would_kill, declared raw_amount" in result.output
    assert "vectors pass" not in result.output  # refused before any vector ran
    reverse = _run(suites["raw"], f"{engine}:run")
    assert reverse.exit_code == 2 and "lethal_redirect_test: exported raw_amount, declared would_kill" in reverse.output


def test_a_run_declaring_the_defaults_takes_a_suite_exported_under_them(suites):
    for flags in ((), ("--ruleset", "lethal_redirect_test=would_kill")):
        result = _run(suites["defaults"], "referee.examples.engine:run", *flags)
        assert result.exit_code == 0, result.output[-2000:]


# -- what the export writes ---------------------------------------------------------------------------------------


def test_every_vector_carries_the_declared_reading_and_its_expectation_under_it(suites):
    manifest = _manifest(suites["raw"])
    assert manifest["rulebooks"]["combat"]["ruleset"]["lethal_redirect_test"] == "raw_amount"
    assert manifest["rulebooks"]["play"]["ruleset"] == _manifest(suites["defaults"])["rulebooks"]["play"]["ruleset"]
    changed = 0
    for entry in manifest["vectors"]:
        vector = json.loads((suites["raw"] / entry["path"]).read_text())
        assert vector["scenario"]["ruleset"]["lethal_redirect_test"] == "raw_amount" == entry["ruleset"][
            "lethal_redirect_test"]
        book = rulebooks.of_scenario(vector["scenario"])
        state, events, steps = book.observe(vector["scenario"])
        assert vector["expected"] == book.encode_observation(state, events, None)
        assert vector["clauses"] == clauses_applied(steps)
        default = json.loads((suites["defaults"] / entry["path"]).read_text())
        changed += default["expected"] != vector["expected"]
    assert changed == 2  # the two intercept cases: the reading decides their outcome


def test_the_default_export_writes_each_vector_as_it_was_found(suites):
    found = {json.dumps(v.scenario, sort_keys=True): v.to_json() for v in _found()}
    manifest = _manifest(suites["defaults"])
    for entry in manifest["vectors"]:
        vector = json.loads((suites["defaults"] / entry["path"]).read_text())
        assert vector == found[json.dumps(vector["scenario"], sort_keys=True)]
    assert {name: book["ruleset"] for name, book in manifest["rulebooks"].items()} == {
        name: book.rules_to_json(book.default_rules) for name, book in rulebooks.RULEBOOKS.items()}


def test_the_readings_table_of_referee_toml_is_an_export_declaration(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text('ruleset = { lethal_redirect_test = "raw_amount" }\n')
    monkeypatch.chdir(tmp_path)
    _export(tmp_path / "out")
    assert _manifest(tmp_path / "out")["rulebooks"]["combat"]["ruleset"]["lethal_redirect_test"] == "raw_amount"


@pytest.mark.parametrize("pair, said", [("bogus=1", "unknown ruleset option 'bogus'"),
                                        ("lethal_redirect_test=nope", "'nope' is not one of"),
                                        ("lethal_redirect_test", "expected name=value")])
def test_an_unknown_option_or_value_is_a_usage_error_before_any_work(suites, tmp_path, pair, said):
    export = RUNNER.invoke(app, ["vectors", "export", str(tmp_path / "out"), "--ruleset", pair])
    assert export.exit_code == 2 and said in export.output, export.output[-2000:]
    assert not (tmp_path / "out" / "manifest.json").exists()
    run = _run(suites["defaults"], "referee.examples.engine:run", "--ruleset", pair)
    assert run.exit_code == 2 and said in run.output, run.output[-2000:]


def test_a_manifest_without_readings_is_taken_as_exported_under_the_defaults_and_says_so(suites, tmp_path):
    copy = _copy(suites["defaults"], tmp_path)
    manifest = _manifest(copy)
    for book in manifest["rulebooks"].values():
        del book["ruleset"]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    result = _run(copy, "referee.examples.engine:run")
    assert result.exit_code == 0, result.output[-2000:]
    assert "records no readings for combat, play" in result.output and "default readings" in result.output
    as_json = _run(copy, "referee.examples.engine:run", "--json")
    assert as_json.exit_code == 0 and "records no readings" in json.loads(as_json.output)["notes"][0]
    refused = _run(copy, "referee.examples.engine:run", "--ruleset", RAW)
    assert refused.exit_code == 2 and "lethal_redirect_test: exported would_kill" in refused.output


def test_a_manifest_recording_an_unknown_reading_is_named(suites, tmp_path):
    copy = _copy(suites["defaults"], tmp_path)
    manifest = _manifest(copy)
    manifest["rulebooks"]["combat"]["ruleset"]["lethal_redirect_test"] = "sometimes"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    result = _run(copy, "referee.examples.engine:run")
    assert result.exit_code == 2 and "rulebooks.combat.ruleset" in result.output and "'sometimes'" in result.output


# -- a folder is the suite its manifest describes ----------------------------------------------------------------


def test_a_folder_holding_vectors_its_manifest_does_not_list_is_refused(suites, tmp_path):
    """Before: a manifest listing 5 vectors over a folder of many ran the 5 and exited 0."""
    copy = _copy(suites["defaults"], tmp_path)
    manifest = _manifest(copy)
    dropped = [entry["path"] for entry in manifest["vectors"][5:]]
    manifest["vectors"] = manifest["vectors"][:5]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    result = _run(copy, "referee.examples.engine:run")
    assert result.exit_code == 2, result.output[-2000:]
    assert f"{len(dropped)} files" in result.output and min(dropped) in result.output
    assert "a vector file manifest.json does not list" in result.output and "vectors pass" not in result.output


def test_a_listed_vector_missing_from_the_folder_is_named(suites, tmp_path):
    copy = _copy(suites["defaults"], tmp_path)
    receipt = tmp_path / "receipt.json"
    assert _run(copy, "referee.examples.engine:run", "--receipt", str(receipt)).exit_code == 0
    gone = [entry["path"] for entry in _manifest(copy)["vectors"][:2]]
    for path in gone:
        (copy / path).unlink()
    result = _run(copy, "referee.examples.engine:run")
    assert result.exit_code == 2 and f"{gone[0]}: no such file" in result.output, result.output[-2000:]
    check = RUNNER.invoke(app, ["vectors", "check-receipt", str(receipt), str(copy)])
    assert check.exit_code == 1
    assert all(f"{path}: listed in manifest.json, not in the folder" in check.output for path in gone), check.output


def test_check_receipt_fails_on_the_same_unlisted_file(suites, tmp_path):
    copy = _copy(suites["defaults"], tmp_path)
    receipt = tmp_path / "receipt.json"
    assert _run(copy, "referee.examples.engine:run", "--receipt", str(receipt)).exit_code == 0
    check = ["vectors", "check-receipt", str(receipt), str(copy)]
    assert RUNNER.invoke(app, check).exit_code == 0
    first = copy / _manifest(copy)["vectors"][0]["path"]
    shutil.copy(first, first.with_name("9999-smuggled.json"))
    result = RUNNER.invoke(app, check)
    assert result.exit_code == 1 and "9999-smuggled.json: a vector file manifest.json does not list" in result.output
    assert _run(copy, "referee.examples.engine:run").exit_code == 2


def test_a_receipt_written_into_the_folder_is_not_taken_for_a_vector(suites, tmp_path):
    copy = _copy(suites["defaults"], tmp_path)
    assert _run(copy, "referee.examples.engine:run", "--receipt", str(copy / "receipt.json")).exit_code == 0
    assert _run(copy, "referee.examples.engine:run").exit_code == 0


# -- branch coverage under readings -------------------------------------------------------------------------------


def test_branch_coverage_is_what_the_vectors_take_under_the_readings():
    """The search ran under the default readings: a branch whose vector no longer takes it is not claimed covered,
    and a branch Z3 found unreachable that a vector now takes is covered."""
    branches = {"covered": {"f=true": "v1", "f=false": "v2", "g=true": "v2"}, "unreachable": ["h=true"],
                "unknown": [], "outside_domain": [], "outside_profile": []}
    entries = [{"path": "v1", "exercises": ["f=true", "h=true"]}, {"path": "v2", "exercises": ["f=true"]}]
    _settle_under_readings(branches, entries)
    assert branches["covered"] == {"f=true": "v1", "h=true": "v1"}
    assert branches["not_taken_under_readings"] == ["f=false", "g=true"] and branches["unreachable"] == []
