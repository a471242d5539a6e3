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
    rule = _RULES.get(node.op)
    if rule is None:
        raise AssertionError(f"unchecked node {node.op!r}")  # the parser admits no other operation
    return rule(node.op, node.args, ns)


def _field(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    owner = evaluate(args[0], ns)
    return owner[args[1]] if isinstance(owner, dict) else getattr(owner, args[1])


def _index(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    owner = evaluate(args[0], ns)
    return owner.each[args[1]] if isinstance(owner, States) else owner[args[1]]


def _sign(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    value = evaluate(args[0], ns)
    return -value if op == "neg" else value


def _arith(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    left, right = evaluate(args[1], ns), evaluate(args[2], ns)
    return left + right if args[0] == "+" else left - right if args[0] == "-" else left * right


def _compare_chain(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    ops, parts = args
    values = [evaluate(p, ns) for p in parts]
    return and_(*[compare(o, a, b) for o, a, b in zip(ops, values, values[1:])])


def _call(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    """``abs``, ``min`` and ``max``, as terms that serve Python values and Z3 terms alike."""
    values = [evaluate(a, ns) for a in args[1]]
    if args[0] == "abs":
        return ite(values[0] >= 0, values[0], -values[0])
    pick = min_ if args[0] == "min" else max_
    result = values[0]
    for value in values[1:]:
        result = pick(result, value)
    return result


def _events(op: str, args: tuple, ns: dict[str, Any]) -> Any:
    """``event(...)``: whether such an event was emitted; ``count(...)``: how many."""
    guards = matching_guards(ns["__logs__"], args[0], args[1])
    if op == "event":
        return or_(False, *[guard if type(times) is int and times >= 1 else and_(guard, times >= 1) for guard, times in guards])
    total: Any = 0
    for guard, times in guards:
        total = total + ite(guard, times, 0)
    return total


_RULES = {
    "const": lambda op, args, ns: args[0],
    "name": lambda op, args, ns: ns[args[0]],
    "field": _field,
    "index": _index,
    "not": lambda op, args, ns: not_(evaluate(args[0], ns)),
    "neg": _sign,
    "pos": _sign,
    "and": lambda op, args, ns: and_(*[evaluate(a, ns) for a in args]),
    "or": lambda op, args, ns: or_(*[evaluate(a, ns) for a in args]),
    "arith": _arith,
    "compare": _compare_chain,
    "ite": lambda op, args, ns: ite(evaluate(args[0], ns), evaluate(args[1], ns), evaluate(args[2], ns)),
    "call": _call,
    "event": _events,
    "count": _events,
}


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


def matching_guards(logs: list[Any], name: str, options: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The conditions of the events named ``name`` (of one action, on one unit) in the logs, each with how many
    events its entry stands for (one, or a run of delayed tries)."""
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
            out.append((guarded.when, guarded.times()))
    return out
