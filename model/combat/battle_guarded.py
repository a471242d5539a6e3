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

It is the ``while`` of :func:`~.battle.advance` on the boards it accepts
(:func:`check_tries_in_order`): every unit in a cell of its own, and, on a half that can be
full (more units on its side than the half has slots, ``rows`` x ``cols``), at most one unit
that can be Everlasting. A try is delayed only when every slot of its half is held by another
living unit, or by a dead one under ``dead_unit_cell = held`` (500.9a, INT-403). The units stand in
distinct cells, so the free slots are the slots less the holding others standing in the half, a
count (:func:`has_free_slot`): a side with
fewer other units than slots always has one, and a half that can be full has one waiting
revival at most, so the tries of each half happen in the order they were scheduled, and the
sides do not meet (a try touches its own unit, its own side's listeners). Under
``death_cell_first`` no unit ever moves, so a unit's cell of death is never held and no try is
delayed; under ``reading_order`` a try on a full half is delayed, and retries at every later
tick while combat runs (one ``everlasting_delayed`` each): within one ``advance`` nothing frees
a slot, so the retries up to the new time are all delayed, one log entry of ``times`` events
on symbols (:func:`emit_delays`; the concrete run emits each).

Where the revival lands: on a concrete board (a witness's replay) the try is the concrete
clock's, under the run's own reading, cell and all. On symbols it is placed in its cell of death
(the ``death_cell_first`` placement) without reading ``everlasting_slot_order``: exact under
``death_cell_first`` (no unit ever moves, so the cell of death is never held); under
``reading_order`` a unit may really land in another cell, which this run does not make
symbolic. What a later try needs of that cell, whether it stands in the half, is kept
(``GuardedBattle.in_half``). The cell itself is observed by nothing a query condition reads:
not a unit field (``row``/``col`` are structure), not an event's count (only
``everlasting_revival``'s detail and the order of the ally channel's events name it). Only the
reading-order searches of later actions read it (an ability's recipients, a Bloodletting
payer): ``referee query`` refuses those after an ``advance`` unless the reading is fixed to
``death_cell_first`` (``referee/query/run.py``, ``clock_reading``). ``referee query`` holds both
clocks together by replaying every witness through ``referee.actions`` (the ``while``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..arith import and_, floordiv, is_symbolic, ite, not_, or_
from ..clauses import combat
from ..events import Event, EventLog, GuardedRun
from .battle import (DEFAULT_COLS, DEFAULT_ROWS, TICK_MS, Battle, PendingRevival, compute_everlasting_due,
                     compute_next_tick, process_everlasting_try)
from .guarded import run_guarded
from .revival import holds_cell
from .ruleset import Ruleset
from .state import Board, Bool, Int, Unit


@dataclass(frozen=True, slots=True)
class GuardedRevival:
    """A revival due under a condition: who, when it died, the killer it carries, and whether it is due at all."""

    uid: str
    died_ms: Int
    killer: str | None
    active: Bool = True
    #: When it tries next, once a try was delayed (``None``: its first try, death + 10 s).
    next_try: Int | None = None

    def try_at(self) -> Int:
        """Its next try: death + 10 s (500.4d), or the tick a delayed try retries at (500.9a)."""
        return compute_everlasting_due(self.died_ms) if self.next_try is None else self.next_try


@dataclass(frozen=True, slots=True)
class GuardedBattle:
    """A board at a (possibly symbolic) time, the revivals that may be due, and whether combat runs."""

    board: Board
    now_ms: Int = 0
    pending: tuple[GuardedRevival, ...] = ()
    running: bool = True
    #: Units a revival may have moved (reading_order): whether each now stands in its half's slots.
    in_half: tuple[tuple[str, Bool], ...] = ()


def start_guarded(board: Board) -> GuardedBattle:
    """A battle at 0 ms on ``board``, nothing pending (as :func:`~.battle.start_battle`)."""
    return GuardedBattle(board)


@combat.implements("500.4d", "500.9a", "500.9k")
def schedule_guarded(battle: GuardedBattle, log: EventLog) -> GuardedBattle:
    """Each ``everlasting_scheduled`` of ``log`` is a revival due 10 s on, under that event's own condition (500.4d)."""
    due = tuple(GuardedRevival(g.event.unit, battle.now_ms, g.event.other, g.when)
                for g in log.entries if g.event.name == "everlasting_scheduled" and g.when is not False)
    return replace(battle, pending=battle.pending + due) if due else battle


class InDeathCell:
    """The placement of a revival on symbols: its cell of death (see the module docstring). Every other option reads
    as the run's own (``delayed_revival_killer``, INT-413, decides what the revival carries)."""

    __slots__ = ("ruleset",)

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def __getattr__(self, name: str) -> object:
        return "death_cell_first" if name == "everlasting_slot_order" else getattr(self.ruleset, name)


@combat.implements("500.9a")
def check_tries_in_order(board: Board, rows: int = DEFAULT_ROWS, cols: int = DEFAULT_COLS) -> None:
    """The run needs every unit in a cell of its own, and at most one unit that can be Everlasting on a half that can
    be full (more units on its side than slots): then each half's tries happen in the order they were scheduled."""
    cells = [u.position for u in board.units]
    if len(set(cells)) != len(cells):
        raise ValueError("advance_guarded: two units share a cell, so a try could find its cell held")
    for side in (0, 1):
        units = [u for u in board.units if u.side == side]
        if len(units) > rows * cols and sum(1 for u in units if can_be_everlasting(u)) > 1:
            raise ValueError(f"advance_guarded: side {side}'s half can be full ({len(units)} units, {rows} x {cols} "
                             "slots) and more than one of its units can be Everlasting, so two revivals could wait")


def can_be_everlasting(unit: Unit) -> bool:
    """Whether the unit may hold Everlasting: a field never granted (only a life's grant ends, 500.9g), so one that
    started ``False`` is ``False``, or a term Z3 simplifies to ``False`` after the steps that chose it field by field."""
    if not is_symbolic(unit.everlasting):
        return bool(unit.everlasting)
    import z3

    return not z3.is_false(z3.simplify(unit.everlasting))


def stands_in_half(battle: GuardedBattle, unit: Unit, rows: int, cols: int) -> Bool:
    """Whether ``unit`` stands in one of its half's slots: as a revival left it, else by its cell (INT-403)."""
    moved = dict(battle.in_half)
    if unit.uid in moved:
        return moved[unit.uid]
    return unit.row < rows and unit.col < cols


@combat.implements("500.9a")
def has_free_slot(battle: GuardedBattle, uid: str, ruleset: Ruleset, rows: int = DEFAULT_ROWS,
                  cols: int = DEFAULT_COLS) -> Bool:
    """Whether ``uid``'s try finds a slot (500.9a, INT-404): always with fewer other units on its side than slots;
    under ``death_cell_first`` its cell of death, never held; under ``reading_order`` a slot no other holds: a
    living other, or a dead one under ``dead_unit_cell = held`` (:func:`~.revival.holds_cell`, INT-403)."""
    unit = battle.board.unit(uid)
    others = [u for u in battle.board.units if u.side == unit.side and u.uid != uid]
    if len(others) < rows * cols:
        return True
    held = sum((ite(and_(holds_cell(u, ruleset), stands_in_half(battle, u, rows, cols)), 1, 0) for u in others), 0)
    return or_(ruleset.everlasting_slot_order == "death_cell_first", held < rows * cols)


@combat.implements("500.9a")
def emit_delays(delayed: Bool, due: GuardedRevival, at: Int, target: Int) -> tuple[Int, list[tuple[Int, EventLog]]]:
    """A delayed try retries at every tick after it up to ``target``, each retry delayed too (nothing frees a slot
    within one advance): one ``everlasting_delayed`` per try, each carrying the next. Returns the next try after
    ``target`` and the events, each with the time of its try (one entry of ``times`` events on symbols)."""
    first = compute_next_tick(at)
    if delayed is False:
        return first, []
    times = 1 + floordiv(target, TICK_MS) - floordiv(at, TICK_MS)
    if delayed is True and type(times) is int and type(first) is int:  # a concrete run: each event at its time
        tries = [at] + [first + k * TICK_MS for k in range(times - 1)]
        return compute_next_tick(target), [(when, delay_log(due, when)) for when in tries]
    log = EventLog([GuardedRun(delayed, Event("everlasting_delayed", unit=due.uid, amount=first), times)])
    return compute_next_tick(target), [(at, log)]


@combat.implements("500.9a")
def delay_log(due: GuardedRevival, when: int) -> EventLog:
    """The one event of a try at ``when`` that found no slot: it retries at the next tick (500.9a)."""
    log = EventLog()
    log.emit("everlasting_delayed", unit=due.uid, amount=compute_next_tick(when))
    return log


def in_time_order(tries: list[tuple[tuple[Int, Int, int], EventLog]]) -> EventLog:
    """The tries' events in the order the concrete clock runs them, by (time, death, scheduling), when every time is
    concrete; on symbols in scheduling order (a half's tries are in that order, and the two halves share no event
    a condition counts, :func:`check_tries_in_order`)."""
    concrete = all(type(t) is int and type(d) is int for (t, d, _), _ in tries)
    log = EventLog()
    for _, chunk in (sorted(tries, key=lambda item: item[0]) if concrete else tries):
        log.extend(chunk)
    return log


def placement_ruleset(fires: Bool, board: Board, ruleset: Ruleset) -> Ruleset:
    """The reading a try places its revival by: the run's own when the try and who lives are concrete (a replay),
    else the cell of death, a position that stays concrete (500.9a, INT-404); the other options as the run's."""
    if isinstance(fires, bool) and all(isinstance(u.alive, bool) for u in board.units):
        return ruleset
    return InDeathCell(ruleset)  # type: ignore[return-value]


def try_revival(board: Board, due: GuardedRevival, placement: Ruleset, log: EventLog) -> tuple[Board, None]:
    """The concrete clock's try (:func:`~.battle.process_everlasting_try`) at the revival's due time (500.9a), on a
    board where it finds a slot (:func:`has_free_slot`)."""
    when = due.try_at()
    pending = PendingRevival(due.uid, due.died_ms, when, due.killer)
    after = process_everlasting_try(Battle(board, when, (pending,)), pending, placement, log)
    if after.pending:
        raise ValueError("advance_guarded: a try found no slot where has_free_slot found one")
    return after.board, None


@combat.implements("500.4d", "500.9a")
def advance_guarded(battle: GuardedBattle, ms: Int, ruleset: Ruleset) -> tuple[GuardedBattle, EventLog, Int]:
    """Time moves on by ``ms``: each revival, in scheduling order, tries when due by then (500.4d, 500.9a), and
    revives, or is delayed to the tick after the new time.

    Returns the battle, the events and how many revivals fired (a term on symbols).
    """
    check_tries_in_order(battle.board)
    target = battle.now_ms + ms
    kept: list[GuardedRevival] = []
    tries: list[tuple[tuple[Int, Int, int], EventLog]] = []
    fired: Int = 0
    for index, due in enumerate(battle.pending):
        at = due.try_at()
        due_now = and_(due.active, at <= target) if battle.running else False
        slot = has_free_slot(battle, due.uid, ruleset) if due_now is not False else True
        fires, delayed = and_(due_now, slot), and_(due_now, not_(slot))
        revival = EventLog()
        battle = revive_guarded(battle, due, fires, slot, ruleset, revival)
        retry, delays = emit_delays(delayed, due, at, target)
        tries += [((at, due.died_ms, index), revival)] + [((when, due.died_ms, index), log) for when, log in delays]
        fired = fired + ite(fires, 1, 0)
        still = and_(due.active, not_(fires))
        if still is not False:
            kept.append(replace(due, active=still, next_try=due.next_try if delayed is False else ite(delayed, retry, at)))
    return replace(battle, now_ms=target, pending=tuple(kept)), in_time_order(tries), fired


def revive_guarded(battle: GuardedBattle, due: GuardedRevival, fires: Bool, slot: Bool, ruleset: Ruleset,
                   log: EventLog) -> GuardedBattle:
    """The try as a guarded step; under ``reading_order`` the revived unit stands in its half's slots after it (kept
    only where a later try could find the half full: ``slot``, :func:`has_free_slot`'s answer, is not plainly True)."""
    placement = placement_ruleset(fires, battle.board, ruleset)
    board, _ = run_guarded(fires, battle.board, log, lambda b, inner: try_revival(b, due, placement, inner))
    if slot is True or fires is False:
        return replace(battle, board=board)
    unit = battle.board.unit(due.uid)
    now_in = or_(ruleset.everlasting_slot_order == "reading_order", stands_in_half(battle, unit, DEFAULT_ROWS, DEFAULT_COLS))
    moved = ite(fires, now_in, stands_in_half(battle, unit, DEFAULT_ROWS, DEFAULT_COLS))
    in_half = tuple((uid, b) for uid, b in battle.in_half if uid != due.uid) + ((due.uid, moved),)
    return replace(battle, board=board, in_half=in_half)


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

