"""500.6 Retaliation: the enemy that damaged you loses Vitality, as a cost, never as damage."""

from __future__ import annotations

from typing import Any

import pytest

from referee.model.combat.damage import DamageInstance
from referee.model.events import EventLog
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers


def hit(b: Board, target: str, amount: int, source: str | None = "a", ruleset: Ruleset = DEFAULT, **kw: Any):
    return resolve_hit(b, DamageInstance(target, amount, source, **kw), ruleset)


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def duel(recipient: dict[str, Any], attacker: dict[str, Any] | None = None, *others: Unit) -> Board:
    """The recipient ``r`` on side 1 and the attacker ``a`` on side 0."""
    return Board((Unit("r", side=1, **recipient), Unit("a", side=0, **(attacker or {})), *others))


# --------------------------------------------------------------------------------------
# 500.6a
# --------------------------------------------------------------------------------------


@covers("combat:500.6a")
def test_500_6a_thorns_skip_every_layer_of_the_attacker():
    attacker = dict(vitality=50, shield=20, insurance=2, subrogated=1, ignore_charges=1, armor=400, has_cap=True, cap=1,
                    redirect_to="guard", redirect_cap=100, intercept_by="guard")  # fmt: skip
    b = duel({"thorns": 7}, attacker, Unit("guard", side=0, col=1))
    after, log = hit(b, "r", 10)
    a = after.unit("a")
    assert a.vitality == 43 and (a.shield, a.insurance, a.subrogated, a.ignore_charges) == (20, 2, 1, 1)
    assert after.unit("guard") == b.unit("guard")
    assert events(log, "thorns") == [("a", 7, "r", None)]
    assert not {"redirect", "lethal_redirect", "shield_damaged", "ignore_charge_spent"} & set(
        n for n in names(log)[names(log).index("thorns"):]
    )


# --------------------------------------------------------------------------------------
# 500.6b
# --------------------------------------------------------------------------------------


@covers("combat:500.6b")
def test_500_6b_retaliation_is_never_answered_and_fires_no_damage_taken_on_its_payer():
    b = duel({"thorns": 5, "riposte": 3, "retort": 2}, {"thorns": 9, "riposte": 9, "retort": 9})
    after, log = hit(b, "r", 10, riposte_rolls=(True,))
    assert [e.unit for e in log.events() if e.name in ("thorns", "riposte", "retort")] == ["a", "a", "a"]
    assert events(log, "damage_taken") == [("r", 10, "a", "hit")]
    assert after.unit("r").vitality == 90 and after.unit("a").vitality == 90


# --------------------------------------------------------------------------------------
# 500.6c
# --------------------------------------------------------------------------------------


@covers("combat:500.6c")
def test_500_6c_vitality_loss_listeners_answer_retaliation():
    b = duel({"thorns": 4}, {"adrenaline": 6, "momentum": 2, "bolster": 1})
    after, log = hit(b, "r", 10)
    a = after.unit("a")
    assert (a.adrenaline, a.momentum, a.bolster) == (0, 0, 0)
    resets = [(u, d) for u, _, _, d in events(log, "rune_reset")]
    assert resets == [("a", "adrenaline"), ("a", "momentum"), ("a", "bolster")]
    assert ("a", 0, None, None) in events(log, "threshold_reevaluated")


# --------------------------------------------------------------------------------------
# 500.6d
# --------------------------------------------------------------------------------------


@covers("combat:500.6d")
def test_500_6d_defy_death_saves_the_unit_paying_retaliation():
    after, log = hit(duel({"thorns": 30}, {"vitality": 12, "defy_death": True}), "r", 10)
    assert after.unit("a").vitality == 1 and after.unit("a").alive and not after.unit("a").defy_death
    assert events(log, "thorns") == [("a", 11, "r", None)]


@covers("combat:500.6d", "combat:500.4c")
def test_500_6d_retaliation_kills_through_the_ordinary_death_route():
    b = duel({"thorns": 30}, {"vitality": 12, "deathrattle": True}, Unit("ally", side=0, col=1))
    after, log = hit(b, "r", 10)
    assert not after.unit("a").alive
    assert events(log, "death") == [("a", 0, "r", None)]  # kill credit to the retaliator
    assert [u for u, _, _, _ in events(log, "macabre")] == ["r", "ally"]
    assert events(log, "deathrattle") == [("a", 0, None, None)]


# --------------------------------------------------------------------------------------
# 500.6e
# --------------------------------------------------------------------------------------


@covers("combat:500.6e")
@pytest.mark.parametrize(("state", "reason"), [({"entrapped": True}, "entrapped"), ({"dormant": True}, "dormant")])
def test_500_6e_retaliation_is_refused_against_an_illegal_target(state, reason):
    b = duel({"thorns": 5}, {"vitality": 40, **state})
    after, log = hit(b, "r", 10)
    assert after.unit("a").vitality == 40 and "thorns" not in names(log)
    assert events(log, "cost_refused") == [("a", 0, "r", reason)]


@covers("combat:500.6e")
def test_500_6e_an_attacker_killed_by_thorns_is_refused_by_riposte():
    b = duel({"thorns": 5, "riposte": 4}, {"vitality": 5})
    after, log = hit(b, "r", 10, riposte_rolls=(True,))
    assert events(log, "thorns") == [("a", 5, "r", None)]
    assert events(log, "cost_refused") == [("a", 0, "r", "dead")]
    assert "riposte" not in names(log)


# --------------------------------------------------------------------------------------
# 500.6f
# --------------------------------------------------------------------------------------


@covers("combat:500.6f")
def test_500_6f_the_retaliator_is_credited_and_feasts_on_a_normal_unit():
    _, log = hit(duel({"thorns": 6}, {"vitality": 4}), "r", 10)
    after_thorns = log.events()[names(log).index("thorns"):]
    assert [(e.name, e.unit, e.amount, e.other) for e in after_thorns if e.name in ("credit", "feast")] == [
        ("credit", "r", 4, "a"),
        ("feast", "r", 4, "a"),
    ]


@covers("combat:500.6f", "combat:500.6g")
def test_500_6f_against_a_boss_retaliation_scores_but_feeds_no_feast():
    b = duel({"thorns": 6}, {"is_boss": True, "vitality": 500, "max_vitality": 500})
    _, log = hit(b, "r", 10)
    after_thorns = log.events()[names(log).index("thorns"):]
    assert [(e.name, e.unit, e.amount) for e in after_thorns if e.name in ("credit", "feast", "phasebreak_check")] == [
        ("credit", "r", 6),
        ("phasebreak_check", "a", 6),
    ]


# --------------------------------------------------------------------------------------
# 500.6g
# --------------------------------------------------------------------------------------


@covers("combat:500.6g")
def test_500_6g_retaliation_into_a_boss_checks_phasebreak_and_never_staggers():
    b = duel({"thorns": 3, "retort": 2}, {"is_boss": True, "vitality": 500, "max_vitality": 500})
    _, log = hit(b, "r", 10)
    assert events(log, "phasebreak_check") == [("a", 3, "r", None), ("a", 2, "r", None)]
    assert "stagger" not in names(log)


# --------------------------------------------------------------------------------------
# 500.6h
# --------------------------------------------------------------------------------------


@covers("combat:500.6h")
def test_500_6h_no_retaliation_against_an_ally():
    b = Board((Unit("r", side=1, thorns=5, riposte=3), Unit("a", side=1, col=1)))
    after, log = hit(b, "r", 10)
    assert after.unit("a") == b.unit("a")
    assert events(log, "cost_refused") == [("a", 0, "r", "ally")]
    assert not {"thorns", "riposte", "riposte_missed"} & set(names(log))


@covers("combat:500.6h")
def test_500_6h_no_retaliation_against_itself_and_no_roll_is_used():
    b = Board((Unit("r", side=1, thorns=5, riposte=3),))
    after, log = hit(b, "r", 10, source="r", riposte_rolls=())
    assert after.unit("r").vitality == 90
    assert events(log, "cost_refused") == [("r", 0, "r", "self")]
