"""The 500.1 / 500.2 pipeline theorems: each proved, not vacuous, and refuting every one of its mutants.

Also the pipeline encoding's functionality: two symbolic runs of the same instance on the
same state, each with its own fresh integers from ``least_such_that`` (the Armor square
root, the Shield break point), can only agree, so the side conditions pin one value each.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
import z3

from referee.model.arith import and_, symbolic
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.proofs import core, runner
from referee.proofs.combat import armor_theorems, damage_theorems
from referee.model.combat.legal import is_legal_board
from referee.proofs.combat.damage_theorems import FLOOR_SHIELD, is_same_board, run_damage
from referee.specs.trace import covers

DAMAGE_THEOREMS = [t for t in core.THEOREMS.values() if t.module == damage_theorems.__name__]

#: The theorems the foundation issue asks for, by the property each states.
REQUIRED = (
    "vitality_never_rises_or_goes_below_zero",
    "insurance_points_never_increase",
    "insurance_point_absorbs_at_most_25_and_none_spent_needlessly",
    "shield_is_consumed_before_vitality",
    "nothing_above_the_cap_reaches_shield_or_vitality",
    "tools_and_hubs_are_unchanged",
    "ignore_charge_spent_only_on_positive_reachable_instance_and_nothing_else_changes",
    "more_armor_never_means_more_damage",
    "negative_armor_never_reduces_pipeline_damage",  # negative_armor_never_reduces_damage is the Armor step's
    "burn_and_venom_ticks_are_unaffected_by_armor",
    "a_tick_reduced_to_zero_changes_nothing",
    "dormant_recipient_discards_direct_hits_but_not_ticks",
    "dead_recipient_or_non_positive_amount_changes_nothing",
    "insured_damage_is_credited_to_nobody",
    "subrogated_payback_equals_subrogated_absorbed",
    "defy_death_leaves_the_unit_alive",
)


#: Lemmas the damage theorems are proved from, all Armor theorems: ``tests/combat/test_armor_theorems.py``
#: proves each of them, so this file does not prove them a second time.
LEMMAS = sorted({lemma for t in DAMAGE_THEOREMS for lemma in t.lemmas})


@pytest.fixture(scope="module")
def damage_suite() -> dict[str, runner.TheoremResult]:
    return {r.name: r for r in runner.run(DAMAGE_THEOREMS, jobs=2).theorems}


def test_every_lemma_is_an_armor_theorem_proved_by_its_own_suite() -> None:
    assert LEMMAS, "more_armor_never_means_more_damage is proved from the Armor step's monotonicity"
    for name in LEMMAS:
        assert core.THEOREMS[name].module == armor_theorems.__name__  # the suite tests/combat/test_armor_theorems.py runs


def test_the_required_theorems_are_registered_with_clauses_and_mutants() -> None:
    names = {t.name for t in DAMAGE_THEOREMS}
    assert set(REQUIRED) <= names, sorted(set(REQUIRED) - names)
    for thm in DAMAGE_THEOREMS:
        assert thm.clauses and thm.mutants and thm.statement.endswith(".")
        assert all(str(c).startswith("combat:500.") for c in thm.clauses)


@covers(
    "combat:500.1-1", "combat:500.1-2", "combat:500.1-3", "combat:500.1-4", "combat:500.1-5", "combat:500.1-6",
    "combat:500.1-7", "combat:500.1-8", "combat:500.1-9", "combat:500.1-10", "combat:500.1-12", "combat:500.1-13",
    "combat:500.1a", "combat:500.1b", "combat:500.1d", "combat:500.1e", "combat:500.1h", "combat:500.1i",
    "combat:500.2d", "combat:500.7g",
)  # fmt: skip
@pytest.mark.parametrize("name", [t.name for t in DAMAGE_THEOREMS])
def test_500_1_damage_theorem_is_proved_non_vacuous_and_kills_its_mutants(
    damage_suite: dict[str, runner.TheoremResult], name: str
) -> None:
    result = damage_suite[name]
    assert set(result.unproved_lemmas) <= set(LEMMAS)  # not run here: proved in tests/combat/test_armor_theorems.py
    assert [p for p in result.problems() if "uses lemma" not in p] == []
    assert result.status == "proved"
    assert result.vacuity.status == "satisfiable"
    assert result.mutants and all(m.status == "killed" for m in result.mutants)


#: (kind, ruleset) pairs: every path through the Armor step and the Shield break point.
#: With the Armor step in the query Z3's effort depends on the process (measured for hit/default:
#: 4.7M rlimit under most PYTHONHASHSEED values, 53M under others), so the hit cases are a long
#: campaign; in the default run the Armor step's own functionality is proved by
#: ``positive_armor_encoding_is_functional``, ``negative_armor_encoding_is_functional`` and
#: ``reciprocal_negative_armor_encoding_is_functional``, the Shield's by ``shield_break_encoding_is_functional``.
FUNCTIONALITY_CASES = [
    pytest.param("burn", DEFAULT, id="burn-default"),
    pytest.param("burn", FLOOR_SHIELD, id="burn-floor-shield"),
    pytest.param("reflect", DEFAULT, id="reflect-default"),
    pytest.param("hit", DEFAULT, id="hit-default", marks=pytest.mark.slow),
    pytest.param("hit", Ruleset(negative_armor="reciprocal"), id="hit-reciprocal-negative-armor", marks=pytest.mark.slow),
    pytest.param("hit", FLOOR_SHIELD, id="hit-floor-shield", marks=pytest.mark.slow),
]


def _disagreement(kind: str, ruleset: Ruleset) -> str:
    """Z3's answer to: can two symbolic runs of one instance on one well-formed state disagree?"""
    variables = core.Vars()
    with symbolic() as context:
        one = run_damage(variables, kind, ruleset=ruleset)
        two = run_damage(variables, kind, ruleset=ruleset)
        agree = and_(
            is_same_board(one.after, two.after),
            one.out.after_armor == two.out.after_armor,
            one.out.shield_absorbed == two.out.shield_absorbed,
            one.out.vitality_lost == two.out.vitality_lost,
        )
        well_formed = is_legal_board(one.before)
    if len(context.side_conditions) < 8:
        return "each run should introduce its own least_such_that integers"
    solver = z3.Solver()
    solver.set("rlimit", 200_000_000)
    solver.add(*context.side_conditions, well_formed, z3.Not(agree))
    answer = solver.check()
    return str(answer) if answer != z3.unknown else f"unknown ({solver.reason_unknown()})"


def _in_fresh_process(kind: str, ruleset: Ruleset, connection: Any) -> None:
    connection.send(_disagreement(kind, ruleset))
    connection.close()


@covers("combat:500.2a", "combat:500.2c", "combat:500.2d", "combat:500.1-10")
@pytest.mark.parametrize(("kind", "ruleset"), FUNCTIONALITY_CASES)
def test_500_1_pipeline_encoding_is_functional(kind: str, ruleset: Ruleset) -> None:
    # A forked process per check, as the proof runner does: Z3 answers erratically after other queries.
    fork = multiprocessing.get_context("fork")
    receiver, sender = fork.Pipe(duplex=False)
    process = fork.Process(target=_in_fresh_process, args=(kind, ruleset, sender), daemon=True)
    process.start()
    sender.close()
    answer = receiver.recv() if receiver.poll(300) else "no answer within 300 s"
    process.join(5)
    assert answer == "unsat"
