"""400.8 as properties over generated abilities: counts sampled where the line resolves, lanes in order, gates hold."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from referee.explain.ability import explain_ability
from referee.model.combat.abilities import count_per, resolve_ability, resolve_ability_outcome
from referee.model.combat.ability_text import LANES
from referee.model.combat.keywords import is_legal_recipient
from referee.model.combat.ruleset import DEFAULT
from referee.model.events import EVENT_NAMES
from referee.specs.trace import covers

from ability_strategies import abilities, ability_boards

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@covers("combat:400.8-3", "combat:400.8a", "combat:400.8c")
@SETTINGS
@given(ability_boards(), abilities())
def test_400_8a_every_count_is_sampled_on_the_board_its_line_meets(board, ability):
    _, _, outcome = resolve_ability_outcome(board, "c", ability, ("t0",))
    for line in outcome.lines:
        if line.count is not None:
            assert line.count == count_per(line.board, "c", line.line.per)
            assert line.amount == line.base * line.count  # 0 for a count of 0: never floored (400.8c)


@covers("combat:400.8-2")
@SETTINGS
@given(ability_boards(), abilities())
def test_400_8_2_lines_resolve_lane_by_lane_with_crush_before_and_maim_cull_after(board, ability):
    _, _, outcome = resolve_ability_outcome(board, "c", ability, ("t0", "t1"))
    lanes = [LANES.index(o.lane) for o in outcome.lines]
    assert lanes == sorted(lanes)
    for o in outcome.lines:
        if o.line.effect == "crush":
            assert o.lane == "before_hit"
        if o.line.effect in ("maim", "cull"):
            assert o.lane == "after_hit"
    assert all(ability.lines[i].kind == "passive" for i in outcome.passives)
    assert {o.index for o in outcome.lines}.isdisjoint(outcome.passives)


@covers("combat:400.8-5", "combat:400.8b")
@SETTINGS
@given(ability_boards(), abilities())
def test_400_8_5_a_recipient_the_gates_refuse_receives_nothing(board, ability):
    _, log, outcome = resolve_ability_outcome(board, "c", ability, ("t0", "t1"))
    for o in outcome.lines:
        for d in o.deliveries:
            met = o.board.unit(d.recipient)
            if not is_legal_recipient(met):
                assert d.refused is not None and d.after == d.before == met
    assert all(e.name in EVENT_NAMES for e in log.events())
    resolved = sum(1 for e in log.events() if e.name in ("line_resolved", "condition_failed"))
    assert resolved == len(outcome.lines)


@SETTINGS
@given(ability_boards(), abilities())
def test_explaining_an_ability_ends_on_the_models_board_and_events(board, ability):
    after, log = resolve_ability(board, "c", ability, ("t0",))
    explained_after, explained_log, steps = explain_ability(board, "c", ability, ("t0",), DEFAULT)
    assert explained_after == after and explained_log.events() == log.events()
    assert steps[0].clause == "combat:400.8-1" and steps[-1].step == "answer"
