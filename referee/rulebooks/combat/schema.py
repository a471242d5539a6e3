"""The combat rulebook's JSON Schemas: units, the ruleset, its scenario and its observation."""

from __future__ import annotations

import typing
from dataclasses import fields
from typing import Any

from referee.model.combat.ruleset import Ruleset

from ...rulebook import action_schema
from ...wire import PROTOCOL, SCHEMA_TYPES
from .codec import PLACEMENT_FIELDS, UNIT_DEFAULTS, UNIT_FIELDS
from .field_notes import FIELD_DESCRIPTIONS
from .kinds import KINDS


def unit_schema(required: list[str]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, kind in UNIT_FIELDS.items():
        prop = dict(SCHEMA_TYPES[kind])
        if name == "side":
            prop = {"type": "integer", "enum": [0, 1]}
        if name in UNIT_DEFAULTS:
            prop["default"] = UNIT_DEFAULTS[name]
        prop["description"] = FIELD_DESCRIPTIONS[name]
        properties[name] = prop
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


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
    out = {}
    hints = typing.get_type_hints(Ruleset)
    for f in fields(Ruleset):
        args = typing.get_args(hints[f.name])
        if args and all(isinstance(a, str) for a in args):
            out[f.name] = args
    return out



def scenario_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The combat scenario's schema and the ``$defs`` it uses."""
    scenario = {
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
    }
    defs = {
        "unit": unit_schema(["uid"]),
        "ruleset": ruleset_schema(),
        "action": {"oneOf": [action_schema(kind) for kind in KINDS.values()]},
    }
    return scenario, defs


def observation_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The combat observation's ``board`` property and the ``$defs`` it uses."""
    return {"board": {"type": "array", "items": {"$ref": "#/$defs/unit"}}}, {"unit": unit_schema(list(PLACEMENT_FIELDS))}
