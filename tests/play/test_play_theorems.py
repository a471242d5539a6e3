"""Every play theorem is proved, not vacuous, and refutes each of its mutants; every play clause has model code."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import referee.model.play as model_play
import referee.proofs.play as proofs_play
from referee.model.clauses import IMPLEMENTATIONS, parse_clause_id
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

#: The play rulebook's rules, exactly as the seed numbers them (004).
PLAY_IDS = (
    "164.2.a", "164.2.b", "202", "203", "203.1", "203.3", "350.1", "354", "355.1.a", "355.2",
    "356.2", "356.3", "356.4", "356.4.c", "356.6", "356.7", "357.1", "357.1.a", "357.2", "358.2",
    "358.5", "359.2.c", "399", "403.1.a", "414.1.b", "414.4", "414.5", "416.3", "444.2.a",
)  # fmt: skip


def _import_all(package) -> None:
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)


_import_all(model_play)
_import_all(proofs_play)

PLAY_THEOREMS = sorted(
    (t for t in THEOREMS.values() if t.module.startswith("referee.proofs.play")), key=lambda t: t.name
)
PLAY_MUTANTS = [(t, m) for t in PLAY_THEOREMS for m in t.mutants]


def test_play_theorems_are_registered():
    assert len(PLAY_THEOREMS) >= 10
    for thm in PLAY_THEOREMS:
        assert thm.clauses and all(c.rulebook == "play" for c in thm.clauses), thm.name


@pytest.mark.parametrize("thm", PLAY_THEOREMS, ids=lambda t: t.name)
def test_play_theorem_is_proved(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", (verdict.status, verdict.detail, verdict.counterexample)


@pytest.mark.parametrize("thm", PLAY_THEOREMS, ids=lambda t: t.name)
def test_play_theorem_is_not_vacuous(thm):
    assert check_vacuity(thm).status == "satisfiable"


@pytest.mark.parametrize("thm,mutant", PLAY_MUTANTS, ids=lambda x: getattr(x, "name", ""))
def test_play_theorem_kills_its_mutant(thm, mutant):
    verdict = check_mutant(thm, mutant)
    assert verdict.status == "killed", (verdict.status, verdict.detail)


@pytest.mark.parametrize("number", PLAY_IDS)
def test_every_play_rule_has_model_code(number):
    clause = parse_clause_id(number, "play")
    functions = IMPLEMENTATIONS.get(clause, [])
    assert functions, f"no model function implements {clause}"
    assert all(f.__module__.startswith("referee.model.play") for f in functions)


@pytest.mark.parametrize("number", PLAY_IDS)
def test_every_play_rule_is_cited_by_each_function_implementing_it(number):
    """A model function's one-line docstring cites every clause it declares."""
    clause = parse_clause_id(number, "play")
    for function in IMPLEMENTATIONS[clause]:
        assert f"{number})" in function.__doc__ or f"{number}," in function.__doc__, (function.__name__, number)


def test_no_play_model_code_claims_an_id_outside_the_seed():
    claimed = {c.number for c in IMPLEMENTATIONS if c.rulebook == "play"}
    assert claimed == set(PLAY_IDS)


@covers("play:358.5", "play:358.2")
def test_symbolic_run_introduces_no_fresh_variables():
    """The play encoding is the model run on symbols with no fresh unknowns, so it is functional by construction."""
    from referee.model.arith import symbolic
    from referee.proofs.core import Vars

    for thm in PLAY_THEOREMS:
        with symbolic() as context:
            thm.build(Vars())
        assert context.side_conditions == [], thm.name
