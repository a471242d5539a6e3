"""The ``armor_debuff`` action (500.2e): everything the harness needs for it, in one file.

Crush and Repossess lower Armor, past 0 if need be; Piercing Roar and Crippling Scream
affect Power and Speed, never Armor. The kind emits no event. This file is the pattern a
new action kind follows: its JSON fields (decoder and schema), the model entry, the
Hypothesis draw aimed at its boundaries, and its vector templates.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat import armor
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog
from referee.proofs.combat.symbolic import symbolic_unit
from referee.proofs.core import Vars

from ....rulebook import ActionKind, Field
from ..strategies import pick
from ..templates import Template

DEBUFFS = armor.ARMOR_SHREDDING_DEBUFFS + armor.NON_ARMOR_DEBUFFS


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: the debuff lands on its target (500.2e)."""
    target = board.unit(action["target"])
    return board.with_unit(armor.apply_armor_debuff(target, action["debuff"], action["amount"])), EventLog()


_COIN = st.booleans()
_DEBUFF = st.sampled_from(DEBUFFS)
_ANY_AMOUNT = st.integers(-5, 60)
#: Which of the near amounts (an index: a sampled_from built at each draw cost more than the draw, the same choice).
_NEAR_AT = st.sampled_from(range(5))


def draw(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A debuff aimed at driving Armor exactly to 0, just past it, or leaving it alone (500.2e)."""
    target = pick(draw, units)
    armor_now = target["armor"]
    near = (armor_now, armor_now + 1, armor_now - 1, 0, -3)
    amount = near[draw(_NEAR_AT)] if draw(_COIN) else draw(_ANY_AMOUNT)
    return {"kind": "armor_debuff", "target": target["uid"], "debuff": draw(_DEBUFF), "amount": amount}


def templates() -> list[Template]:
    """One template per debuff: a lone unit, its Armor and the amount left to Z3."""
    out = []
    for debuff in DEBUFFS:

        def build(v: Vars, debuff: str = debuff) -> tuple[Board, dict[str, Any]]:
            a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
            action = {"kind": "armor_debuff", "target": "a", "debuff": debuff, "amount": v.int("action.amount")}
            return Board((a,)), action

        out.append(Template(f"armor_debuff/{debuff}", build))
    return out


KINDS = (
    ActionKind(
        name="armor_debuff",
        summary="A debuff landing on one unit (500.2e): Crush and Repossess lower Armor past 0; "
        "Piercing Roar and Crippling Scream leave Armor alone. Emits no event.",
        chapters=("combat:500.2",),
        fields=(
            Field("target", "unit", "uid of the unit debuffed"),
            Field("debuff", DEBUFFS, "which debuff"),
            Field("amount", "integer", "the debuff's amount (a negative one lowers nothing)"),
        ),
        run=run,
        draw=draw,
        unit_fields=("armor",),
        rulebook="combat",
        extra={"templates": templates},
    ),
)
