"""500.1 One damage instance: an example per step and per rider, numbers worked out from the rule text."""

from __future__ import annotations

from damage_scenarios import board, enemy, events, hit, names, unit

from referee.model.combat.damage import DamageInstance, resolve_damage
from referee.model.combat.ruleset import Ruleset
from referee.specs.trace import covers

# --------------------------------------------------------------------------------------
# 500.1-1 .. 500.1-3: the gates
# --------------------------------------------------------------------------------------


@covers("combat:500.1-1")
def test_500_1_1_tool_discards_the_damage():
    b = board(unit("tool", is_tool=True, vitality=40, shield=10, insurance=1), enemy())
    after, log, out = hit(b, "tool", 30)
    assert after == b
    assert events(log, "damage_discarded") == [("tool", 30, "enemy", "tool_or_hub")]
    assert names(log) == ["damage_discarded"]
    assert out.discarded and not out.entered and not out.damage_event


@covers("combat:500.1-1")
def test_500_1_1_hub_discards_even_a_burn_tick():
    b = board(unit("hub", is_hub=True), enemy())
    after, log, _ = hit(b, "hub", 12, kind="burn")
    assert after == b
    assert events(log, "damage_discarded") == [("hub", 12, "enemy", "tool_or_hub")]


@covers("combat:500.1-2")
def test_500_1_2_dormant_recipient_discards_the_damage():
    b = board(unit("a", dormant=True), enemy())
    after, log, out = hit(b, "a", 30)
    assert after == b
    assert events(log, "damage_discarded") == [("a", 30, "enemy", "dormant")]
    assert out.discarded


@covers("combat:500.1-2")
def test_500_1_2_source_that_allows_it_hits_a_dormant_unit():
    b = board(unit("a", dormant=True), enemy())
    after, log, _ = hit(b, "a", 30, allows_dormant=True)
    assert after.unit("a").vitality == 70
    assert "damage_discarded" not in names(log)


@covers("combat:500.1-3")
def test_500_1_3_dead_recipient_nothing_happens():
    b = board(unit("a", alive=False, vitality=0, ignore_charges=1, shield=5), enemy())
    after, log, out = hit(b, "a", 30)
    assert after == b and names(log) == [] and not out.entered


@covers("combat:500.1-3", "combat:500.1-1")
def test_500_1_3_zero_or_negative_amount_is_silent_even_on_a_tool():
    # INT-016: a discard is reported only for a positive instance against a living recipient.
    b = board(unit("a", ignore_charges=1), unit("tool", is_tool=True), enemy())
    for target in ("a", "tool"):
        for amount in (0, -5):
            after, log, _ = hit(b, target, amount)
            assert after == b and names(log) == []


# --------------------------------------------------------------------------------------
# 500.1-4: the damage-ignore charge
# --------------------------------------------------------------------------------------


@covers("combat:500.1-4")
def test_500_1_4_ignore_charge_is_spent_and_the_instance_discarded():
    b = board(unit("a", ignore_charges=2, insurance=3, shield=10, subrogated=1), enemy())
    after, log, out = hit(b, "a", 80)
    a = after.unit("a")
    assert (a.ignore_charges, a.insurance, a.subrogated, a.shield, a.vitality) == (1, 3, 1, 10, 100)
    assert names(log) == ["ignore_charge_spent"]
    assert out.ignored and not out.entered and not out.damage_event


@covers("combat:500.1-4", "combat:500.1-2")
def test_500_1_4_no_charge_is_spent_on_a_discarded_instance():
    b = board(unit("a", ignore_charges=1, dormant=True), enemy())
    after, _, _ = hit(b, "a", 80)
    assert after.unit("a").ignore_charges == 1


# --------------------------------------------------------------------------------------
# 500.1-5, 500.1-6: Armor
# --------------------------------------------------------------------------------------


@covers("combat:500.1-5", "combat:500.2a")
def test_500_1_5_armor_percentage_reduces_the_hit():
    # Armor 4: sqrt 2, survival 20/22; 44 * 20 / 22 = 40 exactly; flat 4 // 5 = 0.
    b = board(unit("a", armor=4), enemy())
    after, _, out = hit(b, "a", 44)
    assert out.after_armor == 40 and after.unit("a").vitality == 60


@covers("combat:500.1-6", "combat:500.2b")
def test_500_1_6_flat_reduction_follows_the_percentage():
    # Armor 25: sqrt 5, survival 20/25; 40 * 20 / 25 = 32; flat 25 // 5 = 5, so 27.
    b = board(unit("a", armor=25), enemy())
    after, _, out = hit(b, "a", 40)
    assert out.after_armor == 27 and after.unit("a").vitality == 73


@covers("combat:500.1-5", "combat:500.1-6", "combat:500.7d")
def test_500_1_6_armor_to_nothing_leaves_no_damage_event():
    # Armor 100: 3 * 20 / 30 = 2 survive the percentage; flat 20 takes them all.
    b = board(unit("a", armor=100), enemy())
    after, log, out = hit(b, "a", 3)
    assert out.entered and out.after_armor == 0 and not out.damage_event and not out.landed
    assert after == b and names(log) == []


# --------------------------------------------------------------------------------------
# 500.1-7: the incoming-damage cap
# --------------------------------------------------------------------------------------


@covers("combat:500.1-7")
def test_500_1_7_cap_truncates_and_the_excess_is_gone():
    # 100 into a cap of 30: 30 goes on; Shield 50 absorbs the 30 and keeps 20. Nothing above
    # the cap reaches Shield.
    b = board(unit("a", has_cap=True, cap=30, shield=50), enemy())
    after, _, out = hit(b, "a", 100)
    assert out.after_cap == 30 and out.shield_drained == 30
    assert after.unit("a").shield == 20 and after.unit("a").vitality == 100


@covers("combat:500.1-7", "combat:500.1-5")
def test_500_1_7_cap_reads_what_armor_left():
    # Armor 25: 60 -> 48 -> 43 after flat; a cap of 45 does not cut 43.
    b = board(unit("a", armor=25, has_cap=True, cap=45), enemy())
    after, _, out = hit(b, "a", 60)
    assert out.after_armor == 43 and out.after_cap == 43 and after.unit("a").vitality == 57


@covers("combat:500.1-7")
def test_500_1_7_unprinted_cap_does_nothing():
    b = board(unit("a", has_cap=False, cap=5), enemy())
    after, _, _ = hit(b, "a", 50)
    assert after.unit("a").vitality == 50


# --------------------------------------------------------------------------------------
# 500.1-8, 500.1-9, 500.1a, 500.1b: Insurance
# --------------------------------------------------------------------------------------


@covers("combat:500.1-8", "combat:500.7g")
def test_500_1_8_subrogated_points_absorb_and_the_source_pays_what_they_absorbed():
    # 60 into 2 Subrogated points: ceil(60/25) = 3 wanted, 2 spent, 50 absorbed, 10 lost.
    b = board(unit("a", subrogated=2), enemy(vitality=80))
    after, log, out = hit(b, "a", 60)
    assert (out.subrogated_spent, out.subrogated_absorbed) == (2, 50)
    assert after.unit("a").subrogated == 0 and after.unit("a").vitality == 90
    assert after.unit("enemy").vitality == 30 and out.subrogation_paid == 50
    assert events(log, "insurance_prevented") == [("a", 50, None, "subrogated")]
    assert events(log, "subrogation") == [("enemy", 50, "a", None)]


@covers("combat:500.1-8", "combat:500.6h")
def test_500_1_8_no_payback_from_an_ally_or_without_a_source():
    b = board(unit("a", subrogated=1), unit("friend"))
    after, log, out = hit(b, "a", 20, source="friend")
    assert out.subrogated_absorbed == 20 and after.unit("friend").vitality == 100
    assert "subrogation" not in names(log)
    after, log, out = hit(b, "a", 20, source=None, kind="overtime")
    assert out.subrogated_absorbed == 20 and "subrogation" not in names(log)


@covers("combat:500.1-8", "combat:500.8b", "combat:500.1j")
def test_500_1_8_payback_is_a_cost_clamped_to_the_source_vitality():
    # The source has 20 Vitality and 30 Shield: the payback of 25 skips its Shield (no Shield
    # event) and takes the 20 it has, which kills it (its Shield is then cleared, INT-010).
    b = board(unit("a", subrogated=1), enemy(vitality=20, shield=30, armor=100))
    after, log, out = hit(b, "a", 25)
    src = after.unit("enemy")
    assert src.vitality == 0 and not src.alive and "shield_damaged" not in names(log)
    assert out.subrogation_paid == 20 and events(log, "subrogation") == [("enemy", 20, "a", None)]
    assert ("enemy", None) in [(e.unit, e.detail) for e in log.events() if e.name == "death"]


@covers("combat:500.1-9")
def test_500_1_9_plain_points_take_what_subrogated_points_did_not():
    # 60: 1 Subrogated point absorbs 25; 35 left: plain needs ceil(35/25) = 2, has 5: 2 spent, 35 absorbed.
    b = board(unit("a", subrogated=1, insurance=5), enemy())
    after, log, out = hit(b, "a", 60)
    assert (out.insurance_spent, out.insurance_absorbed) == (2, 35)
    assert after.unit("a").insurance == 3 and after.unit("a").vitality == 100
    assert events(log, "insurance_prevented") == [("a", 25, None, "subrogated"), ("a", 35, None, "plain")]
    assert after.unit("enemy").vitality == 75  # plain points retaliate for nothing (500.7g)


@covers("combat:500.1a")
def test_500_1a_a_point_is_spent_whole_against_a_small_instance():
    b = board(unit("a", insurance=3), enemy())
    after, _, out = hit(b, "a", 5)
    assert (out.insurance_spent, out.insurance_absorbed) == (1, 5) and after.unit("a").insurance == 2


@covers("combat:500.1a", "combat:500.1e")
def test_500_1a_what_the_points_cannot_cover_carries_into_shield_then_vitality():
    # Armor 25: 100 -> 80 -> 75; 2 points absorb 50; Shield 10 absorbs 10; 15 Vitality lost.
    b = board(unit("a", armor=25, insurance=2, shield=10), enemy())
    after, _, out = hit(b, "a", 100)
    assert out.after_armor == 75 and out.insurance_absorbed == 50 and out.shield_absorbed == 10
    assert after.unit("a").vitality == 85 and after.unit("a").insurance == 0


@covers("combat:500.1b", "combat:500.5a")
def test_500_1b_insured_damage_is_credited_to_nobody():
    # 40: 1 point absorbs 25, Shield 5 absorbs 5, 10 Vitality lost: credit 15, Feast 10.
    b = board(unit("a", insurance=1, shield=5), enemy())
    _, log, _ = hit(b, "a", 40)
    assert events(log, "credit") == [("enemy", 15, "a", None)]
    assert events(log, "feast") == [("enemy", 10, "a", None)]


@covers("combat:500.1b", "combat:500.1c", "combat:500.7c")
def test_500_1c_insurance_swallowing_an_instance_is_still_a_damage_event():
    b = board(unit("a", insurance=1), enemy())
    after, log, out = hit(b, "a", 20)
    assert out.damage_event and not out.landed
    assert names(log) == ["insurance_prevented"]  # no damage_taken, no credit, no Feast


# --------------------------------------------------------------------------------------
# 500.1-10, 500.1e: Shield
# --------------------------------------------------------------------------------------


@covers("combat:500.1-10", "combat:500.1e")
def test_500_1_10_shield_absorbs_up_to_its_pool_before_vitality():
    b = board(unit("a", shield=30), enemy())
    after, log, out = hit(b, "a", 50)
    assert (out.shield_drained, out.shield_absorbed, out.vitality_lost) == (30, 30, 20)
    assert after.unit("a").shield == 0 and after.unit("a").vitality == 80
    assert names(log)[:2] == ["shield_damaged", "shield_broken"]


@covers("combat:500.1-10")
def test_500_1_10_multiplier_drains_the_pool_faster():
    # Multiplier 2, 10 damage into Shield 30: 20 drained, all 10 absorbed, pool holds at 10.
    b = board(unit("a", shield=30), enemy(shield_multiplier=2))
    after, log, out = hit(b, "a", 10)
    assert (out.shield_drained, out.shield_absorbed) == (20, 10) and after.unit("a").shield == 10
    assert events(log, "shield_damaged") == [("a", 20, None, None)] and "shield_broken" not in names(log)


@covers("combat:500.1-10")
def test_500_1_10_breaking_multiplied_pool_absorbs_the_least_damage_that_drains_it():
    # INT-002: multiplier 2, 10 into Shield 5: 2*10 > 5, the pool breaks; ceil(5/2) = 3 absorbed,
    # 7 lost; under "floor", floor(5/2) = 2 absorbed and 8 lost.
    b = board(unit("a", shield=5), enemy(shield_multiplier=2))
    after, log, out = hit(b, "a", 10)
    assert (out.shield_drained, out.shield_absorbed, out.vitality_lost) == (5, 3, 7)
    assert "shield_broken" in names(log)
    after, _, out = hit(b, "a", 10, ruleset=Ruleset(shield_multiplier_rounding="floor"))
    assert (out.shield_absorbed, out.vitality_lost) == (2, 8)


@covers("combat:500.1e", "combat:500.7d")
def test_500_1e_fully_absorbed_by_shield_deals_no_vitality_and_no_feast():
    b = board(unit("a", shield=40), enemy())
    after, log, out = hit(b, "a", 25)
    assert after.unit("a").vitality == 100 and not out.damage_event and not out.landed
    assert "feast" not in names(log) and "damage_taken" not in names(log)
    assert events(log, "credit") == [("enemy", 25, "a", None)]  # Shield-absorbed damage is dealt (INT-019)


# --------------------------------------------------------------------------------------
# 500.1-11, 500.1g: the ally redirect
# --------------------------------------------------------------------------------------


@covers("combat:500.1-11", "combat:500.1g")
def test_500_1_11_redirect_moves_up_to_the_cap_to_the_redirector():
    # 30 after Shield; cap 10 moves 10 to the ally (Armor 25: 10 -> 8 -> 3); 20 kept.
    b = board(unit("a", redirect_to="ally", redirect_cap=10), unit("ally", armor=25), enemy())
    after, log, out = hit(b, "a", 30)
    assert out.redirected == 10 and after.unit("a").vitality == 80
    assert out.receiver_outcome.after_armor == 3 and after.unit("ally").vitality == 97
    assert events(log, "redirect") == [("a", 10, "ally", None)]


@covers("combat:500.1-11")
def test_500_1_11_excess_over_cap_reading_keeps_the_cap_on_the_recipient():
    b = board(unit("a", redirect_to="ally", redirect_cap=10), unit("ally"), enemy())
    after, _, out = hit(b, "a", 30, ruleset=Ruleset(redirect_cap_moves="excess_over_cap"))
    assert out.redirected == 20 and after.unit("a").vitality == 90 and after.unit("ally").vitality == 80


@covers("combat:500.1-11")
def test_500_1_11_no_redirect_to_a_dead_or_enemy_unit():
    dead = board(unit("a", redirect_to="ally", redirect_cap=10), unit("ally", alive=False, vitality=0), enemy())
    after, log, out = hit(dead, "a", 30)
    assert out.redirected == 0 and after.unit("a").vitality == 70 and "redirect" not in names(log)
    foe = board(unit("a", redirect_to="enemy", redirect_cap=10), enemy())
    after, _, out = hit(foe, "a", 30)
    assert out.redirected == 0 and after.unit("enemy").vitality == 100


@covers("combat:500.1g", "combat:500.1-8", "combat:500.1-10")
def test_500_1g_redirected_part_meets_the_receivers_insurance_and_shield_with_its_events():
    b = board(unit("a", redirect_to="ally", redirect_cap=40), unit("ally", insurance=1, shield=10), enemy())
    after, log, out = hit(b, "a", 40)
    r = out.receiver_outcome
    assert (r.insurance_absorbed, r.shield_absorbed, r.vitality_lost) == (25, 10, 5)
    assert after.unit("ally").insurance == 0 and after.unit("ally").shield == 0
    assert events(log, "insurance_prevented") == [("ally", 25, None, "plain")]
    assert events(log, "damage_taken") == [("ally", 5, "enemy", "hit")]
    assert after.unit("a").vitality == 100


@covers("combat:500.1g", "combat:500.1-11")
def test_500_1g_redirected_damage_never_redirects_again():
    # INT-009: the ally's own redirect back to "a" is not followed.
    b = board(unit("a", redirect_to="ally", redirect_cap=30), unit("ally", redirect_to="a", redirect_cap=30), enemy())
    after, _, out = hit(b, "a", 30)
    assert after.unit("ally").vitality == 70 and after.unit("a").vitality == 100
    assert out.receiver_outcome.redirected == 0


# --------------------------------------------------------------------------------------
# 500.1-12: defy-death
# --------------------------------------------------------------------------------------


@covers("combat:500.1-12")
def test_500_1_12_defy_death_leaves_one_and_spends_the_charge():
    b = board(unit("a", vitality=20, defy_death=True), enemy())
    after, log, out = hit(b, "a", 50)
    a = after.unit("a")
    assert a.vitality == 1 and a.alive and not a.defy_death
    assert events(log, "defy_death") == [("a", 31, None, None)]
    assert out.defied and out.vitality_lost == 19 and not out.died


@covers("combat:500.1-12")
def test_500_1_12_non_lethal_remainder_keeps_the_charge():
    b = board(unit("a", vitality=20, defy_death=True), enemy())
    after, log, _ = hit(b, "a", 19)
    assert after.unit("a").vitality == 1 and after.unit("a").defy_death and "defy_death" not in names(log)


@covers("combat:500.1-12")
def test_500_1_12_exactly_lethal_is_lethal_and_the_floor_is_a_ruleset_option():
    b = board(unit("a", vitality=20, defy_death=True), enemy())
    after, _, _ = hit(b, "a", 20, ruleset=Ruleset(defy_death_leaves=5))
    assert after.unit("a").vitality == 5


# --------------------------------------------------------------------------------------
# 500.1-13: Vitality and death
# --------------------------------------------------------------------------------------


@covers("combat:500.1-13", "combat:500.4a", "combat:500.4c")
def test_500_1_13_vitality_reaching_zero_kills():
    b = board(unit("a", vitality=30), unit("b"), enemy())
    after, log, out = hit(b, "a", 30)
    a = after.unit("a")
    assert a.vitality == 0 and not a.alive and out.died and out.vitality_lost == 30
    assert names(log) == [
        "damage_taken", "credit", "feast", "vitality_lost", "threshold_reevaluated", "death", "macabre", "macabre",
        "vessel_batch",
    ]
    assert events(log, "death") == [("a", 0, "enemy", None)]


@covers("combat:500.1-13", "combat:500.5a")
def test_500_1_13_overkill_is_not_credited():
    b = board(unit("a", vitality=30), enemy())
    _, log, out = hit(b, "a", 90)
    assert out.vitality_lost == 30 and events(log, "credit") == [("enemy", 30, "a", None)]


@covers("combat:500.1-13", "combat:500.6c")
def test_500_1_13_vitality_loss_resets_the_runes():
    b = board(unit("a", adrenaline=3, momentum=0, bolster=2), enemy())
    after, log, _ = hit(b, "a", 10)
    assert (after.unit("a").adrenaline, after.unit("a").bolster) == (0, 0)
    assert events(log, "rune_reset") == [("a", 0, None, "adrenaline"), ("a", 0, None, "bolster")]


# --------------------------------------------------------------------------------------
# 500.1c, 500.1d, 500.1h, 500.1i: lanes and ticks
# --------------------------------------------------------------------------------------


@covers("combat:500.1c")
def test_500_1c_overtime_tick_has_nobody_to_credit():
    b = board(unit("a", armor=25), enemy())
    after, log, out = hit(b, "a", 40, source=None, kind="overtime")
    assert out.after_armor == 27 and after.unit("a").vitality == 73  # overtime meets Armor (INT-020)
    assert "credit" not in names(log) and "feast" not in names(log)
    assert events(log, "damage_taken") == [("a", 27, None, "overtime")]


@covers("combat:500.1d")
def test_500_1d_burn_ignores_both_armor_reductions_but_meets_insurance_and_shield():
    b = board(unit("a", armor=400, insurance=1, shield=5), enemy())
    after, _, out = hit(b, "a", 40, kind="burn")
    assert out.after_armor == 40 and out.insurance_absorbed == 25 and out.shield_absorbed == 5
    assert after.unit("a").vitality == 90


@covers("combat:500.1d", "combat:500.1-7")
def test_500_1d_venom_tick_is_still_met_by_the_cap():
    # INT-007: ticks skip Armor, not the cap.
    b = board(unit("a", armor=400, has_cap=True, cap=8), enemy())
    after, _, _ = hit(b, "a", 40, kind="venom")
    assert after.unit("a").vitality == 92


@covers("combat:500.1h")
def test_500_1h_tick_adjusted_in_order_prismbreak_rune_forge():
    # 7 -> ceil(21/2) = 11 -> 11 - 3 = 8 -> 8 - 2 = 6.
    b = board(unit("a", prismbroken=True, rune_tick_reduction=3, forge_tick_reduction=2), enemy())
    after, _, out = hit(b, "a", 7, kind="burn")
    assert out.amount == 6 and after.unit("a").vitality == 94


@covers("combat:500.1h")
def test_500_1h_prismbreak_rounds_up():
    # 5 -> 7.5 -> 8.
    b = board(unit("a", prismbroken=True), enemy())
    after, _, _ = hit(b, "a", 5, kind="venom")
    assert after.unit("a").vitality == 92


@covers("combat:500.1h")
def test_500_1h_tick_reduced_to_zero_never_enters():
    b = board(unit("a", rune_tick_reduction=3, forge_tick_reduction=2, insurance=2, shield=10, ignore_charges=1),
              enemy())
    after, log, out = hit(b, "a", 5, kind="burn")
    assert after == b and events(log, "tick_prevented") == [("a", 5, "enemy", "burn")]
    assert names(log) == ["tick_prevented"] and out.tick_prevented and not out.damage_event


@covers("combat:500.1h")
def test_500_1h_hits_are_not_adjusted_as_ticks():
    b = board(unit("a", prismbroken=True, rune_tick_reduction=3), enemy())
    after, _, _ = hit(b, "a", 10)
    assert after.unit("a").vitality == 90


@covers("combat:500.1i", "combat:500.1-2")
def test_500_1i_tick_reaches_a_dormant_recipient():
    b = board(unit("a", dormant=True), enemy())
    after, log, _ = hit(b, "a", 10, kind="venom")
    assert after.unit("a").vitality == 90 and "damage_discarded" not in names(log)


# --------------------------------------------------------------------------------------
# 500.1f: the lethal-damage redirect
# --------------------------------------------------------------------------------------


def lethal_board(**recipient):
    fields = {"vitality": 20, "intercept_by": "guard", "redirect_to": "ally", "redirect_cap": 50, "armor": 100}
    return board(unit("a", **{**fields, **recipient}), unit("guard", vitality=200, armor=25), unit("ally"), enemy())


@covers("combat:500.1f", "combat:500.1g")
def test_500_1f_lethal_hit_moves_whole_to_the_interceptor_before_mitigation():
    # 80 into "a": Armor 100 would leave 80*20/30 = 53.33 -> 54, minus 20 flat = 34 >= 20: lethal.
    # The whole 80 moves; the guard's own Armor 25: 80 -> 64 -> 59.
    b = lethal_board()
    after, log, out = hit(b, "a", 80)
    assert out.intercepted and not out.entered and not out.damage_event
    assert events(log, "lethal_redirect") == [("a", 80, "guard", None)]
    assert out.interceptor_outcome.after_armor == 59 and after.unit("guard").vitality == 141
    assert after.unit("a") == b.unit("a") and after.unit("ally").vitality == 100  # no ordinary redirect


@covers("combat:500.1f")
def test_500_1f_survivable_hit_stays_and_the_ordinary_redirect_applies():
    # 40 into Armor 100: ceil(40*20/30) = 27, minus 20 = 7 < 20: not lethal; the cap moves all 7.
    b = lethal_board()
    after, log, out = hit(b, "a", 40)
    assert not out.intercepted and out.redirected == 7 and after.unit("ally").vitality == 93
    assert "lethal_redirect" not in names(log)


@covers("combat:500.1f", "combat:500.1-12")
def test_500_1f_would_kill_reading_counts_the_recipients_own_defences():
    # INT-006: with an armed defy-death rune the hit would not kill, so it is not moved; under
    # the raw_amount reading 80 >= 20 moves it.
    b = lethal_board(defy_death=True, redirect_cap=0)
    _, _, out = hit(b, "a", 80)
    assert not out.intercepted and out.defied
    _, _, out = hit(b, "a", 80, ruleset=Ruleset(lethal_redirect_test="raw_amount"))
    assert out.intercepted


@covers("combat:500.1f")
def test_500_1f_dead_interceptor_does_not_intercept():
    b = board(unit("a", vitality=20, intercept_by="guard"), unit("guard", alive=False, vitality=0), enemy())
    after, log, out = hit(b, "a", 50)
    assert not out.intercepted and not after.unit("a").alive and "lethal_redirect" not in names(log)


# --------------------------------------------------------------------------------------
# 500.1j: what never enters, and the Reflect that does
# --------------------------------------------------------------------------------------


@covers("combat:500.1j", "combat:500.7j", "combat:500.7i", "combat:500.7k")
def test_500_1j_reflect_skips_armor_but_meets_insurance_and_starts_no_reaction():
    b = board(unit("a", armor=400, insurance=1), unit("boss", side=1, is_boss=True))
    after, log, out = hit(b, "a", 30, source="boss", kind="reflect")
    assert out.after_armor == 30 and out.insurance_absorbed == 25 and after.unit("a").vitality == 95
    assert out.damage_event and "damage_taken" not in names(log)  # INT-014
    assert events(log, "vitality_lost") == [("a", 5, None, None)]


@covers("combat:500.1j", "combat:500.1-4")
def test_500_1j_reflect_entry_reading_decides_the_ignore_charge():
    # INT-005: by default only Armor is skipped, so the ignore charge answers the Reflect;
    # entering below Armor, it does not.
    b = board(unit("a", ignore_charges=1), unit("boss", side=1, is_boss=True))
    after, _, out = hit(b, "a", 30, source="boss", kind="reflect")
    assert out.ignored and after.unit("a").vitality == 100
    after, _, out = hit(b, "a", 30, source="boss", kind="reflect", ruleset=Ruleset(reflect_entry="below_armor"))
    assert not out.ignored and after.unit("a").ignore_charges == 1 and after.unit("a").vitality == 70


@covers("combat:500.1j", "combat:500.8a")
def test_500_1j_subrogated_payback_is_not_a_damage_instance():
    # The payback skips the source's ignore charge, Armor, Insurance and Shield.
    b = board(unit("a", subrogated=1), enemy(ignore_charges=1, armor=100, insurance=2, shield=50))
    after, log, _ = hit(b, "a", 25)
    src = after.unit("enemy")
    assert (src.vitality, src.ignore_charges, src.insurance, src.shield) == (75, 1, 2, 50)
    assert "damage_taken" not in [e.name for e in log.events() if e.unit == "enemy"]


def test_invalid_unknown_kind_is_refused_with_its_name():
    import pytest

    with pytest.raises(ValueError, match="unknown kind 'bleed'"):
        DamageInstance("a", 3, kind="bleed")


def test_resolve_damage_leaves_the_input_board_unchanged():
    b = board(unit("a", shield=5, insurance=1), enemy())
    before = b
    resolve_damage(b, DamageInstance("a", 60, "enemy"))
    assert b == before and b.unit("a").shield == 5
