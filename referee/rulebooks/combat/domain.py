"""The legal states of a combat scenario, held at the door: exactly the states the theorems are proved for.

The definition is the model's, :mod:`referee.model.combat.legal` (the theorems assume it and prove every
action keeps it); the loader refuses a board or an action outside it with the unit, the field and the
clause. A cycle of redirects between allies stays legal: the generator draws it and the model defines it
(a redirected instance is never redirected again: ``instance.redirected``).
"""

from __future__ import annotations

from typing import Any

from referee.model.combat import legal
from referee.model.combat.state import Board

from ...wire import ProtocolError

#: The action kinds whose action names one damage instance (its lane and source).
DAMAGE_ACTION_KINDS = ("damage", "hit")


def check_board_domain(path: str, board: Board) -> None:
    """Raise a :class:`ProtocolError` naming the unit, the field and the clause of the first illegal field."""
    broken = legal.board_violation(board)
    if broken is not None:
        index = int(broken.where[1:broken.where.index("]")])
        raise ProtocolError(f"{path}{broken.where}", f"unit {board.units[index].uid!r}: {broken.says} "
                            f"({broken.clause}; not a legal state, referee.model.combat.legal)")


def check_action_domain(path: str, action: dict[str, Any], board: Board) -> None:
    """Raise a :class:`ProtocolError` naming the field and the clause of an illegal damage action on ``board``.

    Checked against the scenario's board: a unit dead there stays dead through the whole scenario (a battle
    starts with no revival pending, and a Vessel revives only at a death), so it never acts in it.
    """
    if action.get("kind") == "bloodletting":  # each hit is the caster's (800.4a): its source is the caster
        for i, hit in enumerate(action["hits"]):
            broken = legal.damage_action_violation(board, {**hit, "source": action["caster"]})
            if broken is not None:
                raise ProtocolError(f"{path}.hits[{i}].damage_kind", f"the caster {action['caster']!r} is this hit's "
                                    f"actor: {broken.says} ({broken.clause}; not a legal action)")
        return
    if action.get("kind") not in DAMAGE_ACTION_KINDS:
        return
    broken = legal.damage_action_violation(board, action)
    if broken is not None:
        raise ProtocolError(f"{path}{broken.where}", f"{broken.says} ({broken.clause}; not a legal action, "
                            f"referee.model.combat.legal)")


def domain_conditions() -> list[str]:
    """The domain in words (for the protocol docs)."""
    return ([f"{c.field} {c.says} ({c.clause})" for c in legal.UNIT_DOMAIN]
            + [f"{link} names an ally on the board, not the unit itself" for link in legal.ALLY_LINKS]
            + [f"every unit stands on side 0 or 1, row 0..{legal.MAX_ROWS - 1}, col 0..{legal.MAX_COLS - 1} (INT-403)"]
            + [f"a damage or hit action: {c.says} ({c.clause})" for c in legal.DAMAGE_ACTION_DOMAIN])
