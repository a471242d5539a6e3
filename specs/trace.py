"""Machine-readable declarations of what a test covers.

``@covers("combat:500.1-7")`` on a test (function or class) records the clause ids it
exercises. The catalogue reads these declarations (statically, from the source) to
compute each clause's *tested* status; nothing is typed twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from referee.model.clauses import parse_clause_id

T = TypeVar("T", bound=Callable)


def covers(*clause_ids: str) -> Callable[[T], T]:
    """Declare the clauses a test exercises (each id names its rulebook)."""
    ids = tuple(parse_clause_id(c) for c in clause_ids)

    def tag(test: T) -> T:
        test.__covers__ = getattr(test, "__covers__", ()) + ids  # type: ignore[attr-defined]
        return test

    return tag
