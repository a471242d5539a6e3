"""CPU time a scenario of each stage of ``referee check``'s per-scenario work, in microseconds.

Run: ``python benchmarks/bench_judge_stages.py [STAGE ...]`` (every stage when none is named).

The throughput benchmark (``bench_harness.py``) times whole runs, and on the shared 2-core machine
its rates move by 2x with the other processes' load. This one times each stage alone, on 1,024
seeded scenarios (the default mix), with ``time.process_time`` (this process's CPU time only), best
of 5, so a change to one stage can be measured before and after within a minute: run it on an
earlier revision's code with ``PYTHONPATH=<that tree>`` (``baseline.export``) beside today's.

Stages: ``draw`` (seeded generation of the scenarios), ``encode`` (the JSON lines an ``--engine`` is sent),
``echo`` (the echo engine of ``echo_engine.py``, the harness's ceiling: the model's answer looked up), ``copy`` (the deep copy an in-process engine
is given), ``run_batch`` (the in-process engine adapter, batches of 32: copy, alarm, the example
engine, the plain-JSON check), ``engine`` (the example engine on a fresh copy: less ``copy``, the engine alone),
``plain_answer``, ``decode_scenario`` (envelope, codec, domain, actions), ``model_observation``
(decode and the model's run), ``check_answer`` (decoding and checking the engine's answer),
``compare`` and ``judge`` (model, answer and comparison: what the harness does per scenario after
the engine answered). Where the time goes and what changed: ``docs/performance.md``.
"""

from __future__ import annotations

import sys
import time

from referee.check.compare import compare
from referee.engines.transports import PythonEngine, _copy, _plain_answer, check_answer, encode_lines
from referee.examples.engine import run as example_run
from referee.check.harness import CheckOptions, judge, model_observation
from referee.protocol import decode_scenario, rulebook_of
from referee.seeded import draw_seeded
from referee.check.strategies import scenarios

from echo_engine import EchoEngine

SEED = 20261130
COUNT = 1024


def _draw(strategy) -> list[dict]:
    out, seed = [], SEED
    while len(out) < COUNT:
        out += draw_seeded(strategy, seed, 32)
        seed += 1
    return out


def main(argv: list[str]) -> int:
    comparison = CheckOptions().comparison
    strategy = scenarios()
    draw_seeded(strategy, 1, 32)  # compile the drawers once
    batch = _draw(strategy)
    for i, scenario in enumerate(batch):
        scenario.pop("_seed", None)
        scenario.pop("_group", None)
        scenario["id"] = f"s{i}"
    answers = {id(s): example_run(_copy(s)) for s in batch}
    observed = {id(s): check_answer(answers[id(s)], s, fields_needed=None, events_needed=True) for s in batch}
    expected = {id(s): model_observation(s) for s in batch}
    engine = PythonEngine(example_run)
    echo = EchoEngine(learn=True)
    for scenario in batch:
        echo.run(scenario)
    stages = {
        "draw": lambda: _draw(strategy),
        "encode": lambda: [encode_lines(batch[i:i + 32]) for i in range(0, COUNT, 32)],
        "echo": lambda: [echo.run(s) for s in batch],
        "copy": lambda: [_copy(s) for s in batch],
        "run_batch": lambda: [engine.run_batch(batch[i:i + 32]) for i in range(0, COUNT, 32)],
        "engine": lambda: [example_run(_copy(s)) for s in batch],
        "plain_answer": lambda: [_plain_answer(answers[id(s)], s) for s in batch],
        "decode_scenario": lambda: [decode_scenario(s) for s in batch],
        "model_observation": lambda: [model_observation(s) for s in batch],
        "check_answer": lambda: [check_answer(answers[id(s)], s, fields_needed=None, events_needed=True) for s in batch],
        "compare": lambda: [compare(expected[id(s)], observed[id(s)], comparison, rulebook_of(s)) for s in batch],
        "judge": lambda: [judge(s, answers[id(s)], comparison) for s in batch],
    }
    unknown = [name for name in argv if name not in stages]
    if unknown:
        print(f"unknown stage(s) {', '.join(unknown)} (known: {', '.join(stages)})", file=sys.stderr)
        return 2
    print(f"CPU microseconds a scenario ({COUNT} seeded scenarios, best of 5, time.process_time):")
    for name in argv or list(stages):
        best = float("inf")
        for _ in range(5):
            started = time.process_time()
            stages[name]()
            best = min(best, time.process_time() - started)
        print(f"  {name:<18} {best / COUNT * 1e6:8.1f} us", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
