"""Shrinking and compacting combat scenarios: the moves the shrink driver tries.

1. drop an action, drop a hit of a composite action;
2. replace an action by a simpler kind with the same effect: a ``bloodletting`` by its hits as
   ``hit`` actions (the wrapper and its cost dropped), a ``hit`` by a ``damage`` (nothing answers
   it), a ``tick`` by a ``hit`` of its first applier;
3. drop a unit no action and no other unit refers to;
4. set a unit field, or an optional action field, back to its protocol default; move a unit
   to side 0, row 0, column 0 when that cell is free;
5. move a damage amount and its target's Armor down *together*, keeping the relation that puts
   them on a rounding boundary: a perfect square ``r*r`` to a smaller one ``s*s`` with the amount
   scaled by ``(s + 20) / (r + 20)`` (the curve's exact point moves with it) and one off, or both
   scaled by the same factor (975 into 1,600 Armor becomes tens into tens);
6. move a number towards 0: to 0, to half, by a quarter, an eighth, ..., one step closer.

Every candidate the driver keeps decodes and passes :func:`is_shrink_valid` (a living unit
keeps ``1 <= vitality <= max_vitality``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from fractions import Fraction
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
    """Smaller versions of ``value``: the floor, half way there, then closer by a quarter, an eighth, ... one."""
    offset = value - floor
    sign = 1 if offset > 0 else -1
    out = [floor, floor + sign * (abs(offset) // 2)]
    step = abs(offset) // 4
    while step > 1:
        out.append(value - sign * step)
        step //= 2
    out.append(value - sign)
    return [v for v in dict.fromkeys(out) if v != value and abs(v - floor) < abs(offset)]


#: The fields a ``hit`` and a ``damage`` action share (a bloodletting's hit has all but ``source``).
INSTANCE_KEYS = ("target", "amount", "source", "damage_kind", "allows_dormant", "riposte_rolls")


def _as_instance(kind: str, hit: dict[str, Any], source: str | None) -> dict[str, Any]:
    """A ``kind`` action (``hit``, ``damage``) with the instance fields of ``hit`` and the given source."""
    return {"kind": kind, **{k: hit[k] for k in INSTANCE_KEYS if k in hit}, "source": source}


def _simpler_actions(action: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """What may stand in for ``action``: simpler kinds with the same effect (each a list of actions)."""
    kind = action.get("kind")
    if kind == "bloodletting" and isinstance(action.get("hits"), list) and action["hits"]:
        hits = [_as_instance("hit", h, action.get("caster")) for h in action["hits"] if isinstance(h, dict)]
        return [hits] + ([[h] for h in hits] if len(hits) > 1 else [])
    if kind == "hit":
        return [[{**action, "kind": "damage"}]]
    if kind == "tick" and isinstance(action.get("appliers"), list) and action["appliers"]:
        first = action["appliers"][0].get("unit") if isinstance(action["appliers"][0], dict) else None
        return [[_as_instance("hit", action, first)]]
    return []


def _joint_armor_moves(armor: int, amount: int) -> list[tuple[int, int]]:
    """Smaller (Armor, amount) pairs that keep their relation, smallest first.

    For a perfect square ``r*r``: a smaller square ``s*s`` with the amount that leaves the same
    damage past both Armor steps (``20*d/(s+20) - s*s/5`` unchanged), the amount scaled to the
    curve's same point (``d*(s+20)/(r+20)``), and the multiples of the new exact step nearest it,
    each also one off; for any Armor, both scaled by 1/2, 3/4, 7/8.
    """
    out: list[tuple[int, int]] = []
    root = math.isqrt(armor) if armor > 0 else 0
    if root > 1 and root * root == armor:
        past = Fraction(20 * amount, root + 20) - Fraction(armor, 5)
        for smaller in sorted({*range(1, min(root, 9)), root // 4, root // 2, root - 1} - {0}):
            if smaller >= root:
                continue
            same_left = math.ceil((past + Fraction(smaller * smaller, 5)) * (smaller + 20) / 20)
            scaled = amount * (smaller + 20) // (root + 20)
            step = (smaller + 20) // math.gcd(20, smaller + 20)
            nearest = max(round(scaled / step), 1) * step
            for base in dict.fromkeys((same_left, scaled, nearest)):
                out += [(smaller * smaller, base + d) for d in (0, -1, 1)]
    for num, den in ((1, 2), (3, 4), (7, 8)):
        out.append((armor * num // den, amount * num // den))
    return [(a, d) for a, d in dict.fromkeys(out) if (a, d) != (armor, amount) and d >= 0 and abs(a) <= abs(armor)]


def _joint_candidates(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A damage amount and its target's Armor moved down together (item 5 of the module docstring)."""
    where = {u["uid"]: i for i, u in enumerate(scenario["board"]) if isinstance(u, dict)}
    for i, action in enumerate(scenario["actions"]):
        instances = [(None, action)] if "amount" in action and "target" in action else []
        instances += [(j, h) for j, h in enumerate(action.get("hits", []) or []) if isinstance(h, dict)]
        for j, instance in instances:
            unit = where.get(instance.get("target"))
            armor, amount = (scenario["board"][unit].get("armor", 0) if unit is not None else 0), instance.get("amount")
            if unit is None or type(armor) is not int or type(amount) is not int or armor <= 0 or amount <= 0:
                continue
            for new_armor, new_amount in _joint_armor_moves(armor, amount):
                changed = copy.deepcopy(scenario)
                changed["board"][unit]["armor"] = new_armor
                target = changed["actions"][i] if j is None else changed["actions"][i]["hits"][j]
                target["amount"] = new_amount
                yield changed


def candidates(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Simpler versions of ``scenario``, coarsest first."""
    for moves in (_fewer_actions, _simpler_actions_of, _ability_candidates, _fewer_units, _unit_defaults, _first_cells,
                  _simplest_action_fields, _joint_candidates, _smaller_unit_numbers, _smaller_action_numbers):
        yield from moves(scenario)


def _fewer_actions(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """An action left out, then a hit of an action left out."""
    actions = scenario["actions"]
    for i in range(len(actions)):
        if len(actions) > 1:
            yield {**scenario, "actions": actions[:i] + actions[i + 1:]}
    for i, action in enumerate(actions):
        for j in range(len(action.get("hits", []) or [])):
            changed = copy.deepcopy(scenario)
            del changed["actions"][i]["hits"][j]
            yield changed


def _simpler_actions_of(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    actions = scenario["actions"]
    for i, action in enumerate(actions):
        for replacement in _simpler_actions(action):
            yield {**scenario, "actions": actions[:i] + replacement + actions[i + 1:]}


def _fewer_units(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A unit no action names left out."""
    board, used = scenario["board"], _referenced(scenario)
    for i, unit in enumerate(board):
        if unit["uid"] not in used and len(board) > 1:
            yield {**scenario, "board": board[:i] + board[i + 1:]}


def _unit_defaults(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A unit field back at its default (a revived unit at full Vitality; Vitality within a lowered maximum)."""
    for i, unit in enumerate(scenario["board"]):
        for name, value in unit.items():
            if name in UNIT_DEFAULTS and name not in ("side", "row", "col") and value != UNIT_DEFAULTS[name]:
                changed = copy.deepcopy(scenario)
                changed["board"][i][name] = UNIT_DEFAULTS[name]
                if name == "alive":
                    changed["board"][i]["vitality"] = changed["board"][i].get("max_vitality", 100)
                if name == "max_vitality":
                    changed["board"][i]["vitality"] = min(unit.get("vitality", 100), UNIT_DEFAULTS[name]) or 0
                yield changed


def _first_cells(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for i, unit in enumerate(scenario["board"]):
        for name in ("side", "row", "col"):
            if unit.get(name, 0) != 0:  # a move to the first cell (decoding rejects a shared cell)
                changed = copy.deepcopy(scenario)
                changed["board"][i][name] = 0
                yield changed


def _simplest_action_fields(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for i, action in enumerate(scenario["actions"]):
        for name, simplest in ACTION_SIMPLEST.items():
            if name in action and action[name] != simplest:
                changed = copy.deepcopy(scenario)
                changed["actions"][i][name] = simplest
                yield changed


def _smaller_unit_numbers(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for i, unit in enumerate(scenario["board"]):
        for name, value in unit.items():
            if type(value) is int and name not in ("side", "row", "col"):
                for smaller in _towards_zero(value, NUMBER_FLOOR.get(name, 0)):
                    changed = copy.deepcopy(scenario)
                    changed["board"][i][name] = smaller
                    yield changed


def _smaller_action_numbers(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """An action's number, then each of its hits' amounts, nearer 0."""
    for i, action in enumerate(scenario["actions"]):
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
    if isinstance(out.get("actions"), list):
        out["actions"] = [_compact_action(a) for a in out["actions"]]
    if isinstance(out.get("board"), list):
        out["board"] = [
            {k: v for k, v in u.items() if k == "uid" or UNIT_DEFAULTS.get(k, object()) != v} if isinstance(u, dict) else u
            for u in out["board"]
        ]
    return out


def _compact_action(action: Any) -> Any:
    """An action with its optional fields at their default left out (``riposte_rolls: []``, ``source: null``)."""
    from .kinds import KINDS

    kind = KINDS.get(action["kind"]) if isinstance(action, dict) and isinstance(action.get("kind"), str) else None
    if kind is None:
        return action
    defaults = {f.name: f.default for f in kind.fields if not f.required}
    out = {k: v for k, v in action.items() if k not in defaults or _as_json(defaults[k]) != v}
    for name in ("hits",):
        field_ = next((f for f in kind.fields if f.name == name), None)
        if field_ is not None and isinstance(out.get(name), list):
            inner = {f.name: f.default for f in field_.items if not f.required}
            out[name] = [{k: v for k, v in h.items() if k not in inner or _as_json(inner[k]) != v} if isinstance(h, dict)
                         else h for h in out[name]]
    return out


def _as_json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
