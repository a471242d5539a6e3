"""The engine protocol ``referee/2``, whatever the rulebook: decode, encode, schemas.

A *scenario* is a rulebook's starting state (a combat ``board``, a play ``state``), its
readings and a short list of actions, each carrying every chance roll it needs; an
*observation* is what an engine reports after running it: the final state and the ordered
events. ``docs/protocol.md`` is the reference; :func:`scenario_schema` and
:func:`observation_schema` are the JSON Schemas (exported by ``referee schema``), assembled
from each rulebook's own parts. The shared wire format is :mod:`referee.wire`; each
rulebook's codec is ``referee/rulebooks/<name>/codec.py``.
"""

from __future__ import annotations

import json
from typing import Any

from referee.model.events import Event

from . import rulebooks
from .emitters import event_clauses
from .wire import shown
from .wire import (  # noqa: F401 - the protocol's public names
    EVENT_FIELDS,
    INTEGER_LIMIT,
    PROTOCOL,
    Observation,
    ProtocolError,
    Scenario,
    check_event_contracts,
    check_integer_range,
    check_protocol,
    check_value,
    event_from_json,
    event_schema,
    event_to_json,
    require,
    require_list,
    require_object,
)


def _check_kinds(path: str, data: dict[str, Any], rulebook: str) -> None:
    """Every action names a known kind of the scenario's own rulebook (a clear error otherwise)."""
    actions = data.get("actions")
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        if not isinstance(action, dict) or "kind" not in action:
            continue
        if not isinstance(action["kind"], str):
            raise ProtocolError(f"{path}.actions[{i}].kind", f"expected an action kind name (a string), got "
                                f"{shown(action['kind'])}")
        where, name = f"{path}.actions[{i}].kind", action["kind"]
        if name not in rulebooks.ACTION_KINDS:
            raise ProtocolError(where, f"unknown action kind {name!r} (known: {', '.join(rulebooks.ACTION_KINDS)})")
        owner = rulebooks.ACTION_KINDS[name].rulebook
        if owner != rulebook:
            raise ProtocolError(where, f"a {name!r} action belongs to the {owner} rulebook "
                                f"(the scenario needs \"rulebook\": \"{owner}\")")


def decode_scenario(data: Any, path: str = "scenario") -> Scenario:
    """Check and decode a scenario of any rulebook; every error names its field path. Every integer in it is
    within the protocol's range (:data:`~referee.wire.INTEGER_LIMIT`), whatever its field."""
    data = require_object(path, data)
    check_protocol(path, data)
    rulebook = rulebooks.of_scenario(data, path)
    _check_kinds(path, data, rulebook.name)
    check_integer_range(path, data)
    return rulebook.decode_scenario(data, path)


def rulebook_of(scenario: Any) -> str:
    """The name of the rulebook a scenario (JSON) belongs to; the default for anything unreadable."""
    if isinstance(scenario, dict) and scenario.get("rulebook") in rulebooks.RULEBOOKS:
        return scenario["rulebook"]
    return rulebooks.default().name


def decode_observation(
    data: Any,
    path: str = "observation",
    *,
    fields_needed: tuple[str, ...] | None = None,
    events_needed: bool = True,
    rulebook: str | None = None,
    event_fields: tuple[str, ...] | None = None,
) -> Observation:
    """Check and decode an engine's observation of a scenario of ``rulebook`` (None: the default).

    ``fields_needed`` (None: all) are the state fields the comparison reads: they must be
    present; others may be omitted. ``events_needed``: the ``events`` list must be present.
    Every error names its path; ``ProtocolError.kind`` says whether a field was missing or
    malformed. Each event is held to its name's contract (``referee.model.events.EVENTS``)
    on ``event_fields`` (None: every field), the event fields the comparison reads.
    """
    data = require_object(path, data)
    check_protocol(path, data)
    book = rulebooks.get(rulebook) if rulebook else rulebooks.default()
    observation = book.decode_observation(data, path, fields_needed=fields_needed, events_needed=events_needed)
    check_event_contracts(path, observation.events, event_fields)
    return observation


def encode_observation(rulebook: str, state: Any, events: tuple[Event, ...] | list[Event], sid: str | None = None) -> dict[str, Any]:
    """The observation JSON of a final state and its events, in ``rulebook``'s form."""
    return rulebooks.get(rulebook).encode_observation(state, tuple(events), sid)


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario: one branch per rulebook."""
    branches, defs = [], {}
    for name, book in rulebooks.RULEBOOKS.items():
        scenario, more = book.scenario_schema()
        defs[f"{name}_scenario"] = scenario
        defs.update(more)
        branches.append({"$ref": f"#/$defs/{name}_scenario"})
    return bounded_integers({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://referee.invalid/schema/scenario.schema.json",
        "title": f"referee scenario ({PROTOCOL})",
        "description": "A rulebook's starting state (a combat board, a play state), the options and the actions "
        "to run, with every chance roll explicit. Every integer in it is within -(2^53 - 1)..2^53 - 1, the "
        "protocol's integer range (a field's own range may be narrower).",
        "oneOf": branches,
        "$defs": defs,
    })


#: The keywords whose value is a subschema, a list of them, or a map of them (the ones the schemas use).
#: Not ``if`` or ``not``: a bound there would change what the condition says rather than what is accepted.
_SUBSCHEMA, _SUBSCHEMAS, _SUBSCHEMA_MAPS = ("items", "additionalProperties", "then", "else"), \
    ("allOf", "anyOf", "oneOf", "prefixItems"), ("properties", "$defs")


def bounded_integers(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every integer it accepts held to the protocol's range, as the loader holds a scenario's
    (:func:`~referee.wire.check_integer_range`): each subschema of type integer gets ``minimum`` and
    ``maximum`` within +-:data:`~referee.wire.INTEGER_LIMIT` (a field's own narrower range kept; an ``enum``
    or a ``const`` is a bound already)."""
    out = dict(schema)
    for key in _SUBSCHEMA:
        if isinstance(out.get(key), dict):
            out[key] = bounded_integers(out[key])
    for key in _SUBSCHEMAS:
        if key in out:
            out[key] = [bounded_integers(item) for item in out[key]]
    for key in _SUBSCHEMA_MAPS:
        if key in out:
            out[key] = {name: bounded_integers(item) for name, item in out[key].items()}
    kind = out.get("type")
    if (kind == "integer" or (isinstance(kind, list) and "integer" in kind)) and not ("enum" in out or "const" in out):
        out["minimum"] = max(out.get("minimum", -INTEGER_LIMIT), -INTEGER_LIMIT)
        out["maximum"] = min(out.get("maximum", INTEGER_LIMIT), INTEGER_LIMIT)
    return out


#: An engine's refusal of a scenario it does not implement, in place of its state and events (docs/protocol.md
#: "Refusing an action kind"): ``referee check`` reports it as an ``unsupported`` fault naming the kind.
UNSUPPORTED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "the engine does not implement one of the scenario's action kinds: it names it instead of "
                   "answering (an engine fault of kind unsupported, saying what to build next)",
    "properties": {
        "kind": {"type": "string", "enum": list(rulebooks.ACTION_KINDS),
                 "description": "an action kind of the scenario, which the engine refuses"},
        "reason": {"type": "string", "description": "free text, shown in the report", "default": ""},
    },
    "required": ["kind"],
    "additionalProperties": False,
}


def observation_schema() -> dict[str, Any]:
    """The JSON Schema of an observation: the final state of any rulebook, and the events."""
    properties: dict[str, Any] = {
        "protocol": {"const": PROTOCOL},
        "id": {"type": "string", "description": "the scenario's id, echoed"},
        "rulebook": {"type": "string", "enum": list(rulebooks.RULEBOOKS), "description": "optional; the scenario's rulebook"},
    }
    defs: dict[str, Any] = {}
    for book in rulebooks.RULEBOOKS.values():
        state, more = book.observation_schema()
        properties.update(state)
        defs.update(more)
    properties["events"] = {"type": "array", "items": {"$ref": "#/$defs/event"}}
    properties["unsupported"] = {"$ref": "#/$defs/unsupported"}
    defs["event"] = event_schema(event_clauses())
    defs["unsupported"] = UNSUPPORTED_SCHEMA
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://referee.invalid/schema/observation.schema.json",
        "title": f"referee observation ({PROTOCOL})",
        "description": "The final state (a combat board, a play state) and the ordered events an engine reports "
        "for one scenario. Its integers are compared exactly at any size: a scenario's integers are within "
        "-(2^53 - 1)..2^53 - 1, but what it produces may leave that range.",
        "type": "object",
        "properties": properties,
        "required": ["protocol"],
        "anyOf": [*({"required": [book.state_key]} for book in rulebooks.RULEBOOKS.values()),
                  {"required": ["unsupported"]}],
        "additionalProperties": True,
        "$defs": defs,
    }


SCHEMAS = {"scenario": scenario_schema, "observation": observation_schema}


def schema_text(name: str) -> str:
    """The schema as published (``referee/schema/<name>.schema.json``, ``docs/schema/``)."""
    return json.dumps(SCHEMAS[name](), indent=2, sort_keys=False) + "\n"
