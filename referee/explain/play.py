"""The play rulebook's actions step by step: playing a card (350-359) and activating an ability (399).

The steps read the model's :class:`~referee.model.play.process.PlayResult` (its checks, its
total cost, its payment record), in the rulebook's numbered order: chain (354), choices
(355), total cost (356), payment (357), checks (358.2), then finish (359.2.c) or undo (358.5).
"""

from __future__ import annotations

from typing import Any

from referee.rulebooks.play import codec as play_json
from referee.model.play import process as play_process
from referee.model.play.cost import ResourceCost, TotalCost
from referee.model.play.process import PlayResult, get_cancellation
from referee.model.play.rules import PlayRules
from referee.model.play.state import DOMAINS, ZONE_NAMES, PlayState, Pool

from .steps import Step, Steps


def resources_text(cost: ResourceCost) -> str:
    """``[2] + fury 1 + [A] 1``, or ``nothing``."""
    parts = [f"[{cost.energy}] Energy"] if cost.energy else []
    parts += [f"{d} {n}" for d, n in zip(DOMAINS, cost.power) if n]
    parts += [f"[A] {cost.any_power}"] if cost.any_power else []
    return " + ".join(parts) or "nothing"


def pool_text(pool: Pool) -> str:
    power = ", ".join(f"{d} {n}" for d, n in zip(DOMAINS, pool.power) if n)
    return f"Energy {pool.energy}" + (f", Power {power}" if power else "")


def total_text(total: TotalCost) -> str:
    owed = [f"{o.cost.kind.replace('_', ' ')} x{o.cost.count}" for o in total.nonstandard if o.owed]
    return resources_text(total.resources) + (f", and {', '.join(owed)}" if owed else "")


def state_changes(before: PlayState, after: PlayState) -> dict[str, dict[str, list[Any]]]:
    """What changed: the pool (``pool``) and each object's fields, as ``name -> field -> [before, after]``."""
    out: dict[str, dict[str, list[Any]]] = {}
    pool = {f: [getattr(before.pool, f), getattr(after.pool, f)] for f in ("energy", "power")
            if getattr(before.pool, f) != getattr(after.pool, f)}
    if pool:
        out["pool"] = pool
    for old in before.objects:
        new = after.get(old.oid)
        diffs = {f: [_shown(f, getattr(old, f)), _shown(f, getattr(new, f))]
                 for f in ("zone", "location", "exhausted", "might_bonus") if getattr(old, f) != getattr(new, f)}
        if diffs:
            out[old.oid] = diffs
    return out


def _shown(name: str, value: Any) -> Any:
    return ZONE_NAMES[value] if name == "zone" else value


def explain_play_card(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, list[Step]]:
    """Play a card: the numbered process, then finish or undo."""
    text = play_process.CardText(play_json.to_component(action["cost"]),
                                 tuple(play_json.to_component(c) for c in action["additional"]))
    choices = play_process.Choices(tuple(action["pay_optional"]), action["location"])
    result = play_process.process_play(state, action["card"], text, choices, play_json.to_plan(action["plan"]),
                                       play_json.to_modifiers(action["modifiers"]), rules)
    s = Steps(rulebook="play")
    card = state.get(action["card"])
    checks = dict(result.checks)
    s.say("chain", "354", f"{card.oid} moves from {ZONE_NAMES[card.zone]} to the chain"
          + ("" if checks["354"] else " (but it is not in its controller's hand: the check fails)") + ".",
          card=card.oid, zone=ZONE_NAMES[card.zone], passed=bool(checks["354"]))
    for i, (component, pay) in enumerate(zip(action["additional"], action["pay_optional"])):
        if component.get("optional"):
            s.say("choice", "355.1.a", f"optional additional cost {i + 1}: {'paid' if pay else 'not paid'}.", index=i, pay=pay)
    if card.kind == "unit":
        s.say("location", "355.2", f"it will enter at location {action['location']}"
              + ("" if checks["355.2"] else " (no such location: the check fails)") + ".",
              location=action["location"], passed=bool(checks["355.2"]))
    explain_total(s, action, result)
    explain_payment(s, state, result)
    explain_outcome(s, result, "played", f"{card.oid} is played (350.1)"
                    + (f" and enters the board exhausted at location {action['location']} (359.2.c)"
                       if card.kind == "unit" else ""))
    return result.state, s.items


def explain_activate(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, list[Step]]:
    """Activate an ability: the same steps as playing (399), the cost before its colon (403.1.a), then its effect."""
    a = action["ability"]
    ability = play_process.Ability(play_json.to_component(a["cost"]),
                                   play_process.Effect(a["effect"]["kind"], a["effect"]["amount"]))
    result = play_process.process_activate(state, action["source"], ability, play_json.to_plan(action["plan"]),
                                           play_json.to_modifiers(action["modifiers"]), rules)
    s = Steps(rulebook="play")
    checks = dict(result.checks)
    s.say("activate", "399", f"{action['source']} activates an ability by the steps of playing a card; its cost is the "
          f"part before the colon (403.1.a)" + ("" if checks["399"] else "; but its controller is not the player: the "
                                                "check fails") + ".", source=action["source"], passed=bool(checks["399"]))
    explain_total(s, action, result)
    explain_payment(s, state, result)
    effect = a["effect"]
    explain_outcome(s, result, "activated", f"the cost was paid, so its linked effect happens (203): "
                    f"{effect['kind'].replace('_', ' ')} {effect['amount']}", "203")
    return result.state, s.items


def explain_total(s: Steps, action: dict[str, Any], result: PlayResult) -> None:
    """356.2-356.7: additional costs, increases, discounts, never below 0."""
    mods = action.get("modifiers", {})
    extra = []
    if action.get("additional"):
        extra.append(f"{len(action['additional'])} additional cost(s) (356.2)")
    if mods.get("increases"):
        extra.append(f"{len(mods['increases'])} increase(s) (356.3)")
    if mods.get("discounts"):
        extra.append(f"{len(mods['discounts'])} discount(s) (356.4), never below 0 (356.6)")
    how = f" after {', '.join(extra)}" if extra else ""
    s.say("total", "356.2", f"the total cost{how}: {total_text(result.total)}.", total=total_text(result.total))


def explain_payment(s: Steps, state: PlayState, result: PlayResult) -> None:
    """357.1, 357.1.a, 357.2: the plan followed, the pool before and after, each cost paid or not."""
    record = result.payment
    paid = "paid" if record.resources_paid else ("declined (444.2.a)" if record.declined else "not affordable (357.1)")
    s.say("payment", "357.1", f"the plan is followed: resources {paid}; pool {pool_text(state.pool)} -> "
          f"{pool_text(record.state.pool)}.", resources_paid=bool(record.resources_paid),
          pool_before=pool_text(state.pool), pool_after=pool_text(record.state.pool))
    for owed, done in zip(result.total.nonstandard, record.costs_paid):
        if owed.owed:
            s.say("nonstandard", "357.2", f"{owed.cost.kind.replace('_', ' ')}: {'paid' if done else 'not paid'}"
                  + ("" if done else f" (impossible: {play_process.UNPAID_CAUSE[owed.cost.kind]})") + ".",
                  cost=owed.cost.kind, paid=bool(done))
    if not record.plan_valid:
        s.say("plan", "357.2", "the plan pays a cost twice or names one that does not exist (PLAY-016).")


def explain_outcome(s: Steps, result: PlayResult, done: str, finished: str, clause: str = "350.1") -> None:
    """358.2 the checks; then 358.5 undo, or the finish."""
    failed = [name for name, passed in result.checks if not passed]
    s.say("checks", "358.2", "checks: " + ", ".join(f"{name} {'passes' if passed else 'FAILS'}" for name, passed in
                                                     result.checks) + ".", checks={n: bool(p) for n, p in result.checks})
    cancelled = get_cancellation(result)
    if cancelled is None:
        s.say("finish", clause, finished + ".", (done,))
        return
    causes = f" (because of {', '.join(cancelled.causes)})" if cancelled.causes else ""
    s.say("undo", "358.5", f"check {failed[0]} failed{causes}: every action of the process is undone and the state is "
          "exactly as before.", ("play_cancelled" if done == "played" else "activation_cancelled",),
          check=cancelled.check, causes=list(cancelled.causes))
