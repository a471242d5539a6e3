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
from functools import cache
from typing import Any

from .codec import UNIT_DEFAULTS

V2 = "referee/2"


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
    #: The events it owns: a name, or ``name:detail`` for the events of that detail word only. Under a profile
    #: that leaves the feature out they are neither required from the engine nor compared (nor are its fields).
    events: tuple[str, ...] = ()
    #: Whether ``--swarm`` draws it on or off per scenario. The features made of fields that were drawn for every
    #: scenario before they were features (referee/2) are not swarmed: their fields stay drawn as they were, so
    #: the seeded stream and the kill figures measured on it (docs/performance.md) are unchanged.
    swarmed: bool = True
    #: The protocol version that split it out: a ``features`` list written before that version leaves it out
    #: without meaning to (``referee.check.config.upgrade_warnings``; 63edf4a made these 13 of referee/1's
    #: always-compared fields and events features of their own).
    since: str = "referee/1"

    @property
    def drawn(self) -> bool:
        """Whether ``--swarm`` draws it on or off: a scenario can carry it (a field, a lane or something else)."""
        return self.swarmed and bool(self.fields or self.lanes or self.carried)


#: What no profile leaves out: the damage pipeline's own fields and events (500.1-13, 500.4a, 500.6c).
CORE = Feature("core", "the damage pipeline itself: a unit's place, life and Vitality, the damage taken, a death",
               ("combat:500.1-13", "combat:500.4a", "combat:500.6c"),
               ("uid", "side", "row", "col", "alive", "vitality", "max_vitality"),
               events=("damage_taken", "vitality_lost", "death"))


FEATURES: dict[str, Feature] = {f.name: f for f in (
    Feature("redirect", "an ally redirect cap moving part of a hit to the redirector", ("combat:500.1-11", "combat:500.1g"),
            ("redirect_to", "redirect_cap"), events=("redirect",)),
    Feature("lethal_intercept", "a lethal-damage redirect moving a whole hit to the interceptor", ("combat:500.1f",),
            ("intercept_by",), events=("lethal_redirect",)),
    Feature("boss", "boss units (Reflect, Stagger, Phasebreak; a boss pays its own Bloodletting)",
            ("combat:500.6f", "combat:500.6g", "combat:800.4c"), ("is_boss",), events=("stagger", "phasebreak_check")),
    Feature("reflect", "the boss Reflect rune and the reflect damage lane", ("combat:500.7h", "combat:500.7i"),
            ("reflect",), ("reflect",), events=("reflect",)),
    Feature("vessel", "Phylactery Vessels reviving a unit in its cell", ("combat:500.4d", "combat:500.9b"), ("vessels",),
            events=("vessel_revival",)),
    Feature("everlasting", "Everlasting revivals scheduled 10 s on", ("combat:500.4d", "combat:500.9a"), ("everlasting",),
            events=("everlasting_scheduled", "everlasting_revival", "everlasting_delayed", "everlasting_lapsed")),
    Feature("deathrattle", "deathrattles resolving on death", ("combat:500.4b",), ("deathrattle",), events=("deathrattle",)),
    Feature("defy_death", "the once-per-life defy-death rune", ("combat:500.1-12", "combat:500.8f"), ("defy_death",),
            events=("defy_death",)),
    Feature("subrogated_insurance", "Subrogated Insurance points and their payback", ("combat:500.1-8", "combat:500.7g"),
            ("subrogated",), events=("subrogation", "insurance_prevented:subrogated")),
    Feature("insurance", "plain Insurance points", ("combat:500.1-9", "combat:500.1a"), ("insurance",),
            events=("insurance_prevented:plain",)),
    Feature("shield", "a Shield pool absorbing damage", ("combat:500.1-10", "combat:500.1e"), ("shield",),
            events=("shield_damaged", "shield_broken")),
    Feature("shield_multiplier", "a source's Shield damage multiplier", ("combat:500.1-10",), ("shield_multiplier",)),
    Feature("cap", "a post-Armor incoming-damage cap", ("combat:500.1-7",), ("has_cap", "cap")),
    Feature("ignore_charges", "damage-ignore charges", ("combat:500.1-4",), ("ignore_charges",),
            events=("ignore_charge_spent",)),
    Feature("dormant", "Dormant units and sources that may damage them", ("combat:500.1-2", "combat:500.1i"),
            ("dormant",), events=("damage_discarded:dormant",)),
    Feature("entrapped", "Entrapped units", ("combat:500.6e", "combat:500.8e"), ("entrapped",)),
    Feature("tools_hubs", "Tools and Hubs, which discard every combat interaction", ("combat:500.1-1", "combat:800.4d"),
            ("is_tool", "is_hub"), events=("damage_discarded:tool_or_hub",)),
    Feature("armor", "Armor's percentage and flat reductions", ("combat:500.2a", "combat:500.2b"), ("armor",)),
    Feature("negative_armor", "Armor below 0 (amplification)", ("combat:500.2d",), carried="Armor below 0"),
    Feature("riposte", "the Riposte resonance and its 50% rolls", ("combat:500.7b",), ("riposte",), events=("riposte", "riposte_missed")),
    Feature("thorns", "the Thorns rune", ("combat:500.7a", "combat:500.7b"), ("thorns",), events=("thorns",)),
    Feature("retort", "the ability-authored Retort", ("combat:500.7f",), ("retort",), events=("retort",)),
    Feature("prismbreak", "Prismbreak amplifying Burn and Venom ticks", ("combat:500.1h",), ("prismbroken",)),
    Feature("tick_reductions", "rune and Forge Core tick reductions", ("combat:500.1h",),
            ("rune_tick_reduction", "forge_tick_reduction")),
    Feature("vitality_runes", "Adrenaline, Momentum and Bolster resetting on Vitality loss", ("combat:500.6c", "combat:500.8d"),
            ("adrenaline", "momentum", "bolster"), events=("rune_reset", "threshold_reevaluated")),
    Feature("bloodletting_reduction", "the Bloodletting reduction rune", ("combat:800.4l",), ("bloodletting_reduction",)),
    Feature("ticks", "Burn and Venom ticks", ("combat:500.1d", "combat:500.1h"), (), ("burn", "venom"),
            events=("tick_prevented",)),
    Feature("split_damage", "Tremor halves and AoE shares", ("combat:500.2f",), (), ("tremor", "aoe")),
    Feature("overtime", "overtime ticks, with no actor behind them", ("combat:500.1c",), (), ("overtime",)),
    Feature("shared_ticks", "a Burn or Venom tick several units applied, credit and Feast split between them",
            ("combat:500.5b", "combat:500.5c", "combat:500.7e"), carried="a tick action with two or more appliers"),
    Feature("revival_listeners", "revival channels: the revived unit's own line, its allies' listeners, aimed at the killer",
            ("combat:500.9h", "combat:500.9i", "combat:500.9j", "combat:500.9k"),
            ("hears_phylactery_revival", "hears_everlasting_revival", "hears_ally_revival", "revival_aims_killer"),
            events=("revival_self", "revival_ally", "revival_focus")),
    Feature("maim", "Maim points preventing recovery", ("combat:500.3d", "combat:500.3e"), ("maim",), events=("maim_consumed",)),
    Feature("reliquary", "the Reliquary rune's Speed for a revived bearer, cleared by its next activation", ("combat:500.9l",),
            ("reliquary", "reliquary_speed"), events=("reliquary_cleared",)),
    Feature("recovery_bonuses", "the Forge Core recovery bonus and Exalt on a Shield gain", ("combat:500.3b", "combat:500.3f"),
            ("forge_core_recovery", "exalt")),
    Feature("credit", "damage credited to its source and the Feast its Vitality part feeds",
            ("combat:500.5a", "combat:500.5c", "combat:500.6f"), events=("credit", "feast"), since=V2),
    Feature("macabre", "Macabre heard by every other living unit for a death", ("combat:500.4c",), events=("macabre",), since=V2),
    Feature("vessel_batch", "the Vessel Point batch a death or a revival closes", ("combat:500.4e", "combat:500.9m"),
            events=("vessel_batch",), since=V2),
    Feature("charge", "the activation charge: built by the unit, emptied by its activation, its death and a revival",
            ("combat:500.9d", "combat:500.9l"), ("charge",), swarmed=False, since=V2),
    Feature("armor_change", "the net Armor change effects made in this life (a Crush lowers it; a revival undoes it)",
            ("combat:500.2e", "combat:500.9c"), ("armor_change",), swarmed=False, since=V2),
    Feature("revival_bookkeeping", "what a revival reads of the life it ends: a spent defy-death rune, a granted "
            "Everlasting, the incarnation count", ("combat:500.9e", "combat:500.9f", "combat:500.9g"),
            ("defy_death_spent", "everlasting_life_grant", "incarnation"), swarmed=False, since=V2),
    Feature("statuses", "Burn and Venom stacks an ability line applies", ("combat:400.8-6",), ("burn", "venom"), swarmed=False, since=V2),
    Feature("untargetable", "untargetable units, which an ability line's recipient gate refuses", ("combat:400.8-5",),
            ("untargetable",), swarmed=False, since=V2),
    Feature("costs", "the Vitality cost's own channel and refusals (500.8): paid, refused, Interest, self-destruct",
            ("combat:500.8b", "combat:500.8e", "combat:500.8g", "combat:500.8h", "combat:500.6h"),
            events=("cost_paid", "cost_refused", "max_vitality_lowered", "shield_scrapped"), since=V2),
    Feature("bloodletting", "the Bloodletting-paid channel and an activation it aborts or fails",
            ("combat:800.4e", "combat:800.4i"),
            events=("bloodletting_paid", "activation_aborted", "activation_failed"), since=V2),
    Feature("ability_lines", "an ability's lines resolving, failing a condition, refused at a recipient, applying",
            ("combat:400.8-3", "combat:400.8-4", "combat:400.8-5", "combat:400.8-6"),
            events=("line_resolved", "condition_failed", "line_refused", "status_applied", "vitality_restored"), since=V2),
    Feature("cull", "Cull destroying a unit outright", ("combat:500.4a",), events=("culled",), since=V2),
    Feature("recovery", "the recovery ledger's refusals and gains", ("combat:500.3a", "combat:500.3c", "combat:500.3g"),
            events=("recovery_refused", "healed", "shield_gained"), since=V2),
)}


def off_fields(off: frozenset[str]) -> frozenset[str]:
    """The unit fields that stay at their default when the features ``off`` are off."""
    return frozenset(name for f in off for name in FEATURES[f].fields)


def off_events(off: frozenset[str]) -> frozenset[str]:
    """The event keys (``name`` or ``name:detail``) neither required nor compared when the features ``off`` are off."""
    return frozenset(key for f in off for key in FEATURES[f].events)


def owner_of_field(name: str) -> Feature:
    """The feature that owns a unit field (``CORE`` for the pipeline's own)."""
    return next(f for f in (CORE, *FEATURES.values()) if name in f.fields)


def owners_of_event(name: str) -> tuple[Feature, ...]:
    """The features that own an event name (several when each owns some of its detail words)."""
    return tuple(f for f in (CORE, *FEATURES.values()) if any(k.split(":")[0] == name for k in f.events))


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


@cache
def _owners() -> tuple[dict[str, str], dict[str, str], frozenset[tuple[str, Any]]]:
    """Each owned unit field's feature (those with a default), each damage lane's, and the owned fields at their
    defaults as (name, value) pairs (built once: ``--stats`` asks per scenario)."""
    by_field = {name: f.name for f in FEATURES.values() for name in f.fields if name in UNIT_DEFAULTS}
    at_default = frozenset((name, UNIT_DEFAULTS[name]) for name in by_field)
    return by_field, {lane: f.name for f in FEATURES.values() for lane in f.lanes}, at_default


def _unit_features(unit: dict[str, Any], by_field: dict[str, str], at_default: frozenset) -> Any:
    """The features of the fields of a unit away from their defaults."""
    try:
        changed = unit.items() - at_default  # one pass in C; a field's value is a scalar
    except TypeError:  # an unhashable value (a hand-written scenario): field by field
        changed = [(name, value) for name, value in unit.items() if name in by_field and value != UNIT_DEFAULTS[name]]
    return (by_field[name] for name, _ in changed if name in by_field)


def features_used(scenario: dict[str, Any]) -> set[str]:
    """The features a scenario (JSON) uses."""
    used: set[str] = set()
    by_field, by_lane, at_default = _owners()
    for unit in scenario.get("board", []):
        used.update(_unit_features(unit, by_field, at_default))
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


def _without_ticks(action: dict[str, Any], off: frozenset[str], dead: frozenset[str]) -> dict[str, Any]:
    """A ``tick`` action with the tick features ``off`` taken out: one applier, or a plain hit by it.

    A dead applier's Burn still ticks (INT-356), but a dead unit deals no hit (400.8b): its plain hit is
    sourceless, so the scenario stays a legal state (``referee.model.combat.legal``)."""
    if action.get("kind") != "tick" or not {"ticks", "shared_ticks"} & off:
        return action
    first = (action.get("appliers") or [{}])[0]
    if "ticks" in off:
        source = None if first.get("unit") in dead else first.get("unit")
        return {"kind": "hit", "target": action["target"], "amount": action["amount"], "source": source,
                "damage_kind": "hit", "allows_dormant": False, "riposte_rolls": action.get("riposte_rolls", [])}
    return {**action, "appliers": [first]}


def neutralize(scenario: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
    """The scenario with the features ``off`` taken out (in place; still valid)."""
    fields, lanes = off_fields(off), off_lanes(off)
    dead = frozenset(u["uid"] for u in scenario.get("board", []) if not u.get("alive", True))
    for unit in scenario.get("board", []):
        for name in fields & unit.keys():
            unit[name] = UNIT_DEFAULTS[name]
        if "negative_armor" in off and unit.get("armor", 0) < 0:
            unit["armor"] = 0
    for instance in _instances(scenario):
        if instance.get("damage_kind", "hit") in lanes:
            instance["damage_kind"] = "hit"
            if instance.get("source") in dead:  # a dead applier's tick may land (INT-356), its hit may not (400.8b)
                instance["source"] = None
        if "dormant" in off:
            instance["allows_dormant"] = False
    if "actions" in scenario:
        scenario["actions"] = [_without_ticks(a, off, dead) for a in scenario["actions"]]
    return scenario
