"""Shared assumptions of the theorems: what a legal unit looks like.

A theorem quantifies over every state, so it must rule out states the game never reaches
(a negative Shield pool, a living unit at 0 Vitality). Each condition here is one the
model relies on and does not check itself; where the model clamps a value on its own (a
Shield multiplier below 1, a negative cap or redirect cap) the value is left free, so
the theorems cover those inputs too.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, ite, not_
from referee.model.combat.state import Board, Unit

#: Counters and pools that never go below 0 in a reachable state.
NON_NEGATIVE_FIELDS = (
    "shield", "insurance", "subrogated", "ignore_charges", "vessels", "adrenaline", "momentum", "bolster",
    "thorns", "riposte", "retort", "rune_tick_reduction", "forge_tick_reduction",
    "maim", "forge_core_recovery", "exalt",
)  # fmt: skip


def is_well_formed_unit(u: Unit) -> Any:
    """A legal unit: pools non-negative, Vitality in ``(0, max]`` while alive and 0 once dead, one role at most."""
    counts = [getattr(u, name) >= 0 for name in NON_NEGATIVE_FIELDS]
    roles = [
        not_(and_(u.is_tool, u.is_hub)),
        not_(and_(u.is_tool, u.is_boss)),
        not_(and_(u.is_hub, u.is_boss)),
    ]
    life = ite(u.alive, and_(u.vitality > 0, u.vitality <= u.max_vitality), u.vitality == 0)
    return and_(*counts, *roles, life, u.max_vitality > 0)


def is_well_formed_board(board: Board) -> Any:
    """Every unit on the board is legal."""
    return and_(*[is_well_formed_unit(u) for u in board.units])
