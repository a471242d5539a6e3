"""The seeded mutants: each a one-line bug of the example engine, naming the clause it breaks;
and the example engine itself, independent of the model."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.examples import mutants
from referee.model.clauses import IMPLEMENTATIONS, load_all_model_modules, parse_clause_id

ROOT = Path(__file__).resolve().parents[2]


def test_there_are_at_least_twenty_mutants_and_eight_for_the_costs_chapter():
    assert len(mutants.MUTANTS) >= 20
    costs_chapter = [m for m in mutants.MUTANTS if set(m.kinds) & {"cost", "hit", "bloodletting"}]
    assert len(costs_chapter) >= 8
    assert len({m.name for m in mutants.MUTANTS}) == len(mutants.MUTANTS)


@pytest.mark.parametrize("mutant", mutants.MUTANTS, ids=lambda m: m.name)
def test_each_mutant_changes_exactly_one_line(mutant):
    changed = mutants.changed_lines(mutant)
    assert [line[0] for line in changed] == ["-", "+"], changed
    module = mutants.load(mutant.name)
    assert callable(module.run)


@pytest.mark.parametrize("mutant", mutants.MUTANTS, ids=lambda m: m.name)
def test_each_mutant_names_a_modeled_clause(mutant):
    load_all_model_modules()
    assert parse_clause_id(mutant.clause) in IMPLEMENTATIONS


def test_example_engine_does_not_import_the_model():
    for path in (ROOT / "examples").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("referee.model", "referee.harness", "referee.protocol")), path
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("referee.model") for a in node.names), path


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_engine_of_the_guide_passes_on_costs(in_tmp):
    command = f"node {ROOT / 'examples' / 'node' / 'engine.js'}"
    result = CliRunner().invoke(app, ["check", "--engine", command, "--kinds", "cost", "--examples", "200",
                                      "--seed", "1", "--database", ""])
    assert result.exit_code == 0, result.output
