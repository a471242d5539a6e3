"""One bug, one key, whatever the scenario it shows in (``referee.fault_keys``): the shapes in which one seeded
mutant gave several groups when mutants were combined (``benchmarks/bench_groups.py``), each keyed once."""

from __future__ import annotations

from referee.compare import Comparison
from referee.examples import mutants
from referee.fault_keys import merge_groups, settled_classes, upstream
from referee.groups import Group
from referee.harness import _group_key_of, judge


def scenario(board, *actions):
    return {"protocol": "referee/2", "board": board, "actions": list(actions), "id": "s"}


def key_of(mutant: str, sent: dict) -> str:
    verdict, divergences = judge(sent, mutants.load(mutant).run(dict(sent)), Comparison())
    assert verdict == "mismatch", sent
    return _group_key_of(sent, divergences)


def test_a_layer_run_out_of_its_place_is_one_key_whether_the_model_reaches_it_or_not():
    """shield_before_insurance: the engine's Shield event where the model's Insurance event is, the model's Shield
    met later (a large hit) or not at all (a small one), Subrogated or plain points: the Shield step, an event."""
    later = scenario([{"uid": "a", "vitality": 1, "max_vitality": 3, "subrogated": 1, "shield": 625}],
                     {"kind": "damage", "target": "a", "amount": 125})
    never = scenario([{"uid": "c", "vitality": 1, "max_vitality": 12, "has_cap": True, "cap": 2, "insurance": 1,
                       "shield": 138}], {"kind": "damage", "target": "c", "amount": 275})
    plain = scenario([{"uid": "a", "vitality": 1, "insurance": 1, "shield": 156}],
                     {"kind": "damage", "target": "a", "amount": 52})
    keys = {key_of("shield_before_insurance", s) for s in (later, never, plain)}
    assert keys == {"event@shield[combat:500.1-10]"}


def test_an_applier_of_a_shared_tick_left_unanswered_is_one_key_whatever_answers_it():
    """tick_answers_the_first_applier_only: the second applier's Thorns, Retort or Riposte missing: the step that
    says each applier is answered (500.7e), not the answer's own mechanic."""
    def tick(target, **held):
        return scenario([{"uid": "a", "vitality": 50}, {"uid": "b", "col": 1, "vitality": 50},
                         {"uid": "t", "side": 1, "vitality": 40, **held}],
                        {"kind": "tick", "target": "t", "amount": 5, "damage_kind": "venom",
                         "appliers": [{"unit": "a", "applied": 1}, {"unit": "b", "applied": 2}]})

    keys = {key_of("tick_answers_the_first_applier_only", tick("t", **held))
            for held in ({"thorns": 2}, {"retort": 1}, {"thorns": 1, "retort": 3})}
    assert keys == {"event@applier[combat:500.7e]"}


def test_a_death_the_engine_misses_is_one_key_whatever_killed_the_unit():
    """death_only_below_zero: a unit at exactly 0 by damage (500.4a) or by a cost (500.8j): the death step at its
    own rule's clause."""
    hit = scenario([{"uid": "a", "vitality": 5}], {"kind": "damage", "target": "a", "amount": 5})
    cost = scenario([{"uid": "a", "vitality": 5}], {"kind": "cost", "payer": "a", "amount": 5,
                                                    "cost_kind": "bloodletting"})
    assert {key_of("death_only_below_zero", s) for s in (hit, cost)} == {"event@death[combat:500.4a]"}


def test_thorns_and_riposte_silenced_by_no_damage_event_are_one_key():
    """thorns_on_nothing: whichever of Thorns and Riposte the unit holds, the one fact that silences both (500.7d)."""
    def hit(**held):
        return scenario([{"uid": "a", "shield": 50, **held}, {"uid": "e", "side": 1}],
                        {"kind": "hit", "target": "a", "amount": 10, "source": "e", "riposte_rolls": [True]})

    keys = {key_of("thorns_on_nothing", hit(**held)) for held in ({"thorns": 3}, {"thorns": 2, "riposte": 50})}
    assert keys == {"event@no_damage_event[combat:500.7d]"}


def test_groups_that_settle_on_each_other_are_one_group():
    """The settling is an equivalence: a group settling on a second that settles on the first is one with it."""
    def group(key, count):
        return Group(key, count, {"board": [], "actions": [key]}, [])

    a, b, c = group("event@shield[combat:500.1-10]", 5), group("amount@subrogated[combat:500.1-8]", 2), \
        group("event@failed[combat:800.4d]", 3)
    settled = {a.key: b.key, b.key: a.key, c.key: c.key}
    assert settled_classes([a.key, b.key, c.key], settled) == {a.key: a.key, b.key: a.key, c.key: c.key}
    merged = merge_groups([a, b, c], settled)
    assert [g.key for g in merged] == [a.key, c.key] and merged[0].count == 7 and b.key in merged[0].symptoms


def test_a_group_does_not_settle_on_a_step_the_model_ran_after_its_own():
    """A settling shrink that lands on a step the model ran after the group's step at fault has drifted into a
    consequence (another bug's): of this Insurance group, the Shield step the model ran after it is left out; the
    Insurance step itself and a step this scenario never ran (Armor) are kept."""
    sent = scenario([{"uid": "c", "vitality": 1, "max_vitality": 6, "insurance": 1, "shield": 27}],
                    {"kind": "damage", "target": "c", "amount": 50})
    _, divergences = judge(sent, mutants.load("shield_before_insurance").run(dict(sent)), Comparison())
    keys = ("amount@insurance[combat:500.1-9]", "event@shield[combat:500.1-10]", "amount@armor_percentage[combat:500.1-5]")
    assert _group_key_of(sent, divergences) == keys[0]
    assert upstream({k: v for k, v in sent.items() if k != "id"}, divergences, keys) == (keys[0], keys[2])
