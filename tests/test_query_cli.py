"""``referee query`` on the command line: every kind answers, no traceback is an answer, ``unknown`` says how far it got.

The exit codes (docs/query.md): 0 found, 1 impossible, 3 unknown, 5 an engine disagrees;
not verdicts: 2 a bad query, 4 a defect of referee (an encoding defect or an internal error).
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from referee.cli.app import app
from referee.specs.trace import covers

DEFAULTS = ["--ruleset", "defaults"]


def run(*argv: str):
    return CliRunner().invoke(app, ["query", *argv])


def test_help_lists_exactly_the_action_kinds_a_query_takes() -> None:
    from referee.cli.query import ACTION_NAMES
    from referee.query.play import ACTIVATE_ACTION, PLAY_ACTION
    from referee.query.space import KIND_SLOTS

    assert ACTION_NAMES == (*KIND_SLOTS, PLAY_ACTION, ACTIVATE_ACTION)
    text = " ".join(run("--help").output.split())
    assert all(name in text for name in ("bloodletting", "advance", "end_combat", "play_card", "activate"))


@covers("combat:800.4g", "combat:800.4l")
def test_800_4_the_designers_bloodletting_question_answers_in_json_without_a_traceback() -> None:
    result = run("first.bloodletting.paid < 0", "--action", "bloodletting", "--units", "2", "--source", "enemy",
                 *DEFAULTS, "--json")
    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout)
    assert answer["status"] == "impossible" and "every Bloodletting payer in reading order" in answer["space"]
    assert answer["cells"] == 2  # the payer is a condition of one cell per source relation, not a cell per payer


@covers("combat:800.4b", "combat:800.4c")
def test_800_4c_an_entrapped_or_dead_unit_ahead_passes_the_cost_to_the_next_one() -> None:
    """A witness where the unit ahead of the caster is skipped: the payer choice is searched, and replays."""
    result = run('target.side == source.side and event("bloodletting_paid", unit="source")',
                 "--action", "bloodletting:caster=source", "--units", "2", *DEFAULTS, "--json")
    assert result.exit_code == 0, result.output
    board = {u["uid"]: u for u in json.loads(result.stdout)["scenario"]["board"]}
    ahead = board["target"]
    assert not ahead["alive"] or ahead["entrapped"] or ahead["is_boss"]


@covers("combat:800.4a")
def test_an_ability_bloodletting_line_is_queryable() -> None:
    result = run("first.stopped", "--action", "ability:lines=bloodletting", "--units", "2", *DEFAULTS, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["status"] == "found"


def test_an_internal_error_exits_4_with_a_message_and_json_never_a_traceback(monkeypatch) -> None:
    import referee.query

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a defect planted by the test")

    monkeypatch.setattr(referee.query, "run_query", broken)
    for argv in (["outcome.died", "--json"], ["outcome.died"]):
        result = run(*argv)
        assert result.exit_code == 4
        assert "Traceback" not in result.output and isinstance(result.exception, (SystemExit, type(None)))
        assert "ZeroDivisionError: a defect planted by the test" in result.output
    answer = json.loads(run("outcome.died", "--json").stdout)
    assert answer["status"] == "internal-error" and answer["exit"] == 4 and "not an answer" in answer["detail"]


def test_a_value_error_raised_by_the_model_during_the_search_is_internal_not_the_users(monkeypatch) -> None:
    import referee.query

    def broken(*args, **kwargs):
        raise ValueError("a model defect planted by the test")

    monkeypatch.setattr(referee.query, "run_query", broken)
    result = run("outcome.died", "--json")
    assert result.exit_code == 4 and json.loads(result.stdout)["status"] == "internal-error"


def test_an_engine_that_cannot_start_is_a_usage_error_in_json() -> None:
    result = run('event("riposte_missed")', "--units", "2", "--source", "enemy", *DEFAULTS,
                 "--engine", "/nonexistent/engine", "--json")
    assert result.exit_code == 2 and "cannot start" in json.loads(result.stdout)["detail"]


def test_a_command_line_usage_error_is_json_too_with_json() -> None:
    for argv, named in ((["--json"], "Missing argument"), (["x", "--bogus", "--json"], "--bogus"),
                        (["x", "--units", "abc", "--json"], "--units")):
        result = run(*argv)
        assert result.exit_code == 2
        answer = json.loads(result.stdout.strip().splitlines()[0])
        assert answer["status"] == "error" and named in answer["detail"]


def test_a_bad_query_exits_2_with_a_json_error() -> None:
    result = run("first.bloodletting.paid < 0", "--action", "bloodletting:payer=x", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["status"] == "error"


def test_unknown_says_how_many_cells_were_decided_and_lists_the_open_ones() -> None:
    result = run("first.bloodletting.paid < 0", "--action", "bloodletting", "--units", "2", "--rlimit", "1000",
                 *DEFAULTS, "--json")
    assert result.exit_code == 3, result.output
    progress = json.loads(result.stdout)["progress"]
    assert progress["cells_built"] == 2 and progress["cells_decided"] == 0 and len(progress["open_cells"]) == 2
    assert progress["cheaper"] is None  # already the default reading: no cheaper question to suggest
    text = run("first.bloodletting.paid < 0", "--action", "bloodletting", "--units", "2", "--rlimit", "1000", *DEFAULTS)
    assert "cells: 2 built, 0 decided (proved impossible), 2 open" in text.output
    assert "open: 2 units, source enemy" in text.output


def test_unknown_over_every_reading_suggests_the_default_reading() -> None:
    result = run("first.bloodletting.paid < 0", "--action", "bloodletting", "--units", "2", "--budget", "1e-9", "--json")
    assert result.exit_code == 3, result.output
    progress = json.loads(result.stdout)["progress"]
    assert progress["more_cells_unbuilt"] and progress["cheaper"]["flag"] == "--ruleset defaults"
    assert progress["cheaper"]["cells"] == 2
    text = run("first.bloodletting.paid < 0", "--action", "bloodletting", "--units", "2", "--budget", "1e-9")
    assert "cheaper: ask the same question with --ruleset defaults" in " ".join(text.output.split())


def test_unknown_counts_decided_cells_apart_from_open_ones() -> None:
    from referee.query.records import OPEN_CELLS_SHOWN, unknown_answer
    from referee.query.run import make_query

    query = make_query("first.bloodletting.paid < 0", actions=("bloodletting",), units=2)
    labels = [f"cell {k}" for k in range(OPEN_CELLS_SHOWN + 2)]
    answer = unknown_answer(query, 10, labels, False, "Z3 gave no answer")
    assert answer.progress["cells_decided"] == 10 - len(labels) and answer.progress["open_cells"] == labels
    assert "cells: 10 built, 3 decided (proved impossible), 7 open" in answer.detail
    assert "and 2 more (--json lists them all)" in answer.detail and answer.to_json()["progress"] == answer.progress
