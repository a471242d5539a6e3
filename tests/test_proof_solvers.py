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


def _positive_is_positive(v: Vars) -> Obligation:
    """A positive x stays positive after the model's max with 0."""
    from referee.model.arith import max_

    x = v.int("x")
    return Obligation(assume=x > 0, claim=max_(x, 0) > 0)


def test_a_narrower_search_reaches_the_mutant_check_only_and_its_kill_replays():
    from referee.proofs.core import check, encode_check

    narrowed = Mutant("max_is_zero", "referee.model.arith:max_", lambda a, b: 0, "max forgets its first term",
                      search_within=lambda v: v.int("x") == 7)  # fmt: skip
    thm = theorem("combat:500.2a", mutants=[narrowed], registry={})(_positive_is_positive)
    assert "7" in encode_check(thm, "mutant", narrowed).text
    assert "7" not in encode_check(thm, "proof").text and "7" not in encode_check(thm, "vacuity").text
    killed = check(thm, "mutant", narrowed)
    assert killed.status == "killed" and killed.counterexample == {"x": 7}
    outside = Mutant("max_is_zero", "referee.model.arith:max_", lambda a, b: 0, "max forgets its first term",
                     search_within=lambda v: v.int("x") < 0)  # fmt: skip
    assert check(thm, "mutant", outside).status != "killed"  # no witness in an empty narrower space
