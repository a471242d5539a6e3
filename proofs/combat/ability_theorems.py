"""Theorems of 400.8: a zero count gives zero, and a Restore line's recovery step.

Both run the model's own functions on symbols (DESIGN, proofs/ way (a)), called through
their modules so that a mutant patched into ``referee.model.combat.abilities`` or
``referee.model.combat.keywords`` is seen.
"""

from __future__ import annotations

from referee.model.arith import and_, ite, max_, min_, not_, or_
from referee.model.combat import abilities, keywords

from ..core import Mutant, Obligation, Vars, all_of, theorem
from referee.model.combat.legal import is_legal_unit
from .symbolic import symbolic_unit

# --------------------------------------------------------------------------------------
# Mutants: the wrong answers of 400.8c, and recovery bugs
# --------------------------------------------------------------------------------------


def _amount_floored_to_one(base, count):
    """400.8c's wrong answer: a zero count still produces the minimum amount."""
    return base if count is None else base * max_(count, 1)


def _amount_ignoring_count(base, count):
    """The 'per' multiplier is forgotten: the base amount is dealt whatever the count."""
    return base


def _restoration_uncapped(unit, amount):
    """No capacity step: the whole amount is restored, past maximum Vitality."""
    refused = or_(not_(unit.alive), unit.entrapped, unit.dormant, unit.discards_combat)
    eligible = ite(refused, 0, max_(amount, 0))
    prevented = min_(eligible, 2 * max_(unit.maim, 0))
    return eligible - prevented, _ceil_half(prevented)


def _restoration_ungated(unit, amount):
    """The 500.3g refusals are forgotten: a dead or Entrapped unit is healed."""
    eligible = min_(max_(amount, 0), max_(unit.max_vitality - unit.vitality, 0))
    prevented = min_(eligible, 2 * max_(unit.maim, 0))
    return eligible - prevented, _ceil_half(prevented)


def _restoration_maim_first(unit, amount):
    """Maim applied before the capacity cap: a full-Vitality unit still consumes Maim (against 500.3e)."""
    refused = or_(not_(unit.alive), unit.entrapped, unit.dormant, unit.discards_combat)
    asked = ite(refused, 0, max_(amount, 0))
    prevented = min_(asked, 2 * max_(unit.maim, 0))
    restored = min_(asked - prevented, max_(unit.max_vitality - unit.vitality, 0))
    return restored, _ceil_half(prevented)


def _ceil_half(n):
    from referee.model.arith import ceildiv

    return ceildiv(n, 2)


FLOORED = Mutant("zero_count_floored_to_one", "referee.model.combat.abilities:compute_line_amount",
                 _amount_floored_to_one, "a zero count still produces the base amount (400.8c)")  # fmt: skip
COUNT_IGNORED = Mutant("per_count_ignored", "referee.model.combat.abilities:compute_line_amount",
                       _amount_ignoring_count, "the per multiplier is not applied")  # fmt: skip
UNCAPPED = Mutant("restore_uncapped", "referee.model.combat.keywords:compute_restoration", _restoration_uncapped,
                  "recovery is not capped at missing Vitality (500.3c)")  # fmt: skip
UNGATED = Mutant("restore_ungated", "referee.model.combat.keywords:compute_restoration", _restoration_ungated,
                 "recovery is not refused against dead, Entrapped or Dormant units, Tools and Hubs (500.3g)")  # fmt: skip
MAIM_FIRST = Mutant("maim_before_capacity", "referee.model.combat.keywords:compute_restoration",
                    _restoration_maim_first, "Maim meets the asked amount, not the eligible one (500.3d, 500.3e)")  # fmt: skip


# --------------------------------------------------------------------------------------
# The theorems
# --------------------------------------------------------------------------------------


@theorem("combat:400.8c", "combat:400.8-3", mutants=[FLOORED, COUNT_IGNORED])
def zero_count_resolves_to_zero(v: Vars) -> Obligation:
    """A line with a 'per' count resolves to its base amount times the count: 0 for a count of 0, never floored to the minimum."""
    base, count = v.int("base"), v.int("count")
    line = abilities.compute_line_amount(base, count)
    claim = and_(
        or_(count != 0, line == 0),
        or_(count != 1, line == base),
        line == base * count,
    )
    return Obligation(assume=all_of(base > 0, count >= 0), claim=claim)


@theorem("combat:400.8-7", "combat:500.3c", "combat:500.3d", "combat:500.3e", "combat:500.3g",
         mutants=[UNCAPPED, UNGATED, MAIM_FIRST])  # fmt: skip
def restore_is_capped_by_missing_vitality_then_maim_and_refused_to_illegal_recipients(v: Vars) -> Obligation:
    """A Restore line restores at most the missing Vitality, nothing to a dead, Entrapped or Dormant unit, Tool or Hub, and consumes no Maim on a unit at full Vitality."""
    unit = symbolic_unit(v, "r")
    asked = v.int("asked")
    restored, consumed = keywords.compute_restoration(unit, asked)
    refused = or_(not_(unit.alive), unit.entrapped, unit.dormant, unit.discards_combat)
    claim = and_(
        restored >= 0,
        restored <= unit.max_vitality - unit.vitality,
        or_(not_(refused), and_(restored == 0, consumed == 0)),
        or_(unit.vitality < unit.max_vitality, consumed == 0),
        consumed >= 0,
        consumed <= unit.maim,
    )
    return Obligation(assume=all_of(is_legal_unit(unit), unit.maim >= 0), claim=claim)
