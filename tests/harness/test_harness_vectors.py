"""Conformance vectors: every branch of every modeled clause has one (found by Z3), the boundary
cases are there, and ``referee vectors run`` replays them and reports per clause."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.model.clauses import IMPLEMENTATIONS, load_all_model_modules
from referee.rulebooks.combat.vectors import BOUNDARY_CASES
from referee.vectors import VECTORS_FORMAT


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("vectors")
    result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--quiet"])
    assert result.exit_code == 0, result.output
    return folder


def test_export_covers_every_branch_found_in_the_model(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["format"] == VECTORS_FORMAT and manifest["protocol"] == "referee/1"
    branches = manifest["rulebooks"]["combat"]["branches"]
    assert branches["unknown"] == [] and branches["templates_not_run"] == []
    # Branches no valid scenario reaches get no vector: the Shield pool's clamp at 0 fires only for a
    # negative Shield, outside the domain the theorems assume and the loader accepts
    # (``referee.model.combat.legal.UNIT_DOMAIN``); branches only the RELAXED bounds reach are
    # ``outside_domain``. The recovery cap's clamp at 0 (``compute_receivable``) likewise fires only for a
    # living unit above its maximum Vitality, which the domain excludes. Any other unreachable branch is a
    # dead guard.
    outside_domain = ("combat.shield.compute_damage_to_break@", "combat.recovery.compute_receivable@")
    dead = [b for b in branches["unreachable"] if not b.startswith(outside_domain)]
    assert dead == [], "a branch no scenario takes: a model guard that can never fire?"
    assert len(branches["covered"]) + len(branches["unreachable"]) + len(branches["outside_domain"]) == branches["total"] > 100
    assert len(branches["outside_domain"]) < 12
    for path in branches["covered"].values():
        vector = json.loads((exported / path).read_text())
        assert set(vector) == {"scenario", "expected", "clauses", "branch", "source"}


def test_export_covers_every_modeled_combat_clause(exported: Path):
    load_all_model_modules()
    manifest = json.loads((exported / "manifest.json").read_text())
    modeled = {str(c) for c in IMPLEMENTATIONS if c.rulebook == "combat"}
    # Every modeled combat clause has a vector: the recover, cull, tick, advance and end_combat kinds
    # (issue 14) reach recovery's ledger (500.3a, 500.3b, 500.3f) and the battle clock (500.9a).
    assert modeled - set(manifest["clauses"]) == set()


def test_layout_is_by_rulebook_kind_and_clause(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    for entry in manifest["vectors"]:
        rulebook, kind, clause, _ = Path(entry["path"]).parts
        assert rulebook == entry["rulebook"] == ("play" if entry["source"] == "play-case" else "combat")
        assert kind == entry["actions"][0] and f"{rulebook}:{clause}" in entry["clauses"]
    boundary = [e for e in manifest["vectors"] if e["source"] == "boundary"]
    assert len(boundary) == len(BOUNDARY_CASES)
    assert any(p.endswith("armor-exact-third-87-into-81.json") for p in (e["path"] for e in boundary))


def test_run_passes_the_clean_engine_and_reports_per_clause(exported: Path, engine_cmd):
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", engine_cmd(), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["failed"] == [] and report["vectors"] > 150
    assert "combat:500.2c" in report["clauses"]


def test_run_fails_a_mutant_on_its_clause_and_goes_on(exported: Path, engine_cmd, tmp_path: Path):
    junit = tmp_path / "vectors.xml"
    result = CliRunner().invoke(
        app, ["vectors", "run", str(exported), "--engine", engine_cmd("--mutant", "insurance_point_not_spent_whole"),
              "--json", "--junit", str(junit)],
    )
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["failed"] and all(f["status"] == "mismatch" for f in report["failed"])
    assert report["clauses"]["combat:500.1a"]["failed"] > 0
    assert "<failure" in junit.read_text()


def test_run_records_faults_per_vector(exported: Path, faulty_cmd):
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", faulty_cmd("garbage", 5), "--json",
                                      "--batch", "8"])
    assert result.exit_code == 3  # faults, no divergence
    report = json.loads(result.output)
    faults = [f for f in report["failed"] if f["status"] == "fault"]
    assert faults and "garbage" in faults[0]["detail"]
    assert len(report["failed"]) < report["vectors"]  # the rest still ran
