"""Wall time of the proof suite with ``--jobs 2``, and its slowest theorems and checks.

A script, not a test: it prints measurements and asserts nothing about time.

    python benchmarks/bench_prove.py [--jobs 2] [-k PATTERN] [--top 10]
"""

from __future__ import annotations

import argparse
import os
import time

from referee.proofs import runner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("-k", dest="pattern", default=None)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()

    theorems = runner.select(runner.discover().values(), args.pattern)
    checks: list[tuple[float, str, str]] = []

    def on_verdict(task: runner.Task, verdict) -> None:
        checks.append((verdict.seconds, str(task), verdict.status))

    start = time.perf_counter()
    suite = runner.run(theorems, jobs=args.jobs, on_verdict=on_verdict)
    wall = time.perf_counter() - start
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    print(f"proof suite: {len(theorems)} theorems, {len(checks)} checks, --jobs {args.jobs}")
    print(f"wall time: {wall:.1f} s   (sum of check times {sum(c[0] for c in checks):.1f} s, load average {load:.1f})")
    print(f"all passing: {suite.ok}")
    print(f"\nslowest theorems (all checks of the theorem, proof time, slowest single check):")
    for result in sorted(suite.theorems, key=lambda r: r.total_seconds, reverse=True)[: args.top]:
        print(
            f"  {result.total_seconds:7.2f} s  proof {result.seconds:6.2f} s  max {result.slowest_check:6.2f} s"
            f"  {result.status:<15} {result.name}"
        )
    print(f"\nslowest checks:")
    for seconds, task, status in sorted(checks, reverse=True)[: args.top]:
        print(f"  {seconds:7.2f} s  {status:<15} {task}")


if __name__ == "__main__":
    main()
