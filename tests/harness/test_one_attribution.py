"""One attribution for every verb (``docs/grouping.md``): for each vector a seeded bug fails, ``vectors run`` names the
clause ``referee check --replay`` names for the same scenario, from the same function
(``referee.check.grouping.name_the_fault``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_tools import export_boundary_cases

from referee.check.compare import Comparison
from referee.check.harness import CheckOptions, replay
from referee.engines.transports import PythonEngine
from referee.examples.mutants import load
from referee.vectors.suite import run_vectors

#: Seeded bugs of different shapes, each failing several boundary vectors: a shared side check (retaliation against
#: an ally), a number (Armor rounding in floats), a multiplier skipped, a Vitality cost meeting a layer, a layer a Burn never meets.
MUTANTS = ("retaliation_against_ally", "float_armor_step", "shield_multiplier_ignored", "cost_spends_shield", "burn_meets_armor")


@pytest.fixture(scope="module")
def boundary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_boundary_cases(tmp_path_factory.mktemp("vectors") / "out")


@pytest.mark.parametrize("name", [n for n in MUTANTS])
def test_vectors_run_and_check_name_the_same_clause_for_each_failing_vector(name, boundary, tmp_path):
    engine = PythonEngine(load(name).run)
    failing = [r for r in run_vectors(boundary, engine, Comparison()) if r.status == "mismatch"]
    assert failing, f"{name} fails no boundary vector: the test would compare nothing"
    options = CheckOptions(database=None, state_dir=str(tmp_path))
    for result in failing:
        scenario = json.loads((boundary / result.path).read_text())["scenario"]
        report = replay(engine, scenario, options)
        assert report.status == "mismatch", result.path
        assert report.clause_at_fault is not None, result.path
        assert result.failed_clauses == [report.clause_at_fault], result.path
        assert f"rule broken (clause at fault): {report.clause_at_fault}" in report.text()
        assert report.to_json()["clause_at_fault"] == report.clause_at_fault
