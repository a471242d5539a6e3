"""Independent scenario streams: every scenario's seed is a hash of where it stands in the run.

Seeded generation (``referee.seeded``) draws each scenario from its own ``random.Random``. Which seed
that generator gets decides whether two batches, two workers or two runs repeat each other. Before,
scenario ``k`` of a batch was drawn from ``random.Random(s + k)`` with ``s`` the integer Hypothesis drew
for the batch: two batches whose integers lay less than 32 apart shared scenarios, Hypothesis' first
integer is 0 whatever ``--seed`` says (so every run began with the same 32 scenarios), and its integers
favour small values and the bounds (5,024 scenarios of seed 1 held 4,189 distinct ones; seeds 1 and 2
shared 550).

Here scenario ``index`` of batch ``batch`` of worker ``worker`` in the run of seed ``run_seed`` is drawn
from ``random.Random(scenario_seed(run_seed, worker, batch, index))``, where :func:`scenario_seed` is 64
bits of BLAKE2b over the four numbers, written out in full (no number is reduced modulo anything). So:

* two positions of one run, or of two runs, or of two workers, get unrelated seeds (equal only on a
  64-bit hash collision): batches never overlap and two run seeds share nothing by construction;
* the first batch depends on the run seed, like every other;
* the only repeats left are the space's own: two seeds drawing the same scenario, which happens where a
  strategy's space is small (a scenario of one unit and one action of few fields); measured in
  ``benchmarks/bench_streams.py``.

The batch number is the order in which the run meets Hypothesis' integers (:class:`Stream`), not the
integer itself: Hypothesis never draws the same integer twice in a run except to replay a failure, so a
replay gets the batch it failed in, and everything else a fresh one. An integer that is a failing
scenario's own stored seed (``referee.check.harness`` writes it in the example database) replays that scenario.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

#: What the hash is personalised with: a later change of the stream changes this, and so every seed.
_PERSON = b"referee-stream-1"


def scenario_seed(run_seed: int, worker: int, batch: int, index: int) -> int:
    """The 64-bit seed of scenario ``index`` of ``batch`` of ``worker`` in the run of ``run_seed``."""
    text = f"{run_seed}/{worker}/{batch}/{index}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=_PERSON).digest(), "little")


def batch_seeds(run_seed: int, worker: int, batch: int, count: int) -> list[int]:
    """The seeds of the first ``count`` scenarios of ``batch`` of ``worker`` in the run of ``run_seed``."""
    return [scenario_seed(run_seed, worker, batch, index) for index in range(count)]


def draw_batch(strategy: Any, run_seed: int, worker: int, batch: int, count: int) -> list[Any]:
    """``count`` values of ``strategy``, value ``k`` drawn from ``random.Random(scenario_seed(run_seed, worker,
    batch, k))``: the same four numbers, the same values."""
    return [draw_one(strategy, seed) for seed in batch_seeds(run_seed, worker, batch, count)]


def draw_one(strategy: Any, seed: int) -> Any:
    """The value of ``strategy`` drawn from ``random.Random(seed)`` (``referee.seeded``'s drawers)."""
    from ..seeded import _compile, _seeded_random

    return _compile(strategy)(_seeded_random(seed))


class Stream:
    """The batches of one worker of one run, numbered in the order Hypothesis' integers arrive.

    ``replays``: the failing scenarios' own seeds stored in the example database; an integer among them
    is drawn as that one scenario (so a stored failure is retried first, whatever the run seed).
    """

    def __init__(self, strategy: Any, run_seed: int, worker: int, size: int, replays: Iterable[int] = ()) -> None:
        self.strategy, self.run_seed, self.worker, self.size = strategy, run_seed, worker, size
        self.replays = frozenset(replays)
        self.batches: dict[int, int] = {}

    def group(self, drawn: int) -> list[dict[str, Any]]:
        """The scenarios of Hypothesis' integer ``drawn``, each marked with its own seed (``_seed``) and ``drawn``
        (``_group``), both taken off before it is sent."""
        if drawn in self.replays:
            seeds = [drawn]
        else:
            batch = self.batches.setdefault(drawn, len(self.batches))
            seeds = batch_seeds(self.run_seed, self.worker, batch, self.size)
        group = []
        for seed in seeds:
            scenario = draw_one(self.strategy, seed)
            scenario["_seed"], scenario["_group"] = seed, drawn
            group.append(scenario)
        return group


def stored_seeds(database: Any, key: bytes) -> list[int]:
    """The one-integer entries of ``key`` in an example database (the failing scenarios' seeds); [] on any error."""
    if database is None:
        return []
    try:
        from hypothesis.database import choices_from_bytes

        values = (choices_from_bytes(blob) for blob in database.fetch(key))
        return [v[0] for v in values if v is not None and len(v) == 1 and isinstance(v[0], int)]
    except Exception:  # a courtesy: without it a stored failure is drawn as an ordinary batch
        return []
