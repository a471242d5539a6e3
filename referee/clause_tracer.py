"""The clauses a model run applied, for ``--stats``: cheaply, as a set.

The clause trail (``referee.trail.record``) runs the model under ``sys.setprofile``: a Python call for every
call and return of every function, C functions included, to record each tagged call's order and depth and
every event. Measured on the default mix: the reference run takes ~120 us a scenario, under that hook ~3,000
us, which made ``referee check --stats`` 8.5x slower. Coverage counts need only *which* clauses ran, so here
the run goes under ``sys.settrace`` with a global function that notes a tagged function's code at its call
and returns None (no line events, no return events, no C calls): ~500 us, the same clause sets
(``tests/harness/test_harness_stats_cost.py`` holds the two equal).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_CODES: dict[Any, tuple[str, ...]] = {}
_SIZE = [-1]


def tagged_codes() -> dict[Any, tuple[str, ...]]:
    """Every tagged model function's code -> its clause ids (rebuilt when more functions are tagged)."""
    from referee.model.clauses import IMPLEMENTATIONS

    from .trail import _tagged_codes

    if _SIZE[0] != sum(len(f) for f in IMPLEMENTATIONS.values()) or not _CODES:
        _CODES.clear()
        _CODES.update({code: ids for code, (_, ids) in _tagged_codes().items()})
        _SIZE[0] = sum(len(f) for f in IMPLEMENTATIONS.values())
    return _CODES


@contextmanager
def clauses_applied_in(seen: set[str]) -> Iterator[None]:
    """While the block runs, add to ``seen`` the clause ids of every tagged model function called."""
    codes, called = tagged_codes(), set()

    def note(frame: Any, event: str, arg: Any) -> None:
        if frame.f_code in codes:
            called.add(frame.f_code)

    previous = sys.gettrace()
    sys.settrace(note)
    try:
        yield
    finally:
        sys.settrace(previous)
        for code in called:
            seen.update(codes[code])
