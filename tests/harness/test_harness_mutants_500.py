"""The chapter 500 mutants of issue 14: recovery (500.3), Cull (500.4a), shared ticks (500.5, 500.7e) and
the battle clock (500.9a, 500.9k), each a one-line bug of the example engine killed by ``referee check``
within a bounded number of scenarios; and the new action kinds against the clean engine."""

from __future__ import annotations


import pytest

from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.examples.engine import run as clean_engine
from referee.check.harness import CheckOptions, check
from referee.model.combat.ruleset import Ruleset
from referee.specs.trace import covers

#: The new kinds of issue 14, as ``referee check --kinds`` takes them.
NEW_KINDS = ("recover", "cull", "tick", "advance", "end_combat")

#: Each mutant and the scenarios ``check`` took to kill it (seed 7, no shrinking, seeded generation: the default),
#: measured 2026-12-01 17:58 UTC after the coverage weights of the default mix (docs/performance.md, "Coverage of
#: the default mix"). A mutant over SLOW_ABOVE needs a three- or four-action timeline (a retry on a full half under
#: ``everlasting_slot_order = reading_order``): its test is behind --runslow.
KILLS = {
    "recover_maim_consumption_rounds_down": 7, "recover_exceeds_max_vitality": 1, "forge_core_after_the_cap": 1,
    "exalt_after_maim": 23, "maim_meets_the_requested_amount": 1, "recovery_reaches_the_entrapped": 25,
    "tool_repair_meets_the_gate": 15, "cull_answered_by_defy_death": 7, "cull_destroys_tools": 1,
    "tick_shares_lose_the_remainder": 26, "tick_remainder_ties_to_the_later": 57, "feast_from_the_whole_tick": 3,
    "tick_answers_the_first_applier_only": 34, "everlasting_at_nine_seconds": 3,
    "revival_due_at_the_end_fires_late": 11, "revival_forgets_its_killer": 6,
    "revival_timer_from_the_battle_start": 399, "retry_a_tick_after_the_try": 1112,
}
SLOW_ABOVE = 500
#: The budget of the default run's kills: every quick mutant above dies well within it.
BUDGET = 600


def _options(mutant: mutants.Mutant, examples: int) -> CheckOptions:
    rules = {"combat": Ruleset.from_json(dict(mutant.ruleset))} if mutant.ruleset else {}
    return CheckOptions(examples=examples, seed=7, database=None, kinds=mutant.kinds, shrink=False,
                        max_actions=mutant.max_actions, rules=rules)


def test_at_least_ten_new_chapter_500_mutants_each_naming_its_clause_and_reaching_a_new_kind():
    new = [m for m in mutants.MUTANTS if set(m.kinds) & set(NEW_KINDS)]
    assert {m.name for m in new} == set(KILLS)
    assert len(new) >= 10 and all(m.clause.startswith("combat:500.") for m in new)
    quick = [name for name, k in KILLS.items() if k <= SLOW_ABOVE]
    assert len(quick) >= 8


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if k > SLOW_ABOVE else n for n, k in KILLS.items()]
)
def test_every_chapter_500_mutant_is_killed_within_its_budget(name, in_tmp):
    mutant = mutants.BY_NAME[name]
    budget = BUDGET if KILLS[name] <= SLOW_ABOVE else 3000
    options = _options(mutant, budget)
    report = check(PythonEngine(mutants.load(name).run), options)
    assert report.status == "mismatch", f"{name} survived {report.scenarios_run} scenarios"


@covers("combat:500.3a", "combat:500.4a", "combat:500.5b", "combat:500.9a")
def test_the_clean_engine_passes_on_the_new_kinds_on_both_slot_orders(in_tmp):
    for rules in ({}, {"combat": Ruleset(everlasting_slot_order="reading_order")}):
        report = check(PythonEngine(clean_engine), CheckOptions(examples=200, seed=3, database=None, kinds=NEW_KINDS,
                                                                max_actions=3, rules=rules))
        assert report.status == "pass", report.text()


def _scenario(board: list[dict], actions: list[dict]) -> dict:
    return {"protocol": "referee/2", "board": board, "actions": actions}


@covers("combat:500.5b", "combat:500.9a")
def test_the_new_kinds_refuse_what_the_model_cannot_mean_with_the_field_path():
    from referee.protocol import decode_scenario
    from referee.wire import ProtocolError

    board = [{"uid": "a"}, {"uid": "b", "side": 1, "col": 1}]
    bad = [
        ({"kind": "tick", "target": "a", "amount": 5, "appliers": []}, "scenario.actions[0].appliers"),
        ({"kind": "tick", "target": "a", "amount": 5, "appliers": [{"unit": "b", "applied": 0}]},
         "scenario.actions[0].appliers[0].applied"),
        ({"kind": "tick", "target": "a", "amount": 5, "appliers": [{"unit": "z", "applied": 1}]},
         "scenario.actions[0].appliers[0].unit"),
        ({"kind": "advance", "ms": -1}, "scenario.actions[0].ms"),
        ({"kind": "advance", "ms": 10, "rows": 0}, "scenario.actions[0].rows"),
        ({"kind": "recover", "target": "a", "amount": 5, "lane": "mend"}, "scenario.actions[0].lane"),
    ]
    for action, path in bad:
        with pytest.raises(ProtocolError) as caught:
            decode_scenario(_scenario(board, [action]))
        assert caught.value.path == path, (action, caught.value)


@covers("combat:500.9a", "combat:500.4d")
def test_500_9a_a_culled_everlasting_unit_is_back_exactly_ten_seconds_later_and_not_a_millisecond_before():
    board = [{"uid": "a", "everlasting": True, "maim": 2}, {"uid": "x", "side": 1, "col": 1}]
    cull = {"kind": "cull", "target": "a", "source": "x"}
    early = clean_engine(_scenario(board, [cull, {"kind": "advance", "ms": 9_999}]))
    due = clean_engine(_scenario(board, [cull, {"kind": "advance", "ms": 9_999}, {"kind": "advance", "ms": 1}]))
    assert not early["board"][0]["alive"]
    revived = [e for e in due["events"] if e["name"] == "everlasting_revival"]
    assert revived == [{"name": "everlasting_revival", "unit": "a", "amount": 10_000, "other": "x", "detail": "0,0,0"}]
    assert due["board"][0]["alive"] and due["board"][0]["maim"] == 0
    from referee.check.harness import model_observation

    model = model_observation(_scenario(board, [cull, {"kind": "advance", "ms": 9_999}, {"kind": "advance", "ms": 1}]))
    assert [e.to_json() for e in model.events] == due["events"]
