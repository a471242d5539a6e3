"""Theorem setups the combat theorems share: a theorem over several runs, a board of two sides, what a log says.

Many theorems run one setup once per case (a cost of every kind, a heal on every lane, a split for two and for
three appliers, every Armor debuff) and conjoin what each run assumes and what each claims. :class:`Runs` keeps
those two lists, in the order the runs make them, so a theorem states only its setup and its claim;
:func:`each_stays_legal` is the legality theorems' whole shape (each case's board legal before, legal after).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from referee.model.arith import and_, not_, or_
from referee.model.combat.legal import is_legal_board, is_legal_unit
from referee.model.combat.state import Board
from referee.model.events import EventLog

from ..core import Obligation, Vars, all_of
from .symbolic import symbolic_unit


class Runs:
    """The runs of one theorem: every run's assumptions and claims, kept in the order they are made."""

    def __init__(self) -> None:
        self.assumptions: list[Any] = []
        self.claims: list[Any] = []

    def assume(self, *terms: Any) -> None:
        self.assumptions.extend(terms)

    def claim(self, *terms: Any) -> None:
        self.claims.extend(terms)

    def each(self, cases: Iterable[Any], setup: Callable[[Any], Any], given: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
        """``(case, setup(case))`` for each case, with ``given(run)`` assumed as each run is made."""
        for case in cases:
            run = setup(case)
            self.assume(given(run))
            yield case, run

    def obligation(self) -> Obligation:
        """Every run's assumptions assumed, every run's claims claimed."""
        return Obligation(assume=all_of(*self.assumptions), claim=and_(*self.claims))


def each_stays_legal(cases: Iterable[Any], step: Callable[[Any], tuple[Board, Board]]) -> Obligation:
    """Each case's ``step(case) -> (before, after)`` takes a legal board to a legal board (one obligation for all)."""
    runs = Runs()
    for case in cases:
        before, after = step(case)
        runs.claim(is_legal_board(after))
        runs.assume(is_legal_board(before))
    return runs.obligation()


def two_sides(v: Vars, first: str, second: str) -> Board:
    """``first`` on one half and ``second`` on the other, every number and flag of each a variable."""
    return Board((symbolic_unit(v, first, side=0), symbolic_unit(v, second, side=1)))


def legal_units(board: Board) -> Any:
    """Every unit of the board is a legal unit."""
    return and_(*[is_legal_unit(u) for u in board.units])


def emitted(log: EventLog, name: str, unit: str | None = None) -> Any:
    """Whether the log can contain an event ``name`` (for ``unit``): the disjunction of its guards."""
    return or_(False, *[g.when for g in log.entries if g.event.name == name and (unit is None or g.event.unit == unit)])


def amounts_when(log: EventLog, name: str, unit: str, claim: Any) -> Any:
    """``claim(amount)`` holds for every event ``name`` on ``unit`` that is emitted."""
    return and_(True, *[or_(not_(g.when), claim(g.event.amount)) for g in log.entries
                        if g.event.name == name and g.event.unit == unit])  # fmt: skip
