"""Symbolic combat records: a unit whose fields are Z3 variables while proving."""

from __future__ import annotations

from typing import Any

from referee.model.combat.state import Unit

from ..core import Vars


def symbolic_unit(v: Vars, uid: str, *, side: int = 0, row: int = 0, col: int = 0, **fixed: Any) -> Unit:
    """A unit whose every numeric and Boolean field is a variable ``uid.field``.

    ``fixed`` pins fields to given values (for example ``redirect_to=None``).
    """
    return v.record(Unit, uid, uid=uid, side=side, row=row, col=col, **fixed)


def pinned(v: Vars, uid: str, **values: bool | int) -> Any:
    """The symbolic unit ``uid``'s named fields equal ``values``: a narrower space for a mutant's kill
    (``Mutant.search_within``), never an assumption of a theorem."""
    from referee.model.arith import and_

    return and_(True, *[(v.bool if isinstance(value, bool) else v.int)(f"{uid}.{name}") == value
                        for name, value in values.items()])  # fmt: skip


#: A unit with nothing of its own to answer or absorb a hit with: the usual narrower space for a kill.
QUIET = dict(thorns=0, riposte=0, retort=0, vessels=0, maim=0, adrenaline=0, has_cap=False, defy_death=False,
             reflect=False, dormant=False)  # fmt: skip
