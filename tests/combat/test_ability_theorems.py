"""Every theorem of 400.8 is proved, not vacuous, and refutes each of its mutants."""

from __future__ import annotations

import pytest

import referee.proofs.combat.ability_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

MODULE = "referee.proofs.combat.ability_theorems"
ABILITY_THEOREMS = sorted((t for t in THEOREMS.values() if t.module == MODULE), key=lambda t: t.name)
ABILITY_MUTANTS = [(t, m) for t in ABILITY_THEOREMS for m in t.mutants]


def test_the_ability_theorems_are_registered_with_clauses_and_mutants():
    assert {t.name for t in ABILITY_THEOREMS} >= {"zero_count_resolves_to_zero"}
    for thm in ABILITY_THEOREMS:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")


@covers("combat:400.8c", "combat:400.8-7")
@pytest.mark.parametrize("thm", ABILITY_THEOREMS, ids=lambda t: t.name)
def test_ability_theorem_is_proved_and_not_vacuous(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"


@pytest.mark.parametrize(("thm", "mutant"), ABILITY_MUTANTS, ids=lambda x: getattr(x, "name", str(x)))
def test_ability_theorem_refutes_its_mutant(thm, mutant):
    verdict = check_mutant(thm, mutant)
    assert verdict.status == "killed", f"{thm.name} / {mutant.name}: {verdict.status} {verdict.detail}"
