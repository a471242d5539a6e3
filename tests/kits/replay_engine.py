"""A replay engine for the kits' tests: it answers a scenario with the answer recorded for its ``id``.

The answers are a JSON file ``{"v<index>": <answer>, ...}`` named by the environment variable
``REFEREE_ANSWERS`` (read once per path). Used as ``--python tests.kits.replay_engine:run`` and as the body
of a kit's engine in the kits' tests, it gives a kit "the example engine's behaviour" without the engine.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def load_answers(path: str) -> dict:
    """The answers recorded in the JSON file at ``path``, by scenario id (read once per path)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def run(scenario: dict) -> dict:
    """The recorded answer to ``scenario`` (by its ``id``) from the file named by ``REFEREE_ANSWERS``."""
    path = os.environ.get("REFEREE_ANSWERS")
    if not path:
        raise RuntimeError("REFEREE_ANSWERS is not set: name the answers JSON file")
    answers = load_answers(path)
    key = scenario.get("id")
    if key not in answers:
        raise KeyError(f"{path}: no answer recorded for scenario id {key!r}")
    return answers[key]
