"""Every theorem of 500.4 and 500.9 is proved, not vacuous, and refutes each of its mutants."""

from __future__ import annotations

import pytest

import referee.proofs.combat.death_theorems
import referee.proofs.combat.revival_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

MODULES = ("referee.proofs.combat.death_theorems", "referee.proofs.combat.revival_theorems")
REVIVAL_THEOREMS = sorted((t for t in THEOREMS.values() if t.module in MODULES), key=lambda t: t.name)
REVIVAL_MUTANTS = [(t, m) for t in REVIVAL_THEOREMS for m in t.mutants]

#: The theorems issue 14 asks for, at least (by the property each states).
REQUIRED = (
    "revived_unit_has_full_vitality_battle_start_armor_and_no_statuses",
    "phylactery_returns_to_the_cell_of_death",
    "revival_never_returns_the_charge",
    "defy_death_rearmed_by_a_revival_saves_again",
    "everlasting_tries_ten_seconds_after_death_then_each_later_tick",
)


def test_the_required_theorems_are_registered_with_clauses_and_mutants():
    names = {t.name for t in REVIVAL_THEOREMS}
    assert set(REQUIRED) <= names
    for thm in REVIVAL_THEOREMS:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")
    assert THEOREMS["everlasting_tries_ten_seconds_after_death_then_each_later_tick"].bound


@covers("combat:500.4a", "combat:500.4b", "combat:500.4c", "combat:500.4e", "combat:500.9a", "combat:500.9b",
        "combat:500.9c", "combat:500.9d", "combat:500.9e", "combat:500.9f", "combat:500.9g", "combat:500.9h",
        "combat:500.9i", "combat:500.9j", "combat:500.9k", "combat:500.9l", "combat:500.9m")  # fmt: skip
@pytest.mark.parametrize("thm", REVIVAL_THEOREMS, ids=lambda t: t.name)
def test_revival_theorem_is_proved_and_not_vacuous(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"


@pytest.mark.parametrize(("thm", "mutant"), REVIVAL_MUTANTS, ids=lambda x: getattr(x, "name", str(x)))
def test_revival_theorem_refutes_its_mutant(thm, mutant):
    verdict = check_mutant(thm, mutant)
    assert verdict.status == "killed", f"{thm.name} / {mutant.name}: {verdict.status} {verdict.detail}"
