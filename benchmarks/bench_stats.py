"""What ``--stats`` costs: the same ``referee check`` run with and without it, in one process, one after the other.

Run: ``python benchmarks/bench_stats.py [--examples N] [--rounds R]``

Printed: seconds for each run (the best of ``--rounds``), and the ratio (target: at most 1.5x). The machine is
shared: both figures come from the same run, side by side, and the ratio is what counts.
"""

from __future__ import annotations

import argparse
import time

from referee.engines import PythonEngine
from referee.examples.engine import run
from referee.harness import CheckOptions, check


def seconds(examples: int, stats: bool) -> float:
    options = CheckOptions(examples=examples, seed=20261202, database=None, shrink=False, state_dir=None, stats=stats)
    start = time.perf_counter()
    report = check(PythonEngine(run), options)
    assert report.status == "pass", report.text()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seconds(200, True)  # warm up: imports, the drawers, the tagged functions' table
    plain = min(seconds(args.examples, False) for _ in range(args.rounds))
    stats = min(seconds(args.examples, True) for _ in range(args.rounds))
    print(f"{args.examples} scenarios: {plain:.2f} s without --stats, {stats:.2f} s with: {stats / plain:.2f}x")


if __name__ == "__main__":
    main()
