"""Play-rulebook conformance vectors: every modeled play clause has one, the clean example engine
passes them, and every play mutant of the example engine fails at least one, reported per clause."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.examples.mutants import MUTANTS
from referee.model.clauses import IMPLEMENTATIONS, load_all_model_modules
from referee.rulebooks.play.vectors import PLAY_CASES

PLAY_MUTANTS = [m for m in MUTANTS if m.source == "play_engine.py"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("play-vectors")
    result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--only", "play", "--quiet"])
    assert result.exit_code == 0, result.output
    return folder


def test_every_modeled_play_clause_has_a_vector(exported: Path):
    load_all_model_modules()
    manifest = json.loads((exported / "manifest.json").read_text())
    modeled = {str(c) for c in IMPLEMENTATIONS if c.rulebook == "play"}
    assert modeled and modeled - set(manifest["clauses"]) == set()
    # and every one is the clause some case was written for, not only a clause the trail passed through
    primaries = {f"play:{primary}" for _, primary, _ in PLAY_CASES}
    assert modeled - primaries <= {"play:203.1", "play:350.1", "play:356.2", "play:356.7", "play:414.5"}


def test_play_vectors_layout_and_method(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["rulebooks"]["play"]["vectors"] == len(PLAY_CASES) == len(manifest["vectors"])
    assert "hand-written" in manifest["rulebooks"]["play"]["method"]
    for entry in manifest["vectors"]:
        rulebook, kind, clause, name = Path(entry["path"]).parts
        assert rulebook == "play" and kind == entry["actions"][0] and entry["clauses"][0] == f"play:{clause}"
        vector = json.loads((exported / entry["path"]).read_text())
        assert vector["scenario"]["rulebook"] == "play" and vector["expected"]["rulebook"] == "play"
    cancelled = {json.loads((exported / e["path"]).read_text())["expected"]["events"][-1].get("detail") for e in manifest["vectors"]}
    assert {"354", "355.2", "358.2", "399"} <= cancelled


def test_clean_engine_passes_the_play_vectors(exported: Path, engine_cmd):
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", engine_cmd(), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["failed"] == [] and report["vectors"] == len(PLAY_CASES)


@pytest.mark.parametrize("mutant", PLAY_MUTANTS, ids=lambda m: m.name)
def test_every_play_mutant_fails_a_play_vector_that_applies_its_clause(exported: Path, engine_cmd, mutant):
    """Each play mutant fails a vector applying its clause; the table shows FAIL only at the clauses of the model
    steps at fault (``referee.check.grouping.attribution``: which step that is, is the at-fault machinery's own measured claim)."""
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", engine_cmd("--mutant", mutant.name),
                                      "--json"])
    assert result.exit_code == 1, result.output[-2000:]
    report = json.loads(result.output)
    assert report["failed"] and all(f["status"] == "mismatch" for f in report["failed"])
    assert any(mutant.clause in f["clauses"] for f in report["failed"])
    at_fault = {f["failed_clauses"][0] for f in report["failed"]}
    assert {c for c, row in report["clauses"].items() if row["status"] == "FAIL"} == at_fault
