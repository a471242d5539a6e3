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
