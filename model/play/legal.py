"""What a legal play state is: one definition, for the pool and every game object.

A legal state is one a game can reach. The play theorems assume it (and prove that playing a
card and activating an ability keep it: ``proofs/play/legality_theorems.py``), the scenario
decoder refuses anything outside it by field and clause (``referee/rulebooks/play/codec.py``),
the generator draws only inside it, and a play query searches inside it. Each condition is a
small predicate over ints or Z3 terms (written with :mod:`referee.model.arith`) citing the
clause it rests on.

Worked example: a unit ``{"zone": "board", "location": 3}`` in a state of three locations
breaks ``location must name one of the board's locations`` (355.2: a unit enters at a valid
location, 359.2.c: and stays there); the same unit in the hand may carry any location >= 0,
which no rule reads there (PLAY-010).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..arith import and_, or_
from .state import BOARD, DOMAINS, RUNE_DECK, GameObject, PlayState, Pool


@dataclass(frozen=True)
class PlayCondition:
    """One condition of a legal object: the field it is reported on, what it says, the clause it rests on, and
    the predicate over the object and the state it stands in."""

    field: str
    says: str
    holds: Callable[[PlayState, GameObject], Any]
    clause: str


def is_pool_legal(pool: Pool) -> Any:
    """A pool never holds less than nothing: Energy and each domain's Power are >= 0 (357.1: a cost is paid out
    of the pool, and a payment the pool cannot cover is not made)."""
    return and_(pool.energy >= 0, *(p >= 0 for p in pool.power))


def is_on_a_board_location(state: PlayState, obj: GameObject) -> Any:
    """An object on the board stands at one of its locations, ``0 .. location_count - 1`` (355.2, 359.2.c)."""
    return or_(obj.zone != BOARD, obj.location < state.location_count)


#: The conditions of a legal object, in the order a violation is reported.
OBJECT_DOMAIN: tuple[PlayCondition, ...] = (
    PlayCondition("zone", "must be one of the zones", lambda s, o: and_(o.zone >= 0, o.zone <= RUNE_DECK), "354"),
    PlayCondition("location", "must be >= 0", lambda s, o: o.location >= 0, "355.2"),
    PlayCondition("location", "must name one of the board's locations (below location_count) while on the board",
                  is_on_a_board_location, "355.2"),
)


def is_legal_object(state: PlayState, obj: GameObject) -> Any:
    """Every condition of :data:`OBJECT_DOMAIN` on one object of ``state``."""
    return and_(*[c.holds(state, obj) for c in OBJECT_DOMAIN])


def is_legal_play_state(state: PlayState) -> Any:
    """A legal play state: a pool of no negative part and every object legal where it stands (357.1, 354, 355.2).
    Identity, kind, controller and domain are structure, checked when the state is built."""
    return and_(is_pool_legal(state.pool), *(is_legal_object(state, o) for o in state.objects))


@dataclass(frozen=True)
class PlayViolation:
    """Where a concrete play state breaks the definition: the path below the state, what it says, the clause."""

    where: str
    says: str
    clause: str


def pool_violation(pool: Pool) -> PlayViolation | None:
    """The first negative part of a concrete pool, or None (357.1)."""
    if pool.energy < 0:
        return PlayViolation("pool.energy", f"must be >= 0, got {pool.energy}", "357.1")
    for domain, amount in zip(DOMAINS, pool.power):
        if amount < 0:
            return PlayViolation(f"pool.power.{domain}", f"must be >= 0, got {amount}", "357.1")
    return None


def play_state_violation(state: PlayState) -> PlayViolation | None:
    """The first condition a concrete play state breaks, or None: the pool, then each object in order."""
    broken = pool_violation(state.pool)
    if broken is not None:
        return broken
    for i, obj in enumerate(state.objects):
        for condition in OBJECT_DOMAIN:
            if condition.holds(state, obj) is not True:
                got = getattr(obj, condition.field)
                return PlayViolation(f"objects[{i}].{condition.field}",
                                     f"{obj.oid!r}: {condition.field} {condition.says}, got {got}", condition.clause)
    return None
