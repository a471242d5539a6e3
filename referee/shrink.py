"""Shrinking a failing scenario: domain-aware, and batched for JSON-lines engines.

Hypothesis finds the first mismatch; this module then makes it small. Hypothesis' own
shrinker works on the choice sequence behind a whole *batch* of scenarios, so over JSON
lines every step would cost a batch; it also cannot know that a unit nobody references
can go. Here each pass proposes simpler versions of the scenario itself, sends a pass's
candidates to the engine together (one batch), and keeps the first that still disagrees
with the model:

1. drop an action, drop a hit of a composite action;
2. drop a unit no action and no other unit refers to;
3. set a unit field, or an optional action field, back to its protocol default; move a unit
   to side 0, row 0, column 0 when that cell is free;
4. move a number towards 0: to 0, to half, one step closer.

Every candidate is a valid scenario (it decodes, and a living unit keeps
``1 <= vitality <= max_vitality``); the loop stops when a whole round changes nothing
or the budget of engine calls is spent. The result is 1-minimal for these moves.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

from .protocol import UNIT_DEFAULTS, ProtocolError, decode_scenario

#: Fields that name units inside actions (a unit they name cannot be dropped).
REFERENCE_FIELDS = ("target", "source", "payer", "beneficiary", "caster")
#: Optional action fields and the value that is simplest for each.
ACTION_SIMPLEST = {"source": None, "beneficiary": None, "damage_kind": "hit", "allows_dormant": False,
                   "riposte_rolls": [], "cost_kind": "bloodletting"}


def is_valid(scenario: dict[str, Any]) -> bool:
    try:
        decode_scenario(scenario)
    except (ProtocolError, ValueError, TypeError):
        return False
    if scenario.get("rulebook") == "play":
        return True
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
    if scenario.get("rulebook") == "play":
        from .play import candidates as play_candidates

        yield from play_candidates(scenario)
        return
    actions, board = scenario["actions"], scenario["board"]
    for i in range(len(actions)):
        if len(actions) > 1:
            yield {**scenario, "actions": actions[:i] + actions[i + 1:]}
    for i, action in enumerate(actions):
        for j in range(len(action.get("hits", []) or [])):
            changed = copy.deepcopy(scenario)
            del changed["actions"][i]["hits"][j]
            yield changed
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


def shrink(
    scenario: dict[str, Any],
    still_fails: Callable[[list[dict[str, Any]]], int | None],
    batch: int = 1,
    budget: int = 2000,
) -> tuple[dict[str, Any], int]:
    """The smallest scenario reachable by :func:`candidates` that still fails; and the engine calls spent.

    ``still_fails(candidates)`` runs a batch and returns the index of the first that still
    fails, or ``None``.
    """
    current, spent = scenario, 0
    seen = {json.dumps(scenario, sort_keys=True)}
    improved = True
    while improved and spent < budget:
        improved = False
        pending: list[dict[str, Any]] = []
        for candidate in candidates(current):
            key = json.dumps(candidate, sort_keys=True)
            if key in seen or not is_valid(candidate):
                continue
            seen.add(key)
            pending.append(candidate)
            if len(pending) >= batch:
                spent += len(pending)
                hit = still_fails(pending)
                if hit is not None:
                    current, improved = pending[hit], True
                    break
                pending = []
                if spent >= budget:
                    break
        else:
            if pending:
                spent += len(pending)
                hit = still_fails(pending)
                if hit is not None:
                    current, improved = pending[hit], True
    return current, spent
