"""500.3 Recovery: restoring Vitality and gaining Shield, through one ledger.

:func:`resolve_recovery` is the public entry: a board, a target, a requested amount and a
lane (``heal``, ``shield`` or ``repair``) in; the new board and the events out. The ledger,
in order (500.3a):

* 500.3g  the gate: a dead, Entrapped or Dormant target, a Tool or a Hub, is refused
  outright; Tool repair is the exception and bypasses the gate (a dead Tool is still
  refused, INT-305);
* 500.3b  the target's Forge Core recovery bonus is added to the requested amount;
* 500.3c  the amount is capped by what the target can receive: its missing Vitality for a
  heal or a repair; a Shield gain has no ceiling, or under ``shield_gain_cap = max_vitality``
  the room its Shield has below the maximum Vitality (INT-302);
* 500.3f  Exalt adds its flat amount to a Shield gain, before Maim (INT-303);
* 500.3d  Maim last: each point prevents 2 of the eligible amount, and
  ``ceil(prevented / 2)`` points are consumed; 500.3e follows, since a target at full
  Vitality has nothing eligible and consumes no Maim. Maim meets every lane, or under
  ``maim_lanes = heals_only`` a heal only (INT-306).

A request of 0 or less is no recovery at all: nothing happens and nothing is reported
(INT-301). The arithmetic is written once over ``arith``, so the same code is the Z3
encoding of the ledger (``proofs/combat/recovery_theorems.py``).

Worked example: a heal of 9 on a unit at 90/100 with Forge Core bonus 3 and Maim 2:
``9 + 3 = 12``, capped at the 10 missing, Maim prevents ``min(10, 4) = 4`` and consumes
``ceil(4/2) = 2`` points; the unit ends at 96 with Maim 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arith import and_, ceildiv, ite, max_, min_, not_, or_
from ..clauses import combat
from ..events import EventLog
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit

#: The recovery lanes: restoring Vitality, gaining Shield, and a Tool's repair (500.3a, 500.3g).
RECOVERY_LANES = ("heal", "shield", "repair")
#: Maim prevents this much recovery per point (500.3d).
MAIM_PER_POINT = 2


@dataclass(frozen=True, slots=True)
class Recovery:
    """The numbers of one recovery on its target: pure arithmetic, no events."""

    requested: Int
    boosted: Int  # after the Forge Core bonus (500.3b)
    capped: Int  # after the cap of what the target can receive (500.3c)
    eligible: Int  # after Exalt: what Maim meets (500.3f)
    prevented: Int  # by Maim (500.3d)
    consumed: Int  # Maim points used up: ceil(prevented / 2) (500.3d)
    received: Int  # what the target gains
    refused: Bool  # the gate refused it (500.3g)


# --------------------------------------------------------------------------------------
# 500.3g The gate
# --------------------------------------------------------------------------------------


@combat.implements("500.3g")
def compute_recovery_refusals(target: Unit, lane: str) -> tuple[tuple[str, Bool], ...]:
    """Why recovery is refused, first reason first: dead, a Tool or Hub, Entrapped, Dormant (500.3g, INT-305).

    Tool repair bypasses the gate for a living Tool; a repair of anything but a Tool is
    refused as ``not_a_tool``. The conditions exclude each other, so one reason is reported.
    """
    dead = not_(target.alive)
    if lane == "repair":
        return (("dead", dead), ("not_a_tool", and_(target.alive, not_(target.is_tool))))
    living = target.alive
    ordinary = and_(living, not_(target.discards_combat))
    return (
        ("dead", dead),
        ("tool_or_hub", and_(living, target.discards_combat)),
        ("entrapped", and_(ordinary, target.entrapped)),
        ("dormant", and_(ordinary, not_(target.entrapped), target.dormant)),
    )


@combat.implements("500.3g")
def is_recovery_refused(target: Unit, lane: str) -> Bool:
    """Recovery is refused when any reason of the gate holds (500.3g)."""
    return or_(False, *[why for _, why in compute_recovery_refusals(target, lane)])


# --------------------------------------------------------------------------------------
# 500.3b .. 500.3f The ledger
# --------------------------------------------------------------------------------------


@combat.implements("500.3b")
def apply_forge_core_bonus(target: Unit, requested: Int) -> Int:
    """The target's Forge Core recovery bonus is added to the requested amount first (500.3b, INT-304)."""
    return requested + max_(target.forge_core_recovery, 0)


@combat.implements("500.3c")
def compute_receivable(target: Unit, lane: str) -> Int | None:
    """What the target can receive: its missing Vitality for a heal or repair; for a Shield gain ``None``, whose
    ceiling is the reading of INT-302 (:func:`cap_shield_gain`) (500.3c)."""
    if lane == "shield":
        return None
    return max_(target.max_vitality - target.vitality, 0)


@combat.implements("500.3c")
def cap_shield_gain(target: Unit, amount: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """What a Shield gain can receive (500.3c names only a heal's cap, INT-302): the whole amount under
    ``shield_gain_cap = none`` (the default: no Shield ceiling), or no more than the room its Shield has below the
    unit's maximum Vitality, ``max(max_vitality - shield, 0)``, under ``max_vitality``."""
    return by_reading(ruleset.shield_gain_cap, none=lambda: amount,
                      max_vitality=lambda: min_(amount, max_(target.max_vitality - target.shield, 0)))


@combat.implements("500.3c")
def apply_recovery_cap(target: Unit, lane: str, amount: Int, ruleset: Ruleset = DEFAULT) -> Int:
    """The amount is capped by what the target can actually receive (500.3c; a Shield gain: INT-302)."""
    receivable = compute_receivable(target, lane)
    return cap_shield_gain(target, amount, ruleset) if receivable is None else min_(amount, receivable)


@combat.implements("500.3f")
def apply_exalt(target: Unit, lane: str, amount: Int) -> Int:
    """Exalt adds its flat amount to a positive Shield gain, before Maim (500.3f, INT-303)."""
    if lane != "shield":
        return amount
    return ite(amount > 0, amount + max_(target.exalt, 0), amount)


@combat.implements("500.3d", "500.3e")
def compute_maim_prevented(target: Unit, eligible: Int, lane: str = "heal", ruleset: Ruleset = DEFAULT) -> Int:
    """Each Maim point prevents 2 of the eligible amount; nothing when nothing is eligible (500.3d, 500.3e).

    Maim meets every lane of the one ledger (``maim_lanes = every_lane``, the default, 500.3a) or a heal only
    (``heals_only``): a Shield gain or a repair then passes it untouched and consumes none (INT-306).
    """
    met = min_(max_(eligible, 0), MAIM_PER_POINT * max_(target.maim, 0))
    if lane == "heal":
        return met
    return by_reading(ruleset.maim_lanes, every_lane=lambda: met, heals_only=lambda: 0)


@combat.implements("500.3d")
def compute_maim_consumed(prevented: Int) -> Int:
    """Maim consumption is ``ceil(prevented / 2)`` (500.3d)."""
    return ceildiv(prevented, MAIM_PER_POINT)


@combat.implements("500.3a", "500.3b", "500.3c", "500.3d", "500.3e", "500.3f", "500.3g")
def compute_recovery(target: Unit, amount: Int, lane: str, ruleset: Ruleset = DEFAULT) -> Recovery:
    """The ledger on one target: gate, Forge Core, cap, Exalt, then Maim last (500.3a-g)."""
    refused = is_recovery_refused(target, lane)
    requested = ite(and_(amount > 0, not_(refused)), amount, 0)
    boosted = ite(requested > 0, apply_forge_core_bonus(target, requested), 0)
    capped = apply_recovery_cap(target, lane, boosted, ruleset)
    eligible = apply_exalt(target, lane, capped)
    prevented = compute_maim_prevented(target, eligible, lane, ruleset)
    consumed = compute_maim_consumed(prevented)
    return Recovery(requested, boosted, capped, eligible, prevented, consumed, eligible - prevented, refused)


# --------------------------------------------------------------------------------------
# Applying it
# --------------------------------------------------------------------------------------


@combat.implements("500.3a", "500.3d")
def apply_recovery(target: Unit, lane: str, r: Recovery) -> Unit:
    """The target gains Vitality (heal, repair) or Shield from the same ledger, and loses the Maim consumed (500.3a)."""
    if lane == "shield":
        return target.evolve(shield=target.shield + r.received, maim=target.maim - r.consumed)
    return target.evolve(vitality=target.vitality + r.received, maim=target.maim - r.consumed)


@combat.implements("500.3g")
def process_recovery_refusal(target: Unit, amount: Int, lane: str, log: EventLog) -> None:
    """A positive request against a refused target is reported with its reason (500.3g)."""
    for reason, why in compute_recovery_refusals(target, lane):
        log.emit("recovery_refused", when=and_(amount > 0, why), unit=target.uid, amount=amount, detail=reason)


@combat.implements("500.3a", "500.3d", "500.3e")
def process_recovery_events(target: Unit, lane: str, r: Recovery, log: EventLog) -> None:
    """Maim consumed first, then what the target gained (``healed`` or ``shield_gained``) (500.3d)."""
    log.emit("maim_consumed", when=r.consumed > 0, unit=target.uid, amount=r.consumed, detail=lane)
    name = "shield_gained" if lane == "shield" else "healed"
    log.emit(name, when=r.received > 0, unit=target.uid, amount=r.received, detail=lane)


def validate_lane(lane: str) -> None:
    """A lane the ledger knows, or a ``ValueError`` naming it."""
    if lane not in RECOVERY_LANES:
        raise ValueError(f"recovery: unknown lane {lane!r} (known: {', '.join(RECOVERY_LANES)})")


@combat.implements("500.3a", "500.3b", "500.3c", "500.3d", "500.3e", "500.3f", "500.3g")
def resolve_recovery(
    board: Board, target: str, amount: Int, *, lane: str = "heal", ruleset: Ruleset = DEFAULT
) -> tuple[Board, EventLog]:
    """Action: one recovery of ``amount`` on ``target`` in ``lane`` (500.3), under ``ruleset``'s readings (INT-302,
    INT-306)."""
    validate_lane(lane)
    log = EventLog()
    unit = board.unit(target)
    process_recovery_refusal(unit, amount, lane, log)
    r = compute_recovery(unit, amount, lane, ruleset)
    process_recovery_events(unit, lane, r, log)
    return board.with_unit(apply_recovery(unit, lane, r)), log
