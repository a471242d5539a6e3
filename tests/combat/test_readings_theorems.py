"""The theorems of the re-checked readings (INT-008, INT-114, INT-112) are proved, not vacuous, and refute their mutants."""

from __future__ import annotations

import pytest

import referee.proofs.combat.readings_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

READINGS_THEOREMS = sorted((t for t in THEOREMS.values() if t.module == "referee.proofs.combat.readings_theorems"),
                           key=lambda t: t.name)


@covers("combat:500.7c", "combat:500.7d", "combat:500.1c", "combat:500.7k", "combat:500.7h")
@pytest.mark.parametrize("thm", READINGS_THEOREMS, ids=lambda t: t.name)
def test_readings_theorem_is_proved_not_vacuous_and_refutes_its_mutants(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"
    for mutant in thm.mutants:
        killed = check_mutant(thm, mutant)
        assert killed.status == "killed", f"{thm.name} / {mutant.name}: {killed.status} {killed.detail}"


def test_three_readings_theorems_are_registered():
    assert len(READINGS_THEOREMS) == 3 and all(t.mutants and t.clauses for t in READINGS_THEOREMS)
