"""500.1h, 500.1i Damage-over-time ticks: adjusted before they enter the pipeline.

A Burn or Venom tick is changed on its way in, in a fixed order: Prismbreak amplifies it
by 50% rounded up, then the recipient's rune tick reduction and then its Forge Core tick
reduction are subtracted. A tick brought to 0 or below never enters the pipeline at all.

Worked example: a 7 tick into a Prismbroken unit with rune reduction 3 and Forge Core
reduction 2 becomes ``ceil(3*7/2) = 11``, then ``11 - 3 = 8``, then ``8 - 2 = 6``.
"""

from __future__ import annotations

from ..arith import ceildiv, ite
from ..clauses import combat
from .state import Int, Unit

#: The instance kinds that are damage-over-time ticks (500.1d, 500.1h, 500.1i).
DAMAGE_OVER_TIME_KINDS = ("burn", "venom")


@combat.implements("500.1d", "500.1h", "500.1i")
def is_damage_over_time(kind: str) -> bool:
    """Burn and Venom ticks are damage over time (500.1d, 500.1h, 500.1i)."""
    return kind in DAMAGE_OVER_TIME_KINDS


@combat.implements("500.1h")
def compute_prismbroken_tick(recipient: Unit, tick: Int) -> Int:
    """Prismbreak amplifies a tick by 50%, rounded up: ``ceil(3t/2)`` (500.1h)."""
    return ite(recipient.prismbroken, ceildiv(3 * tick, 2), tick)


@combat.implements("500.1h")
def compute_adjusted_tick(recipient: Unit, tick: Int) -> Int:
    """Prismbreak first, then the rune and then the Forge Core tick reduction (500.1h)."""
    return compute_prismbroken_tick(recipient, tick) - recipient.rune_tick_reduction - recipient.forge_tick_reduction
