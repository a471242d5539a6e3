"""The tests that need an outside program skip on a developer's machine without it, and fail in CI."""

from __future__ import annotations

import pytest

from harness_tools import require, require_program


def test_a_missing_program_skips_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y no-such-package"):
        require_program("referee-no-such-program", "no-such-package")


def test_a_missing_program_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true: .ci/run should have installed it"):
        require_program("referee-no-such-program", "no-such-package", "/nonexistent/referee-no-such-program")


def test_a_present_program_neither_skips_nor_fails(monkeypatch):
    monkeypatch.setenv("CI", "true")
    assert require_program("sh", "dash").endswith("/sh")
    require("a thing", "nothing to do", True)
