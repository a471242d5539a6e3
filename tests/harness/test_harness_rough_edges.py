"""The rough edges new users hit (issue 9), each a regression test; and the input domain (issue 13.7)."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app, no_wrap_off_tty
from referee.cli.check import parse_rules, state_locations
from referee.check.options import CHECK, replay_command, resolve
from referee.check.compare import Comparison
from referee.engines.transports import SubprocessEngine, add_import_paths
from referee.check.harness import CheckOptions, CheckReport, check
from referee.protocol import PROTOCOL, ProtocolError, decode_scenario

from conftest import engine_command, faulty_command

ROOT = Path(__file__).resolve().parents[2]
RUNNER = CliRunner()


def damage_scenario(**target) -> dict:
    unit = {"uid": "b", "side": 1, "row": 0, "col": 0, **target}
    return {"protocol": PROTOCOL, "board": [{"uid": "a", "side": 0, "row": 0, "col": 0}, unit],
            "actions": [{"kind": "damage", "target": "b", "amount": 3}]}


# --------------------------------------------------------------------------------------
# The crash report keeps a Node engine's error line (first lines) and its last lines
# --------------------------------------------------------------------------------------


def test_a_node_crash_report_keeps_the_error_line_and_the_last_line():
    engine = SubprocessEngine(faulty_command("nodecrash", 1), timeout=5)
    with engine:
        fault = engine.run_batch([damage_scenario()])[0]
    text = fault.describe()
    assert fault.kind == "crash"
    assert "/app/engine.js:42" in text  # the first line: where it threw
    assert "Node.js v20.11.1" in text  # the last line
    assert "lines not shown" in text  # the middle of the stack is cut, and says so
    assert "TypeError: Cannot read properties of undefined" in text


# --------------------------------------------------------------------------------------
# Usage errors: exit 2 with a message, never a traceback or a silent run
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--examples", "0"], "--examples 0"),
        (["-n", "-5"], "--examples -5"),
        (["--batch", "0"], "--batch 0"),
        (["--max-actions", "0"], "--max-actions 0"),
        (["--backend", "foo"], "--backend 'foo'"),
    ],
)
def test_bad_numbers_and_names_are_usage_errors(words, says):
    result = RUNNER.invoke(app, ["check", "--python", "referee.examples.engine:run", *words])
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_rounding_up_to_whole_batches_is_said_in_the_report():
    report = CheckReport("pass", "e", 1, Comparison(), scenarios_run=512, examples_requested=500, batch=32)
    assert "--examples 500 rounded up to 16 batches of 32 = 512" in report.text()
    assert report.to_json()["examples_requested"] == 500
    exact = CheckReport("pass", "e", 1, Comparison(), scenarios_run=64, examples_requested=64, batch=32)
    assert "rounded up" not in exact.text()


def test_check_says_how_it_rounded_examples_on_the_command_line(tmp_path):
    result = RUNNER.invoke(app, ["check", "--engine", engine_command(), "--kinds", "cost", "--examples", "5",
                                 "--batch", "4", "--seed", "1", "--state-dir", str(tmp_path / "state")])
    assert result.exit_code == 0, result.output
    assert "checked:  8 scenarios" in result.output
    assert "--examples 5 rounded up to 2 batches of 4 = 8" in result.output


# --------------------------------------------------------------------------------------
# --python finds a module in the current directory, or under --path (in the worker too)
# --------------------------------------------------------------------------------------

ADAPTER = "from referee.examples.engine import run as _run\n\ndef run(scenario):\n    return _run(scenario)\n"


def _referee(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    referee = Path(sys.executable).with_name("referee")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([str(referee), *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env)


def test_python_engine_module_in_the_current_directory_is_found(tmp_path):
    (tmp_path / "my_local_engine.py").write_text(ADAPTER)
    result = _referee("check", "--python", "my_local_engine:run", "--kinds", "cost", "--examples", "8",
                      "--seed", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS" in result.stdout


def test_python_engine_module_under_path_is_found(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "my_path_engine.py").write_text(ADAPTER)
    (tmp_path / "elsewhere").mkdir()
    missing = _referee("check", "--python", "my_path_engine:run", "--kinds", "cost", "--examples", "4",
                       cwd=tmp_path / "elsewhere")
    assert missing.returncode == 2 and "cannot import 'my_path_engine'" in missing.stderr
    found = _referee("check", "--path", str(tmp_path / "src"), "--python", "my_path_engine:run", "--kinds", "cost",
                     "--examples", "8", "--seed", "1", cwd=tmp_path / "elsewhere")
    assert found.returncode == 0, found.stdout + found.stderr


def test_add_import_paths_puts_path_then_cwd_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "lib").mkdir()
    add_import_paths([str(tmp_path / "lib")])
    assert sys.path[:2] == [str(tmp_path / "lib"), str(tmp_path)]
    with pytest.raises(ValueError, match="no such folder"):
        add_import_paths([str(tmp_path / "nope")])


# --------------------------------------------------------------------------------------
# Replay: a one-line file, the exact engine command, and the options kept
# --------------------------------------------------------------------------------------


def test_a_failure_writes_a_one_line_replay_and_prints_the_engine_command(tmp_path):
    command = engine_command("--mutant", "cap_off_by_one")
    options = CheckOptions(examples=600, seed=7, kinds=("damage",), database=None, state_dir=str(tmp_path / "st"),
                           command=f"referee check --engine {shlex.quote(command)} --kinds damage")
    with SubprocessEngine(command, timeout=10) as engine:
        report = check(engine, options)
    assert report.status == "mismatch"
    assert report.replay_engine.startswith(command + " < ")
    line_file = Path(shlex.split(report.replay_engine.split(" < ")[1])[0])
    assert line_file.parent == tmp_path / "st" / "failures" and line_file.suffix == ".jsonl"
    assert len(line_file.read_text().splitlines()) == 1
    assert f"straight into the engine (one JSON line): {report.replay_engine}" in report.text()
    shell = subprocess.run(report.replay_engine, shell=True, capture_output=True, text=True, timeout=60)
    answer = json.loads(shell.stdout)
    assert answer["id"] == "replay" and "board" in answer


def test_the_replay_command_keeps_timeout_batch_ruleset_database_state_dir_and_path():
    words = replay_command(resolve(CHECK, {"engine": "./engine", "examples": 100, "kinds": "damage",
                                           "ruleset": ["negative_armor=reciprocal"], "timeout": 2.0, "batch": 8,
                                           "database": "/tmp/db", "state_dir": "/tmp/state", "path": ["src"]}, None))
    for part in ("--timeout 2", "--batch 8", "--ruleset negative_armor=reciprocal", "--database /tmp/db",
                 "--state-dir /tmp/state", "--path src"):
        assert part in words
    assert "--database" in replay_command(resolve(CHECK, {"engine": "e", "examples": 1, "database": ""}, None))


# --------------------------------------------------------------------------------------
# One --state-dir; nothing in the current directory with --database ''
# --------------------------------------------------------------------------------------


def test_state_locations():
    assert state_locations(None, ".referee") == (".referee/examples", ".referee")
    assert state_locations(None, "/s") == ("/s/examples", "/s")
    assert state_locations("", ".referee") == ("", None)  # --database '': nothing in the cwd
    assert state_locations(None, "") == ("", None)
    assert state_locations("/db", ".referee") == ("/db", ".referee")


@pytest.mark.parametrize("words", [["--database", ""], ["--state-dir", ""]])
def test_nothing_is_written_into_the_current_directory(tmp_path, monkeypatch, words):
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["check", "--engine", engine_command("--mutant", "cap_off_by_one"), "--kinds", "damage",
                                 "--examples", "300", "--seed", "7", *words])
    assert result.exit_code == 1, result.output
    assert list(tmp_path.iterdir()) == []
    assert "--replay" in result.output and "referee-failures" in result.output


@pytest.mark.parametrize("words", [["--database", ""], []])
def test_a_fresh_process_writes_no_hypothesis_folder_into_the_current_directory(tmp_path, words):
    """Hypothesis writes ``.hypothesis/`` (its constants cache) into the directory the process starts in
    unless told otherwise; ``referee check`` sends it to the state dir, or to the temporary folder."""
    subprocess.run([sys.executable, "-c", "from referee.cli.app import main; main()", "check", "--python", "referee.examples.engine:run",
                    "--kinds", "cost", "--examples", "32", "--seed", "1", *words],
                   cwd=tmp_path, check=True, capture_output=True, timeout=300)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.iterdir())
    assert written == [] if words else set(written) <= {".referee"}  # Hypothesis' cache, when it writes one
    assert not (tmp_path / ".hypothesis").exists()


def test_state_dir_holds_the_database_and_the_failures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["check", "--engine", engine_command("--mutant", "cap_off_by_one"), "--kinds", "damage",
                                 "--examples", "300", "--seed", "7", "--state-dir", "st"])
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["st"]
    assert (tmp_path / "st" / "examples").is_dir() and list((tmp_path / "st" / "failures").glob("*.jsonl"))
    assert "--state-dir st" in result.output


# --------------------------------------------------------------------------------------
# Output and help
# --------------------------------------------------------------------------------------


def test_no_wrapping_off_a_tty():
    environ: dict[str, str] = {}
    assert no_wrap_off_tty(io.StringIO(), environ) and int(environ["COLUMNS"]) >= 1000
    assert not no_wrap_off_tty(io.StringIO(), {"COLUMNS": "90"})  # the user's COLUMNS wins


def test_piped_output_keeps_long_lines_whole(tmp_path):
    referee = Path(sys.executable).with_name("referee")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    out = subprocess.run([str(referee), "clauses", "show", "combat:500.2c"], capture_output=True, text=True,
                         timeout=120, env=env, cwd=ROOT).stdout
    assert any(len(line) > 80 for line in out.splitlines()), out  # Rich would have wrapped at 80


def test_flags_do_not_show_a_bool_type_in_help():
    result = RUNNER.invoke(app, ["check", "--help"])
    assert "--json" in result.output and "<bool>" not in result.output
    assert "<int>" in result.output  # options that take a value still show it


# --------------------------------------------------------------------------------------
# --ruleset name=value everywhere (check and query share one parser)
# --------------------------------------------------------------------------------------


def test_query_takes_ruleset_as_name_value_like_check():
    assert parse_rules(["negative_armor=reciprocal"])["combat"].negative_armor == "reciprocal"
    bad = RUNNER.invoke(app, ["query", "target.shield > 0", "--ruleset", '{"negative_armor": "reciprocal"}'])
    assert bad.exit_code == 2 and "expected name=value" in bad.output and "not JSON" in bad.output
    unknown = RUNNER.invoke(app, ["query", "target.shield > 0", "--ruleset", "nope=1"])
    assert unknown.exit_code == 2 and "unknown ruleset option 'nope'" in unknown.output


def test_query_runs_under_a_name_value_reading():
    result = RUNNER.invoke(app, ["query", "amount > 0", "--ruleset", "negative_armor=reciprocal", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["status"] == "found" and answer["scenario"]["ruleset"]["negative_armor"] == "reciprocal"


# --------------------------------------------------------------------------------------
# Docs errors
# --------------------------------------------------------------------------------------


def test_index_lists_each_page_once():
    lines = [line for line in (ROOT / "docs" / "index.md").read_text().splitlines() if line.startswith("- [")]
    assert len(lines) == len(set(lines))


def test_guide_lists_every_kind_and_the_plugin_output():
    from referee.rulebooks import ACTION_KINDS

    guide = (ROOT / "docs" / "guide-check-your-engine.md").read_text()
    kinds_paragraph = guide.split("`--kinds` limits the scenarios", 1)[1].split("\n\n", 1)[0]
    for kind in ACTION_KINDS:
        assert f"`{kind}`" in kinds_paragraph, kind
    assert "referee::cost PASSED" in guide and "referee::damage PASSED" in guide and "referee[cost]" not in guide
    assert "SubprocessEngine(...)" not in guide and 'SubprocessEngine("node engine.js", timeout=' in guide


def test_guide_commands_use_only_options_the_verbs_accept():
    """Every `referee ...` and `pytest ...` command in the guide's shell blocks names only options that
    `referee <verb> --help` (or the plugin) lists: the guide says exactly what a new user types."""
    import re

    guide = (ROOT / "docs" / "guide-check-your-engine.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", guide, re.S)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith(("referee ", "pytest ")):
                commands.append(line)
    assert len(commands) >= 8
    plugin_options = {"--referee-engine", "--referee-python", "--referee-examples", "--referee-seed", "--referee-kinds",
                      "--referee-features", "--referee-without", "--referee-compare", "--referee-fields",
                      "--referee-events", "--referee-timeout", "-v", "-q"}
    for command in commands:
        words = shlex.split(command)
        options = {w.split("=", 1)[0] for w in words if w.startswith("-")}
        if words[0] == "pytest":
            assert options <= plugin_options, command
            continue
        verb = words[1:3] if words[1] in ("vectors", "report") else words[1:2]
        result = RUNNER.invoke(app, [*verb, "--help"], terminal_width=200)
        assert result.exit_code == 0, command
        for option in options:
            assert option in result.output, f"{command}: {option} is not an option of referee {' '.join(verb)}"


def test_proofs_page_states_the_jobs_default():
    page = (ROOT / "docs" / "proofs.md").read_text()
    assert "default: the number of cores, at most 4" in page


# --------------------------------------------------------------------------------------
# The input domain: exactly what the theorems assume (issue 13.7)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "path", "says"),
    [
        ({"vitality": -5}, "scenario.board[1].vitality", "must be > 0 while alive"),
        ({"vitality": 0}, "scenario.board[1].vitality", "must be > 0 while alive"),
        ({"vitality": 101, "max_vitality": 100}, "scenario.board[1].vitality", "must be <= max_vitality"),
        ({"max_vitality": -1, "vitality": 0, "alive": False}, "scenario.board[1].max_vitality", "must be >= 0"),
        ({"max_vitality": 0, "vitality": 0}, "scenario.board[1].max_vitality", "must be > 0 while alive"),
        ({"cap": -1}, "scenario.board[1].cap", "must be >= 0"),
        ({"redirect_cap": -1}, "scenario.board[1].redirect_cap", "must be >= 0"),
        ({"shield_multiplier": 0}, "scenario.board[1].shield_multiplier", "must be >= 1"),
        ({"row": 8}, "scenario.board[1].row", "outside its half"),
        ({"col": -1}, "scenario.board[1].col", "outside its half"),
        ({"alive": False, "vitality": 3}, "scenario.board[1].vitality", "must be 0 once dead"),
        ({"shield": -1}, "scenario.board[1].shield", "must be >= 0"),
        ({"insurance": -1}, "scenario.board[1].insurance", "must be >= 0"),
        ({"vessels": -2}, "scenario.board[1].vessels", "must be >= 0"),
        ({"is_tool": True, "is_hub": True, "is_boss": True}, "scenario.board[1].is_hub", "at most one of Tool"),
        ({"is_boss": True, "is_tool": True}, "scenario.board[1].is_boss", "at most one of Tool"),
        ({"redirect_to": "b"}, "scenario.board[1].redirect_to", "cannot name itself"),
        ({"redirect_to": "a"}, "scenario.board[1].redirect_to", "is an enemy"),
        ({"intercept_by": "a"}, "scenario.board[1].intercept_by", "is an enemy"),
    ],
)
def test_units_outside_the_proved_domain_are_rejected_naming_the_field(target, path, says):
    with pytest.raises(ProtocolError) as caught:
        decode_scenario(damage_scenario(**target))
    assert caught.value.path == path and says in str(caught.value)


def test_the_loader_and_the_theorems_read_one_declaration():
    """Each condition of UNIT_DOMAIN, broken alone, is rejected by the loader and false for the theorems."""
    from dataclasses import replace

    from referee.model.combat.state import Unit
    from referee.model.combat.legal import UNIT_DOMAIN, is_legal_unit, unit_domain_violation

    good = Unit("u")
    assert is_legal_unit(good) is True and unit_domain_violation(good) is None
    breakers = {"max_vitality": dict(max_vitality=0, vitality=0), "shield_multiplier": dict(shield_multiplier=0),
                "is_hub": dict(is_tool=True, is_hub=True),
                "is_boss": dict(is_hub=True, is_boss=True)}
    for condition in UNIT_DOMAIN:
        if condition.field == "vitality":
            continue  # three conditions on one field: covered by the parametrized test
        bad = replace(good, **breakers.get(condition.field, {condition.field: -1}))
        assert not is_legal_unit(bad) and unit_domain_violation(bad) is not None, condition


def test_a_redirect_cycle_between_allies_stays_legal():
    scenario = {"protocol": PROTOCOL, "board": [
        {"uid": "a", "side": 1, "row": 0, "col": 0, "redirect_to": "b", "redirect_cap": 5},
        {"uid": "b", "side": 1, "row": 0, "col": 1, "redirect_to": "a", "redirect_cap": 5},
    ], "actions": [{"kind": "damage", "target": "a", "amount": 9}]}
    decode_scenario(scenario)


def test_the_generator_draws_only_inside_the_domain():
    from hypothesis import HealthCheck, given, settings

    from referee.rulebooks import default_kinds
    from referee.check.strategies import scenarios

    @settings(max_examples=300, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(scenarios(kinds=default_kinds(), max_actions=2))
    def drawn(scenario):
        decode_scenario(scenario)

    drawn()
