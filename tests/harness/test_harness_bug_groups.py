"""One group per bug (``referee.check.fault_keys``): keyed by the model step at fault, its clause and the kind of
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
from referee.check.fault_keys import difference_kind, merge_groups, merge_target
from referee.check.groups import Group, KnownEntry
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
    from referee.check.harness import _group_key_of, judge

    sent = {**scenario, "id": "k"}
    verdict, divergences = judge(sent, mutants.load_together((mutant,)).run(dict(sent)), Comparison())
    assert verdict == "mismatch"
    return _group_key_of(scenario, divergences)


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
