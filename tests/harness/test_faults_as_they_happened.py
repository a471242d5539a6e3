"""Faults and runs reported as they happened: one run merged twice, a dead start's scenario, a worker's crash
under ``--workers``, stored failures replayed before the new stream.

1. ``report merge A.json A.json`` counted one run twice: every check report has a run id, and a run given twice
   is refused (exit 2, naming both files); a report written before run ids is known by its content.
2. An engine whose answers reached referee only after it died was taken for a dead start on the first scenario
   (which it answers fine); the scenario at fault is the one after its last answer.
3. ``--workers 2``: idle pool workers, forked with the running phase's handlers, took the pool's terminate() for a
   user's SIGTERM ("stopped by SIGTERM", ``ForkPoolWorker`` tracebacks) on runs nobody signalled.
4. A stored failure replayed first, without a word: the first line of the report now says so.
5. An engine that holds its answers until it has read the batch (or block-buffers stdout) and dies on the batch's
   second scenario wrote no answer: the fault was the first scenario, which it answers fine, and the printed
   "straight into the engine" command did not crash it. The death is now confirmed in fresh engines: the scenario
   that kills one alone, else the batch's prefix that does ("needs the sequence"), else "not confirmed".

The console command runs in a child process where a signal handler matters (``referee`` as installed); every run
has its own ``--state-dir`` in ``tmp_path``.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from referee.cli.app import app

REFEREE = str(Path(sys.executable).with_name("referee"))
RUNNER = CliRunner()
MUTANT = "referee.examples.mutants:cap_off_by_one"


def _check_json(tmp_path: Path, seed: int, name: str) -> Path:
    """A passing run's ``--json`` report, written to ``tmp_path / name``."""
    result = RUNNER.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "-n", "32",
                                 "--seed", str(seed), "--state-dir", str(tmp_path / "state"), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    path = tmp_path / name
    path.write_text(result.stdout)
    return path


# -- 1. one run given twice to report merge ------------------------------------------------


def test_one_report_given_twice_is_refused_naming_both_files(tmp_path):
    a = _check_json(tmp_path, 1, "a.json")
    assert json.loads(a.read_text())["run_id"], "every --json report has a run id"
    result = RUNNER.invoke(app, ["report", "merge", str(a), str(a)])
    assert result.exit_code == 2, result.output
    assert f"{a} and {a} hold the same run" in result.output and "counted twice" in result.output


def test_a_copy_of_a_report_written_before_run_ids_is_known_by_its_content(tmp_path):
    data = json.loads(_check_json(tmp_path, 1, "a.json").read_text())
    del data["run_id"], data["stored_failures"]  # as written before either existed
    old, copy = tmp_path / "old.json", tmp_path / "copy.json"
    old.write_text(json.dumps(data))
    copy.write_text(json.dumps(data, indent=4))  # the same report, laid out otherwise
    result = RUNNER.invoke(app, ["report", "merge", str(old), str(copy)])
    assert result.exit_code == 2 and f"{copy} and {old} hold the same run" in result.output, result.output


def test_a_merged_report_merged_again_with_one_of_its_runs_is_refused_and_two_runs_still_merge(tmp_path):
    a, b = _check_json(tmp_path, 1, "a.json"), _check_json(tmp_path, 2, "b.json")
    merged = tmp_path / "merged.json"
    result = RUNNER.invoke(app, ["report", "merge", str(a), str(b), "--out", str(merged)])
    assert result.exit_code == 0 and "64 scenarios (seeds 1, 2)" in result.output, result.output
    runs = json.loads(merged.read_text())["run_ids"]
    assert runs == [json.loads(a.read_text())["run_id"], json.loads(b.read_text())["run_id"]]
    result = RUNNER.invoke(app, ["report", "merge", str(merged), str(b)])
    assert result.exit_code == 2 and f"{b} and {merged} hold the same run" in result.output, result.output


def test_the_workers_merged_report_has_a_run_id_of_its_own(tmp_path):
    result = RUNNER.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "-n", "64",
                                 "--seed", "3", "--workers", "2", "--state-dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.stdout)
    assert report["workers"] == 2 and len(report["run_id"]) == 32


# -- 2. the scenario of a fault: the one after the engine's last answer -----------------------

#: An engine whose answers pass through a relay it started (a wrapper handing its output on), so that they reach
#: referee after the engine itself has died. It dies on the second scenario it reads, and on any scenario equal to
#: that one afterwards (so the printed "straight into the engine" command reproduces the crash), writing the line it
#: died on to ``died.jsonl``.
LATE_ANSWERS = """
import json, os, subprocess, sys
from referee.examples.engine import run

folder = sys.argv[1]
poison = os.path.join(folder, "died.jsonl")
RELAY = "import sys, time\\nfor n, line in enumerate(sys.stdin.buffer):\\n    time.sleep(0.4 if n == 0 else 0)\\n" \\
        "    sys.stdout.buffer.write(line)\\n    sys.stdout.buffer.flush()\\n"
relay = subprocess.Popen([sys.executable, "-c", RELAY], stdin=subprocess.PIPE)  # the first answer a little late
for count, line in enumerate(sys.stdin, start=1):
    scenario = json.loads(line)
    content = {k: v for k, v in scenario.items() if k != "id"}
    known = json.loads(open(poison).read()) if os.path.exists(poison) else None
    if content == known or (known is None and count == 2):
        open(poison, "w").write(json.dumps(content))
        os._exit(9)
    relay.stdin.write((json.dumps(run(scenario)) + "\\n").encode())
    relay.stdin.flush()
"""


def test_a_fault_is_the_scenario_the_engine_died_on_not_the_first_it_answered(tmp_path):
    script = tmp_path / "late_engine.py"
    script.write_text(LATE_ANSWERS)
    engine = shlex.join([sys.executable, str(script), str(tmp_path)])
    result = RUNNER.invoke(app, ["check", "--engine", engine, "-n", "32", "--batch", "32", "--seed", "1",
                                 "--state-dir", str(tmp_path / "state"), "--json"])
    assert result.exit_code == 3, result.output[-2000:]
    report = json.loads(result.stdout)
    died_on = json.loads((tmp_path / "died.jsonl").read_text())
    assert report["fault"]["scenario"] == died_on and report["scenario"] == died_on
    assert report["first_failure_after"] == 2 and "dead start" not in report["fault"]["message"]
    replay_file = Path(report["replay"].split("--replay ")[-1])
    assert json.loads(replay_file.read_text()) == died_on
    straight = subprocess.run(report["replay_engine"], shell=True, capture_output=True, timeout=60)
    assert straight.returncode == 9, "the printed 'straight into the engine' command reproduces the crash"


# -- 3. --workers: a worker's crash, no signal message, no traceback --------------------------

#: An engine whose first process (of every worker's) exits 9 on its third scenario; every later one answers.
FIRST_PROCESS_CRASHES = """
import json, os, sys
from referee.examples.engine import run

try:
    os.close(os.open(sys.argv[1], os.O_CREAT | os.O_EXCL))
    first = True
except FileExistsError:
    first = False
for count, line in enumerate(sys.stdin, start=1):
    if first and count == 3:
        os._exit(9)
    sys.stdout.write(json.dumps(run(json.loads(line))) + "\\n")
    sys.stdout.flush()
"""


def _referee(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REFEREE, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_workers_report_a_crash_and_a_pass_with_no_signal_message_and_no_traceback(tmp_path):
    script = tmp_path / "first_crashes.py"
    script.write_text(FIRST_PROCESS_CRASHES)
    outcomes = []
    for run in range(6):
        marker = tmp_path / f"started{run}"
        crash = ["--engine", shlex.join([sys.executable, str(script), str(marker)]), "--batch", "8"]
        passing = ["--python", "referee.examples.engine:run"]
        engine, expected = (crash, 3) if run % 2 == 0 else (passing, 0)
        done = _referee(["check", *engine, "-n", "64", "--workers", "2", "--seed", str(run),
                         "--state-dir", str(tmp_path / f"state{run}")], tmp_path)
        outcomes.append((run, done.returncode, expected, done.stderr[-1500:]))
        if expected == 3:
            assert "engine fault (crash)" in done.stdout and "status 9" in done.stdout, done.stdout[-2000:]
    wrong = [o for o in outcomes if o[1] != o[2] or "SIGTERM" in o[3] or "Traceback" in o[3]]
    assert not wrong, wrong


# -- 4. stored failures replayed first, and said so ------------------------------------------


def test_a_run_that_replays_stored_failures_says_so_on_its_first_line(tmp_path):
    state = str(tmp_path / "state")
    base = ["check", "--python", MUTANT, "--in-process", "-n", "200", "--state-dir", state]
    first = RUNNER.invoke(app, [*base, "--seed", "1"])
    assert first.exit_code == 1 and "stored failure" not in first.output, first.output[-2000:]
    again = RUNNER.invoke(app, [*base, "--seed", "2"])
    assert again.exit_code == 1, again.output[-2000:]
    head = again.stdout.splitlines()[0]
    assert "1 stored failure" in head and "replayed first" in head and "seed 2" in head, head
    assert "the failure below is a stored one, replayed, not a new draw" in head, head
    report = json.loads(RUNNER.invoke(app, [*base, "--seed", "3", "--json"]).stdout)
    assert report["stored_failures"] == {"replayed_first": 1, "failure_is_stored": True}


# -- 5. a death confirmed in fresh engines: alone, isolated, the sequence, or not confirmed ---------

FAULTY = Path(__file__).with_name("faulty_engine.py")


def _died(tmp_path: Path, engine: list[str], batch: int, *extra: str) -> tuple[int, dict, str]:
    """The faulty engine (``engine``: its arguments) run over one batch: exit status, --json report, text report."""
    command = shlex.join([sys.executable, str(FAULTY), *engine])
    base = ["check", "--engine", command, "-n", str(batch), "--batch", str(batch), "--seed", "1", "--timeout", "3",
            *extra]
    # each its own state dir: a second run would replay the first's stored failure first
    as_json = RUNNER.invoke(app, [*base, "--state-dir", str(tmp_path / "state-json"), "--json"])
    as_text = RUNNER.invoke(app, [*base, "--state-dir", str(tmp_path / "state-text")])
    assert as_json.exit_code == as_text.exit_code, (as_json.output[-2000:], as_text.output[-2000:])
    return as_json.exit_code, json.loads(as_json.stdout), as_text.stdout


def _straight(text: str) -> tuple[str, list[dict]]:
    """The printed "straight into the engine" command, and the JSON lines its input file holds."""
    line = next(x for x in text.splitlines() if x.startswith("straight into the engine ("))
    command = line.split("): ", 1)[1]
    sent = Path(shlex.split(command.rsplit(" < ", 1)[1])[0]).read_text().splitlines()
    return command, [json.loads(x) for x in sent]


def _without_id(scenario: dict) -> dict:
    return {k: v for k, v in scenario.items() if k != "id"}


def test_a_buffering_engine_that_dies_on_the_second_scenario_is_blamed_for_the_second(tmp_path):
    poison = tmp_path / "died.json"  # the scenario it died on: it dies on that one whenever it gets it, alone too
    status, report, text = _died(tmp_path, ["bufcrash", "2", str(poison)], 8)
    assert status == 3, text[-2000:]
    died_on = json.loads(poison.read_text())
    fault = report["fault"]
    assert fault["scenario"] == died_on and report["scenario"] == died_on
    assert fault["located"]["how"] == "isolated" and fault["located"]["position"] == 2, fault["located"]
    assert fault["located"]["answered"] == 0 and "dead start" not in fault["message"], fault["message"]
    assert report["first_failure_after"] == 2
    assert "isolated among 8" in text and "scenario 1, the one after its last answer, does not crash" in text
    replay_file = Path(report["replay"].split("--replay ")[-1])
    assert json.loads(replay_file.read_text()) == died_on
    for command in (report["replay_engine"], _straight(text)[0]):
        sent = _straight(f"straight into the engine (x): {command}")[1]
        assert [_without_id(s) for s in sent] == [died_on], "one line: the scenario it died on"
        straight = subprocess.run(command, shell=True, capture_output=True, timeout=60)
        assert straight.returncode == 3, "the printed 'straight into the engine' command crashes the engine"


def test_a_crash_on_the_second_scenario_read_whatever_it_is_needs_the_sequence(tmp_path):
    status, report, text = _died(tmp_path, ["crash", "2"], 4)  # streams its answers: the first one is answered
    assert status == 3, text[-2000:]
    located = report["fault"]["located"]
    assert located["how"] == "sequence" and located["position"] == 2 and located["replay_lines"] == 2, located
    assert located["tries"] == 4  # scenarios 2, 3, 4 alone, then the batch's first 2
    assert ("the engine died at position 2 of a batch of 4; no scenario of it faults alone: the fault depends on "
            "what came before") in text
    command, sent = _straight(text)
    assert "straight into the engine (2 JSON lines: the batch up to the scenario the engine died on)" in text
    assert [s["id"] for s in sent] == ["replay-1", "replay-2"] and _without_id(sent[1]) == report["scenario"]
    assert Path(command).name == Path(report["replay_engine"]).name  # the same input (named by its content)
    straight = subprocess.run(command, shell=True, capture_output=True, timeout=60)
    assert straight.returncode == 3 and b"deliberate crash" in straight.stderr, "the replay input reproduces it"
    alone = subprocess.run(f"{command.rsplit(' < ', 1)[0]} < {shlex.quote(report['replay'].split('--replay ')[-1])}",
                           shell=True, capture_output=True, timeout=60)
    assert "alone, it does not crash the engine" in report["replay"] and alone.returncode != 3


def test_a_buffering_engine_dying_on_its_third_scenario_read_is_found_by_bisecting_the_batch(tmp_path):
    status, report, text = _died(tmp_path, ["bufcrash", "3"], 4)  # no answer reaches referee
    assert status == 3, text[-2000:]
    located = report["fault"]["located"]
    assert (located["how"], located["position"], located["answered"], located["replay_lines"]) == ("sequence", 3, 0, 3)
    command, sent = _straight(text)
    assert len(sent) == 3 and _without_id(sent[2]) == report["scenario"] == report["fault"]["scenario"]
    assert subprocess.run(command, shell=True, capture_output=True, timeout=60).returncode == 3
    assert report["first_failure_after"] == 3 and report["scenarios_run"] == 3


def test_a_death_no_fresh_engine_repeats_is_reported_as_not_confirmed(tmp_path):
    script = tmp_path / "first_crashes.py"
    script.write_text(FIRST_PROCESS_CRASHES)  # only the run's first process dies (on its 3rd scenario)
    engine = shlex.join([sys.executable, str(script), str(tmp_path / "started")])
    result = RUNNER.invoke(app, ["check", "--engine", engine, "-n", "4", "--batch", "4", "--seed", "1",
                                 "--state-dir", str(tmp_path / "state"), "--json"])
    assert result.exit_code == 3, result.output[-2000:]
    report = json.loads(result.stdout)
    located = report["fault"]["located"]
    assert located["how"] == "unconfirmed" and located["position"] == 3 and located["answered"] == 2, located
    assert "not confirmed" in located["note"] and "not deterministic" in located["note"]
    assert "status 9" in report["fault"]["message"]  # the engine's own fault, as it happened
    assert len(Path(report["replay_engine"].rsplit(" < ", 1)[1]).read_text().splitlines()) == 1
