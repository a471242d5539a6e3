"""Under which readings is it possible? ``referee query --by-reading``: the partition of the ruleset readings.

Each cell runs the model once with the options it reads as solver variables (:mod:`.space`), so
one solver per cell can range over every reading. The partition is built region by region:

1. ask for a witness at a reading not yet covered (the regions found so far are blocked);
2. replay it, then *generalize* its reading: an option is let free when no reading of the free
   options makes the same witness fail (one solver call: the witness's inputs fixed, the goal
   negated, the free options unconstrained; each rounding integer is a function of its inputs,
   :func:`~referee.model.arith.least_such_that`, so "no failing reading" means "holds at every one");
3. the region (the options left fixed, each at the witness's reading) is possible, with that
   witness; block it and go on. When no uncovered reading has a witness the solver has *proved*
   every other reading impossible in that cell.

A reading is possible when some cell's region covers it, and impossible when every cell finished
without covering it. A cell the solver could not finish leaves the partition ``unknown``.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from typing import Any

from referee.model.readings import READING_PREFIX

from .solve import Cell, as_bool, concretized, condition_term, default_readings, fast_formulas, relaxed

#: The longest one refutation of ``free_options`` may take (ms): a safety net, not a budget.
REFUTE_SAFETY_MS = 10_000
#: The most options a compact table is computed over (2**n readings enumerated); beyond, the regions are listed.
TABLE_OPTIONS = 12


@dataclass
class Region:
    """Readings the condition is possible under: the options ``readings`` fixes (each other option: any reading)."""

    readings: dict[str, str]
    answer: Any  # the replayed ``found`` answer at one reading of the region

    def to_json(self) -> dict[str, Any]:
        return {"readings": dict(self.readings), "cell": self.answer.cell, "scenario": self.answer.scenario}


@dataclass
class Partition:
    """The regions found, the cells left open, and the options the space reads at all."""

    regions: list[Region] = field(default_factory=list)
    open_cells: list[str] = field(default_factory=list)
    defects: list[str] = field(default_factory=list)
    read: set[str] = field(default_factory=set)
    cells: int = 0


class CellSolver:
    """One cell's question in a Z3 context of its own, asked as :mod:`.solve` asks it: *fast* (Armor 0, Shield
    multipliers 1: a witness, never a proof), *relaxed* (rounding integers free: unsat proves, sat must replay) and
    *exact*; each with the readings already covered blocked. ``refute`` generalizes a witness's reading."""

    def __init__(self, cell: Cell, term: Any, rlimit: int) -> None:
        import z3

        self.z3, self.cell, self.ctx = z3, cell, z3.Context()
        goal = z3.And(as_bool(z3, cell.legal), as_bool(z3, term))
        side = [as_bool(z3, f) for f in cell.side_conditions]
        self.stages = {"fast": self._solver(rlimit, fast_formulas(cell, term)),
                       "relaxed": self._solver(rlimit, [*relaxed(side), goal]),
                       "exact": self._solver(rlimit, [*side, goal])}
        self.refute = self._solver(rlimit, [*side, z3.Not(goal)])
        # a wall-clock net only: Z3's nonlinear arithmetic does not always honour the rlimit, and an unanswered
        # refutation keeps its option fixed (a narrower region, still true)
        self.refute.set("timeout", REFUTE_SAFETY_MS)

    def _solver(self, rlimit: int, formulas: list[Any]) -> Any:
        solver = self.z3.Solver(ctx=self.ctx)
        solver.set("rlimit", rlimit)
        solver.add(*[as_bool(self.z3, f).translate(self.ctx) for f in formulas])
        return solver

    def literal(self, option: str, reading: str) -> Any:
        return self.cell.readings[option].is_reading(reading).translate(self.ctx)

    def block(self, cube: dict[str, str]) -> bool:
        """Exclude the readings of ``cube`` from the search; False when it covers the whole cell."""
        literals = [self.literal(o, r) for o, r in cube.items()]
        if not literals:
            return False
        for solver in self.stages.values():
            solver.add(self.z3.Not(self.z3.And(*literals)))
        return True

    def witness(self, deadline: float, replays: Any) -> tuple[str, dict[str, Any]]:
        """``("sat", values)`` for a reading not yet blocked (values that ``replays``), ``("unsat", {})`` when the
        relaxed or the exact question proves none is left, else ``("unknown", {})``."""
        defaults = [d.translate(self.ctx) for d in default_readings(self.cell)]
        for stage, solver in self.stages.items():
            solver.set("timeout", max(1, int(1000 * min(60.0, deadline - time.monotonic()))))
            answer = solver.check(*defaults) if stage == "fast" else self.z3.unknown
            if answer != self.z3.sat:
                answer = solver.check()
            if answer == self.z3.unsat and stage != "fast":
                return "unsat", {}
            if answer == self.z3.sat:
                values = self.values(solver.model())
                if stage == "exact" or replays(values):
                    return "sat", values
        return "unknown", {}

    def values(self, model: Any) -> dict[str, Any]:
        """Every input variable's value in a solver's model."""
        values = {}
        for name, term in self.cell.variables.created.items():
            value = model.eval(term.translate(self.ctx), model_completion=True)
            values[name] = value.as_long() if self.z3.is_int_value(value) else self.z3.is_true(value)
        return values

    def free_options(self, values: dict[str, Any], reading: dict[str, str]) -> list[str]:
        """The options whose readings the witness does not depend on (together): each tried in turn, kept free when
        no reading of the free ones makes the witness fail."""
        z3 = self.z3
        self.refute.push()
        for name, term in self.cell.variables.created.items():
            if not name.startswith(READING_PREFIX):
                self.refute.add(term.translate(self.ctx) == values[name])
        free: list[str] = []
        for option in sorted(reading):
            trial = free + [option]
            fixed = [self.literal(o, r) for o, r in reading.items() if o not in trial]
            if self.refute.check(*fixed) == z3.unsat:
                free = trial
        self.refute.pop()
        return free


def search_by_reading(query: Any, rlimit: int, deadline: float, shrink: bool) -> Any:
    """The partition of the readings over every cell, as a ``found``/``impossible``/``unknown`` answer with its table."""
    from .solve import all_cells

    partition = Partition()
    for cell in all_cells(query):
        partition.cells += 1
        partition.read |= set(cell.readings) | {o for o in cell.chosen if o not in query.fixed}
        if time.monotonic() > deadline:
            partition.open_cells.append(cell.label())
            continue
        partition_cell(query, cell, rlimit, deadline, shrink, partition)
    return partition_answer(query, partition)


def partition_cell(query: Any, cell: Cell, rlimit: int, deadline: float, shrink: bool, partition: Partition) -> None:
    """Add the cell's possible regions to ``partition`` (or the cell to its open or defective cells)."""
    solver = CellSolver(cell, condition_term(cell, query.condition), rlimit)
    for region in partition.regions:
        cube = cube_in_cell(region.readings, cell, query)
        if cube is not None and not solver.block(cube):
            return  # an earlier region covers every reading of this cell
    from .records import safe_replay

    while True:
        status, values = solver.witness(deadline, lambda values: safe_replay(values, cell, query)[0])
        if status == "unsat":
            return
        if status == "unknown":
            partition.open_cells.append(cell.label())
            return
        region = region_of(query, cell, solver, values, shrink)
        if region is None:
            partition.defects.append(cell.label())
            return
        partition.regions.append(region)
        if not solver.block(cube_in_cell(region.readings, cell, query) or {}):
            return


def cube_in_cell(readings: dict[str, str], cell: Cell, query: Any) -> dict[str, str] | None:
    """A region's readings as a cube over the cell's symbolic options: None when the region cannot be expressed in
    the cell (it fixes an option the cell reads otherwise or does not read); the cell's fixed options drop out."""
    cube = {}
    for option, reading in readings.items():
        if option in cell.chosen:
            if cell.chosen[option] != reading:
                return None
        elif option in cell.readings:
            cube[option] = reading
        else:
            return None
    return cube


def region_of(query: Any, cell: Cell, solver: CellSolver, values: dict[str, Any], shrink: bool) -> Region | None:
    """The region a witness covers, with its replayed answer; None when the witness does not replay (a defect)."""
    from .records import safe_replay
    from .space import readings_of

    if not safe_replay(values, cell, query)[0]:
        return None
    reading = readings_of(cell.readings, values)
    free = solver.free_options(values, reading)
    flipped = {**values, **{READING_PREFIX + o: not values.get(READING_PREFIX + o, False) for o in free}}
    if free and not safe_replay(flipped, cell, query)[0]:
        free = []  # the generalization's corner does not replay: keep the witness's own reading only
    forked = {o: r for o, r in cell.chosen.items() if o not in query.fixed}
    region = {**forked, **{o: r for o, r in reading.items() if o not in free}}
    return Region(region, replayed_answer(query, cell, values, shrink, region))


def replayed_answer(query: Any, cell: Cell, values: dict[str, Any], shrink: bool, region: dict[str, str]) -> Any:
    """The witness replayed as a ``found`` answer, shrunk without leaving its region (a free option may go back to
    its default reading)."""
    from .minimize import shrink_witness
    from .replay import replay_answer

    cell, values = concretized(cell, values)
    if shrink:
        values, cell = shrink_witness(values, cell, replace(query, fixed={**query.fixed, **region}))
    return replay_answer(query, cell, values)


# --------------------------------------------------------------------------------------
# The answer and its table
# --------------------------------------------------------------------------------------


def partition_answer(query: Any, partition: Partition) -> Any:
    """``found`` (some reading possible), ``impossible`` (every reading proved impossible) or ``unknown``."""
    from .records import QueryAnswer

    table = reading_table(query, partition)
    if partition.defects:
        return QueryAnswer("encoding-defect", query.text, query.space(), cell=partition.defects[0], cells=partition.cells,
                           detail="Z3's witness does not satisfy the condition when replayed through the model",
                           by_reading=table)
    if partition.open_cells:
        status = "unknown"
    else:
        status = "found" if partition.regions else "impossible"
    first = partition.regions[0].answer if partition.regions else None
    detail = table["summary"]
    if status == "impossible":
        detail = f"no legal scenario satisfies the condition {query.space()} under any reading; {detail}"
    answer = QueryAnswer(status, query.text, query.space(), detail=detail, cells=partition.cells,
                         by_reading=table, cells_solved=partition.cells - len(partition.open_cells))
    if first is not None:
        answer.scenario, answer.observation, answer.scenarios, answer.cell = (first.scenario, first.observation,
                                                                              first.scenarios, first.cell)
    return answer


def reading_table(query: Any, partition: Partition) -> dict[str, Any]:
    """The partition as data: the options read, the possible regions (each with its witness), and a summary."""
    mentioned = sorted({o for region in partition.regions for o in region.readings})
    cover = minimal_cover([r.readings for r in partition.regions], mentioned)
    mentioned = sorted({o for cube in cover for o in cube})
    summary = describe(cover, partition, mentioned)
    return {"options_read": sorted(partition.read), "options_deciding": mentioned,
            "possible": [region.to_json() for region in partition.regions], "possible_when": cover,
            "open_cells": list(partition.open_cells), "complete": not partition.open_cells and not partition.defects,
            "summary": summary}


def describe(cover: list[dict[str, str]] | None, partition: Partition, mentioned: list[str]) -> str:
    """The partition in one sentence, e.g. "possible exactly when negative_armor=reciprocal"."""
    unread = "" if not partition.read else \
        f"; the options read but not deciding it: {', '.join(sorted(partition.read - set(mentioned))) or 'none'}"
    if partition.open_cells or partition.defects:
        found = "possible under " + cube_words(cover) if partition.regions else "no reading found possible yet"
        return (f"partial: {found}; {len(partition.open_cells)} cells open (no answer in the budget), so the other "
                f"readings are not proved impossible{unread}")
    if not partition.regions:
        return f"impossible under every reading of the space (each of {partition.cells} cells proved){unread}"
    if cover == [{}]:
        return f"possible under every reading of the space{unread}"
    return f"possible exactly when {cube_words(cover)}; impossible under every other reading (proved){unread}"


def cube_words(cover: list[dict[str, str]] | None) -> str:
    """``a=x and b=y`` or ``(a=x) or (b=y)``; the regions as found when no minimal cover was computed."""
    if not cover:
        return "no reading"
    words = [" and ".join(f"{o}={r}" for o, r in sorted(cube.items())) or "every reading" for cube in cover]
    return words[0] if len(words) == 1 else " or ".join(f"({w})" for w in words)


def minimal_cover(cubes: list[dict[str, str]], options: list[str]) -> list[dict[str, str]]:
    """A small set of cubes whose union is the union of ``cubes`` (prime implicants, greedy cover)."""
    from .space import ENUM_OPTIONS
    from .types import PLAY_OPTIONS

    if not cubes or len(options) > TABLE_OPTIONS:
        return [dict(c) for c in cubes]
    domains = [{**ENUM_OPTIONS, **PLAY_OPTIONS}[o] for o in options]
    points = {p for p in itertools.product(*domains)
              if any(all(p[options.index(o)] == r for o, r in c.items()) for c in cubes)}
    primes = prime_cubes(points, options, domains)
    cover: list[dict[str, str]] = []
    left = set(points)
    while left:
        best = max(primes, key=lambda c: (len(covered(c, left, options)), -len(c)))
        cover.append(best)
        left -= covered(best, left, options)
    return sorted(cover, key=lambda c: sorted(c.items()))


def covered(cube: dict[str, str], points: set[tuple[str, ...]], options: list[str]) -> set[tuple[str, ...]]:
    return {p for p in points if all(p[options.index(o)] == r for o, r in cube.items())}


def prime_cubes(points: set[tuple[str, ...]], options: list[str], domains: list[tuple[str, ...]]) -> list[dict[str, str]]:
    """The largest cubes inside ``points``: each point's literals dropped one by one while the cube stays inside."""
    primes: list[dict[str, str]] = []
    for point in sorted(points):
        cube = dict(zip(options, point))
        for option in options:
            trial = {o: r for o, r in cube.items() if o != option}
            size = 1
            for o, d in zip(options, domains):
                size *= 1 if o in trial else len(d)
            if len(covered(trial, points, options)) == size:
                cube = trial
        if cube not in primes:
            primes.append(cube)
    return primes
