"""--stats names the events no scenario emitted; the default mix reaches the rare mechanics (issue 10's targets)."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings

from referee.rulebooks.combat.generate import KIND_WEIGHTS, _kind_choice
from referee.check.stats import Stats
from referee.check.strategies import scenarios

ONE_UNIT = {"protocol": "referee/2", "board": [{"uid": "a", "side": 0, "row": 0, "col": 0}],
            "actions": [{"kind": "damage", "target": "a", "amount": 5}]}


def test_stats_warn_about_events_never_emitted_and_leave_out_the_unreachable():
    stats = Stats()
    stats.observe(ONE_UNIT)
    rare = stats.rare()
    assert "thorns" in rare["events"] and "revival_focus" in rare["events"]  # never emitted: under 1% too
    assert "reliquary_cleared" not in rare["events"] and "reliquary_cleared" not in stats.expected_events()
    assert "damage_taken" not in rare["events"]
    text = "\n".join(stats.text())
    assert "event names emitted (never: " in text and "thorns" in text


def test_kind_weights_apply_to_a_mix_and_not_to_a_single_kind():
    _, single = _kind_choice(("hit",), frozenset())
    _, mixed = _kind_choice(("damage", "hit"), frozenset())
    assert list(single.elements) == ["hit"]
    assert list(mixed.elements).count("hit") == KIND_WEIGHTS["hit"] and list(mixed.elements).count("damage") == 2


def test_a_cull_of_an_everlasting_unit_is_followed_by_time_or_the_end_of_combat():
    seen: list[list[str]] = []

    @settings(max_examples=150, database=None, deadline=None, phases=[Phase.generate], derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(scenarios(kinds=("cull", "advance", "end_combat", "damage")))
    def run(scenario):
        first = scenario["actions"][0]
        if first["kind"] == "cull":
            target = next(u for u in scenario["board"] if u["uid"] == first["target"])
            if target["everlasting"] and target["alive"]:
                seen.append([a["kind"] for a in scenario["actions"]])

    run()
    # the Everlasting culls the draw aims (a unit drawn Everlasting by chance is culled with no follow-up)
    followed = [kinds for kinds in seen if len(kinds) > 1 and kinds[1] in ("advance", "end_combat")]
    assert len(followed) >= 0.7 * len(seen) > 5, seen
