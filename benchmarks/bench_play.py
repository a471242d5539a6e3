"""Play rulebook throughput: plays and activations resolved per second (figures only, no timed asserts).

Run: ``python benchmarks/bench_play.py [--seconds 2] [--seed N]``. Scenarios are drawn with
``random`` from the printed seed, so a run can be repeated exactly.
"""

from __future__ import annotations

import argparse
import random
import time

from referee.model.play.cost import CostComponent, Discount, Modifiers, NonStandardCost, ResourceCost
from referee.model.play.examples import KILL_AND_DISCARD, VI_DESTRUCTIVE, card, make_state, rune, trash_card, unit
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import BASIC_RUNE_EXHAUST, CardText, Choices, process_activate, process_play
from referee.model.play.state import DOMAINS


def random_scenario(rng: random.Random):
    """A unit card with an optional and a mandatory additional cost, runes, and a plan in random order."""
    power = tuple(rng.randint(0, 2) for _ in DOMAINS)
    state = make_state(
        card("card"),
        rune("r1", rng.choice(DOMAINS), exhausted=rng.random() < 0.3),
        rune("r2", rng.choice(DOMAINS), exhausted=rng.random() < 0.3),
        unit("ally", exhausted=rng.random() < 0.3),
        card("h"),
        trash_card("t"),
        energy=rng.randint(0, 3),
        power=power,
    )
    text = CardText(
        CostComponent(ResourceCost.of(rng.randint(0, 3), any_power=rng.randint(0, 1))),
        (
            CostComponent(nonstandard=(NonStandardCost("discard_unit"),)),
            CostComponent(ResourceCost.of(any_power=1), (NonStandardCost("exhaust_friendly_unit"),), optional=True),
        ),
    )
    modifiers = Modifiers(discounts=(Discount(1, 1, True, "optional_additional"), Discount(rng.randint(0, 1))))
    steps = [UseRune("r1", "exhaust"), UseRune("r2", "recycle"), PayCost(0, ("h",)), PayCost(1, ("ally",)), PayResources()]
    rng.shuffle(steps)
    return state, text, modifiers, Choices((True, rng.random() < 0.5), rng.randint(0, 2)), tuple(steps)


def measure(label: str, run, seconds: float) -> None:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        run()
        count += 1
    elapsed = time.perf_counter() - start
    print(f"{label:<52} {count / elapsed:>10,.0f} /s   {1e6 * elapsed / count:8.1f} us each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"bench_play seed={seed} (replay: python benchmarks/bench_play.py --seed {seed})")
    rng = random.Random(seed)
    scenarios = [random_scenario(rng) for _ in range(1000)]
    legal = sum(process_play(s, "card", t, c, p, m).legal for s, t, m, c, p in scenarios)
    print(f"random scenarios: {len(scenarios)}, of which {legal} legal plays, {len(scenarios) - legal} undone")

    it = iter(range(10**12))

    def random_play() -> None:
        s, t, m, c, p = scenarios[next(it) % len(scenarios)]
        process_play(s, "card", t, c, p, m)

    kill_state = make_state(card("c", "spell"), unit("ally"), card("h"), energy=1)
    kill_plan = (PayCost(0, ("ally",)), PayCost(1, ("h",)), PayResources())
    rune_state = make_state(rune("r"))
    vi_state = make_state(unit("vi"), trash_card("t"))
    measure("random play (2 runes, 2 additional costs, 5 steps)", random_play, args.seconds)
    measure("seed 357.2: kill and discard, then pay", lambda: process_play(kill_state, "c", KILL_AND_DISCARD, Choices((True,)), kill_plan), args.seconds)
    measure("seed 164.2.a: exhaust a rune for [1]", lambda: process_activate(rune_state, "r", BASIC_RUNE_EXHAUST, (PayCost(0),)), args.seconds)
    measure("seed 416.3: Vi recycles 1 from the trash", lambda: process_activate(vi_state, "vi", VI_DESTRUCTIVE, (PayCost(0, ("t",)),)), args.seconds)


if __name__ == "__main__":
    main()
