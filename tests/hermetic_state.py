"""The checkout's state folders no test may touch, and how a session's changes to them are found (tests/conftest.py)."""

from __future__ import annotations

import signal

from pathlib import Path

#: The checkout whose state folders the session must leave alone.
CHECKOUT = Path(__file__).resolve().parent.parent
#: The checkout's folders no test may touch: referee's state and Hypothesis' default home.
GUARDED = (".referee", ".hypothesis")
#: The environment variable that moves ``referee prove``'s and ``clauses``' default state folder.
STATE_VARIABLE = "REFEREE_STATE_DIR"


def guarded_files(root: Path = CHECKOUT) -> dict[str, tuple[int, int]]:
    """Every file and folder under the guarded folders of ``root``: its path, modification time and size."""
    found = {}
    for name in GUARDED:
        top = root / name
        for path in [top, *top.rglob("*")] if top.exists() else []:
            stat = path.lstat()
            found[path.relative_to(root).as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return found


def changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """What differs between two :func:`guarded_files` listings, one line each."""
    lines = [f"created {path}" for path in sorted(after.keys() - before.keys())]
    lines += [f"removed {path}" for path in sorted(before.keys() - after.keys())]
    lines += [f"modified {path}" for path in sorted(before.keys() & after.keys()) if before[path] != after[path]]
    return lines


def interruptible() -> None:
    """A run started in the background (``nohup``, ``cmd &`` in a script) inherits SIGINT ignored, and so would
    every program a test starts: a test's Ctrl-C that arrives before referee's own handlers are in would be
    ignored, not delivered. The tests start their programs as a terminal starts a foreground job: SIGINT at its
    default (a Python handler here becomes the default in a program this process starts)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
