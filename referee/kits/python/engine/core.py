"""The engine: one function, ``answer(scenario) -> observation``, built kind by kind.

Until a kind has a handler in ``HANDLERS``, every scenario using it is answered with the ``unsupported``
answer naming that kind (``referee check`` lists such kinds as "next to build"). To build a kind:

1. write ``def apply_damage(world: dict, action: dict, events: list) -> None`` that applies one action of that
   kind to ``world`` (the scenario's ``board`` list, or its play ``state``, changed in place) and appends the
   events it causes (``{"name", "unit", "amount", "other", "detail"}``), in order;
2. register it: ``HANDLERS["damage"] = apply_damage``;
3. add the kind to ``kinds`` in ``referee.toml`` and run ``referee check``.

The observation is the world after the last action, with every event. Replace ``answer`` itself if your engine
is shaped differently: referee only ever calls ``answer``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from . import PROTOCOL

Handler = Callable[[dict, dict, list], None]

#: The action kinds this engine implements, each with the function applying one action of it. Empty: nothing
#: is built yet, so every scenario is refused by its first action's kind. Add one entry per kind you build
#: (``"damage": apply_damage``), with the kind in referee.toml's ``kinds``.
HANDLERS: dict[str, Handler] = {}


def answer(scenario: dict) -> dict:
    """The observation for ``scenario``: its actions applied in order; or the ``unsupported`` answer naming the
    first action kind without a handler."""
    if scenario.get("protocol") != PROTOCOL:  # an engine rejects a protocol it does not know (docs/protocol.md)
        raise ValueError(f"scenario {scenario.get('id')}: protocol {scenario.get('protocol')!r}, this engine speaks "
                         f"{PROTOCOL!r}")
    actions = scenario.get("actions") or []
    missing = [a.get("kind") for a in actions if a.get("kind") not in HANDLERS]
    if missing or not actions:
        return unsupported(scenario, str(missing[0]) if missing else "(no action)")
    play = scenario.get("rulebook") == "play"
    world = copy.deepcopy(scenario["state"] if play else scenario.get("board", []))
    events: list = []
    for action in actions:
        HANDLERS[action["kind"]](world, action, events)
    return observation(scenario, {"state": world} if play else {"board": world}, events)


def observation(scenario: dict, final: dict, events: list) -> dict:
    """The answer: the protocol, the scenario's id echoed, the final board (or play state) and the events."""
    out = {"protocol": PROTOCOL, **final, "events": events}
    if "id" in scenario:
        out["id"] = scenario["id"]
    return out


def unsupported(scenario: dict, kind: str, reason: str = "not implemented yet") -> dict:
    """The answer refusing action kind ``kind`` by name (the protocol's ``unsupported`` answer)."""
    out: dict = {"protocol": PROTOCOL, "unsupported": {"kind": kind, "reason": reason}}
    if "id" in scenario:
        out["id"] = scenario["id"]
    return out
