"""What a query is and what it answers: the records every part of the query package shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .parser import Typed
from .solve import Cell, replay_values
from .space import ActionSpec, Layout, features_legal, is_legal_run, layouts, space_words, structure_line


@dataclass
class QueryAnswer:
    """``found`` with a replayed scenario, ``impossible`` over a stated space, or ``unknown``."""

    status: str
    condition: str
    space: str = ""
    scenario: dict[str, Any] | None = None
    observation: dict[str, Any] | None = None
    detail: str = ""
    scenarios: dict[str, dict[str, Any]] = field(default_factory=dict)
    cell: str = ""
    cells: int = 0
    seconds: float = 0.0
    objective: dict[str, Any] | None = None
    engine: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("status", "condition", "space", "scenario", "observation", "detail",
                                              "scenarios", "cell", "cells", "seconds", "objective", "engine")}


@dataclass
class Query:
    """A parsed query: its condition, actions, space bounds and fixed readings."""

    text: str
    condition: Typed
    specs: tuple[ActionSpec, ...]
    units: int
    fixed: dict[str, Any]
    split: bool
    relations: tuple[str, ...]
    objective: Typed | None = None
    sense: int = 1
    #: The features left out (``--without``): fixed off in every cell.
    off: frozenset[str] = frozenset()
    #: ``--whole-domain``: search every encoded value, illegal states included (robustness questions).
    whole_domain: bool = False

    def layouts(self) -> list[Layout]:
        return layouts(self.units, self.specs, self.relations, self.off)

    def space(self) -> str:
        return structure_line(self.units, self.specs, self.fixed, self.relations if any(
            s.kind in ("damage", "hit") for s in self.specs) else ("enemy", "ally"), self.off) + space_words(self.whole_domain)


def safe_replay(values: dict[str, Any], cell: Cell, query: Query) -> tuple[bool, Any]:
    """Replay ``values`` concretely; a candidate outside the legal domain or the protocol does not hold."""
    from referee.model.combat.retaliation import ScenarioError

    try:
        holds, replay = replay_values(values, cell, query.specs, query.fixed, query.split, query.condition)
    except (ScenarioError, KeyError, ValueError):
        return False, None
    before = replay["runs"]["main"].before.units
    legal = query.whole_domain or is_legal_run(replay["runs"]["main"], query.specs, cell.layout) is True
    legal = legal and features_legal(cell.layout, before) is True
    return bool(holds and legal and replay["ruleset"].defy_death_leaves >= 1), replay
