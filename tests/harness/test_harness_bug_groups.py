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
from referee.check.fault_keys import difference_kind, merge_groups
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
    merged = merge_groups([b, a, c], {b.key: a.key, a.key: a.key, c.key: c.key})
    assert [g.key for g in merged] == [a.key, c.key]
    assert merged[0].count == 7 and b.key in merged[0].symptoms


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
