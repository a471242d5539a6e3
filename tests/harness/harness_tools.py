"""Outside programs some harness tests need (a Redis server, a headless Chromium), and how they start.

On a developer's machine a missing program skips its test, saying how to install it; in CI
(``CI=true``) it fails the test: ``.ci/run`` installs both, so a missing one there is a broken
CI, never a silent pass.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def require(what: str, how: str, found: bool) -> None:
    """Skip (on a developer's machine) or fail (in CI) unless ``found``."""
    if found:
        return
    message = f"{what} is missing: {how}"
    if in_ci():
        pytest.fail(f"{message} (CI=true: .ci/run should have installed it)", pytrace=False)
    pytest.skip(message)


def require_program(name: str, package: str, path: str | None = None) -> str:
    """The path of program ``name`` (or exactly ``path``), else skip/fail naming the Debian package."""
    found = path if path and Path(path).is_file() else shutil.which(name)
    require(f"the program {path or name}", f"apt-get install -y {package}", found is not None)
    return str(found)


def require_module(name: str, package: str) -> None:
    """The Python module ``name`` imports, else skip/fail naming the PyPI package (in the test extras)."""
    try:
        __import__(name)
    except ImportError:
        require(f"the Python package {package}", f'pip install -e ".[test]" (or pip install {package})', False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A throwaway ``redis-server`` on a free port, nothing saved to disk; killed by :meth:`stop`."""

    def __init__(self, program: str, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = folder / "redis.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--daemonize", "no", "--dir", str(folder)],
                stdout=log, stderr=subprocess.STDOUT)
        self._wait_ready()

    def _wait_ready(self, seconds: float = 20.0) -> None:
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + seconds
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited ({self.process.returncode}): {self.log.read_text()[-2000:]}")
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"redis-server did not answer in {seconds} s: {self.log.read_text()[-2000:]}")
                time.sleep(0.05)

    def client(self, db: int = 0):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, db=db)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


# -- vectors of the hand-written boundary cases only ---------------------------------------------------------------


def boundary_cases_only(found: list | None = None):
    """A context in which ``vectors export`` writes ``found`` (default: the hand-written boundary cases) instead of
    searching with Z3: seconds, not minutes."""
    import contextlib

    from referee.rulebooks.combat.vectors import boundary_vectors
    from referee.vectors import suite
    from referee.vectors.suite import Generated

    cases = list(boundary_vectors() if found is None else found)

    @contextlib.contextmanager
    def patched():
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(suite, "generate", lambda progress=None, only=None, profile=None: Generated(list(cases), {}))
            yield cases

    return patched()


def export_boundary_cases(out: Path, *flags: str) -> Path:
    """``referee vectors export OUT --quiet FLAGS`` over the boundary cases only; ``out``."""
    from typer.testing import CliRunner

    from referee.cli.app import app

    with boundary_cases_only():
        result = CliRunner().invoke(app, ["vectors", "export", str(out), "--quiet", *flags])
    assert result.exit_code == 0, result.output
    return out
