"""The damage actions: ``damage`` (500.1 alone), ``hit`` (500.1 then what answers it, 500.6-7)
and ``bloodletting`` (an activation with a Bloodletting cost, 800.4)."""

from __future__ import annotations

from typing import Any

from referee.model.combat import bloodletting, damage, retaliation
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog

from ....rulebook import ActionKind, Field
from ..strategies import draw_bloodletting, draw_damage_action
from ..templates import bloodletting_templates, damage_templates

LANES = tuple(damage.DAMAGE_KINDS)

#: The fields of one damage instance inside a composite action (its source is the actor).
HIT_FIELDS: tuple[Field, ...] = (
    Field("target", "unit", "uid of the recipient"),
    Field("amount", "integer", "the incoming amount, before any mitigation"),
    Field("damage_kind", LANES, "the lane: " + ", ".join(LANES), "hit"),
    Field("allows_dormant", "boolean", "the source explicitly allows damaging a Dormant unit (500.1-2)", False),
    Field("riposte_rolls", "booleans", "Riposte's 50% rolls, consumed in order, one per damage event and attacker (500.7b)", ()),
)
#: An activation's hit: its actor is the caster (800.4a), so never an overtime tick, which has none (500.1c).
ACTIVATION_LANES = tuple(lane for lane in LANES if lane != "overtime")
ACTIVATION_HIT_FIELDS = tuple(
    Field(f.name, ACTIVATION_LANES, "the lane: " + ", ".join(ACTIVATION_LANES) + " (an overtime tick has no caster)",
          f.default) if f.name == "damage_kind" else f for f in HIT_FIELDS)
INSTANCE_FIELDS = (
    *HIT_FIELDS[:2],
    Field("source", "unit?", "uid of the unit dealing it, or null (no actor behind it: an overtime tick)", None),
    *HIT_FIELDS[2:],
)
DAMAGE_UNIT_FIELDS = (
    "alive", "vitality", "max_vitality", "dormant", "is_tool", "is_hub", "is_boss", "ignore_charges",
    "armor", "has_cap", "cap", "subrogated", "insurance", "shield", "defy_death", "shield_multiplier",
    "prismbroken", "rune_tick_reduction", "forge_tick_reduction", "adrenaline", "momentum", "bolster",
    "deathrattle", "everlasting", "vessels", "redirect_to", "redirect_cap", "intercept_by", "entrapped",
)
RETALIATION_UNIT_FIELDS = ("thorns", "riposte", "retort", "reflect")


def instance_of(action: dict[str, Any], source: str | None) -> damage.DamageInstance:
    """The model's damage instance for a decoded action (or hit of a composite action)."""
    return damage.DamageInstance(
        target=action["target"], amount=action["amount"], source=source, kind=action["damage_kind"],
        allows_dormant=action["allows_dormant"], riposte_rolls=tuple(action["riposte_rolls"]),
    )


def run_damage(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: one instance through 500.1, nothing answering it."""
    board, log, _ = damage.resolve_damage(board, instance_of(action, action["source"]), ruleset)
    return board, log


def run_hit(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: one instance through 500.1, then Thorns, Riposte, Retort, Reflect (500.6-7)."""
    return retaliation.resolve_hit(board, instance_of(action, action["source"]), ruleset)


def run_bloodletting(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: the Bloodletting cost first (800.4a), then each hit, answered as a hit."""
    hits = [instance_of(h, action["caster"]) for h in action["hits"]]
    board, log, _ = bloodletting.activate_with_bloodletting(board, action["caster"], action["cost"], hits, ruleset)
    return board, log


def _templates(name: str):
    return lambda: [t for t in damage_templates() if t.name.split("/")[0] == name]


KINDS = (
    ActionKind(
        name="damage",
        summary="One damage instance through the pipeline of 500.1 alone, with nothing answering it.",
        chapters=("combat:500.1", "combat:500.2", "combat:500.4", "combat:500.5"),
        fields=INSTANCE_FIELDS,
        run=run_damage,
        draw=lambda draw, units: draw_damage_action(draw, units, LANES, "damage"),
        unit_fields=DAMAGE_UNIT_FIELDS,
        rulebook="combat",
        extra={"templates": _templates("damage")},
    ),
    ActionKind(
        name="hit",
        summary="One damage instance through 500.1, then what answers it: Thorns, Riposte, Retort, Reflect (500.6, 500.7).",
        chapters=("combat:500.1", "combat:500.6", "combat:500.7"),
        fields=INSTANCE_FIELDS,
        run=run_hit,
        draw=lambda draw, units: draw_damage_action(draw, units, LANES, "hit"),
        unit_fields=DAMAGE_UNIT_FIELDS + RETALIATION_UNIT_FIELDS,
        rulebook="combat",
        extra={"templates": _templates("hit")},
    ),
    ActionKind(
        name="bloodletting",
        summary="An activation with a Bloodletting cost (800.4): the cost first, then its hits, each answered as a hit.",
        chapters=("combat:800.4", "combat:500.8"),
        fields=(
            Field("caster", "unit", "uid of the unit activating"),
            Field("cost", "integer", "the printed Bloodletting cost, before the reduction rune (800.4l)"),
            Field("hits", "objects", "the activation's damage instances (source: the caster), resolved after the cost",
                  (), items=ACTIVATION_HIT_FIELDS),
        ),
        run=run_bloodletting,
        draw=lambda draw, units: draw_bloodletting(draw, units, ACTIVATION_LANES),
        unit_fields=DAMAGE_UNIT_FIELDS + RETALIATION_UNIT_FIELDS + ("bloodletting_reduction", "reliquary", "reliquary_speed",
                                                                      "charge"),
        rulebook="combat",
        extra={"templates": bloodletting_templates},
    ),
)
