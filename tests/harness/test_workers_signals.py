"""``referee check --workers N`` under a real signal: one report of every worker's counts, within seconds.

Before, a SIGTERM to a ``--workers 2`` run whose engine signalled the parent left no report, no seed and no rerun
line, printed "stopped by SIGTERM" and "the report did not finish within 10 s", and exited after 10 s; a signal at
any other point printed ``checked: 0 scenarios`` (the workers' counts dropped), and each worker took the pool's
terminate() for a SIGTERM of its own. Now the parent forwards the signal, collects every worker's partial report and
prints one interrupted report (``referee.check.workers``).

The points are exact, not timing luck: the in-process engine below answers until its ``AT``-th call in each worker,
where it writes how many calls it answered and waits; the worker that finds both waiting signals the parent (the
worker's parent: the ``referee`` process). Each worker has then checked exactly the scenarios its engine answered,
and it is stopped inside its engine's call, which never returns.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REFEREE = str(Path(sys.executable).with_name("referee"))
TRACEBACK_MARKS = ("Traceback (most recent call last)", "Exception ignored")
WORKERS = 2
AT = 30
#: Seconds a run may take in all (it takes about three; the engine waits 30 s in a call no signal stopped).
BOUND = 25

#: Answers until its AT-th call, then notes the calls it answered and waits; the last worker to wait signals the
#: parent (SIG_TARGET=self: its own process, a signal to one worker alone). With SIG_SWALLOW, the worker that signalled
#: swallows every interrupt with a bare ``except:`` (it never sends its report: the parent must end it). With
#: SIG_WRONG_AT, each worker answers one scenario wrong from that call on.
SIGNALS_THE_PARENT = """
import os, signal, time
from referee.examples.engine import run as clean

FOLDER, SIGNUM, AT, WORKERS = os.environ["SIG_FOLDER"], os.environ["SIG_NAME"], {at}, {workers}
SWALLOW = bool(os.environ.get("SIG_SWALLOW"))
TARGET = os.environ.get("SIG_TARGET", "parent")
WRONG_AT = int(os.environ.get("SIG_WRONG_AT", "0"))
CALLS, WRONG = [0], []


def wait(seconds, swallow, send=None):
    # the signal is sent from inside the wait, so that a swallowing worker swallows even an interrupt that comes
    # back at once (under load the parent's forwarded signal can arrive before the next line runs)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if send is not None:
                send, sending = None, send
                sending()
            time.sleep(0.05)
        except BaseException:
            if not swallow:
                raise


def run(scenario):
    CALLS[0] += 1
    if CALLS[0] < AT:
        answer = clean(scenario)
        if WRONG_AT and CALLS[0] >= WRONG_AT and not WRONG and answer["board"]:
            WRONG.append(1)  # one wrong answer per worker: a divergence it finds before the signal
            answer["board"][0]["vitality"] += 1
        return answer
    # written whole, then renamed: the other worker, counting the notes, never sees one still empty
    draft = os.path.join(FOLDER, f"draft-{{os.getpid()}}")
    with open(draft, "w") as note:
        note.write(str(CALLS[0] - 1))
    os.replace(draft, os.path.join(FOLDER, f"answered-{{os.getpid()}}"))
    sender = False
    if len([n for n in os.listdir(FOLDER) if n.startswith("answered-")]) == WORKERS:
        try:
            os.close(os.open(os.path.join(FOLDER, "sent"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            sender = True
        except FileExistsError:
            pass
    send = None
    if sender:
        with open(os.path.join(FOLDER, "sent-by"), "w") as note:
            note.write(f"{{os.getpid()}} {{time.time()}}")
        target = os.getppid() if TARGET == "parent" else os.getpid()
        send = lambda: os.kill(target, getattr(signal, SIGNUM))  # noqa: E731
    wait(30, SWALLOW and sender, send)
    return clean(scenario)
"""


def _run(tmp_path: Path, signum: str, *extra: str, **engine: str) -> tuple[int, str, str, float, dict[int, int], int]:
    """``referee check --workers 2 EXTRA`` with the engine above (``engine``: its SIG_ settings, lower case): exit
    status, stdout, stderr, seconds from the signal to the exit, each worker's answered calls (by pid) and the pid of
    the worker that sent the signal."""
    (tmp_path / "sig_engine.py").write_text(SIGNALS_THE_PARENT.format(at=AT, workers=WORKERS))
    folder = tmp_path / "notes"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "SIG_FOLDER": str(folder), "SIG_NAME": signum,
           **{f"SIG_{name.upper()}": value for name, value in engine.items()}}
    args = ["check", "--python", "sig_engine:run", "--in-process", "--batch", "1", "-n", "100000", "--seed", "9",
            "--timeout", "60", "--workers", str(WORKERS), "--database", "", "--state-dir", str(tmp_path / "state"),
            *extra]
    status, out, err = _referee(args, tmp_path, env)
    ended = time.time()
    sender, sent_at = (folder / "sent-by").read_text().split()
    answered = {int(p.name.split("-")[1]): int(p.read_text()) for p in folder.glob("answered-*")}
    return status, out, err, ended - float(sent_at), answered, int(sender)


def _referee(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """``referee ARGS`` in a session of its own: status, stdout, stderr; a run still going after ``BOUND`` seconds
    fails the test, its whole session killed (the workers too: none outlives the test)."""
    process = subprocess.Popen([REFEREE, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"referee check --workers still running {BOUND} s after it began\n{out[-2000:]}\n{err[-2000:]}")
    return process.returncode, out, err


def _checked(out: str) -> int:
    line = next(line for line in out.splitlines() if line.strip().startswith("checked:"))
    return int(line.split()[1])


def _one_clean_report(out: str, err: str, head: str) -> None:
    """One report, its headline once, the seed and the rerun line; no watchdog line, no traceback."""
    assert out.count("referee check: INTERRUPTED") == 1 and out.count(head) == 1, (out[-2000:], err[-2000:])
    assert "seed 9, 2 workers" in out, out[-2000:]
    assert "replay: referee check --python sig_engine:run" in out and "--workers 2" in out and "--seed 9" in out
    assert "did not finish within" not in err, err[-2000:]
    for mark in TRACEBACK_MARKS:
        assert mark not in out + err, (out[-2000:], err[-2000:])


@pytest.mark.parametrize("signum, code, head", [("SIGTERM", 143, "INTERRUPTED (SIGTERM)"),
                                                ("SIGINT", 130, "INTERRUPTED (Ctrl-C)")])
def test_a_signal_to_the_parent_prints_one_report_of_every_workers_counts(tmp_path, signum, code, head):
    status, out, err, seconds, answered, _ = _run(tmp_path, signum)
    assert status == code, (status, out[-2000:], err[-2000:])
    _one_clean_report(out, err, head)
    assert len(answered) == WORKERS and all(n == AT - 1 for n in answered.values()), answered
    assert _checked(out) == sum(answered.values()) > 0, (out[-2000:], answered)
    assert seconds < 5, f"{seconds:.1f} s from the signal to the exit"
    assert err.count(f"stopped by {signum}") <= 1, err[-2000:]  # the parent's one line (SIGTERM), no worker's
    if signum == "SIGINT":
        assert "SIGTERM" not in out + err, (out[-2000:], err[-2000:])  # nobody sent one


def test_a_worker_that_does_not_answer_in_time_is_ended_and_its_count_said_unknown(tmp_path):
    status, out, err, seconds, answered, sender = _run(tmp_path, "SIGTERM", swallow="1")
    assert status == 143, (status, out[-2000:], err[-2000:])
    _one_clean_report(out, err, "INTERRUPTED (SIGTERM)")
    others = sum(n for pid, n in answered.items() if pid != sender)
    assert _checked(out) == others > 0, (out[-2000:], answered, sender)  # the silent worker's is not taken for 0
    assert "worker" in out and "sent no report within" in out and "not in the count above (unknown)" in out, out
    assert seconds < 5, f"{seconds:.1f} s from the signal to the exit"


@pytest.mark.parametrize("signum, code, head", [("SIGTERM", 143, "INTERRUPTED (SIGTERM)"),
                                                ("SIGINT", 130, "INTERRUPTED (Ctrl-C)")])
def test_a_signal_to_one_worker_alone_stops_the_run_and_is_named(tmp_path, signum, code, head):
    """The signal reaches one worker only (its engine sends it to its own process): the run stops as it does for a
    signal to the parent, and the report names the signal that was sent, never another."""
    status, out, err, seconds, answered, _ = _run(tmp_path, signum, target="self")
    assert status == code, (status, out[-2000:], err[-2000:])
    _one_clean_report(out, err, head)
    assert _checked(out) == sum(answered.values()) == WORKERS * (AT - 1), (out[-2000:], answered)
    assert seconds < 5, f"{seconds:.1f} s from the signal to the exit"
    if signum == "SIGINT":
        assert "SIGTERM" not in out + err, (out[-2000:], err[-2000:])


def test_the_json_report_keeps_every_workers_count_and_the_bugs_they_found(tmp_path):
    """``--keep-going --json``: each worker met one divergence before the signal; the one JSON document is
    interrupted, with both workers' counts and both divergences (found, not lost with the worker)."""
    status, out, err, _, answered, _ = _run(tmp_path, "SIGTERM", "--keep-going", "--json", wrong_at="5")
    assert status == 143, (out[-2000:], err[-2000:])
    report = json.loads(out)
    assert report["status"] == "interrupted" and report["workers"] == 2, report["status"]
    assert report["scenarios_run"] == sum(answered.values()) == WORKERS * (AT - 1), answered
    assert sum(group["count"] for group in report["groups"]) == WORKERS, report["groups"]
    assert "--seed 9" in report["replay"]
