"""The conventions ``docs/protocol.md`` writes down (refusal rules and conventions), each run through the model.

Engines met each of them only by failing; each test here is the case the page states.
"""

from __future__ import annotations

import pytest

from referee.model.combat.retaliation import ScenarioError
from referee.rulebooks import RULEBOOKS

BOOK = RULEBOOKS["combat"]


def _run(board: list[dict], actions: list[dict], **ruleset: str) -> tuple[list[tuple], dict]:
    state, events, _ = BOOK.observe({"protocol": "referee/2", "ruleset": ruleset, "board": board, "actions": actions})
    return [(e.name, e.unit, e.other, e.detail) for e in events], {u.uid: u for u in state.units}


def _hit(target: str, source: str, amount: int = 5, rolls: list[bool] | None = None) -> dict:
    return {"kind": "hit", "target": target, "amount": amount, "source": source, "riposte_rolls": rolls or []}


def test_recovery_refuses_a_tool_that_is_also_entrapped_as_tool_or_hub():
    events, _ = _run([{"uid": "a", "is_tool": True, "entrapped": True, "vitality": 50}],
                     [{"kind": "recover", "target": "a", "amount": 5, "lane": "heal"}])
    assert events == [("recovery_refused", "a", None, "tool_or_hub")]
    events, _ = _run([{"uid": "a", "entrapped": True, "dormant": True, "vitality": 50}],
                     [{"kind": "recover", "target": "a", "amount": 5, "lane": "heal"}])
    assert events == [("recovery_refused", "a", None, "entrapped")]


@pytest.mark.parametrize("action", [{"kind": "damage", "target": "a", "amount": 50, "source": "b"},
                                    {"kind": "cost", "payer": "a", "amount": 50, "cost_kind": "retaliation",
                                     "beneficiary": "b"}])
def test_defy_death_turns_false_when_its_charge_is_spent(action):
    events, units = _run([{"uid": "a", "vitality": 10, "defy_death": True}, {"uid": "b", "side": 1, "col": 1}], [action])
    assert ("defy_death", "a", "b", None) in events
    assert units["a"].defy_death is False and units["a"].defy_death_spent is True and units["a"].alive


def test_one_cost_refused_against_an_ally_however_many_retaliations_it_carries():
    board = [{"uid": "a", "thorns": 5, "riposte": 5, "retort": 5}, {"uid": "b", "col": 1}]
    events, _ = _run(board, [_hit("a", "b")])
    assert [e for e in events if e[0] == "cost_refused"] == [("cost_refused", "b", "a", "ally")]


def test_each_retaliation_is_refused_on_its_own_against_an_entrapped_enemy():
    board = [{"uid": "a", "thorns": 5, "riposte": 5, "retort": 5}, {"uid": "b", "side": 1, "col": 1, "entrapped": True}]
    events, _ = _run(board, [_hit("a", "b", rolls=[True])])
    assert [e for e in events if e[0] == "cost_refused"] == [("cost_refused", "b", "a", "entrapped")] * 3


def test_an_answer_refused_against_an_ally_needs_no_riposte_roll_an_enemy_one_does():
    events, _ = _run([{"uid": "a", "riposte": 5}, {"uid": "b", "col": 1}], [_hit("a", "b")])
    assert ("cost_refused", "b", "a", "ally") in events
    with pytest.raises(ScenarioError, match="roll #1 is needed"):
        _run([{"uid": "a", "riposte": 5}, {"uid": "b", "side": 1, "col": 1}], [_hit("a", "b")])


def test_subrogation_does_nothing_for_an_ally_yet_thorns_against_it_is_refused():
    events, _ = _run([{"uid": "a", "subrogated": 2}, {"uid": "b", "col": 1}], [_hit("a", "b", amount=30)])
    assert events == [("insurance_prevented", "a", "b", "subrogated")]
    events, _ = _run([{"uid": "a", "thorns": 3}, {"uid": "b", "col": 1}], [_hit("a", "b", amount=30)])
    assert events[-1] == ("cost_refused", "b", "a", "ally")
