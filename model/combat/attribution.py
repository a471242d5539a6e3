"""500.5 Damage attribution: who is credited with damage, and who it feeds.

Damage is credited to the unit that dealt it, a Burn or Venom tick included (500.5a): the
instance's ``source``. When several units applied the same Burn or Venom, the instance
lists them in ``DamageInstance.appliers`` as ``(uid, applied)`` pairs (a bare uid counts as
``(uid, 1)``; a uid named twice adds up, in the order of its first mention), and each tick
is divided between them in proportion to what each applied (500.5b). Feast uses only the
Vitality portion, scaled from the same shares: the Vitality portion is divided in
proportion to the credit shares, so no applier is fed more than it is credited (500.5c,
INT-352). A self-destruct's blast keeps
kill credit for its source although the source is dead (500.5d): credit and the killer are
never gated on the credited unit being alive, unless ``dead_source_credit = "kill_only"``, under
which a dead source of anything but a Burn or Venom tick keeps the kill alone (INT-355). 500.5a names no side: damage a unit deals to
itself or an ally is credited and feeds its Feast, unless ``friendly_damage_credit =
"enemies_only"``, under which such a share is credited to nobody (INT-357). Vitality a boss
loses to a damage instance feeds Feast like any other (only a retaliation into a boss feeds
none, 500.6f), unless ``boss_feast_exclusion = "all_boss_vitality"`` (INT-123).

The split is exact and sum-preserving (INT-351): each applier first gets the floor of its
exact share ``total * applied / whole``; the points left over (fewer than the number of
appliers) go one each to the largest remainders, ties to the earlier applier. With the
``tick_share_rounding = "remainder_to_first"`` option the leftover goes to the first applier.

Worked example: a tick credits 10 between appliers who applied 1, 1 and 1. The floors are
3, 3 and 3 with equal remainders, so the one point left goes to the first: 4, 3, 3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..arith import and_, ite, least_such_that, not_, or_
from ..clauses import combat
from ..events import EventLog
from ..readings import SymbolicReading, by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int
from .ticks import DAMAGE_OVER_TIME_KINDS


@combat.implements("500.5b", "500.7e")
def compute_applied(instance: Any) -> tuple[tuple[str, Int], ...]:
    """The appliers of a tick and what each applied, merged by uid in first-mention order; () for none (500.5b)."""
    merged: dict[str, Int] = {}
    for entry in getattr(instance, "appliers", ()) or ():
        uid, applied = (entry, 1) if isinstance(entry, str) else entry
        merged[uid] = merged[uid] + applied if uid in merged else applied
    return tuple(merged.items())


@combat.implements("500.5a", "500.5b")
def compute_credited(instance: Any) -> tuple[tuple[str, Int], ...]:
    """Who shares the credit, with weights: the appliers of a shared tick, else the source alone (500.5a, 500.5b)."""
    applied = compute_applied(instance)
    if applied:
        return applied
    return () if instance.source is None else ((instance.source, 1),)


@combat.implements("500.5b")
def compute_floor_share(total: Int, weight: Int, whole: Int) -> Int:
    """``floor(total * weight / whole)`` for ``total >= 0``, ``0 <= weight <= whole``, ``whole > 0``, exactly (500.5b)."""
    return least_such_that(lambda q: (q + 1) * whole > total * weight, 0, total, "share")


@combat.implements("500.5b")
def compute_rank(remainders: list[Int], i: int) -> Int:
    """How many remainders come before the ``i``-th: larger ones, and equal ones of earlier appliers (INT-351)."""
    mine = remainders[i]
    before = [or_(r > mine, and_(r == mine, j < i)) for j, r in enumerate(remainders) if j != i]
    return sum((ite(b, 1, 0) for b in before), 0)


@combat.implements("500.5b", "500.5c")
def compute_shares(total: Int, weights: tuple[Int, ...], ruleset: Ruleset = DEFAULT) -> tuple[Int, ...]:
    """``total >= 0`` divided in proportion to ``weights``, exactly, with no point lost or made (500.5b, INT-351).

    On a symbolic reading both ways with the leftover are built and joined share by share (``model/readings.py``).
    """
    if len(weights) == 1:
        return (total,)
    whole = sum(weights[1:], weights[0])
    floors = [compute_floor_share(total, w, whole) for w in weights]
    left = total - sum(floors[1:], floors[0])
    return by_reading_each(
        ruleset.tick_share_rounding,
        remainder_to_first=lambda: (floors[0] + left, *floors[1:]),
        largest_remainder=lambda: add_leftover_by_remainder(total, weights, whole, floors, left),
    )


@combat.implements("500.5b")
def add_leftover_by_remainder(
    total: Int, weights: tuple[Int, ...], whole: Int, floors: list[Int], left: Int
) -> tuple[Int, ...]:
    """The ``left`` points over the floors go one each to the largest remainders, ties to the earlier (INT-351)."""
    remainders = [total * w - whole * q for w, q in zip(weights, floors)]
    return tuple(q + ite(compute_rank(remainders, i) < left, 1, 0) for i, q in enumerate(floors))


def by_reading_each(option: Any, **branches: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """:func:`~referee.model.readings.by_reading` for branches that give tuples of one length: joined item by item.

    ``ite`` joins single values, so on a symbolic reading each branch's tuple is built once and
    its items are joined position by position; concretely only the chosen branch runs.
    """
    if not isinstance(option, SymbolicReading):
        return branches[option]()
    built = {reading: branch() for reading, branch in branches.items()}
    size = len(next(iter(built.values())))
    return tuple(by_reading(option, **{reading: (lambda item=items[i]: item) for reading, items in built.items()})
                 for i in range(size))


@combat.implements("500.5c")
def compute_feast_weights(
    credited: Int, weights: tuple[Int, ...], credit: tuple[Int, ...], ruleset: Ruleset = DEFAULT
) -> tuple[Int, ...]:
    """What the Vitality portion is divided by: each applier's credit share, scaled down (500.5c, INT-352).

    Under ``tick_feast_shares = "of_applied"`` it is divided like the credit, by what each
    applied. With nothing credited there is no Vitality portion to divide either, and the
    applied amounts stand in so that the divisor is never 0.
    """
    return by_reading_each(
        ruleset.tick_feast_shares,
        of_applied=lambda: weights,
        of_credit_share=lambda: tuple(ite(credited > 0, c, w) for c, w in zip(credit, weights)),
    )


@combat.implements("500.5a", "500.6h")
def is_friendly(board: Board | None, uid: str, recipient: str) -> bool:
    """Whether ``uid`` damaged itself or an ally: it is the recipient, or stands on the recipient's side (500.5a,
    in 500.6h's words). Without a board (a proof of the split alone) only the recipient itself is known."""
    if uid == recipient:
        return True
    if board is None or not board.has(uid) or not board.has(recipient):
        return False
    return board.unit(uid).side == board.unit(recipient).side


@combat.implements("500.5a", "500.5c")
def is_credit_withheld(board: Board | None, uid: str, recipient: str, ruleset: Ruleset = DEFAULT) -> Bool:
    """Whether ``uid``'s share of the damage to ``recipient`` is credited to nobody and feeds no Feast: never under
    ``friendly_damage_credit = credited`` (the default: 500.5a names no side), and for damage to the unit itself
    or an ally under ``enemies_only`` (INT-357). The share is still divided off; it is not handed to another."""
    return by_reading(ruleset.friendly_damage_credit, credited=lambda: False,
                      enemies_only=lambda: is_friendly(board, uid, recipient))


def is_dead_source_withheld(board: Board | None, uid: str, kind: str, ruleset: Ruleset = DEFAULT) -> Bool:
    """Whether the source of an instance is credited nothing and fed nothing because it is dead: never under
    ``dead_source_credit = full`` (the default: 500.5d's blast is an ordinary instance whose source is dead), and under
    ``kill_only`` when ``uid`` is dead as the instance's Vitality step resolves (:func:`is_dead_source`), which keeps
    only the kill, the death's killer (500.5d, INT-355)."""
    kill_only = ruleset.dead_source_credit == "kill_only"
    if kill_only is False:
        return False
    return and_(kill_only, is_dead_source(board, uid, kind))


@combat.implements("500.5d")
def is_dead_source(board: Board | None, uid: str, kind: str) -> Bool:
    """Whether ``uid`` dealt an instance while dead, as a self-destruct's blast does (500.5d, INT-355); a Burn or Venom
    tick of a dead applier is INT-356's question, not this one (500.1i). Without a board: alive."""
    if kind in DAMAGE_OVER_TIME_KINDS or board is None or not board.has(uid):
        return False
    return not_(board.unit(uid).alive)


def is_feast_withheld_from_boss(board: Board | None, recipient: str, ruleset: Ruleset = DEFAULT) -> Bool:
    """Whether the Vitality a damage instance took from ``recipient`` feeds no Feast because it is a boss: never
    under ``boss_feast_exclusion = retaliation_only`` (the default: 500.6f's exception is the retaliation's, which
    ``costs.process_retaliation_credit`` applies), whenever the recipient is a boss under ``all_boss_vitality``
    (:func:`is_boss_vitality`, INT-123). Credit is kept either way (500.6f: 'scores as damage dealt')."""
    every_loss = ruleset.boss_feast_exclusion == "all_boss_vitality"
    if every_loss is False:
        return False
    return and_(every_loss, is_boss_vitality(board, recipient))


@combat.implements("500.6f")
def is_boss_vitality(board: Board | None, recipient: str) -> Bool:
    """Whether the Vitality lost is a boss's, which 'feeds no Feast' read as the general boss rule (500.6f, INT-123).
    Without a board: not a boss."""
    return False if board is None or not board.has(recipient) else board.unit(recipient).is_boss


@combat.implements("500.5a", "500.5b", "500.5c", "500.5d", "500.1b", "500.1e")
def process_credit(
    instance: Any, recipient: str, credited: Int, lost: Int, log: EventLog, ruleset: Ruleset = DEFAULT,
    board: Board | None = None,
) -> None:
    """Credit and Feast for one instance, applier by applier: credit, then Feast from the Vitality portion (500.5).

    ``credited`` is the damage dealt (Shield-absorbed damage and Vitality lost, never
    Insurance's: 500.1b, INT-019); ``lost`` is the Vitality portion that feeds Feast (500.1e,
    500.5c). A dead source is credited like a living one (500.5d). ``board`` tells whose damage
    is friendly (:func:`is_credit_withheld`, INT-357), whether a dead source keeps the kill alone
    (:func:`is_dead_source_withheld`, INT-355) and whether a boss's Vitality feeds nobody
    (:func:`is_feast_withheld_from_boss`, INT-123).
    """
    shares = compute_credited(instance)
    if not shares:
        return  # no actor behind it (500.1c)
    weights = tuple(w for _, w in shares)
    credit = compute_shares(credited, weights, ruleset)
    feast = compute_shares(lost, compute_feast_weights(credited, weights, credit, ruleset), ruleset)
    kept = [is_share_kept(board, uid, recipient, instance.kind, ruleset) for uid, _ in shares]
    feeds = not_(is_feast_withheld_from_boss(board, recipient, ruleset))
    # every credit, then every Feast: the event contract's stage order (credit before feast) holds for a shared tick too
    for (uid, _), dealt, keeps in zip(shares, credit, kept):
        log.emit("credit", when=_kept(dealt > 0, keeps), unit=uid, amount=dealt, other=recipient)
    for (uid, _), fed, keeps in zip(shares, feast, kept):
        log.emit("feast", when=_kept(fed > 0, keeps, feeds), unit=uid, amount=fed, other=recipient)


def is_share_kept(board: Board | None, uid: str, recipient: str, kind: str, ruleset: Ruleset) -> Bool:
    """Whether ``uid``'s share is credited and fed at all: it is not friendly damage withheld (INT-357) nor a dead
    source's (INT-355); ``True`` itself when no reading withholds anything (500.5a)."""
    withheld = [w for w in (is_credit_withheld(board, uid, recipient, ruleset),
                            is_dead_source_withheld(board, uid, kind, ruleset)) if w is not False]
    return not_(or_(*withheld)) if withheld else True


def _kept(condition: Bool, *gates: Bool) -> Bool:
    """``condition``, where every gate lets it through (the default's term unchanged when nothing is withheld)."""
    open_gates = [g for g in gates if g is not True]
    return and_(condition, *open_gates) if open_gates else condition
