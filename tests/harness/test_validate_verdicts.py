"""``referee validate`` claims only what it checked: a trace with no action is "nothing validated" (exit 5, never
PASS), and every header's protocol is the one this referee speaks (exit 2 naming the file, the line and the value)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.examples import engine
from referee.rulebooks.combat.battles import battle
from referee.wire import PROTOCOL

ROOT = Path(__file__).resolve().parents[2]


def _lines(actions: int = 6, seed: int = 5) -> list[str]:
    """The example engine's trace of a small battle: a header line (protocol referee/2), then one line per action."""
    out = io.StringIO()
    engine.write_trace(battle(seed, actions), out)
    return out.getvalue().splitlines()


def _validate(tmp_path, text: str, *flags: str):
    path = tmp_path / "match.jsonl"
    path.write_text(text)
    return path, CliRunner().invoke(app, ["validate", str(path), *flags])


def _header(**changes) -> str:
    header = json.loads(_lines()[0])
    header.update(changes)
    return json.dumps({k: v for k, v in header.items() if v is not None})


# -- nothing validated: exit 5, never PASS -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n   \n\t\n"], ids=["0-byte", "blank-lines"])
def test_a_trace_with_no_line_is_nothing_validated_not_a_pass(tmp_path, text):
    path, result = _validate(tmp_path, text)
    assert result.exit_code == 5, result.output
    assert f"referee validate {path}: nothing validated" in result.output and "PASS" not in result.output
    assert "no header line and no action line" in result.output


def test_headers_without_an_action_are_nothing_validated_not_a_pass(tmp_path):
    path, result = _validate(tmp_path, _header() + "\n\n" + _header() + "\n")
    assert result.exit_code == 5, result.output
    assert f"referee validate {path}: nothing validated: no action line in 2 trace(s)" in result.output
    assert "PASS" not in result.output


@pytest.mark.parametrize("text", ["", "\n \n", "{header}\n"], ids=["0-byte", "blank-lines", "header-only"])
def test_nothing_validated_in_json_is_not_a_pass(tmp_path, text):
    _, result = _validate(tmp_path, text.format(header=_header()), "--json")
    report = json.loads(result.output)
    assert (result.exit_code, report["status"], report["actions"]) == (5, "empty", 0)


def test_one_trace_of_a_file_with_actions_is_enough(tmp_path):
    """A file of several traces is validated when any of them holds an action: the count says how many ran."""
    _, result = _validate(tmp_path, _header() + "\n" + "\n".join(_lines(4)) + "\n")
    assert result.exit_code == 0, result.output
    assert "PASS: 4 actions in 2 trace(s)" in result.output


# -- the protocol of every header ----------------------------------------------------------------------------------


def test_a_header_of_the_older_protocol_is_refused_naming_file_line_and_versions(tmp_path):
    lines = _lines()
    path, result = _validate(tmp_path, "\n".join([*lines, _header(protocol="referee/1"), *lines[1:]]) + "\n")
    assert result.exit_code == 2, result.output
    line = len(lines) + 1
    assert f"referee validate: {path}: line {line}.protocol: the engine speaks 'referee/1', " \
           f"this referee {PROTOCOL!r}" in result.output
    assert "PASS" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("value", ["banana", 2])
def test_a_header_of_an_unknown_protocol_is_refused_naming_file_line_and_value(tmp_path, value):
    path, result = _validate(tmp_path, "\n".join([_header(protocol=value), *_lines()[1:]]) + "\n")
    assert result.exit_code == 2, result.output
    assert f"referee validate: {path}: line 1.protocol: expected {PROTOCOL!r}, got {json.dumps(value)}" in result.output
    _, as_json = _validate(tmp_path, "\n".join([_header(protocol=value), *_lines()[1:]]) + "\n", "--json")
    assert (as_json.exit_code, json.loads(as_json.output)["status"]) == (2, "error")


def test_a_good_trace_still_passes_and_a_header_may_leave_the_protocol_out(tmp_path):
    lines = _lines()
    _, result = _validate(tmp_path, "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert f"PASS: {len(lines) - 1} actions in 1 trace(s)" in result.output
    _, unversioned = _validate(tmp_path, "\n".join([_header(protocol=None), *lines[1:]]) + "\n")
    assert unversioned.exit_code == 0, unversioned.output


def test_the_published_trace_schema_holds_the_protocol_to_this_referees_and_leaves_it_optional():
    import jsonschema

    from referee.check.validate import trace_schema
    from referee.cli.schema import schema_text

    validator = jsonschema.Draft202012Validator(trace_schema())
    validator.validate(json.loads(_header()))
    validator.validate(json.loads(_header(protocol=None)))
    for value in ("referee/1", "banana"):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(json.loads(_header(protocol=value)))
    for folder in ("referee", "docs"):
        assert (ROOT / folder / "schema" / "trace.schema.json").read_text() == schema_text("trace"), \
            f"run: referee schema --out {folder}/schema"
