"""400.8-5 .. 400.8-7 What one ability line does to one recipient: the gates, each keyword's rule, the pipelines.

Every line reaches its recipients through the same two steps:

* the recipient gates (400.8-5): a dead, Entrapped, Dormant or untargetable recipient
  receives nothing; a Tool or a Hub discards every combat interaction except damage, which
  the damage pipeline itself discards (500.1-1, 800.4d, INT-207);
* the keyword's own rule (400.8-6), whose amount goes through the damage pipeline (500.1,
  with what answers a hit, 500.6, 500.7) or the recovery pipeline (500.3) (400.8-7).

The keywords: ``damage`` is a hit; ``burn``, ``venom`` and ``maim`` add that many stacks or
points (500.5b, 500.3d, INT-208); ``crush`` lowers Armor, past 0 if need be (500.2e);
``cull`` destroys a living target at or below its amount of Vitality outright, or any living
target under ``cull_line_test = unconditional`` (500.4a, INT-209); ``restore`` is recovery (500.3). Bloodletting is the activation's cost and is
resolved by :mod:`.abilities` through 800.4.

Restore uses :func:`process_restore`: capacity then Maim (400.8-7; 500.3c, 500.3d, 500.3g), or
under ``ability_restore_bonuses = full_recovery_ledger`` the whole ledger of ``recovery`` (INT-211).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..arith import and_, ceildiv, ite, max_, min_, not_, or_
from ..clauses import combat
from ..events import EventLog
from ..readings import by_reading
from .armor import apply_armor_debuff
from .guarded import run_guarded
from .damage import DamageInstance, DamageOutcome, resolve_damage
from .recovery import compute_recovery
from .retaliation import process_retaliation
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit
from .vitality import process_death

#: The statuses a line adds to its recipient, by keyword (400.8-6).
STATUS_FIELDS = {"burn": "burn", "venom": "venom", "maim": "maim"}


@dataclass(frozen=True, slots=True)
class Delivery:
    """What one line did to one recipient: the unit it met, the refusal or the amount, the hit's outcome."""

    recipient: str
    before: Unit
    after: Unit
    refused: str | None = None  # the gate that refused it (400.8-5)
    amount: Any = 0  # stacks or points applied, Armor lowered, Vitality restored or lost
    damage: DamageOutcome | None = None  # for a hit: the pipeline's outcome (500.1)
    board: Board | None = None  # the board the line met, for a hit (explain replays it)
    consumed: Any = 0  # Maim points a restore consumed (500.3d)
    gone: Any = False  # the activation killed it and it stands revived, refused as dead (INT-412)


# --------------------------------------------------------------------------------------
# 400.8-5 The recipient gates
# --------------------------------------------------------------------------------------


@combat.implements("400.8-5")
def is_legal_recipient(unit: Unit) -> Bool:
    """A living unit that is not Entrapped, Dormant or untargetable (400.8-5, INT-203)."""
    return and_(unit.alive, not_(unit.entrapped), not_(unit.dormant), not_(unit.untargetable))


@combat.implements("400.8-5", "800.4d")
def compute_gate_conditions(unit: Unit, effect: str, gone: Bool = False) -> tuple[tuple[str, Bool], ...]:
    """Each gate and whether it refuses: dead, Entrapped, Dormant, untargetable, a Tool or Hub (400.8-5, INT-207, INT-212).

    ``gone``: the activation killed the unit and it stands revived, a new incarnation the activation never aimed at;
    under ``rider_on_revived_target = refused`` it is refused as dead (400.8b, 500.9f, INT-412)."""
    return (
        ("dead", not_(unit.alive) if gone is False else or_(not_(unit.alive), gone)),
        ("entrapped", unit.entrapped),
        ("dormant", unit.dormant),
        ("untargetable", unit.untargetable),
        ("tool_or_hub", and_(effect != "damage", unit.discards_combat)),
    )


@combat.implements("400.8-5", "800.4d")
def compute_first_refusals(unit: Unit, effect: str, gone: Bool = False) -> tuple[tuple[str, Bool], ...]:
    """Each gate with the condition that it is the first to refuse: the reason the recipient is refused for (400.8-5)."""
    out, earlier = [], []
    for reason, refused in compute_gate_conditions(unit, effect, gone):
        out.append((reason, and_(refused, *(not_(e) for e in earlier))))
        earlier.append(refused)
    return tuple(out)


@combat.implements("400.8-5", "800.4d")
def compute_gate_refusal(unit: Unit, effect: str, gone: Bool = False) -> str | None:
    """Why a recipient receives nothing, or ``None``: the first gate that refuses (concrete units) (400.8-5)."""
    for reason, first in compute_first_refusals(unit, effect, gone):
        if first is True:
            return reason
    return None


# --------------------------------------------------------------------------------------
# 400.8-6 The keywords' own rules
# --------------------------------------------------------------------------------------


@combat.implements("400.8-6", "500.3d")
def apply_status(unit: Unit, effect: str, amount: Int) -> Unit:
    """Burn, Venom and Maim add their amount to the recipient's stacks or points; none for 0 or less (INT-208)."""
    name = STATUS_FIELDS[effect]
    return unit.evolve(**{name: getattr(unit, name) + max_(amount, 0)})


@combat.implements("400.8-6", "500.2e")
def apply_crush(unit: Unit, amount: Int) -> Unit:
    """Crush lowers Armor by its amount, past 0 if need be (500.2e)."""
    return apply_armor_debuff(unit, "crush", amount)


@combat.implements("400.8-6", "500.4a")
def is_culled(unit: Unit, amount: Int, ruleset: Ruleset) -> Bool:
    """Whether a 'Cull N' line destroys its living recipient outright (500.4a): under ``cull_line_test = threshold``
    (the default) when its Vitality is at or below N, an execution threshold; under ``unconditional`` whatever its
    Vitality. Under both a line that resolved to 0 or less (400.8c) destroys nothing (INT-209)."""
    return and_(unit.alive, amount > 0, or_(ruleset.cull_line_test == "unconditional", unit.vitality <= amount))


# --------------------------------------------------------------------------------------
# 400.8-7 The pipelines
# --------------------------------------------------------------------------------------


@combat.implements("400.8-7", "500.3c", "500.3d", "500.3e", "500.3g")
def compute_restoration(unit: Unit, amount: Int) -> tuple[Int, Int]:
    """Recovery: capped by missing Vitality (500.3c), then Maim prevents 2 a point (500.3d); ``(restored, consumed)``.

    Refused against a dead, Entrapped or Dormant unit, a Tool or a Hub (500.3g). Maim meets
    only the eligible amount, so a full-Vitality unit consumes none (500.3e).
    """
    refused = or_(not_(unit.alive), unit.entrapped, unit.dormant, unit.discards_combat)
    eligible = ite(refused, 0, min_(max_(amount, 0), max_(unit.max_vitality - unit.vitality, 0)))
    prevented = min_(eligible, 2 * max_(unit.maim, 0))
    return eligible - prevented, ceildiv(prevented, 2)


@combat.implements("400.8-7")
def compute_line_restoration(unit: Unit, amount: Int, ruleset: Ruleset = DEFAULT) -> tuple[Int, Int]:
    """``(restored, consumed)`` of a Restore line: capacity then Maim (``ability_restore_bonuses =
    capacity_and_maim_only``, the default, 400.8-7: :func:`compute_restoration`), or the whole ledger a recover action
    runs on the heal lane (``full_recovery_ledger``: the Forge Core bonus first, 500.3b, then the cap, Exalt, which
    meets no heal, and Maim) (INT-211)."""
    capacity = compute_restoration(unit, amount)
    if (ruleset.ability_restore_bonuses == "capacity_and_maim_only") is True:
        return capacity
    ledger = compute_recovery(unit, amount, "heal", ruleset)

    def by_option(capped: Int, full: Int) -> Int:
        return by_reading(ruleset.ability_restore_bonuses, capacity_and_maim_only=lambda: capped,
                          full_recovery_ledger=lambda: full)

    return by_option(capacity[0], ledger.received), by_option(capacity[1], ledger.consumed)


@combat.implements("400.8-7")
def process_restore(
    board: Board, uid: str, amount: Int, source: str | None, log: EventLog, ruleset: Ruleset = DEFAULT
) -> tuple[Board, Int, Int]:
    """Restore Vitality through the recovery steps; the board, what was restored, the Maim consumed (500.3, INT-211)."""
    unit = board.unit(uid)
    restored, consumed = compute_line_restoration(unit, amount, ruleset)
    log.emit("vitality_restored", when=restored > 0, unit=uid, amount=restored, other=source)
    after = unit.evolve(vitality=unit.vitality + restored, maim=unit.maim - consumed)
    return board.with_unit(after), restored, consumed


@combat.implements("400.8-7", "500.1j", "500.6a", "500.7a")
def process_ability_hit(
    board: Board, caster: str, uid: str, amount: Int, rolls: tuple, ruleset: Ruleset, log: EventLog
) -> tuple[Board, DamageOutcome]:
    """A damage line's hit: one instance through 500.1, then what answers it (500.6, 500.7)."""
    instance = DamageInstance(target=uid, amount=amount, source=caster, kind="hit", riposte_rolls=tuple(rolls))
    board, step, outcome = resolve_damage(board, instance, ruleset)
    log.extend(step)
    return process_retaliation(board, instance, outcome, log, ruleset), outcome


@combat.implements("400.8-5", "400.8-6", "400.8-7")
def process_delivery(
    board: Board, caster: str, effect: str, uid: str, amount: Int, rolls: tuple, ruleset: Ruleset, log: EventLog,
    gone: Bool = False,
) -> tuple[Board, Delivery]:
    """One line on one recipient: the gates (400.8-5), then the keyword's rule and its pipeline (400.8-6, 400.8-7).
    ``gone``: see :func:`compute_gate_conditions`.

    Single-source: on symbols every gate is a condition, the delivery is guarded by none of
    them refusing (:func:`~.guarded.run_guarded`), and ``line_refused`` carries each reason
    under the condition that it is the first to refuse.
    """
    before = board.unit(uid)
    firsts = compute_first_refusals(before, effect, gone)
    for reason, first in firsts:
        log.emit("line_refused", when=first, unit=uid, amount=amount, other=caster, detail=reason)
    passes = not_(or_(*(refused for _, refused in compute_gate_conditions(before, effect, gone))))
    after, delivery = run_guarded(
        passes, board, log, lambda b, sub: process_received(b, caster, effect, uid, amount, rolls, ruleset, sub))
    if delivery is None:
        return board, Delivery(uid, before, before, compute_gate_refusal(before, effect, gone), gone=gone)
    if passes is True:
        return after, delivery if gone is False else replace(delivery, gone=gone)
    return after, Delivery(uid, before, after.unit(uid), None, ite(passes, delivery.amount, 0), delivery.damage, board,
                           ite(passes, delivery.consumed, 0), gone)


@combat.implements("400.8-6", "400.8-7")
def process_received(
    board: Board, caster: str, effect: str, uid: str, amount: Int, rolls: tuple, ruleset: Ruleset, log: EventLog
) -> tuple[Board, Delivery]:
    """What a recipient the gates let through receives: a hit, a restore, or the keyword's own rule (400.8-6, 400.8-7)."""
    before = board.unit(uid)
    if effect == "damage":
        after_board, outcome = process_ability_hit(board, caster, uid, amount, rolls, ruleset, log)
        return after_board, Delivery(uid, before, after_board.unit(uid), None, outcome.vitality_lost, outcome, board)
    if effect == "restore":
        board, restored, consumed = process_restore(board, uid, amount, caster, log, ruleset)
        return board, Delivery(uid, before, board.unit(uid), None, restored, consumed=consumed)
    return process_keyword(board, caster, effect, before, amount, ruleset, log)


@combat.implements("400.8-6", "500.4a", "500.2e")
def process_keyword(
    board: Board, caster: str, effect: str, unit: Unit, amount: Int, ruleset: Ruleset, log: EventLog
) -> tuple[Board, Delivery]:
    """Burn, Venom, Maim, Crush or Cull on a recipient the gates let through (400.8-6)."""
    if effect == "cull":
        culled = is_culled(unit, amount, ruleset)
        log.emit("culled", when=culled, unit=unit.uid, amount=unit.vitality, other=caster)
        board = process_death(board, unit.uid, culled, caster, log)
        return board, Delivery(unit.uid, unit, board.unit(unit.uid), None, ite(culled, unit.vitality, 0))
    after = apply_crush(unit, amount) if effect == "crush" else apply_status(unit, effect, amount)
    applied = max_(amount, 0)
    log.emit("status_applied", when=applied > 0, unit=unit.uid, amount=applied, other=caster, detail=effect)
    return board.with_unit(after), Delivery(unit.uid, unit, after, None, applied)
