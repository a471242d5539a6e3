"""A check's solver configuration: part of its identity, and a bounded search never proves (issue 21)."""

from __future__ import annotations

import pytest

from referee.proofs.core import Mutant, Obligation, Vars, theorem
from referee.proofs.smt import SOLVERS, Query, decide

UNSAT = "(declare-fun x () Int)\n(assert (> (* x x) 5))\n(assert (< (* x x) 9))\n"
SAT = "(declare-fun x () Int)\n(assert (= (* x x) 49))\n"


def test_the_solver_name_is_part_of_the_digest():
    assert Query(SAT, (), "default").digest != Query(SAT, (), "bounded-witness").digest


def test_a_bounded_witness_search_finds_a_witness():
    found = decide(Query(SAT, (("x", "int"),), "bounded-witness"), 1_000_000, 0)
    assert found.answer == "sat" and found.values is not None and found.values["x"] ** 2 == 49


def test_a_bounded_witness_search_never_answers_unsat():
    assert decide(Query(UNSAT, (), "default"), 1_000_000, 0).answer == "unsat"
    found = decide(Query(UNSAT, (), "bounded-witness"), 1_000_000, 0)
    assert found.answer == "unknown"  # Z3 itself says unknown here; decide() also maps an unsat to it


def _claim(v: Vars) -> Obligation:
    """x is x."""
    x = v.int("x")
    return Obligation(assume=x >= 0, claim=x == x)


MUTANT = Mutant("none", "referee.model.arith:least_such_that", lambda *a, **k: None, "unused")


def test_a_theorem_refuses_an_unknown_or_witness_only_solver():
    assert "bounded-witness" in SOLVERS
    with pytest.raises(ValueError, match="cannot prove"):
        theorem("combat:500.2a", mutants=[MUTANT], registry={}, solver="bounded-witness")(_claim)
    with pytest.raises(ValueError, match="unknown solver"):
        theorem("combat:500.2a", mutants=[MUTANT], registry={}, solver="nope")(_claim)
