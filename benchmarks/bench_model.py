"""Benchmark of the model: damage instances resolved per second on one core, concretely.

Run: ``python benchmarks/bench_model.py [--instances N] [--seed S] [--profile]``

The scenarios are drawn beforehand with a seeded ``random`` (never inside the timed loop),
from a mix that exercises every step: Armor (perfect squares included), caps, both kinds of
Insurance, multiplied Shield, ally and lethal redirects, defy-death, ticks, Reflects, deaths.
Printed: instances per second overall and per lane, against the target of 50,000/s, and the
share of time in the shared helpers (with ``--profile``). Nothing is asserted: speed is
measured, not tested (DESIGN, quality bars).

``--against REV`` (default: ``baseline.BASELINE_REVISION``, the code before issue 10's
throughput work; ``''`` for none) first runs REV's own copy of this benchmark on REV's code,
in a subprocess, with the same seed and count, and prints today's rate as a ratio of it
(the machine is shared and noisy: only a ratio measured in one run means anything).
Where the time goes is in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections import defaultdict

from referee.model.combat.damage import DamageInstance, resolve_damage
from referee.model.combat.ruleset import DEFAULT
from referee.model.combat.state import Board, Unit

TARGET_PER_SECOND = 50_000


def draw_unit(rng: random.Random, uid: str, side: int, col: int, **fixed: object) -> Unit:
    root = rng.randint(0, 15)
    fields = dict(
        vitality=rng.randint(1, 150),
        armor=rng.choice([root * root, rng.randint(-100, 300), 0]),
        has_cap=rng.random() < 0.2,
        cap=rng.randint(10, 80),
        subrogated=rng.choice([0, 0, 1, 2]),
        insurance=rng.choice([0, 0, 1, 3]),
        shield=rng.choice([0, 0, 10, 40]),
        defy_death=rng.random() < 0.2,
        shield_multiplier=rng.choice([1, 1, 2]),
        prismbroken=rng.random() < 0.2,
        rune_tick_reduction=rng.randint(0, 3),
        redirect_cap=rng.randint(0, 30),
        ignore_charges=rng.choice([0, 0, 0, 0, 1]),
        dormant=rng.random() < 0.05,
    )
    fields.update(fixed)
    return Unit(uid=uid, side=side, row=0, col=col, **fields)


def draw_scenario(rng: random.Random) -> tuple[Board, DamageInstance]:
    a = draw_unit(rng, "a", 0, 0, redirect_to=rng.choice([None, None, "b"]), intercept_by=rng.choice([None, None, "c"]))
    units = (a, draw_unit(rng, "b", 0, 1), draw_unit(rng, "c", 0, 2), draw_unit(rng, "e", 1, 0))
    kind = rng.choice(["hit", "hit", "hit", "burn", "venom", "tremor", "aoe", "reflect", "overtime"])
    source = None if kind == "overtime" else "e"
    return Board(units), DamageInstance("a", rng.randint(1, 200), source, kind)


def run(scenarios: list[tuple[Board, DamageInstance]]) -> float:
    """Seconds to resolve every scenario once."""
    start = time.perf_counter()
    for board, instance in scenarios:
        resolve_damage(board, instance, DEFAULT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--profile", action="store_true", help="also print where the time goes")
    parser.add_argument("--against", default=None, help="a git revision to measure first, for a ratio ('' for none)")
    args = parser.parse_args()

    before = None
    if args.against != "":
        from baseline import BASELINE_REVISION, figure, run_benchmark

        revision = args.against or BASELINE_REVISION
        output = run_benchmark(revision, "bench_model.py", ["--instances", str(args.instances), "--seed", str(args.seed)])
        before = figure(output, r"resolve_damage:")
        print(f"at {revision} (the same benchmark, in a subprocess): {before:,.0f} instances/s")

    rng = random.Random(args.seed)
    scenarios = [draw_scenario(rng) for _ in range(args.instances)]
    print(f"seed {args.seed}: {args.instances} damage instances, drawn before timing")
    run(scenarios[:500])  # warm up
    seconds = min(run(scenarios) for _ in range(3))
    rate = args.instances / seconds
    print(f"resolve_damage: {rate:,.0f} instances/s ({1e6 / rate:.1f} us each; target {TARGET_PER_SECOND:,}/s)")
    if before:
        print(f"  {rate / before:.2f}x the rate at {args.against or 'the baseline revision'}, measured in this run")

    lanes: dict[str, list[tuple[Board, DamageInstance]]] = defaultdict(list)
    for scenario in scenarios:
        lanes[scenario[1].kind].append(scenario)
    for kind, chosen in sorted(lanes.items()):
        print(f"  {kind:9s} {len(chosen) / run(chosen):>10,.0f} instances/s")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(scenarios[:3000])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
