"""The search: every cell of the space, cheapest question first, each witness replayed.

For each cell (a layout and a ruleset reading, :mod:`.space`) the model is run once on
symbols. Three questions are asked of Z3, each in a fresh context:

1. *fast*: the exact encoding with every unit's Armor at 0 (the Armor square root is the
   only nonlinear part left out), which answers most ``found`` questions in milliseconds and
   gives witnesses without Armor, in every cell before any slow question;
2. *relaxed*: the encoding with the defining constraints of the Armor and Shield rounding
   integers dropped (each is left free between its bounds), an over-approximation: unsat
   there proves the cell impossible; a sat witness that replays is a ``found``;
3. *exact*: the whole encoding, under the resource limit and three seeds.

A cell is done when a question proves it impossible; the query is ``impossible`` only when
every cell is, ``found`` as soon as one witness replays, and ``unknown`` otherwise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from referee.model.arith import and_, is_symbolic, symbolic

from .evaluate import evaluate, namespace
from .kinds import structure_label
from .parser import Typed
from .space import (
    ActionSpec, Layout, ReadingRuleset, concrete_ruleset, explore_readings, features_legal, is_legal_run, leaves_value,
    readings_domain, readings_of, run_actions,
)


@dataclass
class Cell:
    """One structure and reading, run once on symbols."""

    layout: Layout
    chosen: dict[str, str]
    variables: Any
    side_conditions: list[Any]
    runs: dict[str, Any]
    legal: Any
    #: The options the model read as solver variables: this one cell covers each of their readings.
    readings: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        from referee.model.combat.ruleset import DEFAULT

        readings = ", ".join(f"{k}={v}" for k, v in self.chosen.items() if DEFAULT.to_json()[k] != v) or "the defaults"
        if self.readings:
            readings += f" (every reading of {', '.join(sorted(self.readings))} in one formula)"
        from referee.rulebooks.combat.features import off_fields

        left_out = off_fields(self.layout.off)  # stated once, in the space line
        pins = "".join(f", {uid}.{name}={value}" for uid, name, value in self.layout.pins if name not in left_out)
        texts = "".join(f", actions[{i}] {structure_label(structure)}"
                        for i, structure in enumerate(self.layout.structures) if structure is not None)
        full = ", a full half" if self.layout.full_half else ""
        return f"{len(self.layout.units)} units, source {self.layout.relation}{full}{pins}{texts}, readings: {readings}"


_CELLS: dict[Any, tuple[list[Cell], Any]] = {}


def cells_of(layout: Layout, specs: tuple[ActionSpec, ...], fixed: dict[str, Any], split: bool,
             whole_domain: bool = False, merge: bool = True) -> Any:
    """The cells of one layout, every reading the model reads, defaults first, built lazily.

    ``merge``: the options the model reads as data stay solver variables, one cell covering all their
    readings; only an option the model branches on in Python splits the cell. Without it, one cell per
    reading. Cells are cached per process: they do not depend on the condition.
    """
    key = (layout, specs, tuple(sorted(fixed.items())), split, whole_domain, merge)
    if key not in _CELLS:
        readings = explore_readings(
            lambda chosen: build_cell(layout, specs, chosen, fixed, split, whole_domain, merge), fixed)
        _CELLS[key] = ([], readings)
    built, readings = _CELLS[key]
    index = 0
    while True:
        if index < len(built):
            yield built[index]
            index += 1
            continue
        try:
            _, cell = next(readings)
        except StopIteration:
            return
        built.append(cell)


def all_cells(query: Any) -> list[Cell]:
    """Every cell of a query's space, each layout's in turn."""
    return [cell for layout in query.layouts()
            for cell in cells_of(layout, query.specs, query.fixed, query.split, query.whole_domain, query.merge_readings)]


def build_cell(layout: Layout, specs: tuple[ActionSpec, ...], chosen: dict[str, str], fixed: dict[str, Any], split: bool,
               whole_domain: bool = False, merge: bool = True) -> Cell:
    """The layout's actions run once on symbols under the readings ``chosen`` (the others symbolic when ``merge``)."""
    from referee.proofs.core import Vars

    v = Vars()
    with symbolic() as context:
        leaves = leaves_value(v, fixed)
        ruleset = ReadingRuleset(dict(chosen), leaves, v, merge)
        runs = run_actions(v, layout, specs, ruleset, split)
        before = runs["main"].before.units
        space = True if whole_domain else is_legal_run(runs["main"], specs, layout)
        legal = and_(space, leaves >= 1, features_legal(layout, before), readings_domain(ruleset.symbolic_readings))
    return Cell(layout, dict(chosen), v, list(context.side_conditions), runs, legal, dict(ruleset.symbolic_readings))


def concretized(cell: Cell, values: dict[str, Any]) -> tuple[Cell, dict[str, Any]]:
    """The cell at the readings a witness's values choose, and the values without the reading variables."""
    from dataclasses import replace

    from referee.model.readings import READING_PREFIX

    if not cell.readings:
        return cell, values
    chosen = {**cell.chosen, **readings_of(cell.readings, values)}
    kept = {k: v for k, v in values.items() if not k.startswith(READING_PREFIX)}
    return replace(cell, chosen=chosen, readings={}), kept


def condition_term(cell: Cell, condition: Typed) -> Any:
    with symbolic():
        return evaluate(condition, namespace(cell.runs, cell.layout.units))


def as_bool(z3: Any, value: Any) -> Any:
    return value if is_symbolic(value) else z3.BoolVal(bool(value))


def relaxed(side_conditions: list[Any]) -> list[Any]:
    """The bounds of each fresh rounding integer only (``least_such_that`` adds four conditions per integer)."""
    if len(side_conditions) % 4:
        return []  # not the expected shape: drop them all (still an over-approximation)
    return [c for i, c in enumerate(side_conditions) if i % 4 < 2]


@dataclass
class Check:
    """What one solver call answered."""

    answer: str  # sat | unsat | unknown
    values: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def solve(formulas: list[Any], variables: Any, rlimit: int, seeds: tuple[int, ...], deadline: float) -> Check:
    """One question in a fresh Z3 context per seed; the witness's values on sat."""
    import z3

    started = time.monotonic()
    formulas = [as_bool(z3, f) for f in formulas]
    for seed in seeds:
        if time.monotonic() > deadline:
            break
        ctx = z3.Context()
        solver = z3.Solver(ctx=ctx)
        solver.set("rlimit", rlimit)
        solver.set("random_seed", seed)
        solver.set("timeout", max(1, int(1000 * min(60.0, deadline - time.monotonic()))))
        solver.add(*[f.translate(ctx) for f in formulas])
        answer = solver.check()
        if answer == z3.unsat:
            return Check("unsat", seconds=time.monotonic() - started)
        if answer == z3.sat:
            model = solver.model()
            values = {}
            for name, term in variables.created.items():
                value = model.eval(term.translate(ctx), model_completion=True)
                values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
            return Check("sat", values, time.monotonic() - started)
    return Check("unknown", seconds=time.monotonic() - started)


def fewest_changes(formulas: list[Any], variables: Any, defaults: Any, seconds: float = 8.0) -> dict[str, Any] | None:
    """A witness with the fewest variables away from their defaults (Z3 ``Optimize``, soft constraints), or None."""
    import z3

    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", int(seconds * 1000))
    opt.add(*[as_bool(z3, f).translate(ctx) for f in formulas])
    for name, term in variables.created.items():
        opt.add_soft(term.translate(ctx) == defaults(name))
    if opt.check() != z3.sat:
        return None
    model = opt.model()
    values = {}
    for name, term in variables.created.items():
        value = model.eval(term.translate(ctx), model_completion=True)
        values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
    return values


def fast_formulas(cell: Cell, term: Any) -> list[Any]:
    """The cell's question with every Armor at 0 and every Shield multiplier at 1, substituted: linear."""
    import z3

    pins = []
    for unit in cell.runs["main"].before.units:
        for name, value in (("armor", 0), ("shield_multiplier", 1)):
            var = cell.variables.created.get(f"{unit.uid}.{name}")
            if var is not None:
                pins.append((var, z3.IntVal(value)))
    formulas = [as_bool(z3, f) for f in (*cell.side_conditions, cell.legal, term)]
    return [z3.simplify(z3.substitute(f, *pins)) for f in formulas] + [a == b for a, b in pins]


def default_readings(cell: Cell) -> list[Any]:
    """Each symbolic reading at its default: the one-reading question a merged cell asks first (cheap, and the
    witness most engines can replay)."""
    return [reading.is_reading(reading.readings[0]) for reading in cell.readings.values()]


def at_default_readings(cell: Cell, formulas: list[Any]) -> list[Any]:
    """``formulas`` with every symbolic reading replaced by its default and simplified: the other readings' branches
    fall away, as in a cell of that one reading (the two-reading options are Bools, false at the default)."""
    import z3

    pins = [(r.term, z3.BoolVal(False)) for r in cell.readings.values() if len(r.readings) == 2]
    pins += [(r.term, z3.IntVal(0)) for r in cell.readings.values() if len(r.readings) > 2]
    return [z3.simplify(z3.substitute(f, *pins)) for f in formulas] + [a == b for a, b in pins] if pins else formulas


def replay_values(values: dict[str, Any], cell: Cell, specs: tuple[ActionSpec, ...], fixed: dict[str, Any],
                  split: bool, condition: Typed) -> tuple[bool, dict[str, Any]]:
    """Run the witness concretely through the same code; whether the condition holds, and the runs."""
    from referee.proofs.core import Vars

    concrete = Vars(dict(values))
    leaves = leaves_value(concrete, fixed)
    ruleset = concrete_ruleset({**cell.chosen, **readings_of(cell.readings, values)}, leaves)
    runs = run_actions(concrete, cell.layout, specs, ruleset, split)
    holds = evaluate(condition, namespace(runs, cell.layout.units))
    return bool(holds is True), {"runs": runs, "ruleset": ruleset, "values": dict(concrete.created)}
