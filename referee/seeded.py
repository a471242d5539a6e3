"""Seeded generation: the same scenario strategies, drawn from a seeded ``random.Random``.

Profiling ``referee check`` (docs/performance.md) shows generation is the cost: about 75
Hypothesis draws per scenario, each recorded as a choice with its span (~30-50 us apiece),
plus Hypothesis' mutation of earlier examples. ``referee check`` shrinks a failure with its
own shrinker (``referee.check.shrink``), on the scenario's JSON, with Hypothesis' shrinker off, so
the choice sequence buys nothing after a failure is found.

So in the ``seeded`` generation mode Hypothesis draws **one** integer per batch of
scenarios, and each scenario of the batch is drawn by the very same strategy objects
(``referee.check.strategies.scenarios``: the same ``draw_*`` functions, the same ranges and
lists) with a :func:`seeded_draw` in place of Hypothesis' ``draw``. What stays:

* the space: every strategy draws from its own support (an integer range, a sampled
  list, a list's sizes, a ``one_of``'s branches), so seeded generation can produce
  exactly the scenarios Hypothesis generation can. The *distribution* differs: integers
  are uniform over their range (with Hypothesis' own extra weight on the bounds and
  near-bounds of a range wider than 127), where Hypothesis also draws constants it finds in
  the code under test, and mutates earlier examples (repeating a value elsewhere);
* reproducibility: each scenario is drawn from its own ``random.Random``, seeded by a hash of the run's
  ``--seed``, the worker, the batch and its place in the batch (``referee.check.streams``: Hypothesis' integer
  only numbers the batches), so batches, seeds and workers never share a scenario but by the space's own
  small corners;
* the example database: Hypothesis stores the batch's integer, and the harness replaces it by
  the failing scenario's own seed (``referee.check.harness``), so a saved failure replays first;
* shrinking: unchanged (``referee.check.shrink`` works on the JSON).

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


#: Whether ``random.Random.randrange(n)`` is the ``getrandbits`` loop the drawers below repeat inline.
_FAST_BELOW = (random.Random._randbelow is getattr(random.Random, "_randbelow_with_getrandbits", None)
               and random.Random.getrandbits is random._random.Random.getrandbits)  # type: ignore[attr-defined]

Drawer = Callable[[random.Random], Any]
#: How the ``draw`` of :func:`seeded_draw` draws a strategy: ``(n, bits, values, then)``. With ``n > 0``, an index
#: ``r`` below ``n`` (``getrandbits(bits)`` until below ``n``: ``rng.randrange(n)``), then ``values[r]``, or, where
#: that is ``_DRAWS``, ``then[r](rng)``; with ``n == 0``, ``then(rng)``, the strategy's drawer.
Entry = tuple[int, int, Any, Any]
#: id(strategy) -> its drawer. Every strategy compiled stays alive in ``_KEPT``, so no other object can take its id
#: while its entry stands: the id alone names the strategy, and a draw needs no identity test.
_DRAWERS: dict[int, Drawer] = {}
_KEPT: list[Any] = []
#: strategy -> its entry, keyed by the strategy itself: no strategy type interpreted here defines ``__eq__`` or
#: ``__hash__`` (:func:`_entry` refuses one that does), so the key is the object's identity, at C speed.
_ENTRIES: dict[Any, Entry] = {}
#: Past this many strategies compiled (code that builds a strategy at each draw), the caches start again.
MAX_COMPILED = 20_000
#: What :func:`_constant` answers for a strategy that draws (no strategy returns this object).
_DRAWS = object()


def _compile(strategy: Any) -> Drawer:
    """A function of a ``random.Random`` drawing one value of ``strategy`` (cached per strategy object)."""
    drawer = _DRAWERS.get(id(strategy))
    if drawer is None:
        drawer = _build(strategy)
        if len(_KEPT) >= MAX_COMPILED:  # every entry goes with the strategy keeping its id taken
            _DRAWERS.clear(), _ENTRIES.clear(), _KEPT.clear()
        _KEPT.append(strategy)
        _DRAWERS[id(strategy)] = drawer
    return drawer


def _entry(strategy: Any) -> Entry:
    """``strategy``'s :data:`Entry` (cached beside its drawer): the index draw of a ``sampled_from``, of a narrow
    integer range (``values`` a ``range``) and of a ``one_of`` (``then`` its branches' drawers) is made inline by
    ``draw``, the very draws of :func:`_pick_from`, :func:`_narrow` and :func:`_one_of`; any other: its drawer."""
    drawer = _compile(strategy)
    entry = _ENTRIES.get(strategy)
    if entry is None:
        kind = type(strategy)
        if kind.__eq__ is not object.__eq__ or kind.__hash__ is not object.__hash__:
            raise UnsupportedStrategy(f"seeded generation needs strategies compared by identity, got {strategy!r}")
        entry = _ENTRIES[strategy] = _inline(_unwrap(strategy)) or (0, 0, None, drawer)
    return entry


def _inline(strategy: Any) -> Entry | None:
    """The inline entry of a ``sampled_from``, a narrow integer range or a ``one_of`` (None: the drawer's call)."""
    if not _FAST_BELOW:
        return None
    if isinstance(strategy, SampledFromStrategy) and not getattr(strategy, "_transformations", ()):
        n = len(strategy.elements)
        return (n, n.bit_length(), tuple(strategy.elements), None) if n > 1 else None
    if isinstance(strategy, IntegersStrategy) and strategy.start is not None and strategy.end is not None:
        low, n = strategy.start, strategy.end - strategy.start + 1
        return (n, n.bit_length(), range(low, low + n), None) if 1 <= n <= 128 else None
    if isinstance(strategy, OneOfStrategy) and strategy.original_strategies:
        n, constants, branches = _one_of_parts(strategy.original_strategies)
        return n, n.bit_length(), constants, branches
    return None


def _unwrap(strategy: Any) -> Any:
    while isinstance(strategy, LazyStrategy):
        strategy = strategy.wrapped_strategy
    return strategy


def _build(strategy: Any) -> Drawer:  # noqa: C901 - one case per strategy type
    strategy = _unwrap(strategy)
    if isinstance(strategy, SampledFromStrategy):
        return _sampled(strategy)
    if isinstance(strategy, IntegersStrategy):
        if strategy.start is None or strategy.end is None:
            raise UnsupportedStrategy(f"seeded generation needs bounded integers, got {strategy!r}")
        return _integers(strategy.start, strategy.end)
    if isinstance(strategy, BooleansStrategy):
        return _coin
    if isinstance(strategy, OneOfStrategy):
        return _one_of(strategy.original_strategies)
    if isinstance(strategy, ListStrategy):
        return _list(strategy)
    if isinstance(strategy, TupleStrategy):
        return _tuple(strategy)
    if isinstance(strategy, PermutationStrategy):
        values = list(strategy.values)
        return lambda rng: rng.sample(values, len(values))
    if isinstance(strategy, CompositeStrategy):
        definition, args, kwargs = strategy.definition, strategy.args, strategy.kwargs
        if not args and not kwargs:
            return lambda rng: definition(seeded_draw(rng))
        return lambda rng: definition(seeded_draw(rng), *args, **kwargs)
    if isinstance(strategy, MappedStrategy):
        inner, pack = _compile(strategy.mapped_strategy), strategy.pack
        return lambda rng: pack(inner(rng))
    if isinstance(strategy, FilteredStrategy):
        return _filtered(_compile(strategy.filtered_strategy), strategy.flat_conditions, strategy)
    raise UnsupportedStrategy(f"seeded generation does not interpret {type(strategy).__name__} ({strategy!r})")


def _constant(strategy: Any) -> Any:
    """The one value ``strategy`` gives without drawing (``just``, or a tuple of them); ``_DRAWS`` for any other.

    The drawer of such a strategy consumes nothing from the generator, so returning the value in its place
    draws the same values from the same state (a tuple of ``just`` values: an equal tuple of the same objects).
    """
    strategy = _unwrap(strategy)
    if isinstance(strategy, SampledFromStrategy):
        plain = not getattr(strategy, "_transformations", ())
        return strategy.elements[0] if plain and len(strategy.elements) == 1 else _DRAWS
    if isinstance(strategy, TupleStrategy):
        parts = tuple(_constant(s) for s in strategy.element_strategies)
        return _DRAWS if any(p is _DRAWS for p in parts) else parts
    return _DRAWS


def _coin(rng: random.Random) -> bool:
    return rng.random() < 0.5


def _integers(low: int, high: int) -> Drawer:
    """Uniform over ``[low, high]``; over a range wider than 127, the bounds and near-bounds weighted as
    Hypothesis weights them (``IntegersStrategy.do_draw``: 2/128 each bound, 1/128 each one inside)."""
    if high < low:
        return lambda rng: rng.randint(low, high)  # raises, as it always did
    if high - low <= 127:  # rng.randint(low, high) is low + rng.randrange(high - low + 1)
        return _narrow(low, high - low + 1)
    if _FAST_BELOW:
        return _wide(low, high)
    edges, pick, uniform = (low, low, low + 1, high - 1, high, high), _below(128), _below(high - low + 1)  # 6/128 in all

    def draw(rng: random.Random) -> int:
        at = pick(rng)
        return edges[at] if at < 6 else low + uniform(rng)

    return draw


def _narrow(low: int, n: int) -> Drawer:
    """``low + rng.randrange(n)``, with :func:`_below`'s loop inline (the draw generators make most often)."""
    if not _FAST_BELOW:
        uniform = _below(n)
        return lambda rng: low + uniform(rng)
    bits = n.bit_length()

    def narrow(rng: random.Random) -> int:
        r = rng.getrandbits(bits)
        while r >= n:
            r = rng.getrandbits(bits)
        return low + r

    return narrow


def _wide(low: int, high: int) -> Drawer:
    """:func:`_integers` over a range wider than 127, both :func:`_below` loops inline (the same draws)."""
    edges, n = (low, low, low + 1, high - 1, high, high), high - low + 1
    bits = n.bit_length()

    def wide(rng: random.Random) -> int:
        at = rng.getrandbits(8)  # _below(128): 128 .bit_length() is 8
        while at >= 128:
            at = rng.getrandbits(8)
        if at < 6:
            return edges[at]
        r = rng.getrandbits(bits)
        while r >= n:
            r = rng.getrandbits(bits)
        return low + r

    return wide


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


def _sampled(strategy: SampledFromStrategy) -> Drawer:
    elements = tuple(strategy.elements)
    transformations = tuple(getattr(strategy, "_transformations", ()))
    if not transformations:
        if len(elements) == 1:
            only = elements[0]
            return lambda rng: only
        return _pick_from(elements)
    which = _below(len(elements))

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


def _pick_from(elements: tuple[Any, ...]) -> Drawer:
    """``elements[rng.randrange(len(elements))]``, :func:`_below`'s loop inline."""
    n = len(elements)
    if not _FAST_BELOW or n <= 0:
        which = _below(n)
        return lambda rng: elements[which(rng)]
    bits = n.bit_length()

    def pick(rng: random.Random) -> Any:
        r = rng.getrandbits(bits)
        while r >= n:
            r = rng.getrandbits(bits)
        return elements[r]

    return pick


def _one_of(strategies: tuple[Any, ...]) -> Drawer:
    """One branch (``rng.randrange(len(branches))``), then its value: a ``just`` branch's value without a call."""
    n, constants, branches = _one_of_parts(strategies)
    if not _FAST_BELOW or n <= 0:
        which = _below(n)
        return lambda rng: branches[which(rng)](rng)
    bits = n.bit_length()

    def one_of(rng: random.Random) -> Any:
        r = rng.getrandbits(bits)
        while r >= n:
            r = rng.getrandbits(bits)
        value = constants[r]
        return branches[r](rng) if value is _DRAWS else value

    return one_of


def _one_of_parts(strategies: tuple[Any, ...]) -> tuple[int, tuple[Any, ...], list[Drawer]]:
    """How many branches, each one's constant value (``_DRAWS``: it draws) and each one's drawer."""
    return len(strategies), tuple(_constant(s) for s in strategies), [_compile(s) for s in strategies]


def _list(strategy: ListStrategy) -> Drawer:
    if strategy.max_size == float("inf"):
        raise UnsupportedStrategy(f"seeded generation needs a bounded list size, got {strategy!r}")
    element, low, high = _compile(strategy.element_strategy), int(strategy.min_size), int(strategy.max_size)
    if high - low > 127 or high < low or not _FAST_BELOW:  # rng.randint(low, high)
        size = _integers(low, high) if high - low <= 127 else (lambda rng: rng.randint(low, high))
        return lambda rng: [element(rng) for _ in range(size(rng))]
    n = high - low + 1
    bits = n.bit_length()
    coins = isinstance(_unwrap(strategy.element_strategy), BooleansStrategy)

    def draw_list(rng: random.Random) -> list[Any]:
        r = rng.getrandbits(bits)  # the size, as _narrow(low, n) draws it
        while r >= n:
            r = rng.getrandbits(bits)
        if coins:
            random_ = rng.random
            return [random_() < 0.5 for _ in range(low + r)]
        return [element(rng) for _ in range(low + r)]

    return draw_list


def _tuple(strategy: TupleStrategy) -> Drawer:
    """A tuple of its parts, drawn left to right (a part that is a ``just``: its value, no call)."""
    constant = _constant(strategy)
    if constant is not _DRAWS:
        return lambda rng: constant
    parts = [_compile(s) for s in strategy.element_strategies]
    if len(parts) == 2:
        first, (a, b) = _constant(strategy.element_strategies[0]), parts
        if first is not _DRAWS:
            return lambda rng: (first, b(rng))
        return lambda rng: (a(rng), b(rng))
    return lambda rng: tuple([part(rng) for part in parts])


def _filtered(inner: Drawer, conditions: tuple[Callable[[Any], Any], ...], strategy: Any) -> Drawer:
    def draw(rng: random.Random) -> Any:
        for _ in range(MAX_FILTER_TRIES):
            value = inner(rng)
            if all(condition(value) for condition in conditions):
                return value
        raise UnsupportedStrategy(f"{strategy!r}: no value passed its filter in {MAX_FILTER_TRIES} tries")

    return draw


def seeded_draw(rng: random.Random) -> Callable[..., Any]:
    """A ``draw`` function (as Hypothesis hands a ``composite``) backed by a seeded ``random.Random``.

    A closure, not an object: a draw is called ~60 times a scenario, and the index draws of its commonest
    strategies (``sampled_from``, narrow integers, ``one_of``: nine draws in ten) are made here, in its own
    Python frame, from the strategy's :data:`Entry`; any other is its drawer's call.
    """
    get, getrandbits = _ENTRIES.get, rng.getrandbits

    def draw(strategy: Any, label: Any = None) -> Any:
        entry = get(strategy)
        if entry is None:
            entry = _entry(strategy)
        n, bits, values, then = entry
        if not n:
            return then(rng)
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        value = values[r]
        return then[r](rng) if value is _DRAWS else value

    return draw


def draw_seeded(strategy: Any, seed: int, count: int) -> list[Any]:
    """``count`` values of ``strategy``, the ``k``-th drawn from ``random.Random(seed + k)``: the same seed, the same
    values. A test's tool (the drawers held to plain ``random`` calls); ``referee check`` draws its batches with
    ``referee.check.streams.draw_batch``, whose seeds are hashed so that neighbouring batches share nothing."""
    drawer = _compile(strategy)
    return [drawer(_seeded_random((seed + k) % BATCH_SEEDS)) for k in range(count)]


_RANDOM_NEW, _RANDOM_SEED = random.Random.__new__, random._random.Random.seed  # type: ignore[attr-defined]


def _fresh_random(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int ``seed``, in the same state: ``Random.seed`` of an int is the C ``seed``
    (``super().seed(a)``) and ``gauss_next = None``, called here without the two Python frames around it."""
    rng = _RANDOM_NEW(random.Random)
    _RANDOM_SEED(rng, seed)
    rng.gauss_next = None
    return rng


#: Whether :func:`_fresh_random` is in ``random.Random``'s state (checked here, and by
#: ``tests/harness/test_harness_seeded_stream.py``); where it is not, ``random.Random`` itself.
_FAST_SEED = all(_fresh_random(s).getstate() == random.Random(s).getstate() for s in (0, 1, 2**32 + 5, BATCH_SEEDS - 1))
_seeded_random: Callable[[int], random.Random] = _fresh_random if _FAST_SEED else random.Random
