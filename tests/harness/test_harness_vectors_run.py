"""``vectors run`` says what ran: a crashed engine is restarted for the next vector (up to a bound that says so),
a vector that did not run is ``not run`` and counted nowhere in the clause table, every vector file is checked
before it runs (its scenario under the protocol, its ``expected`` as an observation, each error naming the file),
Ctrl-C prints what was found, and the receipt proves which bytes ran (issues 24 and 25)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from harness_tools import export_boundary_cases
from typer.testing import CliRunner

from referee.cli.app import app
from referee.vectors.files import VectorFileError, read_vectors
from referee.vectors.suite import VECTORS_FORMAT

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written boundary cases only, exported (no Z3 search)."""
    return export_boundary_cases(tmp_path_factory.mktemp("run"))


def _engine(tmp_path: Path, body: str) -> str:
    """A JSON-lines engine: the example engine, with ``body`` run first on each scenario ``s``."""
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent("""\
        import os, sys, time
        from referee.examples.engine import run, serve

        def one(s):
        {body}
            return run(s)

        serve(one)
        """).format(body=textwrap.indent(textwrap.dedent(body), "    ")))
    return f"{sys.executable} {script}"


CRASH_ON_BLOODLETTING = 'if any(a.get("kind") == "bloodletting" for a in s["actions"]): os._exit(3)'


def _bloodletting_vectors(folder: Path) -> int:
    manifest = json.loads((folder / "manifest.json").read_text())
    return sum("bloodletting" in e["actions"] for e in manifest["vectors"])


def test_a_crash_on_one_kind_restarts_the_engine_and_every_other_vector_runs(folder: Path, tmp_path: Path):
    crashes = _bloodletting_vectors(folder)
    assert crashes >= 3
    result = RUNNER.invoke(app, ["vectors", "run", str(folder), "--engine", _engine(tmp_path, CRASH_ON_BLOODLETTING),
                                 "--json", "--batch", "8"])
    assert result.exit_code == 3, result.output[-2000:]  # faults, no divergence
    report = json.loads(result.output)
    assert report["not_run"] == 0 and report["stopped"] == ""
    assert sorted(f["status"] for f in report["failed"]) == ["fault"] * crashes
    assert all("bloodletting" in json.loads((folder / f["path"]).read_text())["scenario"]["actions"][0]["kind"]
               for f in report["failed"])
    # a fault fails no clause: no FAIL anywhere
    assert not [c for c, row in report["clauses"].items() if row["status"] == "FAIL"]


def test_the_restart_bound_stops_the_run_says_so_and_the_rest_is_not_run(folder: Path, tmp_path: Path):
    result = RUNNER.invoke(app, ["vectors", "run", str(folder), "--engine", _engine(tmp_path, CRASH_ON_BLOODLETTING),
                                 "--batch", "1", "--max-restarts", "1"])
    assert result.exit_code == 3, result.output[-2000:]
    assert "STOPPED: the engine was restarted" in result.output and "--max-restarts 1" in result.output
    data = json.loads(RUNNER.invoke(app, ["vectors", "run", str(folder), "--engine",
                                          _engine(tmp_path, CRASH_ON_BLOODLETTING), "--batch", "1",
                                          "--max-restarts", "1", "--json"]).output)
    assert data["not_run"] > 0 and data["vectors"] + data["not_run"] == 83 - data["skipped"]
    assert not any(f["status"] == "not run" for f in data["failed"])  # never a fault
    assert not [c for c, row in data["clauses"].items() if row["status"] == "FAIL"]
    assert sum(row["not_run"] for row in data["clauses"].values()) > 0
    assert all(row["vectors"] + row["not_run"] >= row["passed"] for row in data["clauses"].values())


def _damage(folder: Path, change) -> Path:
    """The folder's first vector file, changed by ``change(data)`` (returns the new text or None)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    path = folder / manifest["vectors"][0]["path"]
    data = json.loads(path.read_text())
    text = change(data)
    path.write_text(text if isinstance(text, str) else json.dumps(data))
    return path


def _copy(folder: Path, tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "copy"
    shutil.copytree(folder, target)
    return target


#: Eleven ways an ``expected`` observation can be broken.
BROKEN_EXPECTED = {
    "not-an-object": lambda d: d.update(expected=[]),
    "no-board": lambda d: d["expected"].pop("board"),
    "board-not-a-list": lambda d: d["expected"].update(board={}),
    "unit-not-an-object": lambda d: d["expected"]["board"].__setitem__(0, 7),
    "vitality-a-string": lambda d: d["expected"]["board"][0].update(vitality="ten"),
    "events-not-a-list": lambda d: d["expected"].update(events="none"),
    "event-without-name": lambda d: d["expected"].update(events=[{"unit": "a"}]),
    "event-unknown-name": lambda d: d["expected"].update(events=[{"name": "no_such_event", "unit": "a", "amount": 0,
                                                                  "other": None, "detail": None}]),
    "event-amount-a-string": lambda d: d["expected"].update(events=[{"name": "death", "unit": "a", "amount": "x",
                                                                     "other": None, "detail": None}]),
    "unit-without-uid": lambda d: d["expected"]["board"][0].pop("uid"),
    "wrong-protocol": lambda d: d["expected"].update(protocol="referee/99"),
}


@pytest.mark.parametrize("how", sorted(BROKEN_EXPECTED))
def test_an_error_in_expected_names_the_vector_file(folder: Path, tmp_path: Path, how: str):
    copy = _copy(folder, tmp_path)
    path = _damage(copy, BROKEN_EXPECTED[how])
    with pytest.raises(VectorFileError) as caught:
        read_vectors(copy, VECTORS_FORMAT)
    assert str(caught.value).startswith(str(path.resolve())) and "expected" in str(caught.value)
    result = RUNNER.invoke(app, ["vectors", "run", str(copy), "--python", "referee.examples.engine:run", "--in-process"])
    assert result.exit_code == 2 and str(path.resolve()) in result.output


@pytest.mark.parametrize("how, message", [
    ("protocol", "protocol"),
    ("duplicate-key", "appears twice"),
    ("illegal-board", "scenario"),
])
def test_a_vectors_scenario_is_checked_before_it_runs(folder: Path, tmp_path: Path, how: str, message: str):
    copy = _copy(folder, tmp_path)

    def change(data):
        if how == "protocol":
            data["scenario"]["protocol"] = "referee/0"
        elif how == "illegal-board":
            data["scenario"]["board"][0]["vitality"] = -4
        else:
            return json.dumps(data)[:-1] + ', "scenario": ' + json.dumps(data["scenario"]) + "}"
        return None

    path = _damage(copy, change)
    result = RUNNER.invoke(app, ["vectors", "run", str(copy), "--python", "referee.examples.engine:run", "--in-process"])
    assert result.exit_code == 2, result.output[-1000:]
    assert str(path.resolve()) in result.output and message in result.output


def test_a_vector_listed_twice_is_refused(folder: Path, tmp_path: Path):
    copy = _copy(folder, tmp_path)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["vectors"] += [dict(manifest["vectors"][0]) for _ in range(9)]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    result = RUNNER.invoke(app, ["vectors", "run", str(copy), "--python", "referee.examples.engine:run", "--in-process"])
    assert result.exit_code == 2 and "is listed already (vectors[0])" in result.output


def test_a_fifo_vector_is_refused_without_reading_it(folder: Path, tmp_path: Path):
    copy = _copy(folder, tmp_path)
    manifest = json.loads((copy / "manifest.json").read_text())
    path = copy / manifest["vectors"][0]["path"]
    path.unlink()
    os.mkfifo(path)
    result = RUNNER.invoke(app, ["vectors", "run", str(copy), "--python", "referee.examples.engine:run", "--in-process"])
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_the_receipt_holds_the_bytes_that_ran_and_its_check_fails_on_anything_else(folder: Path, tmp_path: Path):
    copy = _copy(folder, tmp_path)
    receipt = tmp_path / "receipt.json"
    result = RUNNER.invoke(app, ["vectors", "run", str(copy), "--python", "referee.examples.engine:run",
                                 "--in-process", "--kinds", "damage,hit", "--receipt", str(receipt)])
    assert result.exit_code == 0, result.output[-1000:]
    data = json.loads(receipt.read_text())
    assert len(data["manifest_sha256"]) == 64 and all(len(r["sha256"]) == 64 for r in data["results"])
    assert data["skipped"] and all(s["reason"] for s in data["skipped"])
    check = ["vectors", "check-receipt", str(receipt), str(copy)]
    assert RUNNER.invoke(app, check).exit_code == 0
    ran = copy / data["results"][0]["path"]
    ran.write_text(ran.read_text().replace('"amount": ', '"amount":  ', 1))
    result = RUNNER.invoke(app, check)
    assert result.exit_code == 1 and data["results"][0]["path"] in result.output and "SHA-256" in result.output
    ran.write_text(json.dumps(json.loads(ran.read_text()), indent=1) + "\n")
    data["results"] = data["results"][1:]
    data["skipped"][0]["reason"] = " "
    receipt.write_text(json.dumps(data))
    result = RUNNER.invoke(app, check)
    assert result.exit_code == 1
    assert "neither run nor skipped" in result.output and "skipped without a written reason" in result.output


REFEREE = str(Path(sys.executable).with_name("referee"))
#: Every vector a bug: one Vitality too many on every unit (so each vector that ran is a mismatch, found).
SLOW_AND_WRONG = f"""
open({{marker!r}}, "a").close()
time.sleep(0.2)
out = run(s)
for unit in out.get("board", []):
    unit["vitality"] += 1
return out
"""


def _interrupted_run(folder: Path, tmp_path: Path, signum: int, json_out: bool = False) -> tuple[int, str, str]:
    """``vectors run`` through a slow, wrong engine, sent ``signum`` once a few vectors ran."""
    marker = tmp_path / "started"
    command = [REFEREE, "vectors", "run", str(folder), "--engine",
               _engine(tmp_path, SLOW_AND_WRONG.format(marker=str(marker))), "--batch", "1", *(["--json"] * json_out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    time.sleep(1.0)  # a few vectors in
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_prints_the_counts_what_was_found_and_the_rerun_never_a_traceback(folder: Path, tmp_path: Path,
                                                                                      signum: int):
    """SIGTERM used to end ``vectors run`` at once with one line (an older handler of its own): no counts, nothing
    of what was found, no rerun command."""
    code, out, err = _interrupted_run(folder, tmp_path, signum)
    assert code == 128 + signum, (code, out[-2000:], err[-2000:])
    assert "Traceback" not in out + err
    said = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}[signum]
    last = out.strip().splitlines()[-1]
    assert last.startswith(f"referee vectors run: INTERRUPTED ({said}): "), out[-2000:]
    ran, passed, failed, not_run = (int(re.search(rf"(\d+) {word}", last).group(1))
                                    for word in ("vectors ran", "passed", "failed", "not run"))
    assert ran >= 1 and passed == 0 and failed == ran and ran + not_run == 83, last
    assert f"found: {ran} mismatches (at combat:" in last and f"rerun: referee vectors run {folder} --engine" in last
    assert out.count("  mismatch: ") == min(ran, 20)  # what was found, vector by vector


def test_a_signal_during_a_json_run_keeps_stdout_json_and_says_so_on_stderr(folder: Path, tmp_path: Path):
    code, out, err = _interrupted_run(folder, tmp_path, signal.SIGTERM, json_out=True)
    assert code == 128 + signal.SIGTERM, (code, out[-2000:], err[-2000:])
    report = json.loads(out)
    assert report["interrupted"] and report["stopped"] == "interrupted (SIGTERM)" and report["not_run"] > 0
    assert "INTERRUPTED (SIGTERM)" in err and "rerun: referee vectors run" in err and "Traceback" not in err


def _before_referee_began(code: int, out: str, err: str) -> bool:
    """The signal came while the interpreter itself started (``site``, the console script's own imports), before
    the first line of referee: Python's doing, not referee's (no frame of the ``referee`` package)."""
    return not out and code in (1, -2, -15) and "/referee/" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("after", [0.05, pytest.param(0.3, marks=pytest.mark.slow),
                                   pytest.param(1.0, marks=pytest.mark.slow), 2.5])
def test_a_signal_at_any_point_of_vectors_run_stops_it_cleanly(folder: Path, tmp_path: Path, signum: int,
                                                               after: float):
    """From the imports (0.05 s) to the run: never a traceback, the signal's status, a line saying it stopped."""
    process = subprocess.Popen([REFEREE, "vectors", "run", str(folder), "--engine", _engine(tmp_path, "time.sleep(0.05)"),
                                "--batch", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    if _before_referee_began(process.returncode, out, err):
        return
    assert "Traceback" not in out + err and "Exception ignored" not in out + err, (out[-2000:], err[-2000:])
    assert process.returncode == 128 + signum, (process.returncode, out[-2000:], err[-2000:])
    said = ("INTERRUPTED" in out and "rerun: referee vectors run" in out) or "while starting" in err \
        or ("interrupted" in err and "rerun: referee vectors run" in err)
    assert said, (out[-2000:], err[-2000:])
