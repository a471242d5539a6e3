"""Shrinking a failing scenario: the driver, batched for JSON-lines engines.

Hypothesis finds the first mismatch; this module then makes it small. Hypothesis' own
shrinker works on the choice sequence behind a whole *batch* of scenarios, so over JSON
lines every step would cost a batch; it also cannot know that a unit nobody references
can go. Here each pass proposes simpler versions of the scenario itself (the moves are
the rulebook's: ``referee/rulebooks/<name>/shrink.py``), sends a pass's candidates to the
engine together (one batch), and keeps the first that still disagrees with the model.

Every candidate kept is a valid scenario (it decodes, and the rulebook accepts it as
inside the domain the harness draws from); the loop stops when a whole round changes
nothing or the budget of engine calls is spent. The result is 1-minimal for these moves.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from . import rulebooks
from .protocol import decode_scenario
from .wire import ProtocolError


def is_valid(scenario: dict[str, Any]) -> bool:
    """The candidate decodes and its rulebook keeps it (a living unit keeps Vitality in range, ...)."""
    try:
        decode_scenario(scenario)
    except (ProtocolError, ValueError, TypeError):
        return False
    return rulebooks.of_scenario(scenario).is_shrink_valid(scenario)


def size(scenario: dict[str, Any]) -> tuple[int, int]:
    """How big a scenario is to read: its actions, and the characters of its compact JSON (defaults left out)."""
    actions = scenario.get("actions")
    try:
        text = json.dumps(rulebooks.of_scenario(scenario).compact(scenario), separators=(", ", ": "))
    except Exception:  # an undecodable scenario: its raw size
        text = json.dumps(scenario)
    return (len(actions) if isinstance(actions, list) else 0), len(text)


def describe_sizes(before: tuple[int, int], after: tuple[int, int], calls: int) -> str:
    """``shrunk from 2 actions, 811 characters to 1 action, 142 characters (96 engine calls)``."""
    def said(s: tuple[int, int]) -> str:
        return f"{s[0]} action{'' if s[0] == 1 else 's'}, {s[1]} characters"

    return f"shrunk from {said(before)} to {said(after)} ({calls} engine calls)"


def candidates(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Simpler versions of ``scenario``, coarsest first (its rulebook's moves)."""
    return rulebooks.of_scenario(scenario).shrink_candidates(scenario)


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
