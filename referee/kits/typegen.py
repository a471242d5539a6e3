"""The kits' protocol types, generated from ``referee schema`` (TypeScript interfaces, Rust structs with serde).

The schemas use a small part of JSON Schema: objects with properties, ``$ref`` to ``$defs``, string and integer
enums, ``const``, arrays, a nullable type, one ``oneOf`` of actions tagged by their ``kind`` const and one
``oneOf`` of the rulebooks' scenarios. This module reads exactly that part into a few named types
(:class:`Struct`, :class:`Enum`, :class:`Tagged`, :class:`Untagged`) and writes them in each language
(:mod:`referee.kits.emit_typescript`, :mod:`referee.kits.emit_rust`); anything else in a schema is an error
here, so a schema change the generator cannot carry fails the drift test instead of a kit's build. Why a
generator of the project's own, not json-schema-to-typescript or typify: docs/architecture.md "Engine kits".

The observation reuses the scenario's ``Unit`` and ``PlayState``: every field of a unit is reported back, so the
type an engine reads a unit into is the type it writes one from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: The ``$defs`` of both schemas, by the name of their type.
DEF_NAMES = {"combat_scenario": "CombatScenario", "unit": "Unit", "ruleset": "Ruleset", "action": "Action",
             "play_scenario": "PlayScenario", "play_state": "PlayState", "play_action": "PlayAction",
             "event": "Event", "unsupported": "Refusal"}
NO_DEFAULT = object()
#: Keys too general to name an enum alone (``name``: an event's; ``kind``: an object's): their owner names it too.
GENERIC_KEYS = frozenset({"name", "kind"})


@dataclass(frozen=True)
class Ref:
    """A field's type: ``int``, ``bool``, ``str``, ``int_or_str``, ``json`` (any value), ``const`` (``value``),
    ``list`` (``item``), or ``named`` (``name``, a type of the module)."""

    kind: str
    name: str = ""
    value: Any = None
    item: Ref | None = None


@dataclass
class Field:
    name: str
    type: Ref
    required: bool
    nullable: bool = False
    default: Any = NO_DEFAULT
    description: str = ""


@dataclass
class Struct:
    name: str
    fields: list[Field]
    description: str = ""


@dataclass
class Enum:
    """A string enum (or a string const: one value)."""

    name: str
    values: list[str]
    description: str = ""


@dataclass
class Tagged:
    """A union tagged by one field (``tag``: an action's ``kind``, a payment step's ``step``): ``(tag value,
    variant struct)`` pairs; a variant's struct does not hold the tag."""

    name: str
    variants: list[tuple[str, str]]
    description: str = ""
    tag: str = "kind"


@dataclass
class Untagged:
    """A union told apart by its variants' shapes (the scenario: a play scenario says ``"rulebook": "play"``)."""

    name: str
    variants: list[str]
    description: str = ""


@dataclass
class Module:
    """Every named type, in the order first met (a type before the types it names is fine in both languages)."""

    types: dict[str, Any] = field(default_factory=dict)

    def add(self, item: Any) -> str:
        known = self.types.get(item.name)
        if known is not None and known != item:
            raise ValueError(f"two different types are both named {item.name}")
        self.types[item.name] = item
        return item.name


def camel(text: str) -> str:
    """``play_card`` -> ``PlayCard``, ``referee/2`` -> ``Referee2``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


class Reader:
    """Reads the schemas' subset into a :class:`Module`."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.module = Module()

    def named(self, def_name: str) -> Ref:
        """The type of ``$defs/<def_name>``, read once."""
        name = DEF_NAMES[def_name]
        if name not in self.module.types:
            self.read_def(name, self.defs[def_name])
        return Ref("named", name)

    def read_def(self, name: str, schema: dict[str, Any]) -> None:
        if "oneOf" in schema:
            self.read_tagged(name, schema)
        else:
            self.read_struct(name, schema)

    def read_struct(self, name: str, schema: dict[str, Any], skip: tuple[str, ...] = ()) -> Ref:
        """An object with properties: a struct of its fields (``skip``: a tag the union carries)."""
        if schema.get("type") != "object" or "properties" not in schema:
            raise ValueError(f"{name}: expected an object with properties, got {sorted(schema)}")
        required = set(schema.get("required", ()))
        fields = [self.read_field(name, key, value, key in required)
                  for key, value in schema["properties"].items() if key not in skip]
        return Ref("named", self.module.add(Struct(name, fields, schema.get("description", ""))))

    def read_field(self, owner: str, key: str, schema: dict[str, Any], required: bool) -> Field:
        kinds = schema.get("type")
        nullable = isinstance(kinds, list) and "null" in kinds
        if None in schema.get("enum", ()):  # an enum of words or null: a nullable enum of the words
            nullable, schema = True, {**schema, "enum": [v for v in schema["enum"] if v is not None]}
        if isinstance(kinds, list):
            rest = [k for k in kinds if k != "null"]
            schema = {**schema, "type": rest[0] if len(rest) == 1 else rest}
        default = schema.get("default", NO_DEFAULT)
        return Field(key, self.read_type(owner, key, schema), required, nullable, default,
                     schema.get("description", ""))

    def read_type(self, owner: str, key: str, schema: dict[str, Any]) -> Ref:
        """A property's type; ``owner`` and ``key`` name the types it makes (an inline object, an enum)."""
        if "$ref" in schema:
            return self.named(schema["$ref"].rsplit("/", 1)[-1])
        if "const" in schema:
            return Ref("const", value=schema["const"])
        if "enum" in schema:
            return self.read_enum(owner, key, schema)
        if "oneOf" in schema:
            name = owner + camel(key)
            self.read_tagged(name, schema, suffix=camel(key))
            return Ref("named", name)
        kind = schema.get("type")
        if kind == ["integer", "string"]:
            return Ref("int_or_str")  # an ability line's amount: a number, or a "{variable}" the line counts
        if kind == "array":
            return Ref("list", item=self.read_type(owner, singular(key), schema.get("items", {})))
        if kind == "object":
            if "properties" not in schema:
                return Ref("json")
            return self.read_struct(owner + camel(key), schema)
        simple = {"integer": "int", "boolean": "bool", "string": "str"}.get(kind) if isinstance(kind, str) else None
        if simple is None:
            raise ValueError(f"{owner}.{key}: a schema the generator does not read: {sorted(schema)}")
        return Ref(simple)

    def read_enum(self, owner: str, key: str, schema: dict[str, Any]) -> Ref:
        """Integer enums are integers; a string enum is a type named for its key (its owner's name too, when two
        different enums share a key)."""
        values = schema["enum"]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return Ref("int")
        short = camel(key) if key not in GENERIC_KEYS else owner + camel(key)
        item = Enum(short, list(values), schema.get("description", ""))
        known = self.module.types.get(item.name)
        if known is not None and known.values != item.values:
            item = Enum(owner + camel(key), list(values), item.description)
        return Ref("named", self.module.add(item))

    def read_tagged(self, name: str, schema: dict[str, Any], suffix: str = "Action") -> None:
        """A ``oneOf`` of objects told apart by one const property (an action's ``kind``, a step's ``step``): each
        branch a struct ``<Value><suffix>``."""
        branches = schema["oneOf"]
        tag = tag_field(name, branches)
        variants = []
        for branch in branches:
            value = branch["properties"][tag]["const"]
            self.read_struct(camel(value) + suffix, branch, skip=(tag,))
            variants.append((value, camel(value) + suffix))
        self.module.add(Tagged(name, variants, schema.get("description", ""), tag))


def tag_field(name: str, branches: list[dict[str, Any]]) -> str:
    """The property every branch of a ``oneOf`` fixes to a const (the first such)."""
    first = branches[0].get("properties", {})
    for key in first:
        if all("const" in branch.get("properties", {}).get(key, {}) for branch in branches):
            return key
    raise ValueError(f"{name}: a oneOf whose branches no const property tells apart")


def singular(key: str) -> str:
    """The name of one item of a list property: ``objects`` -> ``object``, ``hits`` -> ``hit``."""
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def read_protocol(scenario: dict[str, Any], observation: dict[str, Any]) -> Module:
    """Both schemas as one module: the scenario union, every type it names, the observation, the refusal and the
    answer (an observation or a refusal)."""
    reader = Reader({**observation["$defs"], **scenario["$defs"]})
    branches = [item["$ref"].rsplit("/", 1)[-1] for item in scenario["oneOf"]]
    names = [reader.named(branch).name for branch in branches]
    by_tag = sorted(names, key=lambda n: not _requires_rulebook(reader.module.types[n]))
    reader.module.add(Untagged("Scenario", by_tag, scenario.get("description", "")))
    top = observation["properties"]
    fields = [reader.read_field("Observation", key, value, key == "protocol")
              for key, value in top.items() if key != "unsupported"]
    reader.module.add(Struct("Observation", fields, observation.get("description", "")))
    refusal = reader.named("unsupported")
    reader.module.add(Struct("Unsupported", [
        Field("protocol", Ref("const", value=top["protocol"]["const"]), True),
        Field("id", Ref("str"), False, description="the scenario's id, echoed"),
        Field("unsupported", refusal, True, description="the action kind refused, and why")],
        "An engine's refusal of a scenario holding an action kind it does not implement (docs/protocol.md)."))
    reader.module.add(Untagged("Answer", ["Observation", "Unsupported"], "What an engine sends back."))
    return reader.module


def _requires_rulebook(struct: Struct) -> bool:
    return any(f.name == "rulebook" and f.required for f in struct.fields)


def protocol_module() -> Module:
    """The module of this referee's schemas."""
    from ..protocol import observation_schema, scenario_schema

    return read_protocol(scenario_schema(), observation_schema())
