"""800.4 Bloodletting: who pays, how much, and what happens to the activation."""

from __future__ import annotations

from typing import Any

import pytest

from referee.model.combat.bloodletting import (
    activate_with_bloodletting,
    choose_bloodletting_payer,
    process_bloodletting,
    read_cost_paid,
    resolve_bloodletting,
)
from referee.model.combat.damage import DamageInstance
from referee.model.events import EventLog
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def at(uid: str, row: int, col: int, side: int = 0, **fields: Any) -> Unit:
    return Unit(uid, side=side, row=row, col=col, **fields)


def bleed(b: Board, caster: str, cost: int, ruleset: Ruleset = Ruleset()):
    log = EventLog()
    after, outcome = process_bloodletting(b, caster, cost, log, ruleset)
    return after, log, outcome


FOE = at("foe", 0, 0, side=1, vitality=100)
STRIKE = [DamageInstance("foe", 20, "c")]


# --------------------------------------------------------------------------------------
# 800.4a
# --------------------------------------------------------------------------------------


@covers("combat:800.4a")
def test_800_4a_the_cost_is_paid_before_the_damage_is_computed():
    b = Board((at("c", 0, 0, vitality=30), FOE))
    seen = []

    def damage(board, outcome):
        seen.append((board.unit("c").vitality, outcome.paid))
        return [DamageInstance("foe", outcome.paid, "c")]

    after, log, _ = activate_with_bloodletting(b, "c", 12, damage)
    assert seen == [(18, 12)] and after.unit("foe").vitality == 88
    assert names(log).index("bloodletting_paid") < names(log).index("damage_taken")


# --------------------------------------------------------------------------------------
# 800.4b, 800.4c
# --------------------------------------------------------------------------------------


@covers("combat:800.4b")
def test_800_4b_the_first_unit_in_reading_order_pays_often_not_the_caster():
    b = Board((at("c", 1, 0), at("right", 0, 2), at("left", 0, 1), FOE))
    assert choose_bloodletting_payer(b, "c") == "left"
    after, log, outcome = bleed(b, "c", 10)
    assert outcome.payer == "left" and after.unit("left").vitality == 90 and after.unit("c").vitality == 100
    assert events(log, "bloodletting_paid") == [("left", 10, "c", None)]


@covers("combat:800.4b")
def test_800_4b_rows_come_before_columns():
    b = Board((at("c", 2, 0), at("low_left", 1, 0), at("top_right", 0, 3)))
    assert choose_bloodletting_payer(b, "c") == "top_right"


@covers("combat:800.4c")
def test_800_4c_dead_entrapped_boss_and_other_half_units_are_skipped():
    b = Board((
        at("dead", 0, 0, alive=False, vitality=0), at("trapped", 0, 1, entrapped=True), at("boss", 0, 2, is_boss=True),
        at("enemy_first", 0, 0, side=1), at("ally", 1, 0), at("c", 1, 1),
    ))  # fmt: skip
    assert choose_bloodletting_payer(b, "c") == "ally"


@covers("combat:800.4c")
def test_800_4c_a_boss_caster_pays_its_own_cost():
    b = Board((at("minion", 0, 0), at("boss", 0, 1, is_boss=True, vitality=500, max_vitality=500)))
    after, log, outcome = bleed(b, "boss", 40)
    assert outcome.payer == "boss" and after.unit("boss").vitality == 460 and after.unit("minion").vitality == 100


@covers("combat:800.4c", "combat:800.4k")
def test_800_4c_an_entrapped_boss_caster_has_no_payer():
    b = Board((at("minion", 0, 0), at("boss", 0, 1, is_boss=True, entrapped=True)))
    assert choose_bloodletting_payer(b, "boss") is None


# --------------------------------------------------------------------------------------
# 800.4d, 800.4e
# --------------------------------------------------------------------------------------


@covers("combat:800.4d")
@pytest.mark.parametrize("role", ["is_tool", "is_hub"])
def test_800_4d_a_tool_or_hub_first_fails_the_ability(role):
    b = Board((at("gear", 0, 0, **{role: True}), at("c", 0, 1), FOE))
    after, log, outcome = activate_with_bloodletting(b, "c", 10, STRIKE, immediate_effects=lambda bd, lg: 1 / 0)
    assert outcome.status == "failed" and outcome.payer == "gear"
    assert after == b and events(log, "activation_failed") == [("c", 0, "gear", None)]
    assert names(log) == ["activation_failed"]


@covers("combat:800.4d")
def test_800_4d_a_tool_behind_the_payer_changes_nothing():
    b = Board((at("ally", 0, 0), at("tool", 0, 1, is_tool=True), at("c", 0, 2)))
    assert bleed(b, "c", 10)[2].status == "paid"


@covers("combat:800.4e")
def test_800_4e_one_unit_pays_in_full_and_the_cost_is_never_split():
    b = Board((at("weak", 0, 0, vitality=4), at("strong", 0, 1), at("c", 0, 2)))
    after, log, outcome = bleed(b, "c", 30)
    assert outcome.paid == 4 and not after.unit("weak").alive and after.unit("strong").vitality == 100
    assert [u for u, _, _, _ in events(log, "bloodletting_paid")] == ["weak"]


# --------------------------------------------------------------------------------------
# 800.4f, 800.4g, 800.4h, 800.4i
# --------------------------------------------------------------------------------------


@covers("combat:800.4f")
def test_800_4f_armor_insurance_shield_and_ignore_charges_never_meet_it():
    payer = at("p", 0, 0, vitality=30, shield=1, insurance=2, subrogated=1, ignore_charges=1, armor=300)
    after, log, outcome = bleed(Board((payer, at("c", 0, 1))), "c", 12)
    p = after.unit("p")
    assert outcome.paid == 12 and p.vitality == 18
    assert (p.shield, p.insurance, p.subrogated, p.ignore_charges) == (1, 2, 1, 1)


@covers("combat:800.4g")
def test_800_4g_a_low_payer_pays_everything_and_cards_see_the_smaller_amount():
    after, log, outcome = bleed(Board((at("p", 0, 0, vitality=7), at("c", 0, 1))), "c", 25)
    assert outcome.paid == 7 and read_cost_paid(outcome) == 7 and not after.unit("p").alive
    assert events(log, "bloodletting_paid") == [("p", 7, "c", None)]


@covers("combat:800.4h")
def test_800_4h_defy_death_answers_a_lethal_payment_and_spends_its_charge():
    after, log, outcome = bleed(Board((at("p", 0, 0, vitality=10, defy_death=True), at("c", 0, 1))), "c", 25)
    p = after.unit("p")
    assert p.alive and p.vitality == 1 and not p.defy_death and outcome.paid == 9 and outcome.status == "paid"


@covers("combat:800.4h", "combat:800.4d")
def test_800_4h_a_payment_defy_death_takes_to_zero_fails_by_default():
    # INT-103: the payer is already at the rune's floor; the rune answers, nothing moves.
    b = Board((at("p", 0, 0, vitality=1, defy_death=True), at("c", 0, 1)))
    after, log, outcome = bleed(b, "c", 5)
    assert outcome.status == "failed" and not after.unit("p").defy_death
    assert names(log) == ["defy_death", "activation_failed"]
    _, log, outcome = bleed(b, "c", 5, Ruleset(bloodletting_defied_to_zero="continues"))
    assert outcome.status == "paid" and outcome.paid == 0 and names(log) == ["defy_death"]


@covers("combat:800.4i")
def test_800_4i_only_the_bloodletting_paid_channel_fires():
    payer = at("p", 0, 0, vitality=30, shield=5, thorns=3, riposte=2)
    _, log, _ = bleed(Board((payer, at("c", 0, 1))), "c", 12)
    assert names(log) == ["bloodletting_paid", "vitality_lost", "threshold_reevaluated"]


@covers("combat:800.4i", "combat:800.4d")
def test_800_4i_no_channel_when_no_vitality_moved():
    _, log, _ = bleed(Board((at("t", 0, 0, is_tool=True), at("c", 0, 1))), "c", 12)
    assert "bloodletting_paid" not in names(log)


# --------------------------------------------------------------------------------------
# 800.4j, 800.4k
# --------------------------------------------------------------------------------------


@covers("combat:800.4j")
def test_800_4j_a_lethal_payment_resolves_the_death_and_the_activation_continues():
    b = Board((at("p", 0, 0, vitality=5, deathrattle=True), at("c", 0, 1), FOE))
    after, log, outcome = activate_with_bloodletting(b, "c", 8, STRIKE)
    assert outcome.continues and not after.unit("p").alive and after.unit("foe").vitality == 80
    order = names(log)
    assert order.index("death") < order.index("macabre") < order.index("deathrattle") < order.index("damage_taken")


@covers("combat:800.4k")
def test_800_4k_no_eligible_payer_aborts_before_damage_but_immediate_effects_resolve():
    b = Board((at("dead", 0, 0, alive=False, vitality=0), at("boss", 0, 1, is_boss=True, vitality=900, max_vitality=900),
               at("c", 0, 2, entrapped=True), FOE))  # fmt: skip
    ran = []

    def immediate(board, log):
        ran.append(True)
        return board

    after, log, outcome = activate_with_bloodletting(b, "c", 10, STRIKE, immediate_effects=immediate)
    assert outcome.status == "aborted" and ran == [True]
    assert after == b and names(log) == ["activation_aborted"] and events(log, "activation_aborted") == [("c", 0, None, None)]


# --------------------------------------------------------------------------------------
# 800.4l, 800.4m
# --------------------------------------------------------------------------------------


@covers("combat:800.4l")
def test_800_4l_the_reduction_lowers_the_cost_before_the_payer_is_chosen():
    b = Board((at("p", 0, 0, vitality=30), at("c", 0, 1, bloodletting_reduction=4)))
    after, log, outcome = bleed(b, "c", 10)
    assert outcome.cost == 6 and outcome.paid == 6 and after.unit("p").vitality == 24
    assert read_cost_paid(outcome) == 6 and read_cost_paid(outcome, cap=5) == 5


@covers("combat:800.4m")
def test_800_4m_a_cost_reduced_to_zero_skips_the_whole_step():
    b = Board((at("p", 0, 0, vitality=30), at("c", 0, 1, bloodletting_reduction=12), FOE))
    after, log, outcome = activate_with_bloodletting(b, "c", 10, STRIKE)
    assert outcome.status == "skipped" and outcome.payer is None and outcome.paid == 0
    assert after.unit("p") == b.unit("p") and names(log)[0] == "damage_taken"


@covers("combat:800.4m", "combat:800.4d", "combat:800.4k")
def test_800_4m_skipping_comes_before_a_tool_first_or_no_payer():
    tool_first = Board((at("t", 0, 0, is_tool=True), at("c", 0, 1, bloodletting_reduction=5)))
    assert bleed(tool_first, "c", 5)[2].status == "skipped"
    nobody = Board((at("c", 0, 0, entrapped=True, bloodletting_reduction=5),))
    after, log = resolve_bloodletting(nobody, "c", 3)
    assert after == nobody and names(log) == []
