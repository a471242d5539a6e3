"""``--stats`` counts clauses from a cheap tracer (``referee.check.clause_tracer``): the same clauses the trail names."""

from __future__ import annotations

import json

from referee import rulebooks
from referee.check.clause_tracer import clauses_applied_in
from referee.protocol import decode_scenario, rulebook_of
from referee.check.strategies import scenarios
from referee.check.streams import draw_batch
from referee.trail import clauses_applied


def test_the_stats_tracer_sees_the_clauses_and_events_the_clause_trail_sees():
    drawn = draw_batch(scenarios(max_actions=3), 11, 0, 0, 96)
    drawn += draw_batch(scenarios(kinds=("play_card", "activate"), max_actions=3), 11, 0, 1, 48)
    for scenario in drawn:
        book = rulebooks.get(rulebook_of(scenario))
        _, trail_events, steps = book.observe(scenario)
        seen: set[str] = set()
        with clauses_applied_in(seen):
            _, events = book.run(decode_scenario(scenario))
        assert seen == set(clauses_applied(steps)) and seen
        assert [e.name for e in events] == [e.name for e in trail_events]


def test_a_stats_run_finds_the_same_groups_and_puts_every_tagged_function_back():
    from referee.check.clause_tracer import _PROBES
    from referee.engines.transports import PythonEngine
    from referee.examples import mutants
    from referee.check.harness import CheckOptions, check

    def groups(stats: bool) -> list[tuple]:
        engine = PythonEngine(mutants.load_together(("cap_off_by_one", "thorns_on_nothing", "cost_spends_shield")).run)
        options = CheckOptions(examples=600, seed=4, kinds=("damage", "hit", "cost"), database=None, keep_going=True,
                               shrink_budget=300, state_dir=None, stats=stats)
        with engine:
            report = check(engine, options)
        assert (report.stats is not None) == stats and report.groups
        return [json.dumps({k: g.to_json()[k] for k in ("key", "count", "scenario", "clauses", "explain", "symptoms")},
                           sort_keys=True) for g in report.groups]

    assert groups(True) == groups(False)
    assert _PROBES and all(function.__code__ is code for function, code, _ in _PROBES)
