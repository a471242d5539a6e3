"""INT-302 as a ruleset option: what caps a Shield gain (500.3c).

500.3c: "The amount is then capped by what the target can actually receive — missing Vitality, for a heal." It names
no cap for a Shield gain. ``shield_gain_cap = none`` (the default): the state has no Shield ceiling, so a Shield gain
receives its whole amount. ``max_vitality``: Shield never exceeds the unit's maximum Vitality, so what a Shield gain can
receive at 500.3c is the room its Shield has below that maximum, ``max(max_vitality - shield, 0)``. Either way the
ledger's order stands: the Forge Core bonus first (500.3b), the cap (500.3c), Exalt on what the cap let through
(500.3f, INT-303: nothing on a gain of nothing), Maim last (500.3d, each point prevents 2, ceil(prevented / 2)
consumed). The expectations below are worked by hand from those words.
"""

from __future__ import annotations

import json

import pytest

from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.specs.trace import covers

from recovery_cases import recover_scenario, run_recovery

OPTION = "shield_gain_cap"
READINGS = ("none", "max_vitality")


def _scenario(reading: str, amount: int, lane: str = "shield", **fields: object) -> dict:
    return recover_scenario(OPTION, reading, amount, lane, 50, **fields)


_run = run_recovery


#: Shield 52 of a 60 maximum, Forge Core 2, Maim 1; a Shield gain of 10.
CAP_BITES = dict(amount=10, shield=52, forge_core_recovery=2, maim=1)


@covers("combat:500.3c", "combat:500.3b", "combat:500.3d")
def test_none_a_shield_gain_is_not_capped():
    # 10 + 2 (Forge Core, 500.3b) = 12, no ceiling (INT-302); Maim 1 prevents min(12, 2) = 2 and consumes
    # ceil(2 / 2) = 1 (500.3d): 10 gained, Shield 52 -> 62, above the maximum Vitality of 60.
    assert _run(_scenario("none", **CAP_BITES)) == (
        {"vitality": 50, "shield": 62, "maim": 0}, [("maim_consumed", 1), ("shield_gained", 10)])


@covers("combat:500.3c", "combat:500.3b", "combat:500.3d")
def test_max_vitality_a_shield_gain_is_capped_at_the_room_below_the_maximum():
    # 10 + 2 = 12, capped at 60 - 52 = 8 (500.3c); Maim 1 prevents min(8, 2) = 2, consumes 1: 6 gained, Shield 58.
    assert _run(_scenario("max_vitality", **CAP_BITES)) == (
        {"vitality": 50, "shield": 58, "maim": 0}, [("maim_consumed", 1), ("shield_gained", 6)])


#: Shield already at the maximum (60 of 60), Exalt 3, Maim 2; a Shield gain of 5.
NO_ROOM = dict(amount=5, shield=60, exalt=3, maim=2)


@covers("combat:500.3c", "combat:500.3e", "combat:500.3f")
def test_none_a_unit_whose_shield_is_at_its_maximum_still_gains():
    # 5, no ceiling; Exalt adds 3 (500.3f): 8; Maim 2 prevents min(8, 4) = 4, consumes 2: 4 gained, Shield 64.
    assert _run(_scenario("none", **NO_ROOM)) == (
        {"vitality": 50, "shield": 64, "maim": 0}, [("maim_consumed", 2), ("shield_gained", 4)])


@covers("combat:500.3c", "combat:500.3e", "combat:500.3f")
def test_max_vitality_no_room_gains_nothing_and_consumes_no_maim():
    # 5 capped at 60 - 60 = 0 (500.3c); Exalt on a gain of nothing increases nothing (INT-303); nothing is eligible,
    # so no Maim is consumed (500.3e); nothing is reported.
    assert _run(_scenario("max_vitality", **NO_ROOM)) == ({"vitality": 50, "shield": 60, "maim": 2}, [])


@covers("combat:500.3c", "combat:500.3f")
@pytest.mark.parametrize(("reading", "shield"), [("none", 55 + 13), ("max_vitality", 55 + 5 + 3)])
def test_exalt_is_added_to_what_the_cap_let_through(reading, shield):
    """Shield 55, Exalt 3, a gain of 10: none 10 + 3 = 13; max_vitality min(10, 60 - 55) = 5, then Exalt 3 (after the
    cap, before Maim: INT-303's order) = 8, so Exalt may lift the Shield past the maximum."""
    assert _run(_scenario(reading, amount=10, shield=55, exalt=3))[0]["shield"] == shield


@covers("combat:500.3c")
@pytest.mark.parametrize("reading", READINGS)
def test_a_heal_is_capped_at_the_missing_vitality_under_either_reading(reading):
    # 20 requested, 60 - 50 = 10 missing (500.3c): Vitality 60; the Shield of 58 is not read by a heal.
    assert _run(_scenario(reading, amount=20, lane="heal", shield=58)) == (
        {"vitality": 60, "shield": 58, "maim": 0}, [("healed", 10)])


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("case", [CAP_BITES, NO_ROOM, dict(amount=10, shield=55, exalt=3)])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, case):
    scenario = _scenario(reading, **case)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
