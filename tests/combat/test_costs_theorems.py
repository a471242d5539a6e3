"""Every theorem of 500.6, 500.7, 500.8 and 800.4 is proved, not vacuous, and refutes each of its mutants."""

from __future__ import annotations

import pytest

import referee.proofs.combat.bloodletting_theorems
import referee.proofs.combat.costs_theorems
import referee.proofs.combat.retaliation_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

MODULES = ("referee.proofs.combat.costs_theorems", "referee.proofs.combat.retaliation_theorems", "referee.proofs.combat.bloodletting_theorems")
COST_THEOREMS = sorted((t for t in THEOREMS.values() if t.module in MODULES), key=lambda t: t.name)
COST_MUTANTS = [(t, m) for t in COST_THEOREMS for m in t.mutants]

#: The theorems the issue asks for, at least (by the property each states).
REQUIRED = (
    "cost_never_spends_shield_insurance_ignore_charges_or_armor",
    "cost_never_exceeds_the_payers_vitality",
    "cost_emits_no_damage_reaction",
    "retaliation_never_triggers_retaliation",
    "self_destruct_always_kills",
    "interest_lowers_max_vitality_by_exactly_what_was_paid",
    "bloodletting_payer_is_the_first_eligible_unit_in_reading_order",
    "reduced_to_zero_bloodletting_moves_nothing_and_emits_nothing",
    "reflect_is_at_least_one_exactly_when_damage_landed",
)


def test_the_required_theorems_are_registered_with_clauses_and_mutants():
    names = {t.name for t in COST_THEOREMS}
    assert set(REQUIRED) <= names
    for thm in COST_THEOREMS:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")
    assert THEOREMS["bloodletting_payer_is_the_first_eligible_unit_in_reading_order"].bound


@covers("combat:500.8a", "combat:500.8b", "combat:500.8c", "combat:500.8g", "combat:500.8h", "combat:800.4b",
        "combat:800.4m", "combat:500.7h", "combat:500.6b")  # fmt: skip
@pytest.mark.parametrize("thm", COST_THEOREMS, ids=lambda t: t.name)
def test_cost_theorem_is_proved_and_not_vacuous(thm):
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"


@pytest.mark.parametrize(("thm", "mutant"), COST_MUTANTS, ids=lambda x: getattr(x, "name", str(x)))
def test_cost_theorem_refutes_its_mutant(thm, mutant):
    verdict = check_mutant(thm, mutant)
    assert verdict.status == "killed", f"{thm.name} / {mutant.name}: {verdict.status} {verdict.detail}"
