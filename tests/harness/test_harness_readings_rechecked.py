"""The re-checked readings INT-008, INT-114 and INT-112 as ruleset options the harness draws and tells apart.

For each option's alternative reading: the example engine, reading it, passes ``referee check`` under it; and
an engine that ignores the option (runs the default whatever the scenario's ruleset says) is caught within a
bounded number of scenarios, so the draw reaches the cases where the two readings differ (a lethal hit the
defy-death rune keeps off Vitality at 1 left, a Reflect met by Subrogated Insurance, a Reflect of a tick).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.engines.transports import PythonEngine
from referee.examples.engine import run as clean_engine
from referee.check.harness import CheckOptions, check
from referee.model.combat.ruleset import Ruleset
from referee.specs.trace import covers

DEFAULTS = Ruleset().to_json()

#: (option, its alternative, the kinds that reach the difference, scenarios an engine ignoring it survived
#: (seed 7, no shrinking), measured 2026-12-01). INT-008's needed the draw's ``defied_at_one`` alignment:
#: before it, an engine ignoring ``damage_event_test`` passed 3,000 hit scenarios.
READINGS = [
    ("damage_event_test", "after_shield", ("hit",), 232),
    ("reflect_subrogation", "payback", ("hit",), 239),
    ("reflect_lanes", "hits_only", ("tick",), 508),
]
#: The default run catches the one the new alignment is for; the others are behind --runslow.
QUICK = ("damage_event_test",)


def ignoring(option: str) -> Any:
    """The example engine, reading the option's default whatever the scenario says."""

    def run(scenario: dict[str, Any]) -> dict[str, Any]:
        return clean_engine({**scenario, "ruleset": {**(scenario.get("ruleset") or {}), option: DEFAULTS[option]}})

    return run


def _options(option: str, value: str, kinds: tuple[str, ...], examples: int, seed: int) -> CheckOptions:
    return CheckOptions(examples=examples, seed=seed, database=None, kinds=kinds, shrink=False,
                        rules={"combat": Ruleset(**{option: value})})


@covers("combat:500.7d", "combat:500.1c", "combat:500.7k", "combat:500.7h")
@pytest.mark.parametrize("option,value,kinds,killed", READINGS, ids=[r[0] for r in READINGS])
def test_the_example_engine_passes_under_the_alternative_reading(option, value, kinds, killed, in_tmp):
    report = check(PythonEngine(clean_engine), _options(option, value, kinds, 60, 3))
    assert report.status == "pass", report.text()


@covers("combat:500.7d", "combat:500.1c", "combat:500.7k", "combat:500.7h")
@pytest.mark.parametrize("option,value,kinds,killed", [
    r if r[0] in QUICK else pytest.param(*r, marks=pytest.mark.slow) for r in READINGS], ids=[r[0] for r in READINGS])
def test_an_engine_ignoring_the_reading_is_caught(option, value, kinds, killed, in_tmp):
    report = check(PythonEngine(ignoring(option)), _options(option, value, kinds, killed + 100, 7))
    assert report.status == "mismatch", f"an engine ignoring {option} survived {report.scenarios_run} scenarios"


@covers("combat:500.7d", "combat:500.1-12")
def test_500_7d_the_draw_reaches_a_hit_the_defy_death_rune_keeps_off_vitality():
    """The defied_at_one alignment: 1 Vitality left of 1, defy-death, Thorns to show the reading."""
    from hypothesis import strategies as st

    from referee.rulebooks.combat.strategies import align_target

    target = {"uid": "t", "armor": 0, "insurance": 0, "subrogated": 0, "shield": 0, "alive": True, "max_vitality": 50,
              "thorns": 0}
    found = []

    @st.composite
    def aligned(draw):
        return align_target(draw, target, 40)

    from hypothesis import given, settings

    @settings(max_examples=80, derandomize=True, database=None)
    @given(aligned())
    def run(fields):
        found.append(fields)

    run()
    assert {"vitality": 1, "defy_death": True, "thorns": 3} in found
