"""Seeded bugs of the devset engine, switched on by name regardless of DEVSET_BUGS."""
from __future__ import annotations

from tests.devset.engine import BUG_NAMES, Engine


def engine_with(*names):
    """A run function (scenario dict -> observation dict) with exactly these bugs on."""
    Engine(names)  # validate the names now

    def run(scenario):
        if isinstance(scenario, list):
            return [Engine(names).run(s) for s in scenario]
        return Engine(names).run(scenario)

    run.__name__ = "run_with_" + "_".join(names) if names else "run_clean"
    return run


__all__ = ["BUG_NAMES", "engine_with"]
