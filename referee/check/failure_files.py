"""The files a failure is written to (``<state dir>/failures/NAME.json`` and ``NAME.jsonl``) and the commands that
replay it: through ``referee check --replay``, and straight into a JSON-lines engine."""

from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

from ..engines.transports import Engine
from .outcome import CheckOptions


def failures_dir(options: CheckOptions) -> Path:
    """``<state dir>/failures``, or a folder in the system's temporary folder when there is no state dir."""
    if options.state_dir:
        return Path(options.state_dir) / "failures"
    import tempfile

    return Path(tempfile.gettempdir()) / "referee-failures"


def _failure_files(options: CheckOptions, scenario: dict[str, Any],
                   sequence: list[dict[str, Any]] | None = None) -> tuple[Path, Path] | None:
    """The failing scenario, pretty (``NAME.json``, for ``--replay`` and reading) and as one JSON line
    (``NAME.jsonl``, for ``engine < NAME.jsonl``); None when they cannot be written. A fault that needs the
    stream (``sequence``: the batch up to the scenario it died on): ``NAME.jsonl`` holds one line for each."""
    text = json.dumps(sequence if sequence else scenario, sort_keys=True)
    name = hashlib.sha256(text.encode()).hexdigest()[:12]
    ids = [f"replay-{n}" for n in range(1, len(sequence) + 1)] if sequence else ["replay"]
    lines = "".join(json.dumps({**sent, "id": sid}, separators=(",", ":")) + "\n"
                    for sent, sid in zip(sequence or [scenario], ids))
    try:
        folder = failures_dir(options)
        folder.mkdir(parents=True, exist_ok=True)
        pretty, line = folder / f"{name}.json", folder / f"{name}.jsonl"
        pretty.write_text(json.dumps(scenario, indent=2) + "\n")
        line.write_text(lines)
        return pretty, line
    except OSError:
        return None


def _replay(options: CheckOptions, seed: int, scenario: dict[str, Any] | None,
            sequence: list[dict[str, Any]] | None = None) -> str:
    command = f"{options.command} --seed {seed}"
    if scenario is None:
        return command
    files = _failure_files(options, scenario, sequence)
    if files is None:
        return command
    said = "the scenario it died on (alone, it does not crash the engine)" if sequence else "or this scenario alone"
    return f"{command}    # {said}: {options.command} --replay {shlex.quote(str(files[0]))}"


def _replay_engine(engine: Engine, options: CheckOptions, scenario: dict[str, Any] | None,
                   sequence: list[dict[str, Any]] | None = None) -> str:
    """The exact shell command feeding the failing scenario's line (a fault that needs the stream: the lines of
    the batch up to it) to a JSON-lines engine (and worker)."""
    argv = getattr(engine, "argv", None)
    if scenario is None or not argv:
        return ""
    files = _failure_files(options, scenario, sequence)
    return f"{shlex.join(argv)} < {shlex.quote(str(files[1]))}" if files else ""
