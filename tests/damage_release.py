"""One release of the ``damage`` vectors per test session, shared by the test files that need one (the engine kits'
and the conformance report's): exported once (about 40 s) by whichever worker asks first, under a lock, into the
temporary folder; every caller gets a copy of its own to change (a test tampers with a vector file).

``referee vectors export DIR --kinds damage -q --release``, run in an empty folder (no ``referee.toml`` read).
The session is pytest-xdist's run id when there is one (all workers share it), else this process.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _shared_folder() -> Path:
    session = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
    return Path(tempfile.gettempdir()) / f"referee-test-damage-release-{session}"


def _export(folder: Path) -> None:
    """The export, into ``folder/out`` (``folder/done`` marks it complete)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(folder / "out", ignore_errors=True)
    referee = shutil.which("referee") or os.path.join(os.path.dirname(sys.executable), "referee")
    done = subprocess.run([referee, "vectors", "export", "out", "--kinds", "damage", "-q", "--release"], cwd=folder,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (folder / "done").write_text("")


#: A session's shared release older than this is an earlier session's leftover, removed by the next session.
LEFTOVER_SECONDS = 6 * 3600


def _remove_leftovers(shared: Path) -> None:
    """Earlier sessions' releases (each a few MB), once they are old enough that no session still runs."""
    import time

    for old in shared.parent.glob("referee-test-damage-release-*"):
        if old.name.split(".")[0] == shared.name or time.time() - old.stat().st_mtime <= LEFTOVER_SECONDS:
            continue
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


def damage_release(into: Path) -> Path:
    """A copy, inside ``into``, of the session's damage release folder (the one holding ``release.json``)."""
    shared = _shared_folder()
    _remove_leftovers(shared)
    shared.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "done").exists():
            _export(shared)
    (release,) = [p.parent for p in (shared / "out").glob("*/release.json")]
    into.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copytree(release, into / release.name))
