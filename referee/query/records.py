"""What a query is and what it answers: the records every part of the query package shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .parser import Typed
from .solve import Cell, replay_values
from .space import (ActionSpec, Layout, features_legal, is_legal_run, layouts, searches_full_half, space_words,
                    structure_line)


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
    #: An ``unknown`` answer's progress: what was decided, what is open, the cheaper question (:func:`unknown_answer`).
    progress: dict[str, Any] | None = None
    #: ``--by-reading``: the partition of the readings (:func:`.by_reading.reading_table`).
    by_reading: dict[str, Any] | None = None
    #: How many cells a solver question decided (a witness, or proved impossible).
    cells_solved: int = 0

    def to_json(self) -> dict[str, Any]:
        keys = ("status", "condition", "space", "scenario", "observation", "detail", "scenarios", "cell", "cells",
                "cells_solved", "seconds", "objective", "engine", "progress")
        out = {k: getattr(self, k) for k in keys}
        if self.by_reading is not None:
            out["by_reading"] = self.by_reading
        return out


#: How many open cells the text answer lists (``--json`` lists them all).
OPEN_CELLS_SHOWN = 5


def unknown_answer(query: "Query", built: int, open_cells: list[str], unbuilt: bool, why: str) -> QueryAnswer:
    """``unknown``, saying how many cells were decided, which remain open, and the cheaper question if there is one.

    ``built`` cells were run on symbols; ``open_cells`` (labels) are those neither proved
    impossible nor given a witness; ``unbuilt``: readings of the space not even built yet.
    """
    decided = built - len(open_cells)
    cheaper = cheaper_question(query)
    progress = {"cells_built": built, "cells_decided": decided, "open_cells": list(open_cells),
                "more_cells_unbuilt": unbuilt, "cheaper": cheaper}
    lines = [f"{why}; never a guess",
             f"cells: {built} built, {decided} decided (proved impossible), {len(open_cells)} open"
             + ("; the search stopped before building every cell of the space" if unbuilt else "")]
    lines += [f"  open: {label}" for label in open_cells[:OPEN_CELLS_SHOWN]]
    if len(open_cells) > OPEN_CELLS_SHOWN:
        lines.append(f"  ... and {len(open_cells) - OPEN_CELLS_SHOWN} more (--json lists them all)")
    if cheaper:
        lines.append(f"cheaper: {cheaper['summary']}")
    return QueryAnswer("unknown", query.text, query.space(), cells=built, detail="\n".join(lines), progress=progress,
                       cells_solved=decided)


def cheaper_question(query: "Query") -> dict[str, Any] | None:
    """The same question over the default ruleset reading only (``--ruleset defaults``), when the query ranges wider."""
    from referee.model.combat.ruleset import DEFAULT

    defaults = DEFAULT.to_json()
    if all(query.fixed.get(k) == v for k, v in defaults.items()):
        return None
    cells = len(query.layouts())
    return {"flag": "--ruleset defaults", "cells": cells,
            "summary": f"ask the same question with --ruleset defaults (the default reading of every option only: "
                       f"{cells} cells, one per structure, instead of every reading the model reads); its verdict "
                       "covers that reading only"}


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
    #: The options the model reads as data searched in one formula per cell (False: one cell per reading, the
    #: reference the soundness test holds the merged search to).
    merge_readings: bool = True

    def layouts(self) -> list[Layout]:
        return layouts(self.units, self.specs, self.relations, self.off, searches_full_half(self.specs, self.fixed))

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
