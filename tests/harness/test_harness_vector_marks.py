"""A failing vector marks only the clauses it exercises where it diverges: its primary clause and the
clauses of the model calls that made the diverging event (``referee.trail.window``), not every clause the
pipeline passed on the way; a final-state divergence, which the trail cannot place, marks them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import vectors as vectors_module
from referee.cli import app
from referee.rulebooks.combat.vectors import boundary_vectors
from referee.specs.trace import covers
from referee.trail import Step, window
from referee.vectors import Generated, marked_clauses

EQUAL = "vitality-equal-to-damage"


@pytest.fixture(scope="module")
def boundary_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written boundary cases only, exported (no Z3 search)."""
    folder = tmp_path_factory.mktemp("marks")
    found = boundary_vectors()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vectors_module, "generate", lambda progress=None, only=None, profile=None: Generated(list(found), {}))
        result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--quiet"])
    assert result.exit_code == 0, result.output
    return folder


def _run(folder: Path, mutant: str, *extra: str) -> dict:
    result = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", f"referee.examples.mutants:{mutant}",
                                      "--json", *extra])
    assert result.exit_code == 1, result.output[-2000:]
    return json.loads(result.output)


@covers("combat:500.1-13")
def test_a_late_divergence_marks_its_clause_and_not_the_armor_it_passed(boundary_folder: Path):
    """A death decided on `< 0` instead of `<= 0` diverges at the death event: the vector fails 500.1-13
    (and the death clauses after the Vitality loss), not the Armor, cap and Shield clauses before it."""
    report = _run(boundary_folder, "death_only_below_zero")
    failure = next(f for f in report["failed"] if f["path"].endswith(EQUAL + ".json"))
    assert failure["status"] == "mismatch" and '"death"' in failure["detail"]
    marked, listed = failure["failed_clauses"], failure["clauses"]
    assert marked[0] == listed[0] and set(marked) < set(listed)
    assert "combat:500.1-13" in marked
    for passed in ("combat:500.2a", "combat:500.2c", "combat:500.1-7", "combat:500.1-10"):
        assert passed in listed and passed not in marked
    # the per-clause table counts the vector on every clause it exercises, failed only on the marked ones
    assert report["clauses"]["combat:500.1-13"]["failed"] > 0
    armor = report["clauses"]["combat:500.2a"]
    assert armor["vectors"] > 0 and armor["failed"] < sum(1 for f in report["failed"] if "combat:500.2a" in f["clauses"])


def test_the_receipt_records_the_clauses_each_failure_marks(boundary_folder: Path, tmp_path: Path):
    receipt = tmp_path / "receipt.json"
    _run(boundary_folder, "death_only_below_zero", "--receipt", str(receipt))
    results = json.loads(receipt.read_text())["results"]
    failed = [r for r in results if r["status"] == "mismatch"]
    assert failed and all(set(r["failed_clauses"]) <= set(r["clauses"]) and r["failed_clauses"] for r in failed)
    assert all(r["failed_clauses"] == [] for r in results if r["status"] == "pass")


def test_a_state_divergence_cannot_be_placed_and_marks_every_clause(boundary_folder: Path):
    report = _run(boundary_folder, "death_only_below_zero", "--events", "none")
    assert report["failed"]
    for failure in report["failed"]:
        assert failure["detail"].startswith("board.") and failure["failed_clauses"] == failure["clauses"]


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


def test_marked_clauses_keep_the_primary_first_and_only_listed_clauses():
    entry = {"primary": "c:p", "clauses": ["c:p", "c:a", "c:b"]}
    assert marked_clauses(entry, ["c:b", "c:zzz"]) == ["c:p", "c:b"]
    assert marked_clauses(entry, None) == ["c:p", "c:a", "c:b"]
    assert marked_clauses({"primary": "", "clauses": []}, None) == ["(none)"]
