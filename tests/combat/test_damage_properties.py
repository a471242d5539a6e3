"""Properties of the damage pipeline (500.1) that hold for every scenario, checked with Hypothesis."""

from __future__ import annotations

from damage_strategies import scenarios
from hypothesis import given, settings

from referee.model.combat.damage import DamageOutcome, resolve_damage
from referee.model.events import EVENT_NAMES
from referee.model.combat.insurance import POINT_ABSORBS
from referee.specs.trace import covers

EXAMPLES = settings(max_examples=120, deadline=None)


def revived(log, uid):
    return any(e.name == "vessel_revival" and e.unit == uid for e in log.events())


def outcomes(outcome: DamageOutcome):
    """The outcome and the outcomes of the damage it moved."""
    yield outcome
    for moved in (outcome.interceptor_outcome, outcome.receiver_outcome):
        if moved is not None:
            yield from outcomes(moved)


@EXAMPLES
@given(scenarios())
@covers("combat:500.1-13", "combat:500.8b")
def test_vitality_never_rises_and_never_goes_below_zero(scenario):
    board, instance, ruleset = scenario
    after, log, _ = resolve_damage(board, instance, ruleset)
    for before in board.units:
        now = after.unit(before.uid)
        assert now.vitality >= 0
        assert now.vitality <= before.vitality or revived(log, before.uid)


@EXAMPLES
@given(scenarios())
@covers("combat:500.1-8", "combat:500.1-9", "combat:500.1-10", "combat:500.1-4")
def test_insurance_shield_and_ignore_charges_never_increase(scenario):
    board, instance, ruleset = scenario
    after, _, _ = resolve_damage(board, instance, ruleset)
    for before in board.units:
        now = after.unit(before.uid)
        assert 0 <= now.subrogated <= before.subrogated
        assert 0 <= now.insurance <= before.insurance
        assert 0 <= now.shield <= before.shield
        assert 0 <= now.ignore_charges <= before.ignore_charges


@EXAMPLES
@given(scenarios())
@covers("combat:500.1-1")
def test_tools_and_hubs_are_never_changed(scenario):
    board, instance, ruleset = scenario
    after, _, _ = resolve_damage(board, instance, ruleset)
    assert after.unit("t") == board.unit("t")
    if board.unit("a").discards_combat:
        assert after.unit("a") == board.unit("a")


@EXAMPLES
@given(scenarios())
@covers("combat:500.1-3")
def test_events_are_from_the_contract_and_nothing_happens_without_damage(scenario):
    board, instance, ruleset = scenario
    after, log, out = resolve_damage(board, instance, ruleset)
    assert all(e.name in EVENT_NAMES for e in log.events())
    if instance.amount <= 0 or not board.unit("a").alive:
        assert after == board and log.events() == () and not out.entered


@EXAMPLES
@given(scenarios())
@covers("combat:500.1-7", "combat:500.1-8", "combat:500.1-9", "combat:500.1-10", "combat:500.1-11", "combat:500.1-12")
def test_every_point_of_damage_after_the_cap_is_accounted_for_once(scenario):
    board, instance, ruleset = scenario
    _, _, outcome = resolve_damage(board, instance, ruleset)
    for out in outcomes(outcome):
        absorbed = out.subrogated_absorbed + out.insurance_absorbed + out.shield_absorbed
        assert 0 <= out.after_cap <= out.after_armor or not out.entered
        assert absorbed + out.redirected + out.defy_prevented <= out.after_cap
        assert out.vitality_lost <= out.after_cap - absorbed - out.redirected - out.defy_prevented
        assert out.subrogated_absorbed <= POINT_ABSORBS * out.subrogated_spent
        assert out.insurance_absorbed <= POINT_ABSORBS * out.insurance_spent


@EXAMPLES
@given(scenarios())
@covers("combat:500.1a")
def test_points_are_spent_whole_and_only_when_needed(scenario):
    board, instance, ruleset = scenario
    _, _, outcome = resolve_damage(board, instance, ruleset)
    for out in outcomes(outcome):
        # Every spent point but the last absorbed a full 25.
        assert out.subrogated_absorbed > POINT_ABSORBS * (out.subrogated_spent - 1) or out.subrogated_spent == 0
        assert out.insurance_absorbed > POINT_ABSORBS * (out.insurance_spent - 1) or out.insurance_spent == 0


@EXAMPLES
@given(scenarios())
@covers("combat:500.1b", "combat:500.1e", "combat:500.5a")
def test_credit_is_shield_plus_vitality_and_feast_only_vitality(scenario):
    board, instance, ruleset = scenario
    _, log, outcome = resolve_damage(board, instance, ruleset)
    credits = [e.amount for e in log.events() if e.name == "credit" and e.other == "a" and e.unit == instance.source]
    feasts = [e.amount for e in log.events() if e.name == "feast" and e.other == "a" and e.unit == instance.source]
    if instance.source is None:
        assert [e for e in log.events() if e.name in ("credit", "feast") and e.other == "a"] == []
        return
    expected = outcome.shield_absorbed + outcome.vitality_lost
    assert credits == ([expected] if expected > 0 else [])
    assert feasts == ([outcome.vitality_lost] if outcome.vitality_lost > 0 else [])


@EXAMPLES
@given(scenarios())
@covers("combat:500.7c", "combat:500.7d", "combat:500.7f")
def test_landed_implies_damage_event_implies_entered(scenario):
    board, instance, ruleset = scenario
    _, _, outcome = resolve_damage(board, instance, ruleset)
    for out in outcomes(outcome):
        assert not out.landed or out.damage_event
        assert not out.damage_event or out.entered
        assert out.landed == (out.vitality_lost > 0)


@EXAMPLES
@given(scenarios(kinds=("reflect",)))
@covers("combat:500.7k", "combat:500.7j")
def test_a_reflect_never_fires_damage_taken_and_never_meets_armor(scenario):
    board, instance, ruleset = scenario
    _, log, outcome = resolve_damage(board, instance, ruleset)
    assert "damage_taken" not in [e.name for e in log.events()]
    for out in outcomes(outcome):
        assert not out.entered or out.after_armor == out.amount


@EXAMPLES
@given(scenarios(kinds=("burn", "venom")))
@covers("combat:500.1d", "combat:500.1h", "combat:500.1i")
def test_ticks_skip_armor_and_a_prevented_tick_changes_nothing(scenario):
    board, instance, ruleset = scenario
    after, log, outcome = resolve_damage(board, instance, ruleset)
    if outcome.tick_prevented:
        assert after == board and [e.name for e in log.events()] == ["tick_prevented"]
    for out in outcomes(outcome):
        assert not out.entered or out.after_armor == out.amount


@EXAMPLES
@given(scenarios(kinds=("hit", "tremor", "aoe", "overtime")))
@covers("combat:500.2a", "combat:500.2b")
def test_non_negative_armor_never_increases_an_instance(scenario):
    board, instance, ruleset = scenario
    _, _, outcome = resolve_damage(board, instance, ruleset)
    if outcome.entered and board.unit("a").armor >= 0:
        assert outcome.after_armor <= outcome.amount


@EXAMPLES
@given(scenarios())
@covers("combat:500.1f", "combat:500.1g")
def test_a_lethal_redirect_leaves_the_recipient_untouched(scenario):
    board, instance, ruleset = scenario
    after, _, outcome = resolve_damage(board, instance, ruleset)
    if outcome.intercepted:
        assert after.unit("a") == board.unit("a") and outcome.redirected == 0
        assert outcome.interceptor_outcome.amount == outcome.amount
