"""Questions over every reading: the merged search equals the union of the per-reading searches (issue #40).

A cell runs the model once with the ruleset options it reads as solver variables
(``model/readings.py``); the reference is the same question with one cell per reading
(``merge_readings=False``), where every option is a Python value. For random conditions over a
two-unit board the two verdicts must agree (found iff some reading's is found, impossible iff every
reading's is), every ``--by-reading`` region must replay at a reading inside it, and a reading
outside every region must be impossible on its own. A mutant of the merging (one branch of
``by_reading`` dropped) is caught.
"""

from __future__ import annotations

import json
import random

import pytest

from referee.query import run_query
from referee.query.space import ENUM_OPTIONS

from test_query_soundness import condition

#: The two-unit board of the property: one damage action, an enemy source.
BOARD = {"units": 2, "relations": ("enemy",), "budget": 120.0}
#: The readings a drawn question leaves open (the rest at their defaults): few, so the reference stays cheap.
OPEN_OPTIONS = ("negative_armor", "shield_multiplier_rounding", "redirect_cap_moves", "damage_event_test",
                "lethal_redirect_test", "reflect_entry")
NEGATIVE_ARMOR = "target.armor < 0 and outcome.amount > 0 and outcome.after_armor > 2 * outcome.amount"


def question(rng: random.Random) -> tuple[str, dict, dict[str, str]]:
    """A random condition, its action and the readings fixed (every option but a random few at its default)."""
    open_options = rng.sample(OPEN_OPTIONS, 3)
    fixed = {name: readings[0] for name, readings in ENUM_OPTIONS.items() if name not in open_options}
    return condition(rng), {"actions": (rng.choice(["damage", "hit"]),)}, fixed


def verdicts(text: str, action: dict, fixed: dict[str, str]) -> tuple[str, str]:
    """The merged and the per-reading verdicts of one question."""
    merged = run_query(text, **BOARD, **action, ruleset=fixed).status
    reference = run_query(text, **BOARD, **action, ruleset=fixed, merge_readings=False).status
    return merged, reference


def region_holds(text: str, action: dict, fixed: dict[str, str], answer) -> list[str]:
    """What is wrong with a ``--by-reading`` answer: a region whose witness is not inside it, or whose corner reading
    is impossible on its own, or an uncovered reading that is possible on its own."""
    problems = []
    regions = answer.by_reading["possible"]
    for region in regions:
        ruleset = region["scenario"]["ruleset"]
        if any(ruleset.get(o, ENUM_OPTIONS[o][0]) != r for o, r in region["readings"].items()):
            problems.append(f"witness outside its region {region['readings']}")
    for reading in every_reading(fixed):
        inside = any(all(reading[o] == r for o, r in region["readings"].items()) for region in regions)
        alone = run_query(text, **BOARD, **action, ruleset=reading).status
        if alone != ("found" if inside else "impossible"):
            problems.append(f"{reading_words(reading, fixed)}: {alone}, the partition says {'possible' if inside else 'impossible'}")
    return problems


def every_reading(fixed: dict[str, str]) -> list[dict[str, str]]:
    """Each full reading of the options ``fixed`` leaves open."""
    import itertools

    open_options = [o for o in ENUM_OPTIONS if o not in fixed]
    return [{**fixed, **dict(zip(open_options, choice))}
            for choice in itertools.product(*(ENUM_OPTIONS[o] for o in open_options))]


def reading_words(reading: dict[str, str], fixed: dict[str, str]) -> str:
    return ", ".join(f"{o}={r}" for o, r in reading.items() if o not in fixed)


def check_questions(seed: int, count: int) -> list[str]:
    """Every disagreement between the merged and the per-reading searches over ``count`` random questions."""
    rng = random.Random(seed)
    problems = []
    for _ in range(count):
        text, action, fixed = question(rng)
        merged, reference = verdicts(text, action, fixed)
        if merged != reference:
            problems.append(f"{text!r} {action}: merged {merged}, per reading {reference}")
    return problems


def test_the_every_reading_verdict_is_the_union_of_the_per_reading_verdicts() -> None:
    problems = check_questions(seed=40, count=6)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_the_every_reading_verdict_is_the_union_of_the_per_reading_verdicts_long_campaign() -> None:
    problems = check_questions(seed=4040, count=60)
    assert not problems, "\n".join(problems)


def test_every_by_reading_region_replays_and_every_other_reading_is_impossible() -> None:
    rng = random.Random(41)
    problems = []
    for text, action, fixed in [question(rng) for _ in range(2)] + [
            (NEGATIVE_ARMOR, {"actions": ("hit",)},
             {o: r[0] for o, r in ENUM_OPTIONS.items() if o not in ("negative_armor", "redirect_cap_moves")})]:
        answer = run_query(text, **BOARD, **action, ruleset=fixed, by_reading=True)
        assert answer.by_reading["complete"], answer.detail
        problems += region_holds(text, action, fixed, answer)
    assert not problems, "\n".join(problems)


def test_the_negative_armor_question_is_possible_exactly_under_the_reciprocal_reading() -> None:
    answer = run_query(NEGATIVE_ARMOR, **BOARD, actions=("hit",), by_reading=True)
    assert answer.status == "found"
    assert answer.by_reading["possible_when"] == [{"negative_armor": "reciprocal"}]
    assert answer.scenario["ruleset"]["negative_armor"] == "reciprocal"
    assert "possible exactly when negative_armor=reciprocal" in answer.detail


def test_a_merged_search_with_a_dropped_branch_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: on a symbolic reading, ``by_reading`` keeps the first reading's branch only."""
    from referee.model import readings

    real = readings.by_reading

    def first_branch_only(option, **branches):
        if isinstance(option, readings.SymbolicReading):
            return branches[option.readings[0]]()
        return real(option, **branches)

    fixed = {o: r[0] for o, r in ENUM_OPTIONS.items() if o != "negative_armor"}
    assert verdicts(NEGATIVE_ARMOR, {"actions": ("hit",)}, fixed) == ("found", "found")
    monkeypatch.setattr(readings, "by_reading", first_branch_only)
    for module in merged_modules():
        monkeypatch.setattr(module, "by_reading", first_branch_only, raising=False)
    from referee.query import solve

    monkeypatch.setattr(solve, "_CELLS", {})
    merged, reference = verdicts(NEGATIVE_ARMOR, {"actions": ("hit",)}, fixed)
    assert (merged, reference) == ("impossible", "found"), "the dropped branch went unnoticed"


def merged_modules() -> list:
    """The model modules that import ``by_reading`` by name."""
    import sys

    return [m for name, m in list(sys.modules.items()) if name.startswith("referee.model.") and hasattr(m, "by_reading")]


def test_a_play_question_is_partitioned_by_the_play_options_it_reads() -> None:
    """The cost reads either_discount (PLAY-003) and component_discount_scope (PLAY-020), the costs that move an object
    leave_board_resets (PLAY-025): one region for each combination of their readings, the options read no more."""
    import itertools

    from referee.query.types import PLAY_OPTIONS

    answer = run_query("first.played and first.total.energy > 0", actions=("play_card",), by_reading=True, budget=240)
    assert answer.status == "found"
    read = ["component_discount_scope", "either_discount", "leave_board_resets"]
    assert answer.by_reading["options_read"] == read
    assert answer.by_reading["possible_when"] == [{}]
    assert {tuple(sorted(r["readings"].items())) for r in answer.by_reading["possible"]} == {
        tuple(zip(read, point)) for point in itertools.product(*(PLAY_OPTIONS[o] for o in read))}


def test_an_activation_question_reads_no_play_option() -> None:
    answer = run_query("first.activated", actions=("activate:ability=buff",), by_reading=True, budget=60)
    assert answer.status == "found"
    assert answer.by_reading["options_read"] == []


def test_a_play_reading_is_accepted_by_ruleset() -> None:
    answer = run_query("first.played", actions=("play_card",), ruleset={"either_discount": "power_first"}, budget=60)
    assert answer.status == "found"
    assert "either_discount=power_first only" in answer.space


def test_a_combat_reading_is_accepted_by_a_play_question_and_said_unread() -> None:
    answer = run_query("first.played", actions=("play_card",), ruleset={"negative_armor": "reciprocal"}, budget=60)
    assert answer.status == "found"
    assert "no combat option is read by the play rulebook" in answer.space


def test_by_reading_on_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from referee.cli.app import app

    result = CliRunner().invoke(app, ["query", NEGATIVE_ARMOR, "--units", "2", "--source", "enemy", "--by-reading",
                                      "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["by_reading"]["possible_when"] == [{"negative_armor": "reciprocal"}]
    assert answer["by_reading"]["complete"] is True
    text = CliRunner().invoke(app, ["query", NEGATIVE_ARMOR, "--units", "2", "--source", "enemy", "--by-reading"])
    assert "possible exactly when negative_armor=reciprocal" in text.output
    assert "readings the condition is possible under" in text.output
