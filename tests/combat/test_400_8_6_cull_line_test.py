"""INT-209 as a ruleset option: which recipient a 'Cull N' line destroys (400.8-6, 500.4a).

500.4a: "A unit dies when its Vitality reaches 0, or when it is destroyed outright by Cull." ``cull_line_test =
threshold`` (the default): an execution threshold, a recipient the gates let through with N Vitality or less is
destroyed outright; a healthier one is untouched. ``unconditional``: Cull destroys its recipient whatever its Vitality.
Under both a line that resolved to 0 (a "per" count of 0, 400.8c) destroys nothing.

The board: the caster ``c`` (side 0); on side 1 ``t1`` at 10 Vitality and ``t2`` at 40 (reading order t1, t2). The
ability: "Cull 15 to enemies" (Cull always lands after the hit, 400.8-2). By hand: threshold, 10 <= 15 so ``t1`` is
culled (culled 10, then its death credited to ``c``) and 40 > 15 leaves ``t2`` alive at 40; unconditional, both are
culled (culled 10, culled 40).
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

OPTION = "cull_line_test"
READINGS = ("threshold", "unconditional")
BOARD = [{"uid": "c", "side": 0, "row": 0, "col": 0, "vitality": 30, "max_vitality": 30},
         {"uid": "t1", "side": 1, "row": 0, "col": 0, "vitality": 10, "max_vitality": 50},
         {"uid": "t2", "side": 1, "row": 0, "col": 1, "vitality": 40, "max_vitality": 50}]
CULL_15 = [{"effect": "cull", "amount": 15, "to": "enemies"}]
#: "Cull 15 to enemies per Burning enemy": no enemy Burns, so the count is 0 and the line resolves to 0 (400.8c).
CULL_PER_BURNING = [{"effect": "cull", "amount": 15, "to": "enemies", "per": "burning_enemy"}]


def _scenario(reading: str, lines: list[dict]) -> dict:
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": BOARD,
            "actions": [{"kind": "ability", "caster": "c", "targets": [], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[dict[str, tuple[bool, int]], list[tuple[str, str, object]]]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    culled = [(e.name, e.unit, e.amount) for e in events if e.name == "culled"]
    return {u: (state.unit(u).alive, state.unit(u).vitality) for u in ("t1", "t2")}, culled


@covers("combat:400.8-6", "combat:500.4a")
def test_threshold_culls_only_the_recipient_at_or_below_the_amount():
    assert _run(_scenario("threshold", CULL_15)) == ({"t1": (False, 0), "t2": (True, 40)}, [("culled", "t1", 10)])


@covers("combat:400.8-6", "combat:500.4a")
def test_unconditional_culls_every_recipient_whatever_its_vitality():
    assert _run(_scenario("unconditional", CULL_15)) == ({"t1": (False, 0), "t2": (False, 0)},
                                                        [("culled", "t1", 10), ("culled", "t2", 40)])


@covers("combat:400.8-6", "combat:400.8c")
@pytest.mark.parametrize("reading", READINGS)
def test_a_cull_that_resolved_to_0_destroys_nothing_under_either_reading(reading):
    assert _run(_scenario(reading, CULL_PER_BURNING)) == ({"t1": (True, 10), "t2": (True, 40)}, [])


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading, CULL_15), _scenario(reading, CULL_PER_BURNING)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
