"""The loader under fuzzing (issue 13): mutated scenarios get a decoded scenario or a located
``ProtocolError``, never a crash, and the model runs every scenario the loader accepts.

The default run throws 20,000 mutated scenarios (fixed seed) and prints the rate; ``--runslow``
throws 1,000,000. The mutations are in ``loader_fuzz.py``.
"""

from __future__ import annotations

import pytest

from loader_fuzz import fuzz


def _run(inputs: int, seed: int, capsys) -> None:
    result = fuzz(inputs, seed=seed)
    with capsys.disabled():
        print("\n" + result.summary())
    assert result.inputs == inputs
    assert result.crashes == [], result.crashes[:10]
    assert result.accepted > inputs // 50  # the mutations do not all stop at the envelope
    assert result.rejected > inputs // 2


def test_20000_mutated_scenarios_never_crash_the_loader_or_the_model(capsys):
    _run(20_000, 13, capsys)


@pytest.mark.slow
def test_1000000_mutated_scenarios_never_crash_the_loader_or_the_model(capsys):
    _run(1_000_000, 2026, capsys)
