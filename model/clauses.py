"""Clause ids and the registry that ties model code to them.

Every clause id carries its rulebook, because the two numberings overlap (combat
``400.8-1`` against play ``403.1.a``). The canonical text form is
``rulebook:number``, for example ``combat:500.1-7`` or ``play:356.4.c``.

A model function declares what it implements with a decorator::

    @combat.implements("500.1-7")
    def apply_incoming_cap(...): ...

The decorator records the function in :data:`IMPLEMENTATIONS` and leaves it
unchanged (no wrapper, so no cost per call). Everything else that names clauses
(theorems, tests, vectors, docs) uses the same :class:`ClauseId`, and the
traceability table in ``specs/`` is derived from those declarations.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

RULEBOOKS = ("combat", "play")

F = TypeVar("F", bound=Callable)


class ClauseIdError(ValueError):
    """A clause id that is malformed or names an unknown rulebook."""


@dataclass(frozen=True, order=True)
class ClauseId:
    rulebook: str
    number: str

    def __str__(self) -> str:
        return f"{self.rulebook}:{self.number}"


_NUMBER = re.compile(r"^\d{3}(\.\d+)?([-.]?[0-9a-z]+)*$")


def parse_clause_id(text: str, default_rulebook: str | None = None) -> ClauseId:
    """Parse ``rulebook:number`` (or a bare number when a default rulebook is given)."""
    rulebook, sep, number = text.partition(":")
    if not sep:
        if default_rulebook is None:
            raise ClauseIdError(f"clause id {text!r} must name its rulebook, e.g. 'combat:{text}'")
        rulebook, number = default_rulebook, text
    if rulebook not in RULEBOOKS:
        raise ClauseIdError(f"clause id {text!r}: unknown rulebook {rulebook!r} (known: {', '.join(RULEBOOKS)})")
    if not _NUMBER.match(number):
        raise ClauseIdError(f"clause id {text!r}: malformed number {number!r}")
    return ClauseId(rulebook, number)


IMPLEMENTATIONS: dict[ClauseId, list[Callable]] = defaultdict(list)


class Rulebook:
    """One rulebook's namespace; its ``implements`` decorator tags model code."""

    def __init__(self, name: str) -> None:
        if name not in RULEBOOKS:
            raise ClauseIdError(f"unknown rulebook {name!r}")
        self.name = name

    def ids(self, *numbers: str) -> tuple[ClauseId, ...]:
        return tuple(parse_clause_id(n, self.name) for n in numbers)

    def implements(self, *numbers: str) -> Callable[[F], F]:
        """Declare that the decorated function implements these clauses."""
        ids = self.ids(*numbers)

        def tag(function: F) -> F:
            function.__clauses__ = getattr(function, "__clauses__", ()) + ids  # type: ignore[attr-defined]
            for clause in ids:
                IMPLEMENTATIONS[clause].append(function)
            return function

        return tag


combat = Rulebook("combat")
play = Rulebook("play")


def clauses_of(function: Callable) -> tuple[ClauseId, ...]:
    """The clause ids a model function declared."""
    return getattr(function, "__clauses__", ())


def load_all_model_modules() -> None:
    """Import every model module so that the registry is complete."""
    import importlib
    import pkgutil

    package = importlib.import_module(__name__.rsplit(".", 1)[0])
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
