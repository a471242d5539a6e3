"""800.4 Bloodletting: a Vitality cost paid, before the damage, by the first eligible unit on the caster's side.

The step, in order: a reduction rune lowers the printed cost (800.4l), and a cost of 0
skips everything (800.4m); the payer is the first eligible unit on the caster's side in
reading order (800.4b, 800.4c), where a Tool or a Hub counts as eligible but pays nothing
and so fails the ability (800.4d); no eligible unit aborts the activation before damage
(800.4k); otherwise one unit pays it all (800.4e) as a Vitality cost (500.8, 800.4f-j).

Worked example: the caster stands at row 1; row 0 holds, left to right, a dead unit, an
Entrapped unit and an ally with 5 Vitality. The ally pays a printed cost of 12 reduced
by 2 to 10, clamped to 5: it dies, ``bloodletting_paid`` reports 5, and the activation
goes on to its damage (800.4g, 800.4j).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..arith import SymbolicBranchError, and_, is_symbolic, ite, max_, min_, not_, or_
from ..clauses import combat
from ..readings import by_reading
from .battle import clear_speed_after_cost, clear_speed_at_end, resolve_activation
from .costs import pay_vitality_cost
from ..events import EventLog
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit

#: The index :func:`compute_first_eligible_index` returns when no unit is eligible.
NO_PAYER = -1


@dataclass(frozen=True, slots=True)
class BloodlettingOutcome:
    """What the Bloodletting step did: exactly one of skipped, aborted, failed, or paid."""

    cost: Int  # the cost after the reduction rune (800.4l)
    payer: str | None  # the unit chosen to pay; None when skipped before the choice or none was eligible
    paid: Int  # the Vitality that actually left the payer (800.4g, 800.4i)
    skipped: Bool  # reduced to 0: nobody pays (800.4m)
    aborted: Bool  # no eligible payer: no damage, immediate rune effects still resolve (800.4k)
    failed: Bool  # the payment moved no Vitality: the ability fails outright (800.4d)

    @property
    def continues(self) -> Bool:
        """Whether the activation goes on to its damage (800.4j: even after a lethal payment)."""
        return and_(not_(self.aborted), not_(self.failed))

    @property
    def status(self) -> str:
        """``skipped``, ``aborted``, ``failed`` or ``paid`` (a concrete outcome only)."""
        for name in ("skipped", "aborted", "failed"):
            if getattr(self, name):
                return name
        return "paid"


# --------------------------------------------------------------------------------------
# The cost
# --------------------------------------------------------------------------------------


@combat.implements("800.4l")
def compute_bloodletting_cost(printed_cost: Int, reduction: Int) -> Int:
    """The printed cost lowered by the caster's reduction rune, never below 0 (800.4l)."""
    return max_(printed_cost - max_(reduction, 0), 0)


@combat.implements("800.4l")
def compute_reduction(board: Board, caster: Unit, ruleset: Ruleset = DEFAULT) -> Int:
    """The reduction that lowers the cost: the caster's rune (``bloodletting_reduction_scope = caster_only``, the
    default), or every living unit's on the caster's side, summed (``side_sum``) or the largest (``side_largest``)
    (800.4l, INT-122)."""
    scope = ruleset.bloodletting_reduction_scope
    if (scope == "caster_only") is True:
        return caster.bloodletting_reduction
    runes = [ite(u.alive, max_(u.bloodletting_reduction, 0), 0) for u in board.units if u.side == caster.side]
    return by_reading(scope, caster_only=lambda: caster.bloodletting_reduction, side_sum=lambda: sum(runes, 0),
                      side_largest=lambda: _largest(runes))


def _largest(values: list[Int]) -> Int:
    largest: Int = 0
    for value in values:
        largest = max_(largest, value)
    return largest


@combat.implements("800.4m")
def is_skipped(cost: Int) -> Bool:
    """A cost reduced to 0 skips the whole step (800.4m)."""
    return cost <= 0


@combat.implements("800.4l", "800.4g")
def read_cost_paid(outcome: BloodlettingOutcome, cap: Int | None = None) -> Int:
    """What a card reading "the cost paid" sees: the Vitality that moved, under the card's own cap (800.4g, 800.4l)."""
    return outcome.paid if cap is None else min_(outcome.paid, cap)


# --------------------------------------------------------------------------------------
# The payer
# --------------------------------------------------------------------------------------


@combat.implements("800.4b")
def compute_reading_order(board: Board, side: int) -> tuple[Unit, ...]:
    """One side's units left to right across each row, then top to bottom (800.4b)."""
    return board.in_reading_order(side)


@combat.implements("800.4c", "800.4d")
def is_eligible_payer(unit: Unit) -> Bool:
    """Dead, Entrapped and boss units are skipped; Tools and Hubs are not (800.4c, 800.4d)."""
    return and_(unit.alive, not_(unit.entrapped), not_(unit.is_boss))


@combat.implements("800.4c")
def is_eligible_boss_caster(caster: Unit) -> Bool:
    """A boss casting Bloodletting pays its own cost, if it can pay at all (800.4c, INT-105)."""
    return and_(caster.alive, not_(caster.entrapped))


@combat.implements("800.4b")
def compute_first_eligible_index(eligible: Sequence[Bool]) -> Int:
    """The index of the first ``True`` flag, or :data:`NO_PAYER` (800.4b)."""
    index: Int = NO_PAYER
    for position in reversed(range(len(eligible))):
        index = ite(eligible[position], position, index)
    return index


@combat.implements("800.4b", "800.4c", "800.4d", "800.4e")
def compute_payer_index(order: Sequence[Unit], caster: Unit) -> Int:
    """Where in the caster's side's reading order the payer stands, or :data:`NO_PAYER` (800.4b-e).

    Only units on the caster's own half are candidates (``order`` is that half), so the
    other half is skipped by construction (800.4c). Exactly one unit is chosen (800.4e).
    """
    own = [position for position, unit in enumerate(order) if unit.uid == caster.uid]
    if len(own) != 1:
        raise ValueError(f"the caster {caster.uid!r} is not in its side's reading order")
    boss_index = ite(is_eligible_boss_caster(caster), own[0], NO_PAYER)
    first = compute_first_eligible_index([is_eligible_payer(unit) for unit in order])
    return ite(caster.is_boss, boss_index, first)


@combat.implements("800.4b", "800.4c", "800.4d")
def choose_bloodletting_payer(board: Board, caster_uid: str) -> str | None:
    """The uid of the unit that pays the caster's Bloodletting, or ``None`` when nobody is eligible (800.4b-d)."""
    caster = board.unit(caster_uid)
    order = compute_reading_order(board, caster.side)
    index = compute_payer_index(order, caster)
    if is_symbolic(index):
        raise SymbolicBranchError("the Bloodletting payer is structure: give concrete alive/entrapped/boss flags")
    return None if index == NO_PAYER else order[index].uid


# --------------------------------------------------------------------------------------
# The step
# --------------------------------------------------------------------------------------


@combat.implements("800.4d", "800.4h")
def is_failed_payment(payer: Unit, attempted: Bool, paid: Int, ruleset: Ruleset) -> Bool:
    """A payment that moved no Vitality fails the ability (800.4d); a defied-to-0 one per INT-103."""
    counts_defied = ruleset.bloodletting_defied_to_zero == "fails"
    return and_(attempted, paid <= 0, or_(counts_defied, payer.discards_combat))


@combat.implements(
    "800.4a", "800.4d", "800.4e", "800.4f", "800.4g", "800.4h", "800.4i", "800.4j", "800.4k", "800.4l", "800.4m"
)
def process_bloodletting(
    board: Board, caster_uid: str, printed_cost: Int, log: EventLog, ruleset: Ruleset = DEFAULT
) -> tuple[Board, BloodlettingOutcome]:
    """Reduce the cost, choose the payer, and pay it as a Vitality cost; report what happened (800.4)."""
    caster = board.unit(caster_uid)
    cost = compute_bloodletting_cost(printed_cost, compute_reduction(board, caster, ruleset))
    skipped = is_skipped(cost)
    order = compute_reading_order(board, caster.side)
    index = compute_payer_index(order, caster)
    if is_symbolic(index):
        return process_payment_by_index(board, caster_uid, order, index, cost, log, ruleset)
    payer = None if index == NO_PAYER else order[index].uid
    if payer is None:
        aborted = not_(skipped)
        log.emit("activation_aborted", when=aborted, unit=caster_uid)
        return board, BloodlettingOutcome(cost, None, 0, skipped, aborted, False)
    attempted = not_(skipped)
    payer_unit = board.unit(payer)
    board, paid = pay_vitality_cost(
        board, payer, cost, "bloodletting", log,
        channel="bloodletting_paid", beneficiary=caster_uid, ruleset=ruleset, when=attempted,
    )  # fmt: skip
    failed = is_failed_payment(payer_unit, attempted, paid, ruleset)
    log.emit("activation_failed", when=failed, unit=caster_uid, other=payer)
    reported = None if not is_symbolic(skipped) and skipped else payer  # 800.4m: nobody pays
    return board, BloodlettingOutcome(cost, reported, paid, skipped, False, failed)


@combat.implements("800.4b", "800.4d", "800.4e", "800.4k", "800.4m")
def process_payment_by_index(
    board: Board, caster_uid: str, order: Sequence[Unit], index: Int, cost: Int, log: EventLog, ruleset: Ruleset
) -> tuple[Board, BloodlettingOutcome]:
    """The payment when the payer's index is a condition (a symbolic run): each candidate pays only if chosen.

    Exactly one position, or none, is chosen (800.4b, 800.4e), so every candidate's payment is a
    guarded step that happens only when ``index`` names it and the cost is due; the others change
    nothing and emit nothing. The outcome's ``payer`` is ``None`` here: on symbols the payer is
    ``index``, a term. On concrete flags :func:`process_bloodletting` takes the plain path instead;
    tests/combat/test_costs_agreement.py holds the two together.
    """
    attempted = not_(is_skipped(cost))
    aborted = and_(attempted, index == NO_PAYER)
    log.emit("activation_aborted", when=aborted, unit=caster_uid)
    paid: Int = 0
    failed: Bool = False
    for position, candidate in enumerate(order):
        chosen = and_(attempted, index == position)
        payer_unit = board.unit(candidate.uid)
        board, moved = pay_vitality_cost(
            board, candidate.uid, cost, "bloodletting", log,
            channel="bloodletting_paid", beneficiary=caster_uid, ruleset=ruleset, when=chosen,
        )  # fmt: skip
        fails = is_failed_payment(payer_unit, chosen, moved, ruleset)
        log.emit("activation_failed", when=fails, unit=caster_uid, other=candidate.uid)
        paid, failed = paid + moved, or_(failed, fails)
    return board, BloodlettingOutcome(cost, None, paid, not_(attempted), aborted, failed)


DamagePlan = Sequence[Any] | Callable[[Board, BloodlettingOutcome], Sequence[Any]]
ImmediateEffects = Callable[[Board, EventLog], Board]


@combat.implements("800.4a", "800.4j", "800.4k")
def activate_with_bloodletting(
    board: Board,
    caster_uid: str,
    printed_cost: Int,
    damage: DamagePlan = (),
    ruleset: Ruleset = DEFAULT,
    immediate_effects: ImmediateEffects | None = None,
) -> tuple[Board, EventLog, BloodlettingOutcome]:
    """Action: an activation with a Bloodletting cost: the cost, its immediate rune effects, then its damage.

    ``damage`` is the activation's damage instances, or a function computing them from the
    board and the outcome after the cost is paid (800.4a: the cost comes before the damage is
    computed). A failed ability does nothing more (800.4d); an aborted one still resolves its
    immediate rune effects but deals no damage (800.4k, INT-107); a paid or skipped one goes on,
    even when the payment killed its payer (800.4j). Each instance is a hit with retaliation.
    """
    board, log = resolve_activation(board, caster_uid, ruleset)  # the caster activates: charge spent (500.9l)
    board, outcome = process_bloodletting(board, caster_uid, printed_cost, log, ruleset)
    board = clear_speed_after_cost(board, caster_uid, outcome.failed, ruleset, log)
    board = resolve_after_cost(board, caster_uid, outcome, damage, ruleset, immediate_effects, log)
    return clear_speed_at_end(board, caster_uid, ruleset, log), log, outcome


@combat.implements("800.4a", "800.4d", "800.4j", "800.4k")
def resolve_after_cost(
    board: Board, caster_uid: str, outcome: BloodlettingOutcome, damage: DamagePlan, ruleset: Ruleset,
    immediate_effects: ImmediateEffects | None, log: EventLog,
) -> Board:
    """What follows the cost: nothing for a failed ability (800.4d); the immediate rune effects, then, unless it
    aborted (800.4k), the damage, each instance a hit with retaliation, even when the payment killed its payer."""
    from .retaliation import resolve_hit

    if outcome.failed:
        return board
    if immediate_effects is not None:
        board = immediate_effects(board, log)
    if outcome.aborted:
        return board
    instances = damage(board, outcome) if callable(damage) else damage
    for instance in instances:
        board, step = resolve_hit(board, instance, ruleset)
        log.extend(step)
    return board


def resolve_bloodletting(
    board: Board, caster_uid: str, printed_cost: Int, ruleset: Ruleset = DEFAULT
) -> tuple[Board, EventLog]:
    """Action: the Bloodletting step alone; the board and its events."""
    log = EventLog()
    board, _ = process_bloodletting(board, caster_uid, printed_cost, log, ruleset)
    return board, log
