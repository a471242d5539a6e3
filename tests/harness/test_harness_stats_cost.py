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


def _every_kind(a, b, /, c, d=4, *more, e, f=6, **rest):
    return a, b, c, d, more, e, f, rest


def test_a_probe_takes_and_passes_on_every_kind_of_parameter_as_the_function_does():
    """A probe has the function's own parameters (no ``*args, **kwargs`` packing): installed as the function's code,
    with the function's defaults, it answers every call as the function does and notes the call."""
    from referee.check import clause_tracer

    original = _every_kind.__code__
    try:
        _every_kind.__code__ = clause_tracer._probe(_every_kind)
        clause_tracer._CALLED.clear()
        assert _every_kind(1, 2, 3, e=5) == (1, 2, 3, 4, (), 5, 6, {})
        assert _every_kind(1, 2, c=3, d=0, e=5, f=0, g=7) == (1, 2, 3, 0, (), 5, 0, {"g": 7})
        assert _every_kind(1, 2, 3, 4, 8, 9, e=5) == (1, 2, 3, 4, (8, 9), 5, 6, {})
        assert clause_tracer._CALLED == {original}
    finally:
        _every_kind.__code__ = original
        clause_tracer._CALLED.clear()
