"""Shared helpers for the harness tests."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


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
