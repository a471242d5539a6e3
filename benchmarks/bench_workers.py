"""Throughput of ``referee check --workers N`` against one worker on the same scenarios, in the same run.

Run: ``python benchmarks/bench_workers.py [--examples N] [--workers 2] [--rounds R]``

Both sides check the same scenarios, with one merged report each: N workers are
``referee.check.workers.check_workers`` (N forked processes, worker ``i`` on its own stream, their reports merged);
one worker is the same N shares (worker ``i``'s ``--examples / N`` scenarios), checked one after the other
in this process and merged the same way. Same scenarios, so the ratio measures the workers and not how heavy
two sets of scenarios happen to be (scenario costs are heavy-tailed: two streams of 2,000 differ by several %).

Printed, alternating the two sides ``--rounds`` times:

* the wall-clock rates (best of the rounds) and their ratio: the target is at least 1.8x on two cores, but a
  wall-clock ratio shows how many cores were free as much as the code;
* the CPU seconds a scenario took (user + system; the workers' from ``RUSAGE_CHILDREN``, plus what this process
  spent while they ran): N workers doing the same work as one worker read about 1.00x, whatever the load;
* how loaded the machine was: the cores other processes kept busy while the rounds ran (``/proc/stat``'s busy
  time less this run's own CPU time), and the load average (``os.getloadavg``); with other processes on the
  cores, the wall-clock ratio is depressed, the CPU ratio is not.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
from dataclasses import replace
from functools import partial

from referee.engines.transports import PythonEngine
from referee.check.harness import CheckOptions, check
from referee.check.workers import check_workers, merge_reports

ENGINE = "referee.examples.engine:run"
SEED = 20261202


def _options(examples: int) -> CheckOptions:
    return CheckOptions(examples=examples, seed=SEED, database=None, shrink=False, state_dir=None)


def one(examples: int, workers: int) -> tuple[float, float]:
    """(scenarios per second, CPU seconds a scenario): the workers' shares one after another in this process."""
    share = math.ceil(examples / workers)
    cpu, start = time.process_time(), time.perf_counter()
    reports = [check(PythonEngine(ENGINE), replace(_options(share), worker=i)) for i in range(workers)]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    report = merge_reports(reports)
    assert report.status == "pass" and report.scenarios_run == examples, report.text()
    return report.scenarios_run / wall, cpu / report.scenarios_run


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def many(examples: int, workers: int) -> tuple[float, float]:
    """(scenarios per second, CPU seconds a scenario): ``workers`` processes, one merged report."""
    children, parent = _children_cpu(), time.process_time()
    report = check_workers(partial(PythonEngine, ENGINE), _options(examples), workers)
    cpu = _children_cpu() - children + time.process_time() - parent
    assert report.status == "pass" and report.scenarios_run == examples and report.workers == workers, report.text()
    return report.scenarios_run / report.seconds, cpu / report.scenarios_run


def _busy_seconds() -> float | None:
    """CPU seconds every process of the machine has used (``/proc/stat``: all but idle and iowait); None off Linux."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _our_seconds() -> float:
    return time.process_time() + _children_cpu()


def _load_note(busy: float | None, ours: float, wall: float) -> str:
    """How many cores other processes kept busy while the rounds ran (what depresses a wall-clock ratio)."""
    loads = os.getloadavg()
    note = f"load average {loads[0]:.2f} (1 min, this run's own processes included)"
    if busy is None:
        return note
    others = max(0.0, (busy - ours) / wall)
    flag = "  [other processes shared the cores: the wall-clock ratio is depressed]" if others > 0.1 else ""
    return f"other processes kept {others:.2f} of {os.cpu_count()} cores busy while it ran; {note}{flag}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.examples % args.workers:
        parser.error("--examples must be a multiple of --workers (both sides check the same scenarios)")
    one(200 * args.workers, args.workers)  # warm up: imports, drawers, the model's memos (a forked worker inherits them)
    busy, ours, start = _busy_seconds(), _our_seconds(), time.perf_counter()
    singles, multis = [], []
    for _ in range(args.rounds):
        singles.append(one(args.examples, args.workers))
        multis.append(many(args.examples, args.workers))
    after = _busy_seconds()
    load = _load_note(None if busy is None or after is None else after - busy, _our_seconds() - ours,
                      time.perf_counter() - start)
    rate1, rate_n = max(r for r, _ in singles), max(r for r, _ in multis)
    cpu1, cpu_n = min(c for _, c in singles), min(c for _, c in multis)
    print(f"{args.examples} scenarios, seed {SEED}, {os.cpu_count()} cores, best of {args.rounds} rounds; {load}")
    print(f"  wall clock: one worker {rate1:.0f}/s, {args.workers} workers {rate_n:.0f}/s: {rate_n / rate1:.2f}x "
          f"(target >= 1.8x on two cores)")
    print(f"  CPU a scenario: one worker {cpu1 * 1e6:.0f} us, {args.workers} workers {cpu_n * 1e6:.0f} us: "
          f"{cpu_n / cpu1:.2f}x (1.00x: the workers add no work)")


if __name__ == "__main__":
    main()
