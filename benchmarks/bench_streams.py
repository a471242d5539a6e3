"""How independent the seeded scenario streams are (``referee.check.streams``): repeats within a run, overlap of two runs.

Run: ``python benchmarks/bench_streams.py [--examples N] [--kinds K,...] [--through-check]``

Printed figures, for run seeds 1 and 2 (worker 0, batches of 32, the default mix unless ``--kinds``):

* distinct scenarios among the first N of seed 1 (the target: at least 99.9% of 100,000);
* scenarios seed 1 and seed 2 share (the target: none beyond the space's smallest corners, each
  shared one printed, shortest first, so the corner can be named);
* whether the first batch of seed 1 differs from the first batch of seed 2;
* with ``--through-check``: the same figures from the scenarios ``referee check`` itself sent to an
  engine (Hypothesis' integers, the batch numbering and the example database off), so the harness's
  use of the stream is measured, not only the stream.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from referee.check.strategies import scenarios
from referee.check.streams import draw_batch

BATCH = 32


def stream_lines(seed: int, examples: int, kinds: tuple[str, ...] | None) -> list[str]:
    """The first ``examples`` scenarios of run ``seed``, worker 0, as canonical JSON."""
    strategy = scenarios(kinds=kinds) if kinds else scenarios()
    out: list[str] = []
    for batch in range((examples + BATCH - 1) // BATCH):
        out += [json.dumps(s, sort_keys=True) for s in draw_batch(strategy, seed, 0, batch, BATCH)]
    return out[:examples]


def checked_lines(seed: int, examples: int, kinds: tuple[str, ...] | None) -> list[str]:
    """The scenarios ``referee check`` sent to the example engine in a run of ``seed``, as canonical JSON."""
    from referee.engines.transports import PythonEngine
    from referee.examples.engine import run
    from referee.check.harness import CheckOptions, check

    sent: list[str] = []

    def recording(scenario):
        sent.append(json.dumps({k: v for k, v in scenario.items() if k != "id"}, sort_keys=True))
        return run(scenario)

    options = CheckOptions(examples=examples, seed=seed, database=None, shrink=False, kinds=kinds, state_dir=None)
    report = check(PythonEngine(recording), options)
    assert report.status == "pass", report.text()
    return sent


def report(name: str, one: list[str], two: list[str]) -> None:
    distinct = len(set(one))
    shared = sorted(set(one) & set(two), key=len)
    print(f"{name}: {distinct:,} distinct of {len(one):,} scenarios of seed 1 ({100 * distinct / len(one):.3f}%); "
          f"seeds 1 and 2 share {len(shared):,}; first batch differs: {one[:BATCH] != two[:BATCH]}")
    for line, count in Counter(one).most_common(3):
        if count > 1:
            print(f"  repeated {count}x in seed 1: {line[:240]}")
    for line in shared[:3]:
        print(f"  shared: {line[:240]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--kinds", default="", help="action kinds, comma-separated (default: the default mix)")
    parser.add_argument("--through-check", action="store_true", help="also measure what referee check sends")
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(",")) if args.kinds else None
    start = time.perf_counter()
    report("stream", stream_lines(1, args.examples, kinds), stream_lines(2, args.examples, kinds))
    print(f"  ({time.perf_counter() - start:.1f} s)")
    if args.through_check:
        start = time.perf_counter()
        report("referee check", checked_lines(1, args.examples, kinds), checked_lines(2, args.examples, kinds))
        print(f"  ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
