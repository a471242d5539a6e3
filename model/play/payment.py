"""357 Pay costs: the combined Energy and Power in one payment, and the steps of a payment plan.

Paying is a sequence of choices the player makes in step 4, so the model takes it as a
*payment plan*: a tuple of steps in the order the player takes them (357.2 "in any order";
rune uses may come anywhere among them, PLAY-002).

* :class:`UseRune` uses a Basic Rune's Reaction ability to add resources (357.1.a, 164.2);
* :class:`PayCost` pays the ``index``-th non-standard cost of the total, naming the objects
  it acts on (the unit to kill, the card to discard, the cards to recycle);
* :class:`PayResources` pays the combined Energy and Power cost, once (357.1). ``[A]`` is
  taken from the domains in the order ``any_power_from`` lists them (the player's choice of
  which Power to spend, PLAY-005).

A plan without :class:`PayResources` declines to pay the resources (444.2.a): when any
Energy or Power is owed, the costs were not all paid and the play is undone (358.2, 358.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.model.arith import and_, ite, min_
from referee.model.clauses import play

from .cost import ResourceCost
from .state import DOMAINS, Bool, Int, PlayState, Pool, select_state, with_pool


@dataclass(frozen=True, slots=True)
class UseRune:
    """Use one of a Basic Rune's Reaction abilities during payment (357.1.a): ``exhaust`` or ``recycle``."""

    rune: str
    ability: str

    def __post_init__(self) -> None:
        if self.ability not in ("exhaust", "recycle"):
            raise ValueError(f"a Basic Rune has the abilities 'exhaust' and 'recycle', not {self.ability!r}")


@dataclass(frozen=True, slots=True)
class PayCost:
    """Pay the ``index``-th non-standard cost of the total, on ``targets`` chosen now (357.2, PLAY-014)."""

    index: int
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PayResources:
    """Pay the combined Energy and Power cost; ``[A]`` comes from the domains in this order (357.1)."""

    any_power_from: tuple[str, ...] = DOMAINS

    def __post_init__(self) -> None:
        if sorted(self.any_power_from) != sorted(DOMAINS):
            raise ValueError(f"any_power_from must list every domain once: {', '.join(DOMAINS)}")


Step = UseRune | PayCost | PayResources


def is_nothing_owed(cost: ResourceCost) -> Bool:
    """Whether a resource cost asks for no Energy and no Power."""
    return and_(cost.energy == 0, cost.any_power == 0, *(amount == 0 for amount in cost.power))


@play.implements("444.2.a")
def is_declined_payment_paid(cost: ResourceCost) -> Bool:
    """Choosing not to pay resources leaves the cost unpaid unless nothing was owed (444.2.a, PLAY-017)."""
    return is_nothing_owed(cost)


@play.implements("357.1")
def can_pay_resources(pool: Pool, cost: ResourceCost) -> Bool:
    """Whether the pool covers the Energy, each domain's Power, and ``[A]`` from what Power is left (357.1)."""
    spare: Int = 0
    for have, need in zip(pool.power, cost.power):
        spare = spare + (have - need)
    return and_(
        cost.energy <= pool.energy,
        *(need <= have for have, need in zip(pool.power, cost.power)),
        cost.any_power <= spare,
    )


@play.implements("357.1")
def compute_pool_after_payment(pool: Pool, cost: ResourceCost, any_power_from: tuple[str, ...]) -> Pool:
    """The pool after paying the combined cost in one payment; ``[A]`` taken domain by domain (357.1, PLAY-005)."""
    power = [have - need for have, need in zip(pool.power, cost.power)]
    left = cost.any_power
    for domain in any_power_from:
        i = DOMAINS.index(domain)
        taken = min_(left, power[i])
        power[i] = power[i] - taken
        left = left - taken
    return Pool(energy=pool.energy - cost.energy, power=tuple(power))


@play.implements("357.1")
def process_pay_resources(state: PlayState, cost: ResourceCost, step: PayResources) -> tuple[PlayState, Bool]:
    """Pay the combined Energy and Power cost, or nothing at all if the pool cannot cover it (357.1)."""
    paid = can_pay_resources(state.pool, cost)
    after = with_pool(state, compute_pool_after_payment(state.pool, cost, step.any_power_from))
    return select_state(paid, after, state), paid


def compute_added(before: Pool, after: Pool) -> Pool:
    """The resources an ability added: the pool's growth (what the cost does not use stays in the pool, PLAY-026)."""
    return Pool(energy=after.energy - before.energy, power=tuple(a - b for a, b in zip(after.power, before.power)))


def add_pools(a: Pool, b: Pool) -> Pool:
    """Two pools' resources together."""
    return Pool(energy=a.energy + b.energy, power=tuple(x + y for x, y in zip(a.power, b.power)))


def select_bool(condition: Bool, then: Bool, otherwise: Bool) -> Bool:
    """``then`` if ``condition`` else ``otherwise`` for flags."""
    return ite(condition, then, otherwise)
