"""The native vector run: every vector of a referee release, replayed through ``engine.core.answer``.

    referee vectors export vectors --release
    REFEREE_VECTORS=vectors pytest tests/test_vectors.py

Filters and settings (environment): REFEREE_KINDS, REFEREE_FEATURES, REFEREE_EXCLUDE_FEATURES,
REFEREE_EXPECTED_FAILURES=FILE (one vector path a line), REFEREE_VERDICTS=FILE (every verdict, as JSON).
"""

import os
from pathlib import Path

import pytest

from engine.core import answer
from engine.vectors import ReleaseError, run_release


def test_the_engine_passes_every_vector_of_the_release(capsys):
    """Fails on any failure, fault or stale expected failure, or when no vector ran; prints the clause table."""
    try:
        report = run_release(Path(os.environ.get("REFEREE_VECTORS", "vectors")), answer, os.environ)
    except ReleaseError as error:
        pytest.fail(f"referee vectors (native): refused: {error}", pytrace=False)
    with capsys.disabled():
        print("\n" + report.text())
    if not report.passed:
        pytest.fail(report.outcome(), pytrace=False)
