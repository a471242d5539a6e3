"""500.1f, 500.1g, 500.1-11 Redirects: damage moved to an ally, landing as its own instance.

Two redirects exist. The lethal-damage redirect (500.1f) moves a whole lethal hit to the
interceptor before mitigation. The ally redirect (500.1-11) moves part of what Shield left
to the redirector. Either way the moved damage lands as the receiver's own instance
(500.1g) and is never redirected again (INT-009).

Which unit receives is structure (a uid on the recipient), decided concretely; whether it
can receive (alive, not a Tool or Hub, not shut by Dormancy) is a condition, which may be
symbolic.
"""

from __future__ import annotations

from ..arith import and_, max_, min_, not_, or_
from ..clauses import combat
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit
from .ticks import is_damage_over_time


@combat.implements("500.1f", "500.1-11")
def get_ally(board: Board, recipient: Unit, uid: str | None) -> Unit | None:
    """The ally named by a redirect: on the board, on the recipient's side, not the recipient."""
    if uid is None or uid == recipient.uid or not board.has(uid):
        return None
    ally = board.unit(uid)
    return ally if ally.side == recipient.side else None


@combat.implements("500.1-1", "500.1-2", "500.1i")
def is_reachable(unit: Unit, kind: str, allows_dormant: Bool) -> Bool:
    """A living unit that is no Tool or Hub and not shut by Dormancy for this kind (500.1-1, 500.1-2)."""
    dormancy_shuts = and_(unit.dormant, not_(or_(allows_dormant, is_damage_over_time(kind))))
    return and_(unit.alive, not_(unit.discards_combat), not_(dormancy_shuts))


@combat.implements("500.1-11")
def compute_redirected(remaining: Int, cap: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """What the ally redirect moves: up to the cap, or what exceeds the cap (500.1-11, INT-003)."""
    cap = max_(cap, 0)
    return by_reading(
        ruleset.redirect_cap_moves,
        up_to_cap=lambda: min_(remaining, cap),
        excess_over_cap=lambda: max_(remaining - cap, 0),
    )
