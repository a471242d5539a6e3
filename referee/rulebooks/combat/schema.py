"""The combat rulebook's JSON Schemas: units, the ruleset, its scenario and its observation."""

from __future__ import annotations

import typing
from dataclasses import fields
from typing import Any

from referee.model.combat import legal
from referee.model.combat.ruleset import Ruleset

from ...rulebook import action_schema
from ...wire import PROTOCOL, SCHEMA_TYPES
from .codec import PLACEMENT_FIELDS, UNIT_DEFAULTS, UNIT_FIELDS
from .field_notes import FIELD_DESCRIPTIONS
from .kinds import KINDS


def _range(low: int, high: int | None) -> dict[str, int]:
    return {"minimum": low, **({} if high is None else {"maximum": high})}


def legal_unit_constraints() -> dict[str, Any]:
    """What a legal unit's fields say, in JSON Schema, from ``referee.model.combat.legal``: a living unit's
    Vitality and maximum at least 1, a dead unit's Vitality 0 (500.4a), at most one role (500.1-1). The
    comparisons between fields (Vitality at most the maximum, a link naming an ally, distinct cells) are
    the loader's alone and are said in ``$comment``."""
    def ranges(alive: bool) -> dict[str, Any]:
        return {"properties": {n: _range(*r) for n, r in legal.ALIVE_RANGES[alive].items()}}

    pairs = [(a, b) for i, a in enumerate(legal.ROLES) for b in legal.ROLES[i + 1:]]
    return {
        "allOf": [
            {"if": {"properties": {"alive": {"const": False}}, "required": ["alive"]}, "then": ranges(False),
             "else": ranges(True)},
            *({"not": {"properties": {a: {"const": True}, b: {"const": True}}, "required": [a, b]}} for a, b in pairs),
        ],
        "$comment": "also (checked by the loader, not expressible here): vitality <= max_vitality while alive; "
                    "redirect_to and intercept_by name an ally on the board, not the unit itself; living units "
                    "stand in distinct cells (referee.model.combat.legal)",
    }


def unit_schema(required: list[str], legal_ranges: bool = False) -> dict[str, Any]:
    """A unit; with ``legal_ranges``, the legal range of every field (a scenario's unit: the loader's own)."""
    properties: dict[str, Any] = {}
    for name, kind in UNIT_FIELDS.items():
        prop = dict(SCHEMA_TYPES[kind])
        if name == "side":
            prop = {"type": "integer", "enum": [0, 1]}
        if name in UNIT_DEFAULTS:
            prop["default"] = UNIT_DEFAULTS[name]
        prop["description"] = FIELD_DESCRIPTIONS[name]
        if legal_ranges and name in legal.FIELD_RANGES:
            prop.update(_range(*legal.FIELD_RANGES[name]))
        properties[name] = prop
    schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return {**schema, **legal_unit_constraints()} if legal_ranges else schema


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
        "unit": unit_schema(["uid"], legal_ranges=True),
        "ruleset": ruleset_schema(),
        "action": {"oneOf": [action_schema(kind) for kind in KINDS.values()]},
    }
    return scenario, defs


def observation_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The combat observation's ``board`` property and the ``$defs`` it uses."""
    return {"board": {"type": "array", "items": {"$ref": "#/$defs/unit"}}}, {"unit": unit_schema(list(PLACEMENT_FIELDS))}
