"""Every theorem of 500.3 and 500.5 is proved, not vacuous, and refutes each of its mutants.

The recovery theorems take well under a second each and run by default. The two split
theorems of 500.5b (non-linear, 10-75 s each) run with ``--runslow``; the share-bound lemma,
its three helper lemmas (a few seconds together) and the Feast theorems that use it as a
fact run by default (``referee prove -k 500.5`` proves all).
"""

from __future__ import annotations

import pytest

import referee.proofs.combat.attribution_theorems
import referee.proofs.combat.recovery_theorems  # noqa: F401  (registers the theorems)
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.specs.trace import covers

MODULES = ("referee.proofs.combat.recovery_theorems", "referee.proofs.combat.attribution_theorems")
CHAPTER = sorted((t for t in THEOREMS.values() if t.module in MODULES), key=lambda t: t.name)
#: Non-linear split theorems, each 10-75 s of Z3: a long campaign.
SLOW = {
    "tick_shares_sum_exactly_to_the_tick",
    "each_tick_share_is_within_one_of_its_exact_proportion",
}
#: The theorems the issue asks for, at least (by the property each states).
REQUIRED = (
    "a_heal_never_exceeds_what_the_target_can_receive",
    "maim_consumption_is_half_the_prevented_amount_rounded_up",
    "maim_never_prevents_more_than_two_per_point",
    "tick_shares_sum_exactly_to_the_tick",
    "each_tick_share_is_within_one_of_its_exact_proportion",
    "feast_never_exceeds_the_vitality_portion",
)


def cases(slow: bool) -> list:
    return [t for t in CHAPTER if (t.name in SLOW) == slow]


def test_the_required_theorems_are_registered_with_clauses_and_mutants():
    names = {t.name for t in CHAPTER}
    assert set(REQUIRED) <= names and SLOW <= names
    for thm in CHAPTER:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")


def check(thm) -> None:
    verdict = prove(thm)
    assert verdict.status == "proved", f"{thm.name}: {verdict.status} {verdict.detail} {verdict.counterexample}"
    vacuity = check_vacuity(thm)
    assert vacuity.status == "satisfiable", f"{thm.name}: {vacuity.status} {vacuity.detail}"
    for mutant in thm.mutants:
        killed = check_mutant(thm, mutant)
        assert killed.status == "killed", f"{thm.name} / {mutant.name}: {killed.status} {killed.detail}"


@covers("combat:500.3b", "combat:500.3c", "combat:500.3d", "combat:500.3e", "combat:500.3f", "combat:500.3g",
        "combat:500.5b", "combat:500.5c")  # fmt: skip
@pytest.mark.parametrize("thm", cases(slow=False), ids=lambda t: t.name)
def test_theorem_is_proved_not_vacuous_and_refutes_its_mutants(thm):
    check(thm)


@pytest.mark.slow
@covers("combat:500.5b")
@pytest.mark.parametrize("thm", cases(slow=True), ids=lambda t: t.name)
def test_split_lemma_is_proved_not_vacuous_and_refutes_its_mutants(thm):
    check(thm)
