"""Explaining the actions of issue 14: ``recover`` (500.3), ``cull`` (500.4a), a shared ``tick`` (500.5b,
500.5c, 500.7e) and the battle clock (``advance``, ``end_combat``: 500.9a).

Each explainer reads its numbers off the model's own functions and ends on the model's own run
(``referee.explain.check_against_model`` holds it). The clock's explainers take the scenario's
:class:`~referee.model.combat.battle.Battle` (what is due lives there, not on the board).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.model.combat import battle as clock
from referee.model.combat import death, recovery
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog

from .answers import explain_hit
from .loss import REVIVAL_CHANNELS
from .steps import LOSS_TAIL, Step, Steps

REVIVAL_EVENTS = ("everlasting_revival", "everlasting_delayed", "revival_self", "revival_ally", "revival_focus",
                  "vessel_batch")


def explain_recover(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """The ledger on one target: the gate, Forge Core, the cap, Exalt, then Maim (500.3a-g)."""
    unit, amount, lane = board.unit(action["target"]), action["amount"], action["lane"]
    after, log = recovery.resolve_recovery(board, unit.uid, amount, lane=lane, ruleset=ruleset)
    r = recovery.compute_recovery(unit, amount, lane, ruleset)
    s = Steps(depth)
    if amount <= 0:
        s.say("recovery_nothing", "500.3a", f"a request of {amount} is no recovery: nothing happens (INT-301).",
              requested=amount)
        return after, log, s.items
    reasons = [why for why, holds in recovery.compute_recovery_refusals(unit, lane) if holds is True]
    if reasons:
        s.say("recovery_gate", "500.3g", f"the gate refuses {lane} on {unit.uid}: {reasons[0]}.", ("recovery_refused",),
              reason=reasons[0])
        return after, log, s.items
    bypassed = [why for why, holds in (("Entrapped", unit.entrapped), ("Dormant", unit.dormant)) if holds is True]
    if lane == "repair" and bypassed:
        s.say("recovery_gate", "500.3g", f"{unit.uid} is {' and '.join(bypassed)}, which refuses any other recovery, but "
              f"a living Tool's repair bypasses the gate (500.3g): it goes on.", absent=("recovery_refused",),
              decides=True, bypassed=tuple(bypassed))
    s.say("forge_core_bonus", "500.3b", f"the Forge Core bonus is added to the requested amount first, before the cap "
          f"(500.3b): {amount} + {r.boosted - amount} = {r.boosted}.", requested=amount, bonus=r.boosted - amount,
          boosted=r.boosted)
    bonus = "with its Forge Core bonus already in (500.3b), " if r.boosted != amount else ""
    cap = shield_cap_text(unit, ruleset, bonus, r.boosted) if lane == "shield" else \
        f"{bonus}{r.boosted} is then capped at the {unit.max_vitality - unit.vitality} Vitality missing (500.3c)"
    nothing = ("healed", "shield_gained") if r.capped != r.boosted else ()
    s.say("recovery_cap", "500.3c", f"{cap}: {r.capped}.", absent=nothing, before=r.boosted, capped=r.capped)
    if lane == "shield":
        s.say("exalt", "500.3f", f"Exalt adds {r.eligible - r.capped} before Maim: {r.eligible}.", eligible=r.eligible)
    s.say("maim", "500.3d", maim_text(unit.uid, unit.maim, r, lane, ruleset), ("maim_consumed", "healed", "shield_gained"),
          eligible=r.eligible, prevented=r.prevented, consumed=r.consumed, received=r.received)
    return after, log, s.items


def shield_cap_text(unit: Any, ruleset: Ruleset, bonus: str, boosted: Any) -> str:
    """What caps a Shield gain under the ruleset's reading (500.3c, INT-302)."""
    if ruleset.shield_gain_cap == "none":
        return f"a Shield gain has no ceiling (INT-302): {bonus}{boosted}"
    room = max(unit.max_vitality - unit.shield, 0)
    return (f"{bonus}{boosted} is then capped at the {room} its Shield of {unit.shield} has below the maximum Vitality "
            f"{unit.max_vitality} (shield_gain_cap = max_vitality, 500.3c, INT-302)")


def maim_text(uid: str, maim: Any, r: recovery.Recovery, lane: str, ruleset: Ruleset) -> str:
    """Maim meets the eligible amount, not the request (500.3e), Exalt already in it (500.3f: the order a Shield gain's
    Maim reads), each point preventing 2, consumption rounded up (500.3d); on a heal only under ``maim_lanes =
    heals_only`` (INT-306)."""
    if maim <= 0:
        return f"no Maim: {uid} gains the eligible {r.eligible} (500.3d)."
    if lane != "heal" and ruleset.maim_lanes == "heals_only":
        return f"Maim {maim} meets a heal only (maim_lanes = heals_only, INT-306): {uid} gains the eligible {r.eligible}."
    exalt = " and Exalt left, Exalt added before Maim: 500.3f;" if r.eligible != r.capped else " left,"
    met = f"Maim {maim} meets the eligible {r.eligible} (what the cap{exalt} not the {r.requested} requested: 500.3e)"
    if r.eligible <= 0:
        return f"{met}: nothing is eligible, so no Maim is consumed (500.3e); {uid} gains 0."
    return (f"{met}: it prevents {r.prevented} (2 a point) and {r.consumed} point(s) are consumed (ceil({r.prevented} / 2), "
            f"500.3d); {uid} gains {r.received}.")


def explain_cull(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """Cull destroys a living unit that is not a Tool or Hub outright; the death is ordinary (500.4a)."""
    unit = board.unit(action["target"])
    after, log = death.resolve_cull(board, unit.uid, action["source"])
    s = Steps(depth)
    killer = f"{action['source']} as its killer" if action["source"] is not None else "no killer (an actorless Cull)"
    if death.is_culled(unit) is True:
        s.say("cull", "500.4a", f"Cull destroys {unit.uid} outright ({unit.vitality} Vitality): nothing prevents it, "
              f"not even a defy-death rune (INT-407); it dies with {killer}.",
              ("culled", *LOSS_TAIL, "vessel_batch", "revival_self", "revival_ally", "revival_focus"),
              vitality=unit.vitality)
    else:
        s.say("cull", "500.4a", f"Cull leaves {unit.uid} untouched: it is dead, a Tool or a Hub.",
              absent=("culled", "death"))
    return after, log, s.items


def explain_tick(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """A shared tick: the pipeline and its answers as a hit, credit and Feast split by what each applied (500.5b)."""
    from referee.rulebooks.combat.kinds.tick import instance_of

    instance = instance_of(action)
    shares = ", ".join(f"{a['unit']} {a['applied']}" for a in action["appliers"])
    s = Steps(depth)
    s.say("tick_shares", "500.5b", f"the {action['damage_kind']} tick is shared by what each applied ({shares}): its "
          "credit is split in proportion, largest remainders first (INT-351), and Feast from the Vitality portion "
          "by the same shares (500.5c, INT-352); each enemy applier is answered (500.7e).")
    after, log, steps = explain_hit(board, instance, ruleset, depth)
    return after, log, s.items + steps


def explain_advance_battle(battle: clock.Battle, action: dict[str, Any], ruleset: Ruleset,
                           depth: int = 0) -> tuple[clock.Battle, EventLog, list[Step]]:
    """Time moves on; each Everlasting try due on the way fires, in time order, one step each (500.9a, 500.9k)."""
    due = sorted(p.next_try_ms for p in battle.pending)
    after, log = clock.advance(replace(battle, rows=action["rows"], cols=action["cols"]), action["ms"], ruleset)
    s = Steps(depth)
    s.say("advance", "500.9a", f"time moves on {action['ms']} ms, {battle.now_ms} -> {after.now_ms}; the Everlasting "
          f"tries due (10 s after each death, 500.9a): {due if battle.running else 'none (combat has ended)'}. A try takes the cell of death "
          "or the first free slot of the half, else retries at the next 100 ms tick.", (), start=battle.now_ms,
          end=after.now_ms, absent=("everlasting_revival", "everlasting_delayed"))
    explain_tries(s, battle, log)
    return after, log, s.items


def explain_tries(s: Steps, battle: clock.Battle, log: EventLog) -> None:
    """One step per Everlasting try the clock made: a delay until the next tick, or the revival with its killer."""
    pending = {p.uid: p for p in battle.pending}
    for e in log.events():
        if e.name == "vessel_batch" and e.detail == "revival":
            s.say("revival_batch", "500.9m", f"the revival of {e.unit} and every passive it triggered pool into one "
                  f"Vessel Point batch of {e.amount} event(s), so no revival listener pays for it (500.9m).",
                  ("vessel_batch",), pooled=e.amount)
            continue
        due = pending.get(e.unit)
        if due is None or e.name not in ("everlasting_revival", "everlasting_delayed"):
            continue
        first = due.next_try_ms == clock.compute_everlasting_due(due.died_ms)
        died = (f"{due.uid} died at {due.died_ms} ms; its " + ("try is due 10 s after the death" if first else
                "retry is due on a later tick") + f", at {due.next_try_ms} ms")
        if e.name == "everlasting_delayed":
            s.say("everlasting_delayed", "500.9a", f"{died} (500.9a), but no slot of its half is free then: it retries on "
                  f"the next 100 ms tick, at {e.amount} ms (INT-406).", ("everlasting_delayed",), absent=("everlasting_revival",),
                  died=due.died_ms, tried=due.next_try_ms, retry=e.amount)
            pending[e.unit] = replace(due, next_try_ms=e.amount)
            continue
        carries = carried_words(e.other, due.killer)
        s.say("everlasting_revival", "500.9a", f"{died} (500.9a): at {e.amount} ms it revives in cell {e.detail}; "
              f"{carries}.", ("everlasting_revival", *REVIVAL_CHANNELS), died=due.died_ms, revived=e.amount, cell=e.detail, killer=e.other)
        pending.pop(e.unit)


def carried_words(carried: str | None, killer: str | None) -> str:
    """What the revival carries of its killer (500.9k): the killer, none for a death with no actor, or none because a
    delayed revival drops it under ``delayed_revival_killer = dropped`` (INT-413)."""
    if carried is not None:
        return (f"it carries its killer {carried}: Everlasting holds the killer's identity for the 10 seconds the unit "
                "is down (500.9k)")
    if killer is None:
        return "it carries no killer: its death had no actor (500.9k)"
    return (f"it carries no killer: Everlasting held {killer}'s identity for the 10 seconds only, and a full board "
            "delayed this revival past them (500.9k, INT-413: delayed_revival_killer = dropped)")


def explain_end_battle(battle: clock.Battle, action: dict[str, Any], ruleset: Ruleset,
                       depth: int = 0) -> tuple[clock.Battle, EventLog, list[Step]]:
    """Combat ends: a revival still due lapses (500.9a)."""
    after, log = clock.end_combat(battle)
    s = Steps(depth)
    s.say("end_combat", "500.9a", f"combat ends at {battle.now_ms} ms: {len(battle.pending)} Everlasting revival(s) "
          "still due lapse ('if combat is still running').", ("everlasting_lapsed",), lapsed=len(battle.pending))
    return after, log, s.items


def _on_board(explain: Any) -> Any:
    def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog, list[Step]]:
        battle, log, steps = explain(clock.start_battle(board), action, ruleset)
        return battle.board, log, steps

    return run


explain_advance = _on_board(explain_advance_battle)
explain_end_combat = _on_board(explain_end_battle)
