"""The unit domain's one-pass concrete test (``legal.plainly_in_domain``) decides what ``UNIT_DOMAIN`` decides.

``UNIT_DOMAIN`` is the single statement of the domain (the theorems assume it, the loader rejects a
unit outside it naming the condition); ``plainly_in_domain`` is a quick concrete restatement the
loader asks first. These tests hold the two equal on units drawn by the harness and then moved, one
field and several at a time, onto every boundary of every condition, and check that a field of another
type (``True`` for an integer, ``1`` for a bool) is never decided by the quick form.
"""

from __future__ import annotations

import random
from typing import Any

from referee.model.combat.state import Unit
from referee.model.combat.legal import (
    NON_NEGATIVE_FIELDS,
    QUICK_FORM_OF,
    UNIT_DOMAIN,
    plainly_in_domain,
    unit_domain_violation,
)
from referee.rulebooks.combat import codec
from referee.seeded import draw_seeded
from referee.check.strategies import scenarios

ROLES = ("is_tool", "is_hub", "is_boss")


def _drawn_units(count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seed = 11
    while len(out) < count:
        out += [u for s in draw_seeded(scenarios(), seed, 32) for u in s["board"]]
        seed += 1
    return out[:count]


def _holds(unit: Unit) -> bool:
    return all(c.holds(unit) is True for c in UNIT_DOMAIN)


def _moved(rng: random.Random, base: dict[str, Any], moves: int) -> dict[str, Any]:
    """``base`` with ``moves`` condition fields set to a boundary value of their condition."""
    unit = dict(base)
    for _ in range(moves):
        name = rng.choice(("max_vitality", "vitality", "alive", "shield_multiplier", *NON_NEGATIVE_FIELDS, *ROLES))
        if name == "alive" or name in ROLES:
            unit[name] = not unit[name]
        elif name == "vitality":
            top = unit["max_vitality"]
            unit[name] = rng.choice((-1, 0, 1, top - 1, top, top + 1))
        else:
            unit[name] = rng.choice((-2, -1, 0, 1, 2, unit["vitality"]))
    return unit


def test_the_quick_form_was_written_for_these_conditions():
    """A condition added to (or reworded in) UNIT_DOMAIN fails here until ``plainly_in_domain`` follows it."""
    assert tuple((c.field, c.says) for c in UNIT_DOMAIN) == QUICK_FORM_OF


def test_the_quick_form_decides_every_drawn_unit_as_the_conditions_do_at_every_boundary():
    rng = random.Random(5)
    bases = _drawn_units(150)
    verdicts = {True: 0, False: 0}
    for base in bases:
        for moves in (0, 1, 1, 1, 2, 3):
            for _ in range(4):
                unit = Unit.of(_moved(rng, base, moves))
                quick, conditions = plainly_in_domain(unit), _holds(unit)
                assert quick == conditions, vars(unit)
                assert (unit_domain_violation(unit) is None) == conditions
                verdicts[quick] += 1
    assert verdicts[True] > 500 and verdicts[False] > 1000  # both outcomes well exercised


def test_the_quick_form_never_decides_a_field_of_another_type():
    """``True`` in an integer field or ``1`` in a boolean one: the quick form says False, the conditions decide."""
    base = next(u for u in _drawn_units(40) if _holds(Unit.of(u)))
    for name in ("max_vitality", "vitality", "alive", "shield_multiplier", *NON_NEGATIVE_FIELDS, *ROLES):
        odd = dict(base, **{name: (1 if type(base[name]) is bool else True)})
        assert plainly_in_domain(Unit.of(odd)) is False, name
        unit = Unit.of(odd)
        assert (unit_domain_violation(unit) is None) == _holds(unit)


def test_the_loader_still_names_the_condition_a_drawn_unit_breaks():
    base = next(u for u in _drawn_units(40) if u["alive"] and u["max_vitality"] > 1)
    for changes, field, says in [
        ({"max_vitality": -1, "vitality": 0, "alive": False}, "max_vitality", "must be >= 0"),
        ({"max_vitality": 0, "vitality": 0}, "max_vitality", "must be > 0 while alive"),
        ({"cap": -1}, "cap", "must be >= 0"),
        ({"shield_multiplier": 0}, "shield_multiplier", "must be >= 1"),
        ({"vitality": base["max_vitality"] + 1}, "vitality", "must be <= max_vitality"),
        ({"alive": False}, "vitality", "must be 0 once dead"),
        ({"shield": -1}, "shield", "must be >= 0"),
        ({"is_tool": True, "is_hub": True, "is_boss": False}, "is_hub", "is_tool and is_hub"),
    ]:
        broken = unit_domain_violation(codec.unit_from_json("u", dict(base, **changes)))
        assert broken is not None and broken.field == field and says in broken.says
