"""Readings re-checked against the seeds: INT-008 (500.7d), INT-114 (500.1c, 500.7k), INT-112 (500.7h, 500.7k).

Each reading is an option of the ruleset; each test runs the default and the alternative.
"""

from __future__ import annotations

from typing import Any

from referee.model.combat.damage import DamageInstance
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers

AFTER_SHIELD = Ruleset(damage_event_test="after_shield")
PAYBACK = Ruleset(reflect_subrogation="payback")
HITS_ONLY = Ruleset(reflect_lanes="hits_only")


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def hit(b: Board, target: str, amount: int, source: str = "a", ruleset: Ruleset = DEFAULT, kind: str = "hit"):
    return resolve_hit(b, DamageInstance(target, amount, source, kind=kind), ruleset)


# --------------------------------------------------------------------------------------
# INT-008: 'A hit that reaches no Vitality any other way does silence them' (500.7d)
# --------------------------------------------------------------------------------------


@covers("combat:500.7d", "combat:500.1-12")
def test_500_7d_a_hit_defy_death_kept_off_vitality_is_silent_by_default():
    b = Board((Unit("r", side=1, vitality=1, defy_death=True, thorns=5), Unit("a", side=0)))
    after, log = hit(b, "r", 50)
    assert after.unit("r").vitality == 1 and "defy_death" in names(log) and "thorns" not in names(log)
    _, log = hit(b, "r", 50, ruleset=AFTER_SHIELD)
    assert events(log, "thorns") == [("a", 5, "r", None)]


@covers("combat:500.7d", "combat:500.1-11", "combat:500.1g")
def test_500_7d_a_hit_moved_whole_by_the_redirect_is_answered_only_by_its_receiver_by_default():
    b = Board((Unit("r", side=1, thorns=5, redirect_to="g", redirect_cap=100), Unit("g", side=1, col=1, thorns=3),
               Unit("a", side=0)))
    _, log = hit(b, "r", 40)
    assert events(log, "thorns") == [("a", 3, "g", None)]
    _, log = hit(b, "r", 40, ruleset=AFTER_SHIELD)
    assert events(log, "thorns") == [("a", 5, "r", None), ("a", 3, "g", None)]


@covers("combat:500.7c", "combat:500.7d")
def test_500_7c_insurance_swallowing_a_hit_still_fires_thorns_under_both_readings():
    b = Board((Unit("r", side=1, insurance=2, thorns=5), Unit("a", side=0)))
    for ruleset in (DEFAULT, AFTER_SHIELD):
        _, log = hit(b, "r", 20, ruleset=ruleset)
        assert events(log, "thorns") == [("a", 5, "r", None)]


# --------------------------------------------------------------------------------------
# INT-114: 'a boss Reflect starts no damage reactions at all' (500.1c)
# --------------------------------------------------------------------------------------


def reflect_board() -> Board:
    boss = Unit("boss", side=1, is_boss=True, reflect=True, vitality=5000, max_vitality=5000)
    return Board((boss, Unit("a", side=0, subrogated=1)))


@covers("combat:500.1c", "combat:500.7k", "combat:500.7i")
def test_500_1c_a_reflect_met_by_subrogated_insurance_makes_the_boss_pay_nothing_by_default():
    after, log = hit(reflect_board(), "boss", 400)  # 400 landed: Reflect 20, absorbed by a's Subrogated point
    assert events(log, "reflect") == [("boss", 20, "a", None)]
    assert after.unit("a").subrogated == 0 and events(log, "insurance_prevented") == [("a", 20, "boss", "subrogated")]
    assert "subrogation" not in names(log) and after.unit("boss").vitality == 4600


@covers("combat:500.1c", "combat:500.7i", "combat:500.1-8")
def test_500_7i_the_boss_pays_the_payback_under_the_payback_reading():
    after, log = hit(reflect_board(), "boss", 400, ruleset=PAYBACK)
    assert events(log, "subrogation") == [("boss", 20, "a", None)] and after.unit("boss").vitality == 4580


# --------------------------------------------------------------------------------------
# INT-112: whom and what a Reflect answers (500.7h, 500.7k)
# --------------------------------------------------------------------------------------


def boss_and(attacker_side: int) -> Board:
    boss = Unit("boss", side=1, is_boss=True, reflect=True, vitality=5000, max_vitality=5000)
    return Board((boss, Unit("a", side=attacker_side, col=1)))


@covers("combat:500.7h", "combat:500.7k")
def test_500_7h_a_reflect_answers_a_burn_tick_by_default_and_not_under_hits_only():
    _, log = hit(boss_and(0), "boss", 200, kind="burn")
    assert events(log, "reflect") == [("boss", 10, "a", None)]
    _, log = hit(boss_and(0), "boss", 200, kind="burn", ruleset=HITS_ONLY)
    assert events(log, "reflect") == []
    _, log = hit(boss_and(0), "boss", 200, ruleset=HITS_ONLY)
    assert events(log, "reflect") == [("boss", 10, "a", None)]


@covers("combat:500.7h", "combat:500.6h")
def test_500_7h_a_reflect_never_answers_an_allied_attacker_under_either_reading():
    for ruleset in (DEFAULT, HITS_ONLY):
        _, log = hit(boss_and(1), "boss", 200, ruleset=ruleset)
        assert events(log, "reflect") == [] and "damage_taken" in names(log)
