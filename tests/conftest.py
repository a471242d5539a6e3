"""Shared pytest configuration: ``slow`` campaigns are deselected unless ``--runslow`` is given."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run long campaigns (deep CrossHair runs, long fuzzing, the full mutant kill table)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    # Deselected rather than skipped: a long campaign not run is not counted as a test.
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]
