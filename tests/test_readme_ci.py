"""The README's two set-up commands, and CI running both verbatim, in the README's order, in one clone."""

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


def test_ci_runs_the_readmes_main_command_then_its_test_command_verbatim():
    printed = subprocess.run([str(CI), "--print-command"], capture_output=True, text=True, check=True).stdout
    assert printed.splitlines() == readme_command("main-command") + readme_command("test-command")


def test_the_readme_says_ci_runs_both_commands():
    text = README.read_text(encoding="utf-8")
    assert "`.ci/run` runs the main command, then this test command" in text


def test_ci_script_is_strict_bash():
    lines = CI.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert os.access(CI, os.X_OK)


def _run(script: Path) -> subprocess.CompletedProcess:
    """Run a fake clone's ``.ci/run`` as a user that is not root (a stub ``id``), so it never installs a program."""
    stubs = script.parent / "stubs"
    stubs.mkdir(exist_ok=True)
    (stubs / "id").write_text(f"#!{shutil.which('bash')}\necho 1000\n")
    (stubs / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run([str(script)], capture_output=True, text=True, env=env, timeout=60)


def _fake_checkout(tmp_path: Path, command: str, main: str = "true") -> Path:
    """A clone holding only ``.ci/run`` and a README whose main and test commands are ``main`` and ``command``."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(CI, tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        f"# x\n\n<!-- main-command -->\n```sh\n{main}\n```\n<!-- /main-command -->\n\n"
        f"<!-- test-command -->\n```sh\n{command}\n```\n<!-- /test-command -->\n", encoding="utf-8"
    )
    return tmp_path / ".ci" / "run"


@pytest.mark.parametrize(("exit_code", "expected"), [(0, 0), (1, 1), (5, 1), (3, 3)])
def test_ci_passes_on_the_commands_exit_code_and_fails_when_no_tests_were_collected(tmp_path, exit_code, expected):
    script = _fake_checkout(tmp_path, f'python -c "import sys; sys.exit({exit_code})"')
    result = _run(script)
    assert result.returncode == expected, result.stderr
    if exit_code == 5:
        assert "collected no tests" in result.stderr


def test_ci_runs_the_main_command_first_in_the_same_clone(tmp_path):
    """The test command finds what the main command left in the clone (a newcomer's ``.referee/``, here a file)."""
    script = _fake_checkout(tmp_path, "test -f left-by-main && echo test >> order", main="echo main > order && "
                            "touch left-by-main")
    result = _run(script)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "order").read_text().split() == ["main", "test"]
    assert result.stderr.index("+ echo main") < result.stderr.index("+ test -f")


@pytest.mark.parametrize("exit_code", [1, 5])
def test_a_failing_main_command_fails_ci_and_the_test_command_never_runs(tmp_path, exit_code):
    script = _fake_checkout(tmp_path, "touch tests-ran", main=f"exit {exit_code}")
    result = _run(script)
    assert result.returncode == exit_code, result.stderr
    assert "the README's main command failed (exit code" in result.stderr
    assert not (tmp_path / "tests-ran").exists()


@pytest.mark.parametrize("marker", ["main-command", "test-command"])
def test_invalid_readme_without_a_single_command_stops_ci(tmp_path, marker):
    script = _fake_checkout(tmp_path, "touch tests-ran", main="touch main-ran")
    readme = tmp_path / "README.md"
    block = re.search(rf"<!-- {marker} -->\n```sh\n(.*)\n```", readme.read_text()).group(1)
    readme.write_text(readme.read_text().replace(block, "echo one\necho two"))
    result = _run(script)
    assert result.returncode == 2 and f"exactly one command line between the {marker} markers" in result.stderr
    assert not (tmp_path / "main-ran").exists() and not (tmp_path / "tests-ran").exists()


def test_a_readme_without_the_main_command_stops_ci(tmp_path):
    script = _fake_checkout(tmp_path, "touch tests-ran")
    readme = tmp_path / "README.md"
    readme.write_text(re.sub(r"<!-- main-command -->.*<!-- /main-command -->\n", "", readme.read_text(), flags=re.S))
    result = _run(script)
    assert result.returncode == 2 and "between the main-command markers" in result.stderr
    assert not (tmp_path / "tests-ran").exists()
