"""The play rulebook in the harness: play states, ``play_card`` and ``activate`` actions as JSON.

A scenario with ``"rulebook": "play"`` carries a play ``state`` (the acting player's
pool, the game objects and their zones) and ``play_card`` / ``activate`` actions; the
model runs them with :func:`referee.model.play.process.process_play` and
``process_activate``. The play model keeps no event log, so the outcome of each action is
reported as one event: ``played`` / ``activated`` (``unit``: the card or source) or
``play_cancelled`` / ``activation_cancelled`` (``detail``: the failing check, e.g.
``358.2``). The observation is the final play state plus those events.

Everything here is the play-specific part only: the harness core (the action registry in
:mod:`referee.actions`, the check loop, engines, comparison reports, the shrinking driver)
is shared with the combat rulebook. Field names are the model's own (``pool.energy``,
``pool.power``, ``objects[i].oid``, ``zone``, ``location``, ``exhausted``, ``might_bonus``).
"""

from __future__ import annotations

import copy
from typing import Any

from referee.model.events import Event
from referee.model.play import cost as play_cost
from referee.model.play import process as play_process
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.rules import DEFAULT_PLAY_RULES, PlayRules
from referee.model.play.state import DOMAINS, KINDS, ZONE_NAMES, GameObject, PlayState, Pool

from .protocol import ProtocolError, check_value, require, require_list, require_object

RULEBOOKS = ("combat", "play")
POOL_FIELDS = ("energy", "power")
OBJECT_FIELDS = {
    "oid": "string", "kind": "string", "controller": "integer", "domain": "string",
    "zone": "string", "location": "integer", "exhausted": "boolean", "might_bonus": "integer",
}
OBJECT_DEFAULTS = {"kind": "unit", "controller": 0, "domain": "fury", "zone": "hand", "location": 0,
                   "exhausted": False, "might_bonus": 0}
STATE_FIELDS = ("pool", "objects", "player", "location_count")
STEP_KINDS = ("use_rune", "pay_cost", "pay_resources")
EFFECT_KINDS = play_process.EFFECT_KINDS
NONSTANDARD_KINDS = play_cost.NONSTANDARD_KINDS
DISCOUNT_TARGETS = play_cost.DISCOUNT_TARGETS
OUTCOME_EVENTS = ("played", "play_cancelled", "activated", "activation_cancelled")


def _known(path: str, data: dict[str, Any], known: tuple[str, ...] | dict[str, Any], what: str) -> None:
    unknown = [key for key in data if key not in known]
    if unknown:
        raise ProtocolError(f"{path}.{unknown[0]}", f"unknown {what} field (known: {', '.join(known)})")


def _int(path: str, value: Any, minimum: int | None = None) -> int:
    check_value(path, value, "integer")
    if minimum is not None and value < minimum:
        raise ProtocolError(path, f"expected an integer >= {minimum}, got {value}")
    return value


def _choice(path: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ProtocolError(path, f"expected one of {', '.join(allowed)}, got {value!r}")
    return value


# --------------------------------------------------------------------------------------
# The play state
# --------------------------------------------------------------------------------------


def power_from_json(path: str, data: Any, *, complete: bool = False, minimum: int | None = 0) -> tuple[int, ...]:
    """Power by domain: an object ``{"fury": 1, ...}``; omitted domains are 0 (unless ``complete``)."""
    data = require_object(path, data)
    _known(path, data, DOMAINS, "domain")
    out = []
    for domain in DOMAINS:
        if domain not in data:
            if complete:
                raise ProtocolError(f"{path}.{domain}", "missing", kind="missing")
            out.append(0)
            continue
        out.append(_int(f"{path}.{domain}", data[domain], minimum))
    return tuple(out)


def power_to_json(power: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(DOMAINS, power))


def pool_from_json(path: str, data: Any, *, complete: bool = False) -> Pool:
    data = require_object(path, data)
    _known(path, data, POOL_FIELDS, "pool")
    if complete:
        energy = _int(f"{path}.energy", require(path, data, "energy"))
        power = power_from_json(f"{path}.power", require(path, data, "power"), complete=True, minimum=None)
    else:
        energy = _int(f"{path}.energy", data.get("energy", 0), 0)
        power = power_from_json(f"{path}.power", data.get("power", {}))
    return Pool(energy, power)


def object_from_json(path: str, data: Any, *, complete: bool = False) -> GameObject:
    data = require_object(path, data)
    _known(path, data, OBJECT_FIELDS, "object")
    values: dict[str, Any] = {}
    for name, kind in OBJECT_FIELDS.items():
        if name not in data:
            if complete or name == "oid":
                raise ProtocolError(f"{path}.{name}", "missing", kind="missing")
            values[name] = OBJECT_DEFAULTS[name]
            continue
        values[name] = check_value(f"{path}.{name}", data[name], kind)
    _choice(f"{path}.kind", values["kind"], KINDS)
    _choice(f"{path}.domain", values["domain"], DOMAINS)
    _choice(f"{path}.zone", values["zone"], ZONE_NAMES)
    if values["controller"] not in (0, 1):
        raise ProtocolError(f"{path}.controller", f"expected 0 or 1, got {values['controller']}")
    if values["location"] < 0:
        raise ProtocolError(f"{path}.location", f"expected an integer >= 0, got {values['location']}")
    values["zone"] = ZONE_NAMES.index(values["zone"])
    return GameObject(**values)


def state_from_json(path: str, data: Any, *, complete: bool = False) -> PlayState:
    """A play state; every error names its field path."""
    data = require_object(path, data)
    _known(path, data, STATE_FIELDS, "play state")
    pool = pool_from_json(f"{path}.pool", require(path, data, "pool"), complete=complete)
    raw = require_list(f"{path}.objects", require(path, data, "objects"))
    objects = tuple(object_from_json(f"{path}.objects[{i}]", o, complete=complete) for i, o in enumerate(raw))
    seen: dict[str, int] = {}
    for i, o in enumerate(objects):
        if o.oid in seen:
            raise ProtocolError(f"{path}.objects[{i}].oid", f"duplicate oid {o.oid!r} (also at [{seen[o.oid]}])")
        seen[o.oid] = i
    player = data.get("player", 0)
    if player not in (0, 1) or type(player) is not int:
        raise ProtocolError(f"{path}.player", f"expected 0 or 1, got {player!r}")
    count = _int(f"{path}.location_count", data.get("location_count", 3), 1)
    return PlayState(pool, objects, player, count)


def object_to_json(o: GameObject) -> dict[str, Any]:
    return {
        "oid": o.oid, "kind": o.kind, "controller": o.controller, "domain": o.domain,
        "zone": ZONE_NAMES[o.zone], "location": o.location, "exhausted": o.exhausted, "might_bonus": o.might_bonus,
    }


def state_to_json(state: PlayState) -> dict[str, Any]:
    return {
        "pool": {"energy": state.pool.energy, "power": power_to_json(state.pool.power)},
        "objects": [object_to_json(o) for o in state.objects],
        "player": state.player,
        "location_count": state.location_count,
    }


def rules_from_json(path: str, data: Any) -> PlayRules:
    data = require_object(path, data)
    try:
        return PlayRules.from_json(data)
    except (ValueError, TypeError) as error:
        raise ProtocolError(path, str(error).removeprefix("play rules: ")) from None


# --------------------------------------------------------------------------------------
# Costs, modifiers, plans: decoded to canonical JSON (every field spelled out)
# --------------------------------------------------------------------------------------

RESOURCE_FIELDS = ("energy", "power", "any_power")
COMPONENT_FIELDS = (*RESOURCE_FIELDS, "nonstandard", "optional")
DISCOUNT_FIELDS = ("energy", "power", "either", "applies_to")


def _resources(path: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "energy": _int(f"{path}.energy", data.get("energy", 0), 0),
        "power": power_to_json(power_from_json(f"{path}.power", data.get("power", {}))),
        "any_power": _int(f"{path}.any_power", data.get("any_power", 0), 0),
    }


def resources_from_json(path: str, data: Any) -> dict[str, Any]:
    data = require_object(path, data)
    _known(path, data, RESOURCE_FIELDS, "cost")
    return _resources(path, data)


def component_from_json(path: str, data: Any, *, optional_allowed: bool = True) -> dict[str, Any]:
    data = require_object(path, data)
    _known(path, data, COMPONENT_FIELDS if optional_allowed else COMPONENT_FIELDS[:-1], "cost")
    out = _resources(path, data)
    items = require_list(f"{path}.nonstandard", data.get("nonstandard", []))
    nonstandard = []
    for i, item in enumerate(items):
        where = f"{path}.nonstandard[{i}]"
        item = require_object(where, item)
        _known(where, item, ("kind", "count"), "non-standard cost")
        kind = _choice(f"{where}.kind", require(where, item, "kind"), NONSTANDARD_KINDS)
        nonstandard.append({"kind": kind, "count": _int(f"{where}.count", item.get("count", 1), 1)})
    out["nonstandard"] = nonstandard
    out["optional"] = check_value(f"{path}.optional", data.get("optional", False), "boolean")
    return out


def modifiers_from_json(path: str, data: Any) -> dict[str, Any]:
    data = require_object(path, data)
    _known(path, data, ("increases", "discounts"), "modifiers")
    increases = [resources_from_json(f"{path}.increases[{i}]", x)
                 for i, x in enumerate(require_list(f"{path}.increases", data.get("increases", [])))]
    discounts = []
    for i, x in enumerate(require_list(f"{path}.discounts", data.get("discounts", []))):
        where = f"{path}.discounts[{i}]"
        x = require_object(where, x)
        _known(where, x, DISCOUNT_FIELDS, "discount")
        discounts.append({
            "energy": _int(f"{where}.energy", x.get("energy", 0), 0),
            "power": _int(f"{where}.power", x.get("power", 0), 0),
            "either": check_value(f"{where}.either", x.get("either", False), "boolean"),
            "applies_to": _choice(f"{where}.applies_to", x.get("applies_to", "total"), DISCOUNT_TARGETS),
        })
    return {"increases": increases, "discounts": discounts}


def _oid(path: str, value: Any, state: PlayState) -> str:
    check_value(path, value, "string")
    if not state.has(value):
        raise ProtocolError(path, f"no object with oid {value!r} in the play state")
    return value


def plan_from_json(path: str, data: Any, state: PlayState) -> list[dict[str, Any]]:
    out = []
    for i, step in enumerate(require_list(path, data)):
        where = f"{path}[{i}]"
        step = require_object(where, step)
        kind = _choice(f"{where}.step", require(where, step, "step"), STEP_KINDS)
        if kind == "use_rune":
            _known(where, step, ("step", "rune", "ability"), "use_rune step")
            out.append({"step": kind, "rune": _oid(f"{where}.rune", require(where, step, "rune"), state),
                        "ability": _choice(f"{where}.ability", require(where, step, "ability"), ("exhaust", "recycle"))})
        elif kind == "pay_cost":
            _known(where, step, ("step", "index", "targets"), "pay_cost step")
            targets = require_list(f"{where}.targets", step.get("targets", []))
            out.append({"step": kind, "index": _int(f"{where}.index", require(where, step, "index")),
                        "targets": [_oid(f"{where}.targets[{j}]", t, state) for j, t in enumerate(targets)]})
        else:
            _known(where, step, ("step", "any_power_from"), "pay_resources step")
            order = require_list(f"{where}.any_power_from", step.get("any_power_from", list(DOMAINS)))
            if sorted(order) != sorted(DOMAINS) or not all(type(d) is str for d in order):
                raise ProtocolError(f"{where}.any_power_from", f"expected every domain once: {', '.join(DOMAINS)}")
            out.append({"step": kind, "any_power_from": list(order)})
    return out


def decode_play_card(path: str, data: Any, state: PlayState) -> dict[str, Any]:
    data = require_object(path, data)
    known = ("kind", "card", "cost", "additional", "pay_optional", "location", "modifiers", "plan")
    _known(path, data, known, "'play_card' action")
    card = _oid(f"{path}.card", require(path, data, "card"), state)
    additional = [component_from_json(f"{path}.additional[{i}]", c)
                  for i, c in enumerate(require_list(f"{path}.additional", data.get("additional", [])))]
    pay = require_list(f"{path}.pay_optional", data.get("pay_optional", [False] * len(additional)))
    for i, p in enumerate(pay):
        check_value(f"{path}.pay_optional[{i}]", p, "boolean")
    if len(pay) != len(additional):
        raise ProtocolError(f"{path}.pay_optional", f"expected one boolean per additional cost ({len(additional)}), got {len(pay)}")
    return {
        "kind": "play_card",
        "card": card,
        "cost": component_from_json(f"{path}.cost", data.get("cost", {}), optional_allowed=False),
        "additional": additional,
        "pay_optional": list(pay),
        "location": _int(f"{path}.location", data.get("location", 0)),
        "modifiers": modifiers_from_json(f"{path}.modifiers", data.get("modifiers", {})),
        "plan": plan_from_json(f"{path}.plan", require(path, data, "plan"), state),
    }


def decode_activate(path: str, data: Any, state: PlayState) -> dict[str, Any]:
    data = require_object(path, data)
    _known(path, data, ("kind", "source", "ability", "modifiers", "plan"), "'activate' action")
    source = _oid(f"{path}.source", require(path, data, "source"), state)
    where = f"{path}.ability"
    ability = require_object(where, require(path, data, "ability"))
    _known(where, ability, ("cost", "effect"), "ability")
    effect = require_object(f"{where}.effect", require(where, ability, "effect"))
    _known(f"{where}.effect", effect, ("kind", "amount"), "effect")
    return {
        "kind": "activate",
        "source": source,
        "ability": {
            "cost": component_from_json(f"{where}.cost", ability.get("cost", {}), optional_allowed=False),
            "effect": {
                "kind": _choice(f"{where}.effect.kind", require(f"{where}.effect", effect, "kind"), EFFECT_KINDS),
                "amount": _int(f"{where}.effect.amount", effect.get("amount", 1), 0),
            },
        },
        "modifiers": modifiers_from_json(f"{path}.modifiers", data.get("modifiers", {})),
        "plan": plan_from_json(f"{path}.plan", require(path, data, "plan"), state),
    }


# --------------------------------------------------------------------------------------
# Running the model
# --------------------------------------------------------------------------------------


def _resource_cost(data: dict[str, Any]) -> play_cost.ResourceCost:
    return play_cost.ResourceCost(data["energy"], tuple(data["power"][d] for d in DOMAINS), data["any_power"])


def _component(data: dict[str, Any]) -> play_cost.CostComponent:
    return play_cost.CostComponent(
        _resource_cost(data),
        tuple(play_cost.NonStandardCost(n["kind"], n["count"]) for n in data["nonstandard"]),
        data.get("optional", False),
    )


def _modifiers(data: dict[str, Any]) -> play_cost.Modifiers:
    return play_cost.Modifiers(
        tuple(_resource_cost(x) for x in data["increases"]),
        tuple(play_cost.Discount(d["energy"], d["power"], d["either"], d["applies_to"]) for d in data["discounts"]),
    )


def _plan(data: list[dict[str, Any]]) -> tuple[Any, ...]:
    out: list[Any] = []
    for s in data:
        if s["step"] == "use_rune":
            out.append(UseRune(s["rune"], s["ability"]))
        elif s["step"] == "pay_cost":
            out.append(PayCost(s["index"], tuple(s["targets"])))
        else:
            out.append(PayResources(tuple(s["any_power_from"])))
    return tuple(out)


def run_play_card(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, Event]:
    text = play_process.CardText(_component(action["cost"]), tuple(_component(c) for c in action["additional"]))
    choices = play_process.Choices(tuple(action["pay_optional"]), action["location"])
    result = play_process.process_play(state, action["card"], text, choices, _plan(action["plan"]),
                                       _modifiers(action["modifiers"]), rules)
    cancelled = play_process.get_cancellation(result)
    if cancelled is None:
        return result.state, Event("played", unit=action["card"])
    return result.state, Event("play_cancelled", unit=action["card"], detail=cancelled.check)


def run_activate(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, Event]:
    a = action["ability"]
    ability = play_process.Ability(_component(a["cost"]), play_process.Effect(a["effect"]["kind"], a["effect"]["amount"]))
    result = play_process.process_activate(state, action["source"], ability, _plan(action["plan"]),
                                           _modifiers(action["modifiers"]), rules)
    cancelled = play_process.get_cancellation(result)
    if cancelled is None:
        return result.state, Event("activated", unit=action["source"])
    return result.state, Event("activation_cancelled", unit=action["source"], detail=cancelled.check)


def run_play(state: PlayState, actions: tuple[dict[str, Any], ...], rules: PlayRules) -> tuple[PlayState, tuple[Event, ...]]:
    """Run decoded play actions through the model, in order; one outcome event per action."""
    from .actions import ACTION_KINDS

    events = []
    for action in actions:
        state, event = ACTION_KINDS[action["kind"]].run(state, action, rules)
        events.append(event)
    return state, tuple(events)


# --------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------


def state_divergences(model: PlayState, engine: PlayState) -> list[Any]:
    """Every difference of two final play states, path by path (``state.pool.energy``, ``state.objects.u1.zone``)."""
    from .compare import Divergence

    out = []
    if model.pool.energy != engine.pool.energy:
        out.append(Divergence("state", "state.pool.energy", model.pool.energy, engine.pool.energy))
    for domain, a, b in zip(DOMAINS, model.pool.power, engine.pool.power):
        if a != b:
            out.append(Divergence("state", f"state.pool.power.{domain}", a, b))
    theirs = {o.oid: o for o in engine.objects}
    ours = {o.oid for o in model.objects}
    for o in model.objects:
        other = theirs.get(o.oid)
        if other is None:
            out.append(Divergence("state", f"state.objects.{o.oid}", "present", "absent"))
            continue
        mine, them = object_to_json(o), object_to_json(other)
        for name in OBJECT_FIELDS:
            if mine[name] != them[name]:
                out.append(Divergence("state", f"state.objects.{o.oid}.{name}", mine[name], them[name]))
    for oid in theirs:
        if oid not in ours:
            out.append(Divergence("state", f"state.objects.{oid}", "absent", "present"))
    return out


# --------------------------------------------------------------------------------------
# JSON Schemas
# --------------------------------------------------------------------------------------


def _power_schema(description: str) -> dict[str, Any]:
    return {"type": "object", "description": description,
            "properties": {d: {"type": "integer", "minimum": 0, "default": 0} for d in DOMAINS},
            "additionalProperties": False}


def _resource_properties() -> dict[str, Any]:
    return {
        "energy": {"type": "integer", "minimum": 0, "default": 0, "description": "Energy"},
        "power": _power_schema("Power of each named domain"),
        "any_power": {"type": "integer", "minimum": 0, "default": 0, "description": "[A]: Power of any domain"},
    }


def _component_schema(optional: bool) -> dict[str, Any]:
    props = _resource_properties()
    props["nonstandard"] = {"type": "array", "default": [], "items": {
        "type": "object", "properties": {"kind": {"type": "string", "enum": list(NONSTANDARD_KINDS)},
                                         "count": {"type": "integer", "minimum": 1, "default": 1}},
        "required": ["kind"], "additionalProperties": False}}
    if optional:
        props["optional"] = {"type": "boolean", "default": False, "description": "an optional additional cost (355.1.a)"}
    return {"type": "object", "properties": props, "additionalProperties": False}


def _modifiers_schema() -> dict[str, Any]:
    discount = {"type": "object", "properties": {
        "energy": {"type": "integer", "minimum": 0, "default": 0},
        "power": {"type": "integer", "minimum": 0, "default": 0},
        "either": {"type": "boolean", "default": False, "description": "takes only one of the two parts (PLAY-003)"},
        "applies_to": {"type": "string", "enum": list(DISCOUNT_TARGETS), "default": "total"}},
        "additionalProperties": False}
    return {"type": "object", "description": "cost increases (356.3) and discounts (356.4)", "properties": {
        "increases": {"type": "array", "default": [], "items": {"type": "object", "properties": _resource_properties(),
                                                                "additionalProperties": False}},
        "discounts": {"type": "array", "default": [], "items": discount}}, "additionalProperties": False}


def _plan_schema() -> dict[str, Any]:
    return {"type": "array", "description": "the payment plan, in the player's order (357)", "items": {"oneOf": [
        {"type": "object", "properties": {"step": {"const": "use_rune"}, "rune": {"type": "string"},
                                          "ability": {"type": "string", "enum": ["exhaust", "recycle"]}},
         "required": ["step", "rune", "ability"], "additionalProperties": False},
        {"type": "object", "properties": {"step": {"const": "pay_cost"}, "index": {"type": "integer"},
                                          "targets": {"type": "array", "items": {"type": "string"}, "default": []}},
         "required": ["step", "index"], "additionalProperties": False},
        {"type": "object", "properties": {"step": {"const": "pay_resources"},
                                          "any_power_from": {"type": "array", "items": {"type": "string", "enum": list(DOMAINS)}}},
         "required": ["step"], "additionalProperties": False},
    ]}}


def play_card_schema() -> dict[str, Any]:
    return {
        "title": "play_card", "description": PLAY_CARD_SUMMARY, "type": "object",
        "properties": {
            "kind": {"const": "play_card"},
            "card": {"type": "string", "description": "oid of the card played"},
            "cost": _component_schema(False),
            "additional": {"type": "array", "items": _component_schema(True), "default": []},
            "pay_optional": {"type": "array", "items": {"type": "boolean"},
                             "description": "pay or skip each additional cost (355.1.a); default all false"},
            "location": {"type": "integer", "default": 0, "description": "where a unit enters (355.2)"},
            "modifiers": _modifiers_schema(),
            "plan": _plan_schema(),
        },
        "required": ["kind", "card", "plan"], "additionalProperties": False,
    }


def activate_schema() -> dict[str, Any]:
    return {
        "title": "activate", "description": ACTIVATE_SUMMARY, "type": "object",
        "properties": {
            "kind": {"const": "activate"},
            "source": {"type": "string", "description": "oid of the object whose ability is activated"},
            "ability": {"type": "object", "properties": {
                "cost": _component_schema(False),
                "effect": {"type": "object", "properties": {
                    "kind": {"type": "string", "enum": list(EFFECT_KINDS)},
                    "amount": {"type": "integer", "minimum": 0, "default": 1}},
                    "required": ["kind"], "additionalProperties": False}},
                "required": ["effect"], "additionalProperties": False},
            "modifiers": _modifiers_schema(),
            "plan": _plan_schema(),
        },
        "required": ["kind", "source", "ability", "plan"], "additionalProperties": False,
    }


def state_schema(complete: bool) -> dict[str, Any]:
    obj_props: dict[str, Any] = {
        "oid": {"type": "string"}, "kind": {"type": "string", "enum": list(KINDS)},
        "controller": {"type": "integer", "enum": [0, 1]}, "domain": {"type": "string", "enum": list(DOMAINS)},
        "zone": {"type": "string", "enum": list(ZONE_NAMES)}, "location": {"type": "integer", "minimum": 0},
        "exhausted": {"type": "boolean"}, "might_bonus": {"type": "integer"},
    }
    for name, default in OBJECT_DEFAULTS.items():
        obj_props[name]["default"] = default
    power = _power_schema("Power by domain")
    if complete:
        power["required"] = list(DOMAINS)
    return {"type": "object", "properties": {
        "pool": {"type": "object", "properties": {"energy": {"type": "integer"}, "power": power},
                 "required": ["energy", "power"] if complete else [], "additionalProperties": False},
        "objects": {"type": "array", "items": {"type": "object", "properties": obj_props,
                                               "required": list(OBJECT_FIELDS) if complete else ["oid"],
                                               "additionalProperties": False}},
        "player": {"type": "integer", "enum": [0, 1], "default": 0},
        "location_count": {"type": "integer", "minimum": 1, "default": 3},
    }, "required": ["pool", "objects"], "additionalProperties": False}


def rules_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {
        "either_discount": {"type": "string", "enum": ["energy_first", "power_first"], "default": "energy_first",
                            "description": "PLAY-003: which part a '[1] or [A] less' discount takes off"}},
        "additionalProperties": False}


PLAY_CARD_SUMMARY = "Play a card (350-359): chain, choices, total cost, payment plan, checks; undone if a check fails (358.5)."
ACTIVATE_SUMMARY = "Activate an ability (399): its cost before the colon paid by the plan; the linked effect only if paid."


# --------------------------------------------------------------------------------------
# Shrinking
# --------------------------------------------------------------------------------------


def _towards_zero(value: int) -> list[int]:
    out = [0, value // 2, value - 1] if value > 0 else []
    return [v for v in dict.fromkeys(out) if v != value]


def _referenced(scenario: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for action in scenario["actions"]:
        for key in ("card", "source"):
            if isinstance(action.get(key), str):
                names.add(action[key])
        for step in action.get("plan", []) or []:
            if isinstance(step.get("rune"), str):
                names.add(step["rune"])
            names |= {t for t in step.get("targets", []) if isinstance(t, str)}
    return names


def _ints(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], int]]:
    """Every integer inside a JSON value with its path (not booleans)."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _ints(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _ints(v, (*path, i))
    elif type(node) is int:
        out.append((path, node))
    return out


def _set(root: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        root = root[key]
    root[path[-1]] = value


def candidates(scenario: dict[str, Any]):
    """Simpler versions of a play scenario, coarsest first (used by :mod:`referee.shrink`)."""
    actions = scenario["actions"]
    for i in range(len(actions)):
        if len(actions) > 1:
            yield {**scenario, "actions": actions[:i] + actions[i + 1:]}
    for i, action in enumerate(actions):
        for listed in ("plan", "additional"):
            for j in range(len(action.get(listed, []) or [])):
                changed = copy.deepcopy(scenario)
                del changed["actions"][i][listed][j]
                if listed == "additional" and len(changed["actions"][i].get("pay_optional", [])) > j:
                    del changed["actions"][i]["pay_optional"][j]
                yield changed
        for listed in ("increases", "discounts"):
            for j in range(len((action.get("modifiers") or {}).get(listed, []))):
                changed = copy.deepcopy(scenario)
                del changed["actions"][i]["modifiers"][listed][j]
                yield changed
    objects = scenario["state"]["objects"]
    used = _referenced(scenario)
    for i, o in enumerate(objects):
        if o.get("oid") not in used:
            changed = copy.deepcopy(scenario)
            del changed["state"]["objects"][i]
            yield changed
    for i, o in enumerate(objects):
        for name in ("exhausted", "might_bonus", "location", "controller"):
            if name in o and o[name] != OBJECT_DEFAULTS[name]:
                changed = copy.deepcopy(scenario)
                changed["state"]["objects"][i][name] = OBJECT_DEFAULTS[name]
                yield changed
    for path, value in _ints(scenario):
        if path[0] in ("state", "actions") and path[-1] not in ("location_count", "index", "count", "controller", "player"):
            for smaller in _towards_zero(value):
                changed = copy.deepcopy(scenario)
                _set(changed, path, smaller)
                yield changed


# --------------------------------------------------------------------------------------
# The compact form, for reports
# --------------------------------------------------------------------------------------

_DROPPABLE = {"energy": 0, "any_power": 0, "nonstandard": [], "optional": False, "either": False,
              "applies_to": "total", "increases": [], "discounts": [], "additional": [], "pay_optional": [],
              "location": 0, "count": 1, "modifiers": {}, "targets": [], "power": {},
              "any_power_from": list(DOMAINS)}


def _compact_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_compact_value(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        item = _compact_value(item)
        if key in DOMAINS and item == 0:
            continue
        if key in _DROPPABLE and item == _DROPPABLE[key] and key not in ("kind", "plan"):
            continue
        out[key] = item
    return out


def compact(scenario: dict[str, Any]) -> dict[str, Any]:
    """A play scenario with every field at its protocol default left out (still valid, same meaning)."""
    out = dict(scenario)
    if out.get("rules") == {"either_discount": "energy_first"}:
        del out["rules"]
    state = out.get("state")
    if isinstance(state, dict) and isinstance(state.get("objects"), list):
        state = dict(state)
        state["objects"] = [
            {k: v for k, v in o.items() if k == "oid" or OBJECT_DEFAULTS.get(k, object()) != v} if isinstance(o, dict) else o
            for o in state["objects"]
        ]
        if isinstance(state.get("pool"), dict):
            state["pool"] = _compact_value(state["pool"])
        if state.get("player") == 0:
            del state["player"]
        if state.get("location_count") == 3:
            del state["location_count"]
        out["state"] = state
    if isinstance(out.get("actions"), list):
        out["actions"] = [_compact_value(a) for a in out["actions"]]
    return out
