"""The seeded scenario stream itself: which scenarios a seed draws, pinned by a digest.

Mutant kill budgets, the coverage figures of the default mix and the seeds stored in example
databases are all measured on this stream, so a change meant only to make drawing faster must
leave it byte-identical. The digests were taken on the code before the drawing stage was made
faster (revision 3e0cff4) and held since. A change that alters the stream on purpose (new weights,
a new field) updates them here, and re-measures the kill table and the coverage figures
(docs/performance.md).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from referee.rulebooks.combat.features import FEATURES
from referee.seeded import draw_seeded
from referee.strategies import scenarios

#: (options of ``scenarios``, seed, count) -> sha256 of the JSON of the drawn scenarios, first 16 hex digits.
STREAMS: dict[str, tuple[dict[str, Any], int, int, str]] = {
    "default": ({}, 20261130, 64, "50d53748cac4b941"),
    "swarm": ({"swarm": True}, 7, 64, "1953cbd1864fc0e2"),
    "three_actions": ({"max_actions": 3}, 2**64 - 3, 32, "5350234ee4634e88"),
    "hit_without_some_features": ({"kinds": ("hit",), "features": frozenset(FEATURES) - {"shield", "redirect", "armor"},
                                   "swarm": True}, 1, 32, "e5b5db8bdd123e96"),
    "play": ({"kinds": ("play_card", "activate"), "max_actions": 3}, 3, 32, "806d2b73be143ad2"),
}


def stream_digest(options: dict[str, Any], seed: int, count: int) -> str:
    """The first 16 hex digits of the sha256 of ``json.dumps`` of each scenario drawn, one a line."""
    digest = hashlib.sha256()
    for scenario in draw_seeded(scenarios(**options), seed, count):
        digest.update(json.dumps(scenario).encode() + b"\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("name", list(STREAMS))
def test_a_seed_draws_the_same_scenarios_as_before_the_drawing_was_made_faster(name):
    options, seed, count, expected = STREAMS[name]
    assert stream_digest(options, seed, count) == expected, (
        f"the seeded stream {name!r} changed: if on purpose, update its digest and re-measure the kill table")


if __name__ == "__main__":  # print the digests (run on another revision's code with PYTHONPATH)
    for name, (options, seed, count, _) in STREAMS.items():
        print(name, stream_digest(options, seed, count))
