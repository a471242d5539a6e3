"""Run a benchmark on an earlier revision of the code, in a subprocess, beside today's run.

The machine is shared and noisy, so a speed-up is reported as a ratio measured in one run:
the benchmark exports ``REV`` (``git archive``, into a temporary folder: no worktree is
registered and nothing in the repository changes), runs that revision's own copy of the
benchmark on it, and reads its figures from its output.

:data:`BASELINE_REVISION` is the code before issue 10's throughput work (2026-12-01).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

#: The revision "today's figures" are measured on: main before issue 10's throughput work.
BASELINE_REVISION = "2adc0f3"
ROOT = Path(__file__).resolve().parent.parent
#: The folders ``pyproject.toml`` maps into the ``referee`` package (``package-dir``).
MAPPED = {"model": "model", "proofs": "proofs", "specs": "specs", "examples": "examples"}


def export(revision: str) -> tempfile.TemporaryDirectory:
    """The tree of ``revision`` in a temporary folder, importable as ``referee`` with ``PYTHONPATH``."""
    folder = tempfile.TemporaryDirectory(prefix="referee-baseline-")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", folder.name], input=archive, check=True)
    package = Path(folder.name) / "referee"
    for name, source in MAPPED.items():
        link = package / name
        if not link.exists():
            link.symlink_to(Path(folder.name) / source, target_is_directory=True)
    return folder


def run_benchmark(revision: str, script: str, args: list[str], timeout: float = 1800) -> str:
    """The output of ``revision``'s own ``benchmarks/<script>`` run with ``args`` on that revision's code."""
    with export(revision) as tree:
        # PYTHONPATH is searched before the editable install's finder (which sys.meta_path appends)
        env = {**os.environ, "PYTHONPATH": tree}
        done = subprocess.run([sys.executable, str(Path(tree) / "benchmarks" / script), *args], cwd=tree, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{script} at {revision} failed:\n{done.stderr[-2000:]}")
        return done.stdout


def figure(output: str, pattern: str) -> float | None:
    """The number (``1,234.5``) after ``pattern`` (a regular expression) in a benchmark's output, or None."""
    found = re.search(pattern + r"\s*([\d,]+(?:\.\d+)?)", output)
    return float(found.group(1).replace(",", "")) if found else None
