"""Shrinking and compacting combat scenarios: the moves the shrink driver tries.

1. drop an action, drop a hit of a composite action;
2. drop a unit no action and no other unit refers to;
3. set a unit field, or an optional action field, back to its protocol default; move a unit
   to side 0, row 0, column 0 when that cell is free;
4. move a number towards 0: to 0, to half, one step closer.

Every candidate the driver keeps decodes and passes :func:`is_shrink_valid` (a living unit
keeps ``1 <= vitality <= max_vitality``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from referee.model.combat.ruleset import DEFAULT

from .codec import UNIT_DEFAULTS

#: Fields that name units inside actions (a unit they name cannot be dropped).
REFERENCE_FIELDS = ("target", "source", "payer", "beneficiary", "caster")
#: Optional action fields and the value that is simplest for each.
ACTION_SIMPLEST = {"source": None, "beneficiary": None, "damage_kind": "hit", "allows_dormant": False,
                   "riposte_rolls": [], "cost_kind": "bloodletting"}


def is_shrink_valid(scenario: dict[str, Any]) -> bool:
    """A living unit keeps ``1 <= vitality <= max_vitality``; a dead one has Vitality 0."""
    for unit in scenario["board"]:
        alive, vitality, maximum = unit.get("alive", True), unit.get("vitality", 100), unit.get("max_vitality", 100)
        if alive and not 1 <= vitality <= maximum:
            return False
        if not alive and vitality != 0:
            return False
    return True


def _referenced(scenario: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for action in scenario["actions"]:
        names |= {action.get(f) for f in REFERENCE_FIELDS if isinstance(action.get(f), str)}
        for hit in action.get("hits", []) or []:
            names |= {hit.get("target")}
        names |= {t for t in action.get("targets", []) or [] if isinstance(t, str)}
    for unit in scenario["board"]:
        names |= {unit.get("redirect_to"), unit.get("intercept_by")}
    return {n for n in names if n}


#: Where a number shrinks to, when not 0 (a Shield multiplier below 1 means 1 anyway).
NUMBER_FLOOR = {"shield_multiplier": 1}


def _towards_zero(value: int, floor: int = 0) -> list[int]:
    """Smaller versions of ``value``: the floor, half way there, one step closer."""
    offset = value - floor
    out = [floor, floor + (offset // 2 if offset > 0 else -((-offset) // 2)), value - 1 if offset > 0 else value + 1]
    return [v for v in dict.fromkeys(out) if v != value and abs(v - floor) < abs(offset)]


def candidates(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Simpler versions of ``scenario``, coarsest first."""
    actions, board = scenario["actions"], scenario["board"]
    for i in range(len(actions)):
        if len(actions) > 1:
            yield {**scenario, "actions": actions[:i] + actions[i + 1:]}
    for i, action in enumerate(actions):
        for j in range(len(action.get("hits", []) or [])):
            changed = copy.deepcopy(scenario)
            del changed["actions"][i]["hits"][j]
            yield changed
    yield from _ability_candidates(scenario)
    used = _referenced(scenario)
    for i, unit in enumerate(board):
        if unit["uid"] not in used and len(board) > 1:
            yield {**scenario, "board": board[:i] + board[i + 1:]}
    for i, unit in enumerate(board):
        for name, value in unit.items():
            if name in UNIT_DEFAULTS and name not in ("side", "row", "col") and value != UNIT_DEFAULTS[name]:
                changed = copy.deepcopy(scenario)
                changed["board"][i][name] = UNIT_DEFAULTS[name]
                if name == "alive":
                    changed["board"][i]["vitality"] = changed["board"][i].get("max_vitality", 100)
                if name == "max_vitality":
                    changed["board"][i]["vitality"] = min(unit.get("vitality", 100), UNIT_DEFAULTS[name]) or 0
                yield changed
    for i, unit in enumerate(board):
        for name in ("side", "row", "col"):
            if unit.get(name, 0) != 0:  # a move to the first cell (decoding rejects a shared cell)
                changed = copy.deepcopy(scenario)
                changed["board"][i][name] = 0
                yield changed
    for i, action in enumerate(actions):
        for name, simplest in ACTION_SIMPLEST.items():
            if name in action and action[name] != simplest:
                changed = copy.deepcopy(scenario)
                changed["actions"][i][name] = simplest
                yield changed
    for i, unit in enumerate(board):
        for name, value in unit.items():
            if type(value) is int and name not in ("side", "row", "col"):
                for smaller in _towards_zero(value, NUMBER_FLOOR.get(name, 0)):
                    changed = copy.deepcopy(scenario)
                    changed["board"][i][name] = smaller
                    yield changed
    for i, action in enumerate(actions):
        for name, value in action.items():
            if type(value) is int:
                for smaller in _towards_zero(value):
                    changed = copy.deepcopy(scenario)
                    changed["actions"][i][name] = smaller
                    yield changed
        for j, hit in enumerate(action.get("hits", []) or []):
            for smaller in _towards_zero(hit.get("amount", 0)):
                changed = copy.deepcopy(scenario)
                changed["actions"][i]["hits"][j]["amount"] = smaller
                yield changed


def _ability_candidates(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """An ability action: drop a line, drop a target, a line's literal amount or a card number towards 0."""
    for i, action in enumerate(scenario["actions"]):
        ability = action.get("ability")
        if not isinstance(ability, dict) or not isinstance(ability.get("lines"), list):
            continue
        lines = ability["lines"]
        for j in range(len(lines) if len(lines) > 1 else 0):
            changed = copy.deepcopy(scenario)
            del changed["actions"][i]["ability"]["lines"][j]
            yield changed
        for j in range(len(action.get("targets", []) or [])):
            changed = copy.deepcopy(scenario)
            del changed["actions"][i]["targets"][j]
            yield changed
        for j, line in enumerate(lines):
            for name, simplest in (("per", None), ("lane", None), ("to", "target")):
                if isinstance(line, dict) and line.get(name, simplest) != simplest:
                    changed = copy.deepcopy(scenario)
                    changed["actions"][i]["ability"]["lines"][j].pop(name)
                    yield changed
            if isinstance(line, dict) and type(line.get("amount")) is int:
                for smaller in _towards_zero(line["amount"]):
                    changed = copy.deepcopy(scenario)
                    changed["actions"][i]["ability"]["lines"][j]["amount"] = smaller
                    yield changed
        for key, value in (ability.get("numbers") or {}).items():
            if type(value) is int:
                for smaller in _towards_zero(value):
                    changed = copy.deepcopy(scenario)
                    changed["actions"][i]["ability"]["numbers"][key] = smaller
                    yield changed


def compact(scenario: dict[str, Any]) -> dict[str, Any]:
    """The scenario with every unit field and ruleset option at its default left out (still valid)."""
    out = dict(scenario)
    if isinstance(out.get("ruleset"), dict):
        defaults = DEFAULT.to_json()
        out["ruleset"] = {k: v for k, v in out["ruleset"].items() if defaults.get(k, object()) != v}
        if not out["ruleset"]:
            del out["ruleset"]
    if isinstance(out.get("board"), list):
        out["board"] = [
            {k: v for k, v in u.items() if k == "uid" or UNIT_DEFAULTS.get(k, object()) != v} if isinstance(u, dict) else u
            for u in out["board"]
        ]
    return out
