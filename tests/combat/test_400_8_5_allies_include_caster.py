"""INT-205 as a ruleset option: does a line printed 'to allies' reach the caster too (400.8-5)?

``allies_include_caster = excluded`` (the default): a unit's allies are the others on its side (500.6h sets a unit
apart from its allies), so 'to allies' reaches every other unit of the caster's side in reading order (800.4b).
``included``: the caster is one of its allies, reached at its own place in reading order. The board below: side 0
holds ``a`` (row 0, column 0), the caster ``c`` (row 0, column 1) and ``b`` (row 1, column 0), each at 20 of 30
Vitality; ``e`` is the enemy on side 1. The ability: "Restore 6 vitality to allies". Reading order on side 0 is
``a``, ``c``, ``b`` (left to right across row 0, then row 1). By hand (500.3c caps at the 10 missing):
excluded: ``a`` 20 -> 26 and ``b`` 20 -> 26, ``c`` stays at 20; included: ``a``, ``c`` and ``b`` each 20 -> 26, ``c``
between ``a`` and ``b``.
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

OPTION = "allies_include_caster"
READINGS = ("excluded", "included")


def _unit(uid: str, side: int, row: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": row, "col": col, "vitality": 20, "max_vitality": 30, **fields}


def _scenario(reading: str, effect: str = "restore", amount: int = 6, **caster: object) -> dict:
    board = [_unit("a", 0, 0, 0), _unit("c", 0, 0, 1, **caster), _unit("b", 0, 1, 0), _unit("e", 1, 0, 0)]
    lines = [{"effect": effect, "amount": amount, "to": "allies"}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "c", "targets": ["e"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[dict[str, int], list[tuple[str, str, int | None]]]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    reached = [(e.name, e.unit, e.amount) for e in events if e.name in ("vitality_restored", "line_refused",
                                                                           "status_applied")]
    return {u.uid: u.vitality for u in state.units}, reached


@covers("combat:400.8-5")
def test_excluded_to_allies_restores_the_others_on_the_caster_s_side_only():
    vitality, reached = _run(_scenario("excluded"))
    assert vitality == {"a": 26, "c": 20, "b": 26, "e": 20}
    assert reached == [("vitality_restored", "a", 6), ("vitality_restored", "b", 6)]


@covers("combat:400.8-5")
def test_included_to_allies_restores_the_caster_too_in_its_reading_order_place():
    vitality, reached = _run(_scenario("included"))
    assert vitality == {"a": 26, "c": 26, "b": 26, "e": 20}
    assert reached == [("vitality_restored", "a", 6), ("vitality_restored", "c", 6), ("vitality_restored", "b", 6)]


@covers("combat:400.8-5")
@pytest.mark.parametrize(("reading", "reached"), [
    ("excluded", [("status_applied", "a", 2), ("status_applied", "b", 2)]),
    ("included", [("status_applied", "a", 2), ("line_refused", "c", 2), ("status_applied", "b", 2)]),
])
def test_the_caster_among_its_allies_meets_the_gates_as_any_recipient(reading, reached):
    """"Burn 2 to allies" from an Entrapped caster: excluded never names it; included names it and the gate of
    400.8-5 refuses it (Entrapped receives nothing), while ``a`` and ``b`` take 2 stacks each (400.8-6)."""
    assert _run(_scenario(reading, "burn", 2, entrapped=True))[1] == reached


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading), _scenario(reading, "burn", 2, entrapped=True)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
