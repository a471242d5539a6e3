"""INT-306 as a ruleset option: which recovery lanes Maim meets (500.3a, 500.3d, 500.3e).

500.3a: "Recovery means restoring Vitality or gaining Shield. Both use the same ledger." 500.3d: "Maim is applied last:
each point prevents 2 of the eligible amount and is then consumed. Consumption is ceil(prevented / 2)."
``maim_lanes = every_lane`` (the default): Maim is the ledger's last step, so it meets heals, Shield gains and repairs
alike. ``heals_only``: Maim meets a heal only; a Shield gain or a Tool's repair passes it untouched and consumes none.
``maim_consumed`` is reported before the gain, each only when positive (500.3d). The expectations below are worked by
hand from those words; no Forge Core bonus or Exalt is on the boards, so the cap (500.3c) is the only other step.
"""

from __future__ import annotations

import json

import pytest

from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.specs.trace import covers

from recovery_cases import recover_scenario, run_recovery

OPTION = "maim_lanes"
READINGS = ("every_lane", "heals_only")


def _scenario(reading: str, amount: int, lane: str, **fields: object) -> dict:
    return recover_scenario(OPTION, reading, amount, lane, 40, **fields)


_run = run_recovery


#: A Shield gain of 7 on a unit with Maim 2.
SHIELD = dict(amount=7, lane="shield", maim=2)
#: A Tool with Maim 3 repaired for 5 (20 Vitality missing).
REPAIR = dict(amount=5, lane="repair", maim=3, is_tool=True)


@covers("combat:500.3a", "combat:500.3d")
def test_every_lane_maim_meets_a_shield_gain():
    # 7, no Shield ceiling (INT-302); Maim 2 prevents min(7, 2 * 2) = 4 and consumes ceil(4 / 2) = 2 (500.3d): 3 gained.
    assert _run(_scenario("every_lane", **SHIELD)) == (
        {"vitality": 40, "shield": 3, "maim": 0}, [("maim_consumed", 2), ("shield_gained", 3)])


@covers("combat:500.3a", "combat:500.3d")
def test_heals_only_a_shield_gain_passes_maim_untouched():
    # Maim meets a heal only: all 7 gained, the 2 Maim points stay, no maim_consumed.
    assert _run(_scenario("heals_only", **SHIELD)) == (
        {"vitality": 40, "shield": 7, "maim": 2}, [("shield_gained", 7)])


@covers("combat:500.3d", "combat:500.3g")
def test_every_lane_maim_swallows_a_small_repair():
    # 5, capped at the 60 - 40 = 20 missing (500.3c): 5; Maim 3 prevents min(5, 6) = 5 and consumes ceil(5 / 2) = 3:
    # nothing restored, so only maim_consumed is reported.
    assert _run(_scenario("every_lane", **REPAIR)) == ({"vitality": 40, "shield": 0, "maim": 0}, [("maim_consumed", 3)])


@covers("combat:500.3d", "combat:500.3g")
def test_heals_only_a_repair_passes_maim_untouched():
    # A living Tool's repair bypasses the gate (500.3g); Maim meets a heal only: 5 restored, Maim 3 kept.
    assert _run(_scenario("heals_only", **REPAIR)) == ({"vitality": 45, "shield": 0, "maim": 3}, [("healed", 5)])


@covers("combat:500.3d")
@pytest.mark.parametrize("reading", READINGS)
def test_maim_meets_a_heal_under_either_reading(reading):
    # 5 of the 20 missing; Maim 1 prevents min(5, 2) = 2, consumes 1: 3 healed.
    assert _run(_scenario(reading, amount=5, lane="heal", maim=1)) == (
        {"vitality": 43, "shield": 0, "maim": 0}, [("maim_consumed", 1), ("healed", 3)])


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("case", [SHIELD, REPAIR, dict(amount=5, lane="heal", maim=1)])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, case):
    scenario = _scenario(reading, **case)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
