"""CrossHair contracts on the integer helpers of costs, Reflect and Bloodletting.

CrossHair reports "Confirmed over all paths" for each postcondition below (measured: every
one confirmed, about 10 s in all); the slow test holds that, so a change that makes one
merely "not refuted" shows up. Run with ``--runslow``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee.model.combat.bloodletting import compute_bloodletting_cost
from referee.model.combat.retaliation import compute_reflect_amount
from referee.specs.trace import covers


def reflect_contract(landed: int) -> int:
    """
    pre: landed >= 0
    post: (__return__ >= 1) == (landed > 0)
    post: __return__ <= landed
    post: landed < 20 or 20 * __return__ <= landed < 20 * (__return__ + 1)
    """
    return compute_reflect_amount(landed)


def bloodletting_cost_contract(printed: int, reduction: int) -> int:
    """
    post: __return__ >= 0
    post: __return__ <= max(printed, 0)
    post: reduction < 0 or printed < reduction or __return__ == printed - reduction
    """
    return compute_bloodletting_cost(printed, reduction)


@pytest.mark.slow
@covers("combat:500.7h", "combat:800.4l")
def test_crosshair_confirms_the_integer_contracts_over_all_paths():
    result = subprocess.run(
        [sys.executable, "-m", "crosshair", "check", "--analysis_kind=PEP316", "--report_all",
         "--per_condition_timeout=20", __file__],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = [line for line in result.stdout.splitlines() if "info:" in line or "error:" in line]
    assert len(lines) == 6 and all("Confirmed over all paths" in line for line in lines), result.stdout + result.stderr
