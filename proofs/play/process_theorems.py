"""Theorems about the process of playing a card and activating an ability (350-359, 399, 202-203).

Each theorem runs :func:`referee.model.play.process.process_play` (or ``process_activate``)
on a symbolic state: the cast of :mod:`.scenario` with every zone, flag, pool and cost a
variable, under each payment plan of :data:`.scenario.PLANS`.
"""

from __future__ import annotations

from dataclasses import replace

from referee.model.arith import and_, not_, or_
from referee.model.play import process
from referee.model.play.cost import CostComponent, Modifiers, NonStandardCost, ResourceCost
from referee.model.play.legal import is_legal_play_state
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import Ability, Effect, PlayResult
from referee.model.play.rules import DEFAULT_PLAY_RULES
from referee.model.play.state import (
    BOARD,
    DOMAINS,
    HAND,
    MAIN_DECK,
    RUNE_DECK,
    TRASH,
    PlayState,
    Pool,
    select_state,
    states_equal,
)
from referee.proofs.core import Mutant, Obligation, Vars, theorem

from .scenario import (
    LOCATION_COUNT,
    Prefixed,
    PLANS,
    is_well_formed_card,
    symbolic_card,
    symbolic_choices,
    symbolic_state,
)


def _implies(a, b):
    """``a`` implies ``b``."""
    return or_(not_(a), b)


def play_under_every_plan(v: Vars) -> tuple[object, list[tuple[PlayState, PlayResult, Vars]]]:
    """The scenario played under each plan (each on its own copy of the variables), and the well-
    formedness assumption.
    """
    assumptions, results = [], []
    for name, plan in PLANS.items():
        copy = Prefixed(v, name)
        state = symbolic_state(copy)
        text, modifiers = symbolic_card(copy)
        result = process.process_play(state, "card", text, symbolic_choices(copy), plan, modifiers)
        assumptions.append(and_(is_legal_play_state(state), is_well_formed_card(text, modifiers)))
        results.append((state, result, copy))
    return and_(*assumptions), results


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


def keep_partial_actions(legal, original, finished):
    """Bug: a failed play keeps what it did (no undo)."""
    return finished


def undo_objects_but_keep_pool(legal, original, finished):
    """Bug: the undo restores the objects but not the pool (rune adds and payments stay)."""
    return replace(select_state(legal, finished, original), pool=finished.pool)


def pool_after_forgetting_any_power(pool, cost, any_power_from):
    """Bug: ``[A]`` is checked but never taken from the pool."""
    return Pool(energy=pool.energy - cost.energy, power=tuple(h - n for h, n in zip(pool.power, cost.power)))


def can_pay_ignoring_any_power(pool, cost):
    """Bug: ``[A]`` is not counted when deciding whether the pool covers the cost."""
    return and_(cost.energy <= pool.energy, *(n <= h for h, n in zip(pool.power, cost.power)))


def unit_enters_ready(state, oid, location):
    """Bug: a played unit enters ready."""
    return state.__class__(
        pool=state.pool,
        objects=tuple(replace(o, zone=BOARD, location=location) if o.oid == oid else o for o in state.objects),
        player=state.player,
        location_count=state.location_count,
    )


def any_location_is_valid(state, kind, location):
    """Bug: any location is accepted, even one that does not exist."""
    return True


def playable_from_anywhere(state, oid):
    """Bug: a card is played from whatever zone it is in."""
    return True


def activate_effect_regardless(state, source, ability, plan, modifiers=Modifiers(), rules=DEFAULT_PLAY_RULES):
    """Bug: the linked effect happens even when the activation is undone."""
    total = process.cost.compute_total_cost(ability.cost, (), (), modifiers, rules)
    record = process.process_payment(state, total, source, plan, rules)
    checks = (("399", process.is_activatable(state, source)), ("358.2", process.are_all_costs_paid(total, record)))
    legal = and_(*(passed for _, passed in checks))
    resolved = process.resolve_linked_effect(record.state, source, ability.effect)
    original_with_effect = process.resolve_linked_effect(state, source, ability.effect)
    return PlayResult(process.finish_or_undo(legal, original_with_effect, resolved), legal, checks, total, record, True)


_real_pay_nonstandard = process.actions.process_pay_nonstandard_cost


def impossible_cost_counts_as_paid(state, cost, source, targets, rules=DEFAULT_PLAY_RULES):
    """Bug: a non-standard cost counts as paid even when its action could not be performed."""
    after, _done = _real_pay_nonstandard(state, cost, source, targets, rules)
    return after, True


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem(
    "play:358.5",
    "play:358.2",
    "play:444.2.a",
    "play:350.1",
    "play:357.1.a",
    mutants=[
        Mutant("no_undo", "referee.model.play.process:finish_or_undo", keep_partial_actions),
        Mutant("undo_keeps_pool", "referee.model.play.process:finish_or_undo", undo_objects_but_keep_pool),
    ],
)
def cancelled_play_leaves_state_unchanged(v: Vars) -> Obligation:
    """Under every payment plan, a play that fails any check leaves the whole state exactly as it was."""
    assume, results = play_under_every_plan(v)
    claim = and_(*(_implies(not_(r.legal), states_equal(r.state, state)) for state, r, _ in results))
    return Obligation(assume=and_(assume, or_(*(not_(r.legal) for _, r, _ in results))), claim=claim)


@theorem(
    "play:357.1",
    "play:357.1.a",
    "play:356.7",
    mutants=[
        Mutant(
            "any_power_never_taken",
            "referee.model.play.payment:compute_pool_after_payment",
            pool_after_forgetting_any_power,
        ),
        Mutant("any_power_not_checked", "referee.model.play.payment:can_pay_resources", can_pay_ignoring_any_power),
    ],
)
def resources_spent_equal_total_cost(v: Vars) -> Obligation:
    """In a legal play the Energy and the Power spent (pool before, plus rune adds, minus pool after)
    equal the total cost, and no pool part goes negative.
    """
    assume, results = play_under_every_plan(v)
    claims = []
    for state, r, _ in results:
        before, after, added, total = state.pool, r.state.pool, r.payment.added, r.total.resources
        spent_power = [b + a - f for b, a, f in zip(before.power, added.power, after.power)]
        total_spent_power = spent_power[0]
        for amount in spent_power[1:]:
            total_spent_power = total_spent_power + amount
        claims.append(
            _implies(
                r.legal,
                and_(
                    before.energy + added.energy - after.energy == total.energy,
                    total_spent_power == total.total_power,
                    *(s >= need for s, need in zip(spent_power, total.power)),
                    after.energy >= 0,
                    *(p >= 0 for p in after.power),
                ),
            )
        )
    legal_somewhere = or_(*(r.legal for _, r, _ in results))
    return Obligation(assume=and_(assume, legal_somewhere), claim=and_(*claims))


@theorem(
    "play:359.2.c",
    "play:355.2",
    "play:354",
    "play:350.1",
    mutants=[
        Mutant("unit_enters_ready", "referee.model.play.process:process_unit_enters", unit_enters_ready),
        Mutant("any_location_is_valid", "referee.model.play.process:is_valid_location", any_location_is_valid),
        Mutant("playable_from_anywhere", "referee.model.play.process:is_playable_zone", playable_from_anywhere),
    ],
)
def played_unit_enters_exhausted_at_chosen_location(v: Vars) -> Obligation:
    """A unit that is played came from its controller's hand and is on the board, exhausted, at the
    location chosen in step 2, which exists.
    """
    assume, results = play_under_every_plan(v)
    claims = []
    for state, r, copy in results:
        location = copy.int("location")
        card = r.state.get("card")
        claims.append(
            _implies(
                process.is_played(r),
                and_(
                    state.get("card").zone == HAND,
                    card.zone == BOARD,
                    card.exhausted,
                    card.location == location,
                    0 <= location,
                    location < LOCATION_COUNT,
                ),
            )
        )
    return Obligation(assume=and_(assume, or_(*(r.legal for _, r, _ in results))), claim=and_(*claims))


#: The abilities the linked-effect theorem activates: (source, ability, plan, what the effect changes).
VI_DESTRUCTIVE = Ability(
    CostComponent(nonstandard=(NonStandardCost("recycle_from_trash", 1),)), Effect("buff_might", 1), name="vi"
)
PAID_BUFF = Ability(
    CostComponent(ResourceCost.of(1, any_power=1), (NonStandardCost("exhaust_this"),)), Effect("buff_might", 1), name="buff"
)


def activations(v: Vars, state: PlayState) -> list[tuple[PlayResult, object, object, object]]:
    """Each ability activated once: (result, effect observed, effect exactly as printed, cost's action observed).

    The cost's action is observed on the objects themselves (the rune turned, the card moved),
    never read from the model's own "paid" flags, so a model that marks an impossible cost
    as paid is caught.
    """
    out = []
    before_a, before_b, before_ally = state.get("rune_a"), state.get("rune_b"), state.get("ally")
    rune_a = process.process_activate(state, "rune_a", process.get_basic_rune_ability("exhaust"), (PayCost(0),))
    turned = and_(before_a.zone == BOARD, not_(before_a.exhausted), rune_a.state.get("rune_a").exhausted)
    out.append(
        (rune_a, rune_a.state.pool.energy > state.pool.energy, rune_a.state.pool.energy == state.pool.energy + 1, turned)
    )
    calm = DOMAINS.index("calm")
    rune_b = process.process_activate(state, "rune_b", process.get_basic_rune_ability("recycle"), (PayCost(0),))
    recycled = and_(before_b.zone == BOARD, rune_b.state.get("rune_b").zone == RUNE_DECK)
    out.append(
        (
            rune_b,
            rune_b.state.pool.power[calm] > state.pool.power[calm],
            rune_b.state.pool.power[calm] == state.pool.power[calm] + 1,
            recycled,
        )
    )
    vi = process.process_activate(state, "ally", VI_DESTRUCTIVE, (PayCost(0, ("trash_card",)),))
    from_trash = and_(state.get("trash_card").zone == TRASH, vi.state.get("trash_card").zone == MAIN_DECK)
    buff = process.process_activate(state, "ally", PAID_BUFF, (UseRune("rune_b", "exhaust"), PayResources(), PayCost(0)))
    exhausted_self = and_(before_ally.zone == BOARD, not_(before_ally.exhausted), buff.state.get("ally").exhausted)
    for r, action in ((vi, from_trash), (buff, exhausted_self)):
        before, after = before_ally.might_bonus, r.state.get("ally").might_bonus
        out.append((r, after > before, after == before + 1, action))
    return out


@theorem(
    "play:202",
    "play:203",
    "play:203.1",
    "play:203.3",
    "play:399",
    "play:403.1.a",
    "play:164.2.a",
    "play:164.2.b",
    mutants=[
        Mutant("effect_without_payment", "referee.model.play.process:process_activate", activate_effect_regardless),
        Mutant(
            "impossible_cost_counts_as_paid",
            "referee.model.play.actions:process_pay_nonstandard_cost",
            impossible_cost_counts_as_paid,
        ),
    ],
)
def linked_effect_happens_only_if_cost_paid(v: Vars) -> Obligation:
    """An activated ability's linked effect happens only if its cost's action was observably performed, exactly as
    printed when the activation is legal, and an undone activation changes nothing."""
    state = symbolic_state(v)
    claims = []
    for r, observed, exact, action in activations(v, state):
        claims += [
            _implies(observed, action),
            _implies(r.legal, exact),
            _implies(not_(r.legal), states_equal(r.state, state)),
        ]
    return Obligation(assume=is_legal_play_state(state), claim=and_(*claims))
