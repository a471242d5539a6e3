""".ci/run installs the system programs the default run needs (redis-server, chromium), only when missing.

The script runs against stub ``apt-get`` and ``id`` programs on a PATH that holds nothing else
(but ``awk``, ``dirname`` and ``bash``), with a one-word README command: what it would install is what the
stub ``apt-get`` records. Nothing is installed for real.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / ".ci" / "run"


def _stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!{shutil.which('bash')}\n{body}\n")
    path.chmod(0o755)


#: The engine kits' toolchain (tests/kits/): programs looked up on the PATH, and Debian's crates.
KIT_PROGRAMS = ("node", "npm", "cargo")
KIT_CRATES = ("serde", "serde_derive", "serde_json", "sha2")
KIT_PACKAGES = ["nodejs", "npm", "cargo", "librust-serde-dev", "librust-serde-derive-dev", "librust-serde-json-dev",
                "librust-sha2-dev"]


def _run_ci(tmp_path: Path, *, uid: int, have_redis: bool,
            have_kits: bool = False, crates: tuple[str, ...] | None = None,
            ) -> tuple[subprocess.CompletedProcess, list[str]]:
    checkout, bin_dir = tmp_path / "checkout", tmp_path / "bin"
    (checkout / ".ci").mkdir(parents=True)
    bin_dir.mkdir()
    shutil.copy(CI, checkout / ".ci" / "run")
    (checkout / "README.md").write_text("<!-- main-command -->\n```sh\ntrue\n```\n<!-- /main-command -->\n"
                                        "<!-- test-command -->\n```sh\ntrue\n```\n<!-- /test-command -->\n")
    for tool in ("awk", "dirname", "bash"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    log = tmp_path / "apt.log"
    _stub(bin_dir, "apt-get", f'echo "$*" >> {log}')
    _stub(bin_dir, "id", f"echo {uid}")
    if have_redis:
        _stub(bin_dir, "redis-server", "exit 0")
    registry = tmp_path / "registry"
    registry.mkdir()
    if have_kits:
        for program in KIT_PROGRAMS:
            _stub(bin_dir, program, "exit 0")
        for crate in KIT_CRATES if crates is None else crates:
            (registry / f"{crate}-1.0.0").mkdir()
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "REFEREE_CARGO_REGISTRY": str(registry)}
    result = subprocess.run([shutil.which("bash"), str(checkout / ".ci" / "run")], capture_output=True, text=True,
                            env=env, timeout=60)
    return result, log.read_text().splitlines() if log.exists() else []


def _chromium_missing() -> list[str]:
    return [] if os.access("/usr/bin/chromium", os.X_OK) else ["chromium"]


def test_ci_installs_a_missing_redis_server_quietly_before_the_readme_command(tmp_path):
    result, apt = _run_ci(tmp_path, uid=0, have_redis=False, have_kits=True)
    assert result.returncode == 0, result.stderr
    wanted = ["redis-server", *_chromium_missing()]
    assert apt == ["update -qq", f"install -y -qq {' '.join(wanted)}"]
    assert result.stderr.index("installing") < result.stderr.index("+ true")


@pytest.mark.skipif(not os.access("/usr/bin/chromium", os.X_OK), reason="the machine lacks /usr/bin/chromium, "
                    "so .ci/run rightly installs it: the nothing-missing case needs it present")
def test_ci_installs_nothing_when_the_programs_are_there(tmp_path):
    result, apt = _run_ci(tmp_path, uid=0, have_redis=True, have_kits=True)
    assert result.returncode == 0, result.stderr
    assert apt == [] and "installing" not in result.stderr


def test_ci_installs_the_engine_kits_toolchains_when_missing(tmp_path):
    result, apt = _run_ci(tmp_path, uid=0, have_redis=True)
    assert result.returncode == 0, result.stderr
    assert apt == ["update -qq", f"install -y -qq {' '.join([*_chromium_missing(), *KIT_PACKAGES])}"]


def test_ci_installs_only_the_crate_that_is_missing(tmp_path):
    result, apt = _run_ci(tmp_path, uid=0, have_redis=True, have_kits=True, crates=KIT_CRATES[:-1])
    assert result.returncode == 0, result.stderr
    assert apt == ["update -qq", f"install -y -qq {' '.join([*_chromium_missing(), 'librust-sha2-dev'])}"]


def test_ci_without_root_installs_nothing_and_says_what_is_missing(tmp_path):
    result, apt = _run_ci(tmp_path, uid=1000, have_redis=False)
    assert result.returncode == 0, result.stderr
    assert apt == [] and "redis-server" in result.stderr and "needs root" in result.stderr
