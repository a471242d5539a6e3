"""Theorems of 500.3 Recovery: the cap, Maim's arithmetic, Exalt's place and the gate.

Every theorem runs the model's own :func:`~referee.model.combat.recovery.resolve_recovery`
(through the module, so a mutant patched into ``referee.model.combat.recovery`` is seen) on
one target ``u`` whose every number and flag is a variable, for a symbolic requested
``amount``. What the target can receive, and what Maim meets, are restated here from the
rule text, not read back from the model's own intermediate numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.model.arith import and_, ceildiv, floordiv, ite, max_, min_, not_, or_
from referee.model.combat import recovery
from referee.model.combat.state import Board, Unit
from referee.model.readings import by_reading

from ..core import Mutant, Obligation, Vars, all_of, theorem
from ..readings import current_reading
from referee.model.combat.legal import is_legal_unit
from .fixtures import Runs
from .symbolic import symbolic_unit

#: Fields recovery never reads: pinned to keep the encoding small.
UNREAD = dict(prismbroken=False, rune_tick_reduction=0, forge_tick_reduction=0, bloodletting_reduction=0,
              redirect_to=None, intercept_by=None)  # fmt: skip


def run(v: Vars, lane: str, **fixed: Any) -> tuple[Unit, Unit, Any]:
    """``u`` recovers the symbolic ``amount_<lane>`` on ``lane``: ``(before, after, amount)``."""
    before = symbolic_unit(v, "u", **UNREAD, **fixed)
    amount = v.int(f"amount_{lane}")
    after, _ = recovery.resolve_recovery(Board((before,)), "u", amount, lane=lane)
    return before, after.unit("u"), amount


def lane_runs(v: Vars, runs: Runs, lanes: tuple[str, ...]) -> Iterator[tuple[str, tuple[Unit, Unit, Any]]]:
    """A recovery on each lane (:func:`run`), each target assumed a legal unit as it is made."""
    return runs.each(lanes, lambda lane: run(v, lane), lambda recovered: is_legal_unit(recovered[0]))


def is_legal(u: Unit) -> Any:
    """A target 500.3g does not refuse on the heal and Shield lanes."""
    return and_(u.alive, not_(u.entrapped), not_(u.dormant), not_(u.is_tool), not_(u.is_hub))


def missing(u: Unit) -> Any:
    return max_(u.max_vitality - u.vitality, 0)


def heal_eligible(u: Unit, amount: Any) -> Any:
    """What Maim meets on a legal heal, from the text: request plus Forge Core, capped by missing Vitality."""
    return ite(amount > 0, min_(amount + u.forge_core_recovery, missing(u)), 0)


# --------------------------------------------------------------------------------------
# Mutants: realistic recovery bugs
# --------------------------------------------------------------------------------------

_original_cap = recovery.apply_recovery_cap
_original_compute = recovery.compute_recovery
_original_refusals = recovery.compute_recovery_refusals


def _cap_forgotten(target, lane, amount, *_):
    return amount


def _forge_core_after_the_cap(target, requested):
    return requested


def _cap_then_forge_core(target, lane, amount, *ruleset):
    return _original_cap(target, lane, amount, *ruleset) + max_(target.forge_core_recovery, 0)


def _shield_capped_like_a_heal(target, lane, amount, *ruleset):
    """A Shield gain is capped by missing Vitality, like a heal."""
    return _original_cap(target, "heal", amount, *ruleset)


def _consumed_rounds_down(prevented):
    return floordiv(prevented, 2)


def _three_per_point(target, eligible, *_):
    return min_(max_(eligible, 0), 3 * max_(target.maim, 0))


def _maim_before_the_cap(target, amount, lane, *ruleset):
    """Maim meets the boosted request, before the cap: a full target still consumes Maim."""
    refused = recovery.is_recovery_refused(target, lane)
    requested = ite(and_(amount > 0, not_(refused)), amount, 0)
    boosted = ite(requested > 0, recovery.apply_forge_core_bonus(target, requested), 0)
    exalted = recovery.apply_exalt(target, lane, boosted)
    prevented = recovery.compute_maim_prevented(target, exalted, lane, *ruleset)
    capped = recovery.apply_recovery_cap(target, lane, exalted - prevented, *ruleset)
    return recovery.Recovery(requested, boosted, capped, exalted, prevented, recovery.compute_maim_consumed(prevented),
                             capped, refused)  # fmt: skip


def _exalt_after_maim(target, amount, lane, *ruleset):
    """Exalt is added to what Maim left, not to what Maim meets."""
    r = _original_compute(target.evolve(exalt=0), amount, lane, *ruleset)
    received = recovery.apply_exalt(target, lane, r.received)
    return recovery.Recovery(r.requested, r.boosted, r.capped, r.eligible, r.prevented, r.consumed, received, r.refused)


def _gate_forgets_dormant(target, lane):
    return tuple((reason, why) for reason, why in _original_refusals(target, lane) if reason != "dormant")


def _repair_meets_the_gate(target, lane):
    return _original_refusals(target, "heal")


R = "referee.model.combat.recovery"
CAP_FORGOTTEN = Mutant("recovery_cap_forgotten", f"{R}:apply_recovery_cap", _cap_forgotten, "a heal is not capped")
FORGE_AFTER_CAP = Mutant("forge_core_after_the_cap", f"{R}:apply_forge_core_bonus", _forge_core_after_the_cap,
                         "the Forge Core bonus is added after the cap", also=((f"{R}:apply_recovery_cap", _cap_then_forge_core),))  # fmt: skip
SHIELD_CAPPED = Mutant("shield_gain_capped_by_missing_vitality", f"{R}:apply_recovery_cap", _shield_capped_like_a_heal,
                       "a Shield gain is capped like a heal")  # fmt: skip
CONSUMED_FLOOR = Mutant("maim_consumption_rounds_down", f"{R}:compute_maim_consumed", _consumed_rounds_down,
                        "floor(prevented / 2) Maim points are consumed")  # fmt: skip
MAIM_BEFORE_CAP = Mutant("maim_before_the_cap", f"{R}:compute_recovery", _maim_before_the_cap,
                         "Maim meets the request before the cap, so a full target consumes Maim")  # fmt: skip
THREE_PER_POINT = Mutant("maim_prevents_three_per_point", f"{R}:compute_maim_prevented", _three_per_point,
                         "each Maim point prevents 3")  # fmt: skip
EXALT_AFTER_MAIM = Mutant("exalt_after_maim", f"{R}:compute_recovery", _exalt_after_maim,
                          "Exalt is added after Maim")  # fmt: skip
GATE_DORMANT = Mutant("recovery_gate_forgets_dormant", f"{R}:compute_recovery_refusals", _gate_forgets_dormant,
                      "a Dormant unit is healed")  # fmt: skip
REPAIR_GATED = Mutant("tool_repair_meets_the_gate", f"{R}:compute_recovery_refusals", _repair_meets_the_gate,
                      "Tool repair is refused like a heal")  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem("combat:500.3c", "combat:500.3b", mutants=[CAP_FORGOTTEN, FORGE_AFTER_CAP])
def a_heal_never_exceeds_what_the_target_can_receive(v: Vars) -> Obligation:
    """A heal or a repair restores between 0 and the target's missing Vitality, so a legal unit never passes its maximum."""
    runs = Runs()
    for _, (before, after, _) in lane_runs(v, runs, ("heal", "repair")):
        gained = after.vitality - before.vitality
        runs.claim(and_(gained >= 0, gained <= missing(before), after.vitality <= before.max_vitality,
                        after.shield == before.shield))  # fmt: skip
    return runs.obligation()


@theorem("combat:500.3d", "combat:500.3e", mutants=[CONSUMED_FLOOR, MAIM_BEFORE_CAP])
def maim_consumption_is_half_the_prevented_amount_rounded_up(v: Vars) -> Obligation:
    """On a legal heal, the Maim consumed is ceil(prevented / 2) of what the capped request lost to Maim, and 0 at full Vitality."""
    before, after, amount = run(v, "heal")
    consumed = before.maim - after.maim
    prevented = heal_eligible(before, amount) - (after.vitality - before.vitality)
    at_full = before.vitality == before.max_vitality
    claim = and_(consumed == ceildiv(prevented, 2), or_(not_(at_full), consumed == 0))
    return Obligation(assume=all_of(is_legal_unit(before), is_legal(before)), claim=claim)


@theorem("combat:500.3d", mutants=[THREE_PER_POINT])
def maim_never_prevents_more_than_two_per_point(v: Vars) -> Obligation:
    """On a legal heal, Maim prevents at most 2 per point it had, and as much of the eligible amount as that allows."""
    before, after, amount = run(v, "heal")
    eligible = heal_eligible(before, amount)
    prevented = eligible - (after.vitality - before.vitality)
    claim = and_(prevented <= 2 * before.maim, prevented == min_(eligible, 2 * before.maim))
    return Obligation(assume=all_of(is_legal_unit(before), is_legal(before)), claim=claim)


def maim_reach(u: Unit) -> Any:
    """How much Maim can prevent of a Shield gain or a repair, from the text of each reading of INT-306: 2 a point
    (``every_lane``), or nothing (``heals_only``: Maim meets a heal only)."""
    return by_reading(current_reading("maim_lanes"), every_lane=lambda: 2 * u.maim, heals_only=lambda: 0)


def shield_receivable(u: Unit, boosted: Any) -> Any:
    """What a Shield gain can receive, from the text of each reading of INT-302: all of it (``none``), or no more than
    the room the Shield has below the maximum Vitality (``max_vitality``)."""
    return by_reading(current_reading("shield_gain_cap"), none=lambda: boosted,
                      max_vitality=lambda: min_(boosted, max_(u.max_vitality - u.shield, 0)))


@theorem("combat:500.3f", "combat:500.3a", "combat:500.3d", "combat:500.3c", mutants=[EXALT_AFTER_MAIM, SHIELD_CAPPED])
def exalt_increases_a_shield_gain_before_maim(v: Vars) -> Obligation:
    """A legal unit gains max(request + Forge Core + Exalt - 2 * Maim, 0) Shield from a positive request, uncapped
    (``shield_gain_cap = none``); under ``max_vitality`` the request plus Forge Core is first capped at the room below
    the maximum Vitality, and Exalt meets only a gain the cap left positive (INT-302, INT-303); under ``maim_lanes =
    heals_only`` Maim takes nothing of it (INT-306)."""
    before, after, amount = run(v, "shield")
    capped = shield_receivable(before, amount + before.forge_core_recovery)
    expected = ite(capped > 0, max_(capped + before.exalt - maim_reach(before), 0), 0)
    claim = and_(after.shield - before.shield == expected, after.vitality == before.vitality)
    return Obligation(assume=all_of(is_legal_unit(before), is_legal(before), amount > 0), claim=claim)


@theorem("combat:500.3g", mutants=[GATE_DORMANT, REPAIR_GATED])
def recovery_is_refused_against_illegal_targets_except_tool_repair(v: Vars) -> Obligation:
    """Heals and Shield gains change nothing on a dead, Entrapped, Dormant, Tool or Hub target; a living Tool is repaired whatever its flags."""
    runs = Runs()
    for _, (before, after, _) in lane_runs(v, runs, ("heal", "shield")):
        unchanged = and_(after.vitality == before.vitality, after.shield == before.shield, after.maim == before.maim)
        runs.claim(or_(is_legal(before), unchanged))
    for _, (before, after, amount) in lane_runs(v, runs, ("repair",)):
        eligible = heal_eligible(before, amount)
        repaired = after.vitality - before.vitality == eligible - min_(eligible, maim_reach(before))
        runs.claim(or_(not_(and_(before.alive, before.is_tool)), repaired))
    return runs.obligation()
