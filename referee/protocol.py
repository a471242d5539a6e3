"""The engine protocol ``referee/1``: scenarios and observations as JSON.

A *scenario* is a starting board, a ruleset, and a short list of actions, each carrying
every chance roll it needs (Riposte's 50% is an explicit list of booleans, never drawn by
the engine). An *observation* is what an engine reports after running it: the final board
and the ordered events. Both are plain JSON objects with a ``"protocol": "referee/1"``
field; ``docs/protocol.md`` is the reference and :func:`scenario_schema` /
:func:`observation_schema` the JSON Schemas (exported by ``referee schema``).

Decoding never raises a bare ``KeyError`` or ``TypeError``: every problem is a
:class:`ProtocolError` whose message starts with the path of the offending field, for
example ``scenario.board[2].armor: expected integer, got "7"``. The same checks classify
an engine's answer (a wrong type is a schema violation, an absent field a missing field),
so they are written by hand here rather than delegated to a JSON Schema validator, which
would cost a millisecond per observation; a test holds the two in agreement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from referee.model.events import EVENT_NAMES, Event
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit

PROTOCOL = "referee/1"

#: The fields that place a unit; always concrete, always present.
PLACEMENT_FIELDS = ("uid", "side", "row", "col")


class ProtocolError(ValueError):
    """A scenario or observation that does not follow the protocol.

    ``path`` names the field (``observation.board[1].shield``); ``kind`` is one of
    ``schema`` (a value of the wrong type or shape) and ``missing`` (an absent field).
    """

    def __init__(self, path: str, message: str, kind: str = "schema") -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.kind = kind


# --------------------------------------------------------------------------------------
# Unit fields: derived from the model's Unit, so a new field joins the protocol by itself
# --------------------------------------------------------------------------------------


def _field_type(name: str, default: Any) -> str:
    if name == "uid":
        return "string"
    if isinstance(default, bool):
        return "boolean"
    if isinstance(default, int):
        return "integer"
    return "uid?"  # a reference to another unit, or null


#: Every unit field, in the model's order, with its JSON type: ``integer``, ``boolean``,
#: ``string`` (the uid) or ``uid?`` (another unit's uid, or null).
UNIT_FIELDS: dict[str, str] = {f.name: _field_type(f.name, f.default) for f in fields(Unit)}
#: The default of every unit field (a scenario may omit a field; the harness never does).
UNIT_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Unit) if f.name != "uid"}
#: Event fields and their JSON types.
EVENT_FIELDS: dict[str, str] = {"name": "string", "unit": "uid?", "amount": "integer", "other": "uid?", "detail": "string?"}


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def check_value(path: str, value: Any, expected: str) -> Any:
    """Return ``value`` if it has the JSON type ``expected``; else raise naming ``path``."""
    ok = {
        "integer": lambda v: type(v) is int,
        "boolean": lambda v: type(v) is bool,
        "string": lambda v: type(v) is str,
        "uid?": lambda v: v is None or type(v) is str,
        "string?": lambda v: v is None or type(v) is str,
        "booleans": lambda v: type(v) is list and all(type(x) is bool for x in v),
    }[expected]
    if not ok(value):
        shown = json.dumps(value) if _type_name(value) in ("string", "integer", "boolean", "null") else _type_name(value)
        wanted = {"uid?": "string or null", "string?": "string or null", "booleans": "array of booleans"}.get(
            expected, expected
        )
        raise ProtocolError(path, f"expected {wanted}, got {shown}")
    return value


def require_object(path: str, value: Any) -> dict[str, Any]:
    if type(value) is not dict:
        raise ProtocolError(path, f"expected object, got {_type_name(value)}")
    return value


def require_list(path: str, value: Any) -> list[Any]:
    if type(value) is not list:
        raise ProtocolError(path, f"expected array, got {_type_name(value)}")
    return value


def require(path: str, data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise ProtocolError(f"{path}.{key}", "missing", kind="missing")
    return data[key]


def check_protocol(path: str, data: dict[str, Any]) -> None:
    version = require(path, data, "protocol")
    if version != PROTOCOL:
        raise ProtocolError(f"{path}.protocol", f"expected {PROTOCOL!r}, got {json.dumps(version)}")


# --------------------------------------------------------------------------------------
# Units and boards
# --------------------------------------------------------------------------------------


def unit_to_json(unit: Unit) -> dict[str, Any]:
    """Every field of a unit, in the model's order (the canonical, complete form)."""
    return {name: getattr(unit, name) for name in UNIT_FIELDS}


def unit_from_json(path: str, data: Any, *, complete: bool = False, only: tuple[str, ...] | None = None) -> Unit:
    """A unit from JSON. ``complete`` requires every field; otherwise omitted fields take defaults.

    ``only`` restricts which non-placement fields must be present (an engine checked on a
    chosen field set need not report the others).
    """
    data = require_object(path, data)
    values: dict[str, Any] = {}
    for name, kind in UNIT_FIELDS.items():
        must = complete and (only is None or name in only or name in PLACEMENT_FIELDS)
        if name not in data:
            if must or name == "uid":
                raise ProtocolError(f"{path}.{name}", "missing", kind="missing")
            continue
        values[name] = check_value(f"{path}.{name}", data[name], kind)
    unknown = [key for key in data if key not in UNIT_FIELDS]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown unit field (known: {', '.join(UNIT_FIELDS)})")
    if values.get("side", 0) not in (0, 1):
        raise ProtocolError(f"{path}.side", f"expected 0 or 1, got {values['side']}")
    return Unit(**values)


def board_from_json(path: str, data: Any, *, complete: bool = False, only: tuple[str, ...] | None = None) -> Board:
    units = tuple(
        unit_from_json(f"{path}[{i}]", item, complete=complete, only=only)
        for i, item in enumerate(require_list(path, data))
    )
    seen: dict[str, int] = {}
    cells: dict[tuple[int, int, int], int] = {}
    for i, unit in enumerate(units):
        if unit.uid in seen:
            raise ProtocolError(f"{path}[{i}].uid", f"duplicate uid {unit.uid!r} (also at [{seen[unit.uid]}])")
        seen[unit.uid] = i
        if unit.position in cells:
            raise ProtocolError(f"{path}[{i}]", f"cell {list(unit.position)} already holds {path}[{cells[unit.position]}]")
        cells[unit.position] = i
    for i, unit in enumerate(units):
        for ref in ("redirect_to", "intercept_by"):
            target = getattr(unit, ref)
            if target is not None and target not in seen:
                raise ProtocolError(f"{path}[{i}].{ref}", f"no unit with uid {target!r} on the board")
    return Board(units)


def board_to_json(board: Board) -> list[dict[str, Any]]:
    return [unit_to_json(u) for u in board.units]


# --------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------


def event_to_json(event: Event) -> dict[str, Any]:
    return event.to_json()


def event_from_json(path: str, data: Any) -> Event:
    data = require_object(path, data)
    values = {}
    for name, kind in EVENT_FIELDS.items():
        if name not in data:
            if name == "name":
                raise ProtocolError(f"{path}.name", "missing", kind="missing")
            continue
        values[name] = check_value(f"{path}.{name}", data[name], kind)
    unknown = [key for key in data if key not in EVENT_FIELDS]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown event field (known: {', '.join(EVENT_FIELDS)})")
    if values["name"] not in EVENT_NAMES:
        raise ProtocolError(f"{path}.name", f"unknown event name {values['name']!r}")
    return Event(**values)


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A decoded scenario: the board, the ruleset and the actions (still JSON objects)."""

    board: Board
    ruleset: Ruleset
    actions: tuple[dict[str, Any], ...]
    id: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False)
    #: ``combat`` (the board above) or ``play`` (``state`` and ``rules`` below, the board empty).
    rulebook: str = "combat"
    state: Any = None  # a referee.model.play.state.PlayState
    rules: Any = None  # a referee.model.play.rules.PlayRules


def ruleset_from_json(path: str, data: Any) -> Ruleset:
    data = require_object(path, data)
    try:
        return Ruleset.from_json(data)
    except (ValueError, TypeError) as error:
        message = str(error).removeprefix("ruleset").lstrip(".: ")
        raise ProtocolError(path, message) from None


def decode_scenario(data: Any, path: str = "scenario") -> Scenario:
    """Check and decode a scenario; every error names its field path."""
    from referee.actions import decode_action

    data = require_object(path, data)
    check_protocol(path, data)
    rulebook = data.get("rulebook", "combat")
    if rulebook == "play":
        return decode_play_scenario(data, path)
    if rulebook != "combat":
        raise ProtocolError(f"{path}.rulebook", f"expected one of combat, play, got {json.dumps(rulebook)}")
    known = ("protocol", "id", "rulebook", "ruleset", "board", "actions")
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown scenario field (known: {', '.join(known)})")
    sid = data.get("id")
    if sid is not None:
        check_value(f"{path}.id", sid, "string")
    ruleset = ruleset_from_json(f"{path}.ruleset", data.get("ruleset", {}))
    board = board_from_json(f"{path}.board", require(path, data, "board"))
    actions = require_list(f"{path}.actions", require(path, data, "actions"))
    if not actions:
        raise ProtocolError(f"{path}.actions", "expected at least one action")
    decoded = tuple(decode_action(f"{path}.actions[{i}]", a, board) for i, a in enumerate(actions))
    return Scenario(board=board, ruleset=ruleset, actions=decoded, id=sid, raw=data)


def decode_play_scenario(data: dict[str, Any], path: str = "scenario") -> Scenario:
    """A play-rulebook scenario (``"rulebook": "play"``): the play state, play rules and play actions."""
    from referee import play
    from referee.actions import ACTION_KINDS

    known = ("protocol", "id", "rulebook", "rules", "state", "actions")
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown play scenario field (known: {', '.join(known)})")
    sid = data.get("id")
    if sid is not None:
        check_value(f"{path}.id", sid, "string")
    rules = play.rules_from_json(f"{path}.rules", data.get("rules", {}))
    state = play.state_from_json(f"{path}.state", require(path, data, "state"))
    actions = require_list(f"{path}.actions", require(path, data, "actions"))
    if not actions:
        raise ProtocolError(f"{path}.actions", "expected at least one action")
    decoded = []
    for i, action in enumerate(actions):
        where = f"{path}.actions[{i}]"
        action = require_object(where, action)
        name = require(where, action, "kind")
        kind = ACTION_KINDS.get(name) if isinstance(name, str) else None
        if kind is None or kind.rulebook != "play":
            known_kinds = ", ".join(k for k, v in ACTION_KINDS.items() if v.rulebook == "play")
            raise ProtocolError(f"{where}.kind", f"unknown play action kind {name!r} (known: {known_kinds})")
        decoded.append(kind.extra["decode"](where, action, state))
    return Scenario(board=Board(()), ruleset=DEFAULT, actions=tuple(decoded), id=sid, raw=data,
                    rulebook="play", state=state, rules=rules)


def encode_scenario(
    board: Board, actions: list[dict[str, Any]], ruleset: Ruleset = DEFAULT, sid: str | None = None
) -> dict[str, Any]:
    """The canonical scenario: every unit field and every ruleset option spelled out."""
    out: dict[str, Any] = {"protocol": PROTOCOL}
    if sid is not None:
        out["id"] = sid
    out["ruleset"] = ruleset.to_json()
    out["board"] = board_to_json(board)
    out["actions"] = [dict(a) for a in actions]
    return out


# --------------------------------------------------------------------------------------
# Observations
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """A decoded observation: the final board and the events (``None`` when not reported)."""

    board: Board
    events: tuple[Event, ...] | None
    id: str | None = None
    #: The final play state, for a play-rulebook scenario (the board is then empty).
    state: Any = None


def encode_observation(board: Board, events: tuple[Event, ...] | list[Event], sid: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"protocol": PROTOCOL}
    if sid is not None:
        out["id"] = sid
    out["board"] = board_to_json(board)
    out["events"] = [event_to_json(e) for e in events]
    return out


def decode_observation(
    data: Any,
    path: str = "observation",
    *,
    fields_needed: tuple[str, ...] | None = None,
    events_needed: bool = True,
    rulebook: str = "combat",
) -> Observation:
    """Check and decode an engine's observation.

    ``fields_needed`` (None: all) are the unit fields the comparison reads: they must be
    present on every unit; others may be omitted. ``events_needed``: the ``events`` list
    must be present. Every error names its path; ``ProtocolError.kind`` says whether a
    field was missing or malformed.
    """
    data = require_object(path, data)
    check_protocol(path, data)
    sid = data.get("id")
    if sid is not None:
        check_value(f"{path}.id", sid, "string")
    state = None
    if rulebook == "play":
        from referee import play

        state = play.state_from_json(f"{path}.state", require(path, data, "state"), complete=True)
        board = Board(())
    else:
        board = board_from_json(f"{path}.board", require(path, data, "board"), complete=True, only=fields_needed)
    events = None
    if events_needed or "events" in data:
        raw = require_list(f"{path}.events", require(path, data, "events"))
        events = tuple(event_from_json(f"{path}.events[{i}]", e) for i, e in enumerate(raw))
    return Observation(board=board, events=events, id=sid, state=state)


def encode_play_observation(state: Any, events: tuple[Event, ...] | list[Event], sid: str | None = None) -> dict[str, Any]:
    """A play-rulebook observation: the final play state and one outcome event per action."""
    from referee import play

    out: dict[str, Any] = {"protocol": PROTOCOL}
    if sid is not None:
        out["id"] = sid
    out["rulebook"] = "play"
    out["state"] = play.state_to_json(state)
    out["events"] = [event_to_json(e) for e in events]
    return out


# --------------------------------------------------------------------------------------
# JSON Schemas
# --------------------------------------------------------------------------------------

_SCHEMA_TYPES = {
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "string": {"type": "string"},
    "uid?": {"type": ["string", "null"]},
    "string?": {"type": ["string", "null"]},
    "booleans": {"type": "array", "items": {"type": "boolean"}},
}

_FIELD_NOTES = {
    "uid": "the unit's identity, unique on the board",
    "side": "board half, 0 or 1",
    "row": "row of the cell (reading order: rows top to bottom)",
    "col": "column of the cell (reading order: left to right)",
    "redirect_to": "uid of the ally receiving the ordinary redirect (500.1-11)",
    "intercept_by": "uid of the ally intercepting a lethal hit (500.1f)",
}


def unit_schema(required: list[str]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, kind in UNIT_FIELDS.items():
        prop = dict(_SCHEMA_TYPES[kind])
        if name == "side":
            prop = {"type": "integer", "enum": [0, 1]}
        if name in UNIT_DEFAULTS:
            prop["default"] = UNIT_DEFAULTS[name]
        if name in _FIELD_NOTES:
            prop["description"] = _FIELD_NOTES[name]
        properties[name] = prop
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def event_schema() -> dict[str, Any]:
    properties = {name: dict(_SCHEMA_TYPES[kind]) for name, kind in EVENT_FIELDS.items()}
    properties["name"] = {"type": "string", "enum": sorted(EVENT_NAMES)}
    return {"type": "object", "properties": properties, "required": ["name"], "additionalProperties": False}


def ruleset_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for f in fields(Ruleset):
        if isinstance(f.default, bool) or not isinstance(f.default, int):
            properties[f.name] = {"type": "string", "default": f.default}
        else:
            properties[f.name] = {"type": "integer", "minimum": 1, "default": f.default}
    # enumerations, from the ruleset's own validation
    for name, allowed in _ruleset_choices().items():
        properties[name]["enum"] = list(allowed)
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _ruleset_choices() -> dict[str, tuple[str, ...]]:
    import typing

    out = {}
    hints = typing.get_type_hints(Ruleset)
    for f in fields(Ruleset):
        args = typing.get_args(hints[f.name])
        if args and all(isinstance(a, str) for a in args):
            out[f.name] = args
    return out


def scenario_schema() -> dict[str, Any]:
    from referee import play
    from referee.actions import ACTION_KINDS, action_schemas

    combat_actions = [a for a in action_schemas() if ACTION_KINDS[a["title"]].rulebook == "combat"]
    play_actions = [a for a in action_schemas() if ACTION_KINDS[a["title"]].rulebook == "play"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://referee.invalid/schema/scenario.schema.json",
        "title": f"referee scenario ({PROTOCOL})",
        "description": "A starting board (combat) or play state (play), the options and the actions to run, "
        "with every chance roll explicit.",
        "oneOf": [{"$ref": "#/$defs/combat_scenario"}, {"$ref": "#/$defs/play_scenario"}],
        "$defs": {
            "combat_scenario": {
                "type": "object",
                "properties": {
                    "protocol": {"const": PROTOCOL},
                    "id": {"type": "string", "description": "echoed back in the observation"},
                    "rulebook": {"const": "combat", "default": "combat"},
                    "ruleset": {"$ref": "#/$defs/ruleset"},
                    "board": {"type": "array", "items": {"$ref": "#/$defs/unit"}},
                    "actions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/action"}},
                },
                "required": ["protocol", "board", "actions"],
                "additionalProperties": False,
            },
            "play_scenario": {
                "type": "object",
                "properties": {
                    "protocol": {"const": PROTOCOL},
                    "id": {"type": "string", "description": "echoed back in the observation"},
                    "rulebook": {"const": "play"},
                    "rules": play.rules_schema(),
                    "state": {"$ref": "#/$defs/play_state"},
                    "actions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/play_action"}},
                },
                "required": ["protocol", "rulebook", "state", "actions"],
                "additionalProperties": False,
            },
            "unit": unit_schema(["uid"]),
            "ruleset": ruleset_schema(),
            "action": {"oneOf": combat_actions},
            "play_state": play.state_schema(complete=False),
            "play_action": {"oneOf": play_actions},
        },
    }


def observation_schema() -> dict[str, Any]:
    from referee import play

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://referee.invalid/schema/observation.schema.json",
        "title": f"referee observation ({PROTOCOL})",
        "description": "The final board (combat) or play state (play) and the ordered events an engine reports "
        "for one scenario.",
        "type": "object",
        "properties": {
            "protocol": {"const": PROTOCOL},
            "id": {"type": "string", "description": "the scenario's id, echoed"},
            "rulebook": {"type": "string", "enum": ["combat", "play"], "description": "optional; the scenario's rulebook"},
            "board": {"type": "array", "items": {"$ref": "#/$defs/unit"}},
            "state": {"$ref": "#/$defs/play_state"},
            "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
        },
        "required": ["protocol"],
        "anyOf": [{"required": ["board"]}, {"required": ["state"]}],
        "additionalProperties": True,
        "$defs": {
            "unit": unit_schema(list(PLACEMENT_FIELDS)),
            "play_state": play.state_schema(complete=True),
            "event": event_schema(),
        },
    }


SCHEMAS = {"scenario": scenario_schema, "observation": observation_schema}


def schema_text(name: str) -> str:
    """The schema as published (``referee/schema/<name>.schema.json``, ``docs/schema/``)."""
    return json.dumps(SCHEMAS[name](), indent=2, sort_keys=False) + "\n"
