"""500.4 Death: Vitality 0 or Cull, the death announced, Macabre, deathrattles, revival, one Vessel Point batch."""

from __future__ import annotations

from typing import Any

from referee.model.combat import battle as clock
from referee.model.combat.costs import resolve_self_destruct
from referee.model.combat.damage import DamageInstance
from referee.model.combat.death import resolve_cull
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


def place(*units: Unit) -> Board:
    """Each side's units in row 0, one column each, in the order given."""
    cols = {0: 0, 1: 0}
    placed = []
    for u in units:
        placed.append(u.evolve(row=0, col=cols[u.side]))
        cols[u.side] += 1
    return Board(tuple(placed))


def hit(b: Board, target: str, amount: int, source: str = "x") -> tuple[Board, EventLog]:
    return resolve_hit(b, DamageInstance(target, amount, source))


# --------------------------------------------------------------------------------------
# 500.4a
# --------------------------------------------------------------------------------------


@covers("combat:500.4a")
def test_500_4a_vitality_reaching_zero_kills_and_one_short_does_not():
    b = place(Unit("a", vitality=30), Unit("x", side=1))
    alive, _ = hit(b, "a", 29)
    dead, log = hit(b, "a", 30)
    assert alive.unit("a").alive and alive.unit("a").vitality == 1
    assert not dead.unit("a").alive and events(log, "death") == [("a", 0, "x", None)]


@covers("combat:500.4a")
def test_500_4a_cull_destroys_outright_past_defy_death_shield_and_insurance():
    b = place(Unit("a", vitality=90, shield=50, insurance=3, defy_death=True, ignore_charges=2), Unit("x", side=1))
    after, log = resolve_cull(b, "a", "x")
    a = after.unit("a")
    assert not a.alive and a.vitality == 0
    assert names(log)[:2] == ["culled", "death"] and events(log, "death") == [("a", 0, "x", None)]
    assert a.defy_death and a.ignore_charges == 2 and "defy_death" not in names(log)


@covers("combat:500.4a")
def test_500_4a_cull_does_nothing_to_a_dead_unit_or_a_tool():
    b = place(Unit("dead", alive=False, vitality=0), Unit("tool", is_tool=True), Unit("x", side=1))
    for uid in ("dead", "tool"):
        after, log = resolve_cull(b, uid, "x")
        assert after == b and names(log) == []


@covers("combat:500.4a", "combat:500.8h")
def test_500_4a_a_self_destruct_kills_through_an_armed_defy_death_rune():
    after, log = resolve_self_destruct(place(Unit("p", vitality=60, defy_death=True), Unit("x", side=1)), "p")
    assert not after.unit("p").alive and "death" in names(log) and "defy_death" not in names(log)


# --------------------------------------------------------------------------------------
# 500.4b
# --------------------------------------------------------------------------------------


@covers("combat:500.4b")
def test_500_4b_combat_state_is_cleared_on_death():
    b = place(Unit("a", vitality=10, shield=5, adrenaline=3, momentum=2, bolster=1, charge=70, armor=0),
              Unit("x", side=1))
    after, _ = hit(b, "a", 100)
    a = after.unit("a")
    assert (a.alive, a.vitality, a.shield, a.adrenaline, a.momentum, a.bolster, a.charge) == (False, 0, 0, 0, 0, 0, 0)


@covers("combat:500.4b")
def test_500_4b_the_living_state_is_captured_for_what_reads_it_before_it_is_cleared():
    """The deathrattle and the Everlasting schedule read the unit as it was; the killer is captured too."""
    b = place(Unit("a", vitality=10, deathrattle=True, everlasting=True), Unit("x", side=1))
    after, log = hit(b, "a", 100)
    assert events(log, "deathrattle") == [("a", 0, None, None)]
    assert events(log, "everlasting_scheduled") == [("a", 10_000, "x", None)]
    assert names(log).index("death") < names(log).index("macabre") < names(log).index("deathrattle")


@covers("combat:500.4b")
def test_500_4b_the_death_is_announced_with_its_killer_once():
    after, log = hit(place(Unit("a", vitality=10), Unit("x", side=1)), "a", 50)
    assert events(log, "death") == [("a", 0, "x", None)]


# --------------------------------------------------------------------------------------
# 500.4c
# --------------------------------------------------------------------------------------


@covers("combat:500.4c")
def test_500_4c_macabre_for_every_other_living_unit_on_either_side_not_the_dead():
    b = place(Unit("a", vitality=10), Unit("ally"), Unit("gone", alive=False, vitality=0), Unit("x", side=1),
              Unit("y", side=1))
    _, log = hit(b, "a", 50)
    assert sorted(u for u, *_ in events(log, "macabre")) == ["ally", "x", "y"]
    assert all(other == "a" for _, _, other, _ in events(log, "macabre"))


# --------------------------------------------------------------------------------------
# 500.4d
# --------------------------------------------------------------------------------------


@covers("combat:500.4d", "combat:500.9b")
def test_500_4d_a_vessel_is_spent_and_the_unit_revives_once_the_death_resolved():
    b = place(Unit("a", vitality=10, vessels=2, deathrattle=True), Unit("x", side=1))
    after, log = hit(b, "a", 50)
    a = after.unit("a")
    assert a.alive and a.vitality == a.max_vitality and a.vessels == 1
    order = names(log)
    assert order.index("death") < order.index("macabre") < order.index("deathrattle") < order.index("vessel_revival")


@covers("combat:500.4d", "combat:500.9a")
def test_500_4d_everlasting_revives_ten_seconds_later_and_is_dead_in_between():
    battle = clock.start_battle(place(Unit("a", vitality=10, everlasting=True), Unit("x", side=1)))
    battle, _ = clock.act(battle, lambda b: hit(b, "a", 50))
    battle, _ = clock.advance(battle, 9_999)
    assert not battle.board.unit("a").alive
    battle, log = clock.act(battle, lambda b: hit(b, "a", 50))
    assert names(log) == []  # genuinely dead: a hit does nothing
    battle, log = clock.advance(battle, 1)
    assert battle.board.unit("a").alive and events(log, "everlasting_revival") == [("a", 10_000, "x", "0,0,0")]


@covers("combat:500.4d")
def test_500_4d_a_vessel_comes_before_everlasting():
    b = place(Unit("a", vitality=10, vessels=1, everlasting=True), Unit("x", side=1))
    after, log = hit(b, "a", 50)
    assert after.unit("a").alive and "everlasting_scheduled" not in names(log)


# --------------------------------------------------------------------------------------
# 500.4e
# --------------------------------------------------------------------------------------


@covers("combat:500.4e")
def test_500_4e_a_death_and_everything_it_fires_is_one_vessel_point_batch():
    b = place(Unit("a", vitality=10, vessels=1, deathrattle=True, hears_phylactery_revival=True),
              Unit("f", hears_ally_revival=True), Unit("x", side=1))
    _, log = hit(b, "a", 50)
    order = names(log)
    batch = events(log, "vessel_batch")
    assert batch == [("a", len(order) - 1 - order.index("death"), None, "death")]
    pooled = order[order.index("death"):-1]
    assert pooled == ["death", "macabre", "macabre", "deathrattle", "vessel_revival", "revival_self", "revival_ally"]
    assert order[-1] == "vessel_batch"


@covers("combat:500.4e")
def test_500_4e_two_deaths_are_two_batches_each_closed_before_the_next_begins():
    """A hit kills ``a``; its Thorns then kill the attacker: one batch each (INT-116)."""
    b = place(Unit("a", vitality=10, thorns=9), Unit("x", side=1, vitality=5))
    _, log = hit(b, "a", 50)
    order = names(log)
    assert [e[0] for e in events(log, "vessel_batch")] == ["a", "x"]
    assert order.index("vessel_batch") < order.index("thorns")
