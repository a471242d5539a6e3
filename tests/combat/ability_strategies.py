"""Hypothesis strategies for abilities: lines in random lanes, counts that reach 0 when they resolve, targets that die.

Reusable by the harness (``referee/check/strategies``) when the ``ability`` action kind joins the protocol.
"""

from __future__ import annotations

from hypothesis import strategies as st

from referee.model.combat.ability_text import (
    CONDITIONS,
    EFFECTS,
    LANES,
    PER_COUNTS,
    RECIPIENTS,
    Ability,
    Amount,
    Line,
)
from referee.model.combat.state import Board, Unit


@st.composite
def lines(draw) -> Line:
    """One printed line: any keyword, lane, recipient; sometimes a per count or a condition; sometimes a Passive."""
    effect = draw(st.sampled_from(EFFECTS))
    kind = draw(st.sampled_from(("keyword", "rider", "rider", "conditional_rider", "passive")))
    condition = draw(st.sampled_from(CONDITIONS)) if kind == "conditional_rider" else None
    amount = Amount(0, "power") if draw(st.booleans()) else Amount(draw(st.integers(-2, 40)))
    per = draw(st.none() | st.sampled_from(PER_COUNTS))
    lane = draw(st.none() | st.sampled_from(LANES))
    return Line(effect, amount, kind, lane, draw(st.sampled_from(RECIPIENTS)), per, condition)


@st.composite
def abilities(draw) -> Ability:
    return Ability(tuple(draw(st.lists(lines(), min_size=1, max_size=5))), (("power", draw(st.integers(0, 60))),))


@st.composite
def ability_boards(draw) -> Board:
    """A caster ``c`` and an ally on side 0, two or three enemies on side 1, often low enough to die, some Burning."""
    def unit(uid: str, side: int, col: int) -> Unit:
        vitality = draw(st.integers(1, 100))
        return Unit(
            uid, side=side, col=col, vitality=vitality, max_vitality=draw(st.integers(vitality, 100)),
            alive=True, burn=draw(st.sampled_from((0, 0, 2))), venom=draw(st.sampled_from((0, 0, 1))),
            maim=draw(st.sampled_from((0, 0, 3))), armor=draw(st.sampled_from((0, 0, 25, 81))),
            entrapped=draw(st.sampled_from((False, False, False, True))),
            untargetable=draw(st.sampled_from((False, False, False, True))),
            bloodletting_reduction=0,
        )

    enemies = draw(st.integers(2, 3))
    units = [unit("c", 0, 0), unit("a", 0, 1)] + [unit(f"t{i}", 1, i) for i in range(enemies)]
    return Board(tuple(units))
