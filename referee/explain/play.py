"""The play rulebook's actions step by step: playing a card (350-359) and activating an ability (399).

The steps read the model's :class:`~referee.model.play.process.PlayResult` (its checks, its
total cost, its payment record), in the rulebook's numbered order: chain (354), choices
(355), total cost (356), payment (357), checks (358.2), then finish (359.2.c) or undo (358.5).
"""

from __future__ import annotations

from typing import Any

from referee.rulebooks.play import codec as play_json
from referee.model.play import process as play_process
from referee.model.play import cost as cost_model
from referee.model.play.cost import ResourceCost, TotalCost
from referee.model.play.payment import UseRune
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
    explain_cost_steps(s, text.cost, text.additional, choices.pay_optional, play_json.to_modifiers(action["modifiers"]),
                       rules)
    explain_total(s, action, result)
    explain_plan(s, play_process.process_move_to_chain(state, action["card"], rules), result.total, action["card"],
                 play_json.to_plan(action["plan"]), rules)
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
    explain_cost_steps(s, ability.cost, (), (), play_json.to_modifiers(action["modifiers"]), rules)
    explain_total(s, action, result)
    explain_plan(s, state, result.total, action["source"], play_json.to_plan(action["plan"]), rules)
    explain_payment(s, state, result)
    effect = a["effect"]
    explain_outcome(s, result, "activated", f"the cost was paid, so its linked effect happens (203): "
                    f"{effect['kind'].replace('_', ' ')} {effect['amount']}", "203")
    return result.state, s.items


def explain_cost_steps(s: Steps, printed: Any, additional: tuple[Any, ...], pay_optional: tuple[Any, ...],
                       modifiers: Any, rules: PlayRules) -> None:
    """Step 3 one clause at a time (356.2-356.6), each a step that decides the total: each additional cost as it is
    added (owed or not, 355.1.a; its own discounts first, 356.4.c), the increases (356.3), each discount on the
    total (356.4), never below 0 (356.6)."""
    total, taken = printed.resources, tuple(False for _ in modifiers.discounts)
    for i, (component, choice) in enumerate(zip(additional, pay_optional)):
        total = _explain_additional_cost(s, i, component, choice, total, modifiers, rules, taken)
        taken = cost_model.take_component_discounts(component, modifiers.discounts, cost_model.is_owed(component, choice),
                                                    taken)
    if modifiers.increases:
        after = cost_model.apply_increases(total, modifiers.increases)
        s.say("increases", "356.3", f"{len(modifiers.increases)} cost increase(s) are added after the additional costs "
              f"(356.3): {resources_text(total)} -> {resources_text(after)}.", decides=True,
              before=resources_text(total), after=resources_text(after))
        total = after
    for d in modifiers.discounts:
        if d.applies_to == "total":
            after = cost_model.apply_discount(total, d, rules)
            clipped = is_clipped(total, after, d)
            floor = "; it cannot take an Energy or Power cost below 0 (356.6)" if clipped else ""
            s.say("discount", "356.6" if clipped else "356.4", f"a discount of {discount_text(d)} on the whole cost, "
                  f"applied after the increases (356.3, 356.4){floor}: {resources_text(total)} -> "
                  f"{resources_text(after)}.", decides=True, before=resources_text(total), after=resources_text(after),
                  clipped=clipped)
            total = after


def _explain_additional_cost(s: Steps, i: int, component: Any, choice: Any, total: Any, modifiers: Any,
                             rules: PlayRules, taken: tuple[Any, ...]) -> Any:
    """One additional cost as it is added (356.2; owed or not, 355.1.a; its own discounts first, 356.4.c, each one not
    yet used up under PLAY-020's ``once``); the total."""
    owed = bool(cost_model.is_owed(component, choice))
    added = cost_model.compute_component_cost(component, modifiers.discounts, rules, taken)
    once = rules.component_discount_scope == "once"
    own = [d for d, used in zip(modifiers.discounts, taken)
           if d.applies_to != "total" and cost_model.is_component_discount(d, component) and not (once and used)]
    missed = [d for d in modifiers.discounts if d.applies_to == "optional_additional" and not component.optional]
    kind = "optional" if component.optional else "mandatory"
    notes = []
    if own:
        notes.append(f"its own discount(s) apply as it is added, before any other (356.4.c): "
                     f"{resources_text(component.resources)} -> {resources_text(added)}")
    if missed:
        notes.append("a discount on optional additional costs does not reduce a mandatory one (356.4.c)")
    after = cost_model.add_resources(total, added) if owed else total
    if owed:
        what = f"owed{' (chosen, 355.1.a)' if component.optional else ''}: + {resources_text(added)}"
    else:
        what = "declined, so not owed (355.1.a): nothing is added and its non-standard costs are not owed"
    s.say("additional", "355.1.a" if component.optional else "356.2", f"additional cost {i + 1} ({kind}) is "
          f"{what}" + "".join(f"; {n}" for n in notes) + f" (356.2): {resources_text(total)} -> "
          f"{resources_text(after)}.", decides=True, index=i, owed=owed, before=resources_text(total),
          after=resources_text(after))
    return after


def discount_text(d: Any) -> str:
    parts = [f"[{d.energy}] Energy"] if d.energy else []
    parts += [f"{d.power} Power"] if d.power else []
    return (" or " if d.either else " and ").join(parts) or "nothing"


def is_clipped(before: ResourceCost, after: ResourceCost, d: Any) -> bool:
    """Whether a discount offered more than the cost had to take (356.6)."""
    took_energy = before.energy - after.energy
    took_power = before.total_power - after.total_power
    if d.either:
        offered = d.energy if took_energy else d.power if took_power else max(d.energy, d.power)
        return took_energy + took_power < offered
    return took_energy < d.energy or took_power < d.power


def explain_plan(s: Steps, start: PlayState, total: TotalCost, source: str, plan: tuple[Any, ...], rules: PlayRules) -> None:
    """357.1.a: each Basic Rune ability the plan uses during payment, and what it added (the model's payment, step by step)."""
    for k, step in enumerate(plan):
        if not isinstance(step, UseRune):
            continue
        before = play_process.process_payment(start, total, source, plan[:k], rules).state
        after = play_process.process_payment(start, total, source, plan[: k + 1], rules).state
        gained = resources_text_pool(before.pool, after.pool)
        rune = before.get(step.rune) if any(o.oid == step.rune for o in before.objects) else None
        printed = '"[E]: Add [1]"' if step.ability == "exhaust" else '"Recycle this: Add [C]"'
        if gained:
            what = f"it adds {gained}"
        elif step.ability == "exhaust" and rune is not None and rune.exhausted:
            what = "it is already exhausted and cannot be exhausted again (414.1.b), so the cost is not paid and nothing is added"
        else:
            what = "its cost cannot be paid, so nothing is added (414.4, 416.3)"
        s.say("use_rune", "414.1.b" if "414.1.b" in what else "357.1.a", f"during payment {step.rune} uses its {printed} "
              f"Reaction ability (357.1.a, 164.2): {what}; pool {pool_text(before.pool)} -> {pool_text(after.pool)}.",
              touches=("pool.energy", "pool.power", f"{step.rune}.exhausted", f"{step.rune}.zone"),
              rune=step.rune, ability=step.ability, pool_before=pool_text(before.pool), pool_after=pool_text(after.pool))


def resources_text_pool(before: Pool, after: Pool) -> str:
    """What a pool gained: ``Energy 1``, ``calm 1``, or ``""``."""
    parts = [f"Energy {after.energy - before.energy}"] if after.energy > before.energy else []
    parts += [f"{d} {a - b}" for d, a, b in zip(DOMAINS, after.power, before.power) if a > b]
    return ", ".join(parts)


#: The steps of the total's computation (356.2-356.6).
COST_STEPS = ("additional", "increases", "discount")


def cost_decided(s: Steps) -> bool:
    """Whether a step of the total's computation is among the steps written (then it, not the total or a declined
    payment, is what a different outcome points at)."""
    return any(step.step in COST_STEPS for step in s.items)


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
    s.say("total", "356.2", f"the total cost{how}: {total_text(result.total)}.", decides=not cost_decided(s),
          total=total_text(result.total))


def explain_payment(s: Steps, state: PlayState, result: PlayResult) -> None:
    """357.1, 357.1.a, 357.2: the plan followed, the pool before and after, each cost paid or not."""
    record = result.payment
    paid = "paid" if record.resources_paid else ("declined (444.2.a)" if record.declined else "not affordable (357.1)")
    s.say("payment", "357.1", f"the plan is followed: resources {paid}; pool {pool_text(state.pool)} -> "
          f"{pool_text(record.state.pool)}.", decides=bool(record.declined and not record.resources_paid) and not cost_decided(s),
          touches=("pool.energy", "pool.power"), resources_paid=bool(record.resources_paid),
          pool_before=pool_text(state.pool), pool_after=pool_text(record.state.pool))
    for owed, done in zip(result.total.nonstandard, record.costs_paid):
        if owed.owed:
            s.say("nonstandard", "357.2", f"{owed.cost.kind.replace('_', ' ')}: {'paid' if done else 'not paid'}"
                  + ("" if done else f" (impossible: {play_process.UNPAID_CAUSE[owed.cost.kind]})") + ".",
                  decides=not done, cost=owed.cost.kind, paid=bool(done))
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
