"""What ``--stats`` costs: the same ``referee check`` run with and without it, in one process, one after the other.

Run: ``python benchmarks/bench_stats.py [--examples N] [--rounds R]``

Printed: wall and CPU seconds for each run (the best of ``--rounds``, alternated), their ratios, and the median
and range of each round's own CPU ratio (target: at most 1.5x): a shared virtual machine's speed drifts between
rounds by more than the difference measured, and a round's two runs drift least. The machine is shared: both figures come from the same run, side by side; the CPU ratio moves least
with other processes' load.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time

from referee.engines.transports import PythonEngine
from referee.model.combat import fast
from referee.examples.engine import run
from referee.check.harness import CheckOptions, check


def seconds(examples: int, stats: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``check`` run of ``examples`` scenarios, with or without ``--stats``."""
    options = CheckOptions(examples=examples, seed=20261202, database=None, shrink=False, state_dir=None, stats=stats)
    fast.clear_memos()  # each run starts cold: the model's memos would favour whichever run came second
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    report = check(PythonEngine(run), options)
    assert report.status == "pass", report.text()
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    seconds(200, True)  # warm up: imports, the drawers, the tagged functions' probes
    plain, stats = [], []
    for _ in range(args.rounds):  # alternated, so that a change in the machine's load falls on both
        plain.append(seconds(args.examples, False))
        stats.append(seconds(args.examples, True))
    (wall0, cpu0), (wall1, cpu1) = (min(w for w, _ in plain), min(c for _, c in plain)), (
        min(w for w, _ in stats), min(c for _, c in stats))
    paired = sorted(s[1] / p[1] for p, s in zip(plain, stats))  # each round's own ratio: the machine's drift cancels
    print(f"{args.examples} scenarios (load average {os.getloadavg()[0]:.2f}): {wall0:.2f} s without --stats, "
          f"{wall1:.2f} s with: {wall1 / wall0:.2f}x wall clock; CPU {cpu0:.2f} s and {cpu1:.2f} s: {cpu1 / cpu0:.2f}x "
          f"(best of each); CPU ratio of each round, paired: median {statistics.median(paired):.2f}x, "
          f"range {paired[0]:.2f}x-{paired[-1]:.2f}x (target: at most 1.5x)")


if __name__ == "__main__":
    main()
