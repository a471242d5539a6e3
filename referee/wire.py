"""The wire format ``referee/2`` that every rulebook shares: versions, errors, events.

A *scenario* is a rulebook's starting state, its readings (the ruleset) and a short list of
actions, each carrying every chance roll it needs; an *observation* is what an engine reports
after running it: the final state and the ordered events. Both are plain JSON objects with a
``"protocol": "referee/2"`` field (``referee.changelog`` says what changed since ``referee/1``);
``docs/protocol.md`` is the reference. What the state and
the actions look like is each rulebook's own codec (``referee/rulebooks/<name>/codec.py``);
this module holds only what they share.

Decoding never raises a bare ``KeyError`` or ``TypeError``: every problem is a
:class:`ProtocolError` whose message starts with the path of the offending field, for
example ``scenario.board[2].armor: expected integer, got "7"``. The same checks classify
an engine's answer (a wrong type is a schema violation, an absent field a missing field),
so they are written by hand rather than delegated to a JSON Schema validator, which would
cost a millisecond per observation; a test holds the two in agreement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from referee.model.events import ANY_WORD, EVENT_NAMES, EVENTS, Event, EventSpec

PROTOCOL = "referee/2"
#: The versions before :data:`PROTOCOL`: an engine that announces one is told what changed (``referee.changelog``).
OLDER_PROTOCOLS = ("referee/1",)


class ProtocolError(ValueError):
    """A scenario or observation that does not follow the protocol.

    ``path`` names the field (``observation.board[1].shield``); ``kind`` is one of
    ``schema`` (a value of the wrong type or shape) and ``missing`` (an absent field).
    """

    def __init__(self, path: str, message: str, kind: str = "schema") -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.kind = kind


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


#: The test of each JSON type ``check_value`` knows, built once (it runs for every field of every unit).
TYPE_CHECKS = {
    "integer": lambda v: type(v) is int,
    "boolean": lambda v: type(v) is bool,
    "string": lambda v: type(v) is str,
    "uid?": lambda v: v is None or type(v) is str,
    "string?": lambda v: v is None or type(v) is str,
    "booleans": lambda v: type(v) is list and all(type(x) is bool for x in v),
}


def check_value(path: str, value: Any, expected: str) -> Any:
    """Return ``value`` if it has the JSON type ``expected``; else raise naming ``path``."""
    if not TYPE_CHECKS[expected](value):
        raise type_error(path, value, expected)
    return value


def type_error(path: str, value: Any, expected: str) -> ProtocolError:
    """The error for ``value`` at ``path`` not having the JSON type ``expected``."""
    shown = json.dumps(value) if _type_name(value) in ("string", "integer", "boolean", "null") else _type_name(value)
    wanted = {"uid?": "string or null", "string?": "string or null", "booleans": "array of booleans"}.get(
        expected, expected
    )
    return ProtocolError(path, f"expected {wanted}, got {shown}")


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


def shown(value: Any, limit: int = 80) -> str:
    """A short, safe rendering of any JSON value for an error message: never recursive (a
    100,000-deep list is "a JSON array"), never longer than ``limit``."""
    if isinstance(value, dict):
        return f"a JSON object ({len(value)} keys)"
    if isinstance(value, list):
        return f"a JSON array ({len(value)} items)"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: The protocol's integer range: every integer in a scenario is within ``-INTEGER_LIMIT..INTEGER_LIMIT``, 2^53 - 1,
#: the largest range a JSON number keeps exactly in every language an engine may be written in (a JavaScript
#: or TypeScript ``Number``, ``Number.MAX_SAFE_INTEGER``; a C# or Java ``double``; Python's ``int`` has no limit).
#: A field's own legal range (``referee.model.combat.legal``) may be narrower; never wider.
INTEGER_LIMIT = 2**53 - 1


def integer_range_error(path: str, value: int) -> ProtocolError:
    """The error for an integer at ``path`` outside the protocol's range."""
    return ProtocolError(path, f"expected an integer in -{INTEGER_LIMIT}..{INTEGER_LIMIT} (+-(2^53 - 1), the "
                               f"protocol's integer range), got {shown(value)}")


def check_integer_range(path: str, data: Any) -> None:
    """Raise naming the first integer of ``data`` (at any depth, in document order) outside the protocol's range.

    Every integer of a scenario, whatever its field or rulebook, is held to :data:`INTEGER_LIMIT` here, before
    its rulebook decodes it; a boolean is not an integer. The quick walk only says whether one is outside (no
    path is built); :func:`_first_outside` then finds it. Iterative: a deeply nested value never recurses.
    """
    stack, seen = [data], {id(data)}  # a list or dict held in two places (a caller's own objects) is walked once
    pop, push = stack.pop, stack.append
    while stack:
        for value in _children(pop()):
            kind = type(value)
            if kind is int:
                if not -INTEGER_LIMIT <= value <= INTEGER_LIMIT:
                    where, found = _first_outside(path, data)
                    raise integer_range_error(where, found)
            elif (kind is dict or kind is list) and id(value) not in seen:
                seen.add(id(value))
                push(value)


def _children(value: Any) -> Any:
    return value.values() if type(value) is dict else value if type(value) is list else ()


def _first_outside(path: str, data: Any) -> tuple[str, int]:
    """The path and value of the first integer (in document order) outside the protocol's range. A list or dict
    held in several places is walked at its first place only: had it held the integer, the walk would have
    ended there (walking it again at each place is exponential in a value that nests shared lists)."""
    stack: list[tuple[str, Any]] = [(path, data)]
    seen: set[int] = set()
    while stack:
        where, value = stack.pop()
        kind = type(value)
        if kind is int and not -INTEGER_LIMIT <= value <= INTEGER_LIMIT:
            return where, value
        if kind is dict or kind is list:
            if id(value) in seen:
                continue
            seen.add(id(value))
        if kind is dict:
            stack.extend(reversed([(f"{where}.{key}", item) for key, item in value.items()]))
        elif kind is list:
            stack.extend(reversed([(f"{where}[{i}]", item) for i, item in enumerate(value)]))
    raise AssertionError("check_integer_range found an integer outside the range that _first_outside did not")


def check_protocol(path: str, data: dict[str, Any]) -> None:
    version = require(path, data, "protocol")
    if version != PROTOCOL:
        if version in OLDER_PROTOCOLS:
            from .changelog import older_version_message

            raise ProtocolError(f"{path}.protocol", older_version_message(version, PROTOCOL))
        raise ProtocolError(f"{path}.protocol", f"expected {PROTOCOL!r}, got {shown(version)}")


# --------------------------------------------------------------------------------------
# Events: one vocabulary for every rulebook (referee.model.events)
# --------------------------------------------------------------------------------------

#: Event fields and their JSON types.
EVENT_FIELDS: dict[str, str] = {"name": "string", "unit": "uid?", "amount": "integer", "other": "uid?", "detail": "string?"}


#: The event fields in order, and the types :func:`_plain_event` tests them for (held to ``EVENT_FIELDS``).
_EVENT_FIELD_NAMES = ("name", "unit", "amount", "other", "detail")
assert EVENT_FIELDS == dict(zip(_EVENT_FIELD_NAMES, ("string", "uid?", "integer", "uid?", "string?")))


#: What an event field an answer leaves out reads as (:func:`event_from_json`; the schema's ``default``).
EVENT_DEFAULTS: dict[str, Any] = {"unit": None, "amount": 0, "other": None, "detail": None}


def event_to_json(event: Event) -> dict[str, Any]:
    return event.to_json()


def _plain_event(data: Any) -> Event | None:
    """The event of a dict with exactly the five fields in order, each of its type and a known name; else None
    (then :func:`event_from_json` decides, and names the field). The quick test: no path is built."""
    if type(data) is not dict or tuple(data) != _EVENT_FIELD_NAMES:
        return None
    values = tuple(data.values())
    name, unit, amount, other, detail = values
    if (type(name) is str and type(amount) is int and (unit is None or type(unit) is str)
            and (other is None or type(other) is str) and (detail is None or type(detail) is str)
            and name in EVENT_NAMES):
        event = _PLAIN_EVENTS.get(values)
        if event is None:
            event = Event(name, unit, amount, other, detail)
            if len(_PLAIN_EVENTS) < 8192:
                _PLAIN_EVENTS[values] = event
        return event
    return None


#: The events :func:`_plain_event` built, by their five values. Looked up only after the type tests, so a
#: key's values are ``str``, ``int`` (never ``bool``) or None, where equal values are of the same type: an
#: equal key is the same event. An :class:`Event` is immutable (frozen), so one object serves every answer
#: that reports it (as the model's fast path appends an event met before again).
_PLAIN_EVENTS: dict[tuple[Any, ...], Event] = {}


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
        raise ProtocolError(f"{path}.name", f"unknown event name {shown(values['name'])}")
    return Event(**values)


def check_event_contracts(path: str, events: tuple[Event, ...] | None, fields: tuple[str, ...] | None = None) -> None:
    """Raise naming the first event field that breaks its name's contract (``referee.model.events.EVENTS``).

    ``fields`` (None: all) are the event fields compared: a field the comparison ignores is not
    held to its contract either, so an engine that opts out of ``other`` may leave it wrong.
    """
    memo = fields is None or type(fields) is tuple  # a key needs a hashable field list
    for index, event in enumerate(events or ()):
        amount, detail = event.amount, event.detail
        if memo and type(amount) is int and (detail is None or type(detail) is str):
            key = (fields, event.name, event.unit is None, amount == 0, event.other is None, detail)
            broken = _VIOLATIONS.get(key, _UNSEEN)
            if broken is _UNSEEN:
                broken = EVENTS[event.name].violation(event, fields)
                if len(_VIOLATIONS) < 8192:
                    _VIOLATIONS[key] = broken
        else:
            broken = EVENTS[event.name].violation(event, fields)
        if broken is not None:
            raise ProtocolError(f"{path}.events[{index}].{broken[0]}", broken[1])


#: ``EventSpec.violation``'s answers, by what they read: the compared fields, the name (the contract), whether
#: ``unit`` and ``other`` are null, whether ``amount`` is 0, and ``detail`` itself (a word is tested against the
#: contract's words and shown in the message). Nothing else of an event reaches ``violation``, so an equal key
#: has the same answer; only an ``int`` amount and a ``str`` or null detail are looked up (anything else asks
#: ``violation`` itself). ``tests/harness/test_harness_fast_paths.py`` holds it to ``violation``.
_VIOLATIONS: dict[tuple[Any, ...], tuple[str, str] | None] = {}
_UNSEEN = object()


#: JSON Schema fragments of the field types the codecs use.
SCHEMA_TYPES = {
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "string": {"type": "string"},
    "uid?": {"type": ["string", "null"]},
    "string?": {"type": ["string", "null"]},
    "booleans": {"type": "array", "items": {"type": "boolean"}},
}

def event_schema(clauses: dict[str, tuple[str, ...]] | None = None) -> dict[str, Any]:
    """An event: its shape, then its own contract chosen by its name (``referee.model.events.EVENTS``).

    The per-name contracts are chosen by name (``allOf`` of ``if name == N then N's contract``:
    one applies to each event, as a ``oneOf`` by name would, but a field the contract forbids
    fails at its own path, ``events/3/other``, where a ``oneOf`` reports only the event).
    """
    properties = {name: {**SCHEMA_TYPES[kind], "default": EVENT_DEFAULTS[name]} for name, kind in EVENT_FIELDS.items()
                  if name != "name"}
    properties = {"name": {"type": "string", "enum": list(EVENT_NAMES)}, **properties}
    return {
        "type": "object", "properties": properties, "required": ["name"], "additionalProperties": False,
        "allOf": [{"if": {"properties": {"name": {"const": spec.name}}, "required": ["name"]},
                   "then": event_contract_schema(spec, (clauses or {}).get(spec.name, ()))} for spec in EVENTS.values()],
    }


def event_contract_schema(spec: EventSpec, clauses: tuple[str, ...] = ()) -> dict[str, Any]:
    """One event name's contract as JSON Schema: each field null, 0, a word, or typed as declared; ``clauses``
    (those of the model code that emits it, ``referee.emitters``) close its description."""
    def role(meaning: str | None, nullable: bool) -> dict[str, Any]:
        if meaning is None:
            return {"type": "null", "description": f"always null for {spec.name}"}
        return {"type": ["string", "null"] if nullable else "string", "description": meaning}

    if spec.detail is None:
        detail: dict[str, Any] = {"type": "null", "description": f"always null for {spec.name}"}
    elif spec.detail == ANY_WORD:
        detail = {"type": "string", "description": spec.detail_meaning or "a word"}
    else:
        detail = {"enum": list(spec.detail), "description": spec.detail_meaning or "the variant"}
    amount = {"const": 0, "description": f"always 0 for {spec.name}"} if spec.amount is None else {
        "type": "integer", "description": spec.amount}
    required = ["name"] + [f for f, v in (("unit", spec.unit), ("other", None if spec.other_nullable else spec.other),
                                          ("detail", spec.detail)) if v is not None]
    return {
        "title": spec.name,
        "description": f"{spec.summary}: {spec.emitted_when}" + (f" ({', '.join(clauses)})" if clauses else ""),
        "properties": {"name": {"const": spec.name}, "unit": role(spec.unit, False), "amount": amount,
                       "other": role(spec.other, spec.other_nullable), "detail": detail},
        "required": required,
    }



# --------------------------------------------------------------------------------------
# Decoded scenarios and observations, whatever the rulebook
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A decoded scenario: the rulebook's starting state, its readings and the actions.

    ``state`` and ``rules`` are the rulebook's own model objects (a combat ``Board`` and
    ``Ruleset``, a ``PlayState`` and ``PlayRules``); ``actions`` are decoded JSON objects.
    """

    rulebook: str
    state: Any
    rules: Any
    actions: tuple[dict[str, Any], ...]
    id: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Observation:
    """A decoded observation: the final state and the events (``None`` when not reported)."""

    state: Any
    events: tuple[Event, ...] | None
    id: str | None = None


def check_known(path: str, data: dict[str, Any], known: tuple[str, ...] | set[str], what: str) -> None:
    """Raise naming the first key of ``data`` not in ``known``."""
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown {what} field (known: {', '.join(sorted(known) if isinstance(known, set) else known)})")


def decode_id(path: str, data: dict[str, Any]) -> str | None:
    """The optional ``id`` a scenario carries and its observation echoes."""
    sid = data.get("id")
    if sid is not None:
        check_value(f"{path}.id", sid, "string")
    return sid


def decode_events(path: str, data: dict[str, Any], needed: bool) -> tuple[Event, ...] | None:
    """An observation's ``events`` (required when ``needed``; else read only when present)."""
    if not (needed or "events" in data):
        return None
    raw = require_list(f"{path}.events", require(path, data, "events"))
    events = [_plain_event(e) for e in raw]
    if all(events):  # an Event is always true; a None is a dict the quick test did not take
        return tuple(events)  # type: ignore[arg-type]
    return tuple(event_from_json(f"{path}.events[{i}]", e) for i, e in enumerate(raw))


def observation_envelope(sid: str | None, body: dict[str, Any], events: tuple[Event, ...] | list[Event]) -> dict[str, Any]:
    """An encoded observation: the protocol, the id, the rulebook's state fields, the events."""
    out: dict[str, Any] = {"protocol": PROTOCOL}
    if sid is not None:
        out["id"] = sid
    out.update(body)
    out["events"] = [event_to_json(e) for e in events]
    return out
