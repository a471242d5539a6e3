"""A Python replay engine for the TypeScript kit's tests: ``run(scenario)`` answers ``answers[scenario["id"]]`` from
the JSON file named by the environment variable ``REFEREE_ANSWERS`` (the same file the TypeScript replay engine reads),
so that ``referee vectors run --python replay_answers:run`` judges exactly the answers the native runner judged."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=4)
def _answers(path: str) -> dict[str, Any]:
    """The answers file at ``path``, read once."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """The recorded answer to ``scenario`` (by its ``id``); a KeyError naming the id when the file has none."""
    answers = _answers(os.environ["REFEREE_ANSWERS"])
    if scenario.get("id") not in answers:
        raise KeyError(f"REFEREE_ANSWERS has no answer for scenario id {scenario.get('id')!r}")
    return answers[scenario["id"]]
