"""The 500.2 Armor theorems: each proved, not vacuous, and refuting every one of its mutants.

Also the concrete facts the theorems' statements lean on: the worked boundary example
of 500.2c, and why 500.2f needs at least 5 Armor.
"""

from __future__ import annotations

import pytest

from referee.proofs import core, runner
from referee.proofs.combat import armor_theorems
from referee.proofs.combat.armor_theorems import compute_armor_step, is_ceiling_of_positive_armor_share
from referee.specs.trace import covers

ARMOR_THEOREMS = [t for t in core.THEOREMS.values() if t.module == armor_theorems.__name__]


@pytest.fixture(scope="module")
def armor_suite() -> dict[str, runner.TheoremResult]:
    return {r.name: r for r in runner.run(ARMOR_THEOREMS, jobs=2).theorems}


def test_every_armor_clause_has_a_theorem() -> None:
    named = {str(c) for t in ARMOR_THEOREMS for c in t.clauses}
    assert {f"combat:500.2{x}" for x in "abcdf"} <= named


@covers("combat:500.2a", "combat:500.2b", "combat:500.2c", "combat:500.2d", "combat:500.2f")
@pytest.mark.parametrize("name", [t.name for t in ARMOR_THEOREMS])
def test_500_2_armor_theorem_is_proved_non_vacuous_and_kills_its_mutants(
    armor_suite: dict[str, runner.TheoremResult], name: str
) -> None:
    result = armor_suite[name]
    assert result.problems() == []
    assert result.status == "proved"
    assert result.vacuity.status == "satisfiable"
    assert result.mutants and all(m.status == "killed" for m in result.mutants)


@covers("combat:500.2c")
def test_500_2c_surviving_damage_rounds_up_at_an_exact_boundary() -> None:
    # sqrt(81) = 9: exactly 87 * 20 / 29 = 60 survives (a float gives 61), then 16 flat.
    assert compute_armor_step(87, 81) == 60 - 16
    assert is_ceiling_of_positive_armor_share(60, 87, 81)
    assert not is_ceiling_of_positive_armor_share(61, 87, 81)


@covers("combat:500.2f")
def test_500_2f_splitting_needs_a_flat_point_to_lose_damage() -> None:
    # Below 5 Armor there is no flat point and rounding up favours the split ...
    assert compute_armor_step(10, 1) + compute_armor_step(11, 1) > compute_armor_step(21, 1)
    # ... from 5 Armor the per-instance flat reduction outweighs it (the theorem's bound).
    assert compute_armor_step(6, 5) + compute_armor_step(6, 5) <= compute_armor_step(12, 5)


@covers("combat:500.2f")
def test_500_2f_split_theorem_states_its_armor_floor() -> None:
    statement = core.THEOREMS["flat_reduction_is_per_instance"].statement
    assert "at least 5 Armor" in statement
