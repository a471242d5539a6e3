"""Rendering an explanation: lines for people, or JSON for other tools."""

from __future__ import annotations

import json

from referee.model.events import Event

from .steps import Step  # noqa: F401 - what the rendered actions hold


#: Events whose amount is always 0 and not worth printing.
_NO_AMOUNT = {"threshold_reevaluated", "rune_reset", "death", "macabre", "deathrattle", "shield_broken",
              "ignore_charge_spent", "vessel_revival", "everlasting_scheduled", "played", "activated",
              "play_cancelled", "activation_cancelled", "condition_failed"}


def describe_event(e: Event) -> str:
    parts = [e.name] + [f"{k}={v}" for k, v in (("unit", e.unit), ("amount", e.amount), ("other", e.other), ("detail", e.detail))
                        if v not in (None, 0) or (k == "amount" and e.name not in _NO_AMOUNT and v == 0)]
    return " ".join(parts)


def render_text(actions: list, header: str = "") -> list[str]:
    """The explanation as lines for people: each action's steps, its events, what changed."""
    lines = [header] if header else []
    for action in actions:
        lines.append(f"action {action.number}: {action.kind}")
        lines.extend("  " + step.line() for step in action.steps)
        lines.append("  events:")
        lines.extend(f"    {describe_event(e)}" for e in action.events)
        for uid, diffs in action.changes.items():
            lines.append(f"  {uid}: " + ", ".join(f"{f} {old} -> {new}" for f, (old, new) in diffs.items()))
    return lines


def render_json(actions: list, kind: str) -> str:
    return json.dumps({"explained": kind, "actions": [a.to_json() for a in actions]}, indent=1, default=str)
