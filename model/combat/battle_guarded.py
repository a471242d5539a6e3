"""The battle clock run once on symbols: guarded pending revivals, tries in scheduling order (500.4d, 500.9a).

:func:`~.battle.advance` is a ``while`` over the pending Everlasting revivals, with Python
``if``s on due times and free slots: a concrete run only. This module is the same clock for a
run whose deaths are conditions (``referee query``, which runs the model once on symbols):

* a pending revival carries the condition under which its death scheduled it (``active``:
  the guard of its ``everlasting_scheduled`` event, ``True`` on a concrete run);
* :func:`advance_guarded` visits the pending revivals in the order they were scheduled, and
  each one's try is a guarded step (:func:`~.guarded.run_guarded`) that happens exactly when
  combat runs, the revival is active and its due time (death + 10 s, 500.4d) is at most the
  target time. The try itself is :func:`~.battle.process_everlasting_try`, the concrete
  clock's own code;
* :func:`end_guarded` lapses what is still due, each ``everlasting_lapsed`` guarded by its
  revival's condition.

It is the ``while`` of :func:`~.battle.advance` exactly when no try is ever delayed, which is
what it requires and checks (:func:`check_never_delayed`): every unit stands in a cell of its
own, and no side has more units than its half has slots (``rows`` x ``cols``). A try is delayed
only when every slot of the half is held by another living unit, and living units always stand
in distinct cells, so on such a board a slot is always free under both of INT-404's readings,
every try succeeds at its first due time, and those times (death + 10 s) are in the order of the
deaths, the order the revivals were scheduled in.

Where the revival lands: on a concrete board (a witness's replay) the try is the concrete
clock's, under the run's own reading, cell and all. On symbols it is placed in its cell of death
(the ``death_cell_first`` placement) without reading ``everlasting_slot_order``: exact under
``death_cell_first`` (on a board of distinct cells no unit ever moves, so the cell of death is
never held); under ``reading_order`` a unit may really land in another cell, which this run does
not make symbolic. That cell is observed by nothing a query condition reads: not a unit field
(``row``/``col`` are structure), not an event's count (only ``everlasting_revival``'s detail and
the order of the ally channel's events name it), not a later try (never delayed, above). Only
the reading-order searches of later actions read it (an ability's recipients, a Bloodletting
payer): ``referee query`` refuses those after an ``advance`` unless the reading is fixed to
``death_cell_first`` (``referee/query/run.py``, ``clock_reading``). ``referee query`` holds both
clocks together by replaying every witness through ``referee.actions`` (the ``while``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..arith import and_, ite, not_
from ..clauses import combat
from ..events import EventLog
from .battle import (DEFAULT_COLS, DEFAULT_ROWS, Battle, PendingRevival, compute_everlasting_due,
                     process_everlasting_try)
from .guarded import run_guarded
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int


@dataclass(frozen=True, slots=True)
class GuardedRevival:
    """A revival due under a condition: who, when it died, the killer it carries, and whether it is due at all."""

    uid: str
    died_ms: Int
    killer: str | None
    active: Bool = True


@dataclass(frozen=True, slots=True)
class GuardedBattle:
    """A board at a (possibly symbolic) time, the revivals that may be due, and whether combat runs."""

    board: Board
    now_ms: Int = 0
    pending: tuple[GuardedRevival, ...] = ()
    running: bool = True


def start_guarded(board: Board) -> GuardedBattle:
    """A battle at 0 ms on ``board``, nothing pending (as :func:`~.battle.start_battle`)."""
    return GuardedBattle(board)


@combat.implements("500.4d", "500.9a", "500.9k")
def schedule_guarded(battle: GuardedBattle, log: EventLog) -> GuardedBattle:
    """Each ``everlasting_scheduled`` of ``log`` is a revival due 10 s on, under that event's own condition (500.4d)."""
    due = tuple(GuardedRevival(g.event.unit, battle.now_ms, g.event.other, g.when)
                for g in log.entries if g.event.name == "everlasting_scheduled" and g.when is not False)
    return replace(battle, pending=battle.pending + due) if due else battle


#: The placement of a revival on symbols: its cell of death (see the module docstring).
IN_DEATH_CELL = replace(DEFAULT, everlasting_slot_order="death_cell_first")


@combat.implements("500.9a")
def check_never_delayed(board: Board, rows: int = DEFAULT_ROWS, cols: int = DEFAULT_COLS) -> None:
    """The run needs tries never delayed: every unit in a cell of its own, no side with more units than slots."""
    cells = [u.position for u in board.units]
    if len(set(cells)) != len(cells):
        raise ValueError("advance_guarded: two units share a cell, so a try could find its cell held")
    for side in (0, 1):
        if sum(1 for u in board.units if u.side == side) > rows * cols:
            raise ValueError(f"advance_guarded: side {side} has more units than its {rows} x {cols} half has slots, "
                             "so a try could find the half full")


def placement_ruleset(fires: Bool, board: Board, ruleset: Ruleset) -> Ruleset:
    """The reading a try places its revival by: the run's own when the try and who lives are concrete (a replay),
    else the cell of death, a position that stays concrete (500.9a, INT-404)."""
    if isinstance(fires, bool) and all(isinstance(u.alive, bool) for u in board.units):
        return ruleset
    return IN_DEATH_CELL


def try_revival(board: Board, due: GuardedRevival, placement: Ruleset, log: EventLog) -> tuple[Board, None]:
    """The concrete clock's try (:func:`~.battle.process_everlasting_try`) at the revival's due time (500.9a)."""
    when = compute_everlasting_due(due.died_ms)
    pending = PendingRevival(due.uid, due.died_ms, when, due.killer)
    after = process_everlasting_try(Battle(board, when, (pending,)), pending, placement, log)
    if after.pending:
        raise ValueError("advance_guarded: a try was delayed, which check_never_delayed rules out")
    return after.board, None


@combat.implements("500.4d", "500.9a")
def advance_guarded(battle: GuardedBattle, ms: Int, ruleset: Ruleset) -> tuple[GuardedBattle, EventLog, Int]:
    """Time moves on by ``ms``: each revival, in scheduling order, tries when due by then (500.4d, 500.9a).

    Returns the battle, the events and how many revivals fired (a term on symbols).
    """
    check_never_delayed(battle.board)
    target, log, board = battle.now_ms + ms, EventLog(), battle.board
    kept: list[GuardedRevival] = []
    fired: Int = 0
    for due in battle.pending:
        fires = and_(due.active, compute_everlasting_due(due.died_ms) <= target) if battle.running else False
        placement = placement_ruleset(fires, board, ruleset)
        board, _ = run_guarded(fires, board, log,
                               lambda b, inner, due=due, at=placement: try_revival(b, due, at, inner))
        fired = fired + ite(fires, 1, 0)
        still = and_(due.active, not_(fires))
        if still is not False:
            kept.append(replace(due, active=still))
    return GuardedBattle(board, target, tuple(kept), battle.running), log, fired


@combat.implements("500.9a")
def end_guarded(battle: GuardedBattle) -> tuple[GuardedBattle, EventLog]:
    """Combat stops: each revival still due lapses, under its own condition (500.9a, as :func:`~.battle.end_combat`)."""
    log = EventLog()
    for due in battle.pending:
        log.emit("everlasting_lapsed", when=due.active, unit=due.uid, amount=battle.now_ms)
    return GuardedBattle(battle.board, battle.now_ms, (), False), log


def count_pending(battle: GuardedBattle) -> Int:
    """How many revivals are still due (a term on symbols)."""
    return sum((ite(due.active, 1, 0) for due in battle.pending), 0)

