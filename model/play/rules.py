"""Selectable readings of the play rulebook, each with its register entry (``specs/interpretations/play.toml``).

Where the seed is silent and engines may plausibly differ, the reading is a named option
here rather than a hidden constant, and an engine can be checked under the reading it
implements. The combat options live in :mod:`referee.model.combat.ruleset`; the play rulebook
keeps its own so that it does not depend on the combat model.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from typing import Any, Literal

EitherDiscount = Literal["energy_first", "power_first"]
ComponentDiscountScope = Literal["each_component", "once"]
LeaveBoardResets = Literal["exhausted_only", "all_board_state"]


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The selectable readings of the play rulebook."""

    #: PLAY-003 (356.4.c): which part a "[1] or [A] less" discount takes off.
    either_discount: EitherDiscount = "energy_first"
    #: PLAY-020 (356.4.c): whether a component discount lowers every component it applies to, or the first one paid.
    component_discount_scope: ComponentDiscountScope = "each_component"
    #: PLAY-025 (PLAY-008): whether an object that changes zone keeps its board location and Might bonus.
    leave_board_resets: LeaveBoardResets = "exhausted_only"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayRules:
        """Build the options from JSON, naming any unknown option or bad value."""
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ValueError(f"play rules: unknown option {key!r} (known: {', '.join(sorted(known))})")
        rules = cls(**data)
        rules.validate()
        return rules

    def validate(self) -> None:
        """Raise ``ValueError`` naming the option whose value is not one of its readings (its ``Literal``)."""
        hints = typing.get_type_hints(type(self))
        for f in fields(self):
            readings = typing.get_args(hints[f.name])
            value = getattr(self, f.name)
            if value not in readings:
                raise ValueError(f"play rules: {f.name} must be one of {', '.join(map(repr, readings))}, got {value!r}")


    def to_json(self) -> dict[str, Any]:
        """Every option, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_PLAY_RULES = PlayRules()
