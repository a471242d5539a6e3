"""The play rulebook's JSON Schemas: play states, costs, plans, its scenario and observation."""

from __future__ import annotations

import inspect
import re
import typing
from dataclasses import fields
from typing import Any

from referee.model.play.rules import PlayRules
from referee.model.play.state import DOMAINS, KINDS as OBJECT_KINDS, ZONE_NAMES

from .codec import DISCOUNT_TARGETS, EFFECT_KINDS, NONSTANDARD_KINDS, OBJECT_DEFAULTS, OBJECT_FIELDS


def _power_schema(description: str) -> dict[str, Any]:
    return {"type": "object", "description": description,
            "properties": {d: {"type": "integer", "minimum": 0, "default": 0} for d in DOMAINS},
            "additionalProperties": False}


def _resource_properties() -> dict[str, Any]:
    return {
        "energy": {"type": "integer", "minimum": 0, "default": 0, "description": "Energy"},
        "power": _power_schema("Power of each named domain"),
        "any_power": {"type": "integer", "minimum": 0, "default": 0, "description": "[A]: Power of any domain"},
    }


def _component_schema(optional: bool) -> dict[str, Any]:
    props = _resource_properties()
    props["nonstandard"] = {"type": "array", "default": [], "items": {
        "type": "object", "properties": {"kind": {"type": "string", "enum": list(NONSTANDARD_KINDS)},
                                         "count": {"type": "integer", "minimum": 1, "default": 1}},
        "required": ["kind"], "additionalProperties": False}}
    if optional:
        props["optional"] = {"type": "boolean", "default": False, "description": "an optional additional cost (355.1.a)"}
    return {"type": "object", "properties": props, "additionalProperties": False}


def _modifiers_schema() -> dict[str, Any]:
    discount = {"type": "object", "properties": {
        "energy": {"type": "integer", "minimum": 0, "default": 0},
        "power": {"type": "integer", "minimum": 0, "default": 0},
        "either": {"type": "boolean", "default": False, "description": "takes only one of the two parts (PLAY-003)"},
        "applies_to": {"type": "string", "enum": list(DISCOUNT_TARGETS), "default": "total"}},
        "additionalProperties": False}
    return {"type": "object", "description": "cost increases (356.3) and discounts (356.4)", "properties": {
        "increases": {"type": "array", "default": [], "items": {"type": "object", "properties": _resource_properties(),
                                                                "additionalProperties": False}},
        "discounts": {"type": "array", "default": [], "items": discount}}, "additionalProperties": False}


def _plan_schema() -> dict[str, Any]:
    return {"type": "array", "description": "the payment plan, in the player's order (357)", "items": {"oneOf": [
        {"type": "object", "properties": {"step": {"const": "use_rune"}, "rune": {"type": "string"},
                                          "ability": {"type": "string", "enum": ["exhaust", "recycle"]}},
         "required": ["step", "rune", "ability"], "additionalProperties": False},
        {"type": "object", "properties": {"step": {"const": "pay_cost"}, "index": {"type": "integer"},
                                          "targets": {"type": "array", "items": {"type": "string"}, "default": []}},
         "required": ["step", "index"], "additionalProperties": False},
        {"type": "object", "properties": {"step": {"const": "pay_resources"},
                                          "any_power_from": {"type": "array", "items": {"type": "string", "enum": list(DOMAINS)}}},
         "required": ["step"], "additionalProperties": False},
    ]}}


def play_card_schema() -> dict[str, Any]:
    return {
        "title": "play_card", "description": PLAY_CARD_SUMMARY, "type": "object",
        "properties": {
            "kind": {"const": "play_card"},
            "card": {"type": "string", "description": "oid of the card played"},
            "cost": _component_schema(False),
            "additional": {"type": "array", "items": _component_schema(True), "default": []},
            "pay_optional": {"type": "array", "items": {"type": "boolean"},
                             "description": "pay or skip each additional cost (355.1.a); default all false"},
            "location": {"type": "integer", "default": 0, "description": "where a unit enters (355.2)"},
            "modifiers": _modifiers_schema(),
            "plan": _plan_schema(),
        },
        "required": ["kind", "card", "plan"], "additionalProperties": False,
    }


def activate_schema() -> dict[str, Any]:
    return {
        "title": "activate", "description": ACTIVATE_SUMMARY, "type": "object",
        "properties": {
            "kind": {"const": "activate"},
            "source": {"type": "string", "description": "oid of the object whose ability is activated"},
            "ability": {"type": "object", "properties": {
                "cost": _component_schema(False),
                "effect": {"type": "object", "properties": {
                    "kind": {"type": "string", "enum": list(EFFECT_KINDS)},
                    "amount": {"type": "integer", "minimum": 0, "default": 1}},
                    "required": ["kind"], "additionalProperties": False}},
                "required": ["effect"], "additionalProperties": False},
            "modifiers": _modifiers_schema(),
            "plan": _plan_schema(),
        },
        "required": ["kind", "source", "ability", "plan"], "additionalProperties": False,
    }


def state_schema(complete: bool) -> dict[str, Any]:
    obj_props: dict[str, Any] = {
        "oid": {"type": "string"}, "kind": {"type": "string", "enum": list(OBJECT_KINDS)},
        "controller": {"type": "integer", "enum": [0, 1]}, "domain": {"type": "string", "enum": list(DOMAINS)},
        "zone": {"type": "string", "enum": list(ZONE_NAMES)}, "location": {"type": "integer", "minimum": 0, "description": (
            "on the board, one of its locations: below location_count (355.2, 359.2.c); elsewhere not read "
            "(PLAY-010)")},
        "exhausted": {"type": "boolean"}, "might_bonus": {"type": "integer"},
    }
    for name, default in OBJECT_DEFAULTS.items():
        obj_props[name]["default"] = default
    power = _power_schema("Power by domain")
    if complete:
        power["required"] = list(DOMAINS)
    return {"type": "object", "properties": {
        "pool": {"type": "object", "properties": {"energy": {"type": "integer", **({} if complete else {"minimum": 0})},
                                                  "power": power},
                 "required": ["energy", "power"] if complete else [], "additionalProperties": False},
        "objects": {"type": "array", "items": {"type": "object", "properties": obj_props,
                                               "required": list(OBJECT_FIELDS) if complete else ["oid"],
                                               "additionalProperties": False}},
        "player": {"type": "integer", "enum": [0, 1], "default": 0},
        "location_count": {"type": "integer", "minimum": 1, "default": 3},
    }, "required": ["pool", "objects"], "additionalProperties": False}


def rules_schema() -> dict[str, Any]:
    """The play rules: each option of ``PlayRules``, its readings, its default and its register comment."""
    hints = typing.get_type_hints(PlayRules)
    comments = option_comments(PlayRules)
    return {"type": "object", "additionalProperties": False, "properties": {
        f.name: {"type": "string", "enum": list(typing.get_args(hints[f.name])), "default": f.default,
                 "description": comments[f.name]} for f in fields(PlayRules)}}


def option_comments(cls: type) -> dict[str, str]:
    """Each option's ``#:`` comment (``PLAY-003 (356.4.c): which part ...``), as ``PLAY-003: which part ...``."""
    out, comment = {}, ""
    for line in inspect.getsource(cls).splitlines():
        text = line.strip()
        if text.startswith("#:"):
            comment = re.sub(r"^(\S+) \([^)]*\):", r"\1:", text[2:].strip())
        elif ":" in text and comment:
            out[text.split(":")[0].strip()], comment = comment, ""
    return out


PLAY_CARD_SUMMARY = "Play a card (350-359): chain, choices, total cost, payment plan, checks; undone if a check fails (358.5)."
ACTIVATE_SUMMARY = "Activate an ability (399): its cost before the colon paid by the plan; the linked effect only if paid."
