"""500.7 What retaliates: Thorns, Riposte, Retort, Subrogated Insurance, and the boss Reflect rune."""

from __future__ import annotations

from typing import Any

import pytest

from referee.model.combat.damage import DamageInstance
from referee.model.events import EventLog
from referee.model.combat.retaliation import ScenarioError, compute_reflect_amount, resolve_hit
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import UNIT_FIELDS, Board, Unit
from referee.specs.trace import covers


def hit(b: Board, target: str, amount: int, source: str | None = "a", ruleset: Ruleset = DEFAULT, **kw: Any):
    return resolve_hit(b, DamageInstance(target, amount, source, **kw), ruleset)


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def answers(log: EventLog) -> list[tuple[str, str, int]]:
    """``(channel, payer, amount)`` of every retaliation answer, in order."""
    return [(e.name, e.unit, e.amount) for e in log.events() if e.name in ("thorns", "riposte", "retort", "subrogation")]


def duel(recipient: dict[str, Any], attacker: dict[str, Any] | None = None, *others: Unit) -> Board:
    return Board((Unit("r", side=1, **recipient), Unit("a", side=0, **(attacker or {})), *others))


BOSS = dict(is_boss=True, reflect=True, vitality=1000, max_vitality=1000)


# --------------------------------------------------------------------------------------
# 500.7a, 500.7b
# --------------------------------------------------------------------------------------


@covers("combat:500.7a")
@pytest.mark.parametrize("kind", ["hit", "burn", "venom", "tremor", "aoe"])
def test_500_7a_thorns_and_riposte_answer_hits_and_ticks_alike(kind):
    _, log = hit(duel({"thorns": 4, "riposte": 2}), "r", 10, kind=kind, riposte_rolls=(True,))
    assert answers(log) == [("thorns", "a", 4), ("riposte", "a", 2)]


@covers("combat:500.7a", "combat:500.1c")
def test_500_7a_an_overtime_tick_has_nobody_to_answer():
    b = Board((Unit("r", side=1, thorns=4, riposte=2, retort=3),))
    _, log = hit(b, "r", 10, source=None, kind="overtime")
    assert answers(log) == [] and "cost_refused" not in names(log)


@covers("combat:500.7b")
def test_500_7b_thorns_always_fire_for_their_flat_amount():
    for amount in (1, 9, 60):
        _, log = hit(duel({"thorns": 4}), "r", amount)
        assert answers(log) == [("thorns", "a", 4)]


@covers("combat:500.7b")
def test_500_7b_riposte_fires_on_its_roll_for_the_resonance_level():
    _, log = hit(duel({"riposte": 3}), "r", 10, riposte_rolls=(True,))
    assert answers(log) == [("riposte", "a", 3)]
    _, log = hit(duel({"riposte": 3}), "r", 10, riposte_rolls=(False,))
    assert answers(log) == [] and events(log, "riposte_missed") == [("a", 0, "r", None)]


@covers("combat:500.7b", "combat:500.7e")
def test_500_7b_a_fresh_roll_for_each_attacker():
    b = duel({"riposte": 3}, {}, Unit("b", side=0, col=1), Unit("c", side=0, col=2))
    _, log = hit(b, "r", 12, kind="burn", appliers=("a", "b", "c"), riposte_rolls=(True, False, True))
    assert answers(log) == [("riposte", "a", 3), ("riposte", "c", 3)]
    assert events(log, "riposte_missed") == [("b", 0, "r", None)]


@covers("combat:500.7b")
def test_invalid_500_7b_a_missing_roll_is_a_scenario_error_naming_it():
    with pytest.raises(ScenarioError, match=r"riposte_rolls of the damage on r: roll #1 is needed \(Riposte on r against a\)"):
        hit(duel({"riposte": 3}), "r", 10)


@covers("combat:500.7b", "combat:500.6e")
def test_500_7b_the_roll_against_a_refused_attacker_is_consumed_by_default():
    # INT-106: the roll is made per event and attacker; the cost is refused afterwards.
    b = duel({"riposte": 3}, {"dormant": True}, Unit("b", side=0, col=1))
    _, log = hit(b, "r", 12, kind="burn", appliers=("a", "b"), riposte_rolls=(True, False))
    assert answers(log) == [] and events(log, "riposte_missed") == [("b", 0, "r", None)]
    kept = Ruleset(riposte_roll_on_refused="kept")
    _, log = hit(b, "r", 12, ruleset=kept, kind="burn", appliers=("a", "b"), riposte_rolls=(True,))
    assert answers(log) == [("riposte", "b", 3)]


# --------------------------------------------------------------------------------------
# 500.7c, 500.7d
# --------------------------------------------------------------------------------------


@covers("combat:500.7c")
def test_500_7c_an_instance_insurance_absorbs_outright_still_triggers_both():
    after, log = hit(duel({"thorns": 4, "riposte": 2, "insurance": 1}), "r", 20, riposte_rolls=(True,))
    assert after.unit("r").vitality == 100 and after.unit("r").insurance == 0
    assert answers(log) == [("thorns", "a", 4), ("riposte", "a", 2)]


@covers("combat:500.7d")
def test_500_7d_armor_reducing_a_hit_to_nothing_silences_them():
    # 1 damage into 25 Armor: ceil(20/25) = 1 survives the percentage, the flat 5 takes it to 0.
    _, log = hit(duel({"thorns": 4, "riposte": 2, "armor": 25}), "r", 1, riposte_rolls=(True,))
    assert answers(log) == [] and "riposte_missed" not in names(log)


@covers("combat:500.7d")
def test_500_7d_shield_swallowing_a_hit_whole_silences_them():
    after, log = hit(duel({"thorns": 4, "riposte": 2, "shield": 50}), "r", 20, riposte_rolls=(True,))
    assert after.unit("r").shield == 30 and answers(log) == []


# --------------------------------------------------------------------------------------
# 500.7e
# --------------------------------------------------------------------------------------


@covers("combat:500.7e")
def test_500_7e_a_tick_attributed_to_several_enemies_answers_each():
    b = duel({"thorns": 4, "retort": 1}, {}, Unit("b", side=0, col=1))
    _, log = hit(b, "r", 10, kind="venom", appliers=("a", "b"))
    assert answers(log) == [("thorns", "a", 4), ("retort", "a", 1), ("thorns", "b", 4), ("retort", "b", 1)]


@covers("combat:500.7e")
def test_500_7e_once_per_damaging_source_even_if_named_twice():
    _, log = hit(duel({"thorns": 4}), "r", 10, kind="burn", appliers=("a", "a"))
    assert answers(log) == [("thorns", "a", 4)]


# --------------------------------------------------------------------------------------
# 500.7f, 500.7g
# --------------------------------------------------------------------------------------


@covers("combat:500.7f")
def test_500_7f_retort_answers_damage_that_landed():
    _, log = hit(duel({"retort": 5}), "r", 10)
    assert answers(log) == [("retort", "a", 5)]


@covers("combat:500.7f")
@pytest.mark.parametrize("defence", [{"insurance": 1}, {"shield": 50}, {"subrogated": 1}])
def test_500_7f_retort_is_silent_when_insurance_or_shield_absorbs_it_all(defence):
    _, log = hit(duel({"retort": 5, **defence}), "r", 10)
    assert [a for a in answers(log) if a[0] == "retort"] == []


@covers("combat:500.7g")
def test_500_7g_subrogated_insurance_retaliates_for_exactly_what_it_absorbed():
    after, log = hit(duel({"subrogated": 1, "insurance": 1}), "r", 60)
    # 1 Subrogated point absorbs 25, the plain point 25, 10 lands.
    assert answers(log) == [("subrogation", "a", 25)]
    assert after.unit("a").vitality == 75 and after.unit("r").vitality == 90


@covers("combat:500.7g")
def test_500_7g_plain_insurance_retaliates_for_nothing():
    _, log = hit(duel({"insurance": 2}), "r", 40)
    assert answers(log) == []


# --------------------------------------------------------------------------------------
# 500.7h .. 500.7l: the boss Reflect rune
# --------------------------------------------------------------------------------------


@covers("combat:500.7h")
@pytest.mark.parametrize(("landed", "reflected"), [(0, 0), (1, 1), (19, 1), (20, 1), (39, 1), (40, 2), (100, 5), (999, 49)])
def test_500_7h_reflect_is_five_percent_rounded_down_but_at_least_one(landed, reflected):
    assert compute_reflect_amount(landed) == reflected


@covers("combat:500.7h")
def test_500_7h_reflect_answers_as_damage_not_as_a_cost():
    after, log = hit(duel(BOSS, {"vitality": 50}), "r", 100)
    assert events(log, "reflect") == [("r", 5, "a", None)]
    assert after.unit("a").vitality == 45
    assert ("r", 5, "a") in [(e.unit, e.amount, e.other) for e in log.events() if e.name == "credit"]


@covers("combat:500.7i")
def test_500_7i_a_hit_the_boss_fully_absorbs_reflects_nothing():
    _, log = hit(duel({**BOSS, "shield": 200}), "r", 100)
    assert "reflect" not in names(log)


@covers("combat:500.7i")
def test_500_7i_reflect_reads_the_hit_after_the_boss_defences():
    # 100 into Armor 25 (percentage: ceil(2000/25) = 80, flat 5) = 75; 1 Insurance point takes 25, Shield 10: 40 lands.
    _, log = hit(duel({**BOSS, "armor": 25, "insurance": 1, "shield": 10}), "r", 100)
    assert events(log, "reflect") == [("r", 2, "a", None)]


@covers("combat:500.7i")
def test_500_7i_reflect_is_met_by_the_attacker_insurance_then_shield():
    after, log = hit(duel(BOSS, {"insurance": 1, "shield": 10}), "r", 600)
    # 600 lands, 30 reflects: the Insurance point takes 25, Shield the other 5.
    a = after.unit("a")
    assert (a.insurance, a.shield, a.vitality) == (0, 5, 100)
    reflected = log.events()[names(log).index("reflect"):]
    assert [(e.name, e.unit, e.amount) for e in reflected if e.name in ("insurance_prevented", "shield_damaged")] == [
        ("insurance_prevented", "a", 25),
        ("shield_damaged", "a", 5),
    ]


@covers("combat:500.7j")
def test_500_7j_reflect_skips_the_attacker_armor():
    after, _ = hit(duel(BOSS, {"armor": 400, "vitality": 50}), "r", 200)
    assert after.unit("a").vitality == 40


@covers("combat:500.7k")
def test_500_7k_reflect_starts_no_damage_reactions():
    b = duel(BOSS, {"vitality": 50, "thorns": 7, "riposte": 3, "retort": 4})
    after, log = hit(b, "r", 200)
    reflected = names(log)[names(log).index("reflect"):]
    assert "damage_taken" not in reflected
    assert not {"thorns", "riposte", "retort", "riposte_missed"} & set(reflected)
    assert after.unit("r").vitality == 800 and after.unit("a").vitality == 40


@covers("combat:500.7l")
def test_500_7l_reflect_is_not_an_activation_and_applies_nothing_else():
    b = duel(BOSS, {"vitality": 50})
    after, log = hit(b, "r", 200)
    a0, a1 = b.unit("a"), after.unit("a")
    changed = {f for f in UNIT_FIELDS if getattr(a0, f) != getattr(a1, f)}
    assert changed == {"vitality"}  # no Shatter, no status: only the damage
    assert names(log)[names(log).index("reflect"):] == [
        "reflect", "credit", "feast", "vitality_lost", "threshold_reevaluated",
    ]  # fmt: skip
