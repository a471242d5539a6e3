"""A checked condition's value over one run: Python values for a replay, Z3 terms for the search.

The same function serves both, over the ``arith`` helpers, as the model itself does.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, ite, max_, min_, not_, or_

from .parser import Typed
from .space import Run
from .types import ORDINALS


class States(dict):
    """The board after the last action (``after.target``), indexable by action (``after[0]``)."""

    def __init__(self, final: dict[str, Any], each: list[dict[str, Any]]) -> None:
        super().__init__(final)
        self.each = each


def state_of(board: Any, units: tuple[str, ...]) -> dict[str, Any]:
    return {u: board.unit(u) for u in units}


def namespace(runs: dict[str, Run], units: tuple[str, ...]) -> dict[str, Any]:
    """The values of the names a condition may use (see :func:`~referee.query.types.make_schema`)."""
    main = runs["main"]
    states = [state_of(b, units) for b in main.states]
    ns: dict[str, Any] = {u: main.before.unit(u) for u in units}
    ns.update({f"{u}_after": main.states[-1].unit(u) for u in units})
    ns["before"] = state_of(main.before, units)
    ns["after"] = States(states[-1], states)
    ns["actions"] = main.actions
    for i, record in enumerate(main.actions[: len(ORDINALS)]):
        ns[ORDINALS[i]] = record
    ns.update({k: main.actions[0][k] for k in ("amount", "outcome") if k in main.actions[0]})
    if "single" in runs:
        ns["single"] = runs["single"].actions[0]
        ns["single_after"] = state_of(runs["single"].states[-1], units)
    ns["__logs__"] = main.logs
    return ns


def evaluate(node: Typed, ns: dict[str, Any]) -> Any:
    """The value of ``node`` (recursion is bounded by the parser's depth limit)."""
    op, args = node.op, node.args
    if op == "const":
        return args[0]
    if op == "name":
        return ns[args[0]]
    if op == "field":
        owner = evaluate(args[0], ns)
        return owner[args[1]] if isinstance(owner, dict) else getattr(owner, args[1])
    if op == "index":
        owner = evaluate(args[0], ns)
        return owner.each[args[1]] if isinstance(owner, States) else owner[args[1]]
    if op == "not":
        return not_(evaluate(args[0], ns))
    if op in ("neg", "pos"):
        value = evaluate(args[0], ns)
        return -value if op == "neg" else value
    if op == "and":
        return and_(*[evaluate(a, ns) for a in args])
    if op == "or":
        return or_(*[evaluate(a, ns) for a in args])
    if op == "arith":
        left, right = evaluate(args[1], ns), evaluate(args[2], ns)
        return left + right if args[0] == "+" else left - right if args[0] == "-" else left * right
    if op == "compare":
        ops, parts = args
        values = [evaluate(p, ns) for p in parts]
        return and_(*[compare(o, a, b) for o, a, b in zip(ops, values, values[1:])])
    if op == "ite":
        return ite(evaluate(args[0], ns), evaluate(args[1], ns), evaluate(args[2], ns))
    if op == "call":
        values = [evaluate(a, ns) for a in args[1]]
        if args[0] == "abs":
            return ite(values[0] >= 0, values[0], -values[0])
        pick = min_ if args[0] == "min" else max_
        result = values[0]
        for value in values[1:]:
            result = pick(result, value)
        return result
    if op in ("event", "count"):
        guards = matching_guards(ns["__logs__"], args[0], args[1])
        if op == "event":
            return or_(False, *guards)
        total: Any = 0
        for guard in guards:
            total = total + ite(guard, 1, 0)
        return total
    raise AssertionError(f"unchecked node {op!r}")  # the parser admits no other operation


def compare(symbol: str, a: Any, b: Any) -> Any:
    if symbol == "==":
        return a == b
    if symbol == "!=":
        return a != b
    if symbol == "<":
        return a < b
    if symbol == "<=":
        return a <= b
    if symbol == ">":
        return a > b
    return a >= b


def matching_guards(logs: list[Any], name: str, options: dict[str, Any]) -> list[Any]:
    """The conditions of the events named ``name`` (of one action, on one unit) in the logs."""
    chosen = [logs[options["action"]]] if "action" in options else logs
    out = []
    for log in chosen:
        for guarded in log.entries:
            event = guarded.event
            if event.name != name:
                continue
            if "unit" in options and event.unit != options["unit"]:
                continue
            if "other" in options and event.other != options["other"]:
                continue
            out.append(guarded.when)
    return out
