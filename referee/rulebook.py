"""The one interface between a rulebook and the generic tools.

The generic tools (``check``, the engines, the shrink and comparison drivers, reports,
the vectors runner, the CLI) know a rulebook only through :class:`Rulebook`: they never
name ``combat`` or ``play``. A rulebook is a package ``referee/rulebooks/<name>/`` whose
``__init__`` defines ``RULEBOOK``, an object with the attributes and methods below; the
registry (:mod:`referee.rulebooks`) finds it by walking that folder.

An action kind is declared where its chapter lives, as an :class:`ActionKind`: its JSON
fields (which give its decoder and its JSON Schema), the model function that runs it, the
Hypothesis draw for it, and the unit fields it reads. ``docs/architecture.md`` lists the
files a new kind needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.model.events import Event, EventLog

from .wire import TYPE_CHECKS, Observation, ProtocolError, Scenario, check_value, require_list, require_object, shown

#: Field types an action may use: ``unit`` (an id present in the state), ``unit?`` (an id
#: or null), ``integer``, ``boolean``, ``booleans`` (explicit chance rolls), ``objects``
#: (a list of nested objects with the fields ``items``), or a tuple of allowed strings.
FieldType = str | tuple[str, ...]


@dataclass(frozen=True)
class Field:
    """One JSON field of an action: its type, its meaning, its default (``...``: required)."""

    name: str
    type: FieldType
    description: str
    default: Any = ...
    items: tuple[Field, ...] = ()
    #: An integer field's own range (None: the protocol's, ``referee.wire.INTEGER_LIMIT``), stated in the schema;
    #: the kind's ``decode`` hook refuses a value outside it (:func:`check_field_range`).
    minimum: int | None = None
    maximum: int | None = None

    @property
    def required(self) -> bool:
        return self.default is ...


@dataclass(frozen=True)
class ActionKind:
    """One kind of action: its JSON fields, the model function, and its strategy."""

    name: str
    summary: str
    #: The clause groups it exercises (``combat:500.8``), used to file conformance vectors.
    chapters: tuple[str, ...]
    fields: tuple[Field, ...]
    #: ``run(state, action, rules) -> (state, log)``: the model, on a decoded action.
    run: Callable[[Any, dict[str, Any], Any], tuple[Any, EventLog]]
    #: ``draw(draw, context) -> dict``: draws one action inside a Hypothesis ``composite``
    #: (a function, not a strategy: building strategies per draw is slow).
    draw: Callable[[Any, Any], dict[str, Any]]
    #: Unit fields the kind reads or writes, so strategies can leave the others at default.
    unit_fields: tuple[str, ...] = ()
    #: The rulebook whose scenarios carry it (set by the rulebook that declares it).
    rulebook: str = ""
    #: Optional hooks: ``decode(path, data, state)`` and ``schema()`` for a kind whose JSON
    #: form is richer than flat fields.
    extra: dict[str, Any] = field(default_factory=dict)


class HasIds(Protocol):
    def has(self, uid: str) -> bool: ...


def decode_fields(path: str, kind: ActionKind, data: Any, state: HasIds) -> dict[str, Any]:
    """Check an action against its kind's fields; return it with every optional field filled in."""
    if "decode" in kind.extra:
        return kind.extra["decode"](path, data, state)
    return decode_plain_fields(path, kind, data, state)


def decode_plain_fields(path: str, kind: ActionKind, data: Any, state: HasIds) -> dict[str, Any]:
    """:func:`decode_fields` without the kind's own ``decode`` hook (for a hook that checks more after it)."""
    data = require_object(path, data)
    names, known, _ = _names_of(kind.fields)
    if not known.issuperset(data):  # the quick test: every key a field (the error names the first that is not)
        _check_fields(path, data, ("kind", *names), f"a {kind.name!r} action")
    return {"kind": kind.name, **_decode_object(path, kind.fields, data, state)}


#: Per tuple of fields (by identity; the tuple is held so its id is never reused): the field names, the names
#: an action may carry (``kind`` and the fields) and those a nested object may, as frozensets for a C-level
#: test of every key.
_NAMES: dict[int, tuple[Any, ...]] = {}


def _names_of(fields_: tuple[Field, ...]) -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    entry = _NAMES.get(id(fields_))
    if entry is None or entry[0] is not fields_:
        names = tuple(f.name for f in fields_)
        entry = (fields_, names, frozenset(("kind", *names)), frozenset(names))
        if len(_NAMES) < 512:
            _NAMES[id(fields_)] = entry
    return entry[1], entry[2], entry[3]


def _decode_object(path: str, fields_: tuple[Field, ...], data: dict[str, Any], state: HasIds) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f, name, test, arg in _plan_of(fields_):
        if name in data:
            value = data[name]
            # the quick test: whether decode_field takes the value as it is (False also for a field it rebuilds)
            if test is _TYPED:
                accepted = arg(value)
            elif test is _WORD:
                accepted = value in arg
            elif test is _UID:
                accepted = type(value) is str and state.has(value)
            elif test is _UID_OR_NULL:
                accepted = value is None or (type(value) is str and state.has(value))
            else:
                accepted = False
            if accepted:
                out[name] = value  # what decode_field returns for it, decided without building its path
                continue
        out[name] = decode_field(f"{path}.{name}", f, data, state)  # a default, a nested list, or the error
    return out


#: The quick tests :func:`_decode_object` makes inline (no call per field): the value is of the field's JSON
#: type (``TYPE_CHECKS``), one of its words, a uid on the board, that or null; never (``objects``: its items
#: are decoded one by one by decode_field).
_TYPED, _WORD, _UID, _UID_OR_NULL, _NEVER = (object() for _ in range(5))


def _quick_test(f: Field) -> tuple[object, Any]:
    """One field's quick test and its argument (the type test, the words)."""
    kind = f.type
    if type(kind) is tuple:
        return _WORD, kind
    if kind == "unit":
        return _UID, None
    if kind == "unit?":
        return _UID_OR_NULL, None
    test = TYPE_CHECKS.get(kind)
    return (_NEVER, None) if test is None else (_TYPED, test)


#: Per tuple of fields (by identity; the tuple is held so its id is never reused): each field, its name, its
#: quick test and the test's argument.
_PLANS: dict[int, tuple[Any, ...]] = {}


def _plan_of(fields_: tuple[Field, ...]) -> tuple[tuple[Field, str, object, Any], ...]:
    entry = _PLANS.get(id(fields_))
    if entry is None or entry[0] is not fields_:
        entry = (fields_, tuple((f, f.name, *_quick_test(f)) for f in fields_))
        if len(_PLANS) < 512:
            _PLANS[id(fields_)] = entry
    return entry[1]


def decode_field(where: str, f: Field, data: dict[str, Any], state: HasIds) -> Any:
    """One field's value (its default when absent), checked against its type."""
    if f.name not in data:
        if f.required:
            raise ProtocolError(where, "missing", kind="missing")
        return list(f.default) if isinstance(f.default, tuple) else f.default
    value = data[f.name]
    if isinstance(f.type, tuple):
        if value not in f.type:
            raise ProtocolError(where, f"expected one of {', '.join(f.type)}, got {shown(value)}")
    elif f.type == "objects":
        return [_nested(f"{where}[{i}]", f, item, state) for i, item in enumerate(require_list(where, value))]
    elif f.type in ("unit", "unit?"):
        check_value(where, value, "string" if f.type == "unit" else "uid?")
        if value is not None and not state.has(value):
            raise ProtocolError(where, f"no unit with uid {shown(value)} on the board")
    else:
        check_value(where, value, f.type)
    return value


def check_field_range(where: str, f: Field, value: int) -> None:
    """Raise naming ``where`` if ``value`` is outside ``f``'s own range (``minimum``, ``maximum``)."""
    if f.minimum is not None and value < f.minimum or f.maximum is not None and value > f.maximum:
        if f.maximum is None:
            raise ProtocolError(where, f"must be >= {f.minimum} (got {value})")
        if f.minimum is None:
            raise ProtocolError(where, f"must be <= {f.maximum} (got {value})")
        raise ProtocolError(where, f"must be between {f.minimum} and {f.maximum} (got {value})")


def _nested(path: str, f: Field, item: Any, state: HasIds) -> dict[str, Any]:
    item = require_object(path, item)
    names, _, known = _names_of(f.items)
    if not known.issuperset(item):  # the quick test: every key a field (the error names the first that is not)
        _check_fields(path, item, names, f"a {f.name.removesuffix('s')}")
    return _decode_object(path, f.items, item, state)


def _check_fields(path: str, data: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown field for {what} (known: {', '.join(sorted(known))})")


_FIELD_SCHEMAS = {
    "unit": {"type": "string"},
    "unit?": {"type": ["string", "null"]},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "booleans": {"type": "array", "items": {"type": "boolean"}},
}


def field_schema(f: Field) -> dict[str, Any]:
    """The JSON Schema of one action field."""
    if isinstance(f.type, tuple):
        prop: dict[str, Any] = {"type": "string", "enum": list(f.type)}
    elif f.type == "objects":
        prop = {"type": "array", "items": object_schema(f.items)}
    else:
        prop = dict(_FIELD_SCHEMAS[f.type])
    prop["description"] = f.description
    prop.update({bound: value for bound, value in (("minimum", f.minimum), ("maximum", f.maximum)) if value is not None})
    if not f.required and f.type != "objects":
        prop["default"] = list(f.default) if isinstance(f.default, tuple) else f.default
    return prop


def object_schema(fields_: tuple[Field, ...], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**extra, **{f.name: field_schema(f) for f in fields_}},
        "required": [*(["kind"] if "kind" in extra else []), *(f.name for f in fields_ if f.required)],
        "additionalProperties": False,
    }


def action_schema(kind: ActionKind) -> dict[str, Any]:
    """One action kind's JSON Schema (a ``oneOf`` branch of its rulebook's actions)."""
    if "schema" in kind.extra:
        return kind.extra["schema"]()
    return {"title": kind.name, "description": kind.summary, **object_schema(kind.fields, kind={"const": kind.name})}


@dataclass(frozen=True)
class Divergence:
    """A place the engine and the model disagree."""

    where: str  # "state" or "events"
    path: str  # board.b.shield, events[3], events[3].amount, board.c, state.pool.energy
    model: Any
    engine: Any
    event_index: int | None = None  # index in the model's full event sequence, for the trail
    #: For events whose names differ: "swap" when the engine emitted this event and the next in the other order,
    #: "extra" when the engine's next event is the model's (the engine inserted one), "missing" when the model's
    #: next event is the engine's (the engine left one out), "left_out" when the engine left out several events and
    #: every later event agrees (no event of the engine's comes before its place), "late" when the engine emits this
    #: event later, after events the model emits after it (it took the model's step later), else None. For events
    #: of one name: "left_out" as above, or "alone" when every other compared event agrees (its fields are the only
    #: difference in the events).
    shape: str | None = None

    def describe(self) -> str:
        import json

        return f"{self.path}: model {json.dumps(self.model)}, engine {json.dumps(self.engine)}"

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "path": self.path, "model": self.model, "engine": self.engine}


class Rulebook(Protocol):
    """What a rulebook package provides (``referee/rulebooks/<name>/__init__.py: RULEBOOK``)."""

    #: The rulebook's name, as in clause ids (``combat:500.1-7``) and ``scenario.rulebook``.
    name: str
    #: The rulebook a scenario without a ``rulebook`` field belongs to (exactly one has it).
    is_default: bool
    #: Its action kinds, by name, in the order they are documented and drawn.
    kinds: dict[str, ActionKind]
    #: The fields of its state an engine may be compared on (``--compare fields``).
    state_fields: tuple[str, ...]
    #: The JSON key of its state in a scenario and an observation (``board``, ``state``).
    state_key: str
    #: Its features (mechanics an engine may leave out: ``--without``), by name.
    features: dict[str, Any]

    def rule_options(self) -> tuple[str, ...]:
        """The names of its readings, as ``--ruleset name=value`` takes them."""

    def rules_from_options(self, values: dict[str, Any]) -> Any:
        """Its readings object from ``name=value`` pairs (a ValueError names a bad one)."""

    def rules_to_json(self, rules: Any) -> dict[str, Any]:
        """Its readings as the scenario's rules field spells them out."""

    def decode_scenario(self, data: dict[str, Any], path: str) -> Scenario:
        """Check and decode a scenario of this rulebook; errors name their path."""

    def run(self, scenario: Scenario) -> tuple[Any, tuple[Event, ...]]:
        """The model: the final state and the events of a decoded scenario."""

    def observe(self, scenario: dict[str, Any]) -> tuple[Any, tuple[Event, ...], list[Any]]:
        """The model on a scenario (JSON): final state, events and the clause trail."""

    def observation(self, state: Any, events: tuple[Event, ...], sid: str | None) -> Observation:
        """The decoded observation of a final state and events (the rulebook's own type)."""

    def encode_observation(self, state: Any, events: tuple[Event, ...], sid: str | None) -> dict[str, Any]:
        """The observation JSON the model expects for a final state and events."""

    def decode_observation(
        self, data: dict[str, Any], path: str, *, fields_needed: tuple[str, ...] | None, events_needed: bool
    ) -> Observation:
        """An engine's observation, decoded; errors name their path."""

    def state_divergences(self, model: Observation, engine: Observation, fields: tuple[str, ...]) -> list[Divergence]:
        """Every difference of the final states on ``fields`` (its own state's fields)."""

    def describe_state(self, fields: tuple[str, ...] | None) -> str:
        """How the state comparison reads in a report (``every unit field``)."""

    def compact(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The scenario with what is at its default left out (still valid)."""

    def shrink_candidates(self, scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Simpler versions of a scenario, coarsest first (the shrink driver keeps valid ones)."""

    def is_shrink_valid(self, scenario: dict[str, Any]) -> bool:
        """Whether a decodable candidate is inside the domain the harness draws from."""

    def draw_scenario(self, draw: Any, kinds: tuple[str, ...], max_actions: int, rules: Any,
                      features: frozenset[str] | None = None, swarm: bool = False) -> dict[str, Any]:
        """A complete, valid scenario over some of its kinds, inside a Hypothesis composite.

        ``features`` (None: all of them) are the ones it may use; with ``swarm`` each scenario
        first draws which of those are on (swarm testing), and uses only those.
        """

    def features_used(self, scenario: dict[str, Any]) -> set[str]:
        """The features a scenario (JSON) uses."""

    def scenario_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Its scenario's JSON Schema and the ``$defs`` it refers to."""

    def observation_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Its observation state's JSON Schema property and the ``$defs`` it refers to."""

    def vectors(self, progress: Callable[[str], None] | None, only: str | None,
                profile: Any = None) -> tuple[list[Any], Any]:
        """Its conformance vectors and their branch coverage (``referee vectors export``), searched inside
        ``profile`` (a ``--kinds``/``--features`` selection; None: everything)."""



class PackageRulebook:
    """A :class:`Rulebook` whose methods delegate to its package's modules, one concern a module.

    A rulebook package sets ``rules_class`` (its readings, a dataclass with ``from_json``) and
    the modules ``run_module`` (``decode_scenario``, ``run``, ``observe``), ``codec``
    (``encode_observation``, ``decode_observation``), ``compare`` (``describe_state``) and
    ``shrink`` (``compact``, ``candidates``, ``is_shrink_valid``); it writes only what differs.
    """

    rules_class: Any
    run_module: Any
    codec: Any
    compare: Any
    shrink: Any

    def rule_options(self) -> tuple[str, ...]:
        from dataclasses import fields as dataclass_fields

        return tuple(f.name for f in dataclass_fields(self.rules_class))

    def rules_from_options(self, values: dict[str, Any]) -> Any:
        return self.rules_class.from_json(values)

    def rules_to_json(self, rules: Any) -> dict[str, Any]:
        return {name: getattr(rules, name) for name in self.rule_options()}

    def decode_scenario(self, data: dict[str, Any], path: str = "scenario") -> Scenario:
        return self.run_module.decode_scenario(data, path)

    def run(self, scenario: Scenario) -> tuple[Any, tuple[Event, ...]]:
        return self.run_module.run(scenario)

    def observe(self, scenario: dict[str, Any]) -> tuple[Any, tuple[Event, ...], list[Any]]:
        return self.run_module.observe(scenario)

    def encode_observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> dict[str, Any]:
        return self.codec.encode_observation(state, events, sid)

    def decode_observation(self, data: dict[str, Any], path: str = "observation", *,
                           fields_needed: tuple[str, ...] | None = None, events_needed: bool = True) -> Observation:
        return self.codec.decode_observation(data, path, fields_needed=fields_needed, events_needed=events_needed)

    def describe_state(self, fields_: tuple[str, ...] | None) -> str:
        return self.compare.describe_state(fields_)

    def compact(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return self.shrink.compact(scenario)

    def shrink_candidates(self, scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
        return self.shrink.candidates(scenario)

    def is_shrink_valid(self, scenario: dict[str, Any]) -> bool:
        return self.shrink.is_shrink_valid(scenario)


@dataclass
class Vector:
    """A conformance vector: a scenario and the observation the model expects for it."""

    scenario: dict[str, Any]
    expected: dict[str, Any]
    clauses: list[str]
    branch: str  # the branch key and polarity, "boundary: <name>" or "play case: <name>"
    source: str  # the template, "boundary", or "play-case"
    path: str = ""
    #: The clause it is filed under (``<rulebook>/<kind>/<clause>/``).
    primary: str = ""
    #: A readable suffix of its file name (``0001-armor-exact-third``).
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "expected": self.expected, "clauses": self.clauses,
                "branch": self.branch, "source": self.source}
