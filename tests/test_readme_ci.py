"""The README's two set-up commands, and CI running the README's test command verbatim."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / ".ci" / "run"
README = ROOT / "README.md"


def readme_command(marker: str, text: str | None = None) -> list[str]:
    """The non-fence lines between ``<!-- marker -->`` and ``<!-- /marker -->``."""
    text = README.read_text(encoding="utf-8") if text is None else text
    block = re.search(rf"<!-- {marker} -->\n(.*?)<!-- /{marker} -->", text, re.S)
    assert block, f"README.md has no <!-- {marker} --> ... <!-- /{marker} --> block"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.startswith("```")]


def test_readme_gives_exactly_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    assert text.count("```sh") == 2
    assert readme_command("main-command") == [
        "pip install -e . && referee prove && referee check --python referee.examples.engine:run --examples 300"
    ]
    assert readme_command("test-command") == ['pip install -e ".[test]" && python -m pytest -n auto --dist loadfile']


def test_ci_runs_the_readmes_test_command_verbatim():
    printed = subprocess.run([str(CI), "--print-command"], capture_output=True, text=True, check=True).stdout
    assert printed.splitlines() == readme_command("test-command")


def test_ci_script_is_strict_bash():
    lines = CI.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert os.access(CI, os.X_OK)


def _fake_checkout(tmp_path: Path, command: str) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy(CI, tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        f"# x\n\n<!-- test-command -->\n```sh\n{command}\n```\n<!-- /test-command -->\n", encoding="utf-8"
    )
    return tmp_path / ".ci" / "run"


@pytest.mark.parametrize(("exit_code", "expected"), [(0, 0), (1, 1), (5, 1), (3, 3)])
def test_ci_passes_on_the_commands_exit_code_and_fails_when_no_tests_were_collected(tmp_path, exit_code, expected):
    script = _fake_checkout(tmp_path, f'python -c "import sys; sys.exit({exit_code})"')
    result = subprocess.run([str(script)], capture_output=True, text=True)
    assert result.returncode == expected, result.stderr
    if exit_code == 5:
        assert "collected no tests" in result.stderr


def test_invalid_readme_without_a_single_test_command_stops_ci(tmp_path):
    script = _fake_checkout(tmp_path, "echo one\necho two")
    result = subprocess.run([str(script)], capture_output=True, text=True)
    assert result.returncode == 2 and "exactly one command line" in result.stderr
