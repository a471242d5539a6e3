"""A Vitality cost (500.8), a Bloodletting activation (800.4) and an Armor debuff (500.2e), step by step.

Each is run through the model (:func:`~referee.model.combat.costs.pay_vitality_cost`,
:func:`~referee.model.combat.bloodletting.process_bloodletting`); the steps read the board
before and after and what the model emitted.
"""

from __future__ import annotations

from typing import Any

from referee.model.combat import armor, bloodletting, costs
from referee.model.combat.battle import clear_speed_after_cost, clear_speed_at_end, resolve_activation
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import Event, EventLog

from .activation import explain_activation, explain_speed_cleared
from .answers import explain_hit
from .steps import (DEFY_SPENT, LOSS_TAIL, SKIPS_PIPELINE, Step, Steps, cost_rule, defy_fields, layer_fields,
                    refusal_decision, skipped_layers)

KIND_NAMES = {"bloodletting": "Bloodletting", "interest": "Interest", "self_destruct": "self-destruct",
              "retaliation": "retaliation"}


def explain_cost(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """A Vitality cost paid by one unit (500.8)."""
    log = EventLog()
    payer, kind, amount = action["payer"], action["cost_kind"], action["amount"]
    after, lost = costs.pay_vitality_cost(board, payer, amount, kind, log, beneficiary=action.get("beneficiary"),
                                          ruleset=ruleset)
    s = Steps(depth)
    price = "its whole Vitality" if kind == "self_destruct" else f"{amount}"
    s.say("cost", "500.8", f"{payer} pays a {KIND_NAMES[kind]} cost of {price} in Vitality.", payer=payer, kind=kind,
          amount=amount)
    explain_payment(s, board.unit(payer), after.unit(payer), kind, amount, lost, log.events(), "500")
    return after, log, s.items


def explain_payment(
    s: Steps, before: Unit, after: Unit, kind: str, amount: int, lost: int, events: tuple[Event, ...], chapter: str
) -> None:
    """The steps every Vitality cost shares (500.8a-j); ``chapter`` 800 cites Bloodletting's own clauses too."""
    bl = chapter == "800"
    if not explain_payer_and_layers(s, before, events, bl):
        return
    explain_price(s, before, kind, amount, events, bl)
    channel = "the Bloodletting-paid channel reports it (800.4i)" if bl else "the cost channel reports it (500.8i)"
    clause, decision = cost_rule("vitality", "500.8i", "800.4g", bl)
    s.say("vitality", clause, f"{before.uid} loses {lost} Vitality ({before.vitality} -> "
          f"{before.vitality - lost}); {channel}, for the Vitality that actually left."
          if lost else f"{before.uid} loses no Vitality; no channel fires.",
          ("cost_paid", "bloodletting_paid", "thorns", "riposte", "retort", "subrogation", *LOSS_TAIL),
          decision=decision, lost=lost, before=before.vitality, after=before.vitality - lost)
    explain_after_payment(s, before, after, kind, lost, events, bl)


def explain_payer_and_layers(s: Steps, before: Unit, events: tuple[Event, ...], bl: bool) -> bool:
    """A refused payer (500.8e, 500.6e, 500.6h); the layers a cost never meets (500.8a); a Tool or Hub (500.8e). Goes on?"""
    refused = [e for e in events if e.name == "cost_refused" and e.unit == before.uid]
    if refused:
        reason = refused[0].detail
        clause = "500.6h" if reason in ("self", "ally") else "500.6e" if reason == "dormant" else "500.8e"
        s.say("payer_refused", clause, f"{before.uid} is refused as a payer outright ({reason}): nothing is paid.",
              ("cost_refused",), decision=refusal_decision(reason), reason=reason)
        return False
    if before.dormant and before.alive and not before.entrapped:
        clause, decision = cost_rule("payer_accepted", "500.8e", "800.4f", bl)
        s.say("payer_accepted", clause, f"{before.uid} is Dormant, but only dead and Entrapped units "
              "are refused as payers of a Vitality cost (500.8e): it pays.", absent=("cost_refused",), decision=decision)
    layers = skipped_layers(before)
    untouched = f": {', '.join(layers)} {'is' if len(layers) == 1 else 'are'} never met and never spent" if layers else ""
    s.say("skips_pipeline", "800.4f" if bl else "500.8a", f"a Vitality cost is not a damage instance; it skips the whole "
          f"pipeline (500.8a){untouched}.", decides=bool(layers), decision=SKIPS_PIPELINE, keeps_layers=layer_fields(before),
          layers=layers)
    if before.discards_combat:
        clause, decision = cost_rule("tool_or_hub", "500.8e", "800.4d", bl)
        s.say("tool_or_hub", clause, f"{before.uid} is a {'Tool' if before.is_tool else 'Hub'}: it "
              "discards every combat interaction and pays nothing.", decision=decision, paid=0)
        return False
    return True


def explain_price(s: Steps, before: Unit, kind: str, amount: int, events: tuple[Event, ...], bl: bool) -> None:
    """The price: a self-destruct's whole Vitality (500.8h), the clamp (500.8b), defy-death (500.8f), the scrapped Shield."""
    owed = before.vitality if kind == "self_destruct" else min(max(amount, 0), before.vitality)
    if kind == "self_destruct":
        s.say("price", "500.8h", f"a self-destruct spends the whole remaining Vitality, {before.vitality}; nothing "
              "talks it out of dying.", owed=owed)
    elif max(amount, 0) > before.vitality:
        clause, decision = cost_rule("price", "500.8b", "800.4g", bl)
        s.say("price", clause, f"the price {amount} is clamped to the {before.vitality} Vitality "
              f"{before.uid} has; no debt is carried forward.", decision=decision, printed=amount, owed=owed)
    defied = [e for e in events if e.name == "defy_death" and e.unit == before.uid]
    if defied:
        prevented = defied[0].amount
        paid = max(amount, 0) - prevented
        clause = "800.4h" if bl else "500.8f"
        s.say("defy_death", clause, f"the cost would be lethal and {KIND_NAMES[kind]} opts in: the "
              f"defy-death rune answers: of the {max(amount, 0)} asked it prevents {prevented}, so {before.uid} pays "
              f"{paid} and keeps {before.vitality - paid}; its once-per-life charge is spent.", ("defy_death",),
              touches=defy_fields(before.uid), decision=DEFY_SPENT, prevented=prevented, paid=paid)
    elif before.defy_death and owed >= before.vitality > 0 and not costs.DEFY_DEATH_ANSWERS[kind]:
        s.say("defy_death", "500.8f", f"the cost is lethal, but a defy-death rune does not answer {KIND_NAMES[kind]}: it pays "
              "through (500.8f).", absent=("defy_death",))
    if any(e.name == "shield_scrapped" for e in events):
        s.say("shield_scrapped", "500.8h", f"its Shield {before.shield} is scrapped with it, not damaged: no Shield trigger.",
              ("shield_scrapped",), shield=before.shield)


def explain_after_payment(
    s: Steps, before: Unit, after: Unit, kind: str, lost: int, events: tuple[Event, ...], bl: bool
) -> None:
    """Interest's maximum (500.8g), a retaliation's credit (500.6f), the listeners (500.8d), a death (500.8j)."""
    if kind == "interest" and lost:
        lowered = before.max_vitality - lost
        s.say("max_vitality", "500.8g", f"Interest also debits maximum Vitality by {lost} ({before.max_vitality} -> "
              f"{lowered}) for the rest of the battle.", ("max_vitality_lowered",),
              touches=(f"{before.uid}.max_vitality",), before=before.max_vitality, after=lowered)
        explain_zero_maximum(s, before, after, lowered)
    credit = [e for e in events if e.name == "credit" and e.other == before.uid]
    if kind == "retaliation" and credit:
        fed = any(e.name == "feast" and e.other == before.uid for e in events)
        s.say("retaliation_credit", "500.6f", f"{credit[0].unit}, the retaliating unit, is credited the {credit[0].amount} "
              f"Vitality it took; {'it feeds its Feast' if fed else 'no Feast: the payer is a boss'}.",
              ("credit", "feast", "phasebreak_check"), credited=credit[0].amount)
    if any(e.name == "death" and e.unit == before.uid for e in events):
        s.say("death_continues", "800.4j" if bl else "500.8j", f"{before.uid} died of the cost an ordinary death (its "
              "steps follow the payment), and the activation that charged the cost continues.")
    clause, decision = cost_rule("no_reactions", "500.8c", "800.4i", bl)
    s.say("no_reactions", clause, "a cost starts no damage reactions: no on-damage-taken fanout, "
          "Thorns, Riposte, or Shield trigger.", decision=decision)


def explain_zero_maximum(s: Steps, before: Unit, after: Unit, lowered: int) -> None:
    """A payer Interest took to a maximum of 0 with a revival ahead: what comes back (500.9c, 500.4a, INT-120)."""
    if lowered != 0 or not (before.vessels > 0 or before.everlasting):
        return
    if after.max_vitality > 0:
        s.say("zero_maximum", "500.9c", f"its maximum is 0, and under zero_maximum_revival = returns_at_one (INT-120) "
              f"it is floored at {after.max_vitality} for the revival ahead: {before.uid} returns at "
              f"{after.max_vitality} of {after.max_vitality}.", touches=(f"{before.uid}.max_vitality",),
              floor=after.max_vitality)
        return
    s.say("zero_maximum", "500.9c", f"its maximum is 0: a return 'at full Vitality' would be at 0, which is dead "
          f"(500.4a), so nothing comes back: no Vessel is spent and no Everlasting revival is scheduled (INT-120, "
          f"zero_maximum_revival = stays_dead).", absent=("vessel_revival", "everlasting_scheduled"), floor=0)


def explain_bloodletting(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """An activation with a Bloodletting cost: the cost first, then each hit with its answers (800.4)."""
    caster, printed = action["caster"], action["cost"]
    s = Steps(depth)
    s.say("activation", "800.4a", f"{caster} activates with a Bloodletting cost of {printed}, paid before the "
          "activation's damage is computed.", caster=caster, printed=printed)
    explain_activation(s, board, caster, ruleset)
    board, log = resolve_activation(board, caster, ruleset)  # as the model: the charge spent (500.9l)
    after, outcome = explain_bloodletting_step(s, board, caster, printed, ruleset, log)
    after = explain_clear_point(s, after, caster, "after_cost", ruleset, log, outcome.failed)
    if not (outcome.failed or outcome.aborted):
        after = explain_bloodletting_hits(s, after, caster, action, ruleset, log, depth)
    return explain_clear_point(s, after, caster, "end", ruleset, log), log, s.items


def explain_clear_point(s: Steps, board: Board, caster: str, point: str, ruleset: Ruleset, log: EventLog,
                        failed: Any = False) -> Board:
    """INT-411's later points, as the model runs them: the Speed cleared after the cost (unless the ability
    failed, 800.4d) or at the end, when ``reliquary_clear_point`` names that point."""
    if ruleset.reliquary_clear_point != point or failed is True:
        return board
    explain_speed_cleared(s, board.unit(caster).reliquary_speed, caster, point)
    if point == "after_cost":
        return clear_speed_after_cost(board, caster, failed, ruleset, log)
    return clear_speed_at_end(board, caster, ruleset, log)


def explain_bloodletting_hits(s: Steps, after: Board, caster: str, action: dict[str, Any], ruleset: Ruleset,
                              log: EventLog, depth: int) -> Board:
    """800.4j: each hit of the activation, with what answers it."""
    for number, hit in enumerate(action.get("hits", ()), 1):
        instance = DamageInstance(target=hit["target"], amount=hit["amount"], source=caster,
                                  kind=hit.get("damage_kind", "hit"), allows_dormant=hit.get("allows_dormant", False),
                                  riposte_rolls=tuple(hit.get("riposte_rolls", ())))
        s.say("hit", "800.4j", f"hit {number} of the activation.", number=number)
        after, step_log, steps = explain_hit(after, instance, ruleset, depth + 1)
        log.extend(step_log)
        s.extend(steps)
    return after


def explain_bloodletting_step(
    s: Steps, board: Board, caster: str, printed: int, ruleset: Ruleset, log: EventLog
) -> tuple[Board, bloodletting.BloodlettingOutcome]:
    """800.4l, 800.4m, 800.4b-e, then the payment as a Vitality cost (800.4f-j), or the abort (800.4k) or failure (800.4d)."""
    reduction = bloodletting.compute_reduction(board, board.unit(caster), ruleset)
    part = EventLog()
    after, outcome = bloodletting.process_bloodletting(board, caster, printed, part, ruleset)
    log.extend(part)
    if reduction:
        zero = " (0: nobody pays, 800.4m)" if outcome.skipped else ""
        whose = "" if ruleset.bloodletting_reduction_scope == "caster_only" else \
            f" ({ruleset.bloodletting_reduction_scope.replace('_', ' ')} of the caster's side, INT-122)"
        s.say("reduction", "800.4l", f"the Bloodletting reduction rune{whose} lowers the cost before a payer is chosen: "
              f"{printed} -> {outcome.cost}{zero}.", absent=PAID if outcome.skipped else (), before=printed,
              reduction=reduction, after=outcome.cost)
    if outcome.skipped:
        s.say("skipped", "800.4m", "the cost is 0: the whole step is skipped, nobody pays and no channel fires.")
        return after, outcome
    explain_payer_choice(s, board, caster)
    if outcome.aborted:
        s.say("aborted", "800.4k", "no eligible payer: the activation is aborted before damage.", ("activation_aborted",))
        return after, outcome
    payer = outcome.payer
    s.say("payer", "800.4e", f"{payer} pays the full cost of {outcome.cost}; it is never split.", payer=payer,
          cost=outcome.cost)
    explain_payment(s, board.unit(payer), after.unit(payer), "bloodletting", outcome.cost, outcome.paid, part.events(), "800")
    if outcome.failed:
        s.say("failed", "800.4d", "the payment moved no Vitality: the ability fails outright.", ("activation_failed",))
    return after, outcome


#: The events whose payer the Bloodletting payer search chose (800.4b, 800.4c).
PAID = ("bloodletting_paid", "cost_paid", "cost_refused", "activation_aborted")


def explain_payer_choice(s: Steps, board: Board, caster: str) -> None:
    """800.4b-c: the caster's side in reading order, each skipped unit with its reason."""
    me = board.unit(caster)
    if me.is_boss:
        s.say("payer_search", "800.4c", f"{caster} is a boss casting Bloodletting: it pays its own cost (800.4c).",
              chooses=PAID)
        return
    seen = []
    for u in bloodletting.compute_reading_order(board, me.side):
        reason = "dead" if not u.alive else "Entrapped" if u.entrapped else "a boss" if u.is_boss else None
        seen.append(f"{u.uid} (row {u.row}, col {u.col}){' skipped: ' + reason if reason else ''}")
        if reason is None:
            break
    s.say("payer_search", "800.4b", f"reading order on {caster}'s side, left to right then top to bottom (800.4c skips "
          f"dead, Entrapped and boss units; Tools and Hubs are not skipped, 800.4d): {'; '.join(seen)}.", order=seen,
          chooses=PAID)


def explain_armor_debuff(board: Board, action: dict[str, Any], ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """A debuff on one unit: Crush and Repossess lower Armor past 0; Piercing Roar and Crippling Scream leave it (500.2e)."""
    target = board.unit(action["target"])
    changed = armor.apply_armor_debuff(target, action["debuff"], action["amount"])
    s = Steps(depth)
    name = action["debuff"].replace("_", " ").title()
    if action["debuff"] in armor.ARMOR_SHREDDING_DEBUFFS:
        s.say("armor_debuff", "500.2e", f"{name} {action['amount']} lowers {target.uid}'s Armor, past 0 if need be: "
              f"{target.armor} -> {changed.armor}.", before=target.armor, amount=action["amount"], after=changed.armor)
    else:
        s.say("armor_debuff", "500.2e", f"{name} affects Power and Speed, not Armor: {target.uid}'s Armor stays "
              f"{target.armor}.", before=target.armor, after=changed.armor)
    return board.with_unit(changed), EventLog(), s.items
