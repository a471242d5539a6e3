"""Hostile engines never hang CI, crash the harness or lose a found bug (issue 13).

Each test drives one fault mode of ``faulty_engine.py``: an engine that never answers its
first line or closes stdin at start (a dead start: no restart storm, the real wait stated,
the run's engine time bounded); a child process holding stdout open (no blocking past the
timeout, the whole process group killed); SIGTERM to referee; an engine keeping state
(a non-deterministic engine, reported, not a Hypothesis traceback); control characters and
a 200 MB stderr (well-formed, bounded reports); in-process faults (non-JSON values,
``os._exit``, a bare ``except:``); and ``--timeout`` values that mean nothing.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.engines.transports import (
    EngineFault,
    PythonEngine,
    StreamCapture,
    SubprocessEngine,
    check_answer,
    make_engine,
)
from referee.examples.engine import run as clean_engine
from referee.examples.mutants import load
from referee.check.harness import CheckOptions, check
from referee.protocol import PROTOCOL

from conftest import HERE, TOKEN, faulty_command, processes_marked


def scenario(i: int) -> dict:
    return {
        "protocol": PROTOCOL,
        "id": f"s{i}",
        "board": [{"uid": "a", "armor": 81}, {"uid": "b", "side": 1}],
        "actions": [{"kind": "damage", "target": "a", "amount": 87 + i, "source": "b"}],
    }


def judged(engine, count: int) -> list:
    batch = [scenario(i) for i in range(count)]
    return [check_answer(a, s, fields_needed=None, events_needed=True) for a, s in zip(engine.run_batch(batch), batch)]


@pytest.fixture
def importable_faulty(monkeypatch):
    """``faulty_engine`` importable by name (for ``--python faulty_engine:MODE_at_N``), here and in a worker."""
    monkeypatch.syspath_prepend(str(HERE))


# -- 1. dead starts and the run's engine time ---------------------------------------------


@pytest.mark.parametrize("mode", ["hang", "closestdin", "exitstart"])
def test_a_dead_start_fails_the_rest_of_the_run_at_once_and_states_the_real_wait(mode):
    started = time.monotonic()
    with SubprocessEngine(faulty_command(mode, 1), timeout=0.3, startup_grace=0.4, batch_size=6) as engine:
        results = judged(engine, 6)
        later = judged(engine, 3)  # a later batch: no restart either
        assert engine.restarts == 1
    assert time.monotonic() - started < 4, "one wait for the dead start, not one per scenario"
    assert all(isinstance(r, EngineFault) for r in results + later)
    first = results[0]
    assert "dead start" in first.message
    if first.kind == "hang":
        assert "(--timeout 0.3 s + 0.4 s startup grace)" in first.message
        assert "no answer within 0.7 s" in first.message or "no answer within 0.8 s" in first.message
    else:
        assert first.kind == "crash" and "status 0" in first.message
    assert all(r.message.startswith("not run: the engine is not restarted after a dead start") for r in results[1:] + later)


def test_an_engine_that_closes_its_output_and_runs_on_is_said_so_and_stopped():
    with SubprocessEngine(faulty_command("closestdout", 1), timeout=0.5, startup_grace=0.5, batch_size=2) as engine:
        fault = judged(engine, 2)[0]
        assert isinstance(fault, EngineFault) and fault.kind == "crash"
        assert "closed its standard output but kept running (it was stopped)" in fault.message, fault.message
        assert "status None" not in fault.message
        left = subprocess.run(["pgrep", "-f", "faulty_engine.py closestdout"], capture_output=True, text=True)
        assert left.stdout.strip() == "", "the engine is not left running"


def test_the_default_startup_wait_is_stated_in_the_message():
    with SubprocessEngine(faulty_command("hang", 1), timeout=0.2, startup_grace=0.3) as engine:
        fault = judged(engine, 1)[0]
    assert "--timeout 0.2 s + 0.3 s startup grace" in fault.message


def test_the_whole_run_waits_on_the_engine_at_most_its_budget():
    # Every second scenario of each process hangs: without a budget each costs a timeout.
    started = time.monotonic()
    with SubprocessEngine(faulty_command("hang", 2), timeout=0.4, startup_grace=0.1, engine_budget=1.0) as engine:
        results = judged(engine, 12)
    assert time.monotonic() - started < 5
    assert not isinstance(results[0], EngineFault)
    spent = [r for r in results if isinstance(r, EngineFault) and "--engine-budget 1 s" in r.message]
    assert spent, [getattr(r, "message", r) for r in results]
    assert spent[-1].message.startswith("not run: the run's engine time is spent")


# -- 2. process groups, pipes held open, SIGTERM ------------------------------------------


def test_a_daemon_holding_stdout_open_does_not_block_a_correct_engine():
    started = time.monotonic()
    with SubprocessEngine(faulty_command("daemon"), timeout=5, batch_size=4) as engine:
        results = judged(engine, 4)
    assert not any(isinstance(r, EngineFault) for r in results)
    assert time.monotonic() - started < 4, "closing must not wait for the daemon to close stdout"
    # the no_process_left_behind fixture checks that the daemon died with the engine's group


def test_a_crash_is_seen_at_once_while_a_daemon_holds_stdout_open():
    started = time.monotonic()
    with SubprocessEngine(faulty_command("daemoncrash", 2), timeout=5, batch_size=3) as engine:
        results = judged(engine, 3)
        assert engine.restarts == 1
    assert isinstance(results[1], EngineFault) and results[1].kind == "crash"
    assert "status 3" in results[1].message and "deliberate crash" in results[1].detail
    assert not isinstance(results[2], EngineFault)
    assert time.monotonic() - started < 4, "the exit is noticed without waiting for EOF or the timeout"


def test_sigterm_to_referee_kills_the_engine_group_and_exits_cleanly(tmp_path):
    command = ["check", "--engine", faulty_command("daemoncrash", 10**6) + " ", "--examples", "100000", "--database", ""]
    # a daemon and an engine that answers forever: referee runs until it is told to stop
    code = "import sys; from referee.cli.app import main; sys.argv = ['referee'] + sys.argv[1:]; main()"
    referee = subprocess.Popen([sys.executable, "-c", code, *command], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    token = os.environ[TOKEN]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sum("faulty_engine" in p or "time.sleep" in p for p in processes_marked(token)) < 2:
        time.sleep(0.1)
    assert sum("time.sleep" in p for p in processes_marked(token)) == 1, processes_marked(token)
    referee.send_signal(signal.SIGTERM)
    out, err = referee.communicate(timeout=20)
    assert referee.returncode == 128 + signal.SIGTERM, err.decode()[-2000:]
    assert b"engine processes killed" in err and b"Traceback" not in err
    # the fixture checks that neither the engine nor its daemon is left


# -- 3. a non-deterministic engine --------------------------------------------------------


def test_an_engine_keeping_state_is_reported_as_non_deterministic(in_tmp):
    with SubprocessEngine(faulty_command("flaky", 3), timeout=5, batch_size=8) as engine:
        report = check(engine, CheckOptions(examples=40, seed=1, database=None))
    assert report.status == "nondeterministic", report.text()
    verdicts = [o["verdict"] for o in report.observations]
    assert verdicts[0] == "mismatch" and "agrees with the model" in verdicts[1:]
    assert report.scenario and report.divergences and "vitality" in report.divergences[0].describe()
    assert "non-deterministic engine" in report.text() and "--replay" in report.replay


def test_check_cli_reports_a_non_deterministic_engine_with_junit_and_replay_file(in_tmp):
    args = ["check", "--engine", faulty_command("flaky", 3), "--examples", "40", "--seed", "1", "--database", "",
            "--junit", "report.xml"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output
    assert "non-deterministic engine" in result.output
    assert "Traceback" not in result.output and "Flaky" not in result.output
    assert ET.parse(in_tmp / "report.xml").getroot().find(".//failure") is not None
    replay_path = result.output.split("--replay ")[-1].split()[0]
    assert json.loads(Path(replay_path).read_text())["actions"]


# -- 4. the example database is keyed by engine and options -------------------------------


def _stored(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def test_a_saved_failure_survives_another_engines_and_other_options_passing_runs(in_tmp):
    database = ".referee/examples"
    mutant = PythonEngine(load("cost_spends_shield").run)
    first = check(mutant, CheckOptions(kinds=("cost",), examples=500, seed=3, database=database))
    assert first.status == "mismatch"
    saved = _stored(in_tmp / database)
    assert saved
    for kinds in (("cost",), ("damage",)):  # another engine; then other --kinds too
        passing = check(PythonEngine(clean_engine), CheckOptions(kinds=kinds, examples=60, seed=3, database=database))
        assert passing.status == "pass"
    assert saved <= _stored(in_tmp / database), "another engine's passing run erased the saved failure"
    again = check(mutant, CheckOptions(kinds=("cost",), examples=500, seed=98765, database=database))
    assert again.status == "mismatch" and again.first_failure_after == 1


# -- 5. control characters and a huge stderr ----------------------------------------------


def test_control_characters_in_stderr_keep_the_junit_report_well_formed(in_tmp):
    args = ["check", "--engine", faulty_command("ctrlstderr", 2), "--examples", "10", "--seed", "1", "--database", "",
            "--junit", "report.xml"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output
    failure = ET.parse(in_tmp / "report.xml").getroot().find(".//failure")
    assert "bad \\x00\\x01\\x08\\x0b\\x1b[31mred" in failure.text


def test_vectors_junit_is_well_formed_with_control_characters(tmp_path):
    from referee.cli.vectors import _write_junit
    from referee.vectors.suite import VectorResult

    bad = VectorResult("v/1.json", ["combat:500.2c"], "fault", "engine fault (crash): \x00\x1b[0m\x07 stderr")
    _write_junit(str(tmp_path / "v.xml"), {"combat:500.2c": [bad]})
    assert "\\x1b[0m" in ET.parse(tmp_path / "v.xml").getroot().find(".//failure").text


def test_prove_junit_is_well_formed_with_control_characters(tmp_path):
    from referee.report.junit import write_junit

    write_junit(tmp_path / "p.xml", "s", [{"name": "t\x01", "classname": "c", "seconds": 0.0,
                                          "failure": "bad\x00 line\nmore\x1b", "output": "\x0c"}], 0.0)
    root = ET.parse(tmp_path / "p.xml").getroot()
    assert root.find(".//failure").get("message") == "bad\\x00 line"


def test_a_200_mb_stderr_keeps_its_first_and_last_lines_and_bounded_reports(in_tmp):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    args = ["check", "--engine", faulty_command("bigstderr", 1) + " 200", "--examples", "5", "--seed", "1",
            "--database", "", "--junit", "report.xml", "--json"]
    result = CliRunner().invoke(app, args)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert result.exit_code == 3, result.output[-3000:]
    detail = json.loads(result.output)["fault"]["detail"]
    assert "damage.js:12" in detail and "TypeError: the last line of the stack" in detail
    total = int(detail.split("bytes of stderr left out; ")[1].split(" bytes in all")[0].replace(",", ""))
    assert total >= 200 * 2**20
    assert len(result.output) < 64 * 1024
    assert (in_tmp / "report.xml").stat().st_size < 64 * 1024
    assert "damage.js:12" in (in_tmp / "report.xml").read_text()
    assert grown < 100 * 1024, f"the harness grew by {grown // 1024} MiB reading a 200 MB stderr"


def test_stream_capture_keeps_head_tail_and_total():
    capture = StreamCapture(head=10, tail=10)
    for _ in range(1000):
        capture.feed(b"0123456789" * 7)
    text = capture.text()
    assert text.startswith("0123456789\n[... 69,980 bytes") and text.endswith("0123456789")
    assert capture.total == 70000 and len(capture.head) == 10 and len(capture.tail) <= 20


def test_a_fault_description_shows_the_first_lines_of_a_long_detail():
    detail = "engine.js:12 the error\n" + "".join(f"  at frame {i}\n" for i in range(100))
    shown = EngineFault("crash", "it crashed", None, detail).describe()
    assert "engine.js:12 the error" in shown and "at frame 99" in shown and "lines not shown" in shown


# -- 8. Python engines: a worker process by default, hardened in-process ------------------


@pytest.mark.parametrize("mode, kind, text", [
    ("decimal", "schema", "observation.board[0].vitality: a Decimal"),
    ("set", "schema", "observation.events: a set"),
    ("osexit", "crash", "exited (status 0)"),
    ("raise", "crash", "deliberate engine bug"),
])
def test_python_worker_reports_what_in_process_could_not(mode, kind, text, importable_faulty):
    with make_engine(f"faulty_engine:{mode}_at_2", None, 2.0, 4) as engine:
        results = judged(engine, 3)
    assert isinstance(results[1], EngineFault), results[1]
    assert results[1].kind == kind and text in results[1].message, results[1].message
    assert not isinstance(results[0], EngineFault) and not isinstance(results[2], EngineFault)


def test_python_worker_kills_an_engine_that_swallows_the_timeout(importable_faulty):
    started = time.monotonic()
    with make_engine("faulty_engine:bareexcept_at_2", None, 0.5, 4) as engine:
        results = judged(engine, 2)
    assert isinstance(results[1], EngineFault) and results[1].kind == "hang"
    assert time.monotonic() - started < 6, "--timeout 0.5 was defeated"


def test_python_worker_keeps_the_engines_prints_off_the_protocol(importable_faulty):
    with make_engine("faulty_engine:print_at_1", None, 5.0, 4) as engine:
        results = judged(engine, 2)
    assert not any(isinstance(r, EngineFault) for r in results), results


def test_check_cli_with_an_engine_calling_os_exit_is_a_fault_not_a_pass(importable_faulty, in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "faulty_engine:osexit_at_3", "--examples", "20",
                                      "--seed", "1", "--database", ""])
    assert result.exit_code == 3, result.output
    assert "exited (status 0) before answering" in result.output


def test_check_cli_in_process_opt_in_passes_the_clean_engine(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process",
                                      "--examples", "20", "--seed", "1", "--database", ""])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("mode, kind, text", [
    ("decimal", "schema", "observation.board[0].vitality: a Decimal"),
    ("set", "schema", "observation.events: a set"),
])
def test_in_process_non_json_answer_is_a_fault(mode, kind, text, faulty):
    fault = PythonEngine(faulty.make(mode, 1)).run_one(scenario(0))
    assert isinstance(fault, EngineFault) and fault.kind == kind and text in fault.message


def test_in_process_timeout_survives_a_bare_except(faulty):
    started = time.monotonic()
    fault = PythonEngine(faulty.make("swallowonce", 1), timeout=0.3).run_one(scenario(0))
    assert isinstance(fault, EngineFault) and fault.kind == "hang"
    assert time.monotonic() - started < 2


def test_in_process_answer_after_swallowing_every_interrupt_is_still_a_hang(faulty):
    fault = PythonEngine(faulty.make("bareexcept", 1, size=1.0), timeout=0.2).run_one(scenario(0))
    assert isinstance(fault, EngineFault) and fault.kind == "hang"
    assert "caught the harness's timeout interrupt" in fault.message


# -- 13. timeouts that mean nothing -------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
@pytest.mark.parametrize("engine", [["--python", "referee.examples.engine:run"], ["--engine", "cat"]])
def test_a_timeout_that_is_not_positive_is_a_usage_error(value, engine, in_tmp):
    result = CliRunner().invoke(app, ["check", *engine, "--timeout", value, "--examples", "3"])
    assert result.exit_code == 2, result.output
    assert "--timeout" in result.output and "positive number of seconds" in result.output
    assert "Traceback" not in result.output


def test_vectors_run_rejects_a_negative_timeout(tmp_path):
    (tmp_path / "manifest.json").write_text("{}")
    result = CliRunner().invoke(app, ["vectors", "run", str(tmp_path), "--engine", "cat", "--timeout", "-1"])
    assert result.exit_code == 2 and "positive number of seconds" in result.output


def test_the_replay_command_keeps_timeout_and_batch(in_tmp):
    args = ["check", "--engine", faulty_command("crash", 2), "--examples", "10", "--seed", "1", "--database", "",
            "--timeout", "2.5", "--batch", "4", "--json"]
    replay = json.loads(CliRunner().invoke(app, args).output)["replay"]
    assert "--timeout 2.5 --batch 4" in replay


def test_an_invalid_replay_scenario_is_a_usage_error_not_a_divergence(in_tmp):
    (in_tmp / "bad.json").write_text(json.dumps({"protocol": PROTOCOL, "board": "nope", "actions": []}))
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--replay", "bad.json"])
    assert result.exit_code == 2, result.output
    assert "invalid scenario" in result.output and "Traceback" not in result.output


def _raise_a_megabyte(scenario: dict) -> dict:
    raise ValueError("x" * 2**20)


def test_a_huge_exception_is_kept_bounded_in_message_and_traceback():
    fault = PythonEngine(_raise_a_megabyte).run_one(scenario(0))
    assert fault.kind == "crash" and fault.message.endswith("(1,048,576 characters)") and len(fault.message) < 1000
    assert len(fault.detail) < 16 * 1024 and "bytes of traceback left out" in fault.detail
    assert fault.detail.startswith("Traceback")


def _slow(scenario: dict) -> dict:
    time.sleep(0.15)
    return clean_engine(scenario)


def test_an_in_process_engine_is_held_to_the_engine_budget_too():
    engine = PythonEngine(_slow, timeout=1, engine_budget=0.4)
    results = [engine.run_one(scenario(i)) for i in range(6)]
    assert not isinstance(results[0], EngineFault)
    assert all(isinstance(r, EngineFault) and "engine time is spent" in r.message for r in results[3:])


def test_vectors_run_with_a_dead_engine_fails_fast_not_once_per_vector(tmp_path):
    vector = {"scenario": {k: v for k, v in scenario(0).items() if k != "id"},
              "expected": clean_engine(scenario(0)), "clauses": ["combat:500.2c"]}
    for i in range(200):  # a vector listed twice is refused: 200 files
        (tmp_path / f"v{i}.json").write_text(json.dumps(vector))
    entries = [{"path": f"v{i}.json", "clauses": ["combat:500.2c"]} for i in range(200)]
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "referee-vectors/1", "vectors": entries}))
    started = time.monotonic()
    result = CliRunner().invoke(app, ["vectors", "run", str(tmp_path), "--engine", faulty_command("exitstart", 1),
                                      "--batch", "8", "--json"])
    assert time.monotonic() - started < 10
    assert result.exit_code == 3, result.output[-2000:]
    report = json.loads(result.output)
    # the first vector's fault is the dead start; the other 199 did not run: not run, never faults (issue 25)
    assert len(report["failed"]) == 1 and "dead start" in report["failed"][0]["detail"]
    assert report["not_run"] == 199 and "dead start" in report["stopped"]
