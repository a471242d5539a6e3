"""500.6g A boss's meters: damage checks Phasebreak and direct damage advances Stagger; retaliation never does."""

from __future__ import annotations

from typing import Any

from referee.model.combat.damage import DamageInstance
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def boss_fight(**boss: Any) -> Board:
    return Board((Unit("boss", side=1, is_boss=True, vitality=1000, max_vitality=1000, **boss), Unit("a", side=0)))


def hit(b: Board, amount: int, kind: str = "hit", ruleset: Ruleset = DEFAULT, target: str = "boss", source: str = "a"):
    return resolve_hit(b, DamageInstance(target, amount, source, kind=kind), ruleset)


@covers("combat:500.6g")
def test_500_6g_regression_a_direct_hit_of_40_on_a_boss_checks_phasebreak_and_advances_stagger():
    _, log = hit(boss_fight(), 40)
    assert events(log, "phasebreak_check") == [("boss", 40, "a", None)]
    assert events(log, "stagger") == [("boss", 40, "a", None)]


@covers("combat:500.6g")
def test_500_6g_retaliation_into_a_boss_checks_phasebreak_but_never_advances_stagger():
    b = Board((Unit("boss", side=1, is_boss=True, vitality=1000), Unit("r", side=0, thorns=6)))
    _, log = hit(b, 10, target="r", source="boss")
    assert events(log, "phasebreak_check") == [("boss", 6, "r", None)] and events(log, "stagger") == []


@covers("combat:500.6g")
def test_500_6g_shield_absorbed_damage_advances_stagger_but_checks_no_phasebreak():
    _, log = hit(boss_fight(shield=100), 40)
    assert events(log, "stagger") == [("boss", 40, "a", None)] and events(log, "phasebreak_check") == []


@covers("combat:500.6g")
def test_500_6g_a_burn_tick_checks_phasebreak_and_advances_stagger_only_under_every_instance():
    _, log = hit(boss_fight(), 30, kind="burn")
    assert events(log, "phasebreak_check") == [("boss", 30, "a", None)] and events(log, "stagger") == []
    _, log = hit(boss_fight(), 30, kind="burn", ruleset=Ruleset(stagger_lanes="every_instance"))
    assert events(log, "stagger") == [("boss", 30, "a", None)]


@covers("combat:500.6g")
def test_500_6g_an_ordinary_unit_has_no_meters():
    _, log = hit(Board((Unit("u", side=1), Unit("a", side=0))), 40, target="u")
    assert events(log, "stagger") == [] and events(log, "phasebreak_check") == []
