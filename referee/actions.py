"""The action kinds a scenario may contain: a registry, so new chapters plug in.

Each kind maps its JSON form to the model: the fields it carries (which give its JSON
Schema and its decoder), the model function that runs it, and the Hypothesis draw
function for it against a board. The harness core (protocol, engines, comparison, check,
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
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board

from .protocol import ProtocolError, check_value, require_list, require_object

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
    #: ``draw(draw, units) -> dict``: draws one action against a board (unit dicts) inside a
    #: Hypothesis ``composite`` (a function, not a strategy: building strategies per draw is slow).
    draw: Callable[[Any, list[dict[str, Any]]], dict[str, Any]]
    #: Unit fields the kind reads or writes, so strategies can leave the others at default.
    unit_fields: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    #: The rulebook whose scenarios carry it: ``combat`` (a board of units) or ``play`` (a
    #: play state, :mod:`referee.play`). A scenario's actions all belong to its rulebook.
    rulebook: str = "combat"


def kinds_of(rulebook: str) -> tuple[str, ...]:
    """The registered action kinds of one rulebook, in registration order."""
    return tuple(name for name, kind in ACTION_KINDS.items() if kind.rulebook == rulebook)


def default_kinds() -> tuple[str, ...]:
    """The kinds a check draws when none are chosen: the combat ones (play kinds are chosen by name)."""
    return kinds_of("combat")


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
    if kind.rulebook != "combat":
        raise ProtocolError(f"{path}.kind", f"a {name!r} action belongs to the {kind.rulebook} rulebook "
                            f"(the scenario needs \"rulebook\": \"{kind.rulebook}\")")
    known = {"kind"} | {f.name for f in kind.fields}
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown field for a {name!r} action (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {"kind": name}
    for f in kind.fields:
        where = f"{path}.{f.name}"
        if f.type == "hits" and f.name in data:
            items = require_list(where, data[f.name])
            out[f.name] = [decode_hit(f"{where}[{i}]", item, board) for i, item in enumerate(items)]
        else:
            out[f.name] = _decode_field(where, f, data, board)
    return out


#: The fields of one damage instance inside a composite action (its source is the actor).
HIT_FIELDS: tuple[Field, ...] = ()


def decode_hit(path: str, data: Any, board: Board) -> dict[str, Any]:
    """One damage instance inside a composite action (``bloodletting.hits[i]``)."""
    data = require_object(path, data)
    known = {f.name for f in HIT_FIELDS}
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown field for a hit (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {}
    for f in HIT_FIELDS:
        out[f.name] = _decode_field(f"{path}.{f.name}", f, data, board)
    return out


def _decode_field(where: str, f: Field, data: dict[str, Any], board: Board) -> Any:
    if f.name not in data:
        if f.required:
            raise ProtocolError(where, "missing", kind="missing")
        return list(f.default) if isinstance(f.default, tuple) else f.default
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
    return value


def run_actions(board: Board, actions: tuple[dict[str, Any], ...], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """Run decoded actions through the model, in order; the events of all, in order."""
    log = EventLog()
    for action in actions:
        board, step = ACTION_KINDS[action["kind"]].run(board, action, ruleset)
        log.extend(step)
    return board, log


def _field_schema(f: Field) -> dict[str, Any]:
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
    return prop


def _hit_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {f.name: _field_schema(f) for f in HIT_FIELDS},
        "required": [f.name for f in HIT_FIELDS if f.required],
        "additionalProperties": False,
    }


def action_schemas() -> list[dict[str, Any]]:
    """One JSON Schema per action kind (the scenario schema's ``oneOf``)."""
    out = []
    for kind in ACTION_KINDS.values():
        if "schema" in kind.extra:
            out.append(kind.extra["schema"]())
            continue
        properties: dict[str, Any] = {"kind": {"const": kind.name}}
        for f in kind.fields:
            if f.type == "hits":
                properties[f.name] = {"type": "array", "items": _hit_schema(), "description": f.description}
            else:
                properties[f.name] = _field_schema(f)
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
    from referee.model.combat import costs

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
            draw=lambda draw, units: _strategies().draw_cost(draw, units),
            unit_fields=(
                "alive", "vitality", "max_vitality", "dormant", "entrapped", "is_tool", "is_hub", "shield",
                "defy_death", "adrenaline", "momentum", "bolster", "deathrattle", "everlasting", "vessels",
                "insurance", "subrogated", "ignore_charges", "armor",
            ),
        )
    )


def _register_armor_debuff() -> None:
    from referee.model.combat import armor

    def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        target = board.unit(action["target"])
        return board.with_unit(armor.apply_armor_debuff(target, action["debuff"], action["amount"])), EventLog()

    register(
        ActionKind(
            name="armor_debuff",
            summary="A debuff landing on one unit (500.2e): Crush and Repossess lower Armor past 0; "
            "Piercing Roar and Crippling Scream leave Armor alone. Emits no event.",
            chapters=("combat:500.2",),
            fields=(
                Field("target", "unit", "uid of the unit debuffed"),
                Field("debuff", armor.ARMOR_SHREDDING_DEBUFFS + armor.NON_ARMOR_DEBUFFS, "which debuff"),
                Field("amount", "integer", "the debuff's amount (a negative one lowers nothing)"),
            ),
            run=run,
            draw=lambda draw, units: _strategies().draw_armor_debuff(draw, units),
            unit_fields=("armor",),
        )
    )


DAMAGE_UNIT_FIELDS = (
    "alive", "vitality", "max_vitality", "dormant", "is_tool", "is_hub", "is_boss", "ignore_charges",
    "armor", "has_cap", "cap", "subrogated", "insurance", "shield", "defy_death", "shield_multiplier",
    "prismbroken", "rune_tick_reduction", "forge_tick_reduction", "adrenaline", "momentum", "bolster",
    "deathrattle", "everlasting", "vessels", "redirect_to", "redirect_cap", "intercept_by", "entrapped",
)
RETALIATION_UNIT_FIELDS = ("thorns", "riposte", "retort", "reflect")


def _register_damage() -> None:
    global HIT_FIELDS
    from referee.model.combat import damage

    kinds = tuple(damage.DAMAGE_KINDS)
    HIT_FIELDS = (
        Field("target", "unit", "uid of the recipient"),
        Field("amount", "integer", "the incoming amount, before any mitigation"),
        Field("damage_kind", kinds, "the lane: " + ", ".join(kinds), "hit"),
        Field("allows_dormant", "boolean", "the source explicitly allows damaging a Dormant unit (500.1-2)", False),
        Field("riposte_rolls", "booleans", "Riposte's 50% rolls, consumed in order, one per damage event and attacker (500.7b)", ()),
    )
    instance_fields = (
        HIT_FIELDS[0],
        HIT_FIELDS[1],
        Field("source", "unit?", "uid of the unit dealing it, or null (no actor behind it: an overtime tick)", None),
        *HIT_FIELDS[2:],
    )

    def instance_of(action: dict[str, Any], source: str | None) -> Any:
        return damage.DamageInstance(
            target=action["target"],
            amount=action["amount"],
            source=source,
            kind=action["damage_kind"],
            allows_dormant=action["allows_dormant"],
            riposte_rolls=tuple(action["riposte_rolls"]),
        )

    def run_damage(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        board, log, _ = damage.resolve_damage(board, instance_of(action, action["source"]), ruleset)
        return board, log

    register(
        ActionKind(
            name="damage",
            summary="One damage instance through the pipeline of 500.1 alone, with nothing answering it.",
            chapters=("combat:500.1", "combat:500.2", "combat:500.4", "combat:500.5"),
            fields=instance_fields,
            run=run_damage,
            draw=lambda draw, units: _strategies().draw_damage_action(draw, units, kinds, "damage"),
            unit_fields=DAMAGE_UNIT_FIELDS,
        )
    )
    try:
        from referee.model.combat import retaliation
    except ImportError:
        return

    def run_hit(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        return retaliation.resolve_hit(board, instance_of(action, action["source"]), ruleset)

    register(
        ActionKind(
            name="hit",
            summary="One damage instance through 500.1, then what answers it: Thorns, Riposte, Retort, Reflect (500.6, 500.7).",
            chapters=("combat:500.1", "combat:500.6", "combat:500.7"),
            fields=instance_fields,
            run=run_hit,
            draw=lambda draw, units: _strategies().draw_damage_action(draw, units, kinds, "hit"),
            unit_fields=DAMAGE_UNIT_FIELDS + RETALIATION_UNIT_FIELDS,
        )
    )
    try:
        from referee.model.combat import bloodletting
    except ImportError:
        return

    def run_bloodletting(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        hits = [instance_of(h, action["caster"]) for h in action["hits"]]
        board, log, _ = bloodletting.activate_with_bloodletting(board, action["caster"], action["cost"], hits, ruleset)
        return board, log

    register(
        ActionKind(
            name="bloodletting",
            summary="An activation with a Bloodletting cost (800.4): the cost first, then its hits, each answered as a hit.",
            chapters=("combat:800.4", "combat:500.8"),
            fields=(
                Field("caster", "unit", "uid of the unit activating"),
                Field("cost", "integer", "the printed Bloodletting cost, before the reduction rune (800.4l)"),
                Field("hits", "hits", "the activation's damage instances (source: the caster), resolved after the cost", ()),
            ),
            run=run_bloodletting,
            draw=lambda draw, units: _strategies().draw_bloodletting(draw, units, kinds),
            unit_fields=DAMAGE_UNIT_FIELDS + RETALIATION_UNIT_FIELDS + ("bloodletting_reduction",),
        )
    )


def _register_play() -> None:
    from referee import play

    def draw_play(name: str):
        return lambda draw, state: _strategies().draw_play_action(draw, state, name)

    register(
        ActionKind(
            name="play_card",
            summary=play.PLAY_CARD_SUMMARY,
            chapters=("play:350.1", "play:356.2", "play:357.1", "play:358.2"),
            fields=(),
            run=play.run_play_card,
            draw=draw_play("play_card"),
            extra={"decode": play.decode_play_card, "schema": play.play_card_schema},
            rulebook="play",
        )
    )
    register(
        ActionKind(
            name="activate",
            summary=play.ACTIVATE_SUMMARY,
            chapters=("play:399", "play:403.1.a", "play:358.2"),
            fields=(),
            run=play.run_activate,
            draw=draw_play("activate"),
            extra={"decode": play.decode_activate, "schema": play.activate_schema},
            rulebook="play",
        )
    )


def _load() -> None:
    for registrar in (_register_damage, _register_cost, _register_armor_debuff, _register_play):
        try:
            registrar()
        except ImportError as error:  # the chapter's model is not written yet
            if not (error.name or "").startswith("referee.model"):
                raise


_load()
