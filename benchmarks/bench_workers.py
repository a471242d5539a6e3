"""Throughput of ``referee check --workers N`` against one worker, in the same run.

Run: ``python benchmarks/bench_workers.py [--examples N] [--workers 2] [--rounds R]``

Printed: scenarios per second of one worker (``check`` in this process) and of N workers
(``referee.workers.check_workers``: N forked processes on disjoint streams, their reports merged), each the
best of ``--rounds``, alternated, and the ratio (target: at least 1.8x on two cores). The rates are wall-clock:
on a machine other processes load, the ratio shows how many cores were free, not only the code.
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial

from referee.engines import PythonEngine
from referee.harness import CheckOptions, check
from referee.workers import check_workers

ENGINE = "referee.examples.engine:run"


def one(examples: int) -> float:
    options = CheckOptions(examples=examples, seed=20261202, database=None, shrink=False, state_dir=None)
    start = time.perf_counter()
    report = check(PythonEngine(ENGINE), options)
    assert report.status == "pass", report.text()
    return report.scenarios_run / (time.perf_counter() - start)


def many(examples: int, workers: int) -> float:
    options = CheckOptions(examples=examples, seed=20261202, database=None, shrink=False, state_dir=None)
    report = check_workers(partial(PythonEngine, ENGINE), options, workers)
    assert report.status == "pass", report.text()
    return report.scenarios_run / report.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    one(200)  # warm up: imports, drawers, the model's memos (a forked worker inherits them)
    singles, multis = [], []
    for _ in range(args.rounds):
        singles.append(one(args.examples))
        multis.append(many(args.examples, args.workers))
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}: one worker {max(singles):.0f}/s, "
          f"{args.workers} workers {max(multis):.0f}/s: {max(multis) / max(singles):.2f}x")


if __name__ == "__main__":
    main()
