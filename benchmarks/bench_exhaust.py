"""Benchmark of ``referee exhaust``: enumeration plus model, per core, beside ``check``'s throughput in one run.

Run: ``python benchmarks/bench_exhaust.py [--tier tiny|small|standard] [--examples N]``

Printed figures (CPU time of this one process, so a figure is per core; the wall-clock rate beside it):

* the tier's enumeration alone (families, symmetry reduction), scenarios a second;
* enumeration plus the model's observation of every scenario (the target: 1,000 scenarios a second a core);
* the tier run through the example engine in-process (enumeration, engine, model and comparison);
* ``referee check`` with the same engine in-process, on the default mix, in the same run (a ratio: the
  machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import time

from referee.vectors import exhaust
from referee.check.compare import Comparison
from referee.engines.transports import PythonEngine
from referee.check.harness import CheckOptions, check, expect


def _timed(work) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="tiny", choices=exhaust.TIERS)
    parser.add_argument("--examples", type=int, default=2000, help="scenarios for referee check's figure")
    args = parser.parse_args(argv)

    wall, cpu, found = _timed(lambda: exhaust.scope(args.tier))
    n = len(found.scenarios)
    print(f"tier {args.tier}: {n} scenarios ({found.enumerated.candidates} candidates, "
          f"{found.enumerated.reduced} equal up to symmetry)")
    print(f"  enumeration alone:            {n / cpu:8.0f} scenarios/s a core ({n / wall:.0f}/s wall)")
    wall2, cpu2, _ = _timed(lambda: [expect(s) for _, s in exhaust.with_ids(found)])
    print(f"  enumeration plus model:       {n / (cpu + cpu2):8.0f} scenarios/s a core ({n / (wall + wall2):.0f}/s wall)")
    engine = PythonEngine("referee.examples.engine:run")
    wall3, cpu3, report = _timed(lambda: exhaust.check(engine, found, Comparison()))
    print(f"  tier through the engine:      {n / (cpu + cpu3):8.0f} scenarios/s a core ({n / (wall + wall3):.0f}/s wall), "
          f"{report.status}")
    options = CheckOptions(examples=args.examples, seed=20261202, database=None, shrink=False)
    wall4, cpu4, checked = _timed(lambda: check(engine, options))
    print(f"  referee check (same engine):  {checked.scenarios_run / cpu4:8.0f} scenarios/s a core "
          f"({checked.scenarios_run / wall4:.0f}/s wall), {checked.status}")
    print(f"  ratio, tier through the engine / check: {(n / (cpu + cpu3)) / (checked.scenarios_run / cpu4):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
