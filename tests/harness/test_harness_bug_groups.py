"""One group per bug (``referee.check.grouping.keys``): keyed by the model step at fault, its clause and the kind of
difference; shrunk with the key held; merged where shrunk representatives settle on the same key; the cap
counts merged groups and says when it stopped a run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.check.compare import first_event_divergence
from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.explain.steps import Step
from referee.check.grouping.keys import difference_kind, merge_groups, merge_target
from referee.check.grouping.groups import Group, KnownEntry
from referee.check.harness import CheckOptions, check
from referee.model.events import Event
from referee.rulebook import Divergence

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_groups import run_combination  # noqa: E402


def _step(**quantities):
    return Step("armor_percentage", "combat:500.2c", "text", quantities)


def test_the_kind_of_difference_is_an_order_swap_an_amount_or_an_event():
    a, b = Event("thorns", unit="b", amount=3, other="a"), Event("riposte", unit="b", amount=2, other="a")
    swapped = first_event_divergence((a, b), (b, a), frozenset({"thorns", "riposte"}))
    assert swapped.shape == "swap" and difference_kind(swapped, _step()) == "order"
    wrong = Divergence("events", "events[0]", {"name": "thorns", "amount": 3}, {"name": "thorns", "amount": 4})
    assert difference_kind(wrong, _step(after=3)) == "amount"
    assert difference_kind(wrong, _step(exact=2)) == "amount"
    assert difference_kind(wrong, _step(shield=5)) == "event"


def test_groups_that_settle_on_one_key_merge_into_the_group_of_that_key():
    def group(key, count):
        return Group(key, count, {"board": [], "actions": [key]}, [])

    a, b, c = group("amount@armor_percentage[combat:500.2c]", 5), group("amount@shield[combat:500.1-10]", 2), \
        group("event@thorns[combat:500.6d]", 1)
    took = frozenset({"armor_percentage[combat:500.2c]", "shield[combat:500.1-10]"})
    merged = merge_groups([b, a, c], {b.key: a.key, a.key: a.key, c.key: c.key}, {b.key: took, a.key: took})
    assert [g.key for g in merged] == [a.key, c.key]
    assert merged[0].count == 7 and b.key in merged[0].symptoms


def test_a_group_whose_scenarios_did_not_all_take_the_settled_decision_keeps_its_own_key():
    """The drift guard: a Reflect bug whose representative, shrunk once more with no key held, lands on a death at
    exactly 0 (another bug of the same engine) stays a group of its own unless its representative had that death."""
    def group(key, count):
        return Group(key, count, {"board": [], "actions": [key]}, [])

    death, reflect = group("event@death[combat:500.4a]", 9), group("amount@reflect[combat:500.7h]", 3)
    settled = {death.key: death.key, reflect.key: death.key}
    some = {reflect.key: frozenset({"reflect[combat:500.7h]", "vitality[combat:500.1-13]"})}
    assert [g.key for g in merge_groups([death, reflect], settled, some)] == [death.key, reflect.key]
    assert [g.key for g in merge_groups([death, reflect], settled, {})] == [death.key, reflect.key]
    every = {reflect.key: some[reflect.key] | {"death[combat:500.4a]"}}
    assert [g.key for g in merge_groups([death, reflect], settled, every)] == [death.key]
    assert merge_target(reflect.key, "events[]@extra:culled", every[reflect.key]) == reflect.key  # names no step


def test_a_known_entry_written_against_a_symptom_key_still_matches_its_group():
    group = Group("amount@armor_percentage[combat:500.2c]", 1, {}, [],
                  symptoms=("events[].amount@damage_taken#combat.vitality.lose_vitality",))
    assert KnownEntry("old", key="events[].amount@damage_taken").matches(group)
    assert KnownEntry("new", key="amount@armor_percentage[combat:500.2c]").matches(group)
    assert not KnownEntry("other", key="events[].amount@thorns").matches(group)


def test_a_run_stopped_by_the_cap_says_so_and_how_much_budget_was_left(in_tmp):
    names = ("cap_off_by_one", "thorns_on_nothing")
    engine = PythonEngine(mutants.load_together(names).run)
    report = check(engine, CheckOptions(examples=600, seed=7, kinds=("damage", "hit"), database=None,
                                        keep_going=True, max_divergences=1, state_dir=None))
    assert report.cap is not None and report.cap["groups"] == 1 and report.cap["after"] < 600
    assert f"STOPPED at --max-divergences 1 after {report.cap['after']} of 600 scenarios" in report.text()
    assert report.to_json()["cap_reached"] == report.cap


@pytest.mark.slow
def test_three_bugs_applied_together_are_three_groups_one_per_bug(in_tmp):
    """Measured with benchmarks/bench_groups.py (seed 20261202): before fault keys, 20 groups for these 3 bugs."""
    result = run_combination(("floor_instead_of_ceil", "reflect_rounds_up", "recover_exceeds_max_vitality"), 3000,
                             20261202)
    assert result["found"] == set(result["names"]), result["reproduces"]
    assert result["equal"], [(g.key, g.count) for g in result["report"].groups]


def _key_under(mutant: str, scenario: dict) -> str:
    """The group key of a mutant's first divergence on a scenario (the mutant alone)."""
    from referee.check.compare import Comparison
    from referee.check.grouping.api import group_key_of
    from referee.check.harness import judge

    sent = {**scenario, "id": "k"}
    verdict, divergences = judge(sent, mutants.load_together((mutant,)).run(dict(sent)), Comparison())
    assert verdict == "mismatch"
    return group_key_of(scenario, divergences)


def _one_unit(action: dict, **unit) -> dict:
    return {"protocol": "referee/2", "board": [{"uid": "a", "vitality": 5, "max_vitality": 5, **unit}],
            "actions": [action]}


def test_a_later_applier_left_unanswered_is_the_step_that_chose_to_answer_it():
    """500.7e: the engine that answers only a tick's first applier is keyed at that choice, whichever of Thorns,
    Riposte, Retort or a refusal the model's answer to the second applier opens with."""
    board = [{"uid": "b", "side": 1, "vitality": 50, "max_vitality": 50, "thorns": 3},
             {"uid": "a", "row": 1, "vitality": 40, "max_vitality": 40},
             {"uid": "c", "row": 1, "col": 1, "vitality": 40, "max_vitality": 40}]
    tick = {"kind": "tick", "target": "b", "amount": 4, "appliers": [{"unit": "a", "applied": 1},
                                                                    {"unit": "c", "applied": 1}]}
    thorns = {"protocol": "referee/2", "board": board, "actions": [tick]}
    retort = {**thorns, "board": [{**board[0], "thorns": 0, "retort": 2}, *board[1:]]}
    ally = {**thorns, "board": [board[0], board[1], {**board[2], "side": 1}]}
    keys = {_key_under("tick_answers_the_first_applier_only", s) for s in (thorns, retort, ally)}
    assert keys == {"event@applier[combat:500.7e]"}


def test_a_death_at_exactly_0_is_one_decision_on_every_road():
    """500.4a: a cost's death (500.8j) and a hit's death are the ordinary death; one bug, one key."""
    damage = _one_unit({"kind": "damage", "target": "a", "amount": 5})
    cost = _one_unit({"kind": "cost", "payer": "a", "amount": 5, "cost_kind": "bloodletting"})
    keys = {_key_under("death_only_below_zero", s) for s in (damage, cost)}
    assert keys == {"event@death[combat:500.4a]"}


def _ability(caster: str, targets: list, lines: list, board: list) -> dict:
    ability = {"name": "drawn", "numbers": {"power": 0}, "lines": lines}
    return {"protocol": "referee/2", "board": board,
            "actions": [{"kind": "ability", "caster": caster, "targets": targets, "ability": ability}]}


def test_an_engine_that_resolves_another_line_first_is_keyed_at_the_resolution_order():
    """400.8-2: whichever two lines' events first differ (a Crush resolved after the hit, a second Restore of
    another amount resolved first), the bug is the order the lanes give, one key."""
    unit = {"uid": "a", "vitality": 1, "max_vitality": 1}
    crush = _ability("a", ["b"], [{"effect": "damage", "amount": 1, "kind": "keyword"},
                                  {"effect": "crush", "amount": 1, "kind": "rider"}],
                     [unit, {"uid": "b", "side": 1, "vitality": 5, "max_vitality": 5}])
    restores = _ability("a", [], [{"effect": "restore", "amount": 0, "kind": "rider"},
                                  {"effect": "restore", "amount": 1, "kind": "rider", "lane": "activation"}], [unit])
    assert _key_under("crush_after_the_hit", crush) == "order@lanes[combat:400.8-2]"
    assert _key_under("lanes_out_of_order", restores) == "order@lanes[combat:400.8-2]"


def test_a_line_refused_at_a_dead_recipient_is_the_recipient_gate_not_the_death_before_it():
    """400.8-5: the engine that resolves a rider against a unit the activation killed is keyed at the gate, even
    where a step earlier in the activation (a Bloodletting's Vitality step) left a 0 the refusal also carries."""
    board = [{"uid": "a", "vitality": 9, "max_vitality": 100},
             {"uid": "c", "col": 1, "vitality": 100, "max_vitality": 100}]
    scenario = _ability("c", [], [{"effect": "restore", "amount": "{power}", "kind": "rider", "to": "allies"},
                                  {"effect": "bloodletting", "amount": 9, "kind": "rider"}], board)
    assert _key_under("rider_resolved_against_dead_target", scenario) == "event@recipient_gate[combat:400.8-5]"


def test_an_event_the_engine_inserts_is_the_step_that_left_it_out():
    """500.5c: a Feast of the Shield-absorbed part, inserted after a redirected instance's credit, is the credit
    step's, not the redirect's that made the next model number; a Cull on a Hub is the Cull's (500.4a)."""
    board = [{"uid": "a", "vitality": 1, "max_vitality": 1, "shield": 2500},
             {"uid": "c", "side": 0, "col": 1, "vitality": 100, "max_vitality": 100, "redirect_to": "a",
              "redirect_cap": 8}]
    moved = {"protocol": "referee/2", "board": board,
             "actions": [{"kind": "damage", "target": "c", "amount": 27, "source": "a"}]}
    cull = _one_unit({"kind": "cull", "target": "a", "source": None}, is_hub=True, vitality=1, max_vitality=1)
    assert _key_under("feast_on_absorbed_damage", moved) == "amount@credit[combat:500.5a]"
    assert _key_under("cull_destroys_tools", cull) == "event@cull[combat:500.4a]"


def test_a_shield_met_before_the_insurance_points_is_one_order_whichever_points_come_first():
    """500.1-8, 500.1-9: Subrogated, then plain Insurance, then Shield. The engine that meets Shield first reports a
    Shield event where the model reports the points, Subrogated or plain: one order, at the layer met too early."""
    plain = _one_unit({"kind": "damage", "target": "a", "amount": 1}, insurance=1, shield=1)
    subrogated = _one_unit({"kind": "damage", "target": "a", "amount": 2}, subrogated=1, shield=2)
    keys = {_key_under("shield_before_insurance", s) for s in (plain, subrogated)}
    assert keys == {"order@shield[combat:500.1-10]"}


def test_an_engine_reporting_layers_as_it_meets_them_is_keyed_at_the_early_layer_when_the_model_meets_it_too():
    """500.1-9 again, for an engine whose events follow the order it met the layers in: its Shield event stands where
    the model's Insurance points report, and the model's Shield is met later in the same instance."""
    from referee.check.grouping.keys import fault_key

    met = _one_unit({"kind": "damage", "target": "a", "amount": 30}, vitality=40, max_vitality=40, insurance=1,
                    shield=10)
    divergence = Divergence("events", "events[0]", {"name": "insurance_prevented", "unit": "a", "amount": 25,
                                                    "other": None, "detail": "plain"},
                            {"name": "shield_damaged", "unit": "a", "amount": 10, "other": None, "detail": None}, 0)
    assert fault_key(met, [divergence], "symptom") == "order@shield[combat:500.1-10]"


def test_two_armor_bugs_are_two_keys_named_by_the_rule_that_decided_the_number():
    """500.1d (Burn ignores Armor) and 500.2d (negative Armor amplifies) are decided at the same Armor step but by
    different rules: an engine with both bugs has two groups, not one that hides the Burn bug."""
    burn = _one_unit({"kind": "damage", "target": "a", "amount": 21, "damage_kind": "burn"}, vitality=21,
                     max_vitality=21, armor=1)
    amplified = _one_unit({"kind": "damage", "target": "a", "amount": 1}, vitality=3, max_vitality=3, armor=-1)
    assert _key_under("burn_meets_armor", burn) == "amount@armor_skipped[combat:500.1d]"
    assert _key_under("negative_armor_flat_amplifies", amplified) == "amount@negative_armor[combat:500.2d]"


def test_insurance_points_spent_wrong_are_one_rule_subrogated_or_plain():
    """500.1a decides what both kinds of Insurance points spend and absorb: a part of 25 that spends no point is one
    key whether the points are Subrogated or plain."""
    plain = _one_unit({"kind": "damage", "target": "a", "amount": 30}, vitality=40, max_vitality=40, insurance=2)
    subrogated = _one_unit({"kind": "damage", "target": "a", "amount": 30}, vitality=40, max_vitality=40,
                           subrogated=2)
    keys = {_key_under("insurance_point_not_spent_whole", s) for s in (plain, subrogated)}
    assert keys == {"amount@points[combat:500.1a]"}


def test_a_tool_repair_refused_is_the_gate_it_bypasses_whatever_it_would_have_healed():
    """500.3g: a living Tool's repair bypasses the gate that refuses an Entrapped or Dormant unit. The bypass is a
    decision the explanation states, so an engine that refuses the repair is keyed there, whether the Tool is
    damaged (the model heals it: before, the Maim step) or whole (the model says nothing: before, whatever came next)."""
    repair = {"kind": "recover", "target": "a", "amount": 1, "lane": "repair"}
    damaged = _one_unit(repair, vitality=3, is_tool=True, entrapped=True)
    whole = {**_one_unit(repair, is_tool=True, dormant=True),
             "actions": [repair, {"kind": "damage", "target": "a", "amount": 1}]}
    keys = {_key_under("tool_repair_meets_the_gate", s) for s in (damaged, whole)}
    assert keys == {"event@recovery_gate[combat:500.3g]"}


def test_statuses_a_revival_keeps_are_one_decision_whichever_status_the_scenario_set():
    """500.9c: a revival clears every status in one decision; an engine that keeps them is one key whether the
    scenario's unit was Prismbroken or Entrapped (before: one key per field)."""
    vessel = {"vitality": 2, "max_vitality": 5, "vessels": 1}
    hit = {"kind": "damage", "target": "a", "amount": 5}
    keys = {_key_under("revival_keeps_statuses", _one_unit(hit, **vessel, **status))
            for status in ({"prismbroken": True}, {"entrapped": True})}
    assert keys == {"state@revival[combat:500.9c]"}


def test_an_engine_that_went_on_where_the_model_stopped_merges_into_the_number_step_it_settles_on():
    """500.2d at a Hub: the model discards the hit (500.1-1) and says no more; an engine that amplifies the 0 by
    negative Armor emits a damage past the model's last event. The model never reached the Armor step, so the
    guard cannot ask that its decision was taken: a wrong number settled at that step is merged, an event is not."""
    from referee.check.compare import Comparison
    from referee.check.grouping.keys import engine_went_on
    from referee.check.harness import judge

    hub = _one_unit({"kind": "damage", "target": "a", "amount": 2}, vitality=2, max_vitality=100, is_hub=True,
                    armor=-3)
    verdict, divergences = judge({**hub, "id": "h"}, mutants.load_together(("negative_armor_flat_amplifies",)).run(
        {**hub, "id": "h"}), Comparison())
    assert verdict == "mismatch" and engine_went_on(divergences)
    took = frozenset({"gate[combat:500.1-1]"})
    amplified, death = "amount@negative_armor[combat:500.2d]", "event@death[combat:500.4a]"
    assert merge_target("event@gate[combat:500.1-1]", amplified, took, went_on=True) == amplified
    assert merge_target("event@gate[combat:500.1-1]", amplified, took) == "event@gate[combat:500.1-1]"
    assert merge_target("event@gate[combat:500.1-1]", death, took, went_on=True) == "event@gate[combat:500.1-1]"


def test_a_group_settling_on_a_key_that_settles_on_another_follows_the_chain_where_the_guard_allows_its_end():
    """A flat-before-percentage bug seen at the gate settles at the Armor step, whose group settles at the Vitality
    step: one group, not two. But one key can be two bugs' settled key: a Shield-multiplier group settling on
    ``amount@shield``, where a Burn group keyed ``amount@shield`` settles on the Burn's Armor skip, stays apart
    unless its own representative took that skip (before the guard, the Shield-multiplier bug was merged away)."""
    from referee.check.grouping.keys import resolve_chains

    def group(key, count):
        return Group(key, count, {"board": [], "actions": [key]}, [])

    gate, armor, vitality = "event@gate[combat:500.1-1]", "amount@armor_percentage[combat:500.1-5]", \
        "amount@vitality[combat:500.1-13]"
    chain = {gate: armor, armor: vitality, vitality: vitality}
    assert resolve_chains(chain, lambda key, end: True) == {gate: vitality, armor: vitality, vitality: vitality}
    credit, shield, skipped = "amount@credit[combat:500.5a]", "amount@shield[combat:500.1-10]", \
        "amount@armor_skipped[combat:500.1d]"
    shared = {credit: shield, shield: skipped, skipped: skipped}
    resolved = resolve_chains(shared, lambda key, end: key != credit)
    assert resolved == {credit: shield, shield: skipped, skipped: skipped}
    merged = merge_groups([group(skipped, 70), group(shield, 109), group(credit, 15)], resolved)
    assert [(g.key, g.count) for g in merged] == [(skipped, 179), (credit, 15)]
    a, b = "amount@cap[combat:500.1-7]", "amount@shield[combat:500.1-10]"
    assert len(set(resolve_chains({a: b, b: a}, lambda key, end: True).values())) == 1  # a cycle ends in one place


def test_a_decision_the_lethal_test_takes_is_exercised_by_a_hit_that_runs_the_test():
    """500.1f: the lethal test asks whether the hit would kill through steps 4-13, so it meets the defy-death rune.
    An engine whose rune misses an exact lethal fires the lethal redirect there: that group merges into the
    rune's own group, whose decision the test took (before: a group of its own, the guard saw no rune step)."""
    from referee.check.grouping.keys import decisions_exercised

    scenario = {"protocol": "referee/2", "actions": [{"kind": "damage", "target": "a", "amount": 21}],
                "board": [{"uid": "a", "vitality": 21, "max_vitality": 100, "defy_death": True, "redirect_to": "b",
                           "redirect_cap": 1, "intercept_by": "b"},
                          {"uid": "b", "col": 1, "vitality": 50, "max_vitality": 100}]}
    own, rune = _key_under("defy_death_misses_exact_lethal", scenario), "amount@defy_death[combat:500.1-12]"
    assert own != rune
    assert merge_target(own, rune, decisions_exercised(scenario)) == rune


def test_a_merged_group_keeps_its_own_representative_and_replay_so_a_drift_loses_no_bug():
    """A merge can join two bugs (a drift the guard lets through): the group it merged into lists it with its own
    key, count, first divergence, shrunk scenario and replay, in the text, the JSON and a merged CI report."""
    from referee.check.outcome import _merged_text
    from referee.report.merge import _merged_groups

    def group(key, count, actions):
        return Group(key, count, {"board": [], "actions": actions}, [], replay=f"referee check ... # {key}")

    death, vitality = group("event@death[combat:500.4a]", 9, ["death"]), group("amount@vitality[combat:500.1-13]", 3, ["v"])
    head, = merge_groups([death, vitality], {death.key: death.key, vitality.key: death.key})
    kept, = head.merged_with
    assert (kept["key"], kept["count"], kept["scenario"], kept["replay"]) == \
        (vitality.key, 3, {"board": [], "actions": ["v"]}, vitality.replay)
    text = "\n".join(_merged_text(head))
    assert vitality.key in text and vitality.replay in text and '"actions": ["v"]' in text
    as_json = head.to_json()
    assert as_json["merged_with"][0]["replay"] == vitality.replay
    other = {**as_json, "count": 1, "merged_with": [{**kept, "key": "amount@cap[combat:500.1-7]"}]}
    joined, = _merged_groups([{"groups": [as_json]}, {"groups": [other]}])
    assert [m["key"] for m in joined["merged_with"]] == [vitality.key, "amount@cap[combat:500.1-7]"]
    from referee.report.html import render_html
    from referee.report.merge import as_check_report

    page = render_html(as_check_report({"status": "mismatch", "engine": "e", "seed": 1, "action_kinds": ["damage"],
                                        "compared": {}, "scenarios_run": 12, "seconds": 1.0,
                                        "first_failure_after": 1, "first_failure_seconds": 0.1, "workers": 1,
                                        "groups": [joined]}))
    assert 'class="merged"' in page and vitality.key in page and vitality.replay in page


def test_a_number_the_engine_made_by_applying_a_skipped_rule_is_that_skip_whatever_made_the_number_before():
    """500.1d: a Prismbroken Burn's tick makes 17 (500.1h) and Armor is skipped; an engine that meets Armor makes
    the 22 that Armor -10 would have made. The skip is at fault, not the tick that made 17 (before: the tick, a group
    of its own); a tick rounded the wrong way, with the same Armor, is still the tick's."""
    burn = _one_unit({"kind": "damage", "target": "a", "amount": 11, "damage_kind": "burn"}, vitality=100,
                     max_vitality=100, armor=-10, prismbroken=True)
    assert _key_under("burn_meets_armor", burn) == "amount@armor_skipped[combat:500.1d]"
    assert _key_under("prismbreak_rounds_down", burn) == "amount@tick[combat:500.1h]"


def test_a_line_the_engine_resolved_where_the_model_failed_its_condition_is_not_a_passive_lines_absence():
    """400.8-1 and 400.8-4: a Passive line's step explains only a line of its own effect the engine resolved. A
    conditional Crush whose condition the engine read on an Entrapped enemy is the condition's, whether or not the
    ability also prints a Passive line (before: keyed at the Passive line, a group of its own). The condition failed
    because its only burning enemy was gone all along: the legal-units rule's decision (400.8b)."""
    crush = {"effect": "crush", "amount": 0, "kind": "conditional_rider", "condition": "enemy_burning"}
    passive = {"effect": "restore", "amount": 0, "kind": "passive"}
    board = [{"uid": "a", "vitality": 3, "max_vitality": 100},
             {"uid": "b", "side": 1, "vitality": 50, "max_vitality": 100, "entrapped": True, "burn": 2}]
    keys = {_key_under("dead_units_still_counted", _ability("a", [], lines, board)) for lines in ([crush], [passive, crush])}
    assert keys == {"event@gone[combat:400.8b]"}


def _filed_under(names: tuple[str, ...], scenario: dict) -> dict[str, dict]:
    """The groups one scenario is filed under, with the mutants together (``grouping.filing._record_group``)."""
    from referee.check.compare import Comparison
    from referee.check.grouping.filing import _record_group
    from referee.check.harness import judge

    sent = {**scenario, "id": "k"}
    verdict, divergences = judge(sent, mutants.load_together(names).run(dict(sent)), Comparison())
    assert verdict == "mismatch"
    groups: dict[str, dict] = {}
    _record_group(groups, sent, divergences)
    return groups


def test_an_event_whose_fields_are_the_only_difference_in_the_events_is_alone():
    a, b = Event("death", unit="a"), Event("vessel_batch", unit="a", amount=2, detail="death")
    names = frozenset({"death", "vessel_batch"})
    assert first_event_divergence((a, b), (a, Event("vessel_batch", unit="a", amount=1, detail="death")),
                                  names).shape == "alone"
    later = first_event_divergence((b, a), (Event("vessel_batch", unit="a", amount=1, detail="death"), b), names)
    assert later.shape is None  # another event differs too: the engine left the model's road


def test_a_bug_behind_another_in_every_scenario_that_reaches_it_is_filed_under_its_own_key():
    """500.4d behind 500.4e: every Phylactery revival also counts the Vessel Point batch, so an engine that keeps the
    Vessel and counts the batch wrong shows the batch first in every scenario. The Vessel field was last written
    (the revival) before the batch step at fault, and the events differ in the batch's count alone: the scenario is
    also filed under the key the Vessel field has alone, behind the batch's."""
    revived = _one_unit({"kind": "cost", "payer": "a", "amount": 1, "cost_kind": "bloodletting"}, vitality=1,
                        max_vitality=1, vessels=1)
    groups = _filed_under(("vessel_not_spent", "batch_leaves_out_the_death"), revived)
    vessel = _key_under("vessel_not_spent", revived)
    assert set(groups) == {_key_under("batch_leaves_out_the_death", revived), vessel}
    assert groups[vessel]["behind"] == "event@batch[combat:500.4e]"
    assert groups[vessel]["divergences"][0].path == "board.a.vessels"


def test_a_field_written_after_the_step_at_fault_carries_its_number_on_and_is_not_filed_apart():
    """500.3d: a Maim consumed wrong by a heal, then a second heal of 0. The events differ in the Maim's count alone,
    but Vitality was last written after the Maim step, by the second heal: the same bug's number carried on, not
    another bug behind it."""
    heal = {"kind": "recover", "target": "a", "amount": 33, "lane": "heal"}
    scenario = {**_one_unit(heal, vitality=73, max_vitality=74, maim=3),
                "actions": [heal, {**heal, "amount": 0}]}
    groups = _filed_under(("maim_meets_the_requested_amount",), scenario)
    first = groups["event@maim[combat:500.3d]"]["divergences"]
    assert first[0].shape == "alone" and any(d.path == "board.a.vitality" for d in first[1:])
    assert list(groups) == ["event@maim[combat:500.3d]"], groups


def test_a_field_the_engine_changed_where_the_model_did_not_is_not_filed_apart():
    """400.8a: a count of 0 floored to 1 restores 1 where the model restores 0, and the engine's restore spends a Maim
    the model never touched. The Maim field's model-side step comes before the count, but the model never changed
    it: the engine changed it, and where is not known, so nothing is filed behind the count."""
    restore = {"kind": "ability", "caster": "c", "targets": ["a"], "ability": {
        "name": "drawn", "numbers": {"power": 0},
        "lines": [{"effect": "restore", "amount": 1, "kind": "keyword", "per": "ally"}]}}
    scenario = {"protocol": "referee/2", "actions": [restore],
                "board": [{"uid": "a", "side": 1, "vitality": 1, "max_vitality": 12, "maim": 1}, {"uid": "c"}]}
    groups = _filed_under(("zero_count_floored_to_one",), scenario)
    first = groups["event@count[combat:400.8a]"]["divergences"]
    assert first[0].shape == "alone" and any(d.path == "board.a.maim" for d in first[1:])
    assert list(groups) == ["event@count[combat:400.8a]"], groups


@pytest.mark.parametrize("cost", [0, 1])
def test_events_the_engine_left_out_are_not_an_order(cost):
    """500.4a: an engine that lets Defy Death answer a Cull leaves out the cull, the death and its batch, and the next
    action's line comes first (a Bloodletting of 1, paid by the living unit, differs after it too). The engine's
    first event comes later in the model, but none of the events it skipped comes later in the engine's: events
    left out (the Cull), not the lanes' order (400.8-2), which a Crush bug of the same engine is keyed at."""
    line = {"effect": "bloodletting", "amount": cost, "kind": "keyword"}
    bloodletting = {"kind": "ability", "caster": "a", "targets": [],
                    "ability": {"name": "drawn", "numbers": {"power": 0}, "lines": [line]}}
    scenario = {**_one_unit({"kind": "cull", "target": "a"}, vitality=1, max_vitality=1, defy_death=True)}
    scenario["actions"] = [*scenario["actions"], bloodletting]
    assert _key_under("cull_answered_by_defy_death", scenario) == "event@cull[combat:500.4a]"


def test_a_condition_failure_the_engine_left_out_is_the_condition_whatever_line_follows():
    """400.8-4: the model's condition fails (the only burning enemy is Entrapped: not reachable, not counted), the
    engine resolves the line; its event is the same as the next line's (both a Burn of 0), so the engine's stream
    looks like the model's one step on. The failure it left out comes nowhere later in the engine's stream: left
    out, the condition's (the legal-units rule that failed it, 400.8b), not the lanes' order."""
    lines = [{"effect": "burn", "amount": "{power}", "kind": "conditional_rider", "condition": "enemy_burning"},
             {"effect": "burn", "amount": 0, "kind": "rider"}]
    burn = {"kind": "ability", "caster": "a", "targets": [],
            "ability": {"name": "drawn", "numbers": {"power": 0}, "lines": lines}}
    board = [{"uid": "a", "side": 1, "vitality": 1}, {"uid": "b", "vitality": 50, "entrapped": True, "burn": 2}]
    scenario = {"protocol": "referee/2", "actions": [burn], "board": board}
    assert _key_under("dead_units_still_counted", scenario) == "event@gone[combat:400.8b]"


def test_a_line_resolved_where_its_condition_failed_is_that_line_not_the_next_line_of_its_effect():
    """400.8-2 and 400.8-4: the engine resolves the conditional Burn of 1 where the model's condition fails; the next
    line is a Burn of 0. The engine's event names the same effect as the next line's but not its amount: the line
    the condition stopped, not the lanes' order (before: ``order@lanes``, a group of its own beside the count's)."""
    lines = [{"effect": "burn", "amount": "{power}", "kind": "conditional_rider", "condition": "enemy_burning"},
             {"effect": "burn", "amount": 0, "kind": "rider"}]
    burn = {"kind": "ability", "caster": "a", "targets": [],
            "ability": {"name": "drawn", "numbers": {"power": 1}, "lines": lines}}
    board = [{"uid": "a", "vitality": 12}, {"uid": "b", "side": 1, "vitality": 100, "entrapped": True, "burn": 2}]
    scenario = {"protocol": "referee/2", "actions": [burn], "board": board}
    assert _key_under("dead_units_still_counted", scenario) == "event@gone[combat:400.8b]"


def test_a_unit_gone_all_along_is_one_decision_in_a_count_and_in_a_condition():
    """400.8b, INT-203: an engine that counts units gone since before the activation (Entrapped, Dormant, dead) is
    one bug whether a "per" count or an "enemy burning" condition shows it: the legal-units rule left the unit out.
    A unit this activation killed is left out by the sampling point too (400.8a): there the count's own decision."""
    per = {"effect": "damage", "amount": 1, "kind": "rider", "to": "enemies", "per": "enemy"}
    board = [{"uid": "a", "vitality": 12}, {"uid": "b", "side": 1, "vitality": 50, "dormant": True},
             {"uid": "c", "side": 1, "col": 1, "vitality": 50}]
    assert _key_under("dead_units_still_counted", _ability("a", [], [per], board)) == "event@gone[combat:400.8b]"
    killer = {"effect": "damage", "amount": 5, "kind": "keyword", "to": "enemies"}
    counted = {"effect": "restore", "amount": 1, "kind": "rider", "to": "caster", "per": "enemy"}
    killed = [{"uid": "a", "vitality": 12, "max_vitality": 100}, {"uid": "b", "side": 1, "vitality": 5},
              {"uid": "c", "side": 1, "col": 1, "vitality": 50}]
    assert _key_under("dead_units_still_counted", _ability("a", [], [killer, counted], killed)) \
        == "event@count[combat:400.8a]"


@pytest.mark.slow
def test_with_the_vessel_and_batch_bugs_together_both_are_groups_of_their_own():
    found = run_combination(("vessel_not_spent", "batch_leaves_out_the_death"), 1500, 11)
    assert found["equal"] and found["found"] == {"vessel_not_spent", "batch_leaves_out_the_death"}, found



def test_a_count_named_by_the_legal_units_rule_still_took_the_counts_own_decision():
    """A zero count floored to 1 (400.8c) on a board whose only enemy was Entrapped all along is keyed at the
    legal-units rule (counting the gone unit makes the same 1); the count's own decision is taken there too, so its
    group, settling on the count's key once that unit is shrunk away, may merge into the count's group."""
    from referee.check.grouping.keys import decisions_exercised

    per = {"effect": "damage", "amount": 1, "kind": "rider", "to": "enemies", "per": "enemy"}
    board = [{"uid": "a", "vitality": 12}, {"uid": "b", "side": 1, "vitality": 50, "entrapped": True}]
    scenario = _ability("a", [], [per], board)
    assert _key_under("zero_count_floored_to_one", scenario) == "event@gone[combat:400.8b]"
    assert {"gone[combat:400.8b]", "count[combat:400.8a]"} <= decisions_exercised(scenario)
    alone = _ability("a", [], [per], board[:1] + [{**board[1], "entrapped": False, "side": 0, "col": 1}])
    assert _key_under("zero_count_floored_to_one", alone) == "event@count[combat:400.8a]"
    assert "gone[combat:400.8b]" not in decisions_exercised(alone)


def _divergences_under(mutant: str, scenario: dict) -> list:
    """A mutant's divergences on a scenario (the mutant alone)."""
    from referee.check.compare import Comparison
    from referee.check.harness import judge

    sent = {**scenario, "id": "d"}
    verdict, divergences = judge(sent, mutants.load_together((mutant,)).run(dict(sent)), Comparison())
    assert verdict == "mismatch"
    return divergences


def test_a_decision_the_model_takes_after_the_event_that_differs_is_not_where_the_group_settles():
    """500.1-13: Vitality not clamped shows on the hit's own ``damage_taken`` (2 where the model lands 1). Shrunk with
    no key held, the hit of 2 becomes a hit of 1, and an engine that also kills only below 0 shows a death missing
    there: the death comes after the number that differed, so it cannot be this group's bug (it was merged away)."""
    from referee.check.grouping.keys import decisions_exercised

    scenario = _one_unit({"kind": "damage", "target": "a", "amount": 2}, vitality=1, max_vitality=2)
    divergences = _divergences_under("vitality_not_clamped", scenario)
    own, death = _key_under("vitality_not_clamped", scenario), "event@death[combat:500.4a]"
    every, upstream = decisions_exercised(scenario), decisions_exercised(scenario, divergences)
    assert own == "amount@vitality[combat:500.1-13]" and "death[combat:500.4a]" in every - upstream
    assert merge_target(own, death, every) == death  # what the guard allowed before
    assert merge_target(own, death, every, upstream=upstream) == own
    rounding = "amount@armor_percentage[combat:500.1-5]"  # a number before it carries on into the hit's number
    assert merge_target(own, rounding, every | {"armor_percentage[combat:500.1-5]"}, upstream=upstream) == rounding


def test_an_event_a_step_left_out_with_the_engines_own_number_settles_only_on_that_step():
    """500.1e: a hit the Shield absorbs whole makes a Feast of 0, which the credit step leaves out; an engine that
    emits it agreed with every number up to there. Shrunk with no key held (the Shield gone), the same engine's
    unclamped Vitality shows instead: the Feast group stays its own (it was merged into the Vitality group)."""
    from referee.check.grouping.keys import decisions_exercised, decisions_left_out_alike, engine_went_on

    scenario = _one_unit({"kind": "damage", "target": "a", "amount": 347, "source": "a"}, vitality=1,
                         max_vitality=50, shield=469)
    divergences = _divergences_under("feast_on_absorbed_damage", scenario)
    own, vitality = _key_under("feast_on_absorbed_damage", scenario), "amount@vitality[combat:500.1-13]"
    alone = decisions_left_out_alike(scenario, divergences)
    assert own == "amount@credit[combat:500.5a]" and alone == {"credit[combat:500.5a]"}
    assert engine_went_on(divergences) and not engine_went_on(divergences, scenario)  # the model did not stop there
    every = decisions_exercised(scenario)
    assert merge_target(own, vitality, every) == vitality
    assert merge_target(own, vitality, every, alone=alone) == own


def test_a_line_events_own_line_and_its_count_are_upstream_of_it():
    """400.8a: the second line's ``line_resolved`` is that line's (not the first line step's, which names the same
    event), and its amount is the count the explanation tells after it: a zero count floored to 1 seen there settles
    on the count's key, so the count's decision is upstream (the group was a second one for the same bug)."""
    from referee.check.grouping.keys import decisions_exercised

    lines = [{"effect": "restore", "amount": 1, "kind": "rider"},
             {"effect": "burn", "amount": 1, "kind": "keyword", "per": "venomed_enemy"}]
    scenario = _ability("a", [], lines, [{"uid": "a", "vitality": 12, "max_vitality": 100}])
    divergences = _divergences_under("zero_count_floored_to_one", scenario)
    assert divergences[0].model["detail"] == "burn"
    assert "count[combat:400.8a]" in decisions_exercised(scenario, divergences)


def test_a_vitality_cost_meeting_a_layer_takes_one_decision_whichever_cost_it_is():
    """500.8a, 800.4f ("See 500.8"), 500.1j: a Bloodletting payment and a Subrogated payback are Vitality costs, and
    a payer holding Shield takes the rule that the cost skips it, ``skips_pipeline[combat:500.8a]``, as a cost does."""
    from referee.check.grouping.keys import decisions_exercised

    skip = "skips_pipeline[combat:500.8a]"
    bloodletting = _ability("a", [], [{"effect": "bloodletting", "amount": 1, "kind": "rider"}],
                            [{"uid": "a", "vitality": 5, "max_vitality": 5, "shield": 3}])
    assert skip in decisions_exercised(bloodletting)
    payback = _ability("a", ["b"], [{"effect": "damage", "amount": 1, "kind": "keyword"}],
                       [{"uid": "a", "vitality": 5, "max_vitality": 5, "shield": 3},
                        {"uid": "b", "side": 1, "vitality": 5, "max_vitality": 5, "subrogated": 1}])
    assert skip in decisions_exercised(payback)
    unshielded = _ability("a", ["b"], [{"effect": "damage", "amount": 1, "kind": "keyword"}],
                          [{"uid": "a", "vitality": 5, "max_vitality": 5}, payback["board"][1]])
    assert skip not in decisions_exercised(unshielded)


def test_an_unclamped_vitality_and_a_death_only_below_zero_are_two_groups(in_tmp):
    """Measured with benchmarks/bench_groups.py: before a settling shrink kept to the keys the guard allows, the
    unclamped Vitality's groups settled on the death at 0 and were merged into it."""
    found = run_combination(("vitality_not_clamped", "death_only_below_zero"), 1500, 20261205)
    assert found["found"] == set(found["names"]), found["reproduces"]
    assert found["equal"], [(g.key, g.count) for g in found["report"].groups]
