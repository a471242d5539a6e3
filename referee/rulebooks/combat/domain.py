"""The input domain of a combat scenario: exactly the units the theorems are proved for.

The conditions are declared once, in :data:`referee.proofs.combat.assumptions.UNIT_DOMAIN`
(the theorems assume their conjunction); the loader rejects a unit outside them with the
field and the condition, so a scenario the harness accepts is one the proofs cover. Besides
those, a redirect or an interceptor must name an ally other than the unit itself: the
generator draws nothing else, and the model would silently ignore such a link (``get_ally``),
which hides a mistake in a hand-written scenario. A cycle of redirects between allies stays
legal: the generator draws it and the model defines it (a redirected instance is never
redirected again: ``instance.redirected``).
"""

from __future__ import annotations

from referee.model.combat.state import Board
from referee.proofs.combat.assumptions import UNIT_DOMAIN, unit_domain_violation

from ...wire import ProtocolError

#: The links that must name an ally other than the unit itself.
ALLY_LINKS = ("redirect_to", "intercept_by")


def check_board_domain(path: str, board: Board) -> None:
    """Raise a :class:`ProtocolError` naming the field of the first unit outside the domain."""
    for i, unit in enumerate(board.units):
        broken = unit_domain_violation(unit)
        if broken is not None:
            value = getattr(unit, broken.field)
            raise ProtocolError(f"{path}[{i}].{broken.field}", f"{broken.says} (got {value!r}; outside the domain "
                                f"the theorems assume, referee.proofs.combat.assumptions)")
        for link in ALLY_LINKS:
            target = getattr(unit, link)
            if target is None:
                continue
            if target == unit.uid:
                raise ProtocolError(f"{path}[{i}].{link}", f"a unit cannot name itself ({target!r})")
            if board.unit(target).side != unit.side:
                raise ProtocolError(f"{path}[{i}].{link}", f"{target!r} is an enemy: it must name an ally")


def domain_conditions() -> list[str]:
    """The domain in words (for the protocol docs)."""
    return [f"{c.field} {c.says}" for c in UNIT_DOMAIN] + [f"{link} names an ally, not the unit itself"
                                                          for link in ALLY_LINKS]
