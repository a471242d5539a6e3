"""500.3 Recovery: one ledger for heals, Shield gains and repairs; numbers worked out from the rule text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.model.combat.recovery import RECOVERY_LANES, compute_recovery, resolve_recovery
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.specs.trace import covers


def recover(amount: int, lane: str = "heal", **fields: Any) -> tuple[Unit, EventLog]:
    """One recovery of ``amount`` on a lone unit ``u`` with ``fields``: the unit after, the events."""
    after, log = resolve_recovery(Board((Unit("u", **fields),)), "u", amount, lane=lane)
    return after.unit("u"), log


def seen(log: EventLog) -> list[tuple[str, Any, Any]]:
    """``(name, amount, detail)`` of every event, in order."""
    return [(e.name, e.amount, e.detail) for e in log.events()]


# --------------------------------------------------------------------------------------
# 500.3a One ledger
# --------------------------------------------------------------------------------------


@covers("combat:500.3a")
def test_500_3a_a_heal_restores_vitality():
    u, log = recover(25, vitality=60)
    assert u.vitality == 85 and u.shield == 0
    assert seen(log) == [("healed", 25, "heal")]


@covers("combat:500.3a")
def test_500_3a_a_shield_gain_uses_the_same_ledger():
    # The same Forge Core bonus and the same Maim meet a Shield gain as a heal (INT-304, INT-306).
    heal, heal_log = recover(10, vitality=50, forge_core_recovery=2, maim=1)
    gain, gain_log = recover(10, lane="shield", vitality=50, forge_core_recovery=2, maim=1)
    assert heal.vitality - 50 == gain.shield == 10
    assert heal.maim == gain.maim == 0
    assert seen(gain_log) == [("maim_consumed", 1, "shield"), ("shield_gained", 10, "shield")]
    assert seen(heal_log) == [("maim_consumed", 1, "heal"), ("healed", 10, "heal")]


@covers("combat:500.3a")
def test_invalid_500_3a_an_unknown_lane_is_named():
    with pytest.raises(ValueError, match="unknown lane 'mend'"):
        recover(10, lane="mend")


@covers("combat:500.3a")
def test_500_3a_a_request_of_zero_or_less_is_no_recovery():
    # INT-301: not even the Forge Core bonus makes a recovery of nothing, and nothing is reported.
    for amount in (0, -5):
        u, log = recover(amount, vitality=50, forge_core_recovery=7, maim=3)
        assert u == Unit("u", vitality=50, forge_core_recovery=7, maim=3) and seen(log) == []


# --------------------------------------------------------------------------------------
# 500.3b Forge Core first
# --------------------------------------------------------------------------------------


@covers("combat:500.3b")
def test_500_3b_forge_core_bonus_is_added_to_the_request():
    u, log = recover(10, vitality=50, forge_core_recovery=4)
    assert u.vitality == 64 and seen(log) == [("healed", 14, "heal")]


@covers("combat:500.3b", "combat:500.3c")
def test_500_3b_forge_core_is_added_before_the_cap_not_after():
    # 8 missing: 10 + 4 = 14 capped at 8. Adding the bonus after the cap would overheal to 104.
    u, _ = recover(10, vitality=92, forge_core_recovery=4)
    assert u.vitality == 100


@covers("combat:500.3b")
def test_500_3b_forge_core_bonus_adds_to_a_shield_gain():
    u, _ = recover(5, lane="shield", forge_core_recovery=3)
    assert u.shield == 8


# --------------------------------------------------------------------------------------
# 500.3c The cap
# --------------------------------------------------------------------------------------


@covers("combat:500.3c")
def test_500_3c_a_heal_is_capped_by_missing_vitality():
    u, log = recover(50, vitality=70)
    assert u.vitality == 100 and seen(log) == [("healed", 30, "heal")]


@covers("combat:500.3c")
def test_500_3c_a_heal_of_exactly_the_missing_vitality_fills_the_unit():
    u, _ = recover(30, vitality=70)
    assert u.vitality == 100


@covers("combat:500.3c")
def test_500_3c_a_shield_gain_has_no_ceiling():
    # INT-302: the seeds name no Shield cap.
    u, log = recover(500, lane="shield", shield=40)
    assert u.shield == 540 and seen(log) == [("shield_gained", 500, "shield")]


@covers("combat:500.3c")
def test_500_3c_a_unit_above_its_maximum_is_not_drained():
    # Missing Vitality is never negative: a unit over its maximum gains nothing and loses nothing.
    u, log = recover(10, vitality=120, max_vitality=100)
    assert u.vitality == 120 and seen(log) == []


# --------------------------------------------------------------------------------------
# 500.3d Maim last
# --------------------------------------------------------------------------------------


@covers("combat:500.3d")
def test_500_3d_each_maim_point_prevents_two():
    u, log = recover(20, vitality=50, maim=3)
    assert u.vitality == 64 and u.maim == 0
    assert seen(log) == [("maim_consumed", 3, "heal"), ("healed", 14, "heal")]


@covers("combat:500.3d")
def test_500_3d_maim_consumption_rounds_up_on_an_odd_prevented_amount():
    # 5 eligible, 4 Maim points could prevent 8: 5 prevented, ceil(5/2) = 3 consumed, 1 left.
    u, log = recover(5, vitality=50, maim=4)
    assert u.vitality == 50 and u.maim == 1
    assert seen(log) == [("maim_consumed", 3, "heal")]


@covers("combat:500.3d")
def test_500_3d_maim_on_a_one_point_heal_consumes_one_point():
    u, _ = recover(1, vitality=50, maim=9)
    assert u.vitality == 50 and u.maim == 8


@covers("combat:500.3d", "combat:500.3c")
def test_500_3d_maim_meets_the_capped_amount():
    # 100 requested, 3 missing: Maim 1 prevents 2 of the 3, not 2 of the 100.
    u, log = recover(100, vitality=97, maim=1)
    assert u.vitality == 98 and u.maim == 0
    assert seen(log) == [("maim_consumed", 1, "heal"), ("healed", 1, "heal")]


@covers("combat:500.3d")
def test_500_3d_maim_also_reduces_a_repair():
    u, _ = recover(10, lane="repair", is_tool=True, vitality=40, maim=2)
    assert u.vitality == 46 and u.maim == 0


# --------------------------------------------------------------------------------------
# 500.3e A full target consumes no Maim
# --------------------------------------------------------------------------------------


@covers("combat:500.3e")
def test_500_3e_healing_a_full_target_consumes_no_maim():
    u, log = recover(40, vitality=100, maim=5, forge_core_recovery=3)
    assert u.vitality == 100 and u.maim == 5 and seen(log) == []


@covers("combat:500.3e")
def test_500_3e_one_missing_point_consumes_one_maim_point():
    u, log = recover(40, vitality=99, maim=5)
    assert u.vitality == 99 and u.maim == 4 and seen(log) == [("maim_consumed", 1, "heal")]


# --------------------------------------------------------------------------------------
# 500.3f Exalt before Maim
# --------------------------------------------------------------------------------------


@covers("combat:500.3f")
def test_500_3f_exalt_increases_a_shield_gain():
    # INT-303: a flat amount on every positive Shield gain.
    u, log = recover(10, lane="shield", exalt=5)
    assert u.shield == 15 and seen(log) == [("shield_gained", 15, "shield")]


@covers("combat:500.3f", "combat:500.3d")
def test_500_3f_exalt_comes_before_maim():
    # 6 + Exalt 3 = 9 eligible; Maim 4 prevents 8: 1 gained, 4 points consumed.
    # Exalt after Maim would prevent all 6 (3 points) and then add 3.
    u, log = recover(6, lane="shield", exalt=3, maim=4)
    assert u.shield == 1 and u.maim == 0
    assert seen(log) == [("maim_consumed", 4, "shield"), ("shield_gained", 1, "shield")]


@covers("combat:500.3f")
def test_500_3f_exalt_does_not_increase_a_heal():
    u, _ = recover(10, vitality=50, exalt=5)
    assert u.vitality == 60


@covers("combat:500.3f")
def test_500_3f_exalt_on_nothing_increases_nothing():
    u, log = recover(0, lane="shield", exalt=5)
    assert u.shield == 0 and seen(log) == []


# --------------------------------------------------------------------------------------
# 500.3g The gate
# --------------------------------------------------------------------------------------


@covers("combat:500.3g")
@pytest.mark.parametrize(
    "fields, reason",
    [
        (dict(alive=False, vitality=0), "dead"),
        (dict(entrapped=True), "entrapped"),
        (dict(dormant=True), "dormant"),
        (dict(is_tool=True), "tool_or_hub"),
        (dict(is_hub=True), "tool_or_hub"),
        (dict(entrapped=True, dormant=True), "entrapped"),
        (dict(alive=False, vitality=0, is_tool=True), "dead"),
    ],
)
@pytest.mark.parametrize("lane", ["heal", "shield"])
def test_500_3g_recovery_is_refused_entirely(fields, reason, lane):
    before = Unit("u", vitality=min(fields.get("vitality", 50), 50), maim=2, **{k: v for k, v in fields.items() if k != "vitality"})
    after, log = resolve_recovery(Board((before,)), "u", 20, lane=lane)
    assert after.unit("u") == before
    assert seen(log) == [("recovery_refused", 20, reason)]


@covers("combat:500.3g")
@pytest.mark.parametrize("fields", [dict(), dict(dormant=True), dict(entrapped=True)])
def test_500_3g_tool_repair_bypasses_the_gate(fields):
    u, log = recover(15, lane="repair", is_tool=True, vitality=30, max_vitality=60, **fields)
    assert u.vitality == 45 and seen(log) == [("healed", 15, "repair")]


@covers("combat:500.3g")
def test_500_3g_a_dead_tool_is_not_repaired():
    # INT-305: restoring a dead unit would be a revival, which only 500.9 grants.
    u, log = recover(15, lane="repair", is_tool=True, alive=False, vitality=0)
    assert u.vitality == 0 and not u.alive and seen(log) == [("recovery_refused", 15, "dead")]


@covers("combat:500.3g")
@pytest.mark.parametrize("fields", [dict(), dict(is_hub=True)])
def test_500_3g_repair_is_for_tools_only(fields):
    u, log = recover(15, lane="repair", vitality=30, **fields)
    assert u.vitality == 30 and seen(log) == [("recovery_refused", 15, "not_a_tool")]


@covers("combat:500.3g")
def test_500_3g_a_refused_request_of_nothing_is_silent():
    _, log = recover(0, alive=False, vitality=0)
    assert seen(log) == []


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------


@st.composite
def targets(draw: Any) -> Unit:
    max_vitality = draw(st.integers(1, 200))
    alive = draw(st.booleans())
    vitality = draw(st.integers(max(max_vitality - 12, 1), max_vitality)) if alive else 0
    flags = {name: draw(st.integers(0, 9)) == 0 for name in ("dormant", "entrapped", "is_tool", "is_hub")}
    if flags["is_tool"] and flags["is_hub"]:
        flags["is_hub"] = False
    return Unit("u", alive=alive, vitality=vitality, max_vitality=max_vitality, shield=draw(st.integers(0, 50)),
                maim=draw(st.integers(0, 8)), forge_core_recovery=draw(st.integers(0, 5)), exalt=draw(st.integers(0, 5)),
                **flags)  # fmt: skip


@covers("combat:500.3c", "combat:500.3d", "combat:500.3e")
@settings(max_examples=400, deadline=None)
@given(targets(), st.integers(-3, 30), st.sampled_from(RECOVERY_LANES))
def test_recovery_never_overheals_and_maim_consumption_is_half_the_prevented_rounded_up(before, amount, lane):
    after, log = resolve_recovery(Board((before,)), "u", amount, lane=lane)
    u = after.unit("u")
    r = compute_recovery(before, amount, lane)
    if lane != "shield":
        assert before.vitality <= u.vitality <= max(before.max_vitality, before.vitality)
        assert u.shield == before.shield
    else:
        assert u.shield >= before.shield and u.vitality == before.vitality
    consumed = before.maim - u.maim
    prevented = r.eligible - r.received
    assert 0 <= prevented <= 2 * before.maim and consumed == -(-prevented // 2)
    if before.vitality >= before.max_vitality and lane != "shield":
        assert consumed == 0 and u == before
    assert [e.name for e in log.events()].count("recovery_refused") <= 1


@covers("combat:500.3g")
@settings(max_examples=300, deadline=None)
@given(targets(), st.integers(1, 30), st.sampled_from(("heal", "shield")))
def test_a_refused_recovery_changes_nothing(before, amount, lane):
    after, log = resolve_recovery(Board((before,)), "u", amount, lane=lane)
    illegal = not before.alive or before.entrapped or before.dormant or before.is_tool or before.is_hub
    names = [e.name for e in log.events()]
    assert (names == ["recovery_refused"]) == illegal
    if illegal:
        assert after.unit("u") == before
