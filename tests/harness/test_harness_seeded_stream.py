"""The seeded scenario stream itself: which scenarios a seed draws, pinned by a digest.

Mutant kill budgets, the coverage figures of the default mix and the seeds stored in example
databases are all measured on this stream, so a change meant only to make drawing faster must
leave it byte-identical. The digests were taken on the code before the drawing stage was made
faster (revision 3e0cff4) and held since. A change that alters the stream on purpose (new weights,
a new field) updates them here, and re-measures the kill table and the coverage figures
(docs/performance.md). The protocol's version is part of each scenario: at referee/2 the digests were
retaken, and with ``"protocol"`` set back to ``"referee/1"`` each stream gave its old digest (the same
scenarios). The ruleset option ``zero_maximum_revival`` (INT-120) joined every combat scenario's spelled-out
ruleset: the digests were retaken, and with that one key taken out of each scenario's ruleset each stream gave
its old digest (the same boards and actions; the play stream, which sends no combat ruleset, is unchanged).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import strategies as st

from referee import seeded
from referee.rulebooks.combat.features import FEATURES
from referee.seeded import draw_seeded
from referee.check.strategies import scenarios
from referee.check.streams import draw_batch

from plain_draws import PLAIN_DRAWS

#: (options of ``scenarios``, (run seed, worker, batch), count) -> sha256 of the JSON of the drawn scenarios, first
#: 16 hex digits. Retaken on purpose in issue 24 (independent streams) and issue 20 (the generator draws legal states
#: only: an overtime tick without a source, no hit from a dead unit, a living Bloodletting caster and no overtime hit
#: of its own), and in issue 44 (each new ruleset and play rules option is a new key of every scenario drawn:
#: the same scenarios, the new keys stripped, each time).
STREAMS: dict[str, tuple[dict[str, Any], tuple[int, int, int], int, str]] = {
    "default": ({}, (20261130, 0, 0), 64, "fa42ddb7ffaecf97"),
    "swarm": ({"swarm": True}, (7, 0, 3), 64, "6e1e57bb6c6fcfa5"),
    "three_actions": ({"max_actions": 3}, (2**64 - 3, 1, 0), 32, "de2f91cbd83aa119"),
    "hit_without_some_features": ({"kinds": ("hit",), "features": frozenset(FEATURES) - {"shield", "redirect", "armor"},
                                   "swarm": True}, (1, 0, 0), 32, "f01ec275b10a4e76"),
    "play": ({"kinds": ("play_card", "activate"), "max_actions": 3}, (3, 2, 5), 32, "838296fe17486ae8"),
}


def stream_digest(options: dict[str, Any], where: tuple[int, int, int], count: int) -> str:
    """The first 16 hex digits of the sha256 of ``json.dumps`` of each scenario drawn, one a line."""
    digest = hashlib.sha256()
    for scenario in draw_batch(scenarios(**options), *where, count):
        digest.update(json.dumps(scenario).encode() + b"\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("name", list(STREAMS))
def test_a_seed_draws_the_scenarios_pinned_for_it(name):
    options, where, count, expected = STREAMS[name]
    assert stream_digest(options, where, count) == expected, (
        f"the seeded stream {name!r} changed: if on purpose, update its digest and re-measure the kill table")



@pytest.mark.parametrize("at", range(len(PLAIN_DRAWS)))
def test_a_composite_draw_draws_what_the_plain_random_calls_draw_and_leaves_the_same_state(at):
    """``seeded_draw`` makes the index draw of sampled_from, narrow integers and one_of itself: the same values."""
    strategy, plain = PLAIN_DRAWS[at]
    for seed in range(150):
        ours, theirs = seeded._seeded_random(seed), random.Random(seed)
        draw = seeded.seeded_draw(ours)
        assert [draw(strategy) for _ in range(4)] == [plain(theirs) for _ in range(4)]
        assert ours.getstate() == theirs.getstate()


def test_a_seeded_random_is_in_the_state_random_random_of_the_seed_is():
    assert seeded._FAST_SEED and seeded._seeded_random is seeded._fresh_random  # CPython: the quick path is the one used
    for seed in (0, 1, 2, 31, 2**32 - 1, 2**32, 20261130, 2**63 + 7, seeded.BATCH_SEEDS - 1):
        ours, theirs = seeded._fresh_random(seed), random.Random(seed)
        assert ours.getstate() == theirs.getstate()
        assert [ours.random() for _ in range(3)] == [theirs.random() for _ in range(3)]


def test_past_its_bound_the_compiled_cache_starts_again_and_draws_the_same_values(monkeypatch):
    """Code that builds a strategy at each draw no longer keeps every one: the caches are cleared past the bound."""
    monkeypatch.setattr(seeded, "MAX_COMPILED", 8)

    @st.composite
    def fresh_each_draw(draw):  # a new strategy object at every draw, as armor_debuff once built
        return [draw(st.sampled_from([k, k + 1, k + 2])) for k in range(12)]

    plain = [[(k, k + 1, k + 2)[rng.randrange(3)] for k in range(12)] for rng in map(random.Random, range(40, 46))]
    assert draw_seeded(fresh_each_draw(), 40, 6) == plain
    assert len(seeded._KEPT) <= 8 and len(seeded._DRAWERS) <= 8


if __name__ == "__main__":  # print the digests (run on another revision's code with PYTHONPATH)
    for name, (options, where, count, _) in STREAMS.items():
        print(name, stream_digest(options, where, count))
