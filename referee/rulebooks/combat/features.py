"""The combat rulebook's features: the mechanics an engine may not implement yet.

Each feature names the unit fields and damage lanes that carry it. A scenario *uses* a
feature when one of its units has such a field off its default (or, for negative Armor,
below 0) or one of its damage instances travels such a lane. With a feature off,
generation never draws it: its fields are left out of what the units draw (so they cost
no draws), and :func:`neutralize` puts back at their default whatever an alignment step set
(so a scenario drawn without a feature never uses it; a test holds it). ``--without`` and
``--features`` (``referee check``, ``vectors``, ``query``, the pytest plugin) name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codec import UNIT_DEFAULTS


@dataclass(frozen=True)
class Feature:
    """One mechanic: its name, what it is, its clauses, and where a scenario carries it."""

    name: str
    summary: str
    clauses: tuple[str, ...]
    fields: tuple[str, ...] = ()
    lanes: tuple[str, ...] = ()
    #: Where a scenario carries it when no unit field or lane does.
    carried: str = ""


FEATURES: dict[str, Feature] = {f.name: f for f in (
    Feature("redirect", "an ally redirect cap moving part of a hit to the redirector", ("combat:500.1-11", "combat:500.1g"),
            ("redirect_to", "redirect_cap")),
    Feature("lethal_intercept", "a lethal-damage redirect moving a whole hit to the interceptor", ("combat:500.1f",),
            ("intercept_by",)),
    Feature("boss", "boss units (Reflect, Stagger, Phasebreak; a boss pays its own Bloodletting)",
            ("combat:500.6f", "combat:500.6g", "combat:800.4c"), ("is_boss",)),
    Feature("reflect", "the boss Reflect rune and the reflect damage lane", ("combat:500.7h", "combat:500.7i"),
            ("reflect",), ("reflect",)),
    Feature("vessel", "Phylactery Vessels reviving a unit in its cell", ("combat:500.4d", "combat:500.9b"), ("vessels",)),
    Feature("everlasting", "Everlasting revivals scheduled 10 s on", ("combat:500.4d", "combat:500.9a"), ("everlasting",)),
    Feature("deathrattle", "deathrattles resolving on death", ("combat:500.4b",), ("deathrattle",)),
    Feature("defy_death", "the once-per-life defy-death rune", ("combat:500.1-12", "combat:500.8f"), ("defy_death",)),
    Feature("subrogated_insurance", "Subrogated Insurance points and their payback", ("combat:500.1-8", "combat:500.7g"),
            ("subrogated",)),
    Feature("insurance", "plain Insurance points", ("combat:500.1-9", "combat:500.1a"), ("insurance",)),
    Feature("shield", "a Shield pool absorbing damage", ("combat:500.1-10", "combat:500.1e"), ("shield",)),
    Feature("shield_multiplier", "a source's Shield damage multiplier", ("combat:500.1-10",), ("shield_multiplier",)),
    Feature("cap", "a post-Armor incoming-damage cap", ("combat:500.1-7",), ("has_cap", "cap")),
    Feature("ignore_charges", "damage-ignore charges", ("combat:500.1-4",), ("ignore_charges",)),
    Feature("dormant", "Dormant units and sources that may damage them", ("combat:500.1-2", "combat:500.1i"),
            ("dormant",)),
    Feature("entrapped", "Entrapped units", ("combat:500.6e", "combat:500.8e"), ("entrapped",)),
    Feature("tools_hubs", "Tools and Hubs, which discard every combat interaction", ("combat:500.1-1", "combat:800.4d"),
            ("is_tool", "is_hub")),
    Feature("armor", "Armor's percentage and flat reductions", ("combat:500.2a", "combat:500.2b"), ("armor",)),
    Feature("negative_armor", "Armor below 0 (amplification)", ("combat:500.2d",), carried="Armor below 0"),
    Feature("riposte", "the Riposte resonance and its 50% rolls", ("combat:500.7b",), ("riposte",)),
    Feature("thorns", "the Thorns rune", ("combat:500.7a", "combat:500.7b"), ("thorns",)),
    Feature("retort", "the ability-authored Retort", ("combat:500.7f",), ("retort",)),
    Feature("prismbreak", "Prismbreak amplifying Burn and Venom ticks", ("combat:500.1h",), ("prismbroken",)),
    Feature("tick_reductions", "rune and Forge Core tick reductions", ("combat:500.1h",),
            ("rune_tick_reduction", "forge_tick_reduction")),
    Feature("vitality_runes", "Adrenaline, Momentum and Bolster resetting on Vitality loss", ("combat:500.6c", "combat:500.8d"),
            ("adrenaline", "momentum", "bolster")),
    Feature("bloodletting_reduction", "the Bloodletting reduction rune", ("combat:800.4l",), ("bloodletting_reduction",)),
    Feature("ticks", "Burn and Venom ticks", ("combat:500.1d", "combat:500.1h"), (), ("burn", "venom")),
    Feature("split_damage", "Tremor halves and AoE shares", ("combat:500.2f",), (), ("tremor", "aoe")),
    Feature("overtime", "overtime ticks, with no actor behind them", ("combat:500.1c",), (), ("overtime",)),
    Feature("shared_ticks", "a Burn or Venom tick several units applied, credit and Feast split between them",
            ("combat:500.5b", "combat:500.5c", "combat:500.7e"), carried="a tick action with two or more appliers"),
    Feature("revival_listeners", "revival channels: the revived unit's own line, its allies' listeners, aimed at the killer",
            ("combat:500.9h", "combat:500.9i", "combat:500.9j", "combat:500.9k"),
            ("hears_phylactery_revival", "hears_everlasting_revival", "hears_ally_revival", "revival_aims_killer")),
    Feature("maim", "Maim points preventing recovery", ("combat:500.3d", "combat:500.3e"), ("maim",)),
    Feature("reliquary", "the Reliquary rune's Speed for a revived bearer, cleared by its next activation", ("combat:500.9l",),
            ("reliquary", "reliquary_speed")),
    Feature("recovery_bonuses", "the Forge Core recovery bonus and Exalt on a Shield gain", ("combat:500.3b", "combat:500.3f"),
            ("forge_core_recovery", "exalt")),
)}


def off_fields(off: frozenset[str]) -> frozenset[str]:
    """The unit fields that stay at their default when the features ``off`` are off."""
    return frozenset(name for f in off for name in FEATURES[f].fields)


def off_lanes(off: frozenset[str]) -> frozenset[str]:
    """The damage lanes never drawn when the features ``off`` are off."""
    return frozenset(lane for f in off for lane in FEATURES[f].lanes)


def _instances(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for action in scenario.get("actions", []):
        if "damage_kind" in action and action.get("kind") != "tick":  # a tick's lane is its own (below)
            out.append(action)
        out.extend(action.get("hits", []) or [])
    return out


def features_used(scenario: dict[str, Any]) -> set[str]:
    """The features a scenario (JSON) uses."""
    used: set[str] = set()
    by_field = {name: f.name for f in FEATURES.values() for name in f.fields}
    by_lane = {lane: f.name for f in FEATURES.values() for lane in f.lanes}
    for unit in scenario.get("board", []):
        for name, value in unit.items():
            if name in by_field and value != UNIT_DEFAULTS.get(name, value):
                used.add(by_field[name])
        if isinstance(unit.get("armor"), int) and unit["armor"] < 0:
            used.add("negative_armor")
    for instance in _instances(scenario):
        lane = instance.get("damage_kind", "hit")
        if lane in by_lane:
            used.add(by_lane[lane])
        if instance.get("allows_dormant"):
            used.add("dormant")
    for action in scenario.get("actions", []):
        if action.get("kind") == "tick":
            used.add("ticks")
            if len({a.get("unit") for a in action.get("appliers", [])}) > 1:
                used.add("shared_ticks")
    return used


def _without_ticks(action: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
    """A ``tick`` action with the tick features ``off`` taken out: one applier, or a plain hit by it."""
    if action.get("kind") != "tick" or not {"ticks", "shared_ticks"} & off:
        return action
    first = (action.get("appliers") or [{}])[0]
    if "ticks" in off:
        return {"kind": "hit", "target": action["target"], "amount": action["amount"], "source": first.get("unit"),
                "damage_kind": "hit", "allows_dormant": False, "riposte_rolls": action.get("riposte_rolls", [])}
    return {**action, "appliers": [first]}


def neutralize(scenario: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
    """The scenario with the features ``off`` taken out (in place; still valid)."""
    fields, lanes = off_fields(off), off_lanes(off)
    for unit in scenario.get("board", []):
        for name in fields & unit.keys():
            unit[name] = UNIT_DEFAULTS[name]
        if "negative_armor" in off and unit.get("armor", 0) < 0:
            unit["armor"] = 0
    for instance in _instances(scenario):
        if instance.get("damage_kind", "hit") in lanes:
            instance["damage_kind"] = "hit"
        if "dormant" in off:
            instance["allows_dormant"] = False
    if "actions" in scenario:
        scenario["actions"] = [_without_ticks(a, off) for a in scenario["actions"]]
    return scenario
