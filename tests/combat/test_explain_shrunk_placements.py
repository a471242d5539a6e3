"""Where a failure report places a divergence on the small scenarios seeded generation shrinks to (issue 11): the
Armor order (500.2b), the Shield part of a credit (500.1-10), a hit's Feast (500.1e, 500.5c), a damage-ignore
charge left unspent (500.1-4), Macabre with nobody to hear it (500.4c) and the Reliquary Speed an activation
clears (500.9l)."""

from __future__ import annotations

from referee.check.grouping.attribution import steps_at_fault
from referee.explain import explain_steps
from referee.rulebook import Divergence
from referee.specs.trace import covers


def scenario(board, *actions):
    return {"protocol": "referee/2", "board": board, "actions": list(actions)}


def event(name, unit, amount, other=None, detail=None):
    return {"name": name, "unit": unit, "amount": amount, "other": other, "detail": detail}


def differs(index, model, engine):
    return Divergence(where="events", path=f"events[{index}]", model=model, engine=engine, event_index=index)


def field(path, model, engine):
    return Divergence(where="state", path=path, model=model, engine=engine)


@covers("combat:500.2b", "combat:500.2c")
def test_500_2b_an_off_by_one_after_armor_is_placed_at_the_percentage_step_that_names_the_order():
    hit = scenario([{"uid": "b", "vitality": 1, "max_vitality": 12, "armor": 9, "shield": 312}],
                   {"kind": "damage", "target": "b", "amount": 177})
    shown = steps_at_fault(hit, differs(0, event("shield_damaged", "b", 153), event("shield_damaged", "b", 154)))
    assert shown[-1]["step"] == "armor_percentage"
    assert "first, before the flat reduction (500.2a, 500.2b)" in shown[-1]["text"]


@covers("combat:500.2a", "combat:500.2b")
def test_500_2b_no_order_is_named_when_armor_gives_no_flat_reduction():
    low = scenario([{"uid": "b", "armor": 4}], {"kind": "damage", "target": "b", "amount": 50})
    step = next(s for s in explain_steps(low) if s.step == "armor_percentage")
    assert "(500.2a):" in step.text and "500.2b" not in step.text


@covers("combat:500.1-10", "combat:500.5a")
def test_500_1_10_a_credit_off_by_the_shield_part_names_the_shield_clause():
    hit = scenario([{"uid": "b", "vitality": 12, "max_vitality": 12, "shield": 1}, {"uid": "c", "side": 1,
                    "shield_multiplier": 2}], {"kind": "damage", "target": "b", "source": "c", "amount": 25})
    shown = steps_at_fault(hit, differs(3, event("credit", "c", 13, "b"), event("credit", "c", 12, "b")))
    assert shown[-1]["step"] == "credit" and "Shield absorbed 1 (500.1-10) + Vitality 12" in shown[-1]["text"]


@covers("combat:500.1e", "combat:500.5c")
def test_500_5c_a_feast_from_shield_absorbed_damage_is_placed_at_the_credit_citing_the_vitality_portion():
    hit = scenario([{"uid": "a", "vitality": 50, "shield": 1}, {"uid": "b", "side": 1}],
                   {"kind": "damage", "target": "a", "source": "b", "amount": 1})
    shown = steps_at_fault(hit, differs(3, None, event("feast", "b", 1, "a")))
    assert shown[-1]["step"] == "credit" and "Feast 0, the Vitality portion only (500.1e, 500.5c" in shown[-1]["text"]


@covers("combat:500.1-4", "combat:500.1-11")
def test_500_1_4_an_ignore_charge_left_unspent_is_placed_at_the_step_that_spends_it():
    moved = scenario([{"uid": "a", "vitality": 6, "redirect_to": "b", "redirect_cap": 1},
                      {"uid": "b", "col": 1, "vitality": 1, "ignore_charges": 1}],
                     {"kind": "damage", "target": "a", "amount": 52})
    shown = steps_at_fault(moved, field("board.b.ignore_charges", 0, 1))
    assert shown[-1]["step"] == "ignore_charge" and shown[-1]["clause"] == "combat:500.1-4"


@covers("combat:500.4c")
def test_500_4c_a_death_nobody_is_alive_to_hear_still_has_its_macabre_step():
    alone = scenario([{"uid": "a", "alive": False, "vitality": 0, "max_vitality": 1},
                      {"uid": "b", "vitality": 1, "max_vitality": 1}],
                     {"kind": "cost", "payer": "b", "amount": 0, "cost_kind": "self_destruct"})
    macabre = next(s for s in explain_steps(alone) if s.step == "macabre")
    assert "nobody hears it (a is already dead)" in macabre.text
    shown = steps_at_fault(alone, differs(4, event("vessel_batch", "b", 1, detail="death"),
                                          event("macabre", "a", 0, "b")))
    assert shown[-1]["step"] == "macabre" and shown[-1]["clause"] == "combat:500.4c"


@covers("combat:500.9l")
def test_500_9l_an_ability_activation_clears_reliquary_speed_as_its_own_step():
    drawn = {"name": "drawn", "numbers": {"power": 0}, "lines": [{"effect": "damage", "amount": "{power}", "kind": "keyword"}]}
    act = scenario([{"uid": "a", "vitality": 1, "max_vitality": 1, "reliquary_speed": 1}],
                   {"kind": "ability", "caster": "a", "targets": [], "ability": drawn})
    shown = steps_at_fault(act, field("board.a.reliquary_speed", 0, 1))
    assert shown[-1]["step"] == "activation_clears" and shown[-1]["clause"] == "combat:500.9l"
    assert "reliquary_cleared" in shown[-1]["events"] and "(1 -> 0; 500.9l" in shown[-1]["text"]


@covers("combat:500.9l", "combat:800.4a")
def test_500_9l_a_bloodletting_activation_with_reliquary_speed_is_explained_as_the_model_runs_it():
    bled = scenario([{"uid": "a", "vitality": 30, "reliquary_speed": 3, "charge": 2}, {"uid": "b", "side": 1}],
                    {"kind": "bloodletting", "caster": "a", "cost": 5, "hits": [{"target": "b", "amount": 4}]})
    steps = explain_steps(bled)  # the explanation is checked against the model's own run (no drift)
    cleared = next(s for s in steps if s.step == "activation_clears")
    assert "charge is spent (2 -> 0)" in cleared.text and cleared.quantities == {"before": 3, "after": 0}


@covers("combat:500.1d", "combat:500.1-5")
def test_500_1d_a_tick_amount_no_step_changed_is_placed_at_the_armor_it_skipped():
    tick = scenario([{"uid": "a", "vitality": 21, "armor": 1}],
                    {"kind": "damage", "target": "a", "amount": 21, "damage_kind": "venom"})
    shown = steps_at_fault(tick, differs(0, event("damage_taken", "a", 21, detail="venom"),
                                         event("damage_taken", "a", 20, detail="venom")))
    assert shown[-1]["step"] == "armor_percentage" and "ignore Armor (500.1d)" in shown[-1]["text"]
