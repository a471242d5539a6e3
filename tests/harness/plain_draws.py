"""Each strategy type the seeded generators draw, beside the plain ``random`` calls it stands for
(``referee.seeded`` must draw exactly what these draw, from the same generator state)."""

from __future__ import annotations

import random

from hypothesis import strategies as st


def wide(rng: random.Random, low: int, high: int) -> int:
    """A wide integer range: Hypothesis' extra weight on the bounds and near-bounds, else uniform."""
    pick = rng.randrange(128)
    return (low, low, low + 1, high - 1, high, high)[pick] if pick < 6 else rng.randint(low, high)


#: Each strategy type the generators draw, beside the plain ``random`` calls it stands for.
PLAIN_DRAWS = [
    (st.integers(0, 0), lambda rng: rng.randint(0, 0)),
    (st.integers(-3, 9), lambda rng: rng.randint(-3, 9)),
    (st.integers(0, 127), lambda rng: rng.randint(0, 127)),
    (st.integers(-5, 2000), lambda rng: wide(rng, -5, 2000)),
    (st.booleans(), lambda rng: rng.random() < 0.5),
    (st.just("x"), lambda rng: "x"),
    (st.sampled_from("abcde"), lambda rng: "abcde"[rng.randrange(5)]),
    (st.sampled_from((1, 2, 3, 4)), lambda rng: (1, 2, 3, 4)[rng.randrange(4)]),
    (st.one_of(st.just(0), st.just(0), st.integers(0, 3)), lambda rng: 0 if rng.randrange(3) < 2 else rng.randint(0, 3)),
    (st.one_of(st.just(1), st.just(2), st.just(3)), lambda rng: (1, 2, 3)[rng.randrange(3)]),
    (st.one_of(st.just(100), st.integers(1, 300)), lambda rng: 100 if rng.randrange(2) == 0 else wide(rng, 1, 300)),
    (st.lists(st.booleans(), min_size=3, max_size=3), lambda rng: [rng.random() < 0.5 for _ in range(rng.randint(3, 3))]),
    (st.lists(st.booleans(), min_size=1, max_size=4), lambda rng: [rng.random() < 0.5 for _ in range(rng.randint(1, 4))]),
    (st.lists(st.one_of(st.tuples(st.just("f"), st.just(True)), st.tuples(st.just("g"), st.integers(1, 30))), max_size=4),
     lambda rng: [("f", True) if rng.randrange(2) == 0 else ("g", rng.randint(1, 30)) for _ in range(rng.randint(0, 4))]),
]
