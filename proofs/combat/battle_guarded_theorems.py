"""Theorems of the guarded battle clock (500.4d, 500.9a): the clock ``referee query`` runs on symbols.

:mod:`referee.model.combat.battle_guarded` runs an Everlasting revival's try as a guarded
step; these theorems run it on a symbolic board, time, death time, step and pending
condition, and state when the try fires (exactly when the revival is pending, combat runs
and its death is at least 10 s behind the new time), what it does (the unit back, alive, in
its cell, the revival event at death + 10 s), and that after ``end_combat`` nothing fires.
That this clock is the concrete ``while`` of :func:`~referee.model.combat.battle.advance`
is held by ``tests/test_query_clock.py`` (the paired way of ``docs/architecture.md``).
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, ite, not_, or_
from referee.model.combat import battle_guarded as clock
from referee.model.combat.state import Board

from referee.model.combat.legal import is_legal_board
from ..core import Mutant, Obligation, Vars, theorem
from .revival_theorems import NINE_SECONDS
from .symbolic import symbolic_unit


def pending_battle(v: Vars) -> tuple[clock.GuardedBattle, Any, Any]:
    """``u`` (side 0) died at ``died_ms``, its revival pending when ``pending`` holds; now is ``now_ms``; killer ``q``."""
    board = Board((symbolic_unit(v, "u", side=0), symbolic_unit(v, "q", side=1)))
    died, now = v.int("died_ms"), v.int("now_ms")
    revival = clock.GuardedRevival("u", died, "q", v.bool("pending"))
    return clock.GuardedBattle(board, now, (revival,)), died, now


def fired(log: Any, name: str) -> Any:
    """Whether the log holds the event ``name`` for ``u`` (a disjunction of guards)."""
    return or_(*[g.when for g in log.entries if g.event.name == name and g.event.unit == "u"], False)


def assumed(battle: clock.GuardedBattle, died: Any, now: Any, ms: Any) -> Any:
    u = battle.board.unit("u")
    return and_(is_legal_board(battle.board), not_(u.alive), u.vitality == 0, 0 <= died, died <= now, ms >= 0)


@theorem("combat:500.4d", "combat:500.9a", mutants=[NINE_SECONDS])
def guarded_everlasting_try_fires_exactly_ten_seconds_after_death(v: Vars) -> Obligation:
    """An advance fires a pending Everlasting revival exactly when its death is at least 10 seconds behind the new time, and then the unit is back alive in its cell of death, the revival event stamped at death + 10 s."""
    battle, died, now = pending_battle(v)
    ms = v.int("ms")
    after, log, count = clock.advance_guarded(battle, ms, v.ruleset())
    due = and_(battle.pending[0].active, died + 10_000 <= now + ms)
    stamps = [g for g in log.entries if g.event.name == "everlasting_revival"]
    back = after.board.unit("u")
    claim = and_(fired(log, "everlasting_revival") == due, count == ite(due, 1, 0),
                 after.now_ms == now + ms, back.alive == due,
                 back.position == battle.board.unit("u").position,
                 and_(*[or_(not_(g.when), g.event.amount == died + 10_000) for g in stamps]),
                 clock.count_pending(after) == ite(and_(battle.pending[0].active, not_(due)), 1, 0))
    return Obligation(assume=assumed(battle, died, now, ms), claim=claim)


def _end_keeps_running(battle: clock.GuardedBattle) -> tuple[clock.GuardedBattle, Any]:
    """Combat 'ends' but keeps its revivals pending and running (the lapse forgotten)."""
    from referee.model.events import EventLog

    return battle, EventLog()


KEEPS_RUNNING = Mutant("end_combat_keeps_the_revival", "referee.model.combat.battle_guarded:end_guarded",
                       _end_keeps_running)


@theorem("combat:500.9a", mutants=[KEEPS_RUNNING])
def no_everlasting_revival_after_combat_ends(v: Vars) -> Obligation:
    """Once combat ends, a pending revival lapses exactly when it was pending, and no later advance revives the unit, however long."""
    battle, died, now = pending_battle(v)
    ms = v.int("ms")
    ended, lapse_log = clock.end_guarded(battle)
    after, log, count = clock.advance_guarded(ended, ms, v.ruleset())
    claim = and_(fired(lapse_log, "everlasting_lapsed") == battle.pending[0].active,
                 not_(fired(log, "everlasting_revival")), count == 0, not_(after.board.unit("u").alive))
    return Obligation(assume=assumed(battle, died, now, ms), claim=claim)
