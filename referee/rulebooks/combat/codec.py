"""The combat rulebook's wire codec: units, boards, rulesets, scenarios and observations as JSON.

A combat scenario is ``{"protocol", "id"?, "rulebook"?: "combat", "ruleset"?, "board", "actions"}``;
its observation ``{"protocol", "id"?, "board", "events"}``. Unit fields are derived from the
model's :class:`Unit`, so a new field joins the protocol by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from referee.model.combat import ability_text
from referee.model.combat.ability_text import Ability
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import Event

from ...wire import (
    PROTOCOL,
    Observation,
    check_known,
    ProtocolError,
    Scenario,
    TYPE_CHECKS,
    check_value,
    type_error,
    decode_events,
    decode_id,
    observation_envelope,
    require,
    require_list,
    require_object,
    shown,
)

#: The fields that place a unit; always concrete, always present.
PLACEMENT_FIELDS = ("uid", "side", "row", "col")


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
#: ``(field, JSON type, its test)`` for every unit field, in order (decoding checks each field of each unit).
_UNIT_CHECKS = tuple((name, kind, TYPE_CHECKS[kind]) for name, kind in UNIT_FIELDS.items())
_INTEGER_FIELDS = tuple(name for name, kind in UNIT_FIELDS.items() if kind == "integer")
_BOOLEAN_FIELDS = tuple(name for name, kind in UNIT_FIELDS.items() if kind == "boolean")
_REFERENCE_FIELDS = tuple(name for name, kind in UNIT_FIELDS.items() if kind == "uid?")
assert len(_INTEGER_FIELDS) + len(_BOOLEAN_FIELDS) + len(_REFERENCE_FIELDS) + 1 == len(UNIT_FIELDS)
#: The unit fields in the model's order (the order the harness and ``unit_to_json`` write them in).
_UNIT_NAMES = tuple(UNIT_FIELDS)
#: The sequences of value types, field by field in :data:`_UNIT_NAMES` order, that a complete unit was found
#: well typed with (``_is_complete_and_well_typed``): a unit whose keys are in that order and whose types are
#: one of them is well typed without a test per field (two C-level tuples and a few tuple comparisons). Exact
#: types, so ``True`` never passes for an integer; a handful of entries (a ``uid?`` field is ``str`` or
#: ``NoneType``), so a list: ``in`` compares element by element, cheaper than hashing 55 types for a set.
_WELL_TYPED: list[tuple[type, ...]] = []
_new = object.__new__


def _quick_unit(data: Any) -> Unit | None:
    """The unit of the harness's case (every field, in the model's order, each of a type found well typed,
    ``side`` 0 or 1), else None: then :func:`unit_from_json` decides and names the field. No path is built.

    It is ``Unit.of(data)`` without ``Unit.of``'s unknown-field test and defaults, both idle here: the keys
    are exactly the model's fields (``tuple(data) == _UNIT_NAMES``, which is ``fields(Unit)``), so no key is
    unknown and no default survives. ``Unit.of`` lays the defaults out first (every field but ``uid``) and
    then the values, which leaves ``uid`` last: moving ``uid`` to the end gives the same dict, in the same
    order (``tests/harness/test_harness_fast_paths.py`` holds it).
    """
    if (type(data) is dict and tuple(data) == _UNIT_NAMES and tuple(map(type, data.values())) in _WELL_TYPED
            and data["side"] in (0, 1)):
        unit = _new(Unit)
        state = unit.__dict__
        state.update(data)
        state["uid"] = state.pop("uid")
        return unit
    return None




@dataclass(frozen=True)
class CombatScenario(Scenario):
    """A decoded combat scenario: ``board`` is its state, ``ruleset`` its readings."""

    @property
    def board(self) -> Board:
        return self.state

    @property
    def ruleset(self) -> Ruleset:
        return self.rules


@dataclass(frozen=True)
class CombatObservation(Observation):
    """A decoded combat observation: ``board`` is the final state."""

    @property
    def board(self) -> Board:
        return self.state


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
    unit = _quick_unit(data)
    if unit is not None:
        return unit  # the harness's case: every field in order, each of its type
    data = require_object(path, data)
    if len(data) == len(UNIT_FIELDS) and _is_complete_and_well_typed(data):
        if tuple(data) == _UNIT_NAMES and len(_WELL_TYPED) < 16:
            types = tuple(map(type, data.values()))
            if types not in _WELL_TYPED:
                _WELL_TYPED.append(types)  # this order of these types is well typed
        return _checked_side(path, Unit.of(data))  # every field, each of its type
    values: dict[str, Any] = {}
    for name, kind, ok in _UNIT_CHECKS:
        if name not in data:
            if name == "uid" or (complete and (only is None or name in only or name in PLACEMENT_FIELDS)):
                raise ProtocolError(f"{path}.{name}", "missing", kind="missing")
            continue
        value = data[name]
        if not ok(value):  # the path is built only for the error: this loop runs for every field of every unit
            raise type_error(f"{path}.{name}", value, kind)
        values[name] = value
    unknown = [key for key in data if key not in UNIT_FIELDS]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown unit field (known: {', '.join(UNIT_FIELDS)})")
    return _checked_side(path, Unit.of(values))


def _is_complete_and_well_typed(data: dict[str, Any]) -> bool:
    """Every unit field present, each of its JSON type (the quick test; the field loop names a failure)."""
    try:
        return (all(type(data[n]) is int for n in _INTEGER_FIELDS) and all(type(data[n]) is bool for n in _BOOLEAN_FIELDS)
                and all((v := data[n]) is None or type(v) is str for n in _REFERENCE_FIELDS) and type(data["uid"]) is str)
    except KeyError:
        return False


def _checked_side(path: str, unit: Unit) -> Unit:
    if unit.side not in (0, 1):
        raise ProtocolError(f"{path}.side", f"expected 0 or 1, got {unit.side}")
    return unit


def board_from_json(path: str, data: Any, *, complete: bool = False, only: tuple[str, ...] | None = None) -> Board:
    units = []
    for i, item in enumerate(require_list(path, data)):
        unit = _quick_unit(item)  # the path of a unit is built only when the quick test does not take it
        units.append(unit if unit is not None else unit_from_json(f"{path}[{i}]", item, complete=complete, only=only))
    seen: dict[str, int] = {}
    cells: dict[tuple[int, int, int], int] = {}
    for i, unit in enumerate(units):
        if unit.uid in seen:
            raise ProtocolError(f"{path}[{i}].uid", f"duplicate uid {unit.uid!r} (also at [{seen[unit.uid]}])")
        seen[unit.uid] = i
        if not unit.alive:
            continue  # a dead unit holds no slot (500.9a, INT-403)
        cell = (unit.side, unit.row, unit.col)  # unit.position
        if cell in cells:
            raise ProtocolError(f"{path}[{i}]", f"cell {list(cell)} already holds {path}[{cells[cell]}]")
        cells[cell] = i
    for i, unit in enumerate(units):
        redirect, intercept = unit.redirect_to, unit.intercept_by
        if (redirect is None or redirect in seen) and (intercept is None or intercept in seen):
            continue  # the quick test; the loop below names the link
        for ref in ("redirect_to", "intercept_by"):
            target = getattr(unit, ref)
            if target is not None and target not in seen:
                raise ProtocolError(f"{path}[{i}].{ref}", f"no unit with uid {target!r} on the board")
    return _board(tuple(units))


def _board(units: tuple[Unit, ...]) -> Board:
    """``Board(units)`` without ``Board.__post_init__``'s checks, which :func:`board_from_json` has just made
    itself, naming the field: distinct uids, and distinct cells for the living units (``alive`` is a bool on
    every decoded unit, so ``not alive`` is the model's ``alive is False``). Built as ``Board.with_unit`` builds."""
    board = _new(Board)
    object.__setattr__(board, "units", units)
    return board


def board_to_json(board: Board) -> list[dict[str, Any]]:
    return [unit_to_json(u) for u in board.units]


_RULESETS: dict[tuple[Any, ...], Ruleset] = {}
#: Value types that are never a dict or a list (nor a subclass of one): no reading needs the nested-value test.
_READING_TYPES = frozenset({str, bool, int, float, type(None)})


def ruleset_from_json(path: str, data: Any) -> Ruleset:
    data = require_object(path, data)
    types = tuple(map(type, data.values()))
    if not _READING_TYPES.issuperset(types):
        for name, value in data.items():  # a nested value would reach the model's repr in its error
            if isinstance(value, (dict, list)):
                raise ProtocolError(f"{path}.{name}", f"expected a reading's name, got {shown(value)}")
    key: Any = (tuple(data), tuple(data.values()), types)  # every name, value and type (True is not 1)
    try:
        cached = _RULESETS.get(key)
    except TypeError:  # an unhashable value: decoded (and refused) the long way
        cached = key = None
    if cached is not None:
        return cached  # every scenario of a run carries the same readings: decided once (a Ruleset is frozen)
    try:
        ruleset = Ruleset.from_json(data)
    except (ValueError, TypeError) as error:
        message = str(error).removeprefix("ruleset").lstrip(".: ")
        raise ProtocolError(path, message) from None
    if key is not None and len(_RULESETS) < 256:
        _RULESETS[key] = ruleset
    return ruleset



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


def encode_observation(board: Board, events: tuple[Event, ...] | list[Event], sid: str | None = None) -> dict[str, Any]:
    """The observation JSON of a final board and its events."""
    return observation_envelope(sid, {"board": board_to_json(board)}, events)


def decode_observation(
    data: dict[str, Any], path: str = "observation", *, fields_needed: tuple[str, ...] | None = None,
    events_needed: bool = True,
) -> CombatObservation:
    """An engine's combat observation: ``fields_needed`` (None: all) must be on every unit."""
    board = board_from_json(f"{path}.board", require(path, data, "board"), complete=True, only=fields_needed)
    return CombatObservation(board, decode_events(path, data, events_needed), id=decode_id(path, data))


# --------------------------------------------------------------------------------------
# Abilities (400.8): the printed lines as data
# --------------------------------------------------------------------------------------

#: The fields of one printed line, in the order ``docs/protocol.md`` lists them.
LINE_FIELDS = ("effect", "amount", "kind", "lane", "to", "per", "condition")
ABILITY_FIELDS = ("name", "numbers", "lines")


def ability_from_json(path: str, data: Any) -> Ability:
    """An :class:`Ability` from ``{"name"?, "numbers", "lines"}``; a ProtocolError names the place.

    A line's ``amount`` is an integer or a card number ``"{name}"`` the ability's
    ``numbers`` define (400.2); every other line field is checked by the model's own
    :func:`~referee.model.combat.ability_text.check_line` (400.8-1).
    """
    data = require_object(path, data)
    check_known(path, data, ABILITY_FIELDS, "ability")
    numbers = require_object(f"{path}.numbers", data.get("numbers", {}))
    for key, value in numbers.items():
        check_value(f"{path}.numbers.{key}", value, "integer")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ProtocolError(f"{path}.name", f"expected a string, got {shown(name)}")
    lines = []
    for i, item in enumerate(require_list(f"{path}.lines", require(path, data, "lines"))):
        where = f"{path}.lines[{i}]"
        item = require_object(where, item)
        check_known(where, item, LINE_FIELDS, "ability line")
        printed = item.get("amount", 0)
        if isinstance(printed, bool) or not isinstance(printed, (int, str)):
            raise ProtocolError(f"{where}.amount", f"expected an integer or a card number such as '{{power}}', got {shown(printed)}")
        try:
            parsed = ability_text.amount(printed)
            if isinstance(printed, str) and parsed.ref is None:
                raise ValueError(f"amount {shown(printed)}: a literal is an integer, a card number is written '{{name}}'")
            if parsed.ref is not None and parsed.ref not in numbers:
                raise ValueError(f"no card number {{{parsed.ref}}} in {path}.numbers")
            lines.append(ability_text.Line(**{**item, "amount": parsed}))
        except (TypeError, ValueError) as error:
            raise ProtocolError(where, str(error).removeprefix("ability line: ")) from None
    if not lines:
        raise ProtocolError(f"{path}.lines", "expected at least one line")
    return Ability(tuple(lines), tuple(numbers.items()), name)


def canonical_ability(path: str, data: Any) -> dict[str, Any]:
    """``ability_to_json(ability_from_json(path, data))``, remembered for a value decoded before.

    Both are pure functions of ``data`` (``path`` only names an error, and only a success is remembered),
    so a value equal to one decoded before, type for type and key order for key order
    (:func:`_exact_key`), has the same canonical form; a fresh copy of it is returned, as the long way
    returns a fresh dict. The harness's abilities repeat (about 19 distinct ones in 295 drawn).
    """
    key = _exact_key(data, 0)
    if key is not None:
        known = _CANONICAL.get(key)
        if known is not None:
            return {"name": known["name"], "numbers": dict(known["numbers"]), "lines": [dict(x) for x in known["lines"]]}
    canonical = ability_to_json(ability_from_json(path, data))
    if key is not None and len(_CANONICAL) < 1024:
        _CANONICAL[key] = {"name": canonical["name"], "numbers": dict(canonical["numbers"]),
                           "lines": [dict(x) for x in canonical["lines"]]}
    return canonical


_CANONICAL: dict[Any, dict[str, Any]] = {}
_SCALARS = frozenset({str, int, bool, type(None)})


def _exact_key(value: Any, depth: int) -> Any:
    """A hashable key of a JSON value telling apart everything its decoding could: the exact type of every
    value and key (``True`` is not ``1``, a tuple is not a list), the order of every object's keys; None (no
    key: decode the long way) for any other type, a float, or nesting deeper than an ability's. A scalar
    is ``(type, value)`` (inside an object ``(key, type, value)``), a container ``(dict|list, items)``
    (inside an object ``(key, that)``): a scalar's tuple is never equal to a container's."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if depth > 3:
        return None
    items: list[Any] = []
    if kind is dict:
        for name, item in value.items():
            if type(name) is not str:
                return None
            inner = type(item)
            if inner in _SCALARS:
                items.append((name, inner, item))
                continue
            inner = _exact_key(item, depth + 1)
            if inner is None:
                return None
            items.append((name, inner))
        return (dict, tuple(items))
    if kind is list:
        for item in value:
            inner = type(item)
            if inner in _SCALARS:
                items.append((inner, item))
                continue
            inner = _exact_key(item, depth + 1)
            if inner is None:
                return None
            items.append(inner)
        return (list, tuple(items))
    return None


def line_to_json(line: ability_text.Line) -> dict[str, Any]:
    """A printed line as JSON, the fields at their default left out."""
    out: dict[str, Any] = {"effect": line.effect, "amount": str(line.amount) if line.amount.ref else line.amount.value}
    defaults = ability_text.Line("damage")
    for name in LINE_FIELDS[2:]:
        if getattr(line, name) != getattr(defaults, name):
            out[name] = getattr(line, name)
    return out


def ability_to_json(ability: Ability) -> dict[str, Any]:
    """The JSON form :func:`ability_from_json` reads."""
    return {"name": ability.name, "numbers": dict(ability.numbers), "lines": [line_to_json(l) for l in ability.lines]}
