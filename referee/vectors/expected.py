"""Expected failures: ``vectors run --expected-failures FILE`` (or ``expected_failures = "FILE"`` under ``[vectors]``).

FILE lists vector paths (as ``manifest.json`` lists them), one a line; ``#`` starts a comment, blank lines are
ignored. A listed vector that fails (a mismatch or an engine fault) is ``known``: counted and listed, it does not fail
the run. A listed vector that passes is ``stale`` and fails the run (``FILE:LINE: PATH passes now: remove it``). A
listed path the folder does not hold is a usage error naming ``FILE:LINE``, raised before the engine starts
(:func:`read_expected_failures`). A listed vector a filter skipped, or that did not run, is neither: the report says
it was not run. The same rules as every native vector runner's (``docs/protocol.md``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import VectorFileError, read_manifest

#: What a listed vector's result becomes: a failure is known, a pass is stale.
TURNS = {"mismatch": "known", "fault": "known", "pass": "stale"}


@dataclass(frozen=True)
class ExpectedFailures:
    """The vectors a file lists as expected to fail: each path (as the manifest spells it) and its line."""

    file: str
    lines: dict[str, int]


@dataclass
class Settled:
    """What the list came to after a run: the known failures and stale entries (each with its line), and the listed
    vectors that did not run, with why."""

    file: str
    known: list[tuple[int, Any]] = field(default_factory=list)
    stale: list[tuple[int, Any]] = field(default_factory=list)
    not_run: list[tuple[int, str, str]] = field(default_factory=list)

    def stale_messages(self) -> list[str]:
        """``FILE:LINE: PATH passes now: remove it``, one per stale entry."""
        return [stale_message(self.file, line, result.path) for line, result in self.stale]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file,
                "known": [{"path": r.path, "line": line, "status": r.outcome, "detail": r.detail,
                           "failed_clauses": r.failed_clauses} for line, r in self.known],
                "stale": [{"path": r.path, "line": line, "message": stale_message(self.file, line, r.path)}
                          for line, r in self.stale],
                "not_run": [{"path": path, "line": line, "reason": why} for line, path, why in self.not_run]}


def stale_message(file: str, line: int, path: str) -> str:
    return f"{file}:{line}: {path} passes now: remove it"


def listed_paths(text: str) -> list[tuple[int, str]]:
    """The paths of an expected-failures file's text, each with its line number (from 1): ``#`` starts a comment,
    surrounding blanks are dropped, blank lines ignored."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        path = line.split("#", 1)[0].strip()
        if path:
            out.append((number, path))
    return out


def _read_text(file: str) -> str:
    from ..input_files import InputFileError, read_input_text

    try:
        return read_input_text(file)
    except InputFileError as error:
        raise VectorFileError(f"--expected-failures {error}") from None
    except UnicodeDecodeError as error:
        raise VectorFileError(f"--expected-failures {file}: not UTF-8 text: {error.reason}") from None


def read_expected_failures(file: str | None, folder: Path) -> ExpectedFailures | None:
    """The expected failures ``file`` lists, each checked against the folder's manifest (None: no file given); a
    path the manifest does not list, or a path listed twice, is a :class:`VectorFileError` naming ``FILE:LINE``."""
    if file is None:
        return None
    from .suite import VECTORS_FORMAT

    manifest = read_manifest(folder, VECTORS_FORMAT)
    paths = {os.path.normpath(e["path"]): e["path"] for e in manifest["vectors"]
             if isinstance(e, dict) and isinstance(e.get("path"), str)}
    lines: dict[str, int] = {}
    for number, listed in listed_paths(_read_text(file)):
        path = paths.get(os.path.normpath(listed))
        if path is None:
            raise VectorFileError(f"{file}:{number}: {listed}: not a vector of {folder} (its manifest.json does not "
                                  "list it): remove the line, or run the folder it was written for")
        if path in lines:
            raise VectorFileError(f"{file}:{number}: {listed} is listed already (line {lines[path]})")
        lines[path] = number
    return ExpectedFailures(file, lines)


def settle(run: Any, expected: ExpectedFailures) -> Settled:
    """Turn each listed vector's result (a :class:`referee.vectors.suite.VectorRun`'s, in place): a failure becomes
    ``known``, a pass ``stale``, its own status kept as ``outcome``; collect the listed vectors that did not run."""
    settled = Settled(expected.file)
    skipped = {path: reason for path, reason, *_ in run.skipped}
    for result in run.results:
        line = expected.lines.get(result.path)
        if line is None:
            continue
        if result.status in TURNS:
            result.outcome, result.status = result.status, TURNS[result.status]
            (settled.known if result.status == "known" else settled.stale).append((line, result))
        else:
            settled.not_run.append((line, result.path, result.detail or "not run"))
    for path, line in expected.lines.items():
        if path in skipped:
            settled.not_run.append((line, path, f"skipped: {skipped[path]}"))
    settled.not_run.sort()
    return settled
