"""356 Determine total cost: additional costs, then increases, then discounts, never below 0.

A cost has up to three kinds of part (356.7): an Energy cost, a Power cost (Power of a
named domain, or ``[A]``, Power of any domain), and non-standard costs such as "kill a
friendly unit". The total is built in the rule's order (356.2, 356.3, 356.4): start from
the printed cost, add each additional cost the player owes (the mandatory ones and the
optional ones chosen in step 2, 355.1.a), add the increases, then apply the discounts.

A discount that only applies to one component (356.4.c) is applied to that component
alone, at the moment it is added, before any other discount. Worked example (the seed's
Ezreal, Prodigy: "optional additional costs you pay cost [1] or [A] less"): a spell costing
``[2]`` whose optional additional cost ``[A]`` is paid totals ``[2]``: the ``[A]`` is added
already discounted to nothing. Taking the discount off the running total ``[2][A]`` instead
would have taken Energy (the first part of an "or" discount, PLAY-003) and left ``[1][A]``:
a discount meant for one component would have reduced another.

No Energy or Power part is ever reduced below 0 (356.6): every reduction is clamped.
All arithmetic is single source: it runs on ints and on Z3 terms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.model.arith import and_, ite, max_, not_, or_
from referee.model.clauses import play

from .rules import DEFAULT_PLAY_RULES, PlayRules
from .state import Bool, Int, domain_index, zero_power

#: The non-standard costs the seed names (356.7, 357.2, 414.4, 414.5, 416.3, 164.2).
NONSTANDARD_KINDS = (
    "exhaust_this",
    "exhaust_friendly_unit",
    "recycle_this",
    "recycle_from_trash",
    "kill_friendly_unit",
    "discard_unit",
)

#: What a discount may apply to: the whole cost, or one kind of component (356.4.c).
DISCOUNT_TARGETS = ("total", "additional", "optional_additional")


@dataclass(frozen=True, slots=True)
class ResourceCost:
    """The Energy and Power parts of a cost: Energy, Power per domain, and ``[A]`` Power of any domain."""

    energy: Int = 0
    power: tuple[Int, ...] = field(default_factory=zero_power)
    any_power: Int = 0

    @classmethod
    def of(cls, energy: Int = 0, any_power: Int = 0, **domains: Int) -> ResourceCost:
        """A cost written like the card: ``ResourceCost.of(2, fury=1)`` is ``[2][fury]``."""
        power = list(zero_power())
        for name, amount in domains.items():
            power[domain_index(name)] = amount
        return cls(energy=energy, power=tuple(power), any_power=any_power)

    @property
    def total_power(self) -> Int:
        """All the Power this cost asks for, of any domain."""
        total: Int = self.any_power
        for amount in self.power:
            total = total + amount
        return total


ZERO_COST = ResourceCost()


@dataclass(frozen=True, slots=True)
class NonStandardCost:
    """A cost that is a game action, not resources (356.7, 203.1)."""

    kind: str
    count: int = 1

    def __post_init__(self) -> None:
        if self.kind not in NONSTANDARD_KINDS:
            raise ValueError(f"unknown non-standard cost {self.kind!r} (known: {', '.join(NONSTANDARD_KINDS)})")
        if self.count < 1:
            raise ValueError(f"a non-standard cost acts on at least one object, got count {self.count}")


@dataclass(frozen=True, slots=True)
class CostComponent:
    """One component of a total cost: a printed cost or one additional cost (356.2)."""

    resources: ResourceCost = ZERO_COST
    nonstandard: tuple[NonStandardCost, ...] = ()
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Discount:
    """A reduction of Energy and Power; ``either`` takes only one of the two parts (PLAY-003)."""

    energy: Int = 0
    power: Int = 0
    either: bool = False
    applies_to: str = "total"

    def __post_init__(self) -> None:
        if self.applies_to not in DISCOUNT_TARGETS:
            raise ValueError(f"discount applies_to must be one of {DISCOUNT_TARGETS}, got {self.applies_to!r}")
        for name in ("energy", "power"):
            amount = getattr(self, name)
            if isinstance(amount, int) and amount < 0:
                raise ValueError(f"a discount's {name} must be >= 0 (a negative discount is an increase), got {amount}")


@dataclass(frozen=True, slots=True)
class Modifiers:
    """The cost increases and discounts in effect for this play (356.3, 356.4)."""

    increases: tuple[ResourceCost, ...] = ()
    discounts: tuple[Discount, ...] = ()


@dataclass(frozen=True, slots=True)
class OwedCost:
    """A non-standard cost in the total, with whether the player owes it (an unchosen optional one is not owed)."""

    cost: NonStandardCost
    owed: Bool


@dataclass(frozen=True, slots=True)
class TotalCost:
    """The result of step 3: the Energy and Power to pay and the non-standard costs owed (356.7)."""

    resources: ResourceCost
    nonstandard: tuple[OwedCost, ...]


def add_resources(a: ResourceCost, b: ResourceCost) -> ResourceCost:
    """The sum of two resource costs, part by part."""
    return ResourceCost(
        energy=a.energy + b.energy,
        power=tuple(x + y for x, y in zip(a.power, b.power)),
        any_power=a.any_power + b.any_power,
    )


def select_resources(condition: Bool, then: ResourceCost, otherwise: ResourceCost) -> ResourceCost:
    """``then`` if ``condition`` else ``otherwise``, part by part."""
    if isinstance(condition, bool):
        return then if condition else otherwise
    return ResourceCost(
        energy=ite(condition, then.energy, otherwise.energy),
        power=tuple(ite(condition, x, y) for x, y in zip(then.power, otherwise.power)),
        any_power=ite(condition, then.any_power, otherwise.any_power),
    )


@play.implements("356.6")
def compute_reduced(amount: Int, reduction: Int) -> Int:
    """An Energy or Power amount after a reduction, never below 0 (356.6, PLAY-018)."""
    return max_(amount - reduction, 0)


@play.implements("356.6")
def reduce_power(cost: ResourceCost, reduction: Int) -> ResourceCost:
    """Take Power off a cost: its ``[A]`` part first, then each domain in order, none below 0 (356.6, PLAY-004)."""
    left = reduction
    any_power = compute_reduced(cost.any_power, left)
    left = compute_reduced(left, cost.any_power)
    power = []
    for amount in cost.power:
        power.append(compute_reduced(amount, left))
        left = compute_reduced(left, amount)
    return ResourceCost(energy=cost.energy, power=tuple(power), any_power=any_power)


def reduce_energy(cost: ResourceCost, reduction: Int) -> ResourceCost:
    """Take Energy off a cost, never below 0 (356.6)."""
    return ResourceCost(energy=compute_reduced(cost.energy, reduction), power=cost.power, any_power=cost.any_power)


@play.implements("356.4", "356.6")
def apply_discount(cost: ResourceCost, discount: Discount, rules: PlayRules = DEFAULT_PLAY_RULES) -> ResourceCost:
    """One discount: Energy and Power off, each never below 0; an "or" discount takes one part (356.4, 356.6, PLAY-003)."""
    both = reduce_power(reduce_energy(cost, discount.energy), discount.power)
    if not discount.either:
        return both
    energy_only = reduce_energy(cost, discount.energy)
    power_only = reduce_power(cost, discount.power)
    energy_first = select_resources(cost.energy > 0, energy_only, power_only)
    power_first = select_resources(cost.total_power > 0, power_only, energy_only)
    # On symbolic play rules the comparison is a solver term and both readings are joined (model/readings.py).
    return select_resources(rules.either_discount == "energy_first", energy_first, power_first)


@play.implements("356.4.c")
def is_component_discount(discount: Discount, component: CostComponent) -> bool:
    """Whether a discount applies only to this component (356.4.c): each optional cost paid takes its own (PLAY-020)."""
    if discount.applies_to == "additional":
        return True
    return discount.applies_to == "optional_additional" and component.optional


@play.implements("356.4.c", "356.6")
def compute_component_cost(
    component: CostComponent,
    discounts: tuple[Discount, ...],
    rules: PlayRules = DEFAULT_PLAY_RULES,
    taken: tuple[Bool, ...] | None = None,
) -> ResourceCost:
    """An additional cost as it is added, its own discounts applied first and never below 0 (356.4.c, 356.6).

    ``taken`` says, discount by discount, whether an earlier paid component has used it up: read only under
    ``component_discount_scope = once`` (PLAY-020), where a component discount lowers the first component it reaches.
    """
    cost = component.resources
    for index, discount in enumerate(discounts):
        if is_component_discount(discount, component):
            still_open = True if taken is None else or_(rules.component_discount_scope == "each_component",
                                                        not_(taken[index]))
            cost = select_resources(still_open, apply_discount(cost, discount, rules), cost)
    return cost


@play.implements("356.4.c")
def take_component_discounts(
    component: CostComponent, discounts: tuple[Discount, ...], owed: Bool, taken: tuple[Bool, ...]
) -> tuple[Bool, ...]:
    """Which component discounts are used up once this component is added: each one it reached, if it is paid
    (356.4.c, PLAY-020; read only under ``component_discount_scope = once``)."""
    return tuple(or_(was, and_(owed, is_component_discount(discount, component)))
                 for was, discount in zip(taken, discounts))


@play.implements("355.1.a")
def is_owed(component: CostComponent, pay_optional: Bool) -> Bool:
    """A mandatory additional cost is always owed; an optional one only if the player chose to pay it (355.1.a)."""
    return True if not component.optional else pay_optional


@play.implements("356.2", "356.4.c")
def add_additional_costs(
    total: ResourceCost,
    additional: tuple[CostComponent, ...],
    pay_optional: tuple[Bool, ...],
    discounts: tuple[Discount, ...],
    rules: PlayRules = DEFAULT_PLAY_RULES,
) -> tuple[ResourceCost, tuple[OwedCost, ...]]:
    """Add each owed additional cost in any order (356.2, in the model the order listed), discounted as it is
    added (356.4.c): by each component discount it reaches, or (PLAY-020, ``once``) each not yet used up."""
    owed_nonstandard: list[OwedCost] = []
    taken: tuple[Bool, ...] = tuple(False for _ in discounts)
    for component, choice in zip(additional, pay_optional):
        owed = is_owed(component, choice)
        added = compute_component_cost(component, discounts, rules, taken)
        taken = take_component_discounts(component, discounts, owed, taken)
        total = add_resources(total, select_resources(owed, added, ZERO_COST))
        owed_nonstandard += [OwedCost(cost, owed) for cost in component.nonstandard]
    return total, tuple(owed_nonstandard)


@play.implements("356.3")
def apply_increases(total: ResourceCost, increases: tuple[ResourceCost, ...]) -> ResourceCost:
    """Add every cost increase, after the additional costs (356.3)."""
    for increase in increases:
        total = add_resources(total, increase)
    return total


@play.implements("356.4", "356.6")
def apply_discounts(
    total: ResourceCost, discounts: tuple[Discount, ...], rules: PlayRules = DEFAULT_PLAY_RULES
) -> ResourceCost:
    """Apply the discounts on the whole cost, after increases, each never below 0, in the order listed (356.4, 356.6,
    PLAY-021)."""
    for discount in discounts:
        if discount.applies_to == "total":
            total = apply_discount(total, discount, rules)
    return total


@play.implements("356.2", "356.3", "356.4", "356.7")
def compute_total_cost(
    printed: CostComponent,
    additional: tuple[CostComponent, ...],
    pay_optional: tuple[Bool, ...],
    modifiers: Modifiers,
    rules: PlayRules = DEFAULT_PLAY_RULES,
) -> TotalCost:
    """Step 3: printed cost, additional costs (356.2), increases (356.3), discounts (356.4); its parts (356.7)."""
    if len(pay_optional) != len(additional):
        raise ValueError(f"one pay/skip choice per additional cost: {len(additional)} costs, {len(pay_optional)} choices")
    total, owed = add_additional_costs(printed.resources, additional, pay_optional, modifiers.discounts, rules)
    total = apply_increases(total, modifiers.increases)
    total = apply_discounts(total, modifiers.discounts, rules)
    printed_owed = tuple(OwedCost(cost, True) for cost in printed.nonstandard)
    return TotalCost(resources=total, nonstandard=printed_owed + owed)

