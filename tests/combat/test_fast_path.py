"""The pipeline's fast twin (``model/combat/fast.py``) against the single-source pipeline, differentially.

Every concrete damage instance nobody traces runs through ``fast.resolve_fast``; these tests
hold it to ``damage.resolve_damage`` under ``fast.disabled()``: the same board (every field of
every unit, value and type), the same events in the same order, the same outcome (nested
outcomes included). Two sources of cases: single instances on boundary-heavy five-unit boards
with every ruleset option drawn, and whole default-mix scenarios of ``referee check`` (battles,
Bloodletting, retaliation, revival), whose every instance the fast path takes. The arithmetic
is also proved equal over all integers (``proofs/combat/fast_theorems.py``).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.check.harness import model_observation
from referee.model import arith
from referee.model.combat import costs, fast
from referee.model.combat.damage import DamageInstance, outcome_fields, resolve_damage
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers
from referee.check.strategies import scenarios as check_scenarios

from damage_strategies import scenarios as damage_scenarios


def typed(value: Any) -> Any:
    """A value with the type of every leaf spelled out: ``True`` and ``1`` must not compare equal here."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [typed(item) for item in value]
    return (type(value).__name__, value)


def snapshot(result: tuple[Board, Any, Any]) -> dict[str, Any]:
    """Everything a resolution produced, typed leaf by leaf."""
    board, log, outcome = result
    return typed({"units": [dict(vars(unit)) for unit in board.units],
                  "events": [(entry.when, entry.event.to_json()) for entry in log.entries],
                  "outcome": outcome_fields(outcome)})


def both_ways(board: Board, instance: DamageInstance, ruleset: Ruleset) -> tuple[dict[str, Any], dict[str, Any]]:
    """The single-source pipeline's result and the fast twin's, on the same input."""
    with fast.disabled():
        model = snapshot(resolve_damage(board, instance, ruleset))
    assert fast.is_enabled(instance), "the fast path must take a concrete, untraced instance"
    return model, snapshot(fast.resolve_fast(board, instance, ruleset))


@st.composite
def richer_cases(draw: Any) -> tuple[Board, DamageInstance, Ruleset]:
    """The damage strategies' cases, plus what they leave at rest: listeners, Hubs, shared ticks, the other readings."""
    board, instance, ruleset = draw(damage_scenarios())
    units = []
    for unit in board.units:
        units.append(replace(
            unit, is_hub=unit.uid == "b" and draw(st.integers(0, 9)) == 0,
            hears_phylactery_revival=draw(st.booleans()), hears_ally_revival=draw(st.booleans()),
            revival_aims_killer=draw(st.booleans()), momentum=draw(st.integers(0, 2)),
            reliquary=draw(st.integers(0, 3)), ignore_charges=unit.ignore_charges if unit.uid != "a" else draw(
                st.sampled_from([0, 0, 1])),
        ))
    appliers = draw(st.sampled_from([(), (), ("e",), (("e", 2), "b"), ("e", "e", ("b", 3))]))
    if instance.kind in ("burn", "venom") and appliers:
        instance = replace(instance, appliers=appliers)
    ruleset = replace(
        ruleset, damage_event_test=draw(st.sampled_from(["reached_vitality", "after_shield"])),
        stagger_lanes=draw(st.sampled_from(["direct_only", "every_instance"])),
        reflect_subrogation=draw(st.sampled_from(["no_payback", "payback"])),
        tick_share_rounding=draw(st.sampled_from(["largest_remainder", "remainder_to_first"])),
    )
    return Board(tuple(units)), instance, ruleset


@covers("combat:500.1-4", "combat:500.1-10", "combat:500.1-13", "combat:500.1f", "combat:500.4a", "combat:500.5b")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(richer_cases())
def test_500_1_fast_path_resolves_every_instance_as_the_pipeline_does(case: tuple[Board, DamageInstance, Ruleset]) -> None:
    model, quick = both_ways(*case)
    assert quick == model


@pytest.mark.slow
@covers("combat:500.1-4", "combat:500.1-13", "combat:500.1f")
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(richer_cases())
def test_500_1_fast_path_resolves_ten_thousand_instances_as_the_pipeline_does(
    case: tuple[Board, DamageInstance, Ruleset],
) -> None:
    model, quick = both_ways(*case)
    assert quick == model


@covers("combat:500.1-13", "combat:500.6c", "combat:500.8b", "combat:500.9b")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(check_scenarios())
def test_500_fast_path_leaves_every_default_mix_scenario_unchanged(scenario: dict[str, Any]) -> None:
    with fast.disabled():
        model = model_observation(scenario)
    assert model_observation(scenario) == model


def test_500_1_fast_path_is_off_under_a_tracer_inside_disabled_and_for_symbolic_amounts() -> None:
    instance = DamageInstance("a", 5, "e")
    assert fast.is_enabled(instance)
    with fast.disabled():
        assert not fast.is_enabled(instance)
    assert fast.is_enabled(instance)
    previous = sys.getprofile()
    sys.setprofile(lambda *args: None)
    try:
        assert not fast.is_enabled(instance)  # the clause trail and explain watch the model's own functions
    finally:
        sys.setprofile(previous)
    import z3

    assert not fast.is_enabled(DamageInstance("a", z3.Int("amount"), "e"))


def test_500_1_fast_path_refuses_an_unknown_event_name_as_the_model_does() -> None:
    from referee.model.events import EventLog, UnknownEventError

    try:
        fast._emit(EventLog(), "not_an_event", "a")
    except UnknownEventError as error:
        assert "not_an_event" in str(error)
    else:
        raise AssertionError("an unknown event name was accepted")


def test_500_1_fast_path_moves_nothing_where_nothing_is_redirected() -> None:
    """A redirect that moves 0 lands nothing: the receiver's outcome is the quiet one, as in the model (500.1-3)."""
    a = Unit("a", side=0, col=0, redirect_to="b", redirect_cap=0, vitality=50)
    board = Board((a, Unit("b", side=0, col=1), Unit("e", side=1, col=0)))
    model, quick = both_ways(board, DamageInstance("a", 30, "e"), Ruleset())
    assert quick == model
    assert quick["outcome"]["receiver_outcome"]["vitality_lost"] == ("int", 0)


# --------------------------------------------------------------------------------------
# Vitality costs (500.8): fast.pay_cost against costs.pay_vitality_cost
# --------------------------------------------------------------------------------------


@st.composite
def cost_cases(draw: Any) -> tuple[Board, dict[str, Any], Ruleset]:
    """A drawn board, a cost of every kind by any unit for any beneficiary, pulled onto its boundaries."""
    board, _, ruleset = draw(richer_cases())
    payer = draw(st.sampled_from([u.uid for u in board.units]))
    unit = board.unit(payer)
    enemy = draw(st.sampled_from([u.uid for u in board.units if u.side != unit.side]))  # one a retaliation may pay
    units = [replace(u, entrapped=draw(st.integers(0, 5)) == 0, dormant=draw(st.integers(0, 5)) == 0,
                     is_boss=draw(st.integers(0, 2)) == 0 and not (u.is_tool or u.is_hub),
                     vessels=draw(st.sampled_from([0, 0, 0, 1])), everlasting=draw(st.booleans()),
                     adrenaline=draw(st.integers(0, 2)))
             if u.uid == payer else u for u in board.units]
    amount = draw(st.sampled_from([unit.vitality, unit.vitality - 1, unit.vitality + 1, 0, -3]) | st.integers(-5, 160))
    cost = dict(payer=payer, amount=amount, kind=draw(st.sampled_from(list(costs.COST_KINDS))),
                channel=draw(st.sampled_from(["cost_paid", "thorns", "bloodletting_paid", "riposte"])),
                beneficiary=draw(st.sampled_from([None, enemy, enemy, enemy, "a", "b", payer])),
                when=draw(st.sampled_from([True, True, False])))
    if draw(st.integers(0, 9)) == 0:  # off the domain: a payer the twin hands back to the model when nothing happens
        units = [replace(u, vitality=-2, defy_death_spent=0) if u.uid == payer else u for u in units]
    return Board(tuple(units)), cost, ruleset


def paid(board: Board, cost: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """A cost paid, everything it produced typed leaf by leaf: the board, the events, the Vitality that left."""
    log = EventLog()
    after, lost = costs.pay_vitality_cost(board, cost["payer"], cost["amount"], cost["kind"], log,
                                          channel=cost["channel"], beneficiary=cost["beneficiary"], ruleset=ruleset,
                                          when=cost["when"])
    return typed({"units": [dict(vars(unit)) for unit in after.units],
                  "events": [(entry.when, entry.event.to_json()) for entry in log.entries], "lost": lost})


@covers("combat:500.8a", "combat:500.8b", "combat:500.8e", "combat:500.8f", "combat:500.8g", "combat:500.8h",
        "combat:500.8i", "combat:500.8j", "combat:500.6f", "combat:500.6g", "combat:500.6h")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cost_cases())
def test_500_8_fast_path_pays_every_cost_as_the_model_does(case: tuple[Board, dict[str, Any], Ruleset]) -> None:
    board, cost, ruleset = case
    with fast.disabled():
        model = paid(board, cost, ruleset)
    assert fast.is_concrete_run(cost["amount"]), "the fast path must take a concrete, untraced cost"
    assert paid(board, cost, ruleset) == model


def test_500_8_fast_path_takes_a_cost_that_happens_or_not_and_leaves_a_guard_to_the_model() -> None:
    """A cost whose ``when`` is a plain bool is the twin's; any other guard (a Z3 term, a number) stays the model's."""
    import z3

    board = Board((Unit("a", side=0, col=0, vitality=9), Unit("e", side=1, col=0, vitality=5)))
    calls = []
    original = fast.pay_cost
    fast.pay_cost = lambda *args: calls.append(args) or original(*args)
    try:
        after, lost = costs.pay_vitality_cost(board, "e", 3, "retaliation", EventLog(), beneficiary="a", when=False)
        assert len(calls) == 1 and lost == 0 and after.unit("e").vitality == 5
        after, lost = costs.pay_vitality_cost(board, "e", 3, "retaliation", EventLog(), beneficiary="a")
        assert len(calls) == 2 and lost == 3 and after.unit("e").vitality == 2
        costs.pay_vitality_cost(board, "e", 3, "retaliation", EventLog(), beneficiary="a", when=1)
        with arith.symbolic():
            costs.pay_vitality_cost(board, "e", 3, "retaliation", EventLog(), beneficiary="a", when=z3.Bool("roll"))
        assert len(calls) == 2
    finally:
        fast.pay_cost = original
