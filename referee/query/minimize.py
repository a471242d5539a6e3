"""Minimal witnesses: shrink a found scenario through the model while the condition still holds.

Z3 returns any witness (``armor: -249999``, ``vessels: 3``). The shrinker replays
candidates concretely (a few milliseconds each) and keeps a change only when the scenario
is still legal and the condition still holds: first every value back to its default, then
each remaining number as close to its default as a bisection finds, then units the
witness does not need, and ruleset readings back to their defaults.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable

from referee.model.combat.state import Unit

from .types import ROLES

_UNIT_DEFAULTS = {f.name: f.default for f in fields(Unit)}


def default_of(name: str) -> Any:
    """The value a variable takes when a scenario leaves it out."""
    owner, _, attr = name.rpartition(".")
    if owner == "ruleset":
        return 1
    if owner == "reading":  # a symbolic ruleset option: its default reading (model/readings.py)
        return False
    if owner in ROLES:
        return _UNIT_DEFAULTS.get(attr, 0)
    return False if attr.startswith("roll") or attr == "allows_dormant" else 0


def shrink_values(values: dict[str, Any], holds: Callable[[dict[str, Any]], bool], budget: int = 300) -> dict[str, Any]:
    """``values`` with as many variables at their defaults, and the rest as small, as ``holds`` allows."""
    current = dict(values)
    tries = 0

    def attempt(changes: dict[str, Any]) -> bool:
        nonlocal current, tries
        tries += 1
        candidate = {**current, **changes}
        if tries <= budget and holds(candidate):
            current = candidate
            return True
        return False

    for _ in range(3):
        before = dict(current)
        for name in sorted(current):
            if current[name] != default_of(name):
                attempt({name: default_of(name)})
        for unit in ROLES:  # Vitality and its maximum move together
            pair = {f"{unit}.vitality": 100, f"{unit}.max_vitality": 100}
            if all(k in current for k in pair) and any(current[k] != v for k, v in pair.items()):
                attempt(pair)
        for name in sorted(current):
            value, default = current[name], default_of(name)
            if isinstance(value, bool) or value == default:
                continue
            low, high = default, value  # holds at high; bisect towards the default
            while abs(high - low) > 1 and tries < budget:
                middle = (low + high) // 2
                if attempt({name: middle}):
                    high = middle
                else:
                    low = middle
        if current == before:
            break
    return current


def shrink_witness(values: dict[str, Any], cell: Any, query: Any) -> tuple[dict[str, Any], Any]:
    """The shrunk values and the smallest cell (fewer units, default readings) where they still hold."""
    from dataclasses import replace

    from referee.model.combat.ruleset import DEFAULT

    from .records import safe_replay

    def holds_in(candidate_cell: Any) -> Callable[[dict[str, Any]], bool]:
        return lambda candidate: safe_replay(candidate, candidate_cell, query)[0]

    for role in ("interceptor", "receiver", "ally"):  # fewer units first: every later replay is cheaper
        if role in cell.layout.units:
            kept = tuple(u for u in cell.layout.units if u != role)
            pins = tuple(pin for pin in cell.layout.pins if pin[0] in kept)
            smaller = replace(cell, layout=replace(cell.layout, units=kept, pins=pins))
            if holds_in(smaller)(values):
                cell = smaller
    values = shrink_values(values, holds_in(cell))
    defaults = DEFAULT.to_json()
    for option, reading in list(cell.chosen.items()):
        if reading != defaults[option] and option not in query.fixed:
            candidate = replace(cell, chosen={**cell.chosen, option: defaults[option]})
            if holds_in(candidate)(values):
                cell = candidate
    return values, cell
