"""Benchmark of the model: damage instances resolved per second on one core, concretely.

Run: ``python benchmarks/bench_model.py [--instances N] [--seed S] [--profile]``

The scenarios are drawn beforehand with a seeded ``random`` (never inside the timed loop),
from a mix that exercises every step: Armor (perfect squares included), caps, both kinds of
Insurance, multiplied Shield, ally and lethal redirects, defy-death, ticks, Reflects, deaths.
Printed: instances per second overall (best of three passes, the fast twin's bounded memos
of events and Armor answers warm, as in a long campaign; and the first pass with them empty)
and per lane, against the target of 50,000/s; the
single-source pipeline alone (``fast.disabled()``) beside it, for the fast twin's ratio
(``model/combat/fast.py`` takes every concrete untraced instance); and with ``--profile`` where
the single-source pipeline's time goes (the fast twin is off under a profiler). Nothing is
asserted: speed is measured, not tested (DESIGN, quality bars).

``--against REV`` (default: ``baseline.BASELINE_REVISION``, the code before issue 10's
throughput work) runs REV's own copy of this benchmark on REV's code and this one on today's,
each in a subprocess with the same seed and count, alternated ``--rounds`` times, and prints the
best rate of each and their ratio (the machine is shared and its load swings within a minute:
only a ratio measured in one run means anything). ``--against ''`` runs today's code alone,
with the per-lane figures.
Where the time goes is in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections import defaultdict

from referee.model.combat import fast
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


def compare_with(against: str | None, instances: int, seed: int, rounds: int) -> None:
    """REV's benchmark and today's, each in a subprocess, alternated ``rounds`` times; the best rate of each and their ratio.

    The load of a shared machine swings within a minute, so one run of each side in turn is not a
    ratio worth printing; the best of several alternated runs is.
    """
    import subprocess
    import sys
    from pathlib import Path

    from baseline import BASELINE_REVISION, figure, run_benchmark

    revision = against or BASELINE_REVISION
    argv = ["--instances", str(instances), "--seed", str(seed)]
    old, new = [], []
    for n in range(max(1, rounds)):
        old.append(figure(run_benchmark(revision, "bench_model.py", argv), r"resolve_damage:"))
        today = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--against", ""],
                               capture_output=True, text=True, check=True).stdout
        new.append(figure(today, r"resolve_damage:"))
        print(f"  round {n + 1}: {revision} {old[-1]:>9,.0f}/s   today {new[-1]:>9,.0f}/s", flush=True)
    best_old, best_new = max(old), max(new)
    print(f"best of {len(old)}: {revision} {best_old:,.0f} instances/s, today {best_new:,.0f} instances/s: "
          f"{best_new / best_old:.2f}x (target {TARGET_PER_SECOND:,}/s; issue 10: 20,000/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--profile", action="store_true", help="also print where the time goes")
    parser.add_argument("--against", default=None, help="a git revision to measure first, for a ratio ('' for none)")
    parser.add_argument("--rounds", type=int, default=3, help="alternate REV and today this many times; best of each")
    args = parser.parse_args()

    if args.against != "":
        compare_with(args.against, args.instances, args.seed, args.rounds)
        if not args.profile:
            return

    rng = random.Random(args.seed)
    scenarios = [draw_scenario(rng) for _ in range(args.instances)]
    print(f"seed {args.seed}: {args.instances} damage instances, drawn before timing")
    run(scenarios[:500])  # warm up
    fast.clear_memos()
    cold = args.instances / run(scenarios)  # the twin's memos start empty: what one pass over new draws costs
    seconds = min(run(scenarios) for _ in range(3))
    rate = args.instances / seconds
    print(f"resolve_damage: {rate:,.0f} instances/s ({1e6 / rate:.1f} us each; target {TARGET_PER_SECOND:,}/s)")
    print(f"  first pass, the fast twin's memos empty: {cold:,.0f} instances/s")
    with fast.disabled():  # the single-source pipeline alone, in the same run: the fast twin's ratio
        single = args.instances / min(run(scenarios) for _ in range(3))
    print(f"  single-source pipeline alone (fast.disabled()): {single:,.0f} instances/s; the fast twin {rate / single:.2f}x")

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
