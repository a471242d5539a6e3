"""CrossHair confirms the contracts of the play model's integer helpers over all paths (crosshair_contracts_play.py)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.specs.trace import covers

CONTRACTS = Path(__file__).with_name("crosshair_contracts_play.py")


@pytest.mark.slow
@covers("play:356.6", "play:356.4", "play:357.1")
def test_crosshair_confirms_every_play_contract_over_all_paths():
    command = [sys.executable, "-m", "crosshair", "check", "--analysis_kind=PEP316", "--report_all"]
    command += ["--per_condition_timeout=60", str(CONTRACTS)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    conditions = len(re.findall(r"^\s+post:", CONTRACTS.read_text(), flags=re.M))
    confirmed = run.stdout.count("Confirmed over all paths")
    assert run.returncode == 0 and confirmed == conditions, f"{' '.join(command)}\n{run.stdout}{run.stderr}"


def test_play_model_does_not_import_the_combat_model():
    """The play rulebook is independent: importing all of it loads no combat module."""
    code = (
        "import importlib, pkgutil, sys, referee.model.play as p\n"
        "[importlib.import_module(i.name) for i in pkgutil.walk_packages(p.__path__, p.__name__ + '.')]\n"
        "print(sorted(m for m in sys.modules if m.startswith('referee.')))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert ast.literal_eval(loaded) == sorted(
        ["referee.model", "referee.model.arith", "referee.model.clauses"]
        + [f"referee.model.play.{m}" for m in ("actions", "cost", "examples", "legal", "payment", "process", "rules", "state")]
        + ["referee.model.play"]
    )
