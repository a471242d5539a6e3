"""Seeded generation: the same scenario strategies, drawn from a seeded ``random.Random``.

Profiling ``referee check`` (docs/performance.md) shows generation is the cost: about 75
Hypothesis draws per scenario, each recorded as a choice with its span (~30-50 us apiece),
plus Hypothesis' mutation of earlier examples. ``referee check`` shrinks a failure with its
own shrinker (``referee.shrink``), on the scenario's JSON, with Hypothesis' shrinker off, so
the choice sequence buys nothing after a failure is found.

So in the ``seeded`` generation mode Hypothesis draws **one** integer per batch of
scenarios, and each scenario of the batch is drawn by the very same strategy objects
(``referee.strategies.scenarios``: the same ``draw_*`` functions, the same ranges and
lists) with a :class:`SeededDraw` in place of Hypothesis' ``draw``. What stays:

* the space: every strategy draws from its own support (an integer range, a sampled
  list, a list's sizes, a ``one_of``'s branches), so seeded generation can produce
  exactly the scenarios Hypothesis generation can. The *distribution* differs: integers
  are uniform over their range (with Hypothesis' own extra weight on the bounds and
  near-bounds of a range wider than 127), where Hypothesis also draws constants it finds in
  the code under test, and mutates earlier examples (repeating a value elsewhere);
* reproducibility: ``--seed`` fixes Hypothesis' integer, which fixes the batch (scenario ``k``
  of the batch of seed ``s`` is drawn from ``random.Random(s + k)``);
* the example database: Hypothesis stores the batch's integer, and the harness replaces it by
  the failing scenario's own seed (``referee.harness``), so a saved failure replays first;
* shrinking: unchanged (``referee.shrink`` works on the JSON).

Only the strategy types the generators use are interpreted (integers, booleans,
``sampled_from`` / ``just``, ``one_of``, ``lists``, ``tuples``, ``permutations``,
``composite``, ``map`` / ``filter``); any other raises :class:`UnsupportedStrategy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis.strategies._internal.collections import ListStrategy, TupleStrategy
from hypothesis.strategies._internal.core import CompositeStrategy, PermutationStrategy
from hypothesis.strategies._internal.lazy import LazyStrategy
from hypothesis.strategies._internal.misc import BooleansStrategy
from hypothesis.strategies._internal.numbers import IntegersStrategy
from hypothesis.strategies._internal.strategies import (
    FilteredStrategy,
    MappedStrategy,
    OneOfStrategy,
    SampledFromStrategy,
)

#: How many times a filtered strategy is redrawn before giving up (the generators use none).
MAX_FILTER_TRIES = 100
#: Hypothesis draws this one integer per batch (``st.integers(0, BATCH_SEEDS - 1)``).
BATCH_SEEDS = 2**64


class UnsupportedStrategy(TypeError):
    """A strategy type seeded generation does not interpret."""


Drawer = Callable[[random.Random], Any]
_COMPILED: dict[int, tuple[Any, Drawer]] = {}  # id(strategy) -> (strategy kept alive, drawer)


def _compile(strategy: Any) -> Drawer:
    """A function of a ``random.Random`` drawing one value of ``strategy`` (cached per strategy object)."""
    hit = _COMPILED.get(id(strategy))
    if hit is not None and hit[0] is strategy:
        return hit[1]
    drawer = _build(strategy)
    _COMPILED[id(strategy)] = (strategy, drawer)
    return drawer


def _build(strategy: Any) -> Drawer:  # noqa: C901 - one case per strategy type
    while isinstance(strategy, LazyStrategy):
        strategy = strategy.wrapped_strategy
    if isinstance(strategy, SampledFromStrategy):
        return _sampled(strategy)
    if isinstance(strategy, IntegersStrategy):
        if strategy.start is None or strategy.end is None:
            raise UnsupportedStrategy(f"seeded generation needs bounded integers, got {strategy!r}")
        return _integers(strategy.start, strategy.end)
    if isinstance(strategy, BooleansStrategy):
        return lambda rng: rng.random() < 0.5
    if isinstance(strategy, OneOfStrategy):
        branches, which = [_compile(s) for s in strategy.original_strategies], _below(len(strategy.original_strategies))
        return lambda rng: branches[which(rng)](rng)
    if isinstance(strategy, ListStrategy):
        return _list(strategy)
    if isinstance(strategy, TupleStrategy):
        parts = [_compile(s) for s in strategy.element_strategies]
        return lambda rng: tuple(part(rng) for part in parts)
    if isinstance(strategy, PermutationStrategy):
        values = list(strategy.values)
        return lambda rng: rng.sample(values, len(values))
    if isinstance(strategy, CompositeStrategy):
        definition, args, kwargs = strategy.definition, strategy.args, strategy.kwargs
        return lambda rng: definition(SeededDraw(rng), *args, **kwargs)
    if isinstance(strategy, MappedStrategy):
        inner, pack = _compile(strategy.mapped_strategy), strategy.pack
        return lambda rng: pack(inner(rng))
    if isinstance(strategy, FilteredStrategy):
        return _filtered(_compile(strategy.filtered_strategy), strategy.flat_conditions, strategy)
    raise UnsupportedStrategy(f"seeded generation does not interpret {type(strategy).__name__} ({strategy!r})")


def _integers(low: int, high: int) -> Drawer:
    """Uniform over ``[low, high]``; over a range wider than 127, the bounds and near-bounds weighted as
    Hypothesis weights them (``IntegersStrategy.do_draw``: 2/128 each bound, 1/128 each one inside)."""
    if high < low:
        return lambda rng: rng.randint(low, high)  # raises, as it always did
    uniform = _below(high - low + 1)  # rng.randint(low, high) is low + rng.randrange(high - low + 1)
    if high - low <= 127:
        if not _FAST_BELOW:
            return lambda rng: low + uniform(rng)
        n, bits = high - low + 1, (high - low + 1).bit_length()

        def narrow(rng: random.Random) -> int:  # _below's loop, inline: the draw generators make most often
            r = rng.getrandbits(bits)
            while r >= n:
                r = rng.getrandbits(bits)
            return low + r

        return narrow
    edges, pick = (low, low, low + 1, high - 1, high, high), _below(128)  # 6/128 in all

    def draw(rng: random.Random) -> int:
        at = pick(rng)
        return edges[at] if at < 6 else low + uniform(rng)

    return draw


def _below(n: int) -> Callable[[random.Random], int]:
    """``lambda rng: rng.randrange(n)`` for a fixed ``n > 0``, drawing the very same value from the same generator
    state: CPython's ``randrange(n)`` is ``_randbelow_with_getrandbits(n)`` (``getrandbits(n.bit_length())``
    until below ``n``), so the bit length is worked out once here instead of at every draw, and the two
    Python-level calls (``randrange``, ``_randbelow``) are saved. Where ``random`` is not that CPython code, the
    plain ``randrange`` (``tests/harness/test_harness_seeded.py`` holds the two to the same values)."""
    if not _FAST_BELOW or n <= 0:
        return lambda rng: rng.randrange(n)
    bits = n.bit_length()

    def below(rng: random.Random) -> int:
        r = rng.getrandbits(bits)
        while r >= n:
            r = rng.getrandbits(bits)
        return r

    return below


#: Whether ``random.Random.randrange(n)`` is the ``getrandbits`` loop :func:`_below` repeats.
_FAST_BELOW = (random.Random._randbelow is getattr(random.Random, "_randbelow_with_getrandbits", None)
               and random.Random.getrandbits is random._random.Random.getrandbits)  # type: ignore[attr-defined]


def _sampled(strategy: SampledFromStrategy) -> Drawer:
    elements = tuple(strategy.elements)
    transformations = tuple(getattr(strategy, "_transformations", ()))
    which = _below(len(elements))
    if not transformations:
        if len(elements) == 1:
            only = elements[0]
            return lambda rng: only
        return lambda rng: elements[which(rng)]

    def draw(rng: random.Random) -> Any:
        for _ in range(MAX_FILTER_TRIES):
            value = elements[which(rng)]
            for kind, function, *_ in transformations:
                if kind == "map":
                    value = function(value)
                elif not function(value):
                    break
            else:
                return value
        raise UnsupportedStrategy(f"{strategy!r}: no value passed its filter in {MAX_FILTER_TRIES} tries")

    return draw


def _list(strategy: ListStrategy) -> Drawer:
    if strategy.max_size == float("inf"):
        raise UnsupportedStrategy(f"seeded generation needs a bounded list size, got {strategy!r}")
    element, low, high = _compile(strategy.element_strategy), int(strategy.min_size), int(strategy.max_size)
    size = _integers(low, high) if high - low <= 127 else (lambda rng: rng.randint(low, high))  # rng.randint(low, high)
    return lambda rng: [element(rng) for _ in range(size(rng))]


def _filtered(inner: Drawer, conditions: tuple[Callable[[Any], Any], ...], strategy: Any) -> Drawer:
    def draw(rng: random.Random) -> Any:
        for _ in range(MAX_FILTER_TRIES):
            value = inner(rng)
            if all(condition(value) for condition in conditions):
                return value
        raise UnsupportedStrategy(f"{strategy!r}: no value passed its filter in {MAX_FILTER_TRIES} tries")

    return draw


class SeededDraw:
    """A ``draw`` function (as Hypothesis hands a ``composite``) backed by a seeded ``random.Random``."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, strategy: Any, label: Any = None) -> Any:
        hit = _COMPILED.get(id(strategy))  # _compile's cache, looked up here: a draw is called ~50 times a scenario
        if hit is not None and hit[0] is strategy:
            return hit[1](self.rng)
        return _compile(strategy)(self.rng)


def draw_seeded(strategy: Any, seed: int, count: int) -> list[Any]:
    """``count`` values of ``strategy``, the ``k``-th drawn from ``random.Random(seed + k)``: the same seed, the same
    values, and the group of seed ``s + k`` starts with the ``k``-th value of the group of ``s``."""
    drawer = _compile(strategy)
    return [drawer(random.Random((seed + k) % BATCH_SEEDS)) for k in range(count)]
