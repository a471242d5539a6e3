"""Reading a file someone named on the command line: only a regular file, and only up to a size limit.

A FIFO given as a scenario, a known-divergence file or a vector used to hang ``explain``,
``check --replay``, ``--known`` and ``vectors run`` (the read waits for a writer that never
comes), and ``/dev/zero`` was read until memory ran out. :func:`read_input_text` opens without
blocking, refuses anything but a regular file by what it is, and refuses a file larger than
:func:`max_input_bytes` (64 MiB; the environment variable ``REFEREE_MAX_INPUT_BYTES`` sets
another), the limit and how to change it stated in the error.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

#: The largest file read by default, in bytes.
DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024
#: The environment variable that sets another limit (a whole number of bytes >= 1).
LIMIT_VARIABLE = "REFEREE_MAX_INPUT_BYTES"


class InputFileError(ValueError):
    """A file that is not read: the message names it and says why."""


def max_input_bytes() -> int:
    """The size limit: ``REFEREE_MAX_INPUT_BYTES`` when set (a whole number >= 1), else 64 MiB."""
    text = os.environ.get(LIMIT_VARIABLE)
    if text is None or not text.strip():
        return DEFAULT_MAX_INPUT_BYTES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InputFileError(f"{LIMIT_VARIABLE}={text!r}: expected a whole number of bytes >= 1")
    return value


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "named pipe (FIFO)"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def read_input_bytes(path: Path | str) -> bytes:
    """The bytes of ``path``, a regular file of at most :func:`max_input_bytes`; an :class:`InputFileError` otherwise."""
    limit = max_input_bytes()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except OSError as error:
        raise InputFileError(f"{path}: cannot read: {error.strerror or error}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):  # checked before fdopen, which raises its own error (naming the descriptor) for a folder
        os.close(fd)
        raise InputFileError(f"{path}: is a {_kind(mode)}, not a regular file (not read: it could block or never end)")
    with os.fdopen(fd, "rb") as handle:
        os.set_blocking(fd, True)
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise InputFileError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise InputFileError(f"{path}: larger than {limit:,} bytes, the most referee reads from a file "
                             f"(the environment variable {LIMIT_VARIABLE} sets another limit)")
    return data


def read_input_text(path: Path | str) -> str:
    """:func:`read_input_bytes` as UTF-8 text (a ``UnicodeDecodeError`` for other bytes, as ``Path.read_text``)."""
    return read_input_bytes(path).decode("utf-8")


def read_input_toml(path: Path | str, error: type[Exception]) -> dict[str, Any]:
    """A TOML input file (a settings file, a known-divergences file) read as :func:`read_input_text` reads it; any
    failure is ``error``, naming the file and why (too large, unreadable, not UTF-8, not valid TOML)."""
    import tomllib

    try:
        return tomllib.loads(read_input_text(path))
    except InputFileError as problem:
        raise error(str(problem)) from None
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read: {problem}") from None
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{path}: not valid TOML: {problem}") from None
