"""Shrinking and compacting play scenarios: the moves the shrink driver tries."""

from __future__ import annotations

import copy
from typing import Any

from referee.model.play.rules import DEFAULT_PLAY_RULES
from referee.model.play.state import DOMAINS

from .codec import OBJECT_DEFAULTS



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
    """Simpler versions of a play scenario, coarsest first (used by :mod:`referee.check.shrink`)."""
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
    if isinstance(out.get("rules"), dict):
        defaults = DEFAULT_PLAY_RULES.to_json()
        out["rules"] = {k: v for k, v in out["rules"].items() if defaults.get(k, object()) != v}
        if not out["rules"]:
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


def is_shrink_valid(scenario: dict[str, Any]) -> bool:
    """Every play scenario that decodes is inside the domain the harness draws from."""
    return True
