"""Benchmark of whole battles and trace validation.

Run: ``python benchmarks/bench_battles.py [--battles N] [--trace-actions N]``

Printed figures (one process; CPU time beside wall time, since the machine is shared):

* ``referee check --battle`` with the example engine in-process, at 50 and at 200 actions a battle: battles a
  second and actions a second, beside ``check``'s default two-action mix in the same run;
* ``referee validate`` over a trace the example engine wrote of one long battle (``--trace-actions``, default
  100,000; ``--trace-actions 1000000`` for the million-action figure): actions a second, and the peak memory of
  the validation next to the trace's size on disk (the trace is streamed: the peak does not follow the length).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

from referee.engines.transports import PythonEngine
from referee.examples import engine
from referee.check.harness import CheckOptions, check
from referee.rulebooks.combat.battles import draw_battle_actions, draw_battle_board
from referee.seeded import seeded_draw


def _rate(options: CheckOptions) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    report = check(PythonEngine(engine.run), options)
    assert report.status == "pass", report.text()
    return time.perf_counter() - wall, time.process_time() - cpu, report.scenarios_run


def battle_figures(battles: int) -> None:
    wall, cpu, n = _rate(CheckOptions(examples=battles * 4, seed=7, database=None, shrink=False))
    print(f"check, default two-action mix: {n / cpu:8.1f} scenarios/s a core ({n / wall:.1f}/s wall)")
    for length in (50, 200):
        wall, cpu, n = _rate(CheckOptions(examples=battles, seed=7, database=None, shrink=False, battle=True,
                                          max_actions=length))
        print(f"check --battle --max-actions {length:>3}: {n / cpu:8.1f} battles/s a core, "
              f"{n * length / cpu:8.0f} actions/s a core ({n / wall:.1f} battles/s wall)")


def write_long_trace(path: str, actions: int, board_every: int) -> None:
    """The example engine's trace of one battle ``actions`` long, its actions drawn as it runs (never all held):
    every action's events, the board every ``board_every`` actions and at the end."""
    draw = seeded_draw(random.Random(11))
    board = draw_battle_board(draw, 6)
    scenario = {"board": [dict(u) for u in board], "ruleset": {}, "actions": draw_battle_actions(draw, board, actions)}
    with open(path, "w", encoding="utf-8") as out:
        engine.write_trace(scenario, out, board_every=board_every)


def trace_figures(actions: int, board_every: int = 100) -> None:
    """Write the trace, then validate it in a fresh process (``referee validate``): its rate and its peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "match.jsonl")
        started = time.perf_counter()
        write_long_trace(path, actions, board_every)
        written, size = time.perf_counter() - started, os.path.getsize(path)
        wall = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", VALIDATE, path], capture_output=True, text=True)
        wall = time.perf_counter() - wall
        child = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"trace of {actions:,} actions ({size / 1e6:.0f} MB, the board every {board_every}; written in "
          f"{written:.0f} s): {done.stdout.strip()}; {actions / wall:,.0f} actions/s wall; peak memory of the "
          f"validating process {child.ru_maxrss / 1024:.0f} MB")


#: The validation, in a process of its own so that its peak memory is its own.
VALIDATE = ("import sys, time\nfrom referee.check.validate import validate\nc = time.process_time()\n"
            "r = validate(open(sys.argv[1], encoding='utf-8'), sys.argv[1])\n"
            "print(f'validate {r.status}, {r.actions / (time.process_time() - c):,.0f} actions/s a core')")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=48)
    parser.add_argument("--trace-actions", type=int, default=100_000)
    args = parser.parse_args(argv)
    battle_figures(args.battles)
    for actions in sorted({args.trace_actions // 10, args.trace_actions}):
        trace_figures(actions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
