"""The play rulebook's wire codec: play states, costs, plans and actions as JSON.

A scenario with ``"rulebook": "play"`` carries a play ``state`` (the acting player's pool,
the game objects and their zones) and ``play_card`` / ``activate`` actions. Field names are
the model's own (``pool.energy``, ``pool.power``, ``objects[i].oid``, ``zone``, ``location``,
``exhausted``, ``might_bonus``). The observation is the final play state plus one outcome
event per action (:mod:`.run`).
"""

from __future__ import annotations

from typing import Any

from referee.model.events import Event
from referee.model.play import cost as play_cost
from referee.model.play import process as play_process
from referee.model.play.legal import play_state_violation
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.rules import PlayRules
from referee.model.play.state import DOMAINS, KINDS as OBJECT_KINDS, ZONE_NAMES, GameObject, PlayState, Pool

from ...wire import (
    Observation,
    ProtocolError,
    check_value,
    decode_events,
    decode_id,
    observation_envelope,
    require,
    require_list,
    require_object,
    shown,
)

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
        raise ProtocolError(path, f"expected one of {', '.join(allowed)}, got {shown(value)}")
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
    _choice(f"{path}.kind", values["kind"], OBJECT_KINDS)
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
        raise ProtocolError(f"{path}.player", f"expected 0 or 1, got {shown(player)}")
    count = _int(f"{path}.location_count", data.get("location_count", 3), 1)
    state = PlayState(pool, objects, player, count)
    if not complete:  # a scenario: only a legal state is run (an engine's answer is compared, never refused)
        check_play_state_domain(path, state)
    return state


def check_play_state_domain(path: str, state: PlayState) -> None:
    """Raise a :class:`ProtocolError` naming the field and the clause of the first illegal field of a scenario's
    state (``referee.model.play.legal``: the states the play theorems are proved for)."""
    broken = play_state_violation(state)
    if broken is not None:
        raise ProtocolError(f"{path}.{broken.where}", f"{broken.says} (play:{broken.clause}; not a legal state, "
                            "referee.model.play.legal)")


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
    for name, value in data.items():  # a nested value would reach the model's repr in its error
        if isinstance(value, (dict, list)):
            raise ProtocolError(f"{path}.{name}", f"expected a reading's name, got {shown(value)}")
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
        raise ProtocolError(path, f"no object with oid {shown(value)} in the play state")
    return value


def _rune(path: str, value: Any, state: PlayState) -> str:
    """A use_rune step's object: a rune, the only object that has a Basic Rune's abilities (164.2.a, 164.2.b)."""
    oid = _oid(path, value, state)
    kind = state.get(oid).kind
    if kind != "rune":
        raise ProtocolError(path, f"object {shown(oid)} is a {kind}, not a rune: only a Basic Rune has the "
                                  f"abilities a use_rune step uses (164.2.a, 164.2.b)")
    return oid


def plan_from_json(path: str, data: Any, state: PlayState) -> list[dict[str, Any]]:
    out = []
    for i, step in enumerate(require_list(path, data)):
        where = f"{path}[{i}]"
        step = require_object(where, step)
        kind = _choice(f"{where}.step", require(where, step, "step"), STEP_KINDS)
        if kind == "use_rune":
            _known(where, step, ("step", "rune", "ability"), "use_rune step")
            ability = _choice(f"{where}.ability", require(where, step, "ability"), ("exhaust", "recycle"))
            out.append({"step": kind, "rune": _rune(f"{where}.rune", require(where, step, "rune"), state),
                        "ability": ability})
        elif kind == "pay_cost":
            _known(where, step, ("step", "index", "targets"), "pay_cost step")
            targets = require_list(f"{where}.targets", step.get("targets", []))
            out.append({"step": kind, "index": _int(f"{where}.index", require(where, step, "index")),
                        "targets": [_oid(f"{where}.targets[{j}]", t, state) for j, t in enumerate(targets)]})
        else:
            _known(where, step, ("step", "any_power_from"), "pay_resources step")
            order = require_list(f"{where}.any_power_from", step.get("any_power_from", list(DOMAINS)))
            if not all(type(d) is str for d in order) or sorted(order) != sorted(DOMAINS):
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
# Canonical JSON to the model's objects
# --------------------------------------------------------------------------------------


def to_resource_cost(data: dict[str, Any]) -> play_cost.ResourceCost:
    return play_cost.ResourceCost(data["energy"], tuple(data["power"][d] for d in DOMAINS), data["any_power"])


def to_component(data: dict[str, Any]) -> play_cost.CostComponent:
    return play_cost.CostComponent(
        to_resource_cost(data),
        tuple(play_cost.NonStandardCost(n["kind"], n["count"]) for n in data["nonstandard"]),
        data.get("optional", False),
    )


def to_modifiers(data: dict[str, Any]) -> play_cost.Modifiers:
    return play_cost.Modifiers(
        tuple(to_resource_cost(x) for x in data["increases"]),
        tuple(play_cost.Discount(d["energy"], d["power"], d["either"], d["applies_to"]) for d in data["discounts"]),
    )


def to_plan(data: list[dict[str, Any]]) -> tuple[Any, ...]:
    out: list[Any] = []
    for s in data:
        if s["step"] == "use_rune":
            out.append(UseRune(s["rune"], s["ability"]))
        elif s["step"] == "pay_cost":
            out.append(PayCost(s["index"], tuple(s["targets"])))
        else:
            out.append(PayResources(tuple(s["any_power_from"])))
    return tuple(out)


SCENARIO_FIELDS = ("protocol", "id", "rulebook", "rules", "state", "actions")


def encode_observation(state: PlayState, events: tuple[Event, ...] | list[Event], sid: str | None = None) -> dict[str, Any]:
    """A play-rulebook observation: the final play state and one outcome event per action."""
    return observation_envelope(sid, {"rulebook": "play", "state": state_to_json(state)}, events)


def decode_observation(
    data: dict[str, Any], path: str = "observation", *, fields_needed: tuple[str, ...] | None = None,
    events_needed: bool = True,
) -> Observation:
    """An engine's play observation: the whole final play state (``fields_needed`` does not apply)."""
    state = state_from_json(f"{path}.state", require(path, data, "state"), complete=True)
    return Observation(state, decode_events(path, data, events_needed), id=decode_id(path, data))
