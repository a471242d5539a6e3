"""Shared pytest configuration: ``slow`` campaigns are deselected unless ``--runslow`` is given, and the session is
hermetic.

No test reads or writes the checkout's ``.referee/`` (the proof record and cache ``referee prove`` keeps at the
repository root whatever the current directory; ``referee check``'s examples and failures, kept where it runs) nor
Hypothesis' default folder (``.hypothesis/`` where it runs), and so no test passes or fails by what the README's
main command, or any run before, left there. Each pytest process (the controller, each xdist worker) gets a scratch
folder of its own, and by construction:

* ``REFEREE_STATE_DIR`` points ``prove``'s and ``clauses``' default state folder into it (inherited by every
  ``referee`` a test starts);
* Hypothesis' home is moved into it (its example database included);
* every test starts in it as its current directory (the defaults relative to where a verb runs).

The controller compares the checkout's ``.referee/`` and ``.hypothesis/`` before and after the session, and fails
the run, naming what changed, when anything did (``tests/test_hermetic.py`` holds the pointers themselves).
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from hermetic_state import GUARDED, STATE_VARIABLE, changes, guarded_files, interruptible

_SCRATCH = pytest.StashKey[Path]()
_BEFORE = pytest.StashKey[dict]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run long campaigns (deep CrossHair runs, long fuzzing, the full mutant kill table)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    # Deselected rather than skipped: a long campaign not run is not counted as a test.
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]


@pytest.hookimpl(trylast=True)  # after every plugin resolved its own paths (--junitxml, --basetemp) from here
def pytest_configure(config: pytest.Config) -> None:
    """This process's scratch folder, referee's default state folder and Hypothesis' home inside it."""
    from hypothesis import configuration

    scratch = Path(tempfile.mkdtemp(prefix="referee-tests-"))
    (scratch / "cwd").mkdir()
    config.stash[_SCRATCH] = scratch
    os.environ[STATE_VARIABLE] = str(scratch / "state")
    configuration.set_hypothesis_home_dir(scratch / "hypothesis")
    interruptible()
    if not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        config.stash[_BEFORE] = guarded_files()


@pytest.fixture(scope="session", autouse=True)
def scratch_directory(pytestconfig: pytest.Config):
    """Every test starts in this process's scratch folder, not in the checkout."""
    before = Path.cwd()
    os.chdir(pytestconfig.stash[_SCRATCH] / "cwd")
    yield pytestconfig.stash[_SCRATCH]
    os.chdir(before)


#: The signals an in-process verb may handle: a test that leaves one changed would decide how a later signal (a
#: per-test timeout's alarm, the runner's own interrupt) ends this test process.
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM", "SIGUSR1")
                 if hasattr(signal, name))


@pytest.fixture(autouse=True)
def no_signal_state_leaks():
    """Each test's signal handlers and referee's recorded signal are put back after it, whatever it ran in
    process, so that no test decides how another is interrupted."""
    from referee.check import interrupts

    handlers = {signum: signal.getsignal(signum) for signum in _SIGNALS}
    yield
    for signum, handler in handlers.items():
        if signal.getsignal(signum) is not handler and handler is not None:
            signal.signal(signum, handler)
    interrupts.reset()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run when the session changed anything under the checkout's ``.referee/`` or ``.hypothesis/``."""
    before = session.config.stash.get(_BEFORE, None)
    if before is None:  # an xdist worker: the controller compares, once every worker is done
        return
    changed = changes(before, guarded_files())
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"the test session changed the checkout's {' or '.join(GUARDED)} (no test may read or write them; "
                 f"see tests/conftest.py):", *(f"  {line}" for line in changed[:20])]
        if reporter is not None:
            reporter.write("\n")
            for line in lines:
                reporter.write_line(line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    scratch = config.stash.get(_SCRATCH, None)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
