"""``--maximize EXPR`` / ``--minimize EXPR``: the best value of an Int expression where the condition holds.

Per cell, a galloping search: having a witness of value ``v``, ask for ``EXPR >= v + step``,
doubling ``step`` while Z3 finds one and halving it when Z3 proves there is none, until
``EXPR >= v + 1`` is impossible. Every witness is replayed, and its replayed value is the one
kept. The best value is *proved* only when every cell's last question was proved impossible;
past :data:`UNBOUNDED` the search stops and says the expression is unbounded there.
"""

from __future__ import annotations

import time
from typing import Any

from referee.model.arith import symbolic

from .evaluate import evaluate, namespace
from .solve import cells_of, concretized, condition_term, relaxed, solve

UNBOUNDED = 10**9
MAX_STEPS = 80


def objective_term(cell: Any, query: Any) -> Any:
    with symbolic():
        return query.sense * evaluate(query.objective, namespace(cell.runs, cell.layout.units))


def concrete_objective(values: dict[str, Any], cell: Any, query: Any) -> Any:
    """The replayed objective of a witness (``None`` if it does not replay)."""
    from .records import safe_replay

    holds, replay = safe_replay(values, cell, query)
    if not holds:
        return None
    return query.sense * evaluate(query.objective, namespace(replay["runs"], cell.layout.units))


def ask(cell: Any, term: Any, goal: Any, bound: Any, rlimit: int, seeds: tuple[int, ...], deadline: float) -> Any:
    extra = [] if bound is None else [goal >= bound]
    check = solve([*relaxed(cell.side_conditions), cell.legal, term, *extra], cell.variables, rlimit, (0,), deadline)
    if check.answer == "unsat":
        return check
    return solve([*cell.side_conditions, cell.legal, term, *extra], cell.variables, rlimit, seeds, deadline)


def optimize_cell(cell: Any, query: Any, best: Any, rlimit: int, seeds: tuple[int, ...], deadline: float):
    """The best replayed value in one cell above ``best``: ``(value, values, proved)``."""
    term, goal = condition_term(cell, query.condition), objective_term(cell, query)
    found_value, found_values, step = best, None, 1
    for _ in range(MAX_STEPS):
        bound = None if found_value is None else found_value + step
        check = ask(cell, term, goal, bound, rlimit, seeds, deadline)
        if check.answer == "unknown":
            return found_value, found_values, False
        if check.answer == "unsat":
            if step == 1:
                return found_value, found_values, True
            step = max(1, step // 2)
            continue
        value = concrete_objective(check.values, cell, query)
        if value is None or (bound is not None and value < bound):
            return found_value, found_values, False  # the witness did not replay: not a proof of anything
        found_value, found_values, step = value, check.values, step * 2
        if abs(found_value) >= UNBOUNDED:
            return found_value, found_values, False
    return found_value, found_values, False


def optimize(query: Any, rlimit: int, seeds: tuple[int, ...], deadline: float) -> Any:
    """The best value over every cell, with its witness."""
    from dataclasses import replace

    from .minimize import shrink_witness
    from .replay import replay_answer
    from .records import QueryAnswer, unknown_answer

    best, best_values, best_cell, proved, cells, unbuilt = None, None, None, True, 0, False
    open_cells: list[str] = []
    for layout in query.layouts():
        for cell in cells_of(layout, query.specs, query.fixed, query.split, query.whole_domain, query.merge_readings):
            if time.monotonic() > deadline:
                proved, unbuilt = False, True
                break
            cells += 1
            value, values, cell_proved = optimize_cell(cell, query, best, rlimit, seeds, deadline)
            proved = proved and cell_proved
            open_cells += [] if cell_proved else [cell.label()]
            if values is not None and (best is None or value > best):
                best, best_values, best_cell = value, values, cell
    word = "maximum" if query.sense == 1 else "minimum"
    space = query.space()
    if best_values is None:
        if not proved:
            return unknown_answer(query, cells, open_cells, unbuilt, "no witness found in the budget")
        return QueryAnswer("impossible", query.text, space, cells=cells, detail="no legal scenario satisfies the condition")
    real = best * query.sense
    unbounded = abs(best) >= UNBOUNDED
    strengthened = replace(query, condition=_at_least(query, best))
    values, cell = shrink_witness(best_values, best_cell, strengthened)
    cell, values = concretized(cell, values)
    answer = replay_answer(query, cell, values)
    summary = (f"{word} of {query.objective.fragment} is unbounded (a witness reaches {real})" if unbounded else
               f"{word} of {query.objective.fragment} = {real}" + (" (proved over the space)" if proved else
                                                                     " (best found; not proved: a question was unknown)"))
    answer.objective = {"expression": query.objective.fragment, "sense": word, "value": real, "proved": proved and not unbounded,
                        "unbounded": unbounded, "summary": summary}
    answer.cells = cells
    return answer


def _at_least(query: Any, best: int) -> Any:
    """The condition ``condition and sense*objective >= best``, as a checked node (for shrinking)."""
    from .parser import Typed

    objective = query.objective if query.sense == 1 else Typed("neg", "Int", [query.objective])
    bound = Typed("const", "Int", [best])
    keeps = Typed("compare", "Bool", [[">="], [objective, bound]])
    return Typed("and", "Bool", [query.condition, keeps], fragment=query.condition.fragment)
