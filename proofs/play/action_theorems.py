"""Theorems about Exhaust and Recycle as costs: an action that cannot be completed pays nothing (414, 416.3, 203.3)."""

from __future__ import annotations

from dataclasses import replace

from referee.model.arith import and_, not_
from referee.model.play import actions, process
from referee.model.play.legal import is_legal_play_state
from referee.model.play.payment import PayCost
from referee.model.play.process import Choices
from referee.model.play.rules import DEFAULT_PLAY_RULES
from referee.model.play.state import BOARD, MAIN_DECK, TRASH, count_in_zone, is_friendly, is_in_zone, states_equal
from referee.proofs.core import Mutant, Obligation, Vars, theorem

from .process_theorems import VI_DESTRUCTIVE
from .scenario import PLANS, is_well_formed_card, symbolic_card, symbolic_state

# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


def exhaustable_even_if_exhausted(state, obj):
    """Bug: readiness is not checked, so an exhausted object "exhausts" again (414.1.b)."""
    return and_(is_friendly(state, obj), is_in_zone(obj, BOARD))


def exhaust_unit_without_checks(state, oid):
    """Bug: "exhaust a friendly unit" is marked paid without asking whether it can be done (414.4)."""
    return actions.with_object(state, replace(state.get(oid), exhausted=True)), True


def recycle_without_zone_check(state, oids, count, rules=DEFAULT_PLAY_RULES):
    """Bug: the named cards are recycled wherever they are, an empty trash notwithstanding (416.3)."""
    if len(oids) != count:
        return state, False
    for oid in oids:
        state = actions.with_object(state, replace(state.get(oid), zone=MAIN_DECK))
    return state, True


def recycle_from_any_trash(state, oids, count, rules=DEFAULT_PLAY_RULES):
    """Bug: cards in the opponent's trash count as "your trash" (416.3)."""
    if len(oids) != count:
        return state, False
    objects = tuple(state.get(oid) for oid in oids)
    done = and_(*(is_in_zone(o, TRASH) for o in objects))
    return actions.perform_if(state, done, tuple(actions.moved(o, MAIN_DECK, rules) for o in objects)), done


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem(
    "play:414.1.b",
    "play:414.4",
    "play:414.5",
    "play:203.3",
    "play:164.2.a",
    mutants=[
        Mutant("exhaust_ignores_readiness", "referee.model.play.actions:is_exhaustable", exhaustable_even_if_exhausted),
        Mutant(
            "exhaust_unit_unchecked",
            "referee.model.play.actions:process_exhaust_friendly_unit",
            exhaust_unit_without_checks,
        ),
    ],
)
def exhausted_object_never_pays_exhaust_cost(v: Vars) -> Obligation:
    """An exhausted object never pays an Exhaust cost: not as "Exhaust this", not as "exhaust a
    friendly unit", not as a rune's [E], and a play owing it is undone.
    """
    state = symbolic_state(v)
    text, modifiers = symbolic_card(v)
    claims = []
    for oid in ("ally", "rune_a", "foe", "card"):
        after, done = actions.process_exhaust(state, oid)
        claims += [not_(done), states_equal(after, state)]
    after, done = actions.process_exhaust_friendly_unit(state, "ally")
    claims += [not_(done), states_equal(after, state)]
    rune = process.process_activate(state, "rune_a", process.get_basic_rune_ability("exhaust"), (PayCost(0),))
    claims += [not_(rune.legal), rune.state.pool.energy == state.pool.energy]
    # The seed's 414.4 example: the optional "exhaust a friendly unit" chosen, the unit already exhausted.
    for plan in PLANS.values():
        r = process.process_play(state, "card", text, Choices((True, True), v.int("location")), plan, modifiers)
        claims.append(not_(r.legal))
    exhausted = and_(
        state.get("ally").exhausted, state.get("rune_a").exhausted, state.get("foe").exhausted, state.get("card").exhausted
    )
    return Obligation(
        assume=and_(is_legal_play_state(state), is_well_formed_card(text, modifiers), exhausted), claim=and_(*claims)
    )


@theorem(
    "play:416.3",
    "play:203.3",
    "play:203",
    mutants=[
        Mutant("recycle_ignores_zone", "referee.model.play.actions:process_recycle_from_trash", recycle_without_zone_check),
        Mutant("recycle_from_opponents_trash", "referee.model.play.actions:process_recycle_from_trash", recycle_from_any_trash),
    ],
)
def empty_trash_never_pays_recycle_cost(v: Vars) -> Obligation:
    """With nothing in your trash, no "recycle N from your trash" cost is ever paid, nothing moves, and
    its linked effect does not happen.
    """
    state = symbolic_state(v)
    claims = []
    for oids in (("trash_card",), ("hand_unit",), ("foe",), ("trash_card", "hand_unit")):
        after, done = actions.process_recycle_from_trash(state, oids, len(oids))
        claims += [not_(done), states_equal(after, state)]
    vi = process.process_activate(state, "ally", VI_DESTRUCTIVE, (PayCost(0, ("trash_card",)),))
    claims += [not_(vi.legal), vi.state.get("ally").might_bonus == state.get("ally").might_bonus]
    empty = count_in_zone(state, TRASH) == 0
    return Obligation(assume=and_(is_legal_play_state(state), empty), claim=and_(*claims))
