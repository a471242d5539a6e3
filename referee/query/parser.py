"""The condition language: a safe, bounded, typed subset of Python expressions.

A condition is parsed by :func:`ast.parse` and then accepted only if every node is on an
allow-list; nothing is ever evaluated by Python's ``eval``. Before any node is looked at
the text is bounded (length, nesting), and the tree is walked with an explicit stack, so
``not not ... x`` 1,200 times or ``- - ... 1`` 3,000 times is a clean error, not a
``RecursionError``, and a 68 KB ``and`` chain parses in linear time (fragments for error
messages come from node offsets, never from ``ast.get_source_segment`` per node).

The checked tree is typed (:class:`Typed`): every node is ``Int``, ``Bool``, a record
(``unit``, ``state``, ``outcome``, ``action``) or a list of states, and the whole condition
must be ``Bool``. Integer literals are bounded, and the size a product of literals can
reach is bounded too, so no condition makes Python or Z3 build a huge number.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

from .types import QueryError, Schema

#: Bounds on a condition: characters, nesting depth, nodes, literal size, product size in bits.
MAX_LENGTH = 100_000
MAX_DEPTH = 60
MAX_NODES = 100_000
MAX_LITERAL = 10**12
MAX_BITS = 256

INT, BOOL, STR = "Int", "Bool", "Str"
COMPARE_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
ARITH_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
FUNCTIONS = ("event", "count", "min", "max", "abs")


@dataclass
class Typed:
    """A checked node: its operation, its type, its operands, and where it is in the text."""

    op: str  # const | name | field | index | not | neg | and | or | arith | compare | call
    type: str  # Int | Bool | Str | unit | state | states | outcome | action | actions
    args: list[Any] = field(default_factory=list)
    fragment: str = ""
    bits: int = 1  # an upper bound on the bit length of an Int value's literal part


def fragment_of(text: str, lines: list[int], node: ast.AST) -> str:
    """The source text of ``node`` (offsets are characters; bounded to 60 characters)."""
    start = getattr(node, "lineno", None)
    if start is None:
        return type(node).__name__
    begin = lines[node.lineno - 1] + node.col_offset
    end = lines[node.end_lineno - 1] + node.end_col_offset if node.end_lineno else begin + 1
    piece = text[begin:end]
    return piece if len(piece) <= 60 else piece[:57] + "..."


def check_bounds(text: str) -> None:
    """Reject a condition too long or too deeply nested before the Python parser sees it."""
    if not isinstance(text, str):
        raise QueryError("the condition must be a string")
    if len(text) > MAX_LENGTH:
        raise QueryError(f"the condition is {len(text)} characters long (at most {MAX_LENGTH})")
    depth = run = 0
    for match in _TOKENS.finditer(text):
        word = match.group()
        if word in ("(", "[", "{"):
            depth += 1
        elif word in (")", "]", "}"):
            depth -= 1
        elif word in ("not", "-", "+", "~"):
            run += 1
        else:
            run = 0
        if depth + run > MAX_DEPTH:
            raise QueryError(f"the condition nests more than {MAX_DEPTH} levels deep (parentheses or not/-)")


_TOKENS = re.compile(r"\bnot\b|[-+~()\[\]{}]|[^\s\-+~()\[\]{}]+")


def parse_tree(text: str) -> ast.Expression:
    """``ast.parse`` behind the bounds, with every parser failure a :class:`QueryError`."""
    check_bounds(text)
    if "\x00" in text:
        raise QueryError("the condition contains a NUL character")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "invalid decimal literal" and the like: the error says enough
            tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        raise QueryError(f"condition is not an expression: {error.msg} at column {error.offset}") from None
    except (RecursionError, MemoryError, ValueError, OverflowError) as error:
        raise QueryError(f"condition is too complex to parse ({type(error).__name__})") from None
    nodes = 0
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise QueryError(_too_deep(tree))
        if nodes > MAX_NODES:
            raise QueryError(f"the condition has more than {MAX_NODES} parts")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def _too_deep(tree: ast.Expression) -> str:
    """Why the tree is too deep: a long flat chain (``a + b + ... + z``, read as ``((a + b) + ...) + z``:
    one level per term) is named as such, with the way around it; else the nesting itself."""
    longest, op = 0, None
    for node in ast.walk(tree):
        length, inner = 1, node
        while isinstance(inner, ast.BinOp) and isinstance(inner.left, ast.BinOp) and type(inner.left.op) is type(inner.op):
            length, inner = length + 1, inner.left
        if isinstance(node, ast.BinOp) and length + 1 > longest:
            longest, op = length + 1, node.op
    if longest > MAX_DEPTH // 2:  # the chain takes most of the depth
        sign = ARITH_OPS.get(type(op), type(op).__name__)
        return (f"the condition chains {longest} terms with {sign!r}, and a chain of N terms is N levels deep "
                f"(a {sign} b {sign} c is read as (a {sign} b) {sign} c); at most {MAX_DEPTH} levels: group the terms "
                f"in parentheses, e.g. (a {sign} b) {sign} (c {sign} d)")
    return f"the condition nests more than {MAX_DEPTH} levels deep"


def parse_condition(text: str, schema: Schema | None = None) -> Typed:
    """Parse and type-check a condition; it must be Boolean. Errors name the fragment and the types."""
    from .types import default_schema

    tree = parse_tree(text)
    lines = [0]
    for line in text.splitlines(keepends=True):
        lines.append(lines[-1] + len(line))
    checker = Checker(text, lines, schema or default_schema())
    typed = checker.check(tree.body)
    if typed.type != BOOL:
        raise QueryError(f"{typed.fragment!r} is {describe(typed.type)}: a condition must be true or false (Bool)")
    return typed


def describe(kind: str) -> str:
    return {INT: "an Int", BOOL: "a Bool", STR: "a string"}.get(kind, f"a {kind} record")


class Checker:
    """Turns an allowed ``ast`` node into a :class:`Typed` node (recursion is bounded by MAX_DEPTH)."""

    def __init__(self, text: str, lines: list[int], schema: Schema) -> None:
        self.text, self.lines, self.schema = text, lines, schema

    def frag(self, node: ast.AST) -> str:
        return fragment_of(self.text, self.lines, node)

    def fail(self, node: ast.AST, message: str) -> QueryError:
        return QueryError(f"{self.frag(node)!r}: {message}")

    def check(self, node: ast.AST) -> Typed:
        method = getattr(self, "check_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, f"{type(node).__name__} is not allowed in a query "
                                  "(use and/or/not, comparisons, + - *, fields, event/count/min/max/abs)")
        typed = method(node)
        typed.fragment = typed.fragment or self.frag(node)
        return typed

    def expect(self, typed: Typed, kind: str, what: str) -> Typed:
        if typed.type != kind:
            raise QueryError(f"{typed.fragment!r} is {describe(typed.type)}, but {what} needs {describe(kind)}")
        return typed

    def check_Constant(self, node: ast.Constant) -> Typed:
        value = node.value
        if isinstance(value, bool):
            return Typed("const", BOOL, [value])
        if isinstance(value, int):
            if abs(value) > MAX_LITERAL:
                raise self.fail(node, f"integer literal larger than {MAX_LITERAL:,}")
            return Typed("const", INT, [value], bits=max(value.bit_length(), 1))
        if isinstance(value, str):
            if len(value) > 64:
                raise self.fail(node, "string literal longer than 64 characters")
            return Typed("const", STR, [value])
        raise self.fail(node, f"{type(value).__name__} literals are not allowed (integers, True/False, names in quotes)")

    def check_Name(self, node: ast.Name) -> Typed:
        if node.id in ("True", "False"):
            return Typed("const", BOOL, [node.id == "True"])
        kind = self.schema.names.get(node.id)
        if kind is None:
            if node.id in FUNCTIONS:
                raise self.fail(node, f"{node.id} is a function: call it, e.g. {node.id}(...)")
            raise self.fail(node, f"unknown name (known: {', '.join(self.schema.names)}; functions: {', '.join(FUNCTIONS)})")
        return Typed("name", kind, [node.id], bits=40)

    def check_Attribute(self, node: ast.Attribute) -> Typed:
        owner = self.check(node.value)
        record = self.schema.records.get(owner.type)
        if record is None:
            raise self.fail(node, f"{owner.fragment!r} is {describe(owner.type)}, which has no fields")
        if node.attr not in record:
            raise self.fail(node, f"no field {node.attr!r} on {describe(owner.type)} (known: {', '.join(record)})")
        return Typed("field", record[node.attr], [owner, node.attr], bits=40)

    def check_Subscript(self, node: ast.Subscript) -> Typed:
        owner = self.check(node.value)
        if owner.type not in ("states", "actions"):
            raise self.fail(node, f"{owner.fragment!r} is {describe(owner.type)} and cannot be indexed "
                                  "(only after[i] and actions[i])")
        index = node.slice
        if not (isinstance(index, ast.Constant) and type(index.value) is int):
            raise self.fail(node, "the index must be an integer literal")
        size = self.schema.actions
        if not 0 <= index.value < size:
            raise self.fail(node, f"index {index.value} out of range: the query has {size} action(s)")
        return Typed("index", "state" if owner.type == "states" else "action", [owner, index.value])

    def check_UnaryOp(self, node: ast.UnaryOp) -> Typed:
        operand = self.check(node.operand)
        if isinstance(node.op, ast.Not):
            return Typed("not", BOOL, [self.expect(operand, BOOL, "'not'")])
        if isinstance(node.op, (ast.USub, ast.UAdd)):
            self.expect(operand, INT, "unary minus")
            return Typed("neg" if isinstance(node.op, ast.USub) else "pos", INT, [operand], bits=operand.bits)
        raise self.fail(node, "only 'not' and unary '-' are allowed")

    def check_BoolOp(self, node: ast.BoolOp) -> Typed:
        word = "and" if isinstance(node.op, ast.And) else "or"
        values = [self.expect(self.check(v), BOOL, f"'{word}'") for v in node.values]
        return Typed(word, BOOL, values)

    def check_BinOp(self, node: ast.BinOp) -> Typed:
        symbol = ARITH_OPS.get(type(node.op))
        if symbol is None:
            raise self.fail(node, "only + - * are allowed in a query")
        left, right = self.check(node.left), self.check(node.right)
        for side in (left, right):
            if side.type != INT:
                raise self.fail(node, f"{symbol!r} needs Int operands, but {side.fragment!r} is {describe(side.type)}")
        bits = left.bits + right.bits if symbol == "*" else max(left.bits, right.bits) + 1
        if bits > MAX_BITS:
            raise self.fail(node, f"arithmetic too large (values up to 2**{bits}; at most 2**{MAX_BITS})")
        return Typed("arith", INT, [symbol, left, right], bits=bits)

    def check_Compare(self, node: ast.Compare) -> Typed:
        parts = [self.check(node.left)] + [self.check(c) for c in node.comparators]
        ops = []
        for op, left, right in zip(node.ops, parts, parts[1:]):
            symbol = COMPARE_OPS.get(type(op))
            if symbol is None:
                raise self.fail(node, "only == != < <= > >= are allowed")
            allowed = (INT, BOOL) if symbol in ("==", "!=") else (INT,)
            if left.type != right.type or left.type not in allowed:
                raise self.fail(node, f"cannot compare {left.fragment!r} ({describe(left.type)}) {symbol} "
                                      f"{right.fragment!r} ({describe(right.type)})")
            ops.append(symbol)
        return Typed("compare", BOOL, [ops, parts])

    def check_IfExp(self, node: ast.IfExp) -> Typed:
        test = self.expect(self.check(node.test), BOOL, "'if'")
        then, other = self.check(node.body), self.check(node.orelse)
        if then.type != other.type or then.type not in (INT, BOOL):
            raise self.fail(node, f"both branches must be Int or both Bool ({describe(then.type)}, {describe(other.type)})")
        return Typed("ite", then.type, [test, then, other], bits=max(then.bits, other.bits))

    def check_Call(self, node: ast.Call) -> Typed:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise self.fail(node, f"the only calls are {', '.join(f + '(...)' for f in FUNCTIONS)}")
        name = node.func.id
        if name in ("event", "count"):
            return self.check_event(node, name)
        if node.keywords:
            raise self.fail(node, f"{name}() takes no keyword arguments")
        args = [self.expect(self.check(a), INT, f"{name}()") for a in node.args]
        if name == "abs" and len(args) != 1:
            raise self.fail(node, "abs() takes one Int")
        if name != "abs" and len(args) < 2:
            raise self.fail(node, f"{name}() takes two or more Ints")
        return Typed("call", INT, [name, args], bits=max(a.bits for a in args))

    def check_event(self, node: ast.Call, name: str) -> Typed:
        if len(node.args) != 1:
            raise self.fail(node, f"{name}() takes one event name, e.g. {name}(\"thorns\")")
        event = node.args[0]
        if not (isinstance(event, ast.Constant) and isinstance(event.value, str)):
            raise self.fail(node, f"{name}() takes an event name in quotes")
        if event.value not in self.schema.events:
            raise self.fail(event, f"unknown event name (known: {', '.join(self.schema.events)})")
        options: dict[str, Any] = {}
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg in options:
                raise self.fail(value, f"{name}() names {keyword.arg}= twice (each option once)")
            if keyword.arg == "unit" or keyword.arg == "other":
                if not (isinstance(value, ast.Constant) and value.value in self.schema.units):
                    raise self.fail(value, f"{keyword.arg}= takes a unit name in quotes (known: {', '.join(self.schema.units)})")
                options[keyword.arg] = value.value
            elif keyword.arg == "action":
                if not (isinstance(value, ast.Constant) and type(value.value) is int and 0 <= value.value < self.schema.actions):
                    raise self.fail(value, f"action= takes an action index 0..{self.schema.actions - 1}")
                options["action"] = value.value
            else:
                raise self.fail(node, f"{name}() takes unit=, other= and action= (got {keyword.arg}=)")
        return Typed(name, BOOL if name == "event" else INT, [event.value, options], bits=8)
