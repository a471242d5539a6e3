"""The steps at fault: the model's explanation around the first divergence, for a failure report.

``referee check`` and ``vectors run`` show, instead of the whole clause trail, the explain
step that produced the first diverging event or field (with its clause and numbers) and
the step before it (:func:`referee.explain.steps_around_event`). A state divergence
(``board.t.maim``) is placed at the model's last event about that unit (``t``); one with no
such event, at the end of the explanation.
"""

from __future__ import annotations

import re
from typing import Any

from .rulebook import Divergence

_STATE_PATH = re.compile(r"^[a-z_]+\.([^.\[\]]+)")


def divergence_event_index(scenario: dict[str, Any], divergence: Divergence, events: list[Any]) -> int | None:
    """Where in the model's events a divergence falls: its own index, or the last event about its unit."""
    if divergence.where == "events":
        return divergence.event_index
    match = _STATE_PATH.match(divergence.path)
    if match is None:
        return None
    uid = match.group(1)
    about = [i for i, e in enumerate(events) if uid in (e.unit, e.other)]
    return about[-1] if about else None


def steps_at_fault(scenario: dict[str, Any], divergence: Divergence) -> list[dict[str, Any]]:
    """The step that produced the first divergence and the one before it, as JSON (empty: no explanation)."""
    from .explain import explain_actions, locate_event

    actions = explain_actions(scenario)
    events = [e for action in actions for e in action.events]
    index = divergence_event_index(scenario, divergence, events)
    if index is None:
        steps = [s for action in actions for s in action.steps][-2:]
    else:
        action, found = locate_event(actions, index)
        if found is not None:
            found = producer(action, actions, index, found, model_number(divergence))
        steps = action.steps[-2:] if found is None else action.steps[max(0, found - 1): found + 1]
    return [s.to_json() for s in steps]


#: Steps that land a number earlier steps made (a damage instance's Vitality step): an event they name is
#: placed at the step that produced its number instead.
RESULT_STEPS = ("vitality",)


def model_number(divergence: Divergence) -> Any:
    """The model's diverging number: the value itself, or the amount of the model's diverging event."""
    value = divergence.model
    if isinstance(value, dict):
        value = value.get("amount")
    return value if type(value) is int else None


def producer(action: Any, actions: list[Any], index: int, found: int, value: Any) -> int:
    """The step that produced the model's number, for an event a :data:`RESULT_STEPS` step names: the first step
    since the previous event's step whose result (``after``) is that number; else the step that names the event.

    A damage event is named by the Vitality step, but its amount was made earlier (the Armor
    step that rounded it, the cap, the Shield); that step is the one an engine author needs.
    """
    from .explain import locate_event

    start = 0
    if index > 0:
        previous, at = locate_event(actions, index - 1)
        if previous is action and at is not None and at < found:
            start = at + 1
    if value is None or action.steps[found].step not in RESULT_STEPS:
        return found
    for i in range(start, found + 1):
        quantities = action.steps[i].quantities
        if quantities.get("after") == value and quantities.get("before") != value:
            return i
    return found


def describe_steps(steps: list[dict[str, Any]]) -> list[str]:
    """The steps as report lines: the one before, then the one at fault, each with its clause and numbers."""
    out = []
    for n, step in enumerate(steps):
        label = "at fault" if n == len(steps) - 1 else "before  "
        numbers = ", ".join(f"{k}={v}" for k, v in step["quantities"].items() if not isinstance(v, (dict, list)))
        out.append(f"  {label} [{step['clause']}] {step['text']}" + (f"  ({numbers})" if numbers else ""))
    return out
