"""Running a play scenario through the model: one outcome event per action.

The play model keeps no event log, so the outcome of each action is reported as one event:
``played`` / ``activated`` (``unit``: the card or source) or ``play_cancelled`` /
``activation_cancelled`` (``detail``: the failing check, e.g. ``358.2``).
"""

from __future__ import annotations

from typing import Any

from referee.model.events import Event
from referee.model.play.rules import PlayRules
from referee.model.play.state import PlayState

from ...trail import Step, record
from ...wire import Scenario
from ...wire import ProtocolError, check_known, decode_id, require, require_list, require_object
from .codec import rules_from_json, state_from_json

SCENARIO_FIELDS = ("protocol", "id", "rulebook", "rules", "state", "actions")
from .kinds import KINDS



def decode_scenario(data: dict[str, Any], path: str = "scenario") -> Scenario:
    """A play-rulebook scenario (``"rulebook": "play"``): the play state, play rules and play actions."""
    check_known(path, data, SCENARIO_FIELDS, "play scenario")
    sid = decode_id(path, data)
    rules = rules_from_json(f"{path}.rules", data.get("rules", {}))
    state = state_from_json(f"{path}.state", require(path, data, "state"))
    actions = require_list(f"{path}.actions", require(path, data, "actions"))
    if not actions:
        raise ProtocolError(f"{path}.actions", "expected at least one action")
    decoded = []
    for i, action in enumerate(actions):
        where = f"{path}.actions[{i}]"
        name = require(where, require_object(where, action), "kind")
        if name not in KINDS:
            raise ProtocolError(f"{where}.kind", f"unknown play action kind {name!r} (known: {', '.join(KINDS)})")
        decoded.append(KINDS[name].extra["decode"](where, action, state))
    return Scenario("play", state, rules, tuple(decoded), id=sid, raw=data)


def run_play(state: PlayState, actions: tuple[dict[str, Any], ...], rules: PlayRules) -> tuple[PlayState, tuple[Event, ...]]:
    """Run decoded play actions through the model, in order; one outcome event per action."""
    events = []
    for action in actions:
        state, event = KINDS[action["kind"]].run(state, action, rules)
        events.append(event)
    return state, tuple(events)




def run(scenario: Scenario) -> tuple[PlayState, tuple[Event, ...]]:
    """The model's final play state and outcome events for a decoded scenario."""
    return run_play(scenario.state, scenario.actions, scenario.rules)


def observe(scenario: dict[str, Any]) -> tuple[PlayState, tuple[Event, ...], list[Step]]:
    """A scenario's final play state, events and clause trail (for vectors and explain)."""
    decoded = decode_scenario(scenario)
    (state, events), steps = record(run_play, decoded.state, decoded.actions, decoded.rules)
    return state, events, steps
