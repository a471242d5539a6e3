"""The example engine answering under a profile: only the unit fields and events it keeps.

An engine built piecewise implements some features and reports only their fields and events.
This one runs the full example engine (``examples/engine.py``) and then leaves out of its
answer every unit field and every event it is not told to keep, so that a test can check
``referee check --without ...`` one feature at a time against an answer that really lacks
the rest. What it keeps is read from the environment (the ``--python`` worker inherits it):

* ``PROFILE_FIELDS``: the unit fields kept, comma-separated (``uid,side,row,col`` always);
* ``PROFILE_EVENTS``: the events kept, each ``name`` or ``name:detail`` (that detail only).

Unset, it keeps everything. It imports nothing of ``referee`` but the example engine.
"""

from __future__ import annotations

import os
from typing import Any

from referee.examples.engine import run as run_everything

PLACEMENT = ("uid", "side", "row", "col")


def _words(name: str) -> frozenset[str] | None:
    text = os.environ.get(name)
    return None if text is None else frozenset(w.strip() for w in text.split(",") if w.strip())


def keeps_event(event: dict[str, Any], kept: frozenset[str] | None) -> bool:
    """Whether the profile keeps an event: its name, or its name and detail, is kept."""
    return kept is None or event["name"] in kept or f"{event['name']}:{event['detail']}" in kept


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """A scenario to the example engine's observation, less what the profile does not keep."""
    observation = run_everything(scenario)
    fields, events = _words("PROFILE_FIELDS"), _words("PROFILE_EVENTS")
    if fields is not None:
        observation["board"] = [{k: v for k, v in unit.items() if k in fields or k in PLACEMENT}
                                for unit in observation["board"]]
    observation["events"] = [e for e in observation["events"] if keeps_event(e, events)]
    return observation
