"""A partial engine that implements only the damage pipeline's core, written without ``referee``.

It knows a unit's place, ``alive``, ``vitality`` and ``max_vitality``; a damage instance that
reaches a living unit takes Vitality (``damage_taken``, ``vitality_lost``) and, at 0, kills it
(``death``, the source its killer). Nothing else: no Armor, Shield, Insurance, runes, credit or
revival. It answers with only those fields and those events, and passes under the profile that
leaves every feature out::

    referee check --python referee.examples.damage_engine:run --kinds damage \\
        --without "$(referee features --json | python -c 'import json,sys; print(",".join(r["name"] for r in json.load(sys.stdin) if not r["always_on"]))')"

It speaks ``referee/2`` and refuses a scenario of another protocol.
"""

from __future__ import annotations

from typing import Any

PROTOCOL = "referee/2"
#: The unit fields it reports: the pipeline's own.
FIELDS = ("uid", "side", "row", "col", "alive", "vitality", "max_vitality")


def take_damage(units: dict[str, dict[str, Any]], action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """One damage instance on a living target: the Vitality it loses, and its death at 0."""
    target, amount, source = units[action["target"]], action["amount"], action.get("source")
    if not target["alive"] or amount <= 0:
        return
    lost = min(amount, target["vitality"])
    target["vitality"] -= lost
    events.append(_event("damage_taken", target["uid"], lost, source, action.get("damage_kind", "hit")))
    events.append(_event("vitality_lost", target["uid"], lost))
    if target["vitality"] == 0:
        target["alive"] = False
        events.append(_event("death", target["uid"], 0, source))


def _event(name: str, unit: str, amount: int = 0, other: str | None = None, detail: str | None = None) -> dict[str, Any]:
    return {"name": name, "unit": unit, "amount": amount, "other": other, "detail": detail}


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """A scenario (JSON object) to an observation with the core fields and events only."""
    if scenario.get("protocol") != PROTOCOL:
        raise ValueError(f"this engine speaks {PROTOCOL}, not {scenario.get('protocol')!r}")
    units = {u["uid"]: {name: u.get(name, default) for name, default in
                        (("uid", None), ("side", 0), ("row", 0), ("col", 0), ("alive", True), ("vitality", 100),
                         ("max_vitality", 100))} for u in scenario["board"]}
    events: list[dict[str, Any]] = []
    for action in scenario["actions"]:
        if action["kind"] != "damage":
            raise ValueError(f"this engine runs damage actions only, not {action['kind']!r}")
        take_damage(units, action, events)
    observation = {"protocol": PROTOCOL, "board": list(units.values()), "events": events}
    if "id" in scenario:
        observation["id"] = scenario["id"]
    return observation
