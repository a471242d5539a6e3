"""350-359 Playing a card and 399 activating an ability: the numbered process, undone if any check fails.

The process, as a list of its steps (350.1: a card is played only when all of it is done):

1. move the card to the chain (354);
2. the choices: whether to pay each optional additional cost (355.1.a), where a unit will
   enter (355.2);
3. the total cost (356.2-356.7, :mod:`.cost`);
4. pay it by following the player's payment plan (357.1, 357.1.a, 357.2, :mod:`.payment`);
5. check legality, among other things that every cost was paid (358.2); if any check fails
   every action of the process is undone and the play is cancelled (358.5);
6. finish: a unit enters the board exhausted at the chosen location (359.2.c).

"Undone" is exact: the result's state *is* the input state, and the result names the
failing check. Activating an ability follows the same steps (399) with the cost before its
colon (403.1.a); its linked effect happens only when that cost was paid (202, 203).

Worked example (the seed's 357.2): a card with "As an additional cost to play me, kill a
friendly unit and discard a unit" can be paid killing first or discarding first; both
plans end in the same state (``tests/play/test_357_pay.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.model.arith import and_, not_, or_
from referee.model.clauses import play

from . import actions, cost, payment
from .cost import CostComponent, Modifiers, NonStandardCost, TotalCost
from .payment import PayCost, PayResources, Step, UseRune
from .rules import DEFAULT_PLAY_RULES, PlayRules
from .state import (
    BOARD,
    CHAIN,
    HAND,
    Bool,
    Int,
    PlayState,
    Pool,
    domain_index,
    is_friendly,
    is_in_zone,
    select_state,
    with_object,
    with_pool,
)

# --------------------------------------------------------------------------------------
# What is played or activated
# --------------------------------------------------------------------------------------

EFFECT_KINDS = ("add_energy", "add_power", "buff_might")


@dataclass(frozen=True, slots=True)
class Effect:
    """A linked effect: add Energy, add Power of the source's domain, or give the source Might (202)."""

    kind: str
    amount: Int = 1

    def __post_init__(self) -> None:
        if self.kind not in EFFECT_KINDS:
            raise ValueError(f"unknown effect {self.kind!r} (known: {', '.join(EFFECT_KINDS)})")


@dataclass(frozen=True, slots=True)
class Ability:
    """An activated ability: the cost before the colon, the linked effect after it (403.1.a, 202)."""

    cost: CostComponent
    effect: Effect
    reaction: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class CardText:
    """What a card asks to be played: its printed cost and its additional costs (356.2)."""

    cost: CostComponent = CostComponent()
    additional: tuple[CostComponent, ...] = ()


@dataclass(frozen=True, slots=True)
class Choices:
    """Step 2: pay or skip each additional cost (mandatory ones ignore it), and where a unit enters."""

    pay_optional: tuple[Bool, ...] = ()
    location: Int = 0


@dataclass(frozen=True, slots=True)
class PaymentRecord:
    """What following a payment plan did: the state after it and which costs it paid."""

    state: PlayState
    resources_paid: Bool
    declined: bool
    costs_paid: tuple[Bool, ...]
    plan_valid: bool
    added: Pool


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The outcome: the new state (the input state when cancelled), the checks, the total, the payment."""

    state: PlayState
    legal: Bool
    checks: tuple[tuple[str, Bool], ...]
    total: TotalCost
    payment: PaymentRecord
    effect_happened: Bool = False


@dataclass(frozen=True, slots=True)
class Cancellation:
    """Why a play was undone: the failing check's clause and the rules that made it fail (358.5)."""

    check: str
    causes: tuple[str, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------------------
# 164.2 Basic Runes
# --------------------------------------------------------------------------------------

#: 164.2.a "[E]: [Reaction] - Add [1]."
BASIC_RUNE_EXHAUST = Ability(
    CostComponent(nonstandard=(NonStandardCost("exhaust_this"),)), Effect("add_energy", 1), True, "exhaust"
)
#: 164.2.b "Recycle this: [Reaction] - Add [C]." ([C]: one Power of the rune's domain, PLAY-001)
BASIC_RUNE_RECYCLE = Ability(
    CostComponent(nonstandard=(NonStandardCost("recycle_this"),)), Effect("add_power", 1), True, "recycle"
)


@play.implements("164.2.a", "164.2.b", "414.5")
def get_basic_rune_ability(name: str) -> Ability:
    """A Basic Rune's two abilities: "[E]: Add [1]" and "Recycle this: Add [C]" (164.2.a, 164.2.b, 414.5)."""
    return {"exhaust": BASIC_RUNE_EXHAUST, "recycle": BASIC_RUNE_RECYCLE}[name]


# --------------------------------------------------------------------------------------
# The steps
# --------------------------------------------------------------------------------------


@play.implements("354")
def is_playable_zone(state: PlayState, oid: str) -> Bool:
    """A card is played from its controller's hand (354, PLAY-006)."""
    card = state.get(oid)
    return and_(is_friendly(state, card), is_in_zone(card, HAND))


@play.implements("354")
def process_move_to_chain(state: PlayState, oid: str, rules: PlayRules = DEFAULT_PLAY_RULES) -> PlayState:
    """Step 1: move the card from its current zone to the chain (354), as an object in a new zone (PLAY-025)."""
    return with_object(state, actions.in_new_zone(replace(state.get(oid), zone=CHAIN), rules))


@play.implements("355.2")
def is_valid_location(state: PlayState, kind: str, location: Int) -> Bool:
    """A unit must be given a board location that exists; other cards need none (355.2, PLAY-010)."""
    if kind != "unit":
        return True
    return and_(0 <= location, location < state.location_count)


@play.implements("357.1.a", "164.2.a", "164.2.b")
def process_use_rune(state: PlayState, step: UseRune, rules: PlayRules) -> tuple[PlayState, Pool]:
    """Use a Basic Rune's Reaction ability (164.2.a, 164.2.b) during payment, as any activation (357.1.a, PLAY-015)."""
    ability = get_basic_rune_ability(step.ability)
    result = process_activate(state, step.rune, ability, (PayCost(0),), rules=rules)
    return result.state, payment.compute_added(state.pool, result.state.pool)


@play.implements("357.2", "357.1", "357.1.a", "203.1")
def process_payment(
    state: PlayState, total: TotalCost, source: str | None, plan: tuple[Step, ...], rules: PlayRules
) -> PaymentRecord:
    """Step 4: perform the plan (203.1): resources once (357.1), runes (357.1.a), other costs in any order (357.2)."""
    paid: list[Bool] = [False] * len(total.nonstandard)
    seen: set[int] = set()
    resources_paid: Bool = payment.is_declined_payment_paid(total.resources)
    declined, plan_valid = True, True
    added = Pool()
    for step in plan:
        if isinstance(step, UseRune):
            state, gained = process_use_rune(state, step, rules)
            added = payment.add_pools(added, gained)
        elif isinstance(step, PayResources):
            plan_valid = plan_valid and declined
            declined = False
            state, resources_paid = payment.process_pay_resources(state, total.resources, step)
        elif isinstance(step, PayCost):
            if step.index in seen or not 0 <= step.index < len(total.nonstandard):
                plan_valid = False  # paid twice, or no such cost (PLAY-016)
                continue
            seen.add(step.index)
            owed = total.nonstandard[step.index]
            after, done = actions.process_pay_nonstandard_cost(state, owed.cost, source, step.targets, rules)
            state = select_state(owed.owed, after, state)
            paid[step.index] = and_(owed.owed, done)
        else:
            raise TypeError(f"a payment plan step must be UseRune, PayCost or PayResources, got {step!r}")
    return PaymentRecord(state, resources_paid, declined, tuple(paid), plan_valid, added)


@play.implements("358.2", "414.4", "416.3", "444.2.a")
def are_all_costs_paid(total: TotalCost, record: PaymentRecord) -> Bool:
    """Check every cost was paid (358.2): resources, unless declined (444.2.a); each owed action (414.4, 416.3)."""
    owed_paid = (or_(not_(owed.owed), done) for owed, done in zip(total.nonstandard, record.costs_paid))
    return and_(record.plan_valid, record.resources_paid, *owed_paid)


@play.implements("358.5")
def finish_or_undo(legal: Bool, original: PlayState, finished: PlayState) -> PlayState:
    """If any check failed, every action of the process is undone: the original state, exactly, the runes used
    while paying included (358.5, PLAY-023); an optional cost chosen and left unpaid is such a failure (PLAY-022)."""
    return select_state(legal, finished, original)


@play.implements("359.2.c")
def process_unit_enters(state: PlayState, oid: str, location: Int) -> PlayState:
    """A played unit enters the board exhausted at the chosen location (359.2.c)."""
    return with_object(state, replace(state.get(oid), zone=BOARD, location=location, exhausted=True))


def process_finish_play(state: PlayState, oid: str, location: Int) -> PlayState:
    """Finish playing: a unit enters the board; any other card stays on the chain to resolve (PLAY-011)."""
    if state.get(oid).kind == "unit":
        return process_unit_enters(state, oid, location)
    return state


@play.implements("350.1")
def is_played(result: PlayResult) -> Bool:
    """A card is played only when it has finished the whole process (350.1)."""
    return result.legal


@play.implements("350.1", "354", "355.1.a", "355.2", "358.2", "358.5")
def process_play(
    state: PlayState,
    oid: str,
    text: CardText,
    choices: Choices,
    plan: tuple[Step, ...],
    modifiers: Modifiers = Modifiers(),
    rules: PlayRules = DEFAULT_PLAY_RULES,
) -> PlayResult:
    """Play a card (350.1): chain (354), choices (355.1.a, 355.2), total, payment, checks (358.2), finish or undo (358.5)."""
    card = state.get(oid)
    on_chain = process_move_to_chain(state, oid, rules)
    total = cost.compute_total_cost(text.cost, text.additional, choices.pay_optional, modifiers, rules)
    record = process_payment(on_chain, total, oid, plan, rules)
    checks = (
        ("354", is_playable_zone(state, oid)),
        ("355.2", is_valid_location(state, card.kind, choices.location)),
        ("358.2", are_all_costs_paid(total, record)),
    )
    legal = and_(*(passed for _, passed in checks))
    finished = process_finish_play(record.state, oid, choices.location)
    return PlayResult(finish_or_undo(legal, state, finished), legal, checks, total, record)


# --------------------------------------------------------------------------------------
# 399 Activating an ability
# --------------------------------------------------------------------------------------


@play.implements("202", "203")
def resolve_linked_effect(state: PlayState, source: str, effect: Effect) -> PlayState:
    """The linked effect of a paid cost: add Energy, add Power of the source's domain, or give Might (202, 203, PLAY-019)."""
    if effect.kind == "add_energy":
        return with_pool(state, replace(state.pool, energy=state.pool.energy + effect.amount))
    if effect.kind == "add_power":
        i = domain_index(state.get(source).domain)
        power = tuple(p + effect.amount if j == i else p for j, p in enumerate(state.pool.power))
        return with_pool(state, replace(state.pool, power=power))
    obj = state.get(source)
    return with_object(state, replace(obj, might_bonus=obj.might_bonus + effect.amount))


@play.implements("399", "403.1.a")
def is_activatable(state: PlayState, source: str) -> Bool:
    """Only the controller of an object activates its abilities, listed cost first, from any zone (399, 403.1.a,
    PLAY-012, PLAY-024)."""
    return is_friendly(state, state.get(source))


@play.implements("399", "403.1.a", "202", "203", "203.3")
def process_activate(
    state: PlayState,
    source: str,
    ability: Ability,
    plan: tuple[Step, ...],
    modifiers: Modifiers = Modifiers(),
    rules: PlayRules = DEFAULT_PLAY_RULES,
) -> PlayResult:
    """Activate by the steps of play (399), cost before the colon (403.1.a); effect only if paid (202, 203, 203.3)."""
    total = cost.compute_total_cost(ability.cost, (), (), modifiers, rules)
    record = process_payment(state, total, source, plan, rules)
    checks = (
        ("399", is_activatable(state, source)),
        ("358.2", are_all_costs_paid(total, record)),
    )
    legal = and_(*(passed for _, passed in checks))
    resolved = resolve_linked_effect(record.state, source, ability.effect)
    return PlayResult(finish_or_undo(legal, state, resolved), legal, checks, total, record, effect_happened=legal)


# --------------------------------------------------------------------------------------
# Why a play was cancelled (concrete results only)
# --------------------------------------------------------------------------------------

#: The rule that makes an unpaid non-standard cost impossible, by kind.
UNPAID_CAUSE = {
    "exhaust_this": "414.4",
    "exhaust_friendly_unit": "414.4",
    "recycle_this": "416.3",
    "recycle_from_trash": "416.3",
    "kill_friendly_unit": "203.3",
    "discard_unit": "203.3",
}


def get_cancellation(result: PlayResult) -> Cancellation | None:
    """The first failing check and its causes, or ``None`` when the play went through (358.5)."""
    failed = [name for name, passed in result.checks if not passed]
    if not failed:
        return None
    check = failed[0]
    if check != "358.2":
        return Cancellation(check)
    record = result.payment
    causes: list[str] = []
    if not record.plan_valid:
        causes.append("357.2")
    if not record.resources_paid:
        causes.append("444.2.a" if record.declined else "357.1")
    for owed, done in zip(result.total.nonstandard, record.costs_paid):
        if owed.owed and not done:
            causes.append(UNPAID_CAUSE[owed.cost.kind])
    return Cancellation(check, tuple(dict.fromkeys(causes)))

