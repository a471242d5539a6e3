"""A step that happens only when a condition holds: its board chosen, its events guarded (single-source).

Model code that would write ``if condition: board = step(board)`` writes
``board, result = run_guarded(condition, board, log, step)`` instead. On concrete values it
is that ``if`` (a ``False`` condition skips the step, ``result`` is ``None``); on Z3 terms
the step runs on the board as it is, each of its events is guarded by the condition too,
and every unit is chosen field by field (``ite``) between the step's board and the board
before it. The ability resolution (400.8) uses it for a line's condition (400.8-4), a
recipient's gates (400.8-5) and a cost that stops the activation (800.4d, 800.4k), so
``referee query`` runs one activation once on symbols.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..arith import and_, ite
from ..events import EventLog
from .state import Board


def merge_boards(condition: Any, then: Board, otherwise: Board) -> Board:
    """``then`` where ``condition`` holds, else ``otherwise``, unit by unit (the same units in the same order)."""
    if condition is True:
        return then
    if condition is False:
        return otherwise
    if [u.uid for u in then.units] != [u.uid for u in otherwise.units]:
        raise ValueError("merge_boards: the two boards hold different units")
    return Board(tuple(ite(condition, a, b) for a, b in zip(then.units, otherwise.units)))


def run_guarded(
    condition: Any, board: Board, log: EventLog, step: Callable[[Board, EventLog], tuple[Board, Any]]
) -> tuple[Board, Any]:
    """``step(board, log)`` only when ``condition`` holds: ``(board, result)``; ``result`` is ``None`` when skipped."""
    if condition is False:
        return board, None
    inner = EventLog()
    after, result = step(board, inner)
    for guarded in inner.entries:
        when = and_(condition, guarded.when)
        if when is not False:
            log.entries.append(guarded.guarded_by(True if when is True else when))
    return merge_boards(condition, after, board), result
