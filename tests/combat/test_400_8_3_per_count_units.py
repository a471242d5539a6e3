"""INT-203 as a ruleset option: which units a "per" count counts (400.8-3, 400.8a, 400.8b).

400.8-3 applies the "per" multiplier "using 400.3", which the seeds leave out; the worked example says the dead target
"is not a living targetable enemy, so it does not count". ``per_count_units = legal_recipients`` (the default): a unit
counts when the recipient gates of 400.8-5 let it through (living, not Entrapped, Dormant or untargetable).
``living_targetable_only``: the words read literally, a living unit that is not untargetable counts, Entrapped and
Dormant units too. Under both a dead unit never counts (400.8b) and the caster never counts itself.

The board: the caster ``c`` (side 0) at 10 of 100 Vitality; on side 1, each with Burn 2, ``e1`` (plain), ``e2``
(Entrapped), ``e3`` (Dormant), ``e4`` (untargetable) and ``e5`` (dead), and ``e6`` with no Burn. The ability:
"Restore 3 vitality to itself per Burning enemy" (after the hit lane, nothing before it). By hand (400.8-3, 400.8c,
500.3c: 90 missing, no cap reached): legal_recipients counts e1 only, 3 x 1 = 3, ``c`` 10 -> 13;
living_targetable_only counts e1, e2 and e3, 3 x 3 = 9, ``c`` 10 -> 19.
"""

from __future__ import annotations

import json

import pytest

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "per_count_units"
READINGS = ("legal_recipients", "living_targetable_only")


def _enemy(uid: str, col: int, burn: int = 2, **fields: object) -> dict:
    return {"uid": uid, "side": 1, "row": 0, "col": col, "vitality": 40, "max_vitality": 40, "burn": burn, **fields}


BOARD = [{"uid": "c", "side": 0, "row": 0, "col": 0, "vitality": 10, "max_vitality": 100},
         _enemy("e1", 0), _enemy("e2", 1, entrapped=True), _enemy("e3", 2, dormant=True),
         _enemy("e4", 3, untargetable=True), _enemy("e5", 4, alive=False, vitality=0), _enemy("e6", 5, burn=0)]


def _scenario(reading: str, lines: list[dict], board: list[dict] = BOARD) -> dict:
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "c", "targets": [], "ability": {"lines": lines}}]}


PER_BURNING = [{"effect": "restore", "amount": 3, "to": "caster", "per": "burning_enemy"}]


def _run(scenario: dict) -> tuple[int, list[tuple[str, str, object]]]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    return state.unit("c").vitality, [(e.name, e.amount, e.detail) for e in events
                                      if e.name in ("line_resolved", "condition_failed", "vitality_restored")]


@covers("combat:400.8-3", "combat:400.8b")
def test_legal_recipients_counts_only_the_units_the_gates_let_through():
    vitality, events = _run(_scenario("legal_recipients", PER_BURNING))
    assert vitality == 13 and events == [("line_resolved", 3, "restore"), ("vitality_restored", 3, None)]


@covers("combat:400.8-3", "combat:400.8b")
def test_living_targetable_only_counts_the_entrapped_and_dormant_but_not_the_untargetable_or_dead():
    vitality, events = _run(_scenario("living_targetable_only", PER_BURNING))
    assert vitality == 19 and events == [("line_resolved", 9, "restore"), ("vitality_restored", 9, None)]


ONLY_ENTRAPPED = [BOARD[0], BOARD[2]]
IF_ENEMY_BURNING = [{"effect": "restore", "amount": 4, "to": "caster", "kind": "conditional_rider",
                     "condition": "enemy_burning"}]


@covers("combat:400.8-4", "combat:400.8-3")
@pytest.mark.parametrize(("reading", "vitality", "events"), [
    ("legal_recipients", 10, [("condition_failed", 0, "enemy_burning")]),
    ("living_targetable_only", 14, [("line_resolved", 4, "restore"), ("vitality_restored", 4, None)]),
])
def test_the_enemy_burning_condition_reads_the_same_count(reading, vitality, events):
    """Only ``e2`` (Entrapped, Burn 2) is an enemy: "enemy burning" is a count of Burning enemies above 0. Counted
    under living_targetable_only (the Restore 4 lands: 10 -> 14), not under legal_recipients (the line fails)."""
    assert _run(_scenario(reading, IF_ENEMY_BURNING, ONLY_ENTRAPPED)) == (vitality, events)


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading, PER_BURNING), _scenario(reading, IF_ENEMY_BURNING, ONLY_ENTRAPPED)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
