"""Selectable readings of the play rulebook, each with its register entry (``specs/interpretations/play.toml``).

Where the seed is silent and engines may plausibly differ, the reading is a named option
here rather than a hidden constant, and an engine can be checked under the reading it
implements. The combat options live in :mod:`referee.model.combat.ruleset`; the play rulebook
keeps its own so that it does not depend on the combat model.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

EitherDiscount = Literal["energy_first", "power_first"]


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The selectable readings of the play rulebook."""

    #: PLAY-003 (356.4.c): which part a "[1] or [A] less" discount takes off.
    either_discount: EitherDiscount = "energy_first"

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
        """Raise ``ValueError`` naming the option whose value is not one of its readings."""
        if self.either_discount not in ("energy_first", "power_first"):
            raise ValueError(
                f"play rules: either_discount must be 'energy_first' or 'power_first', got {self.either_discount!r}"
            )


DEFAULT_PLAY_RULES = PlayRules()
