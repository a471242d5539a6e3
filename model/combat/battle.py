"""The battle clock: a board, a time, and the timed effects still due (500.4d, 500.9a, 500.9l).

A single action (a hit, a cost) is a transition of the board alone, and means what it always
meant. A battle adds time, so that "10 seconds later" (Everlasting, 500.4d) and "retries on
later ticks while none is open" (500.9a) mean something:

* time is an integer number of **milliseconds** since the battle started (``now_ms``);
* a **tick** is :data:`TICK_MS` = 100 ms; tick ``k`` is at ``k * TICK_MS`` (INT-406);
* an Everlasting death at ``t`` schedules its first try at ``t + 10000``, exactly, whether
  or not that is on a tick; a try that finds no free slot on the unit's half retries at the
  first tick strictly after it, and so on, while combat runs (500.9a);
* the pending revival holds the killer's identity while the unit is down (500.9k);
* :func:`advance` moves time on and fires what falls due, in time order (ties: in the order
  the deaths happened); :func:`act` runs an action at the current time and schedules the
  Everlasting revivals its deaths asked for. Effects due at ``t`` fire before an action at ``t``.

Worked example: a unit with Everlasting dies at 1,250 ms on a full half. It tries at 11,250 ms
(no slot: ``everlasting_delayed`` with 11,300), an ally dies at 11,260 ms, and it revives at
11,300 ms, the first tick after its try, in the cell that ally left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..arith import and_, floordiv, is_symbolic, not_, or_
from ..clauses import combat
from ..events import EventLog
from .revival import count_events, get_everlasting_slot, process_revival_channels, revive_unit
from .ruleset import DEFAULT, Ruleset
from .guarded import run_guarded
from .state import Board, Bool, Int
from .vitality import EVERLASTING_DELAY_MS

#: The length of one tick, in milliseconds (INT-406).
TICK_MS = 100
#: The default board half: rows x columns of slots on each side (INT-403).
DEFAULT_ROWS = 2
DEFAULT_COLS = 4


@dataclass(frozen=True, slots=True)
class PendingRevival:
    """An Everlasting revival still due: who, when it next tries, and the killer it carries (500.9a, 500.9k)."""

    uid: str
    died_ms: int
    next_try_ms: int
    killer: str | None = None


@dataclass(frozen=True, slots=True)
class Battle:
    """A board at a time, with the revivals still due; each half has ``rows`` x ``cols`` slots."""

    board: Board
    now_ms: int = 0
    pending: tuple[PendingRevival, ...] = ()
    running: bool = True
    rows: int = DEFAULT_ROWS
    cols: int = DEFAULT_COLS

    def __post_init__(self) -> None:
        negative = not is_symbolic(self.now_ms) and self.now_ms < 0  # a symbolic time: model/combat/battle_guarded.py
        if negative or self.rows < 1 or self.cols < 1:
            raise ValueError("battle: time must be >= 0 ms and each half must have at least one row and column")


# --------------------------------------------------------------------------------------
# Time arithmetic (single source: the theorems run these on Z3 terms)
# --------------------------------------------------------------------------------------


@combat.implements("500.4d", "500.9a")
def compute_everlasting_due(died_ms: Int) -> Int:
    """The first try is exactly 10 seconds after the death (500.4d, 500.9a)."""
    return died_ms + EVERLASTING_DELAY_MS


@combat.implements("500.9a")
def compute_next_tick(after_ms: Int) -> Int:
    """The first tick strictly after ``after_ms`` (500.9a, INT-406)."""
    return (floordiv(after_ms, TICK_MS) + 1) * TICK_MS


# --------------------------------------------------------------------------------------
# Transitions
# --------------------------------------------------------------------------------------


def start_battle(board: Board, rows: int = DEFAULT_ROWS, cols: int = DEFAULT_COLS) -> Battle:
    """A battle at 0 ms on ``board``, nothing pending."""
    return Battle(board, 0, (), True, rows, cols)


@combat.implements("500.4d", "500.9a", "500.9k")
def schedule_revivals(battle: Battle, log: EventLog) -> Battle:
    """Every ``everlasting_scheduled`` in ``log`` becomes a pending revival 10 s on, holding its killer (500.4d)."""
    due = tuple(
        PendingRevival(e.unit, battle.now_ms, compute_everlasting_due(battle.now_ms), e.other)
        for e in log.events() if e.name == "everlasting_scheduled"
    )
    return replace(battle, pending=battle.pending + due) if due else battle


def act(battle: Battle, action: Callable[[Board], tuple[Board, EventLog]]) -> tuple[Battle, EventLog]:
    """Run one board action (``lambda b: resolve_hit(b, instance)``) at the current time."""
    board, log = action(battle.board)
    return schedule_revivals(replace(battle, board=board), log), log


@combat.implements("500.9a")
def end_combat(battle: Battle) -> tuple[Battle, EventLog]:
    """Combat stops: a revival still due never happens (500.9a: 'if combat is still running')."""
    log = EventLog()
    for p in battle.pending:
        log.emit("everlasting_lapsed", unit=p.uid, amount=battle.now_ms)
    return replace(battle, pending=(), running=False), log


@combat.implements("500.9a", "500.9c", "500.9k", "500.9m")
def process_everlasting_try(battle: Battle, due: PendingRevival, ruleset: Ruleset, log: EventLog) -> Battle:
    """One try at ``due.next_try_ms``: revive in a free slot of its half, carrying the killer as
    :func:`carries_killer` says (500.9k, INT-413), else retry at the next tick (500.9a)."""
    rest = tuple(p for p in battle.pending if p is not due)
    unit = battle.board.unit(due.uid)
    slot = get_everlasting_slot(battle.board, unit, battle.rows, battle.cols, ruleset)
    if slot is None:
        retry = replace(due, next_try_ms=compute_next_tick(due.next_try_ms))
        log.emit("everlasting_delayed", unit=due.uid, amount=retry.next_try_ms)
        return replace(battle, pending=rest + (retry,))
    start = len(log.entries)
    side, row, col = slot
    board = battle.board.with_unit_moved(revive_unit(unit).evolve(side=side, row=row, col=col))
    for killer, when in get_carried_killers(due, carries_killer(due, battle.now_ms, ruleset)):
        log.emit("everlasting_revival", when=when, unit=due.uid, amount=battle.now_ms, other=killer,
                 detail=f"{side},{row},{col}")
        process_revival_channels(board, due.uid, "everlasting", killer, when, log)
    log.emit("vessel_batch", unit=due.uid, amount=count_events(log, start), detail="revival")
    return replace(battle, board=board, pending=rest)


@combat.implements("500.9k", "500.9a")
def carries_killer(due: PendingRevival, now_ms: Int, ruleset: Ruleset) -> Bool:
    """Whether the revival trying at ``now_ms`` still carries its killer (500.9k, INT-413): under
    ``delayed_revival_killer = kept`` (the default) always, the pending revival holding it through every retry;
    under ``dropped`` only at its first try, 10 s after the death: Everlasting holds the killer's identity 'for the 10
    seconds the unit is down', so a revival a full board delayed (500.9a) carries none."""
    return or_(ruleset.delayed_revival_killer == "kept", now_ms <= compute_everlasting_due(due.died_ms))


@combat.implements("500.9k")
def get_carried_killers(due: PendingRevival, carried: Bool) -> tuple[tuple[str | None, Bool], ...]:
    """The killer the revival and its channels carry (500.9k), each with its condition: the pending revival's where
    ``carried`` holds (:func:`carries_killer`), else none, so a listener aimed at the killer falls back to its Focus
    roll. On symbols both are kept, each under its condition."""
    return ((due.killer, True),) if due.killer is None else ((due.killer, carried), (None, not_(carried)))


def get_next_due(battle: Battle) -> PendingRevival | None:
    """The pending revival that tries first (ties: the earlier death, then the earlier scheduled)."""
    if not battle.pending:
        return None
    return min(battle.pending, key=lambda p: (p.next_try_ms, p.died_ms, battle.pending.index(p)))


@combat.implements("500.4d", "500.9a")
def advance(battle: Battle, ms: int, ruleset: Ruleset = DEFAULT) -> tuple[Battle, EventLog]:
    """Move time on by ``ms`` milliseconds, firing every try that falls due on the way, in time order."""
    if ms < 0:
        raise ValueError(f"advance: time never runs backwards (got {ms} ms)")
    target, log = battle.now_ms + ms, EventLog()
    while battle.running:
        due = get_next_due(battle)
        if due is None or due.next_try_ms > target:
            break
        battle = process_everlasting_try(replace(battle, now_ms=due.next_try_ms), due, ruleset, log)
    return replace(battle, now_ms=target), log


@combat.implements("500.9d", "500.9l")
def resolve_activation(board: Board, uid: str, ruleset: Ruleset = DEFAULT, has_cost: bool = True) -> tuple[Board, EventLog]:
    """Action: the unit activates: its charge is spent (500.9d) and its Reliquary Speed cleared, now under
    ``reliquary_clear_point = start`` (the default), and under ``after_cost`` when no cost is to be paid (500.9l,
    INT-411); the other points are :func:`clear_speed_after_cost` and :func:`clear_speed_at_end`."""
    log = EventLog()
    now = or_(is_clear_point(ruleset, "start"), and_(not has_cost, is_clear_point(ruleset, "after_cost")))
    board, _ = run_guarded(now, board, log, lambda b, sub: (clear_reliquary_speed(b, uid, sub), None))
    return board.with_unit(board.unit(uid).evolve(charge=0)), log


def is_clear_point(ruleset: Ruleset, point: str) -> Bool:
    """Whether INT-411's reading is ``point``: a bool on a concrete ruleset, a solver term on a symbolic one."""
    return ruleset.reliquary_clear_point == point


@combat.implements("500.9l")
def clear_reliquary_speed(board: Board, uid: str, log: EventLog) -> Board:
    """The Speed a Reliquary revival handed the unit ends: ``reliquary_cleared`` when there was some (500.9l)."""
    unit = board.unit(uid)
    log.emit("reliquary_cleared", when=unit.reliquary_speed > 0, unit=uid, amount=unit.reliquary_speed)
    return board.with_unit(unit.evolve(reliquary_speed=0))


@combat.implements("500.9l", "800.4a", "800.4d")
def clear_speed_after_cost(board: Board, uid: str, failed: Bool, ruleset: Ruleset, log: EventLog) -> Board:
    """Under ``reliquary_clear_point = after_cost``: the cost is paid, the activation goes on and clears the Speed
    (a Speed a revival the payment caused handed it included); a failed ability (800.4d) clears nothing (INT-411)."""
    when = and_(is_clear_point(ruleset, "after_cost"), not_(failed))
    return run_guarded(when, board, log, lambda b, sub: (clear_reliquary_speed(b, uid, sub), None))[0]


@combat.implements("500.9l")
def clear_speed_at_end(board: Board, uid: str, ruleset: Ruleset, log: EventLog) -> Board:
    """Under ``reliquary_clear_point = end``: the activation clears the Speed once it has resolved, any Speed granted
    during it included (INT-411)."""
    when = is_clear_point(ruleset, "end")
    return run_guarded(when, board, log, lambda b, sub: (clear_reliquary_speed(b, uid, sub), None))[0]
