"""A failing vector fails one clause: the clause ``check`` names for the same scenario and answer (its group key's:
the model step at fault, ``referee.check.grouping.keys``), not every clause the pipeline passed on the way; where the key
names none, the clause of the model step at fault (``referee.check.grouping.attribution``); a mismatch no step explains, at the
vector's primary clause. One attribution for both verbs, from one function."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_tools import export_boundary_cases
from typer.testing import CliRunner

from referee.cli.app import app
from referee.specs.trace import covers
from referee.trail import Step, window
from referee.vectors.suite import clause_at_fault

EQUAL = "vitality-equal-to-damage"


@pytest.fixture(scope="module")
def boundary_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written boundary cases only, exported (no Z3 search)."""
    return export_boundary_cases(tmp_path_factory.mktemp("marks"))


def _run(folder: Path, mutant: str, *extra: str) -> dict:
    result = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", f"referee.examples.mutants:{mutant}",
                                      "--json", *extra])
    assert result.exit_code == 1, result.output[-2000:]
    return json.loads(result.output)


@covers("combat:500.1-13")
def test_a_divergence_fails_only_the_clause_at_fault(boundary_folder: Path):
    """A death decided on `< 0` instead of `<= 0` diverges at the death event: each failing vector fails the one
    clause of the model step at fault (``referee.check.grouping.attribution``), and the table shows FAIL at those clauses only, not
    at the Armor, cap and Shield clauses the vector passed on the way."""
    report = _run(boundary_folder, "death_only_below_zero")
    failure = next(f for f in report["failed"] if f["path"].endswith(EQUAL + ".json"))
    assert failure["status"] == "mismatch" and '"death"' in failure["detail"]
    assert len(failure["failed_clauses"]) == 1
    at_fault = {f["failed_clauses"][0] for f in report["failed"]}
    assert {c for c, row in report["clauses"].items() if row["status"] == "FAIL"} == at_fault
    assert len(at_fault) <= 3
    for passed in ("combat:500.2a", "combat:500.2c", "combat:500.1-7", "combat:500.1-10"):
        assert passed in failure["clauses"] and report["clauses"][passed]["status"] == "ok"


def test_the_receipt_records_the_clause_each_failure_fails(boundary_folder: Path, tmp_path: Path):
    receipt = tmp_path / "receipt.json"
    _run(boundary_folder, "death_only_below_zero", "--receipt", str(receipt))
    results = json.loads(receipt.read_text())["results"]
    failed = [r for r in results if r["status"] == "mismatch"]
    assert failed and all(len(r["failed_clauses"]) == 1 for r in failed)
    assert all(r["failed_clauses"] == [] for r in results if r["status"] == "pass")


def test_a_state_divergence_fails_the_clause_of_the_step_that_set_the_field(boundary_folder: Path):
    report = _run(boundary_folder, "death_only_below_zero", "--events", "none")
    assert report["failed"]
    for failure in report["failed"]:
        assert failure["detail"].startswith("board.") and len(failure["failed_clauses"]) == 1
    assert sum(row["status"] == "FAIL" for row in report["clauses"].values()) <= 3


def test_window_is_the_calls_since_the_previous_event_without_the_enclosing_ones():
    steps = [
        Step("pipeline", ("c:all",), 0),
        Step("armor", ("c:armor",), 1),
        Step(None, (), 1, "shield_damaged", 0),
        Step("vitality", ("c:vitality",), 1),
        Step("death", ("c:death",), 1),
        Step("listener", ("c:listener",), 2),
        Step(None, (), 2, "death", 1),
        Step("after", ("c:after",), 1),
    ]
    assert [s.function for s in window(steps, 1)] == ["vitality", "death", "listener", None]
    assert [s.function for s in window(steps, 0)] == ["pipeline", "armor", None]  # the emitter's caller stays
    assert [s.function for s in window(steps, 2)] == ["after"]  # past the model's last event: to the end


def test_a_mismatch_no_step_explains_fails_its_primary_clause():
    """Where check's key names no clause (here: no divergence to key), the step at fault's, then the primary's."""
    entry = {"primary": "c:p", "clauses": ["c:p", "c:a", "c:b"]}
    assert clause_at_fault({}, [], [{"clause": "c:x"}, {"clause": "c:b"}], entry) == "c:b"
    assert clause_at_fault({}, [], [], entry) == "c:p"
    assert clause_at_fault({}, [], [], {"primary": "", "clauses": []}) == "(none)"


@pytest.fixture(scope="module")
def cost_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Z3 vectors of the cost templates (a payback, a Bloodletting payment, Interest, Self-destruct)."""
    folder = tmp_path_factory.mktemp("costs") / "v"
    result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--only", "cost/", "--quiet"])
    assert result.exit_code == 0, result.output
    return folder


def _checks_clause(folder: Path, path: str, mutant: str) -> str | None:
    """The clause ``referee check`` names for the vector's scenario answered by the mutant: its group key's."""
    from referee.check.compare import compare
    from referee.check.grouping.groups import clause_of_key
    from referee.check.grouping.api import group_key_of
    from referee.check.harness import CheckOptions
    from referee.engines.transports import check_answer
    from referee.examples.mutants import load
    from referee.protocol import decode_observation

    vector = json.loads((folder / path).read_text())
    scenario = {k: v for k, v in vector["scenario"].items() if k != "id"}
    answer = check_answer(load(mutant).run(json.loads(json.dumps(scenario))), scenario, fields_needed=None,
                          events_needed=True)
    divergences = compare(decode_observation(vector["expected"], rulebook="combat"), answer,
                          CheckOptions().comparison, "combat")
    return clause_of_key(group_key_of(scenario, divergences))


@pytest.mark.parametrize("mutant, folder", [("death_only_below_zero", "boundary_folder"),
                                            ("shield_broken_only_below_zero", "boundary_folder"),
                                            ("cost_spends_shield", "cost_folder"),
                                            ("vessel_not_spent", "cost_folder")])
def test_vectors_run_names_the_clause_check_names_for_each_failing_vector(mutant, folder, request):
    """One attribution for every verb (issue #45): each failing vector of a seeded bug fails the clause ``check``'s
    group key names for the same scenario and answer."""
    folder = request.getfixturevalue(folder)
    report = _run(folder, mutant)
    assert report["failed"], report
    for failure in report["failed"]:
        named = _checks_clause(folder, failure["path"], mutant)
        assert named is None or failure["failed_clauses"] == [named], (failure["path"], failure["failed_clauses"], named)
    assert any(_checks_clause(folder, f["path"], mutant) for f in report["failed"])
