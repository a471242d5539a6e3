"""INT-211 as a ruleset option: which steps of recovery (500.3) an ability's Restore line runs (400.8-7).

400.8-7: "Push the result through the damage or recovery pipeline in 500.1 or 500.3 ... capacity then Maim for
recovery." ``ability_restore_bonuses = capacity_and_maim_only`` (the default): the line's amount is capped at the
recipient's missing Vitality (500.3c), then each Maim point prevents 2 and ceil(prevented / 2) are consumed (500.3d).
``full_recovery_ledger``: the line runs the whole ledger a recover action runs, so the recipient's Forge Core bonus is
added to a positive amount first (500.3b, INT-301: not to nothing) and Exalt follows the cap (500.3f: it names Shield
and three buffs, not Vitality, so a Restore, which restores Vitality, gets none, INT-303). The expectations below are
worked by hand from those words.
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

OPTION = "ability_restore_bonuses"
READINGS = ("capacity_and_maim_only", "full_recovery_ledger")


def _scenario(reading: str, amount: int, **fields: object) -> dict:
    """The caster ``a`` restores ``amount`` to its ally ``t`` (60 maximum Vitality, Forge Core 3, Exalt 4)."""
    board = [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 50, "max_vitality": 50},
             {"uid": "t", "side": 0, "row": 0, "col": 1, "vitality": 40, "max_vitality": 60, "forge_core_recovery": 3,
              "exalt": 4, **fields}]
    lines = [{"effect": "restore", "amount": amount}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "a", "targets": ["t"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    t = state.unit("t")
    return ({"vitality": t.vitality, "shield": t.shield, "maim": t.maim},
            [(e.name, e.amount) for e in events if e.unit == "t"])


#: Restore 10 on ``t`` at 40 of 60 with Maim 1.
MAIMED = dict(amount=10, maim=1)
#: Restore 4 on ``t`` at 55 of 60: 5 missing.
NEAR_FULL = dict(amount=4, vitality=55)


@covers("combat:400.8-7", "combat:500.3c", "combat:500.3d")
def test_capacity_and_maim_only_no_forge_core_bonus():
    # 10, capped at the 20 missing (500.3c): 10; Maim 1 prevents min(10, 2) = 2, consumes 1 (500.3d): 8 restored.
    assert _run(_scenario("capacity_and_maim_only", **MAIMED)) == (
        {"vitality": 48, "shield": 0, "maim": 0}, [("vitality_restored", 8)])


@covers("combat:400.8-7", "combat:500.3b", "combat:500.3c", "combat:500.3d", "combat:500.3f")
def test_full_recovery_ledger_adds_the_forge_core_bonus_first():
    # 10 + 3 (Forge Core, 500.3b) = 13, capped at 20: 13; no Exalt on Vitality (500.3f); Maim 1 prevents 2, consumes 1:
    # 11 restored.
    assert _run(_scenario("full_recovery_ledger", **MAIMED)) == (
        {"vitality": 51, "shield": 0, "maim": 0}, [("vitality_restored", 11)])


@covers("combat:400.8-7", "combat:500.3b", "combat:500.3c")
@pytest.mark.parametrize(("reading", "restored"), [("capacity_and_maim_only", 4), ("full_recovery_ledger", 5)])
def test_the_bonus_is_added_before_the_cap(reading, restored):
    """4 on 5 missing: capacity_and_maim_only min(4, 5) = 4; full_recovery_ledger min(4 + 3, 5) = 5 (the bonus first,
    then the cap: never past the maximum)."""
    assert _run(_scenario(reading, **NEAR_FULL)) == (
        {"vitality": 55 + restored, "shield": 0, "maim": 0}, [("vitality_restored", restored)])


@covers("combat:400.8-7", "combat:500.3b")
@pytest.mark.parametrize("reading", READINGS)
def test_a_restore_of_nothing_gets_no_bonus_under_either_reading(reading):
    # 0 requested: no recovery at all (INT-301), so no Forge Core bonus either; nothing restored, nothing reported.
    assert _run(_scenario(reading, amount=0, maim=1)) == ({"vitality": 40, "shield": 0, "maim": 1}, [])


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("case", [MAIMED, NEAR_FULL, dict(amount=0, maim=1)])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, case):
    scenario = _scenario(reading, **case)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
