"""Running one query: the cells in order, the witness replayed, shrunk and shown."""

from __future__ import annotations

import time
from typing import Any

from .parser import parse_condition
from .solve import Cell, at_default_readings, cells_of, concretized, condition_term, fast_formulas, relaxed, solve
from .space import SOURCE_RELATIONS, check_features_off, parse_action
from .records import Query, QueryAnswer, safe_replay, unknown_answer  # noqa: F401 - re-exported
from .types import ROLES, QueryError, make_schema

DEFAULT_QUERY_RLIMIT = 50_000_000
DEFAULT_UNITS = 4
DEFAULT_BUDGET = 300.0
FAST_RLIMIT = 50_000_000
#: Wall-clock limit of the Optimize pass that looks for a witness with the fewest changed fields.
OPTIMIZE_SECONDS = 2.5


def make_query(condition: str, *, actions: tuple[str, ...] = ("hit",), kind: str = "hit", units: int = DEFAULT_UNITS,
               ruleset: dict[str, Any] | None = None, split: bool = False, relations: tuple[str, ...] = SOURCE_RELATIONS,
               objective: str | None = None, sense: int = 1, off: frozenset[str] = frozenset(),
               whole_domain: bool = False, merge_readings: bool = True) -> Query:
    if not actions:
        raise QueryError("a query needs at least one action")
    if len(actions) > 4:
        raise QueryError(f"{len(actions)} actions: a query has at most 4")
    specs = tuple(parse_action(a, kind) for a in actions)
    _check_space(specs, off, split, relations)
    fixed = _fixed_readings(specs, ruleset)
    if not 2 <= units <= len(ROLES):
        raise QueryError(f"--units {units}: a query board has 2 to {len(ROLES)} units")
    from .space import present_roles

    schema = make_schema(tuple(s.kind for s in specs), present_roles(units, specs), split)
    typed = parse_condition(condition, schema)
    goal = None if objective is None else _objective_term(objective, schema)
    return Query(condition, typed, specs, units, fixed, split, tuple(relations), goal, sense, frozenset(off),
                 whole_domain, merge_readings)


def _check_space(specs: tuple[Any, ...], off: frozenset[str], split: bool, relations: tuple[str, ...]) -> None:
    """The features left out, ``--compare-split`` and ``--source`` make sense for these actions (a QueryError if not)."""
    from referee.rulebooks.combat.features import FEATURES

    unknown = sorted(set(off) - set(FEATURES))
    if unknown:
        raise QueryError(f"unknown feature {unknown[0]!r} (known: {', '.join(sorted(FEATURES))})")
    check_features_off(specs, frozenset(off))
    if split and (len(specs) != 2 or specs[0] != specs[1] or specs[0].kind not in ("damage", "hit")):
        raise QueryError("--compare-split needs exactly two equal damage or hit actions (the split) to compare with one")
    bad = [r for r in relations if r not in SOURCE_RELATIONS]
    if bad or not relations:
        raise QueryError(f"--source {','.join(bad)}: not one of {', '.join(SOURCE_RELATIONS)}")


def _fixed_readings(specs: tuple[Any, ...], ruleset: dict[str, Any] | str | None) -> dict[str, Any]:
    """The ruleset options fixed by ``--ruleset`` (``defaults``: all of them), checked."""
    from referee.model.combat.ruleset import DEFAULT, Ruleset

    from .types import PLAY_OPTIONS

    fixed = DEFAULT.to_json() if ruleset == "defaults" else dict(ruleset or {})
    for name in PLAY_OPTIONS:  # the play rulebook's options: the combat rules never read them
        fixed.pop(name, None)
    fixed = clock_reading(specs, fixed)
    try:
        Ruleset.from_json(fixed)
    except (TypeError, ValueError) as error:
        raise QueryError(f"--ruleset: {error}") from None
    return fixed


def _objective_term(objective: str, schema: Any) -> Any:
    """``--minimize`` / ``--maximize``'s expression, type-checked (an Int)."""
    from .parser import Checker, parse_tree

    tree = parse_tree(objective)
    lines = [0]
    for line in objective.splitlines(keepends=True):
        lines.append(lines[-1] + len(line))
    goal = Checker(objective, lines, schema).check(tree.body)
    if goal.type != "Int":
        raise QueryError(f"{goal.fragment!r}: --minimize/--maximize needs an Int expression")
    return goal


def clock_reading(specs: tuple[Any, ...], fixed: dict[str, Any]) -> dict[str, Any]:
    """A query with a clock action searches both readings of ``everlasting_slot_order`` (INT-404), except with an
    action that reads the reading order (an ability's recipients, a Bloodletting payer) after an ``advance``: then it
    searches ``death_cell_first`` (the space line says so) and refuses ``reading_order`` by name.

    On the query's boards no try is ever delayed under either reading; under ``reading_order`` a revival may land
    in another cell, which the symbolic clock does not make symbolic (``model/combat/battle_guarded.py``): nothing
    a condition reads observes that cell except the reading-order searches of the actions after it.
    """
    from .space import uses_clock

    if not uses_clock(specs) or fixed.get("everlasting_slot_order") == "death_cell_first":
        return fixed
    first = next((i for i, spec in enumerate(specs) if spec.kind == "advance"), len(specs))
    later = [spec.kind for spec in specs[first + 1:] if spec.kind in ("ability", "bloodletting")]
    if later and "everlasting_slot_order" not in fixed:  # the one reading searched, and the space line says so
        return {**fixed, "everlasting_slot_order": "death_cell_first"}
    if later:
        raise QueryError(f"--action {later[0]} after advance: under everlasting_slot_order=reading_order a revival may "
                         f"return to another cell, which a query does not search, and {later[0]} reads the board in "
                         "reading order; fix --ruleset everlasting_slot_order=death_cell_first, or put the action "
                         "before the first advance")
    return fixed


def run_query(condition: str, *, kind: str = "hit", action: str | None = None, actions: tuple[str, ...] | None = None,
              units: int = DEFAULT_UNITS, ruleset: Any = None, split: bool = False,
              relations: tuple[str, ...] = SOURCE_RELATIONS, rlimit: int = DEFAULT_QUERY_RLIMIT,
              seeds: tuple[int, ...] = (0, 1, 2), budget: float = DEFAULT_BUDGET, minimize: str | None = None,
              maximize: str | None = None, shrink: bool = True, without: tuple[str, ...] | frozenset[str] = (),
              whole_domain: bool = False, merge_readings: bool = True, by_reading: bool = False) -> QueryAnswer:
    """Find a legal scenario in the space where ``condition`` holds, or prove there is none.

    ``without``: the features left out of the space (their unit fields fixed at their defaults).
    ``whole_domain``: search every encoded value, not only the legal states (``referee.model.combat.legal``).
    ``merge_readings=False``: one cell per ruleset reading (the reference the merged search is tested against).
    ``by_reading``: the partition of the readings the condition is possible under (:mod:`.by_reading`).
    """
    from referee.model.combat.ruleset import Ruleset

    if isinstance(ruleset, Ruleset):
        ruleset = ruleset.to_json()
    chosen_actions = actions or ((action,) if action else ("hit",))
    if any(a.strip().partition(":")[0] in ("play_card", "activate") for a in chosen_actions):  # the play rulebook
        from .play import run_play_query

        _check_play_options(minimize is not None or maximize is not None, bool(split or without or whole_domain))
        return run_play_query(condition, tuple(chosen_actions), ruleset, rlimit, seeds, budget, by_reading)
    if by_reading and (minimize is not None or maximize is not None):
        raise QueryError("--by-reading partitions the readings of a yes-or-no question: not with --minimize/--maximize")
    objective, sense = (maximize, 1) if maximize is not None else (minimize, -1)
    query = make_query(condition, actions=tuple(chosen_actions), kind=kind, units=units, ruleset=ruleset,
                       split=split, relations=relations, objective=objective, sense=sense, off=frozenset(without),
                       whole_domain=whole_domain, merge_readings=merge_readings)
    started = time.monotonic()
    if by_reading:
        from .by_reading import search_by_reading

        answer = search_by_reading(query, rlimit, started + budget, shrink)
    else:
        answer = search(query, rlimit, seeds, started + budget, shrink)
    answer.seconds = round(time.monotonic() - started, 3)
    return answer


def _check_play_options(objective: bool, combat_only: bool) -> None:
    """A play query takes no objective and none of the combat rulebook's space options (a QueryError if given)."""
    if objective:
        raise QueryError("--minimize/--maximize: not searched over the play rulebook yet")
    if combat_only:
        raise QueryError("--compare-split, --without/--features and --whole-domain are combat options: a play "
                         "query takes none (it searches the legal play states of model/play/legal.py only; "
                         "widening them is not offered for the play rulebook)")


def round_robin(streams: list[Any]) -> Any:
    """The first cell of every layout, then the second of each, ...: a witness in any structure comes early."""
    live = list(streams)
    while live:
        for stream in list(live):
            cell = next(stream, None)
            if cell is None:
                live.remove(stream)
                continue
            yield cell


def search(query: Query, rlimit: int, seeds: tuple[int, ...], deadline: float, shrink: bool) -> QueryAnswer:
    """The three questions of :mod:`.solve`, cell by cell; the first witness that replays wins."""
    if query.objective is not None:
        from .optimize import optimize

        return optimize(query, rlimit, seeds, deadline)
    cells: list[Cell] = []
    terms: list[Any] = []
    answer = _fast_pass(query, deadline, shrink, cells, terms)
    if answer is None:
        answer = _full_pass(query, rlimit, seeds, deadline, shrink, cells, terms)
    answer.cells = answer.cells or len(cells)
    return answer


def _fast_pass(query: Query, deadline: float, shrink: bool, cells: list[Cell], terms: list[Any]) -> QueryAnswer | None:
    """Build every cell (into ``cells``, ``terms``) and ask its fast question: a replayed witness, an
    ``unknown`` when the time ran out while building, else None."""
    for cell in round_robin([cells_of(layout, query.specs, query.fixed, query.split, query.whole_domain, query.merge_readings)
                              for layout in query.layouts()]):
        if time.monotonic() > deadline:
            return unknown_answer(query, len(cells), [c.label() for c in cells], True,
                                  "the time budget ran out while building the cells (each built one was given the fast "
                                  "question only: no witness)")
        term = condition_term(cell, query.condition)
        cells.append(cell)
        terms.append(term)
        fast = at_default_readings(cell, fast_formulas(cell, term))
        check = solve(fast, cell.variables, FAST_RLIMIT, (0,), deadline)
        if check.answer != "sat" and cell.readings:
            fast = fast_formulas(cell, term)
            check = solve(fast, cell.variables, FAST_RLIMIT, (0,), deadline)
        if check.answer == "sat":
            found = witness(query, cell, _fewer_changes(query, cell, fast, check.values, shrink, deadline), shrink)
            if found is not None:
                found.cells_solved = 1
                return found
    return None


def _fewer_changes(query: Query, cell: Cell, fast: list[Any], values: dict[str, Any], shrink: bool,
                   deadline: float) -> dict[str, Any]:
    """A witness changing fewer fields from their defaults, when shrinking and it replays; else ``values``."""
    from .minimize import default_of

    changed = sum(1 for k, v in values.items() if v != default_of(k))
    if shrink and changed > 3:
        from .solve import fewest_changes

        fewer = fewest_changes(fast, cell.variables, default_of, min(OPTIMIZE_SECONDS, max(0.0, deadline - time.monotonic())))
        if fewer is not None and safe_replay(fewer, cell, query)[0]:
            return fewer
    return values


def _full_pass(query: Query, rlimit: int, seeds: tuple[int, ...], deadline: float, shrink: bool,
               cells: list[Cell], terms: list[Any]) -> QueryAnswer:
    """The relaxed then the exact question of each cell: found, an encoding defect, unknown or impossible."""
    space = query.space()
    open_cells: list[str] = []
    defects: list[QueryAnswer] = []
    for solved, (cell, term) in enumerate(zip(cells, terms)):
        found, status = _ask_cell(query, cell, term, rlimit, seeds, deadline, shrink)
        if found is not None:
            found.cells_solved = solved - len(open_cells) - len(defects) + 1
            return found
        if status == "defect":
            defects.append(QueryAnswer("encoding-defect", query.text, space, cell=cell.label(),
                                       detail="Z3's witness does not satisfy the condition when replayed through the model"))
        elif status == "open":
            open_cells.append(cell.label())
    if defects:
        return defects[0]
    if open_cells:
        return unknown_answer(query, len(cells), open_cells, False,
                              f"Z3 gave no answer within rlimit {rlimit} or the time budget for {len(open_cells)} "
                              f"of {len(cells)} cells")
    return QueryAnswer("impossible", query.text, space, cells=len(cells), cells_solved=len(cells),
                       detail=f"no legal scenario satisfies the condition {space} ({len(cells)} cells, each proved)")


def _ask_cell(query: Query, cell: Cell, term: Any, rlimit: int, seeds: tuple[int, ...], deadline: float,
              shrink: bool) -> tuple[QueryAnswer | None, str]:
    """One cell's relaxed then exact question: (a replayed witness, "found"), (None, "closed" | "defect" | "open")."""
    check = solve([*relaxed(cell.side_conditions), cell.legal, term], cell.variables, rlimit, (0,), deadline)
    if check.answer == "unsat":
        return None, "closed"
    if check.answer == "sat":
        found = witness(query, cell, check.values, shrink)
        if found is not None:
            return found, "found"
    check = solve([*cell.side_conditions, cell.legal, term], cell.variables, rlimit, seeds, deadline)
    if check.answer == "unsat":
        return None, "closed"
    if check.answer == "sat":
        found = witness(query, cell, check.values, shrink)
        return (found, "found") if found is not None else (None, "defect")
    return None, "open"


def witness(query: Query, cell: Cell, values: dict[str, Any], shrink: bool) -> QueryAnswer | None:
    """A replayed (and shrunk) ``found`` answer, or ``None`` when the witness does not replay."""
    from .replay import replay_answer

    holds, _ = safe_replay(values, cell, query)
    if not holds:
        return None
    if shrink:
        from .minimize import shrink_witness

        values, cell = shrink_witness(values, cell, query)
    cell, values = concretized(cell, values)
    return replay_answer(query, cell, values)


