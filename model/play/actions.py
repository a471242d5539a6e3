"""Non-standard costs: paying one is performing its game action, and an impossible action is not paid.

Paying a cost means performing the game action it names (203.1): exhaust, recycle, kill,
discard. Each function here performs one such action on the objects the player names and
returns the new state with whether the action was completed. When the action cannot be
completed (an exhausted object asked to exhaust, 414.1.b; an empty trash asked to
recycle, 416.3) the cost is not paid and nothing changes (414.4, 416.3, 203.3): the
returned state is the input state.

An object that leaves the board stops being exhausted (PLAY-008): it becomes a new object
in its new zone. Whether it also loses its board location and Might bonus is the option
``leave_board_resets`` (PLAY-025).
"""

from __future__ import annotations

from dataclasses import replace

from referee.model.arith import and_, ite
from referee.model.clauses import play

from .cost import NonStandardCost
from .rules import DEFAULT_PLAY_RULES, PlayRules
from .state import (
    BOARD,
    HAND,
    MAIN_DECK,
    RUNE_DECK,
    TRASH,
    Bool,
    GameObject,
    PlayState,
    is_friendly,
    is_in_zone,
    is_ready,
    select_object,
    with_object,
)


def moved(obj: GameObject, zone: int, rules: PlayRules = DEFAULT_PLAY_RULES) -> GameObject:
    """The object moved to a zone; off the board it is a new, ready object (PLAY-008), its board state kept or
    cleared as the rules read (PLAY-025)."""
    if zone == BOARD:
        return replace(obj, zone=zone)
    return in_new_zone(replace(obj, zone=zone, exhausted=False), rules)


def in_new_zone(obj: GameObject, rules: PlayRules = DEFAULT_PLAY_RULES) -> GameObject:
    """An object that has changed zone: its location and Might bonus kept (``exhausted_only``, the default), or
    those of a new object, 0 and 0 (``all_board_state``), PLAY-025."""
    reset = rules.leave_board_resets == "all_board_state"
    return replace(obj, location=ite(reset, 0, obj.location), might_bonus=ite(reset, 0, obj.might_bonus))


def perform_if(state: PlayState, done: Bool, changed: tuple[GameObject, ...]) -> PlayState:
    """The state with the changed objects when the action was completed, else the state unchanged."""
    if done is False:
        return state
    for new in changed:
        old = state.get(new.oid)
        state = with_object(state, select_object(done, new, old))
    return state


@play.implements("414.1.b")
def is_exhaustable(state: PlayState, obj: GameObject) -> Bool:
    """Only a ready friendly object on the board can be exhausted; an exhausted one cannot again (414.1.b)."""
    return and_(is_friendly(state, obj), is_ready(obj))


@play.implements("414.4", "414.5", "414.1.b")
def process_exhaust(state: PlayState, oid: str) -> tuple[PlayState, Bool]:
    """Exhaust as a cost: paid only if it can be done (414.4, 414.1.b); "[E]" is "Exhaust this" (414.5)."""
    obj = state.get(oid)
    done = is_exhaustable(state, obj)
    return perform_if(state, done, (replace(obj, exhausted=True),)), done


@play.implements("414.4")
def process_exhaust_friendly_unit(state: PlayState, oid: str) -> tuple[PlayState, Bool]:
    """ "Exhaust a friendly unit": the named object must be a unit that can be exhausted (414.4)."""
    if state.get(oid).kind != "unit":
        return state, False
    return process_exhaust(state, oid)


@play.implements("416.3", "164.2.b")
def process_recycle_this(state: PlayState, oid: str, rules: PlayRules = DEFAULT_PLAY_RULES) -> tuple[PlayState, Bool]:
    """ "Recycle this" (164.2.b): paid only from the board (416.3); a rune goes to the rune deck (PLAY-007)."""
    obj = state.get(oid)
    done = and_(is_friendly(state, obj), is_in_zone(obj, BOARD))
    deck = RUNE_DECK if obj.kind == "rune" else MAIN_DECK
    return perform_if(state, done, (moved(obj, deck, rules),)), done


@play.implements("416.3")
def process_recycle_from_trash(
    state: PlayState, oids: tuple[str, ...], count: int, rules: PlayRules = DEFAULT_PLAY_RULES
) -> tuple[PlayState, Bool]:
    """ "Recycle N from your trash": N distinct cards of yours in the trash go to their decks, a rune to the rune deck
    as "Recycle this" sends it, or none do (416.3, PLAY-007)."""
    if len(oids) != count or len(set(oids)) != count:
        return state, False
    objects = tuple(state.get(oid) for oid in oids)
    done = and_(*(and_(is_friendly(state, o), is_in_zone(o, TRASH)) for o in objects))
    return (perform_if(state, done, tuple(moved(o, RUNE_DECK if o.kind == "rune" else MAIN_DECK, rules) for o in objects)),
            done)


def process_kill_friendly_unit(state: PlayState, oid: str, rules: PlayRules = DEFAULT_PLAY_RULES) -> tuple[PlayState, Bool]:
    """ "Kill a friendly unit": a unit of yours on the board goes to the trash (203.1, 356.7 example)."""
    obj = state.get(oid)
    if obj.kind != "unit":
        return state, False
    done = and_(is_friendly(state, obj), is_in_zone(obj, BOARD))
    return perform_if(state, done, (moved(obj, TRASH, rules),)), done


def process_discard_unit(state: PlayState, oid: str, rules: PlayRules = DEFAULT_PLAY_RULES) -> tuple[PlayState, Bool]:
    """ "Discard a unit": a unit card in your hand goes to the trash (203.1, 357.2 example)."""
    obj = state.get(oid)
    if obj.kind != "unit":
        return state, False
    done = and_(is_friendly(state, obj), is_in_zone(obj, HAND))
    return perform_if(state, done, (moved(obj, TRASH, rules),)), done


@play.implements("203.1", "203.3")
def process_pay_nonstandard_cost(
    state: PlayState, cost: NonStandardCost, source: str | None, targets: tuple[str, ...],
    rules: PlayRules = DEFAULT_PLAY_RULES,
) -> tuple[PlayState, Bool]:
    """Pay one non-standard cost by performing its action; an impossible action is not paid (203.1, 203.3)."""
    kind = cost.kind
    if kind in ("exhaust_this", "recycle_this"):
        if source is None:
            raise ValueError(f"{kind!r} names the card or ability's own object, but there is no source object")
        return process_exhaust(state, source) if kind == "exhaust_this" else process_recycle_this(state, source, rules)
    if kind == "recycle_from_trash":
        return process_recycle_from_trash(state, targets, cost.count, rules)
    if len(targets) != 1:
        return state, False
    if kind == "exhaust_friendly_unit":
        return process_exhaust_friendly_unit(state, targets[0])
    action = {"kill_friendly_unit": process_kill_friendly_unit, "discard_unit": process_discard_unit}[kind]
    return action(state, targets[0], rules)
