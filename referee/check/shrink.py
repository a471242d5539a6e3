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

from .. import rulebooks
from ..protocol import decode_scenario
from ..wire import ProtocolError


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


#: A scenario longer than this is first cut by delta debugging over its actions (:func:`cut_actions`).
LONG = 4


def cut_actions(scenario: dict[str, Any], still_fails: Callable[[list[dict[str, Any]]], int | None],
                batch: int = 1, budget: int = 2000) -> tuple[dict[str, Any], int]:
    """Delta debugging over a long scenario's actions (ddmin's complements): drop a half, then quarters, ... of the
    actions, keeping each cut that still fails, down to single actions; a divergence at action 180 of 200 is a
    handful of actions in about ``n log n`` engine calls. Short scenarios are returned as they are."""
    current, spent, parts = scenario, 0, 2
    while len(current.get("actions", [])) > LONG and spent < budget:
        actions = current["actions"]
        size = max(1, len(actions) // parts)
        cuts = [{**current, "actions": actions[:i] + actions[i + size:]} for i in range(0, len(actions), size)]
        hit, calls = _first_failing([c for c in cuts if c["actions"] and is_valid(c)], still_fails, batch)
        spent += calls
        if hit is not None:
            current, parts = hit, max(parts - 1, 2)
        elif size == 1:
            break
        else:
            parts = min(parts * 2, len(actions))
    return current, spent


def _first_failing(candidates: list[dict[str, Any]], still_fails: Callable[[list[dict[str, Any]]], int | None],
                   batch: int) -> tuple[dict[str, Any] | None, int]:
    """The first candidate that still fails (sent ``batch`` at a time), and the engine calls spent finding it."""
    spent = 0
    for start in range(0, len(candidates), max(batch, 1)):
        part = candidates[start : start + max(batch, 1)]
        spent += len(part)
        hit = still_fails(part)
        if hit is not None:
            return part[hit], spent
    return None, spent


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
    current, spent = cut_actions(scenario, still_fails, batch, budget)
    seen = {json.dumps(current, sort_keys=True)}
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
