"""Which model code emits each event, and the clauses it declares: read from the model's source.

An event's clauses are never typed by hand: :func:`emitters` finds, in each function of the
combat model, the event names it emits (the first argument of ``emit``, or a name it hands to the
code that emits it: a cost's channel, a revival listener's) and the clauses the function declares
with ``@combat.implements``. The protocol's event table, the observation schema and the contract
snapshot (``referee.contract``) cite those clauses.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from functools import cache
from pathlib import Path
from typing import Any

from referee.model.clauses import clauses_of
from referee.model.events import EVENTS

#: Model modules that are not the model's own emitters: the fast twin (proved equal to the model's steps).
_TWINS = ("fast",)
#: Keyword arguments whose string is a word, never the name of an event emitted (``detail="death"``).
_WORD_ARGUMENTS = frozenset({"detail", "kind", "damage_kind", "cause", "lane", "reason"})


def _event_literals(function: ast.FunctionDef) -> set[str]:
    """The event names a function's body emits or hands on (not those it only compares with or passes as a word)."""
    parents = {child: node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
    found = set()
    for node in ast.walk(function):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in EVENTS):
            continue
        parent = parents.get(node)
        if isinstance(parent, (ast.Compare, ast.Expr)):
            continue
        if isinstance(parent, ast.keyword) and parent.arg in _WORD_ARGUMENTS:
            continue
        found.add(node.value)
    return found


def emitters(package: str = "referee.model.combat") -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Each event name: the model functions that emit it, with the clauses each declares (untagged: ``()``)."""
    root = importlib.import_module(package)
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda i: i.name):
        if info.name in _TWINS:
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            ids = tuple(str(c) for c in clauses_of(getattr(module, node.name, None)))
            for name in sorted(_event_literals(node)):
                out.setdefault(name, []).append((f"{info.name}.{node.name}", ids))
    return out


@cache
def event_clauses() -> dict[str, tuple[str, ...]]:
    """Each combat event's clause ids: the union of its emitters' (in catalogue-like order)."""
    found = emitters()
    return {name: tuple(sorted({c for _, ids in found.get(name, ()) for c in ids}, key=_clause_key))
            for name, spec in EVENTS.items() if spec.rulebook == "combat"}


def _clause_key(clause: str) -> tuple[Any, ...]:
    number = clause.split(":", 1)[1]
    head, _, tail = number.partition("-")
    return (head, int(tail) if tail.isdigit() else -1, number)
