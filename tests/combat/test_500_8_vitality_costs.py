"""500.8 Vitality costs: an example per clause, numbers worked out from the rule text."""

from __future__ import annotations

from typing import Any

import pytest

from referee.model.combat import costs
from referee.model.combat.bloodletting import activate_with_bloodletting
from referee.model.combat.damage import DamageInstance
from referee.model.events import EventLog
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers

CHANNEL = {"bloodletting": "bloodletting_paid", "interest": "cost_paid", "self_destruct": "cost_paid", "retaliation": "thorns"}
DAMAGE_REACTIONS = {"damage_taken", "thorns", "riposte", "retort", "subrogation", "shield_damaged", "shield_broken",
                    "insurance_prevented", "ignore_charge_spent", "reflect", "stagger"}  # fmt: skip


def place(*units: Unit) -> Board:
    """Units side by side in row 0 of their own half, in the order given."""
    cols: dict[int, int] = {}
    placed = []
    for u in units:
        col = cols.get(u.side, 0)
        cols[u.side] = col + 1
        placed.append(u.evolve(col=col))
    return Board(tuple(placed))


def pay(b: Board, payer: str, amount: int, kind: str, beneficiary: str | None = "q", **kw: Any):
    log = EventLog()
    after, lost = costs.pay_vitality_cost(b, payer, amount, kind, log, channel=CHANNEL[kind], beneficiary=beneficiary, **kw)
    return after, log, lost


def names(log: EventLog) -> list[str]:
    return [e.name for e in log.events()]


def events(log: EventLog, name: str) -> list[tuple[Any, ...]]:
    return [(e.unit, e.amount, e.other, e.detail) for e in log.events() if e.name == name]


ENEMY = Unit("q", side=1)
KINDS = ("bloodletting", "interest", "retaliation")


# --------------------------------------------------------------------------------------
# 500.8a
# --------------------------------------------------------------------------------------


@covers("combat:500.8a")
@pytest.mark.parametrize("kind", KINDS)
def test_500_8a_a_cost_skips_every_defensive_layer(kind):
    p = Unit("p", vitality=80, shield=1, insurance=3, subrogated=2, ignore_charges=2, armor=400, has_cap=True, cap=5)
    after, log, lost = pay(place(p, ENEMY), "p", 30, kind)
    a = after.unit("p")
    assert lost == 30 and a.vitality == 50
    assert (a.shield, a.insurance, a.subrogated, a.ignore_charges, a.armor, a.cap) == (1, 3, 2, 2, 400, 5)
    assert not DAMAGE_REACTIONS & (set(names(log)) - {CHANNEL[kind]})


@covers("combat:500.8a")
def test_500_8a_one_point_of_shield_does_not_make_a_cost_free():
    after, _, lost = pay(place(Unit("p", vitality=10, shield=1), ENEMY), "p", 10, "bloodletting")
    assert lost == 10 and not after.unit("p").alive


# --------------------------------------------------------------------------------------
# 500.8b
# --------------------------------------------------------------------------------------


@covers("combat:500.8b")
@pytest.mark.parametrize("kind", KINDS)
def test_500_8b_a_cost_above_vitality_takes_everything_and_kills(kind):
    after, log, lost = pay(place(Unit("p", vitality=20), ENEMY), "p", 50, kind)
    assert lost == 20 and after.unit("p").vitality == 0 and not after.unit("p").alive
    assert events(log, "vitality_lost") == [("p", 20, None, None)]


@covers("combat:500.8b")
def test_500_8b_no_debt_is_carried_forward():
    b = place(Unit("p", vitality=20), ENEMY)
    after, _, _ = pay(b, "p", 50, "interest")
    again, log, lost = pay(after, "p", 5, "interest")
    assert again.unit("p").vitality == 0 and lost == 0 and events(log, "cost_refused") == [("p", 0, "q", "dead")]


@covers("combat:500.8b")
def test_500_8b_a_negative_price_is_no_price():
    b = place(Unit("p", vitality=20), ENEMY)
    after, log, lost = pay(b, "p", -7, "bloodletting")
    assert lost == 0 and after == b and names(log) == []


# --------------------------------------------------------------------------------------
# 500.8c
# --------------------------------------------------------------------------------------


@covers("combat:500.8c")
@pytest.mark.parametrize("kind", [*KINDS, "self_destruct"])
def test_500_8c_a_cost_starts_no_damage_reaction(kind):
    p = Unit("p", vitality=40, shield=10, thorns=5, riposte=3, retort=2, subrogated=1, insurance=1)
    b = place(p, ENEMY)
    after, log, _ = pay(b, "p", 15, kind)
    assert not DAMAGE_REACTIONS & (set(names(log)) - {CHANNEL[kind]})
    assert all(e.unit == "p" for e in log.events() if e.name == CHANNEL[kind])
    assert after.unit("q") == b.unit("q")  # nobody answers: the other unit is untouched


# --------------------------------------------------------------------------------------
# 500.8d
# --------------------------------------------------------------------------------------


@covers("combat:500.8d")
@pytest.mark.parametrize("kind", KINDS)
def test_500_8d_vitality_loss_listeners_answer_a_cost(kind):
    p = Unit("p", vitality=40, adrenaline=3, momentum=2, bolster=1)
    after, log, _ = pay(place(p, ENEMY), "p", 5, kind)
    a = after.unit("p")
    assert (a.adrenaline, a.momentum, a.bolster) == (0, 0, 0)
    assert [d for _, _, _, d in events(log, "rune_reset")] == ["adrenaline", "momentum", "bolster"]
    assert events(log, "threshold_reevaluated") == [("p", 0, None, None)]


@covers("combat:500.8d", "combat:500.8e")
def test_500_8d_a_cost_that_moves_nothing_resets_nothing():
    p = Unit("p", is_tool=True, vitality=40, adrenaline=3)
    after, log, _ = pay(place(p, ENEMY), "p", 5, "bloodletting")
    assert after.unit("p").adrenaline == 3 and names(log) == []


# --------------------------------------------------------------------------------------
# 500.8e
# --------------------------------------------------------------------------------------


@covers("combat:500.8e")
@pytest.mark.parametrize("role", ["is_tool", "is_hub"])
@pytest.mark.parametrize("kind", [*KINDS, "self_destruct"])
def test_500_8e_tools_and_hubs_pay_nothing(role, kind):
    b = place(Unit("p", vitality=40, shield=5, **{role: True}), ENEMY)
    after, log, lost = pay(b, "p", 15, kind)
    assert lost == 0 and after == b and names(log) == []


@covers("combat:500.8e")
@pytest.mark.parametrize("kind", [*KINDS, "self_destruct"])
def test_500_8e_dead_and_entrapped_payers_are_refused(kind):
    dead = place(Unit("p", alive=False, vitality=0), ENEMY)
    after, log, lost = pay(dead, "p", 15, kind)
    assert lost == 0 and after == dead and events(log, "cost_refused") == [("p", 0, "q", "dead")]
    trapped = place(Unit("p", entrapped=True, vitality=30), ENEMY)
    after, log, lost = pay(trapped, "p", 15, kind)
    assert lost == 0 and after == trapped and events(log, "cost_refused") == [("p", 0, "q", "entrapped")]


@covers("combat:500.8e", "combat:500.6e")
def test_500_8e_only_retaliation_refuses_a_dormant_payer():
    b = place(Unit("p", dormant=True, vitality=30), ENEMY)
    assert pay(b, "p", 10, "bloodletting")[2] == 10
    after, log, lost = pay(b, "p", 10, "retaliation")
    assert lost == 0 and events(log, "cost_refused") == [("p", 0, "q", "dormant")]


# --------------------------------------------------------------------------------------
# 500.8f
# --------------------------------------------------------------------------------------


@covers("combat:500.8f")
@pytest.mark.parametrize("kind", ["bloodletting", "retaliation"])
def test_500_8f_defy_death_answers_retaliation_and_bloodletting(kind):
    after, log, lost = pay(place(Unit("p", vitality=10, defy_death=True), ENEMY), "p", 30, kind)
    a = after.unit("p")
    assert a.alive and a.vitality == 1 and lost == 9 and not a.defy_death
    assert events(log, "defy_death") == [("p", 21, "q", None)]  # INT-102: what the rune kept; other: the beneficiary
    assert "death" not in names(log)


@covers("combat:500.8f")
@pytest.mark.parametrize("kind", ["interest", "self_destruct"])
def test_500_8f_interest_and_self_destruct_pay_through_defy_death(kind):
    after, log, lost = pay(place(Unit("p", vitality=10, defy_death=True), ENEMY), "p", 30, kind)
    assert lost == 10 and not after.unit("p").alive and "defy_death" not in names(log)
    assert after.unit("p").defy_death  # the once-per-life charge is not spent


@covers("combat:500.8f")
def test_500_8f_the_charge_is_spent_even_at_the_floor():
    # INT-102: a payer already at the rune's floor pays nothing more, but the rune answered.
    after, log, lost = pay(place(Unit("p", vitality=1, defy_death=True), ENEMY), "p", 5, "bloodletting")
    assert lost == 0 and after.unit("p").vitality == 1 and not after.unit("p").defy_death
    assert names(log) == ["defy_death"]


@covers("combat:500.8f")
def test_500_8f_a_cost_that_is_not_lethal_leaves_the_rune_armed():
    after, log, lost = pay(place(Unit("p", vitality=10, defy_death=True), ENEMY), "p", 9, "bloodletting")
    assert lost == 9 and after.unit("p").defy_death and "defy_death" not in names(log)


# --------------------------------------------------------------------------------------
# 500.8g
# --------------------------------------------------------------------------------------


@covers("combat:500.8g")
def test_500_8g_interest_debits_maximum_vitality_by_what_was_paid():
    after, log = costs.resolve_interest(place(Unit("p", vitality=30, max_vitality=100), ENEMY), "p", 50)
    assert (after.unit("p").vitality, after.unit("p").max_vitality) == (0, 70)
    assert events(log, "max_vitality_lowered") == [("p", 30, None, None)]


@covers("combat:500.8g")
@pytest.mark.parametrize("kind", ["bloodletting", "retaliation", "self_destruct"])
def test_500_8g_no_other_cost_touches_maximum_vitality(kind):
    after, log, _ = pay(place(Unit("p", vitality=30, max_vitality=100), ENEMY), "p", 10, kind)
    assert after.unit("p").max_vitality == 100 and "max_vitality_lowered" not in names(log)


@covers("combat:500.8g", "combat:500.4d")
def test_500_8g_a_vessel_revival_after_a_lethal_interest_comes_back_at_the_lowered_maximum():
    after, _ = costs.resolve_interest(place(Unit("p", vitality=10, max_vitality=100, vessels=1), ENEMY), "p", 30)
    assert (after.unit("p").alive, after.unit("p").vitality, after.unit("p").max_vitality) == (True, 90, 90)


#: INT-120's two readings: (zero_maximum_revival, a Vessel unit after Interest from full Vitality, the events).
ZERO_MAXIMUM = {
    "stays_dead": ((False, 0, 0, 1), ["death", "macabre", "vessel_batch"]),
    "returns_at_one": ((True, 1, 1, 0), ["death", "macabre", "vessel_revival", "vessel_batch"]),
}


@covers("combat:500.8g", "combat:500.9c", "combat:500.4a")
@pytest.mark.parametrize("reading", list(ZERO_MAXIMUM))
def test_int_120_interest_from_full_vitality_under_each_zero_maximum_reading(reading):
    """Interest 100 from 100/100 takes the maximum to 0: by default the Vessel stays unspent and the unit dead at
    0/0; under returns_at_one the maximum is floored at 1 and the Vessel returns it at 1/1. Never alive at 0."""
    from referee.model.combat.ruleset import Ruleset

    board = place(Unit("p", vitality=100, max_vitality=100, vessels=1), ENEMY)
    after, log, lost = pay(board, "p", 100, "interest", ruleset=Ruleset(zero_maximum_revival=reading))
    p = after.unit("p")
    state, tail = ZERO_MAXIMUM[reading]
    assert (p.alive, p.vitality, p.max_vitality, p.vessels) == state and lost == 100
    assert [n for n in names(log) if n in ("death", "macabre", "vessel_revival", "vessel_batch")] == tail


@pytest.mark.parametrize("reading", list(ZERO_MAXIMUM))
def test_int_120_an_everlasting_unit_at_a_maximum_of_0_is_scheduled_only_under_returns_at_one(reading):
    from referee.model.combat.ruleset import Ruleset

    board = place(Unit("p", vitality=40, max_vitality=40, everlasting=True), ENEMY)
    after, log, _ = pay(board, "p", 40, "interest", ruleset=Ruleset(zero_maximum_revival=reading))
    scheduled = "everlasting_scheduled" in names(log)
    assert scheduled == (reading == "returns_at_one")
    assert after.unit("p").max_vitality == (1 if scheduled else 0) and not after.unit("p").alive


def test_int_120_a_death_no_interest_caused_reads_no_zero_maximum_reading():
    """Only an Interest death can reach a maximum of 0, so only it reads the option (a query explores it there only)."""
    from referee.model.combat.ruleset import Ruleset

    original = Ruleset.__getattribute__
    read: list[str] = []

    def spy(self, name):
        if name == "zero_maximum_revival":
            read.append(name)
        return original(self, name)

    board = place(Unit("p", vitality=10, max_vitality=100, vessels=1), ENEMY)
    ruleset = Ruleset(zero_maximum_revival="returns_at_one")
    seen = {}
    for kind in ("bloodletting", "retaliation", "self_destruct", "interest"):
        read.clear()
        Ruleset.__getattribute__ = spy  # type: ignore[method-assign]
        try:
            pay(board, "p", 50, kind, ruleset=ruleset)
        finally:
            Ruleset.__getattribute__ = original  # type: ignore[method-assign]
        seen[kind] = bool(read)
    assert seen == {"bloodletting": False, "retaliation": False, "self_destruct": False, "interest": True}


# --------------------------------------------------------------------------------------
# 500.8h
# --------------------------------------------------------------------------------------


@covers("combat:500.8h", "combat:500.4a")
def test_500_8h_nothing_talks_a_self_destruct_out_of_dying():
    p = Unit("p", vitality=60, shield=40, insurance=4, subrogated=2, ignore_charges=3, defy_death=True, armor=500)
    after, log = costs.resolve_self_destruct(place(p, ENEMY), "p")
    a = after.unit("p")
    assert not a.alive and a.vitality == 0
    assert (a.insurance, a.subrogated, a.ignore_charges, a.defy_death) == (4, 2, 3, True)
    assert names(log)[:3] == ["shield_scrapped", "cost_paid", "vitality_lost"]
    assert events(log, "shield_scrapped") == [("p", 40, None, None)]
    assert events(log, "cost_paid") == [("p", 60, None, "self_destruct")]
    assert not {"shield_damaged", "shield_broken", "defy_death", "ignore_charge_spent"} & set(names(log))


@covers("combat:500.8h", "combat:500.4d")
def test_500_8h_everlasting_still_revives_a_self_destructed_unit_on_schedule():
    after, log = costs.resolve_self_destruct(place(Unit("p", vitality=60, everlasting=True), ENEMY), "p")
    assert names(log)[-3:] == ["macabre", "everlasting_scheduled", "vessel_batch"]
    assert not after.unit("p").alive


@covers("combat:500.8h")
def test_500_8h_a_tool_that_self_destructs_pays_nothing():
    b = place(Unit("p", is_tool=True, vitality=60, shield=5), ENEMY)
    after, log = costs.resolve_self_destruct(b, "p")
    assert after == b and names(log) == []


# --------------------------------------------------------------------------------------
# 500.8i
# --------------------------------------------------------------------------------------


@covers("combat:500.8i")
def test_500_8i_listeners_read_what_actually_left_the_payer():
    _, log, lost = pay(place(Unit("p", vitality=7), ENEMY), "p", 25, "bloodletting", beneficiary="p")
    assert lost == 7 and events(log, "bloodletting_paid") == [("p", 7, "p", None)]
    assert events(log, "vitality_lost") == [("p", 7, None, None)]


# --------------------------------------------------------------------------------------
# 500.8j
# --------------------------------------------------------------------------------------


@covers("combat:500.8j", "combat:500.4c")
@pytest.mark.parametrize("kind", [*KINDS, "self_destruct"])
def test_500_8j_a_death_by_cost_is_an_ordinary_death(kind):
    b = place(Unit("p", vitality=10, deathrattle=True), Unit("ally"), ENEMY)
    _, log, _ = pay(b, "p", 10, kind)
    assert events(log, "death") == [("p", 0, "q" if kind == "retaliation" else None, None)]
    assert [u for u, _, _, _ in events(log, "macabre")] == ["ally", "q"]
    assert events(log, "deathrattle") == [("p", 0, None, None)]


@covers("combat:500.8j", "combat:800.4j")
def test_500_8j_the_activation_that_charged_the_cost_goes_on():
    b = Board((Unit("c", vitality=10, deathrattle=True), Unit("q", side=1, vitality=50)))
    after, log, outcome = activate_with_bloodletting(b, "c", 20, [DamageInstance("q", 15, "c")])
    assert not after.unit("c").alive and after.unit("q").vitality == 35
    assert names(log).index("death") < names(log).index("damage_taken")
    assert outcome.status == "paid"


def test_invalid_unknown_cost_kind_is_named():
    with pytest.raises(ValueError, match="unknown cost kind 'tax'"):
        costs.pay_vitality_cost(place(Unit("p"), ENEMY), "p", 1, "tax", EventLog())
