"""Scenarios for the play theorems: a fixed cast of objects whose zones, flags and numbers are variables.

Structure is concrete (which objects exist, what kind, who controls them, their domain);
everything the rules read as a number or a flag is a :class:`~referee.proofs.core.Vars`
variable, so one theorem covers every zone assignment, readiness, pool and cost. The same
builders run on concrete values when a counterexample is replayed.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_
from referee.model.play.cost import CostComponent, Discount, Modifiers, NonStandardCost, ResourceCost
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import CardText, Choices
from referee.model.play.state import DOMAINS, GameObject, PlayState, Pool
from referee.proofs.core import Vars

#: The cast: (id, kind, controller, domain). Player 0 acts; ``foe`` belongs to the opponent.
CAST = (
    ("card", "unit", 0, "fury"),
    ("rune_a", "rune", 0, "fury"),
    ("rune_b", "rune", 0, "calm"),
    ("ally", "unit", 0, "fury"),
    ("foe", "unit", 1, "fury"),
    ("hand_unit", "unit", 0, "mind"),
    ("trash_card", "spell", 0, "mind"),
)

LOCATION_COUNT = 3


class Prefixed:
    """The variables of one copy of a scenario: every name gets ``prefix/``.

    A theorem that quantifies over several payment plans gives each plan its own copy of
    the scenario: the claims are then independent and Z3 decides them one by one instead
    of case-splitting over their shared terms (measured: 3 plans on one shared state took
    12M rlimit, on three copies about 0.3M).
    """

    def __init__(self, v: Vars, prefix: str) -> None:
        self.v, self.prefix = v, prefix

    def int(self, name: str) -> Any:
        return self.v.int(f"{self.prefix}/{name}")

    def bool(self, name: str) -> Any:
        return self.v.bool(f"{self.prefix}/{name}")


def symbolic_object(v: Vars, oid: str, kind: str, controller: int, domain: str) -> GameObject:
    """An object whose zone, location, readiness and Might bonus are variables."""
    return GameObject(
        oid=oid,
        kind=kind,
        controller=controller,
        domain=domain,
        zone=v.int(f"{oid}.zone"),
        location=v.int(f"{oid}.location"),
        exhausted=v.bool(f"{oid}.exhausted"),
        might_bonus=v.int(f"{oid}.might_bonus"),
    )


def symbolic_pool(v: Vars, prefix: str = "pool") -> Pool:
    """A pool whose Energy and per-domain Power are variables."""
    return Pool(energy=v.int(f"{prefix}.energy"), power=tuple(v.int(f"{prefix}.{d}") for d in DOMAINS))


def symbolic_state(v: Vars, cast: tuple[tuple[str, str, int, str], ...] = CAST) -> PlayState:
    """The cast in a play state with a variable pool."""
    objects = tuple(symbolic_object(v, *entry) for entry in cast)
    return PlayState(pool=symbolic_pool(v), objects=objects, location_count=LOCATION_COUNT)


def symbolic_cost(v: Vars, prefix: str) -> ResourceCost:
    """A resource cost whose every part is a variable."""
    return ResourceCost(
        energy=v.int(f"{prefix}.energy"),
        power=tuple(v.int(f"{prefix}.{d}") for d in DOMAINS),
        any_power=v.int(f"{prefix}.any"),
    )


def is_well_formed_cost(cost: ResourceCost) -> Any:
    """Printed costs, increases: no negative part."""
    return and_(cost.energy >= 0, cost.any_power >= 0, *(p >= 0 for p in cost.power))


def symbolic_discount(v: Vars, prefix: str, applies_to: str, either: bool) -> Discount:
    """A discount of variable size."""
    return Discount(energy=v.int(f"{prefix}.energy"), power=v.int(f"{prefix}.power"), either=either, applies_to=applies_to)


def is_well_formed_discount(discount: Discount) -> Any:
    """A discount takes off, never adds."""
    return and_(discount.energy >= 0, discount.power >= 0)


def symbolic_card(v: Vars) -> tuple[CardText, Modifiers]:
    """A unit with a variable printed cost, the seed's additional costs, and variable modifiers.

    Additional costs: mandatory "kill a friendly unit and discard a unit" (357.2's example)
    with variable resources; optional "exhaust a friendly unit" (414.4's example) with
    variable resources. Modifiers: one increase, Ezreal's "[1] or [A] less" on optional
    additional costs (356.4.c's example), and two discounts on the whole cost.
    """
    text = CardText(
        cost=CostComponent(symbolic_cost(v, "printed")),
        additional=(
            CostComponent(
                symbolic_cost(v, "mandatory"),
                (NonStandardCost("kill_friendly_unit"), NonStandardCost("discard_unit")),
            ),
            CostComponent(symbolic_cost(v, "optional"), (NonStandardCost("exhaust_friendly_unit"),), optional=True),
        ),
    )
    modifiers = Modifiers(
        increases=(symbolic_cost(v, "increase"),),
        discounts=(
            symbolic_discount(v, "ezreal", "optional_additional", True),
            symbolic_discount(v, "total_a", "total", False),
            symbolic_discount(v, "total_b", "total", True),
        ),
    )
    return text, modifiers


def is_well_formed_card(text: CardText, modifiers: Modifiers) -> Any:
    """No negative cost part, increase or discount."""
    costs = [text.cost.resources, *(c.resources for c in text.additional), *modifiers.increases]
    return and_(*(is_well_formed_cost(c) for c in costs), *(is_well_formed_discount(d) for d in modifiers.discounts))


def symbolic_choices(v: Vars) -> Choices:
    """Pay or skip the optional additional cost; a variable location."""
    return Choices(pay_optional=(True, v.bool("pay_optional")), location=v.int("location"))


#: Payment plans the process theorems quantify over (each is the player's choice in step 4).
PLANS = {
    "runes_then_resources_then_costs": (
        UseRune("rune_a", "exhaust"),
        UseRune("rune_b", "recycle"),
        PayResources(),
        PayCost(0, ("ally",)),
        PayCost(1, ("hand_unit",)),
        PayCost(2, ("ally",)),
    ),
    "costs_first_then_runes": (
        PayCost(2, ("ally",)),
        PayCost(1, ("hand_unit",)),
        PayCost(0, ("ally",)),
        UseRune("rune_a", "exhaust"),
        UseRune("rune_a", "recycle"),
        PayResources(("mind", "body", "order", "calm", "chaos", "fury")),
    ),
    "declines_resources": (
        UseRune("rune_b", "exhaust"),
        PayCost(0, ("foe",)),
        PayCost(1, ("hand_unit",)),
    ),
}
