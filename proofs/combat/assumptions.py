"""Shared assumptions of the theorems: what a legal unit looks like.

A theorem quantifies over every state, so it must rule out states the game never reaches
(a negative Shield pool, a living unit at 0 Vitality). Each condition here is one the
model relies on and does not check itself; where the model clamps a value on its own (a
Shield multiplier below 1, a negative cap or redirect cap) the value is left free, so
the theorems cover those inputs too.

The conditions are declared once, in :data:`UNIT_DOMAIN`: the theorems assume their
conjunction (:func:`is_well_formed_unit`), and the scenario loader rejects a unit outside
it with the field and the condition (:func:`unit_domain_violation`), so every input the
harness accepts lies inside the domain the proofs cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

from referee.model.arith import and_, not_, or_
from referee.model.combat.state import Board, Unit

#: Counters and pools that never go below 0 in a reachable state.
NON_NEGATIVE_FIELDS = (
    "shield", "insurance", "subrogated", "ignore_charges", "vessels", "adrenaline", "momentum", "bolster",
    "thorns", "riposte", "retort", "rune_tick_reduction", "forge_tick_reduction",
    "maim", "forge_core_recovery", "exalt",
)  # fmt: skip


@dataclass(frozen=True)
class Condition:
    """One condition of the domain: the field it is reported on, what it says, and the predicate
    (over ints or Z3 terms, written with ``referee.model.arith``)."""

    field: str
    says: str
    holds: Callable[[Unit], Any]


def _non_negative(name: str) -> Condition:
    return Condition(name, "must be >= 0", lambda u: getattr(u, name) >= 0)


#: The domain of a unit, in the order a violation is reported.
UNIT_DOMAIN: tuple[Condition, ...] = (
    Condition("max_vitality", "must be > 0", lambda u: u.max_vitality > 0),
    Condition("vitality", "must be > 0 while alive", lambda u: or_(not_(u.alive), u.vitality > 0)),
    Condition("vitality", "must be <= max_vitality", lambda u: or_(not_(u.alive), u.vitality <= u.max_vitality)),
    Condition("vitality", "must be 0 once dead (alive false)", lambda u: or_(u.alive, u.vitality == 0)),
    *(_non_negative(name) for name in NON_NEGATIVE_FIELDS),
    Condition("is_hub", "a unit is at most one of Tool, Hub and boss (is_tool and is_hub)",
              lambda u: not_(and_(u.is_tool, u.is_hub))),
    Condition("is_boss", "a unit is at most one of Tool, Hub and boss (is_tool and is_boss)",
              lambda u: not_(and_(u.is_tool, u.is_boss))),
    Condition("is_boss", "a unit is at most one of Tool, Hub and boss (is_hub and is_boss)",
              lambda u: not_(and_(u.is_hub, u.is_boss))),
)


def is_well_formed_unit(u: Unit) -> Any:
    """A legal unit: pools non-negative, Vitality in ``(0, max]`` while alive and 0 once dead, one role at most."""
    return and_(*[c.holds(u) for c in UNIT_DOMAIN])


_READ = itemgetter("alive", "vitality", "max_vitality", "is_tool", "is_hub", "is_boss", *NON_NEGATIVE_FIELDS)
_PLAIN_TYPES = (bool, int, int, bool, bool, bool, *(int for _ in NON_NEGATIVE_FIELDS))
#: The conditions (field, what it says) :func:`plainly_in_domain` was written for, in order: a test holds
#: :data:`UNIT_DOMAIN` to it, so a condition added there fails that test until the quick form follows.
QUICK_FORM_OF: tuple[tuple[str, str], ...] = (
    ("max_vitality", "must be > 0"),
    ("vitality", "must be > 0 while alive"),
    ("vitality", "must be <= max_vitality"),
    ("vitality", "must be 0 once dead (alive false)"),
    *((name, "must be >= 0") for name in NON_NEGATIVE_FIELDS),
    ("is_hub", "a unit is at most one of Tool, Hub and boss (is_tool and is_hub)"),
    ("is_boss", "a unit is at most one of Tool, Hub and boss (is_tool and is_boss)"),
    ("is_boss", "a unit is at most one of Tool, Hub and boss (is_hub and is_boss)"),
)


def plainly_in_domain(u: Unit) -> bool:
    """True only when every condition of :data:`UNIT_DOMAIN` holds on ``u``, decided in one pass over a unit
    whose fields are plain ``int`` and ``bool`` (the decoder's case); False when one breaks or a field is of
    another type: then :func:`unit_domain_violation` runs the conditions one by one and names the first.

    A concrete restatement for speed (the loop evaluates ~23 lambdas through the single-source helpers),
    not a second domain: ``UNIT_DOMAIN`` stays the statement the theorems assume, and
    ``tests/harness/test_harness_domain_quick_form.py`` holds this to it on drawn units at every boundary.
    """
    try:
        values = _READ(vars(u))  # a Unit keeps its fields in its instance dict (``Unit.of``, ``Unit.evolve``)
    except (TypeError, KeyError):
        return False
    if tuple(map(type, values)) != _PLAIN_TYPES:
        return False
    alive, vitality, top, tool, hub, boss = values[:6]
    return (top > 0 and (0 < vitality <= top if alive else vitality == 0)  # alive: in (0, max]; dead: at 0
            and min(values[6:]) >= 0 and tool + hub + boss <= 1)  # every pool non-negative; one role at most


def unit_domain_violation(u: Unit) -> Condition | None:
    """The first condition of :data:`UNIT_DOMAIN` a concrete unit breaks, or None."""
    if plainly_in_domain(u):
        return None
    for condition in UNIT_DOMAIN:
        if condition.holds(u) is not True:
            return condition
    return None


def is_well_formed_board(board: Board) -> Any:
    """Every unit on the board is legal."""
    return and_(*[is_well_formed_unit(u) for u in board.units])
