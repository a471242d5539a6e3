"""What follows a Vitality loss, each as its own step: the listeners, a death, Macabre, a revival, the batch.

Damage (500.1-13) and every Vitality cost (500.8) end on the same road (``model/combat/vitality.py``):
the loss listeners (500.6c, 500.8d), a death at 0 (500.1-13, 500.4a), Macabre for every other
living unit (500.4c), a deathrattle, a Vessel spent and the revival it brings (500.4d, 500.9c),
an Everlasting revival scheduled (500.4d), and the Vessel Point batch of it all (500.4e). The
explainers write one step for the loss (it names these events); :func:`split_loss_tails` reads
the model's events and writes each part of the tail as its own step right after it, so that a
failure report can point at the part an engine got wrong (``referee.check.grouping.attribution``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.model.combat.revival import LIFE_STATUS_AMOUNTS, LIFE_STATUSES
from referee.model.combat.state import Board
from referee.model.combat.vitality import VITALITY_LOSS_RUNES
from referee.model.events import Event

from .steps import Step

LISTENERS = ("vitality_lost", "rune_reset", "threshold_reevaluated")
REVIVAL_CHANNELS = ("revival_self", "revival_ally", "revival_focus")
#: Every event of a loss's tail, in the model's order.
TAIL = (*LISTENERS, "death", "macabre", "deathrattle", "vessel_revival", *REVIVAL_CHANNELS, "everlasting_scheduled",
        "vessel_batch")


def clauses_of(host: Step) -> tuple[str, str]:
    """The listeners' clause and the death's clause for the road the loss took (the host step's clause)."""
    clause = host.clause.split(":", 1)[1]
    if clause.startswith("800.4"):
        return "500.8d", "800.4j"
    if clause.startswith("500.8"):
        return "500.8d", "500.8j"
    if clause in ("500.6f", "500.7g", "500.7b", "500.7f"):
        return "500.8d", "500.6d"
    return "500.6c", "500.4a"


def split_loss_tails(steps: list[Step], events: tuple[Event, ...] | list[Event], board: Board) -> list[Step]:
    """The steps with each loss's tail written out after the step that names it (the events aligned as
    :func:`referee.explain.locate_event` aligns them); the host step no longer names the tail's events."""
    buckets: dict[int, list[Event]] = {}
    cursor = 0
    for event in explained_order(events):
        if is_revival_batch(event):
            continue  # a revival's own batch (500.9m) is its step's, not a loss's tail
        hit = next((i for i in range(cursor, len(steps)) if event.name in steps[i].events), None)
        if hit is None and event.name in TAIL and steps:
            hit = cursor  # no later step names it: the tail follows the step the events have reached
        if hit is None:
            continue
        cursor = hit
        if event.name in TAIL:
            buckets.setdefault(hit, []).append(event)
    out: list[Step] = []
    for i, step in enumerate(steps):
        keep = ("vessel_batch",) if step.clause.endswith(":500.9m") else ()
        out.append(replace(step, events=tuple(e for e in step.events if e not in TAIL or e in keep)) if buckets else step)
        if i in buckets:
            out.extend(tail_steps(step, buckets[i], board))
    return out


#: The retaliations a defy-death rune can answer, the channel reporting each payment.
RETALIATION_CHANNELS = ("thorns", "riposte", "retort", "subrogation")


def explained_order(events: tuple[Event, ...] | list[Event]) -> list[Event]:
    """The events in the order the steps explain them: the model emits a defy-death answer to a retaliation with
    its price, before the channel reporting the payment; the steps say the retaliation first, then the rune that
    answered it (500.6d), so that answer is aligned right after its channel. Every other event keeps its place."""
    out: list[Event] = []
    held: list[Event] = []
    for i, event in enumerate(events):
        following = next((e for e in events[i + 1:] if e.unit == event.unit), None)
        if event.name == "defy_death" and following is not None and following.name in RETALIATION_CHANNELS:
            held.append(event)
            continue
        out.append(event)
        answered = [h for h in held if event.name in RETALIATION_CHANNELS and h.unit == event.unit]
        out.extend(answered)
        held = [h for h in held if h not in answered]
    return out + held


def is_revival_batch(event: Event) -> bool:
    """The Vessel Point batch a revival pools (500.9m), reported with ``detail`` ``revival``: not a death's tail."""
    return event.name == "vessel_batch" and event.detail == "revival"


def tail_steps(host: Step, events: list[Event], board: Board) -> list[Step]:
    """One step per part of the tail, at the host's depth."""
    listeners, death = clauses_of(host)
    out: list[Step] = []

    def say(step: str, clause: str, text: str, names: tuple[str, ...], **more: Any) -> None:
        out.append(Step(step, f"combat:{clause}", text, more.pop("quantities", {}), host.depth, names, **more))

    groups = group_events(events)
    for n, (name, group) in enumerate(groups):
        uid = group[0].unit
        unit = board.unit(uid) if board.has(uid) else None
        part = _TAIL_PARTS.get(name)
        if part is not None:
            part(_Tail(say, host, board, uid, unit, group, groups[n + 1] if n + 1 < len(groups) else None,
                       listeners, death))
    return out


@dataclass(frozen=True)
class _Tail:
    """One part of a loss's tail, and what saying it needs."""

    say: Any
    host: Step
    board: Board
    uid: str
    unit: Any
    group: list[Event]
    following: Any
    listeners: str
    death: str


def _say_listeners(t: _Tail) -> None:
    runes = [e.detail for e in t.group if e.name == "rune_reset"]
    lost = next((e.amount for e in t.group if e.name == "vitality_lost"), 0)
    reset = (f": {', '.join(f'{r.title()} {getattr(t.unit, r) if t.unit else 0} -> 0' for r in runes)} "
             "(the runes that reset on Vitality damage lose their accumulated bonus)") if runes else ""
    t.say("listeners", t.listeners, f"{lost} Vitality left {t.uid}; it is still Vitality lost, so what is keyed to losing "
          f"Vitality answers (500.6c, 500.8d){reset}; Vitality thresholds re-evaluate.", names(t.group),
          touches=tuple(f"{t.uid}.{r}" for r in VITALITY_LOSS_RUNES), quantities={"lost": lost, "runes": runes})


def _say_death(t: _Tail) -> None:
    how = ("it is destroyed outright by Cull (500.4a)" if "culled" in t.host.events else
           "its Vitality reached 0 (500.1-13, 500.4a)")
    t.say("death", t.death, f"{t.uid} dies: {how}; its living-effect state is captured, its combat state cleared and "
          "the death announced (500.4b).", names(t.group), touches=(f"{t.uid}.alive",), decision="death[combat:500.4a]")
    if t.following is None or t.following[0] != "macabre" or t.following[1][0].other != t.uid:
        t.say("macabre", "500.4c", unheard_macabre(t.uid, t.board), (), absent=("macabre",), quantities={"heard": []})


def _say_macabre(t: _Tail) -> None:
    dead = t.group[0].other
    heard = [e.unit for e in t.group]
    silent = [u.uid for u in t.board.units if u.uid not in heard and u.uid != dead and not u.alive]
    left = f"; not {', '.join(silent)}: already dead" if silent else ""
    t.say("macabre", "500.4c", f"{dead}'s death fires Macabre for every other living unit on the board, on either "
          f"side (500.4c): {', '.join(heard)}{left}.", names(t.group), absent=("macabre",), quantities={"heard": heard})


def _say_vessel_revival(t: _Tail) -> None:
    vessels = t.unit.vessels if t.unit else 1
    t.say("vessel", "500.4d", f"{t.uid} is a Phylactery unit holding a Vessel: it spends it ({vessels} -> "
          f"{vessels - 1}) and revives on the spot, once the death has fully resolved (500.4d).", ("vessel_revival",),
          touches=(f"{t.uid}.vessels",), quantities={"before": vessels, "after": vessels - 1})
    t.say("revival", "500.9c", revival_text(t.uid, t.unit), names(t.group[1:]),
          touches=tuple(f"{t.uid}.{f}" for f in (*LIFE_STATUSES, *LIFE_STATUS_AMOUNTS, "armor", "reliquary_speed")))


_TAIL_PARTS = {
    "listeners": _say_listeners,
    "death": _say_death,
    "macabre": _say_macabre,
    "deathrattle": lambda t: t.say("deathrattle", "500.4e", f"{t.uid}'s deathrattle resolves, in the death's batch "
                                   "(500.4e).", names(t.group)),
    "vessel_revival": _say_vessel_revival,
    "everlasting_scheduled": lambda t: t.say(
        "everlasting", "500.4d", f"{t.uid} is Everlasting: it revives 10 seconds later, and is genuinely dead in "
        "between (500.4d).", names(t.group), quantities={"delay_ms": t.group[0].amount}),
    "vessel_batch": lambda t: t.say(
        "batch", "500.4e", f"the death of {t.uid} and everything it fired (Macabre, deathrattles, an immediate "
        f"Vessel revival and its listeners) are one Vessel Point batch of {t.group[0].amount} event(s) (500.4e).",
        names(t.group), quantities={"events": t.group[0].amount}),
}


def unheard_macabre(dead: str, board: Board) -> str:
    """A death that fires Macabre (500.4c) with no other living unit on the board to hear it."""
    others = [u.uid for u in board.units if u.uid != dead]
    who = f"{', '.join(others)} {'is' if len(others) == 1 else 'are'} already dead" if others else "no other unit is there"
    return (f"{dead}'s death fires Macabre for every other living unit on the board, on either side (500.4c): "
            f"nobody hears it ({who}).")


def revival_text(uid: str, unit: Any) -> str:
    """What a revival leaves behind (500.9c)."""
    gone = [f for f in LIFE_STATUSES if unit is not None and getattr(unit, f)]
    gone += [f"{f} {getattr(unit, f)}" for f in LIFE_STATUS_AMOUNTS if unit is not None and getattr(unit, f)]
    what = f": {', '.join(gone)} {'is' if len(gone) == 1 else 'are'} gone" if gone else ""
    return (f"{uid} returns at full Vitality with its battle-start numbers rebuilt; every status, timed effect and combat "
            f"stat change of the previous life is gone (500.9c){what}.")


def group_events(events: list[Event]) -> list[tuple[str, list[Event]]]:
    """The tail's events in parts: the listeners together, each Macabre run together, a revival with its channels."""
    out: list[tuple[str, list[Event]]] = []
    for event in events:
        name = "listeners" if event.name in LISTENERS else event.name
        last = out[-1] if out else None
        if event.name in REVIVAL_CHANNELS:
            if last is not None and last[0] == "vessel_revival":
                last[1].append(event)
        elif last is not None and last[0] == name == "listeners" and last[1][0].unit == event.unit:
            last[1].append(event)
        elif last is not None and last[0] == name == "macabre" and last[1][0].other == event.other:
            last[1].append(event)
        else:
            out.append((name, [event]))
    return out


def names(group: list[Event]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.name for e in group))
