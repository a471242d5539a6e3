"""What an in-process verb leaves in the process running it: nothing.

A test runner (pytest-timeout's per-test alarm, an xdist worker's handlers) shares the process with every
in-process verb a test runs. An in-process engine's per-scenario timer must not cancel the runner's alarm,
and no verb may leave its signal handlers installed after it returns.
"""

from __future__ import annotations

import signal
import time

from typer.testing import CliRunner

from referee.cli.app import app
from referee.engines.transports import PythonEngine


def _slow(scenario: dict) -> dict:
    time.sleep(0.2)
    return {"protocol": "referee/2"}


def test_an_in_process_engine_keeps_the_alarm_that_was_running_before_it():
    fired: list[float] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(time.monotonic()))
    try:
        started = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, 0.6)
        PythonEngine(_slow, timeout=5).run_batch([{"id": "a"}, {"id": "b"}])  # 0.4 s under its own timer
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.25, "the outer alarm is armed again, less 0.4 s"
        time.sleep(0.5)
        assert len(fired) == 1 and 0.55 <= fired[0] - started <= 1.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_outer_alarm_due_during_a_batch_fires_right_after_it():
    fired: list[float] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(time.monotonic()))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        PythonEngine(_slow, timeout=5).run_batch([{"id": "a"}])
        time.sleep(0.1)
        assert len(fired) == 1, "an alarm due while the engine ran is not lost"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_in_process_check_leaves_no_handler_installed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)}
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "-n", "8",
                                      "--state-dir", ""])
    assert result.exit_code == 0, result.output
    assert {s: signal.getsignal(s) for s in before} == before


def test_a_session_started_with_sigint_ignored_hands_its_programs_a_deliverable_one():
    """Started in the background (``nohup``, ``cmd &``), the session inherits SIGINT ignored, and so would every
    program a test starts: a signal test's early Ctrl-C was then ignored by the child, whose run ended in a pass
    (seen under load: ``vectors run`` exit 0 after a SIGINT at 0.05 s). The session makes it deliverable."""
    import subprocess
    import sys

    from hermetic_state import interruptible

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        interruptible()
        shown = subprocess.run([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is "
                                "signal.default_int_handler)"], capture_output=True, text=True, check=True).stdout
        assert shown.strip() == "True", "a program the session starts ignores SIGINT"
    finally:
        signal.signal(signal.SIGINT, before)
