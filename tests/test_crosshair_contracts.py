"""CrossHair on the integer helpers' contracts: no counterexample, every helper confirmed.

CrossHair's exit code 0 only means "no counterexample found"; the assertion that matters
is that it reports "Confirmed over all paths" for every condition. A deliberately wrong
contract shows that a counterexample is found and reported as one.
"""

from __future__ import annotations

import sys
import textwrap

from referee.proofs import contracts


def test_arith_helpers_are_confirmed_over_all_paths() -> None:
    report = contracts.run_crosshair(per_condition_timeout=4, total_timeout=55)
    assert report.error == ""
    assert report.ok
    for result in report.results:
        assert result.conditions, f"CrossHair said nothing about {result.helper}"
        assert result.status == "confirmed", (result.helper, [c.message for c in result.conditions])
    assert set(report.confirmed()) == set(contracts.CONTRACTS)


def test_contracts_call_the_helpers_unchanged() -> None:
    assert contracts.ceildiv(7, 2) == 4 and contracts.floordiv(-7, 2) == -4
    assert contracts.least_such_that_square(10, 4) == 4
    assert contracts.clamp(9, 0, 5) == 5


def test_a_wrong_contract_gets_a_counterexample(tmp_path) -> None:
    source = tmp_path / "wrong_contract.py"
    source.write_text(
        textwrap.dedent(
            '''
            from referee.model import arith

            def ceildiv(a: int, b: int) -> int:
                """
                pre: b > 0
                post: __return__ * b <= a
                """
                return arith.ceildiv(a, b)
            '''
        )
    )
    import subprocess

    completed = subprocess.run(
        [sys.executable, "-m", "crosshair", "check", "--per_condition_timeout=4", str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 1
    assert "error: false when calling ceildiv" in completed.stdout
