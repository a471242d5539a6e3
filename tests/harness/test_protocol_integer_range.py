"""The protocol's integer range (issue 25): every integer of a scenario is within +-(2^53 - 1).

2^53 - 1 is the largest integer a JSON number keeps exactly in every language an engine may be written
in (JavaScript's ``Number.MAX_SAFE_INTEGER``, a C# double). A scenario holding an integer outside it is
refused naming the field, by ``explain`` and ``check --replay`` alike (exit 2, the usage error); one at
the edge runs through the model exactly. An answer is read and compared exactly at any size: a scenario
at the edge may have results outside the range, and a correct engine is never faulted for reporting them.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app

#: JavaScript's ``Number.MAX_SAFE_INTEGER``, written out here: the test states the number, not the code's name for it.
INTEGER_LIMIT = 9_007_199_254_740_991
ENGINE = ["--python", "referee.examples.engine:run", "--state-dir", ""]


def scenario(unit: dict, amount: int = 5) -> dict:
    return {"protocol": "referee/2", "board": [{"uid": "a", **unit}, {"uid": "b", "side": 1}],
            "actions": [{"kind": "damage", "target": "a", "amount": amount, "source": "b"}]}


#: (what, scenario, the field the refusal names).
OUTSIDE = [
    ("Vitality 10^300", scenario({"vitality": 10**300, "max_vitality": 10**300}), "scenario.board[0].vitality"),
    ("an action amount 10^300", scenario({}, amount=10**300), "scenario.actions[0].amount"),
    ("Vitality 2^53", scenario({"vitality": 2**53, "max_vitality": 2**53}), "scenario.board[0].vitality"),
    ("maximum Vitality 2^53", scenario({"vitality": 1, "max_vitality": 2**53}), "scenario.board[0].max_vitality"),
    ("Armor -2^53", scenario({"armor": -(2**53)}), "scenario.board[0].armor"),
]


def invoke(tmp_path, monkeypatch, data: dict, args: list[str]):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.json").write_text(json.dumps(data))
    return CliRunner().invoke(app, [*args, "s.json"])


@pytest.mark.parametrize("verb", [["explain"], ["check", *ENGINE, "--replay"]], ids=["explain", "replay"])
@pytest.mark.parametrize("what, data, field", OUTSIDE, ids=[case[0] for case in OUTSIDE])
def test_an_integer_outside_the_range_is_a_usage_error_naming_the_field(tmp_path, monkeypatch, verb, what, data,
                                                                         field):
    result = invoke(tmp_path, monkeypatch, data, verb)
    assert result.exit_code == 2, result.output
    assert f"{field}: expected an integer in -{INTEGER_LIMIT}..{INTEGER_LIMIT}" in result.output, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, (SystemExit, type(None)))


EDGE = scenario({"vitality": INTEGER_LIMIT, "max_vitality": INTEGER_LIMIT, "armor": -INTEGER_LIMIT},
                amount=INTEGER_LIMIT)


def test_the_last_integer_inside_runs_through_the_model_exactly(tmp_path, monkeypatch):
    """2^53 - 1 is accepted and runs: a damage of 2^53 - 1 against Armor -(2^53 - 1) kills the unit at 2^53 - 1."""
    result = invoke(tmp_path, monkeypatch, EDGE, ["explain"])
    assert result.exit_code == 0, result.output
    assert f"a: alive True -> False, vitality {INTEGER_LIMIT} -> 0" in result.output
    replayed = invoke(tmp_path, monkeypatch, EDGE, ["check", *ENGINE, "--replay"])
    assert replayed.exit_code == 0 and "PASS" in replayed.output, replayed.output


#: A Crush of 2^53 - 1 on Armor -(2^53 - 1): the final Armor, -(2^54 - 2), is outside the range.
CRUSH = {"protocol": "referee/2", "board": [{"uid": "a", "armor": -INTEGER_LIMIT}, {"uid": "b", "side": 1}],
         "actions": [{"kind": "armor_debuff", "target": "a", "amount": INTEGER_LIMIT, "debuff": "crush"}]}


def test_an_answer_outside_the_range_is_compared_exactly_not_refused(tmp_path, monkeypatch):
    """The range bounds what a scenario holds, not what it produces: a right answer of -(2^54 - 2) passes."""
    from referee.check.harness import model_observation

    assert model_observation(CRUSH).state.units[0].armor == -2 * INTEGER_LIMIT
    result = invoke(tmp_path, monkeypatch, CRUSH, ["check", *ENGINE, "--replay"])
    assert result.exit_code == 0 and "PASS" in result.output, result.output


def test_a_wrong_answer_outside_the_range_is_a_mismatch_at_its_field(tmp_path, monkeypatch):
    (tmp_path / "big_vitality.py").write_text(
        "from referee.examples.engine import run as clean\n\n"
        "def run(scenario):\n    out = clean(scenario)\n    out['board'][1]['vitality'] = 10**30\n    return out\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = invoke(tmp_path, monkeypatch, scenario({}), ["check", "--python", "big_vitality:run", "--state-dir", "",
                                                          "--replay"])
    assert result.exit_code == 1, result.output
    assert "board.b.vitality" in result.output and "1000000000000000000000000000000" in result.output, result.output


def test_the_range_is_javascripts_safe_integers():
    from referee import wire

    assert wire.INTEGER_LIMIT == INTEGER_LIMIT == 2**53 - 1


def test_a_value_held_in_many_places_is_walked_once():
    """The loader fuzz builds scenarios from Python objects that share lists; walking each place anew took the
    range check exponential time (2^60 visits here). Each list or dict is now checked once."""
    from referee.wire import ProtocolError, check_integer_range

    shared: list = [1]
    for _ in range(60):
        shared = [shared, shared]
    check_integer_range("scenario", {"board": shared})  # returns at once: nothing outside
    with pytest.raises(ProtocolError, match=r"scenario\.late: expected an integer"):
        check_integer_range("scenario", {"board": [[1]] * 3, "late": 2**53})


def test_an_integer_outside_the_range_behind_many_shared_places_is_named_at_once():
    """The path of the first integer outside is found by a second walk: it took exponential time too (the loader
    fuzz's 20,000 scenarios ran past ten minutes in CI once a mutation put an integer outside after a shared
    list). A list held in several places is walked at its first place only, and the path is the first in document
    order."""
    from referee.wire import ProtocolError, check_integer_range

    shared: list = [1]
    for _ in range(60):
        shared = [shared, shared]
    with pytest.raises(ProtocolError, match=r"scenario\.late: expected an integer"):
        check_integer_range("scenario", {"board": shared, "late": 2**53})
    bad: list = [2**53]
    for _ in range(60):
        bad = [bad, bad]
    with pytest.raises(ProtocolError, match=r"scenario\.board" + r"\[0\]" * 61 + r": expected"):
        check_integer_range("scenario", {"board": bad})
