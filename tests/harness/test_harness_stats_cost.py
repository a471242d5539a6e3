"""``--stats`` counts clauses from a cheap tracer (``referee.clause_tracer``): the same clauses the trail names."""

from __future__ import annotations

from referee import rulebooks
from referee.clause_tracer import clauses_applied_in
from referee.protocol import decode_scenario, rulebook_of
from referee.strategies import scenarios
from referee.streams import draw_batch
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
