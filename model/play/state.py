"""The play state: one player's resources, the game objects the seed names, and their zones.

Everything is immutable. Identity and kind (``oid``, ``kind``, ``controller``,
``domain``) are concrete structure; an object's zone, location, readiness and Might
bonus are numbers and flags, so they may be Z3 terms and the same rule functions run
on symbols (see :mod:`referee.model.arith`). A zone is therefore a small integer code
rather than a list the object sits in: "move the card to the Chain" (354) is
``zone := CHAIN``, and "the trash is empty" is "no object of the player has
``zone == TRASH``". Order inside a zone is not modelled: no rule of the seed reads it
(PLAY-009).

Energy is one number; Power is one number per domain (PLAY-001). Costs name Power of
a domain or Power of any domain (``[A]``); a Basic Rune adds Power of its own domain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.model.arith import and_, ite, not_

Int = Any  # an int, or a Z3 integer term in a symbolic run
Bool = Any  # a bool, or a Z3 Boolean term in a symbolic run

#: The six domains; Power is counted per domain (PLAY-001).
DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")

#: Zone codes. The board holds units and runes at a location; the chain holds what is being played.
HAND, CHAIN, BOARD, TRASH, MAIN_DECK, RUNE_DECK = range(6)
ZONE_NAMES = ("hand", "chain", "board", "trash", "main_deck", "rune_deck")

#: Object kinds the seed names.
KINDS = ("unit", "spell", "rune", "gear")


def zero_power() -> tuple[int, ...]:
    """No Power of any domain."""
    return (0,) * len(DOMAINS)


def domain_index(domain: str) -> int:
    """Position of a domain in :data:`DOMAINS` (raises on an unknown name)."""
    try:
        return DOMAINS.index(domain)
    except ValueError:
        raise ValueError(f"unknown domain {domain!r} (known: {', '.join(DOMAINS)})") from None


@dataclass(frozen=True, slots=True)
class GameObject:
    """A card or rune: what it is (concrete) and where and how it is (may be symbolic)."""

    oid: str
    kind: str = "unit"
    controller: int = 0
    domain: str = "fury"
    zone: Int = HAND
    location: Int = 0
    exhausted: Bool = False
    might_bonus: Int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"object {self.oid!r}: unknown kind {self.kind!r} (known: {', '.join(KINDS)})")
        if self.domain not in DOMAINS:
            raise ValueError(f"object {self.oid!r}: unknown domain {self.domain!r} (known: {', '.join(DOMAINS)})")


@dataclass(frozen=True, slots=True)
class Pool:
    """A player's available resources: Energy and Power per domain (164, 357.1)."""

    energy: Int = 0
    power: tuple[Int, ...] = (0, 0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.power) != len(DOMAINS):
            raise ValueError(f"a pool holds Power for {len(DOMAINS)} domains, got {len(self.power)}")


@dataclass(frozen=True, slots=True)
class PlayState:
    """What the play rules read and change: the acting player's pool and the game objects."""

    pool: Pool
    objects: tuple[GameObject, ...]
    player: int = 0
    #: Board locations are numbered ``0 .. location_count - 1`` (0 is the base).
    location_count: int = 3

    def __post_init__(self) -> None:
        oids = [o.oid for o in self.objects]
        if len(set(oids)) != len(oids):
            raise ValueError(f"duplicate object id in the play state: {sorted(oids)}")

    def get(self, oid: str) -> GameObject:
        """The object with this id (raises ``KeyError`` naming it)."""
        for o in self.objects:
            if o.oid == oid:
                return o
        raise KeyError(f"no object with id {oid!r} in the play state")

    def has(self, oid: str) -> bool:
        return any(o.oid == oid for o in self.objects)


def with_object(state: PlayState, obj: GameObject) -> PlayState:
    """The state with the object of the same id replaced."""
    if any(o is obj for o in state.objects):
        return state
    return replace(state, objects=tuple(obj if o.oid == obj.oid else o for o in state.objects))


def with_pool(state: PlayState, pool: Pool) -> PlayState:
    """The state with a new pool."""
    return replace(state, pool=pool)


def select_pool(condition: Bool, then: Pool, otherwise: Pool) -> Pool:
    """``then`` if ``condition`` else ``otherwise``, field by field."""
    if isinstance(condition, bool):
        return then if condition else otherwise
    return Pool(
        energy=ite(condition, then.energy, otherwise.energy),
        power=tuple(ite(condition, a, b) for a, b in zip(then.power, otherwise.power)),
    )


def select_object(condition: Bool, then: GameObject, otherwise: GameObject) -> GameObject:
    """``then`` if ``condition`` else ``otherwise`` for two versions of one object."""
    if then is otherwise:
        return then
    if isinstance(condition, bool):
        return then if condition else otherwise
    return replace(
        then,
        zone=ite(condition, then.zone, otherwise.zone),
        location=ite(condition, then.location, otherwise.location),
        exhausted=ite(condition, then.exhausted, otherwise.exhausted),
        might_bonus=ite(condition, then.might_bonus, otherwise.might_bonus),
    )


def select_state(condition: Bool, then: PlayState, otherwise: PlayState) -> PlayState:
    """``then`` if ``condition`` else ``otherwise`` for two versions of one state."""
    if then is otherwise:
        return then
    if isinstance(condition, bool):
        return then if condition else otherwise
    return replace(
        then,
        pool=select_pool(condition, then.pool, otherwise.pool),
        objects=tuple(select_object(condition, a, b) for a, b in zip(then.objects, otherwise.objects)),
    )


def is_friendly(state: PlayState, obj: GameObject) -> bool:
    """Whether the acting player controls the object (concrete: control is structure)."""
    return obj.controller == state.player


def is_in_zone(obj: GameObject, zone: int) -> Bool:
    """Whether the object is in the zone."""
    return obj.zone == zone


def is_ready(obj: GameObject) -> Bool:
    """Whether the object is on the board and not exhausted."""
    return and_(is_in_zone(obj, BOARD), not_(obj.exhausted))


def count_in_zone(state: PlayState, zone: int) -> Int:
    """How many of the acting player's objects are in the zone."""
    total: Int = 0
    for o in state.objects:
        if is_friendly(state, o):
            total = total + ite(is_in_zone(o, zone), 1, 0)
    return total


def states_equal(a: PlayState, b: PlayState) -> Bool:
    """Field-by-field equality of two versions of one state (a Z3 Boolean in a symbolic run)."""
    parts: list[Bool] = [a.pool.energy == b.pool.energy]
    parts += [x == y for x, y in zip(a.pool.power, b.pool.power)]
    for x, y in zip(a.objects, b.objects):
        parts += [
            x.zone == y.zone,
            x.location == y.location,
            x.exhausted == y.exhausted,
            x.might_bonus == y.might_bonus,
        ]
    return and_(*parts)
