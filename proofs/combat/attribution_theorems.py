"""Theorems of 500.5 Damage attribution: how a shared tick is divided, and what feeds Feast.

The split theorems run :func:`~referee.model.combat.attribution.compute_shares` on a symbolic
total and symbolic applied amounts, for two and for three appliers (the bound, stated in
each theorem). The Feast theorem runs the credit step the pipeline ends with (500.1-13) on
a tick shared by three appliers who applied 1, 3 and 3, where dividing the Vitality portion
afresh would feed an applier more than its share (INT-352).

The lemma the Feast theorems rest on (a share of a total no larger than the weights' sum is
at most its weight) is proved from three small lemmas, each with its own vacuity check and
mutants: a floor share is at most its weight; the floors leave fewer than 3 points over, with
remainders that add up to them; a weight of 0 gets no share. Alone it was one nonlinear query
of about 50M rlimit units that could time out in a loaded suite; from them it is linear.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product
from typing import Any

from referee.model.arith import and_, ite, least_such_that, or_
from referee.model.combat import attribution
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.events import EventLog

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .fixtures import Runs

#: How many appliers the split theorems quantify over.
APPLIER_COUNTS = (2, 3)
SPLIT_BOUND = "2 and 3 appliers (each weight a non-negative integer, not all 0; the total a non-negative integer; unbounded)"
REMAINDER_TO_FIRST = Ruleset(tick_share_rounding="remainder_to_first")


def split(v: Vars, n: int, ruleset: Ruleset | None = None) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """The symbolic ``total`` divided between ``n`` appliers: ``(total, weights, shares)``."""
    total = v.int("total")
    weights = tuple(v.int(f"applied_{i}") for i in range(n))
    shares = attribution.compute_shares(total, weights, *(() if ruleset is None else (ruleset,)))
    return total, weights, shares


def well_formed_split(total: Any, weights: tuple[Any, ...]) -> Any:
    """A non-negative total and non-negative weights, not all 0 (a credit share of 0 is a Feast weight, 500.5c)."""
    return and_(total >= 0, total_of(weights) > 0, *[w >= 0 for w in weights])


def total_of(values: tuple[Any, ...]) -> Any:
    return sum(values[1:], values[0])


def split_runs(v: Vars, runs: Runs, cases: Iterable[tuple[int, Ruleset | None]]) -> Iterator[tuple[Any, Any]]:
    """A split (:func:`split`) for each ``(appliers, ruleset)``, each assumed well formed as it is made."""
    return runs.each(cases, lambda case: split(v, *case), lambda made: well_formed_split(made[0], made[1]))


# --------------------------------------------------------------------------------------
# Mutants: realistic splitting bugs
# --------------------------------------------------------------------------------------

_original_shares = attribution.compute_shares
_original_feast_weights = attribution.compute_feast_weights


def _leftover_never_handed_out(remainders, i):
    """Floors only: the points the proportions leave over are lost."""
    return len(remainders)


def _ties_all_win(remainders, i):
    """Ties are not broken: every applier tied for the leftover gets a point."""
    mine = remainders[i]
    return sum((ite(r > mine, 1, 0) for j, r in enumerate(remainders) if j != i), 0)


def _smallest_remainders_win(remainders, i):
    """The leftover goes to the smallest remainders."""
    mine = remainders[i]
    return sum((ite(r < mine, 1, 0) for j, r in enumerate(remainders) if j != i), 0)


def _always_remainder_to_first(total, weights, ruleset=None):
    return _original_shares(total, weights, REMAINDER_TO_FIRST)


def _rounded_to_nearest(total, weights, ruleset=None):
    """Each share rounded to the nearest whole number on its own (half up): points can be lost or made."""
    whole = total_of(weights)
    return tuple(least_such_that(lambda q: 2 * (q + 1) * whole > 2 * total * w + whole, 0, total + 1, "near") for w in weights)


def _feast_from_the_credit(credited, weights, credit, ruleset=None):
    """Feast is fed by the whole credit share, Shield-absorbed damage included."""
    return weights


def _floor_rounded_up(total, weight, whole):
    """The exact share rounded up instead of down."""
    return least_such_that(lambda q: q * whole >= total * weight, 0, total, "share")


A = "referee.model.combat.attribution"
CEILING = Mutant("tick_floor_share_rounded_up", f"{A}:compute_floor_share", _floor_rounded_up,
                 "each share's floor is rounded up instead")  # fmt: skip
LEFTOVER_LOST = Mutant("tick_leftover_lost", f"{A}:compute_rank", _leftover_never_handed_out,
                       "every share is floored and the leftover is lost")  # fmt: skip
# Its witness is small; the SMT core used up to 29% of the limit under a perturbation (issue 21).
TIES_ALL_WIN = Mutant("tick_ties_not_broken", f"{A}:compute_rank", _ties_all_win,
                      "every applier tied for the leftover gets a point", solver="bounded-witness")  # fmt: skip
SMALLEST_WIN = Mutant("tick_leftover_to_smallest_remainders", f"{A}:compute_rank", _smallest_remainders_win,
                      "the leftover goes to the smallest remainders")  # fmt: skip
TO_FIRST = Mutant("tick_leftover_all_to_first", f"{A}:compute_shares", _always_remainder_to_first,
                  "the first applier takes every leftover point")  # fmt: skip
NEAREST = Mutant("tick_shares_rounded_to_nearest", f"{A}:compute_shares", _rounded_to_nearest,
                 "each share rounded to the nearest on its own")  # fmt: skip


def _feast_through_the_credit(instance, recipient, credited, lost, log, ruleset=None, board=None):
    """Feast is divided from the credited amount: Shield-absorbed damage feeds it."""
    shares = attribution.compute_credited(instance)
    weights = tuple(w for _, w in shares)
    credit = attribution.compute_shares(credited, weights)
    for (uid, _), dealt in zip(shares, credit):
        log.emit("credit", when=dealt > 0, unit=uid, amount=dealt, other=recipient)
        log.emit("feast", when=dealt > 0, unit=uid, amount=dealt, other=recipient)


FEAST_CREDIT = Mutant("feast_from_the_credited_amount", "referee.model.combat.attribution:process_credit",
                      _feast_through_the_credit, "Shield-absorbed damage feeds Feast")  # fmt: skip
FEAST_DIVIDED_AFRESH = Mutant("feast_divided_by_what_was_applied", f"{A}:compute_feast_weights",
                              _feast_from_the_credit, "the Vitality portion is divided afresh by what each applied")  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.5b", mutants=[CEILING], bound=SPLIT_BOUND)
def floored_shares_leave_fewer_points_than_appliers(v: Vars) -> Obligation:
    """Flooring each applier's exact proportion of a tick leaves between 0 and one fewer than the appliers' count of its points over, and no floor is negative."""
    runs = Runs()
    for n in APPLIER_COUNTS:
        total = v.int("total")
        weights = tuple(v.int(f"applied_{i}") for i in range(n))
        floors = tuple(attribution.compute_floor_share(total, w, total_of(weights)) for w in weights)
        left = total - total_of(floors)
        runs.assume(well_formed_split(total, weights))
        runs.claim(and_(0 <= left, left < n, *[q >= 0 for q in floors]))
    return runs.obligation()


# The floors' leftover is its own lemma: proved inside this theorem, the nonlinear sum of the
def _first_gets_no_leftover(total, weights, ruleset=None):
    """Bug: the points the floors leave go to nobody (the first applier's leftover forgotten)."""
    whole = sum(weights[1:], weights[0])
    return tuple(attribution.compute_floor_share(total, w, whole) for w in weights) if len(weights) > 1 else (total,)


#: A bug in the remainder_to_first reading's branch alone: only a proof over that reading refutes it.
FIRST_LEFTOVER_LOST = Mutant("tick_leftover_lost_to_first", f"{A}:compute_shares", _first_gets_no_leftover,
                             "the leftover points are lost").at_reading("tick_share_rounding", "remainder_to_first")


# floors cost 3.0M to 14.5M units of the 20M limit under perturbation (issue 21); apart, under 100k.
@theorem("combat:500.5b", mutants=[LEFTOVER_LOST, TIES_ALL_WIN, NEAREST, FIRST_LEFTOVER_LOST], bound=SPLIT_BOUND,
         lemmas=[floored_shares_leave_fewer_points_than_appliers])  # fmt: skip
def tick_shares_sum_exactly_to_the_tick(v: Vars) -> Obligation:
    """Under both rounding options, the shares of a tick are non-negative and add up to exactly the tick."""
    claims, assumptions = [], []
    v.lemma(floored_shares_leave_fewer_points_than_appliers, total=v.int("total"),
            **{f"applied_{i}": v.int(f"applied_{i}") for i in range(max(APPLIER_COUNTS))})  # fmt: skip
    for n in APPLIER_COUNTS:
        for ruleset in (v.ruleset(),):
            total, weights, shares = split(v, n, ruleset)
            assumptions.append(well_formed_split(total, weights))
            claims.append(and_(total_of(shares) == total, *[s >= 0 for s in shares]))
    return Obligation(assume=all_of(*assumptions, *v.facts), claim=and_(*claims))


@theorem("combat:500.5b", mutants=[SMALLEST_WIN, TO_FIRST], bound=SPLIT_BOUND, unless=["tick_share_rounding=remainder_to_first"])
def each_tick_share_is_within_one_of_its_exact_proportion(v: Vars) -> Obligation:
    """By the largest remainder, each applier's share differs from total * applied / whole applied by less than 1."""
    runs = Runs()
    for _, (total, weights, shares) in split_runs(v, runs, product(APPLIER_COUNTS, (None,))):
        whole = total_of(weights)
        runs.claim(*[and_(s * whole - total * w < whole, total * w - s * whole < whole) for s, w in zip(shares, weights)])
    return runs.obligation()


THREE = ("a", "b", "c")
#: The applied amounts of the Feast theorems: 1, 3 and 3 is the smallest case where dividing the
#: Vitality portion afresh feeds an applier more than its credit share (INT-352).
FEAST_APPLIED = (1, 3, 3)
FEAST_BOUND = "three appliers who applied 1, 3 and 3; the credited amount and its Vitality portion unbounded"


FLOOR_BOUND = "one floor share (0 <= weight <= whole, whole > 0, 0 <= total <= whole; unbounded)"


@theorem("combat:500.5b", mutants=[CEILING], bound=FLOOR_BOUND)
def a_floor_share_of_no_more_than_the_whole_is_at_most_its_weight(v: Vars) -> Obligation:
    """Lemma: a floor share of a total no larger than the whole is at most its weight, and equals a positive one just at total == whole."""
    total, weight, whole = v.int("total"), v.int("weight"), v.int("whole")
    q = attribution.compute_floor_share(total, weight, whole)
    claim = and_(q <= weight, or_(q < weight, weight == 0, total == whole), or_(total != whole, q == weight))
    return Obligation(assume=and_(total >= 0, weight >= 0, weight <= whole, whole > 0, total <= whole), claim=claim)


def _floor_one_short(total, weight, whole):
    """The floor taken one too low (never below 0)."""
    return least_such_that(lambda q: (q + 2) * whole > total * weight, 0, total, "share")


FLOOR_ONE_SHORT = Mutant("tick_floor_share_one_short", f"{A}:compute_floor_share", _floor_one_short,
                         "each share's floor is one point too low")  # fmt: skip
THREE_APPLIERS = "3 appliers (non-negative weights, not all 0; the total a non-negative integer; unbounded)"


def split_terms(v: Vars) -> tuple[Any, tuple[Any, ...], Any, list[Any], Any, list[Any]]:
    """What :func:`~referee.model.combat.attribution.compute_shares` builds for 3 appliers, term for term.

    ``(total, weights, whole, floors, left, remainders)``: the same expressions, so that the
    Z3 terms of a lemma about them are the very terms of the split (a change to the model's
    expressions makes the lemma miss them, and the proof that uses it fails, never the reverse).
    """
    total = v.int("total")
    weights = tuple(v.int(f"applied_{i}") for i in range(3))
    whole = total_of(weights)
    floors = [attribution.compute_floor_share(total, w, whole) for w in weights]
    left = total - sum(floors[1:], floors[0])
    remainders = [total * w - whole * q for w, q in zip(weights, floors)]
    return total, weights, whole, floors, left, remainders


@theorem("combat:500.5b", mutants=[CEILING, FLOOR_ONE_SHORT], bound=THREE_APPLIERS)
def the_floors_leave_fewer_points_than_appliers(v: Vars) -> Obligation:
    """Lemma: 3 floors leave 0 to 2 points over, each remainder in [0, whole) and 0 at weight 0, adding up to whole * left."""
    total, weights, whole, floors, left, remainders = split_terms(v)
    each = [and_(r >= 0, r < whole, or_(w != 0, and_(q == 0, r == 0))) for w, q, r in zip(weights, floors, remainders)]
    claim = and_(left >= 0, left < 3, total_of(tuple(remainders)) == whole * left, *each)
    return Obligation(assume=well_formed_split(total, weights), claim=claim)


def weights_of(weights: tuple[Any, ...]) -> dict[str, Any]:
    """The ``applied_i`` terms of a 3-applier lemma instance."""
    return {f"applied_{i}": w for i, w in enumerate(weights)}


@theorem("combat:500.5b", mutants=[TO_FIRST, SMALLEST_WIN], bound=THREE_APPLIERS,
         lemmas=[the_floors_leave_fewer_points_than_appliers], unless=["tick_share_rounding=remainder_to_first"])  # fmt: skip
def an_applier_of_weight_zero_gets_no_share(v: Vars) -> Obligation:
    """Lemma: an applier whose weight is 0 gets no share of the tick, not even a leftover point."""
    total, weights, shares = split(v, 3)
    v.lemma(the_floors_leave_fewer_points_than_appliers, total=total, **weights_of(weights))
    claim = and_(*[or_(w != 0, s == 0) for s, w in zip(shares, weights)])
    return Obligation(assume=all_of(well_formed_split(total, weights), *v.facts), claim=claim)


#: Formerly one nonlinear query of about 50M rlimit units (rlimit raised to 100M; 135-200 s, and
#: ``unknown`` at the 300 s safety net in a loaded suite); from its three helper lemmas it is linear
#: (about 0.5M units, under a second), each helper a few seconds at most.
@theorem("combat:500.5b", "combat:500.5c", mutants=[TO_FIRST],
         bound="3 appliers (non-negative weights, not all 0; a total no larger than their sum; unbounded)",
         lemmas=[a_floor_share_of_no_more_than_the_whole_is_at_most_its_weight, an_applier_of_weight_zero_gets_no_share], unless=["tick_share_rounding=remainder_to_first"])  # fmt: skip
def a_share_of_no_more_than_the_weights_never_exceeds_its_weight(v: Vars) -> Obligation:
    """Lemma: dividing a total no larger than the sum of the weights gives no share above its own weight."""
    # Each floor is at most its weight; a positive weight's floor reaches it only when the total
    # is the whole, and then every floor is exact and no point is left over; a weight of 0 gets
    # no leftover point either. From these lemma instances the proof is linear.
    total, weights, shares = split(v, 3)
    whole = total_of(weights)
    for w in weights:
        v.lemma(a_floor_share_of_no_more_than_the_whole_is_at_most_its_weight, total=total, weight=w, whole=whole)
    v.lemma(an_applier_of_weight_zero_gets_no_share, total=total, **weights_of(weights))
    bounded = and_(*[s <= w for s, w in zip(shares, weights)])
    return Obligation(assume=all_of(well_formed_split(total, weights), total <= whole, *v.facts), claim=bounded)


def feast_run(v: Vars) -> tuple[Any, Any, list[Any], list[Any]]:
    """The credit step of a tick shared 1:3:3, with the split lemmas at the credit and at the Feast split."""
    credited, lost = v.int("credited"), v.int("lost")
    tick = DamageInstance(target="r", amount=credited, source="a", kind="burn", appliers=tuple(zip(THREE, FEAST_APPLIED)))
    log = EventLog()
    attribution.process_credit(tick, "r", credited, lost, log)
    credit = attribution.compute_shares(credited, FEAST_APPLIED)
    feast_weights = attribution.compute_feast_weights(credited, FEAST_APPLIED, credit)
    for total, weights in ((credited, FEAST_APPLIED), (lost, feast_weights)):
        v.lemma(tick_shares_sum_exactly_to_the_tick, total=total, **{f"applied_{i}": w for i, w in enumerate(weights)})
    v.lemma(a_share_of_no_more_than_the_weights_never_exceeds_its_weight, total=lost,
            **{f"applied_{i}": w for i, w in enumerate(feast_weights)})  # fmt: skip

    def amount(name: str, uid: str) -> Any:
        return sum((ite(g.when, g.event.amount, 0) for g in log.entries if g.event.name == name and g.event.unit == uid), 0)

    return credited, lost, [amount("feast", uid) for uid in THREE], [amount("credit", uid) for uid in THREE]


@theorem("combat:500.5c", "combat:500.1e", mutants=[FEAST_CREDIT], bound=FEAST_BOUND,
         lemmas=[tick_shares_sum_exactly_to_the_tick, a_share_of_no_more_than_the_weights_never_exceeds_its_weight])  # fmt: skip
def feast_never_exceeds_the_vitality_portion(v: Vars) -> Obligation:
    """The Feast of a shared tick adds up to exactly its Vitality portion, never more, each applier's between 0 and it."""
    credited, lost, fed, _ = feast_run(v)
    claim = and_(total_of(tuple(fed)) == lost, *[and_(f >= 0, f <= lost) for f in fed])
    return Obligation(assume=all_of(*v.facts, lost >= 0, lost <= credited), claim=claim)


@theorem("combat:500.5c", "combat:500.5b", mutants=[FEAST_DIVIDED_AFRESH], bound=FEAST_BOUND,
         lemmas=[tick_shares_sum_exactly_to_the_tick, a_share_of_no_more_than_the_weights_never_exceeds_its_weight],
         unless=["tick_share_rounding=remainder_to_first", "tick_feast_shares=of_applied"])  # fmt: skip
def no_applier_is_fed_more_than_it_is_credited(v: Vars) -> Obligation:
    """Each applier's Feast from a shared tick is at most its credit share: Feast is scaled from the same shares."""
    credited, lost, fed, credit = feast_run(v)
    claim = and_(*[f <= c for f, c in zip(fed, credit)])
    return Obligation(assume=all_of(*v.facts, lost >= 0, lost <= credited), claim=claim)
