"""Shared helpers for the harness tests."""

from __future__ import annotations

import os
import shlex
import sys
import time
import uuid
from pathlib import Path

import jsonschema
import pytest

HERE = Path(__file__).parent
#: The environment variable that marks every process a harness test starts (and their children).
TOKEN = "REFEREE_TEST_PROCESS_TOKEN"


def faulty_command(mode: str, nth: int = 2) -> str:
    """The command line of the deliberately faulty JSON-lines engine."""
    return shlex.join([sys.executable, str(HERE / "faulty_engine.py"), mode, str(nth)])


def engine_command(*args: str) -> str:
    """The command line of the example engine as a JSON-lines program."""
    return shlex.join([sys.executable, "-m", "referee.examples.engine", *args])


@pytest.fixture
def in_tmp(tmp_path: Path):
    """Run in a scratch directory (the harness writes .referee/ where it runs)."""
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def load_faulty():
    """The faulty engine module, loaded by path (tests/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("referee_faulty_engine", HERE / "faulty_engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def faulty():
    return load_faulty()


@pytest.fixture
def faulty_cmd():
    return faulty_command


@pytest.fixture
def engine_cmd():
    return engine_command


def processes_marked(token: str) -> list[str]:
    """Live processes whose environment holds ``TOKEN=token`` (any descendant, even one reparented
    to init), and zombie children of this process: ``pid command`` each."""
    needle = f"{TOKEN}={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile, or not ours
        if (state != "Z" and needle in environ.split(b"\0")) or (state == "Z" and int(ppid) == os.getpid()):
            found.append(f"{entry} ({state}) {command[:120]}")
    return found


@pytest.fixture(autouse=True)
def no_process_left_behind(monkeypatch):
    """Every engine process a test starts, and every process those start, is gone after the test."""
    if not Path("/proc/self/environ").exists():  # pragma: no cover - not Linux
        yield
        return
    token = uuid.uuid4().hex
    monkeypatch.setenv(TOKEN, token)
    yield
    deadline = time.monotonic() + 3
    left = processes_marked(token)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = processes_marked(token)
    for line in left:  # kill them, so that one failing test does not leak into the next
        try:
            os.kill(int(line.split()[0]), 9)
        except OSError:
            pass
    assert not left, "processes left behind by this test:\n" + "\n".join(left)


def compiled(schema: dict) -> jsonschema.protocols.Validator:
    """``jsonschema.validate`` checks the schema on every call (half a second each): check it once here."""
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return validator(schema)


@pytest.fixture
def redis_server(tmp_path: Path):
    """A real ``redis-server`` of the test's own, on a free port of the loopback (``.ci/run`` installs it)."""
    from harness_tools import RedisServer, require_module, require_program

    program = require_program("redis-server", "redis-server")
    require_module("redis", "redis")
    server = RedisServer(program, tmp_path)
    try:
        yield server
    finally:
        server.stop()
