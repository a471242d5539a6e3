"""Ask Z3 for a scenario where a condition holds ("can a shielded unit die to one Burn tick?").

A query is a condition over one damage instance, written as a Python expression over
these names:

==================  ==========================================================
``target``          the recipient before the instance (every ``Unit`` field)
``after``           the recipient afterwards
``source``          the unit dealing the damage, before (on the other side)
``source_after``    the source afterwards (it pays for Subrogated points, Thorns...)
``amount``          the incoming amount, before any adjustment
``outcome``         the pipeline's ``DamageOutcome`` (``died``, ``vitality_lost``...)
``event("name")``   whether an event of that name was emitted
==================  ==========================================================

with ``and``, ``or``, ``not``, comparisons, ``+``, ``-``, ``*`` and integer or Boolean
literals. For example::

    referee query "target.shield > 0 and outcome.died" --kind burn

The model runs on Z3 terms (the single-source encoding), so the answer is about the
model itself: a satisfying scenario is decoded, run concretely through the model as the
harness would run it, and shown only if the condition holds there too. Otherwise the
answer is ``impossible`` (no legal state satisfies it) or ``unknown`` (Z3 gave no answer
within the resource limit): never a guess.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields
from typing import Any

from referee.model.arith import and_, is_symbolic, not_, or_, symbolic
from referee.model.events import EVENT_NAMES, EventLog
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.proofs.combat.symbolic import symbolic_unit

#: Names a condition may use, and what they are.
QUERY_NAMES = {
    "target": "the recipient before the instance",
    "after": "the recipient afterwards",
    "source": "the damaging unit before the instance",
    "source_after": "the damaging unit afterwards",
    "amount": "the incoming amount",
    "outcome": "the pipeline's DamageOutcome",
}

#: Which action the query is about: ``damage`` (500.1 alone) or ``hit`` (with retaliation).
QUERY_ACTIONS = ("damage", "hit")

DEFAULT_QUERY_RLIMIT = 50_000_000


class QueryError(ValueError):
    """A condition that is not a valid query, with the offending part named."""


@dataclass
class QueryAnswer:
    """``found`` with a replayed scenario, ``impossible``, or ``unknown``."""

    status: str
    condition: str
    scenario: dict[str, Any] | None = None
    observation: dict[str, Any] | None = None
    detail: str = ""


# --------------------------------------------------------------------------------------
# The condition language
# --------------------------------------------------------------------------------------


_UNIT_FIELDS = {f.name for f in fields(Unit)}


def parse_condition(text: str) -> ast.Expression:
    """Parse and check a condition; errors name the offending fragment."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        raise QueryError(f"condition is not an expression: {error.msg} at column {error.offset}") from None
    for node in ast.walk(tree):
        _check_node(node, text)
    return tree


_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.Compare,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
    ast.Name, ast.Load, ast.Attribute, ast.Constant, ast.Call,
)  # fmt: skip


def _check_node(node: ast.AST, text: str) -> None:
    fragment = ast.get_source_segment(text, node) or type(node).__name__
    if isinstance(node, ast.BinOp) and not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        raise QueryError(f"{fragment!r}: only + - * are allowed in a query")
    if not isinstance(node, _ALLOWED):
        raise QueryError(f"{fragment!r}: not allowed in a query (use and/or/not, comparisons, + - *)")
    if isinstance(node, ast.Name) and node.id not in QUERY_NAMES and node.id != "event":
        raise QueryError(f"{node.id!r}: unknown name (known: {', '.join(QUERY_NAMES)}, event(...))")
    if isinstance(node, ast.Constant) and not isinstance(node.value, (int, bool, str)):
        raise QueryError(f"{fragment!r}: only integer, Boolean and event-name literals")
    if isinstance(node, ast.Call):
        if not (isinstance(node.func, ast.Name) and node.func.id == "event" and len(node.args) == 1):
            raise QueryError(f"{fragment!r}: the only call is event(\"name\")")
        (arg,) = node.args
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            raise QueryError(f"{fragment!r}: event(...) takes an event name in quotes")
        if arg.value not in EVENT_NAMES:
            raise QueryError(f"{arg.value!r}: unknown event name (see `referee schema` or docs/protocol.md)")


def evaluate(tree: ast.Expression, namespace: dict[str, Any], log: EventLog) -> Any:
    """The condition's value over concrete values or Z3 terms."""
    return _eval(tree.body, namespace, log)


def _eval(node: ast.AST, ns: dict[str, Any], log: EventLog) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return ns[node.id]
    if isinstance(node, ast.Attribute):
        owner = _eval(node.value, ns, log)
        if not hasattr(owner, node.attr) or node.attr.startswith("_"):
            raise QueryError(f"{node.attr!r}: no such field on {type(owner).__name__}")
        return getattr(owner, node.attr)
    if isinstance(node, ast.Call):
        name = node.args[0].value  # type: ignore[attr-defined]
        return or_(False, *[g.when for g in log.entries if g.event.name == name])
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, ns, log) for v in node.values]
        return and_(*values) if isinstance(node.op, ast.And) else or_(*values)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, ns, log)
        return not_(value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, ns, log), _eval(node.right, ns, log)
        return {ast.Add: lambda: left + right, ast.Sub: lambda: left - right, ast.Mult: lambda: left * right}[
            type(node.op)
        ]()
    if isinstance(node, ast.Compare):
        parts, left = [], _eval(node.left, ns, log)
        for op, comparator in zip(node.ops, node.comparators):
            right = _eval(comparator, ns, log)
            parts.append(_compare(op, left, right))
            left = right
        return and_(*parts)
    raise QueryError(f"unsupported expression {ast.dump(node)}")  # unreachable after _check_node


def _compare(op: ast.cmpop, left: Any, right: Any) -> Any:
    if isinstance(op, ast.Eq):
        return left == right
    if isinstance(op, ast.NotEq):
        return left != right
    if isinstance(op, ast.Lt):
        return left < right
    if isinstance(op, ast.LtE):
        return left <= right
    if isinstance(op, ast.Gt):
        return left > right
    return left >= right


# --------------------------------------------------------------------------------------
# Running the query
# --------------------------------------------------------------------------------------


def _resolve(board: Board, action: str, kind: str, amount: Any, ruleset: Ruleset) -> tuple[Board, EventLog, Any]:
    from referee.model.combat.damage import DamageInstance, resolve_damage

    instance = DamageInstance(target="target", amount=amount, source="source", kind=kind)
    if action == "damage":
        return resolve_damage(board, instance, ruleset)
    from referee.model.combat.retaliation import resolve_hit

    after, log = resolve_hit(board, instance, ruleset)
    _, _, outcome = resolve_damage(board, instance, ruleset)
    return after, log, outcome


def _namespace(before: Board, after: Board, amount: Any, outcome: Any) -> dict[str, Any]:
    return {
        "target": before.unit("target"),
        "after": after.unit("target"),
        "source": before.unit("source"),
        "source_after": after.unit("source"),
        "amount": amount,
        "outcome": outcome,
    }


def _board(variables: Any) -> Board:
    target = symbolic_unit(variables, "target", side=0, redirect_to=None, intercept_by=None)
    source = symbolic_unit(variables, "source", side=1, redirect_to=None, intercept_by=None)
    return Board((target, source))


def run_query(
    condition: str,
    *,
    kind: str = "hit",
    action: str = "damage",
    ruleset: Ruleset = DEFAULT,
    rlimit: int = DEFAULT_QUERY_RLIMIT,
    seeds: tuple[int, ...] = (0, 1, 2),
) -> QueryAnswer:
    """Find a legal scenario of one damage instance where ``condition`` holds, or say it cannot."""
    import z3

    from referee.model.combat.damage import DAMAGE_KINDS
    from referee.proofs.combat.assumptions import is_well_formed_unit
    from referee.proofs.core import Vars

    if kind not in DAMAGE_KINDS:
        raise QueryError(f"--kind {kind!r}: not a damage kind (known: {', '.join(DAMAGE_KINDS)})")
    if action not in QUERY_ACTIONS:
        raise QueryError(f"--action {action!r}: not one of {', '.join(QUERY_ACTIONS)}")
    tree = parse_condition(condition)
    variables = Vars()
    with symbolic() as context:
        before = _board(variables)
        amount = variables.int("amount")
        after, log, outcome = _resolve(before, action, kind, amount, ruleset)
        wanted = evaluate(tree, _namespace(before, after, amount, outcome), log)
    if not is_symbolic(wanted):
        wanted = z3.BoolVal(bool(wanted))
    if not z3.is_bool(wanted):
        raise QueryError("the condition must be true or false, not a number")
    legal = and_(*[is_well_formed_unit(u) for u in before.units])
    formulas = [z3.BoolVal(f) if isinstance(f, bool) else f for f in (*context.side_conditions, legal, wanted)]
    for seed in seeds:
        # A fresh context per attempt, as the proof runner does: no answer depends on what
        # the process asked Z3 before.
        ctx = z3.Context()
        solver = z3.Solver(ctx=ctx)
        solver.set("rlimit", rlimit)
        solver.set("random_seed", seed)
        solver.add(*[f.translate(ctx) for f in formulas])
        answer = solver.check()
        if answer == z3.unsat:
            return QueryAnswer("impossible", condition, detail="no legal two-unit state satisfies the condition")
        if answer == z3.sat:
            return _replay(tree, condition, variables, solver.model(), ctx, kind, action, ruleset)
    return QueryAnswer("unknown", condition, detail=f"Z3 gave no answer within rlimit {rlimit} (seeds {list(seeds)})")


def _replay(
    tree: ast.Expression, condition: str, variables: Any, model: Any, ctx: Any, kind: str, action: str, ruleset: Ruleset
) -> QueryAnswer:
    """Turn Z3's witness into a protocol scenario, run it through the model, and check the condition."""
    import z3

    from referee.protocol import decode_scenario
    from referee.rulebooks.combat.codec import encode_observation, encode_scenario
    from referee.rulebooks.combat.run import run_actions
    from referee.proofs.core import Vars

    values: dict[str, Any] = {}
    for name, term in variables.created.items():
        value = model.eval(term.translate(ctx), model_completion=True)
        values[name] = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
    concrete = Vars(values)
    board = _board(concrete)
    amount = concrete.int("amount")
    scenario = encode_scenario(
        board,
        [{"kind": action, "target": "target", "source": "source", "amount": amount, "damage_kind": kind}],
        ruleset,
        sid="query",
    )
    decoded = decode_scenario(scenario)
    after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
    _, _, outcome = _resolve(decoded.board, "damage", kind, amount, decoded.ruleset)
    holds = evaluate(tree, _namespace(decoded.board, after, amount, outcome), log)
    observation = encode_observation(after, log.events(), sid="query")
    if not holds:
        return QueryAnswer(
            "encoding-defect",
            condition,
            scenario,
            observation,
            detail="Z3's witness does not satisfy the condition when replayed through the model",
        )
    return QueryAnswer("found", condition, scenario, observation)
