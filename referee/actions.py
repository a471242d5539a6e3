"""The action kinds a scenario may contain: a registry, so new chapters plug in.

Each kind maps its JSON form to the model: the fields it carries (which give its JSON
Schema and its decoder), the model function that runs it, and the Hypothesis strategy
that draws it against a board. The harness core (protocol, engines, comparison, check,
vectors) reads only this registry; adding a chapter's action means calling
:func:`register` once, in this module, next to the others.

A kind whose model module is not importable yet is simply not registered, so the
harness runs on whatever chapters the model has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.model.events import EventLog
from referee.model.ruleset import Ruleset
from referee.model.state import Board

from .protocol import ProtocolError, check_value, require_object

#: Field types an action may use: ``unit`` (a uid on the board), ``unit?`` (a uid or
#: null), ``integer``, ``boolean``, ``booleans`` (the explicit chance rolls), or a tuple
#: of allowed strings.
FieldType = str | tuple[str, ...]


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    description: str
    default: Any = ...  # ``...``: required

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
    #: ``run(board, action, ruleset) -> (board, log)``: the model, on a decoded action.
    run: Callable[[Board, dict[str, Any], Ruleset], tuple[Board, EventLog]]
    #: ``strategy(units) -> SearchStrategy[dict]``: actions against a board (unit dicts).
    strategy: Callable[[list[dict[str, Any]]], Any]
    #: Unit fields the kind reads or writes, so strategies can leave the others at default.
    unit_fields: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


ACTION_KINDS: dict[str, ActionKind] = {}


def register(kind: ActionKind) -> ActionKind:
    if kind.name in ACTION_KINDS:
        raise ValueError(f"action kind {kind.name!r} registered twice")
    ACTION_KINDS[kind.name] = kind
    return kind


def decode_action(path: str, data: Any, board: Board) -> dict[str, Any]:
    """Check an action against its kind; return it with every optional field filled in."""
    data = require_object(path, data)
    if "kind" not in data:
        raise ProtocolError(f"{path}.kind", "missing", kind="missing")
    name = data["kind"]
    if name not in ACTION_KINDS:
        raise ProtocolError(f"{path}.kind", f"unknown action kind {name!r} (known: {', '.join(ACTION_KINDS)})")
    kind = ACTION_KINDS[name]
    known = {"kind"} | {f.name for f in kind.fields}
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown field for a {name!r} action (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {"kind": name}
    for f in kind.fields:
        where = f"{path}.{f.name}"
        if f.name not in data:
            if f.required:
                raise ProtocolError(where, "missing", kind="missing")
            out[f.name] = list(f.default) if isinstance(f.default, tuple) else f.default
            continue
        value = data[f.name]
        if isinstance(f.type, tuple):
            if value not in f.type:
                raise ProtocolError(where, f"expected one of {', '.join(f.type)}, got {value!r}")
        elif f.type in ("unit", "unit?"):
            check_value(where, value, "string" if f.type == "unit" else "uid?")
            if value is not None and not board.has(value):
                raise ProtocolError(where, f"no unit with uid {value!r} on the board")
        else:
            check_value(where, value, f.type)
        out[f.name] = value
    return out


def run_actions(board: Board, actions: tuple[dict[str, Any], ...], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """Run decoded actions through the model, in order; the events of all, in order."""
    log = EventLog()
    for action in actions:
        board, step = ACTION_KINDS[action["kind"]].run(board, action, ruleset)
        log.extend(step)
    return board, log


def action_schemas() -> list[dict[str, Any]]:
    """One JSON Schema per action kind (the scenario schema's ``oneOf``)."""
    out = []
    for kind in ACTION_KINDS.values():
        properties: dict[str, Any] = {"kind": {"const": kind.name}}
        for f in kind.fields:
            if isinstance(f.type, tuple):
                prop: dict[str, Any] = {"type": "string", "enum": list(f.type)}
            else:
                prop = {
                    "unit": {"type": "string"},
                    "unit?": {"type": ["string", "null"]},
                    "integer": {"type": "integer"},
                    "boolean": {"type": "boolean"},
                    "booleans": {"type": "array", "items": {"type": "boolean"}},
                }[f.type]
            prop = {**prop, "description": f.description}
            if not f.required:
                prop["default"] = list(f.default) if isinstance(f.default, tuple) else f.default
            properties[f.name] = prop
        out.append(
            {
                "title": kind.name,
                "description": kind.summary,
                "type": "object",
                "properties": properties,
                "required": ["kind", *[f.name for f in kind.fields if f.required]],
                "additionalProperties": False,
            }
        )
    return out


# --------------------------------------------------------------------------------------
# The kinds
# --------------------------------------------------------------------------------------


def _strategies():
    from referee import strategies

    return strategies


def _register_cost() -> None:
    from referee.model import costs

    def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        log = EventLog()
        board, _ = costs.pay_vitality_cost(
            board,
            action["payer"],
            action["amount"],
            action["cost_kind"],
            log,
            beneficiary=action["beneficiary"],
            ruleset=ruleset,
        )
        return board, log

    register(
        ActionKind(
            name="cost",
            summary="A Vitality cost paid by one unit (500.8): Bloodletting, Interest, self-destruct or retaliation.",
            chapters=("combat:500.8", "combat:500.4"),
            fields=(
                Field("payer", "unit", "uid of the unit paying"),
                Field("amount", "integer", "the printed price (ignored by a self-destruct)"),
                Field("cost_kind", tuple(costs.COST_KINDS), "which cost (500.8f: defy-death answers some)"),
                Field("beneficiary", "unit?", "the unit the payment serves; the killer if it kills", None),
            ),
            run=run,
            strategy=lambda units: _strategies().cost_actions(units),
            unit_fields=(
                "alive", "vitality", "max_vitality", "dormant", "entrapped", "is_tool", "is_hub", "shield",
                "defy_death", "adrenaline", "momentum", "bolster", "deathrattle", "everlasting", "vessels",
                "insurance", "subrogated", "ignore_charges", "armor",
            ),
        )
    )


def _register_damage() -> None:
    from referee.model import damage

    kinds = tuple(getattr(damage, "DAMAGE_KINDS", ("hit", "burn", "venom", "tremor", "aoe", "reflect", "overtime")))

    def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        instance = damage.DamageInstance(
            target=action["target"],
            amount=action["amount"],
            source=action["source"],
            kind=action["damage_kind"],
            allows_dormant=action["allows_dormant"],
            riposte_rolls=tuple(action["riposte_rolls"]),
        )
        board, log, _ = damage.resolve_damage(board, instance, ruleset)
        return board, log

    register(
        ActionKind(
            name="damage",
            summary="One damage instance through the pipeline of 500.1 (Armor, cap, Insurance, Shield, redirects, Vitality).",
            chapters=("combat:500.1", "combat:500.2", "combat:500.4", "combat:500.5"),
            fields=(
                Field("target", "unit", "uid of the recipient"),
                Field("amount", "integer", "the incoming amount, before any mitigation"),
                Field("source", "unit?", "uid of the unit dealing it, or null (no actor: e.g. an overtime tick)", None),
                Field("damage_kind", kinds, "the lane: hit, burn, venom, tremor, aoe, reflect, overtime", "hit"),
                Field("allows_dormant", "boolean", "the source explicitly allows damaging a Dormant unit (500.1-2)", False),
                Field("riposte_rolls", "booleans", "Riposte's 50% rolls, in the order the rules make them (500.7b)", ()),
            ),
            run=run,
            strategy=lambda units: _strategies().damage_actions(units, kinds),
            unit_fields=(
                "alive", "vitality", "max_vitality", "dormant", "is_tool", "is_hub", "is_boss", "ignore_charges",
                "armor", "has_cap", "cap", "subrogated", "insurance", "shield", "defy_death", "shield_multiplier",
                "prismbroken", "rune_tick_reduction", "forge_tick_reduction", "adrenaline", "momentum", "bolster",
                "deathrattle", "everlasting", "vessels", "redirect_to", "redirect_cap", "intercept_by",
                "thorns", "riposte", "retort", "reflect", "entrapped",
            ),
        )
    )


def _load() -> None:
    for registrar in (_register_damage, _register_cost):
        try:
            registrar()
        except ImportError as error:  # the chapter's model is not written yet
            if not (error.name or "").startswith("referee.model"):
                raise


_load()
