"""The seed's example cards, written as data, and a small builder for play states.

These are the worked examples the seed quotes (004, rules 356.4.c, 356.7, 357.2, 414.4,
416.3); the tests, the docs and the benchmark all use them, so each example is written once.
"""

from __future__ import annotations

from .cost import CostComponent, Discount, NonStandardCost, ResourceCost
from .process import Ability, CardText, Effect
from .state import BOARD, HAND, TRASH, GameObject, PlayState, Pool, zero_power

#: Ezreal, Prodigy: "optional additional costs you pay cost [1] or [A] less" (356.4.c).
EZREAL_PRODIGY = Discount(energy=1, power=1, either=True, applies_to="optional_additional")

#: A spell with an optional additional cost, the shape of the seed's Frigid Touch (356.4.c, 355.1.a).
#: The numbers are ours: the seed gives the card's name, not its cost (PLAY-013).
FRIGID_TOUCH = CardText(
    cost=CostComponent(ResourceCost.of(2)),
    additional=(CostComponent(ResourceCost.of(any_power=1), optional=True),),
)

#: "As an additional cost to play me, kill a friendly unit." (356.7)
KILL_A_FRIENDLY_UNIT = CardText(
    cost=CostComponent(ResourceCost.of(1)),
    additional=(CostComponent(nonstandard=(NonStandardCost("kill_friendly_unit"),)),),
)

#: "As an additional cost to play me, kill a friendly unit and discard a unit." (357.2)
KILL_AND_DISCARD = CardText(
    cost=CostComponent(ResourceCost.of(1)),
    additional=(
        CostComponent(nonstandard=(NonStandardCost("kill_friendly_unit"), NonStandardCost("discard_unit"))),
    ),
)

#: "As an additional cost to play this, you may exhaust a friendly unit." (414.4)
MAY_EXHAUST_A_FRIENDLY_UNIT = CardText(
    cost=CostComponent(ResourceCost.of(1)),
    additional=(CostComponent(nonstandard=(NonStandardCost("exhaust_friendly_unit"),), optional=True),),
)

#: Vi, Destructive: "Recycle 1 from your trash: Give me +1 [M] this turn." (416.3)
VI_DESTRUCTIVE = Ability(
    CostComponent(nonstandard=(NonStandardCost("recycle_from_trash", 1),)), Effect("buff_might", 1), name="vi"
)


def make_state(
    *objects: GameObject, energy: int = 0, power: tuple[int, ...] | None = None, location_count: int = 3
) -> PlayState:
    """A play state for player 0 with the given pool and objects."""
    return PlayState(Pool(energy, power if power is not None else zero_power()), tuple(objects), 0, location_count)


def unit(oid: str, zone: int = BOARD, *, exhausted: bool = False, controller: int = 0, location: int = 0) -> GameObject:
    """A unit (on the board unless another zone is given)."""
    return GameObject(oid, "unit", controller, "fury", zone, location, exhausted)


def rune(oid: str, domain: str = "fury", *, exhausted: bool = False) -> GameObject:
    """A Basic Rune on the board."""
    return GameObject(oid, "rune", 0, domain, BOARD, 0, exhausted)


def card(oid: str, kind: str = "unit", zone: int = HAND, controller: int = 0) -> GameObject:
    """A card (in hand unless another zone is given)."""
    return GameObject(oid, kind, controller, "mind", zone)


def trash_card(oid: str) -> GameObject:
    """A spell card in its controller's trash."""
    return card(oid, "spell", TRASH)
