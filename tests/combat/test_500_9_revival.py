"""500.9 Revival: Everlasting on the battle clock, Phylactery in place, and the body both share."""

from __future__ import annotations

from typing import Any

import pytest

from referee.model.combat import battle as clock
from referee.model.combat.armor import apply_armor_debuff
from referee.model.combat.costs import resolve_self_destruct
from referee.model.combat.damage import DamageInstance
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.revival import grant_reliquary_speed, revive_unit
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def hit(b: Board, target: str, amount: int, source: str = "x") -> tuple[Board, EventLog]:
    return resolve_hit(b, DamageInstance(target, amount, source))


def kill(target: str, source: str = "x"):
    return lambda b: hit(b, target, 10_000, source)


# --------------------------------------------------------------------------------------
# 500.9a Everlasting: 10 seconds, own half, retries on later ticks
# --------------------------------------------------------------------------------------


@covers("combat:500.9a")
def test_500_9a_everlasting_revives_exactly_ten_seconds_after_the_death_off_the_tick_grid():
    battle = clock.start_battle(Board((Unit("a", vitality=5, everlasting=True), Unit("x", side=1))))
    battle, _ = clock.advance(battle, 1_234)
    battle, _ = clock.act(battle, kill("a"))
    battle, log = clock.advance(battle, 9_999)
    assert not battle.board.unit("a").alive and names(log) == []
    battle, log = clock.advance(battle, 1)
    assert events(log, "everlasting_revival") == [("a", 11_234, "x", "0,0,0")] and battle.board.unit("a").alive


@covers("combat:500.9a")
def test_500_9a_a_full_half_delays_the_revival_which_retries_on_each_later_tick():
    dead = Unit("a", alive=False, vitality=0, everlasting=True)
    board = Board((dead, Unit("f00", row=0, col=0), Unit("f01", row=0, col=1), Unit("x", side=1)))  # its cell taken
    battle = clock.Battle(board, 1_250, (clock.PendingRevival("a", 1_250, 11_250, "x"),), True, 1, 2)
    battle, log = clock.advance(battle, 10_000 + 250)  # to 11,500: tries at 11,250, 11,300, 11,400, 11,500
    assert [e[1] for e in events(log, "everlasting_delayed")] == [11_300, 11_400, 11_500, 11_600]
    assert not battle.board.unit("a").alive and battle.pending[0].next_try_ms == 11_600


@covers("combat:500.9a")
def test_500_9a_a_slot_freed_between_ticks_is_taken_at_the_first_tick_after():
    a = Unit("a", alive=False, vitality=0, everlasting=True)
    board = Board((a, Unit("f00", row=0, col=0), Unit("f01", row=0, col=1, vitality=5), Unit("x", side=1)))
    battle = clock.Battle(board, 1_250, (clock.PendingRevival("a", 1_250, 11_250, "x"),), True, 1, 2)
    battle, log = clock.advance(battle, 10_000)  # the try at 11,250 fails
    assert events(log, "everlasting_delayed") == [("a", 11_300, None, None)]
    battle, _ = clock.advance(battle, 10)
    battle, _ = clock.act(battle, kill("f01"))  # at 11,260 f01 dies, freeing (0,0,1)
    battle, log = clock.advance(battle, 39)
    assert names(log) == []  # 11,299: not yet
    battle, log = clock.advance(battle, 1)
    assert events(log, "everlasting_revival") == [("a", 11_300, "x", "0,0,1")]
    assert battle.board.unit("a").position == (0, 0, 1)


@covers("combat:500.9a")
def test_500_9a_the_search_stays_on_the_units_own_half():
    a = Unit("a", alive=False, vitality=0, everlasting=True, side=1)
    board = Board((a, Unit("f", side=1, row=0, col=0), Unit("x", side=0)))
    battle = clock.Battle(board, 0, (clock.PendingRevival("a", 0, 10_000, "x"),), True, 1, 1)
    battle, log = clock.advance(battle, 10_000)
    assert names(log) == ["everlasting_delayed"]  # the empty cell on side 0 is not its half


@covers("combat:500.9a")
def test_500_9a_death_cell_first_by_default_reading_order_as_an_option():
    a = Unit("a", alive=False, vitality=0, everlasting=True, row=1, col=1)
    battle = clock.Battle(Board((a, Unit("x", side=1))), 0, (clock.PendingRevival("a", 0, 10_000, None),), True, 2, 2)
    first, _ = clock.advance(battle, 10_000)
    ordered, _ = clock.advance(battle, 10_000, Ruleset(everlasting_slot_order="reading_order"))
    assert first.board.unit("a").position == (0, 1, 1) and ordered.board.unit("a").position == (0, 0, 0)


@covers("combat:500.9a")
def test_500_9a_no_revival_once_combat_has_ended():
    battle = clock.start_battle(Board((Unit("a", vitality=5, everlasting=True), Unit("x", side=1))))
    battle, _ = clock.act(battle, kill("a"))
    battle, log = clock.end_combat(battle)
    assert events(log, "everlasting_lapsed") == [("a", 0, None, None)]
    battle, log = clock.advance(battle, 20_000)
    assert names(log) == [] and not battle.board.unit("a").alive


@covers("combat:500.9a", "combat:500.8h")
def test_500_9a_a_self_destructed_everlasting_unit_revives_on_schedule():
    battle = clock.start_battle(Board((Unit("a", vitality=5, everlasting=True), Unit("x", side=1))))
    battle, _ = clock.act(battle, lambda b: resolve_self_destruct(b, "a"))
    battle, log = clock.advance(battle, 10_000)
    assert battle.board.unit("a").alive and events(log, "everlasting_revival") == [("a", 10_000, None, "0,0,0")]


@covers("combat:500.9a")
def test_500_9a_time_never_runs_backwards():
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(clock.start_battle(Board((Unit("a"),))), -1)


# --------------------------------------------------------------------------------------
# 500.9b Phylactery: same cell, cannot fail
# --------------------------------------------------------------------------------------


@covers("combat:500.9b")
def test_500_9b_a_vessel_returns_the_unit_to_its_cell_even_on_a_full_half():
    b = Board((Unit("a", vitality=5, vessels=1, row=1, col=2), Unit("f", row=0, col=0), Unit("x", side=1)))
    battle = clock.start_battle(b, rows=1, cols=1)  # its half has no free slot at all
    battle, log = clock.act(battle, kill("a"))
    assert battle.board.unit("a").alive and battle.board.unit("a").position == (0, 1, 2)
    assert battle.pending == () and "vessel_revival" in names(log)


# --------------------------------------------------------------------------------------
# 500.9c The shared body: full Vitality, battle-start numbers, nothing of the last life
# --------------------------------------------------------------------------------------


@covers("combat:500.9c")
def test_500_9c_regression_crushed_entrapped_prismbroken_unit_revived_by_a_vessel_comes_back_clean():
    a = apply_armor_debuff(Unit("a", armor=50, vitality=5, vessels=1, entrapped=True, prismbroken=True), "crush", 30)
    assert a.armor == 20 and a.armor_change == -30
    after, _ = hit(Board((a, Unit("x", side=1))), "a", 10_000)
    back = after.unit("a")
    assert back.alive and back.vitality == back.max_vitality
    assert (back.armor, back.armor_change, back.entrapped, back.prismbroken) == (50, 0, False, False)


@covers("combat:500.9c")
def test_500_9c_everlasting_body_is_the_same_as_the_vessel_body():
    a = Unit("a", armor=20, armor_change=-30, vitality=5, everlasting=True, entrapped=True, prismbroken=True)
    battle = clock.start_battle(Board((a, Unit("x", side=1))))
    battle, _ = clock.act(battle, kill("a"))
    battle, _ = clock.advance(battle, 10_000)
    back = battle.board.unit("a")
    assert (back.alive, back.vitality, back.armor, back.entrapped, back.prismbroken) == (True, 100, 50, False, False)
    assert revive_unit(Unit("d", alive=False, vitality=0, dormant=True)).dormant is False


@covers("combat:500.9c", "combat:500.8g")
def test_500_9c_full_vitality_is_the_current_maximum():
    back = revive_unit(Unit("a", alive=False, vitality=0, max_vitality=70))
    assert back.vitality == 70


# --------------------------------------------------------------------------------------
# 500.9d Charge from empty
# --------------------------------------------------------------------------------------


@covers("combat:500.9d")
def test_500_9d_a_revival_never_hands_back_the_charge():
    after, _ = hit(Board((Unit("a", vitality=5, vessels=1, charge=80), Unit("x", side=1))), "a", 100)
    assert after.unit("a").alive and after.unit("a").charge == 0
    assert revive_unit(Unit("a", alive=False, vitality=0, charge=55)).charge == 0


# --------------------------------------------------------------------------------------
# 500.9e Once-per-life effects re-armed
# --------------------------------------------------------------------------------------


@covers("combat:500.9e", "combat:500.1-12")
def test_500_9e_regression_defy_death_saves_again_after_a_vessel_revival():
    b = Board((Unit("a", vitality=30, defy_death=True, vessels=1), Unit("x", side=1)))
    b, log = hit(b, "a", 50)  # saved: Vitality 1, the charge spent
    a = b.unit("a")
    assert "defy_death" in names(log) and (a.vitality, a.defy_death, a.defy_death_spent) == (1, False, True)
    b, _ = hit(b, "a", 50)  # killed, revived by the Vessel: the rune is armed again
    a = b.unit("a")
    assert a.alive and (a.defy_death, a.defy_death_spent) == (True, False)
    b, log = hit(b, "a", 500)  # and saves again
    assert b.unit("a").alive and b.unit("a").vitality == 1 and "defy_death" in names(log)


@covers("combat:500.9e")
def test_500_9e_a_unit_without_the_rune_is_not_given_one():
    assert revive_unit(Unit("a", alive=False, vitality=0)).defy_death is False


# --------------------------------------------------------------------------------------
# 500.9f A new target incarnation
# --------------------------------------------------------------------------------------


@covers("combat:500.9f")
def test_500_9f_each_revival_is_a_new_target_incarnation():
    b = Board((Unit("a", vitality=5, vessels=2), Unit("x", side=1)))
    b, _ = hit(b, "a", 500)
    assert b.unit("a").incarnation == 1
    b, _ = hit(b, "a", 500)
    assert b.unit("a").incarnation == 2


# --------------------------------------------------------------------------------------
# 500.9g Everlasting re-resolved
# --------------------------------------------------------------------------------------


@covers("combat:500.9g")
def test_500_9g_a_battle_long_everlasting_revives_again_and_a_life_long_grant_does_not():
    battle = clock.start_battle(Board((Unit("a", vitality=5, everlasting=True), Unit("x", side=1))))
    for _ in range(2):
        battle, _ = clock.act(battle, kill("a"))
        battle, _ = clock.advance(battle, 10_000)
        assert battle.board.unit("a").alive and battle.board.unit("a").everlasting
    granted = Board((Unit("g", vitality=5, everlasting=True, everlasting_life_grant=True, vessels=1),
                     Unit("x", side=1)))
    after, _ = hit(granted, "g", 500)  # the Vessel revives it; the grant for that life is gone
    assert after.unit("g").alive and not after.unit("g").everlasting


# --------------------------------------------------------------------------------------
# 500.9h-k The channels
# --------------------------------------------------------------------------------------


@covers("combat:500.9h")
def test_500_9h_two_channels_both_carrying_the_cause():
    b = Board((Unit("a", vitality=5, vessels=1, hears_phylactery_revival=True), Unit("f", col=1, hears_ally_revival=True),
               Unit("x", side=1)))
    _, log = hit(b, "a", 500)
    assert events(log, "revival_self") == [("a", 0, "a", "phylactery")]
    assert events(log, "revival_ally") == [("f", 0, "a", "phylactery")]


@covers("combat:500.9i")
def test_500_9i_the_self_channel_refuses_the_other_cause():
    a = Unit("a", vitality=5, everlasting=True, hears_phylactery_revival=True)
    battle = clock.start_battle(Board((a, Unit("x", side=1))))
    battle, _ = clock.act(battle, kill("a"))
    battle, log = clock.advance(battle, 10_000)
    assert "everlasting_revival" in names(log) and "revival_self" not in names(log)
    b = Board((Unit("p", vitality=5, vessels=1, everlasting=True, hears_everlasting_revival=True), Unit("x", side=1)))
    _, log = hit(b, "p", 500)  # a Phylactery bearer with Everlasting: its Everlasting line stays silent
    assert "vessel_revival" in names(log) and "revival_self" not in names(log)


@covers("combat:500.9j")
def test_500_9j_the_ally_channel_hears_every_cause_but_not_enemies_or_the_dead():
    a = Unit("a", vitality=5, everlasting=True)
    others = (Unit("f", col=1, hears_ally_revival=True), Unit("dead", col=2, alive=False, vitality=0,
              hears_ally_revival=True), Unit("x", side=1, hears_ally_revival=True))  # fmt: skip
    battle = clock.start_battle(Board((a, *others)))
    battle, _ = clock.act(battle, kill("a"))
    battle, log = clock.advance(battle, 10_000)
    assert events(log, "revival_ally") == [("f", 0, "a", "everlasting")]
    _, log = hit(Board((Unit("a", vitality=5, vessels=1), *others)), "a", 500)
    assert events(log, "revival_ally") == [("f", 0, "a", "phylactery")]


@covers("combat:500.9k")
def test_500_9k_everlasting_holds_the_killer_for_ten_seconds():
    a = Unit("a", vitality=5, everlasting=True, hears_everlasting_revival=True, revival_aims_killer=True)
    battle = clock.start_battle(Board((a, Unit("x", side=1))))
    battle, _ = clock.act(battle, kill("a"))
    assert battle.pending[0].killer == "x"
    battle, log = clock.advance(battle, 10_000)
    assert events(log, "revival_self") == [("a", 0, "x", "everlasting")] and "revival_focus" not in names(log)


@covers("combat:500.9k")
def test_500_9k_a_killer_gone_or_illegal_falls_back_to_the_listeners_focus():
    a = Unit("a", vitality=5, everlasting=True, hears_everlasting_revival=True, revival_aims_killer=True)
    battle = clock.start_battle(Board((a, Unit("x", side=1, vitality=5), Unit("f", col=1, hears_ally_revival=True))))
    battle, _ = clock.act(battle, kill("a"))
    battle, _ = clock.act(battle, kill("x", source="f"))  # the killer dies in the 10 seconds
    battle, log = clock.advance(battle, 10_000)
    assert events(log, "revival_self") == [("a", 0, None, "everlasting")]
    assert events(log, "revival_focus") == [("a", 0, "x", "everlasting")]
    assert events(log, "revival_ally") == [("f", 0, "a", "everlasting")]  # aims at the revived ally


@covers("combat:500.9k")
def test_500_9k_phylactery_has_the_killer_in_hand_and_an_entrapped_killer_is_no_target():
    a = Unit("a", vitality=5, vessels=2, hears_phylactery_revival=True, revival_aims_killer=True)
    _, log = hit(Board((a, Unit("x", side=1))), "a", 500)
    assert events(log, "revival_self") == [("a", 0, "x", "phylactery")]
    _, log = hit(Board((a, Unit("x", side=1, entrapped=True))), "a", 500)
    assert events(log, "revival_self") == [("a", 0, None, "phylactery")] and len(events(log, "revival_focus")) == 1


# --------------------------------------------------------------------------------------
# 500.9l Reliquary
# --------------------------------------------------------------------------------------


@covers("combat:500.9l")
def test_500_9l_reliquary_speed_until_the_next_activation():
    after, _ = hit(Board((Unit("a", vitality=5, vessels=1, reliquary=15), Unit("x", side=1))), "a", 500)
    assert after.unit("a").reliquary_speed == 15
    after, log = clock.resolve_activation(after, "a")
    assert after.unit("a").reliquary_speed == 0 and events(log, "reliquary_cleared") == [("a", 15, None, None)]


@covers("combat:500.9l")
def test_500_9l_reapplying_does_not_add_the_larger_stands():
    unit = Unit("a", reliquary_speed=10)
    assert grant_reliquary_speed(unit, 10).reliquary_speed == 10
    assert grant_reliquary_speed(unit, 4).reliquary_speed == 10
    assert grant_reliquary_speed(unit, 25).reliquary_speed == 25


@covers("combat:500.9l")
def test_500_9l_an_activation_without_reliquary_speed_reports_nothing():
    after, log = clock.resolve_activation(Board((Unit("a", charge=40),)), "a")
    assert names(log) == [] and after.unit("a").charge == 0


# --------------------------------------------------------------------------------------
# 500.9m One batch per revival
# --------------------------------------------------------------------------------------


@covers("combat:500.9m")
def test_500_9m_an_everlasting_revival_and_its_listeners_are_one_batch():
    a = Unit("a", vitality=5, everlasting=True, hears_everlasting_revival=True)
    battle = clock.start_battle(Board((a, Unit("f", col=1, hears_ally_revival=True), Unit("g", col=2,
                                hears_ally_revival=True), Unit("x", side=1))))  # fmt: skip
    battle, _ = clock.act(battle, kill("a"))
    battle, log = clock.advance(battle, 10_000)
    assert names(log) == ["everlasting_revival", "revival_self", "revival_ally", "revival_ally", "vessel_batch"]
    assert events(log, "vessel_batch") == [("a", 4, None, "revival")]


@covers("combat:500.9m", "combat:500.4e")
def test_500_9m_a_vessel_revival_pools_into_its_deaths_batch():
    b = Board((Unit("a", vitality=5, vessels=1), Unit("f", col=1, hears_ally_revival=True), Unit("x", side=1)))
    _, log = hit(b, "a", 500)
    assert len(events(log, "vessel_batch")) == 1 and names(log)[-2:] == ["revival_ally", "vessel_batch"]
