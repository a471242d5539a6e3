"""357.2: can the order in which non-standard costs are paid change the outcome? Decided with Z3.

357.2 lets the player pay the non-standard costs "in any order". Over a cast of objects
whose zones and readiness are all variables, and every pair of the seed's non-standard
costs (each naming its objects), Z3 answers three questions about paying ``a`` then ``b``
against ``b`` then ``a``:

* :func:`nonstandard_costs_in_either_order_reach_the_same_state` (a theorem): when both
  orders pay both costs, they end in exactly the same state;
* :func:`costs_on_different_objects_commute` (a theorem): when the two costs name no
  object in common, the order changes nothing at all: not whether they are paid, not
  the state;
* :func:`find_order_dependent_pairs` (a query): for which pairs can the order decide
  *whether* both costs can be paid? Each answer comes with a witness state that is
  replayed through the model (``tests/play/test_357_2_cost_order.py``).

The answer (``docs/play.md``): yes, the order can change the outcome, but only by deciding
whether the costs can be paid, and only when one cost's action moves or turns the very
object the other's action needs. For example with an empty trash and a unit card ``h1`` in
hand, "discard a unit" then "recycle 1 from your trash" can pay both (discard ``h1``,
recycle ``h1``); the reverse order cannot (416.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from referee.model.arith import and_, not_, or_
from referee.model.play import actions
from referee.model.play.cost import NonStandardCost
from referee.model.play.legal import is_legal_play_state
from referee.model.play.rules import DEFAULT_PLAY_RULES
from referee.model.play.state import (
    MAIN_DECK,
    TRASH,
    PlayState,
    is_friendly,
    is_in_zone,
    select_object,
    states_equal,
)
from referee.proofs.core import Mutant, Obligation, Vars, theorem

from .scenario import symbolic_state

#: The cast of the order question. ``u1`` is the source of "this" costs.
ORDER_CAST = (
    ("u1", "unit", 0, "fury"),
    ("u2", "unit", 0, "calm"),
    ("foe", "unit", 1, "fury"),
    ("h1", "unit", 0, "mind"),
    ("t1", "spell", 0, "mind"),
)
SOURCE = "u1"


@dataclass(frozen=True)
class CostInstance:
    """A non-standard cost with the objects the player names for it."""

    label: str
    cost: NonStandardCost
    targets: tuple[str, ...] = ()

    @property
    def objects(self) -> frozenset[str]:
        """The objects this cost's action reads or changes."""
        if self.cost.kind in ("exhaust_this", "recycle_this"):
            return frozenset({SOURCE})
        return frozenset(self.targets)


def _c(label: str, kind: str, *targets: str) -> CostInstance:
    count = len(targets) if kind == "recycle_from_trash" else 1
    return CostInstance(label, NonStandardCost(kind, count), targets)


#: Every seed cost kind, naming each object it could plausibly act on.
COST_INSTANCES = (
    _c("exhaust this", "exhaust_this"),
    _c("recycle this", "recycle_this"),
    _c("exhaust unit u1", "exhaust_friendly_unit", "u1"),
    _c("exhaust unit u2", "exhaust_friendly_unit", "u2"),
    _c("kill u1", "kill_friendly_unit", "u1"),
    _c("kill u2", "kill_friendly_unit", "u2"),
    _c("kill foe", "kill_friendly_unit", "foe"),
    _c("discard h1", "discard_unit", "h1"),
    _c("discard u2", "discard_unit", "u2"),
    _c("recycle t1 from trash", "recycle_from_trash", "t1"),
    _c("recycle h1 from trash", "recycle_from_trash", "h1"),
    _c("recycle u2 from trash", "recycle_from_trash", "u2"),
    _c("recycle t1, h1 from trash", "recycle_from_trash", "t1", "h1"),
)

PAIRS = tuple(combinations(COST_INSTANCES, 2))


def pay(state: PlayState, instance: CostInstance) -> tuple[PlayState, Any]:
    """Pay one cost instance (its action, 203.1)."""
    return actions.process_pay_nonstandard_cost(state, instance.cost, SOURCE, instance.targets)


def pay_in_order(state: PlayState, first: CostInstance, second: CostInstance) -> tuple[PlayState, Any]:
    """Pay two costs one after the other: the state after both, and whether both were paid."""
    middle, paid_first = pay(state, first)
    after, paid_second = pay(middle, second)
    return after, and_(paid_first, paid_second)


def both_orders(state: PlayState, a: CostInstance, b: CostInstance) -> tuple[PlayState, Any, PlayState, Any]:
    """``a`` then ``b``, and ``b`` then ``a``."""
    s_ab, ok_ab = pay_in_order(state, a, b)
    s_ba, ok_ba = pay_in_order(state, b, a)
    return s_ab, ok_ab, s_ba, ok_ba


def order_state(v: Vars) -> PlayState:
    """The order question's cast with every zone and flag a variable."""
    return symbolic_state(v, ORDER_CAST)


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------


def exhaustable_off_the_board(state, obj):
    """Bug: any ready friendly object can be exhausted, even one in the trash (414.4)."""
    return and_(is_friendly(state, obj), not_(obj.exhausted))


def recycle_whole_trash(state, oids, count, rules=DEFAULT_PLAY_RULES):
    """Bug: "recycle N from your trash" recycles every card in your trash."""
    named = tuple(state.get(oid) for oid in oids)
    done = and_(len(oids) == count, *(and_(is_friendly(state, o), is_in_zone(o, TRASH)) for o in named))
    yours = tuple(o for o in state.objects if is_friendly(state, o))
    changed = tuple(select_object(is_in_zone(o, TRASH), actions.moved(o, MAIN_DECK, rules), o) for o in yours)
    return actions.perform_if(state, done, changed), done


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem(
    "play:357.2",
    "play:203.1",
    mutants=[Mutant("exhaust_off_the_board", "referee.model.play.actions:is_exhaustable", exhaustable_off_the_board)],
)
def nonstandard_costs_in_either_order_reach_the_same_state(v: Vars) -> Obligation:
    """For every pair of the seed's non-standard costs, when both orders pay both costs they end in the same state."""
    state = order_state(v)
    claims = []
    for a, b in PAIRS:
        s_ab, ok_ab, s_ba, ok_ba = both_orders(state, a, b)
        claims.append(or_(not_(and_(ok_ab, ok_ba)), states_equal(s_ab, s_ba)))
    return Obligation(assume=is_legal_play_state(state), claim=and_(*claims))


@theorem(
    "play:357.2",
    "play:416.3",
    mutants=[Mutant("recycle_whole_trash", "referee.model.play.actions:process_recycle_from_trash", recycle_whole_trash)],
)
def costs_on_different_objects_commute(v: Vars) -> Obligation:
    """Two non-standard costs that name no object in common are paid, or not, alike in either order, to
    the same state.
    """
    state = order_state(v)
    claims = []
    for a, b in PAIRS:
        if a.objects & b.objects:
            continue
        s_ab, ok_ab, s_ba, ok_ba = both_orders(state, a, b)
        claims += [ok_ab == ok_ba, states_equal(s_ab, s_ba)]
    return Obligation(assume=is_legal_play_state(state), claim=and_(*claims))


# --------------------------------------------------------------------------------------
# The query: where the order decides whether the costs can be paid
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderWitness:
    """A pair whose order matters, a state where it does, and which order pays both."""

    first: CostInstance
    second: CostInstance
    values: dict[str, Any]
    paying_order: tuple[str, str]


def find_order_dependent_pairs(rlimit: int = 5_000_000) -> list[OrderWitness]:
    """Every pair for which Z3 finds a state where one order pays both costs and the other does not."""
    import z3

    from referee.model.arith import symbolic

    witnesses = []
    for a, b in PAIRS:
        v = Vars()
        with symbolic():
            state = order_state(v)
            _, ok_ab, _, ok_ba = both_orders(state, a, b)
            solver = z3.Solver()
            solver.set("rlimit", rlimit)
            solver.add(is_legal_play_state(state), ok_ab != ok_ba)
            answer = solver.check()
        if answer == z3.unknown:
            raise RuntimeError(f"order query for {a.label!r} / {b.label!r}: unknown within rlimit {rlimit}")
        if answer == z3.sat:
            model = solver.model()
            values = {}
            for name, term in v.created.items():
                value = model.eval(term, model_completion=True)
                values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
            concrete = order_state(Vars(values))
            _, concrete_ab, _, concrete_ba = both_orders(concrete, a, b)
            if concrete_ab == concrete_ba:
                raise AssertionError(f"order witness for {a.label!r} / {b.label!r} does not replay through the model")
            order = (a.label, b.label) if concrete_ab else (b.label, a.label)
            witnesses.append(OrderWitness(a, b, values, order))
    return witnesses
