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

from hypothesis import strategies as st

from ...seeded import seeded_draw
from ...wire import PROTOCOL

#: How often each kind is drawn in a battle (clock actions included: a battle is on the clock).
BATTLE_WEIGHTS = {"hit": 9, "damage": 3, "cost": 5, "tick": 4, "cull": 2, "recover": 5, "ability": 4,
                  "bloodletting": 3, "armor_debuff": 1, "advance": 6}
#: The time an ``advance`` moves on: a tick, a second, a whole revival timer and a bit past it.
ADVANCE_MS = (100, 1_000, 3_300, 10_000, 10_100)
#: Alignments are taken for this many of the first actions only.
ALIGNED_ACTIONS = 4
#: How a living unit may come back from a death (500.9, 500.4d), or build and reset Bolster and Momentum (500.8d).
_COMES_BACK = st.sampled_from((None, None, None, "everlasting", "vessels", "defy_death", "reliquary", "builds"))
_SMALL = st.integers(1, 5)
_ADVANCE = st.sampled_from(ADVANCE_MS)
_KINDS: dict[tuple[str, ...], Any] = {}


def draw_battle_board(draw: Any, count: int = 6) -> list[dict[str, Any]]:
    """``count`` units (2..8), alternating sides, each at its own cell of a 2 x 4 half, several able to come back."""
    from .kinds import KINDS
    from .strategies import draw_unit, link_allies

    wanted = frozenset(f for kind in KINDS.values() for f in kind.unit_fields)
    units = []
    for i in range(max(2, min(count, 8))):
        unit = draw_unit(draw, i % 3, wanted)
        unit.update(uid=f"u{i}", side=i % 2, row=(i // 2) // 4, col=(i // 2) % 4, redirect_to=None, intercept_by=None)
        if unit["alive"]:
            unit.update(_coming_back(draw))
        units.append(unit)
    link_allies(draw, units, wanted)
    return units


def _coming_back(draw: Any) -> dict[str, Any]:
    way = draw(_COMES_BACK)
    return {None: {}, "everlasting": {"everlasting": True, "vessels": 1}, "vessels": {"vessels": draw(_SMALL) % 3 + 1},
            "defy_death": {"defy_death": True, "vessels": 2}, "reliquary": {"reliquary": draw(_SMALL), "vessels": 2},
            "builds": {"bolster": draw(_SMALL), "momentum": draw(_SMALL)}}[way]


def draw_battle_actions(draw: Any, units: list[dict[str, Any]], count: int,
                        kinds: tuple[str, ...] | None = None) -> Iterator[dict[str, Any]]:
    """``count`` actions of ``kinds`` (default: every combat kind), drawn one at a time (a million are drawn
    without holding them), the last an ``end_combat`` when that kind is chosen."""
    from .kinds import KINDS

    choice = _kind_choice(tuple(kinds or KINDS))
    ends = kinds is None or "end_combat" in kinds
    for i in range(count - 1 if ends else count):
        kind = draw(choice)
        if kind == "advance":
            yield {"kind": "advance", "ms": draw(_ADVANCE), "rows": 2, "cols": 4}
            continue
        action = KINDS[kind].draw(draw, units)
        align = action.pop("_align", None) or {}
        action.pop("_then", None)
        if i < ALIGNED_ACTIONS:
            _align(units, align)
        yield action
    if ends:
        yield {"kind": "end_combat"}


def _kind_choice(kinds: tuple[str, ...]) -> Any:
    if kinds not in _KINDS:  # built once per kinds
        weighted = tuple(k for k in kinds for _ in range(BATTLE_WEIGHTS.get(k, 0)))
        _KINDS[kinds] = st.sampled_from(weighted or kinds)
    return _KINDS[kinds]


#: What an alignment may not change on a battle's board: where units stand and whom they link to (the single-action
#: draws move a redirect's receiver to the target's side, which a board of fixed sides cannot follow).
_PLACEMENT = frozenset({"side", "row", "col", "redirect_to", "intercept_by"})


def _align(units: list[dict[str, Any]], align: dict[str, dict[str, Any]]) -> None:
    for unit in units:
        unit.update({k: v for k, v in align.get(unit["uid"], {}).items() if k not in _PLACEMENT})


def draw_battle(draw: Any, count: int, kinds: tuple[str, ...] | None = None, ruleset: dict[str, Any] | None = None,
                units: int = 6, features: frozenset[str] | None = None) -> dict[str, Any]:
    """One battle scenario (JSON), ``count`` actions long, with no feature outside ``features`` (None: all)."""
    from .features import FEATURES, neutralize

    board = draw_battle_board(draw, units)
    actions = list(draw_battle_actions(draw, board, count, kinds))
    scenario = {"protocol": PROTOCOL, "ruleset": dict(ruleset or {}), "board": board, "actions": actions}
    off = frozenset(FEATURES) - features if features is not None else frozenset()
    return neutralize(scenario, off) if off else scenario


def battle(seed: int, actions: int, units: int = 6) -> dict[str, Any]:
    """One battle scenario (JSON): reproducible from its seed, ``actions`` long."""
    return draw_battle(seeded_draw(random.Random(seed)), actions, units=units)
