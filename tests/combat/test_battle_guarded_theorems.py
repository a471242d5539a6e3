"""Every theorem of the guarded battle clock (500.4d, 500.9a) is proved, not vacuous, and refutes its mutants."""

from __future__ import annotations

import pytest

import referee.proofs.combat.battle_guarded_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

CLOCK_THEOREMS = sorted((t for t in THEOREMS.values() if t.module == "referee.proofs.combat.battle_guarded_theorems"),
                        key=lambda t: t.name)


def test_the_guarded_clock_theorems_are_registered_with_clauses_and_mutants():
    assert {t.name for t in CLOCK_THEOREMS} == {"guarded_everlasting_try_fires_exactly_ten_seconds_after_death",
                                                "no_everlasting_revival_after_combat_ends"}
    for thm in CLOCK_THEOREMS:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")


@covers("combat:500.4d", "combat:500.9a")
@pytest.mark.parametrize("thm", CLOCK_THEOREMS, ids=lambda t: t.name)
def test_500_9a_guarded_clock_theorem_is_proved_and_not_vacuous(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"


@pytest.mark.parametrize(("thm", "mutant"), [(t, m) for t in CLOCK_THEOREMS for m in t.mutants],
                         ids=lambda x: getattr(x, "name", str(x)))
def test_500_9a_guarded_clock_theorem_refutes_its_mutant(thm, mutant):
    verdict = check_mutant(thm, mutant)
    assert verdict.status == "killed", f"{thm.name} / {mutant.name}: {verdict.status} {verdict.detail}"
