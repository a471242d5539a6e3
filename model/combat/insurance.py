"""500.1-8, 500.1-9, 500.1a Insurance: points that absorb up to 25 each, spent whole.

Insurance meets what Armor and the cap left (500.1a). Each point absorbs up to 25, a point
is spent whole even against less, and one instance may spend several. Subrogated points go
first; plain points take whatever the Subrogated ones did not absorb.

Worked example: 60 damage into 2 Subrogated and 5 plain points. The Subrogated points need
``ceil(60/25) = 3`` but only 2 exist: 2 spent, 50 absorbed. The plain points meet the other
10: ``ceil(10/25) = 1`` spent, 10 absorbed. Nothing carries on into Shield.
"""

from __future__ import annotations

from ..arith import ceildiv, max_, min_
from ..clauses import combat
from .state import Int

#: The most one Insurance point absorbs (500.1-8, 500.1-9, 500.1a).
POINT_ABSORBS = 25


@combat.implements("500.1-8", "500.1-9", "500.1a")
def compute_points_spent(points: Int, damage: Int) -> Int:
    """Points spent on ``damage``: one per 25 or part of 25, as many as there are (500.1a)."""
    return min_(max_(points, 0), ceildiv(damage, POINT_ABSORBS))


@combat.implements("500.1-8", "500.1-9", "500.1a")
def compute_points_absorbed(damage: Int, spent: Int) -> Int:
    """Damage absorbed by ``spent`` points: up to 25 each, never more than arrived (500.1a)."""
    return min_(damage, POINT_ABSORBS * spent)
