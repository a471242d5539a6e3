"""400.8 Answering a question about a card: the worked example, its variants, one test per clause."""

from __future__ import annotations

import pytest

from referee.model.combat.abilities import compute_line_amount, count_per, resolve_ability, resolve_ability_outcome
from referee.model.combat.ability_text import (
    Ability,
    Amount,
    Line,
    amount,
    compute_resolution_order,
    is_resolving_line,
    place_line,
)
from referee.model.combat.keywords import compute_restoration
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers

NUMBERS = (("power", 30), ("burn_amount", 4), ("heal_amount", 6))


def worked_example(heal_lane: str = "after_hit") -> Ability:
    """"Deal {power} damage / Burn {burn_amount} / Restore {heal_amount} vitality to allies per Burning enemy"."""
    return Ability(
        (
            Line("damage", amount("{power}"), "keyword", "hit"),
            Line("burn", amount("{burn_amount}"), "rider", "after_hit"),
            Line("restore", amount("{heal_amount}"), "rider", heal_lane, to="allies", per="burning_enemy"),
        ),
        numbers=NUMBERS,
        name="worked example",
    )


def board(*extra: Unit, target_vitality: int = 20) -> Board:
    """The caster ``c`` and a wounded ally ``a`` on side 0; the target ``t`` on side 1."""
    return Board((Unit("c"), Unit("a", col=1, vitality=50), Unit("t", side=1, vitality=target_vitality), *extra))


def names(log) -> list[str]:
    return [e.name for e in log.events()]


def event(log, name: str, **match):
    found = [e for e in log.events() if e.name == name and all(getattr(e, k) == v for k, v in match.items())]
    assert found, f"no {name} {match} in {names(log)}"
    return found[0]


# --------------------------------------------------------------------------------------
# The worked example and its variants
# --------------------------------------------------------------------------------------


@covers("combat:400.8-3", "combat:400.8-5", "combat:400.8b", "combat:400.8c")
def test_400_8_worked_example_killing_the_only_target_restores_nothing():
    after, log = resolve_ability(board(), "c", worked_example(), ("t",))
    assert not after.unit("t").alive
    assert event(log, "line_refused", unit="t", detail="dead").amount == 4  # Burn refused (700.3)
    assert after.unit("t").burn == 0
    assert event(log, "line_resolved", detail="restore").amount == 0  # count 0: resolves to 0, not floored
    assert "vitality_restored" not in names(log)
    assert after.unit("a").vitality == 50  # answer: no Vitality is restored


@covers("combat:400.8-3", "combat:400.8a")
def test_400_8_worked_example_a_second_burning_enemy_heals_allies_once():
    after, log = resolve_ability(board(Unit("e2", side=1, col=1, burn=3)), "c", worked_example(), ("t",))
    assert event(log, "line_resolved", detail="restore").amount == 6  # count 1 x 6
    assert event(log, "vitality_restored", unit="a").amount == 6
    assert after.unit("a").vitality == 56
    assert after.unit("c").vitality == 100  # full already: nothing to restore, and allies exclude the caster


@covers("combat:400.8-2", "combat:400.8a")
def test_400_8_worked_example_heal_in_the_activation_lane_samples_before_the_hit():
    # The target is alive and already Burning before the hit: counted then, dead afterwards.
    burning = Board((Unit("c"), Unit("a", col=1, vitality=50), Unit("t", side=1, vitality=20, burn=2)))
    after, log = resolve_ability(burning, "c", worked_example("activation"), ("t",))
    order = [e.detail for e in log.events() if e.name == "line_resolved"]
    assert order == ["restore", "damage", "burn"]
    assert event(log, "line_resolved", detail="restore").amount == 6  # sampled while t was alive and Burning
    assert after.unit("a").vitality == 56 and not after.unit("t").alive
    # Printed after the hit, the same board restores nothing: t is dead when the heal resolves.
    after_hit, _ = resolve_ability(burning, "c", worked_example(), ("t",))
    assert after_hit.unit("a").vitality == 50


@covers("combat:400.8a")
def test_400_8_worked_example_in_the_activation_lane_the_burn_of_this_activation_is_not_yet_counted():
    after, log = resolve_ability(board(target_vitality=100), "c", worked_example("activation"), ("t",))
    assert event(log, "line_resolved", detail="restore").amount == 0  # t not yet Burning
    assert after.unit("t").burn == 4 and after.unit("a").vitality == 50
    after, log = resolve_ability(board(target_vitality=100), "c", worked_example(), ("t",))
    assert event(log, "line_resolved", detail="restore").amount == 6  # t survived and is Burning now
    assert after.unit("a").vitality == 56


# --------------------------------------------------------------------------------------
# One test per clause
# --------------------------------------------------------------------------------------


@covers("combat:400.8-1")
def test_400_8_1_lines_are_keywords_riders_conditional_riders_or_passives():
    assert not is_resolving_line(Line("damage", Amount(3), "passive"))
    with pytest.raises(ValueError, match="conditional rider"):
        Line("burn", Amount(3), "conditional_rider")
    with pytest.raises(ValueError, match="conditional rider"):
        Line("burn", Amount(3), "rider", condition="target_alive")
    with pytest.raises(ValueError, match="kind 'aura'"):
        Line("burn", Amount(3), "aura")
    passive = Ability((Line("damage", Amount(5), "passive"), Line("burn", Amount(2), "rider")))
    after, log, outcome = resolve_ability_outcome(board(target_vitality=100), "c", passive, ("t",))
    assert outcome.passives == (0,) and [o.index for o in outcome.lines] == [1]
    assert after.unit("t").vitality == 100 and after.unit("t").burn == 2


@covers("combat:400.8-2")
def test_400_8_2_crush_lands_before_the_hit_maim_and_cull_after_whatever_is_printed():
    assert place_line(Line("crush", Amount(5), lane="after_hit")) == "before_hit"
    assert place_line(Line("maim", Amount(5), lane="activation")) == "after_hit"
    assert place_line(Line("cull", Amount(5), lane="before_hit")) == "after_hit"
    ability = Ability((
        Line("maim", Amount(2), lane="activation"),
        Line("damage", Amount(30), "keyword"),
        Line("crush", Amount(25), lane="after_hit"),
    ))  # fmt: skip
    assert compute_resolution_order(ability) == (2, 1, 0)
    # Crush before the hit: 25 Armor gone, so the 30 meets no Armor at all.
    armored = Board((Unit("c"), Unit("t", side=1, armor=25)))
    after, log = resolve_ability(armored, "c", ability, ("t",))
    assert after.unit("t").armor == 0 and after.unit("t").vitality == 70 and after.unit("t").maim == 2


@covers("combat:400.8-3")
def test_400_8_3_amounts_come_from_the_card_numbers_times_the_count():
    ability = Ability((Line("burn", amount("{burn_amount}"), per="enemy"),), numbers=NUMBERS)
    two = Board((Unit("c"), Unit("t", side=1), Unit("u", side=1, col=1)))
    after, log = resolve_ability(two, "c", ability, ("t",))
    assert event(log, "line_resolved", detail="burn").amount == 8  # 4 x 2 enemies
    assert after.unit("t").burn == 8
    with pytest.raises(ValueError, match=r"\{missing\}"):
        resolve_ability(two, "c", Ability((Line("burn", amount("{missing}")),)), ("t",))


@covers("combat:400.8-4")
def test_400_8_4_a_condition_true_at_the_start_may_be_false_when_the_rider_resolves():
    ability = Ability((
        Line("damage", Amount(30), "keyword"),
        Line("burn", Amount(5), "conditional_rider", "after_hit", condition="target_alive"),
        Line("restore", Amount(10), "conditional_rider", "activation", to="caster", condition="target_alive"),
    ))  # fmt: skip
    start = Board((Unit("c", vitality=40), Unit("t", side=1, vitality=20)))
    after, log = resolve_ability(start, "c", ability, ("t",))
    assert after.unit("c").vitality == 50  # activation lane: t alive then
    assert event(log, "condition_failed", unit="c", detail="target_alive")  # after the hit: t dead
    assert [e.detail for e in log.events() if e.name == "line_resolved"] == ["restore", "damage"]


@covers("combat:400.8-5")
@pytest.mark.parametrize("state, reason", [
    ({"alive": False, "vitality": 0}, "dead"), ({"entrapped": True}, "entrapped"),
    ({"dormant": True}, "dormant"), ({"untargetable": True}, "untargetable"),
])  # fmt: skip
def test_400_8_5_a_dead_entrapped_dormant_or_untargetable_recipient_receives_nothing(state, reason):
    ability = Ability((Line("damage", Amount(30), "keyword"), Line("burn", Amount(5), lane="after_hit")))
    start = Board((Unit("c"), Unit("t", side=1, **state)))
    after, log = resolve_ability(start, "c", ability, ("t",))
    assert after.unit("t") == start.unit("t")
    refusals = [e for e in log.events() if e.name == "line_refused"]
    assert [(e.unit, e.detail) for e in refusals] == [("t", reason), ("t", reason)]
    assert "damage_taken" not in names(log)


@covers("combat:400.8-6")
def test_400_8_6_each_keyword_applies_its_own_rule():
    ability = Ability((
        Line("damage", Amount(10), "keyword"),
        Line("burn", Amount(3), lane="after_hit"), Line("venom", Amount(2), lane="after_hit"),
        Line("maim", Amount(4)), Line("crush", Amount(7)),
    ))  # fmt: skip
    after, log = resolve_ability(Board((Unit("c"), Unit("t", side=1, armor=5))), "c", ability, ("t",))
    t = after.unit("t")
    assert (t.burn, t.venom, t.maim, t.armor) == (3, 2, 4, -2)  # Crush drives Armor negative (500.2e)
    assert [e.detail for e in log.events() if e.name == "status_applied"] == ["crush", "burn", "venom", "maim"]
    # Cull: a recipient at or below its amount is destroyed outright after the hit (500.4a).
    cull = Ability((Line("damage", Amount(10), "keyword"), Line("cull", Amount(15), "keyword")))
    after, log = resolve_ability(Board((Unit("c"), Unit("t", side=1, vitality=24))), "c", cull, ("t",))
    assert not after.unit("t").alive and event(log, "culled", unit="t").amount == 14
    assert event(log, "death", unit="t").other == "c"
    after, _ = resolve_ability(Board((Unit("c"), Unit("t", side=1, vitality=26))), "c", cull, ("t",))
    assert after.unit("t").alive and after.unit("t").vitality == 16


@covers("combat:400.8-6", "combat:800.4a", "combat:800.4k")
def test_400_8_6_bloodletting_is_paid_first_and_no_payer_aborts_the_activation():
    ability = Ability((Line("damage", Amount(10), "keyword"), Line("bloodletting", Amount(12), "keyword", "after_hit")))
    start = Board((Unit("c"), Unit("t", side=1)))
    after, log, outcome = resolve_ability_outcome(start, "c", ability, ("t",))
    assert names(log)[:2] == ["line_resolved", "bloodletting_paid"] and after.unit("c").vitality == 88
    assert after.unit("t").vitality == 90
    trapped = Board((Unit("c", entrapped=True), Unit("t", side=1)))
    after, log, outcome = resolve_ability_outcome(trapped, "c", ability, ("t",))
    assert outcome.stopped == "aborted" and "activation_aborted" in names(log)
    assert after.unit("t").vitality == 100


@covers("combat:400.8-7")
def test_400_8_7_damage_meets_armor_insurance_shield_then_vitality_and_recovery_capacity_then_maim():
    ability = Ability((Line("damage", Amount(87), "keyword"),))
    start = Board((Unit("c"), Unit("t", side=1, armor=81, insurance=1, shield=5)))
    after, log = resolve_ability(start, "c", ability, ("t",))
    # 87 -> 60 (Armor %) -> 44 (flat) -> 19 (one Insurance point) -> 14 (Shield 5) -> Vitality.
    assert after.unit("t").vitality == 86 and after.unit("t").shield == 0 and after.unit("t").insurance == 0
    heal = Ability((Line("restore", Amount(20), to="caster"),))
    after, log = resolve_ability(Board((Unit("c", vitality=90, maim=3),)), "c", heal, ())
    # capacity 10 first, then Maim: 3 points prevent 6 of it, consuming ceil(6/2) = 3.
    assert after.unit("c").vitality == 94 and after.unit("c").maim == 0
    assert event(log, "vitality_restored", unit="c").amount == 4
    assert compute_restoration(Unit("c", vitality=100, maim=3), 20) == (0, 0)  # full: no Maim consumed (500.3e)


# --------------------------------------------------------------------------------------
# The three common wrong answers, which the model does not give
# --------------------------------------------------------------------------------------


@covers("combat:400.8a")
def test_400_8a_the_count_is_never_sampled_at_the_start_of_the_activation():
    # At the start one enemy (t) is Burning; by the time the heal resolves it is dead.
    start = Board((Unit("c"), Unit("a", col=1, vitality=50), Unit("t", side=1, vitality=20, burn=1)))
    assert count_per(start, "c", "burning_enemy") == 1
    after, log = resolve_ability(start, "c", worked_example(), ("t",))
    assert event(log, "line_resolved", detail="restore").amount == 0  # the wrong answer would be 6
    assert after.unit("a").vitality == 50


@covers("combat:400.8b")
def test_400_8b_a_unit_killed_by_this_activation_is_gone_before_every_post_damage_clause():
    ability = Ability((
        Line("damage", Amount(50), "keyword"),
        Line("maim", Amount(3)), Line("venom", Amount(2), lane="after_hit"),
        Line("restore", Amount(5), lane="after_hit", to="caster", per="enemy"),
    ))  # fmt: skip
    start = Board((Unit("c", vitality=50), Unit("t", side=1, vitality=40)))
    after, log = resolve_ability(start, "c", ability, ("t",))
    assert [e.detail for e in log.events() if e.name == "line_refused"] == ["dead", "dead"]
    assert (after.unit("t").maim, after.unit("t").venom) == (0, 0)
    assert after.unit("c").vitality == 50  # the dead target is no longer an enemy to count


@covers("combat:400.8c")
def test_400_8c_a_zero_count_resolves_to_zero_not_to_the_minimum():
    assert compute_line_amount(6, 0) == 0 and compute_line_amount(6, 1) == 6 and compute_line_amount(6, None) == 6
    ability = Ability((Line("burn", Amount(6), per="venomed_enemy"),))
    after, log = resolve_ability(board(target_vitality=100), "c", ability, ("t",))
    assert event(log, "line_resolved", detail="burn").amount == 0
    assert after.unit("t").burn == 0 and "status_applied" not in names(log)
