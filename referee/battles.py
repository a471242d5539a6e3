"""Whole battles: a board of several units on each side and a long sequence of actions on the clock.

A battle is a combat scenario like any other (the protocol does not change): its board holds up to eight units,
some of them Everlasting, holding Vessels or a defy-death rune, so that deaths are revived and revived units
die again; its actions are drawn one after another by the same per-kind drawers ``referee check`` uses, with
time moved on between them (``advance``), so that what only bites late is reached: a defy-death rune re-armed
by a revival and spent again (500.9e), Interest lowering maximum Vitality payment after payment (500.8g),
Bolster and Momentum building and resetting (500.8d), Everlasting revivals retried while the half is full
(500.9a), Vessel batches across a chain of deaths (500.4e, 500.9m), a Burn shared over many ticks (500.5b).

Actions are drawn against the starting board (a drawn action names units, not their later state); the model
carries the state. The alignment a single-action draw makes (moving the target's numbers onto a boundary of
that action) is put on the starting board only for the first few actions, since a later one would rewrite the
history of the ones before it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from .seeded import seeded_draw
from .wire import PROTOCOL

#: How often each kind is drawn in a battle (clock actions included: a battle is on the clock).
BATTLE_WEIGHTS = {"hit": 9, "damage": 3, "cost": 5, "tick": 4, "cull": 2, "recover": 5, "ability": 4,
                  "bloodletting": 3, "armor_debuff": 1, "advance": 6}
#: The time an ``advance`` moves on: a tick, a second, a whole revival timer and a bit past it.
ADVANCE_MS = (100, 1_000, 3_300, 10_000, 10_100)
#: Alignments are taken for this many of the first actions only.
ALIGNED_ACTIONS = 4


def battle_board(rng: random.Random, count: int = 6) -> list[dict[str, Any]]:
    """``count`` units (2..8), alternating sides, each at its own cell of a 2 x 4 half, several able to come back."""
    from .rulebooks.combat.kinds import KINDS
    from .rulebooks.combat.strategies import draw_unit, link_allies

    draw = seeded_draw(rng)
    wanted = frozenset(f for kind in KINDS.values() for f in kind.unit_fields)
    units = []
    for i in range(max(2, min(count, 8))):
        unit = draw_unit(draw, i % 3, wanted)
        unit.update(uid=f"u{i}", side=i % 2, row=(i // 2) // 4, col=(i // 2) % 4, redirect_to=None, intercept_by=None)
        _comes_back(rng, unit)
        units.append(unit)
    link_allies(draw, units, wanted)
    return units


def _comes_back(rng: random.Random, unit: dict[str, Any]) -> None:
    """Half the living units can come back from a death: Everlasting, Vessels, a defy-death rune (500.9, 500.4d)."""
    if not unit["alive"] or rng.random() < 0.5:
        return
    way = rng.choice(("everlasting", "vessels", "defy_death", "interest_payer"))
    if way == "everlasting":
        unit["everlasting"] = True
    elif way == "vessels":
        unit["vessels"] = rng.randint(1, 3)
    elif way == "defy_death":
        unit.update(defy_death=True, vessels=1)
    else:
        unit.update(bolster=rng.randint(1, 5), momentum=rng.randint(1, 5))


def battle_actions(rng: random.Random, units: list[dict[str, Any]], count: int) -> Iterator[dict[str, Any]]:
    """``count`` actions, drawn one at a time (a million are drawn without holding them), ending the combat."""
    from .rulebooks.combat.kinds import KINDS

    draw = seeded_draw(rng)
    kinds = [k for k, w in BATTLE_WEIGHTS.items() for _ in range(w)]
    for i in range(count - 1):
        kind = rng.choice(kinds)
        if kind == "advance":
            yield {"kind": "advance", "ms": rng.choice(ADVANCE_MS), "rows": 2, "cols": 4}
            continue
        action = KINDS[kind].draw(draw, units)
        align = action.pop("_align", None) or {}
        action.pop("_then", None)
        if i < ALIGNED_ACTIONS:
            _align(units, align)
        yield action
    yield {"kind": "end_combat"}


def _align(units: list[dict[str, Any]], align: dict[str, dict[str, Any]]) -> None:
    for unit in units:
        unit.update({k: v for k, v in align.get(unit["uid"], {}).items() if k not in ("side", "row", "col")})


def battle(seed: int, actions: int, units: int = 6) -> dict[str, Any]:
    """One battle scenario (JSON): reproducible from its seed, ``actions`` long."""
    rng = random.Random(seed)
    board = battle_board(rng, units)
    return {"protocol": PROTOCOL, "ruleset": {}, "board": board, "actions": list(battle_actions(rng, board, actions))}
