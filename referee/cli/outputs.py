"""The files a verb writes besides its report (``--html``, ``--junit``, ``--receipt``, the state folder):
checked before the run, written after the report is printed.

A path that cannot be written (a folder where a file goes, a file where a folder goes, a folder that refuses
writing, a full or read-only file system) is a usage error naming it before the first scenario
(:func:`output_problem`, :func:`state_problem`): minutes of checking are never lost to a typo. A write that still
fails at the end (the disk filled during the run) is one warning after the report (:func:`write_or_warn`): the
report and its verdict are printed first and the exit code stays the verdict's.

The check writes nothing that stays: a file that exists is opened for appending (nothing is added), and a folder
is tried with a temporary file removed at once. The permission bits are not read (``os.access``): root ignores
them, a read-only file system does not.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

#: The folders of a state folder (``--state-dir``): the failure files, the example database, Hypothesis' own.
STATE_FOLDERS = ("failures", "examples", "hypothesis")


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _first_existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists (what a ``mkdir -p`` of ``path`` would write into)."""
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def folder_problem(name: str, folder: Path) -> str | None:
    """Why files cannot be written in ``folder`` (made if missing), naming ``name``, or None."""
    existing = _first_existing(folder)
    if not existing.is_dir():
        return f"{name}: cannot write: {existing} is a file, not a folder"
    try:
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".referee-write-check-")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        return f"{name}: cannot write in the folder {existing} ({_reason(error)})"
    return None


def output_problem(flag: str, path: str | None) -> str | None:
    """Why the output file ``path`` of ``flag`` (``--html``) cannot be written, or None (None: not asked for)."""
    if not path:
        return None
    target = Path(path)
    named = f"{flag} {path}"
    if target.is_dir():
        return f"{named}: cannot write: it is a folder, not a file"
    if target.exists():
        try:
            with target.open("a"):
                pass
        except OSError as error:
            return f"{named}: cannot write: {_reason(error)}"
        return None
    return folder_problem(named, target.parent)


def state_problem(state_dir: str | None) -> str | None:
    """Why the state folder (``--state-dir``) or one of its folders cannot be written, or None (None: no state
    folder is kept)."""
    if not state_dir:
        return None
    named = f"--state-dir {state_dir}"
    if os.path.lexists(state_dir) and not Path(state_dir).is_dir():
        return f"{named}: cannot write: it is a file, not a folder"
    for sub in STATE_FOLDERS:
        inside = Path(state_dir) / sub
        if os.path.lexists(inside) and not inside.is_dir():
            return f"{named}: cannot write: {inside} is a file, not a folder"
    return folder_problem(named, Path(state_dir))


def first_problem(outputs: list[tuple[str, str | None]], state_dir: str | None = None) -> str | None:
    """The first output (``(flag, path)``) or state folder that cannot be written, or None."""
    for flag, path in outputs:
        problem = output_problem(flag, path)
        if problem:
            return problem
    return state_problem(state_dir)


def write_or_warn(flag: str, path: str | None, write: Callable[[str], Any]) -> str | None:
    """``write(path)`` when ``path`` is asked for; the warning naming the file if it could not be written (an
    OSError, or the message a writer that never raises returns), else None."""
    if not path:
        return None
    try:
        said = write(path)
    except OSError as error:
        return f"{flag} {path}: cannot write: {_reason(error)}"
    return f"{flag} {path}: not written: {said}" if isinstance(said, str) and said else None
