"""One damage instance as a waterfall (500.1), read off the model's own :class:`DamageOutcome`.

incoming -> Armor % (the exact value, then rounded) -> Armor flat -> cap -> Subrogated ->
payback -> plain Insurance -> Shield (with the multiplier) -> redirect -> defy-death ->
Vitality. A layer the recipient does not have is not mentioned. Damage a redirect moved is
explained as the receiver's own instance, one level deeper (500.1g).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.model.combat.costs import is_defied
from referee.model.combat.attribution import (compute_applied, compute_credited, compute_feast_weights, compute_shares,
                                              is_credit_withheld, is_dead_source_withheld, is_feast_withheld_from_boss)
from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage, compute_flat_reduction
from referee.model.combat.damage import (DamageInstance, DamageOutcome, apply_armor, apply_incoming_cap, is_direct_damage,
                                         is_ignoring_armor)
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.shield import compute_multiplier
from referee.model.combat.state import Board, Unit
from referee.model.combat.ticks import is_damage_over_time

from .armor_text import surviving_value, value_text
from .steps import (DEFY_SPENT, LOSS_TAIL, PAYBACK_PLACED, SIDE_RULE, SKIPS_PIPELINE, Step, Steps, defy_fields,
                    layer_fields, mixed, refusal_decision, skipped_layers)


def moved_to(instance: DamageInstance, receiver: str | None, amount: Any) -> DamageInstance:
    """The receiver's own instance of damage a redirect moved (500.1g)."""
    return replace(instance, target=receiver, amount=amount, redirected=True)


def explain_instance(board: Board, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset, depth: int = 0) -> list[Step]:
    """The steps of one instance, from the board it met and its outcome."""
    a = board.unit(instance.target)
    s = Steps(depth)
    who = f"{instance.source}'s" if instance.source else "an actorless"
    moved = " (moved damage: it is never redirected again)" if instance.redirected else ""
    s.say("incoming", "500.1", f"{who} {instance.kind} of {instance.amount} at {a.uid}{moved}.",
          target=a.uid, source=instance.source, kind=instance.kind, amount=instance.amount)
    if not explain_gates(s, a, instance, out, ruleset, board):
        return s.items
    if out.interceptor_outcome is not None and out.intercepted:
        s.items.extend(explain_instance(board, moved_to(instance, a.intercept_by, out.amount), out.interceptor_outcome,
                                        ruleset, depth + 1))
        return s.items
    if out.ignored:
        s.say("ignore_charge", "500.1-4", f"{a.uid} spends a damage-ignore charge ({a.ignore_charges} -> "
              f"{a.ignore_charges - 1}): the instance is discarded.", ("ignore_charge_spent",),
              touches=(f"{a.uid}.ignore_charges",),
              before=a.ignore_charges, after=a.ignore_charges - 1)
        return s.items
    explain_armor(s, a, instance, out, ruleset)
    explain_layers(s, board, a, instance, out, ruleset)
    return s.items


def explain_gates(s: Steps, a: Unit, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset, board: Board) -> bool:
    """The tick adjustment and the gates (500.1h, 500.1-1..3, 500.1f); whether the instance goes on."""
    if instance.amount <= 0:
        s.say("gate", "500.1-3", "the amount is 0 or less: nothing happens.", amount=instance.amount)
        return False
    if is_damage_over_time(instance.kind) and not instance.redirected:
        s.say("tick", "500.1h", tick_text(a, instance.amount, out.amount), before=instance.amount, after=out.amount)
        if out.tick_prevented:
            s.say("tick", "500.1h", "the tick was reduced to 0 or less: it never enters the pipeline.", ("tick_prevented",))
            return False
    if not a.alive:
        s.say("gate", "500.1-3", f"{a.uid} is already dead: nothing happens.")
        return False
    if out.amount <= 0:
        s.say("gate", "500.1-3", "the amount is 0 or less: nothing happens.", amount=out.amount)
        return False
    if a.discards_combat:
        s.say("gate", "500.1-1", f"{a.uid} is a {'Tool' if a.is_tool else 'Hub'}: the damage is discarded.", ("damage_discarded",))
        return False
    if out.discarded:
        s.say("gate", "500.1-2", f"{a.uid} is Dormant and the source does not allow it: the damage is discarded.",
              ("damage_discarded",))
        return False
    if a.dormant:
        reason = "a damage-over-time tick reaches it (500.1i)" if is_damage_over_time(instance.kind) else "the source allows it"
        s.say("gate", "500.1-2", f"{a.uid} is Dormant, but {reason}.", decides=True)
    if out.interceptor_outcome is not None:
        test = "would kill it through steps 4-13" if ruleset.lethal_redirect_test == "would_kill" else "is at least its Vitality"
        tests = lethal_test_decisions(board, a, instance, ruleset)
        if out.intercepted:
            s.say("lethal_redirect", "500.1f", f"the hit {test} ({a.vitality} Vitality): all {out.amount} moves to the "
                  f"interceptor {a.intercept_by} before mitigation, as its own instance (500.1g).", ("lethal_redirect",),
                  also_takes=tests, moved=out.amount, interceptor=a.intercept_by)
        else:
            s.say("lethal_redirect", "500.1f", f"a lethal redirect to {a.intercept_by} is armed, but it does not apply: "
                  f"the hit is not lethal (the test: it {test}) or {a.intercept_by} cannot take it.", also_takes=tests)
    return True


#: The clauses of steps 4-13 of the pipeline, which the lethal test runs (500.1f).
TESTED_CLAUSES = tuple(f"combat:500.1-{n}" for n in range(4, 14))


def lethal_test_decisions(board: Board, a: Unit, instance: DamageInstance, ruleset: Ruleset) -> tuple[str, ...]:
    """The decisions the lethal test takes when it asks whether the hit would kill through steps 4-13 (500.1f): the
    recipient's own steps 4-13 for the hit with no redirect or intercept armed; none for the raw-amount test (INT-006).
    A lethal redirect that fires or not because Armor, a layer or the defy-death rune was met wrongly is that
    decision's bug, taken inside the test."""
    from referee.model.combat.damage import resolve_damage

    if ruleset.lethal_redirect_test != "would_kill":
        return ()
    alone = board.with_unit(a.evolve(intercept_by=None, redirect_to=None, redirect_cap=0))
    _, _, out = resolve_damage(alone, instance, ruleset)
    steps = explain_instance(alone, instance, out, ruleset)
    return tuple(dict.fromkeys(step.taken() for step in steps if step.depth == 0 and step.clause in TESTED_CLAUSES))


def explain_armor(s: Steps, a: Unit, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset) -> None:
    """500.1-5 and 500.1-6: the exact value before 500.2c rounds it, then the flat reduction."""
    if is_ignoring_armor(instance):
        if a.armor != 0:
            why, rule = (("a Reflect skips the attacker's Armor (500.7j)", "combat:500.7j") if instance.kind == "reflect"
                         else ("Burn and Venom ignore Armor (500.1d)", "combat:500.1d"))
            unskipped = apply_armor_flat(apply_armor_percentage(out.amount, a.armor, ruleset), a.armor)
            s.say("armor_percentage", "500.1-5", f"{why}: Armor {a.armor} is not applied; {out.after_armor} goes on "
                  f"(Armor applied would have made it {unskipped}).", decides=True, decision=f"armor_skipped[{rule}]",
                  before=out.amount, after=out.after_armor, unskipped=unskipped)
        return
    if a.armor == 0:
        return
    rounded = apply_armor_percentage(out.amount, a.armor, ruleset)
    value, exact, formula = surviving_value(out.amount, a.armor, ruleset)
    shown = value_text(value, exact)
    if a.armor > 0:
        flat = compute_flat_reduction(a.armor)
        first = " first, before the flat reduction (500.2a, 500.2b)" if flat else " (500.2a)"
        s.say("armor_percentage", "500.1-5", f"Armor {a.armor}: sqrt(A)/(sqrt(A)+20) is taken off{first}: {formula} = "
              f"{shown}, rounded up against the defender (500.2c): {out.amount} -> {rounded}.",
              decision="armor_percentage[combat:500.2c]", before=out.amount, exact=value if exact else shown, after=rounded, armor=a.armor)
        s.say("armor_flat", "500.1-6", f"flat reduction {flat} (1 per 5 Armor, 500.2b): {rounded} -> {out.after_armor}.",
              decision="armor_flat[combat:500.2b]", before=rounded, reduction=flat, after=out.after_armor)
    else:
        s.say("armor_percentage", "500.1-5", f"negative Armor {a.armor} amplifies (500.2d; {ruleset.negative_armor} reading, "
              f"INT-001): {formula} = {shown}, rounded up: {out.amount} -> {rounded}; no flat change.",
              decision="negative_armor[combat:500.2d]", before=out.amount, exact=value if exact else shown, after=rounded,
              armor=a.armor)


#: The one rule that decides how many Insurance points a hit spends and what they absorb, Subrogated or plain:
#: up to 25 each, spent whole (500.1a). The fault key's name for both layers' numbers (``Step.decision``).
POINTS_SPENT = "points[combat:500.1a]"


def explain_layers(s: Steps, board: Board, a: Unit, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset) -> None:
    """500.1-7 .. 500.1-13 and the credit (500.5a), each layer only when the recipient has it."""
    left = out.after_armor
    if a.has_cap:
        reordered = apply_armor(a, instance, apply_incoming_cap(a, out.amount), ruleset)
        order = (f" (the cap comes after Armor: met before it, it would have left {reordered})"
                 if reordered != out.after_cap else "")
        s.say("cap", "500.1-7", f"the printed cap of {a.cap} leaves {out.after_cap}; anything above it is gone{order}.",
              before=left, cap=a.cap, after=out.after_cap, **({"reordered": reordered} if order else {}))
    left = out.after_cap
    left = explain_insurance(s, board, a, instance, out, left)
    explain_shield(s, board, a, instance, out, left)
    left -= out.shield_absorbed
    if out.receiver_outcome is not None and out.redirected:
        s.say("redirect", "500.1-11", f"the ally redirect (cap {a.redirect_cap}) moves {out.redirected} to {a.redirect_to}, "
              f"as its own instance (500.1g): {left} -> {left - out.redirected}.", ("redirect",),
              before=left, moved=out.redirected, after=left - out.redirected)
        s.items.extend(explain_instance(board, moved_to(instance, a.redirect_to, out.redirected), out.receiver_outcome,
                                        ruleset, s.depth + 1))
    left -= out.redirected
    if out.defied:
        s.say("defy_death", "500.1-12", f"{left} would be lethal: the defy-death rune prevents {out.defy_prevented} "
              f"and its once-per-life charge is spent: {left} -> {left - out.defy_prevented}.", ("defy_death",),
              touches=defy_fields(a.uid), decision=DEFY_SPENT, before=left, prevented=out.defy_prevented,
              after=left - out.defy_prevented)
        left -= out.defy_prevented
    explain_vitality(s, a, instance, out, left, ruleset, board)


def explain_insurance(s: Steps, board: Board, a: Unit, instance: DamageInstance, out: DamageOutcome, left: int) -> int:
    """500.1-8, 500.1-9: Subrogated, then plain Insurance points (500.1a), and their credit to nobody (500.1b);
    what goes on past them."""
    if a.subrogated > 0 and left > 0:
        s.say("subrogated", "500.1-8", f"{out.subrogated_spent} Subrogated Insurance point(s) of {a.subrogated} absorb "
              f"{out.subrogated_absorbed} (up to 25 each, spent whole, 500.1a): {left} -> {left - out.subrogated_absorbed}.",
              ("insurance_prevented",), decision=POINTS_SPENT, before=left, points=out.subrogated_spent,
              absorbed=out.subrogated_absorbed, after=left - out.subrogated_absorbed)
        explain_payback(s, board, a, instance, out)
        left -= out.subrogated_absorbed
    if a.insurance > 0 and left > 0:
        s.say("insurance", "500.1-9", f"{out.insurance_spent} plain Insurance point(s) of {a.insurance} absorb "
              f"{out.insurance_absorbed} (up to 25 each, spent whole, 500.1a) from what the Subrogated points did not: {left} -> "
              f"{left - out.insurance_absorbed}; plain points retaliate for nothing (500.7g).", ("insurance_prevented",),
              decision=POINTS_SPENT, before=left, points=out.insurance_spent, absorbed=out.insurance_absorbed,
              after=left - out.insurance_absorbed)
        left -= out.insurance_absorbed
    absorbed = out.subrogated_absorbed + out.insurance_absorbed
    if absorbed:
        s.say("insurance_credit", "500.1b", f"the {absorbed} damage Insurance absorbed is credited to nobody: it scores "
              f"{instance.source or 'nobody'} nothing and feeds no Feast.", absorbed=absorbed)
    return left


def explain_payback(s: Steps, board: Board, a: Unit, instance: DamageInstance, out: DamageOutcome) -> None:
    """The Subrogated payback: the source pays, as a Vitality cost, what the points absorbed (500.1-8, 500.7g, 500.6f)."""
    source = board.unit(instance.source) if board.has(instance.source) else None
    if source is None or not out.subrogated_absorbed:
        return
    if source.side == a.side:
        who = "itself" if source.uid == a.uid else f"{a.uid}'s ally"
        s.say("payback", "500.6h", f"{source.uid} is {who}: Subrogated Insurance never retaliates against itself or an "
              "ally (500.6h), so nothing is paid back.", absent=("subrogation", "cost_refused", "defy_death"),
              decision=SIDE_RULE, placed=PAYBACK_PLACED, payer=source.uid, owed=0)
        return
    paid = out.subrogation_paid
    defied = is_defied(source, out.subrogated_absorbed, "retaliation") is True and source.alive is True
    if not paid and not defied:
        refused = "dead" if not source.alive else "entrapped" if source.entrapped else "dormant"
        s.say("payback", "500.6e", f"{source.uid} owes {out.subrogated_absorbed} back but is not a legal payer "
              "(dead, Entrapped or Dormant): nothing is paid.", ("cost_refused",), decision=refusal_decision(refused),
              placed=PAYBACK_PLACED)
        return
    feast = ("feeds no Feast (the payer is a boss, which checks its Phasebreak instead, 500.6g)" if source.is_boss
             else f"feeds {a.uid}'s Feast")
    owed = out.subrogated_absorbed
    what = "what the Subrogated points absorbed" if paid == owed else f"of the {owed} the Subrogated points absorbed"
    s.say("payback", "500.7g", f"{source.uid} loses {paid} Vitality, {what}, as a Vitality "
          f"cost: it skips the pipeline (500.8a) and starts no damage reactions (500.6b) ({source.vitality} -> "
          f"{source.vitality - paid}).", ("subrogation",), also_takes=(SKIPS_PIPELINE,) if skipped_layers(source) else (),
          keeps_layers=layer_fields(source), placed=PAYBACK_PLACED,
          payer=source.uid, owed=owed, paid=paid, before=source.vitality, after=source.vitality - paid)
    if defied:
        s.say("defy_death", "500.6d", f"the payback would be lethal and retaliation opts in: a defy-death rune saves "
              f"{source.uid}: of the {owed} asked it prevents {owed - paid}, so {source.uid} pays {paid} and survives "
              "(500.6d, 500.8f).", ("defy_death",), touches=defy_fields(source.uid), decision=DEFY_SPENT,
              prevented=owed - paid, paid=paid)
    if not paid:
        return
    s.say("payback_credit", "500.6f", f"{a.uid}, the retaliating unit, is credited the {paid} Vitality it took; it {feast}.",
          ("credit", "feast", "phasebreak_check", *LOSS_TAIL), credited=paid)


def explain_shield(s: Steps, board: Board, a: Unit, instance: DamageInstance, out: DamageOutcome, left: int) -> None:
    """500.1-10: Shield absorbs what remains, drained by the source's multiplier."""
    if a.shield <= 0:
        return
    if left <= 0:
        s.say("shield", "500.1-10", f"Shield {a.shield} is not met: the layers before it (Subrogated Insurance 500.1-8, "
              "plain Insurance 500.1-9) left nothing; Shield absorbs only what remains (500.1-10).",
              absent=("shield_damaged", "shield_broken"), before=0, pool_before=a.shield, pool_after=a.shield)
        return
    source = board.unit(instance.source) if board.has(instance.source) else None
    multiplier = compute_multiplier(source.shield_multiplier) if source is not None else 1
    pool = a.shield - out.shield_drained
    drain = f", each point of damage draining {multiplier}" if multiplier != 1 else ""
    broken = ", and it breaks" if pool <= 0 else ""
    s.say("shield", "500.1-10", f"Shield {a.shield} absorbs {out.shield_absorbed}{drain} (pool {a.shield} -> {pool}"
          f"{broken}): {left} -> {left - out.shield_absorbed}.", ("shield_damaged", "shield_broken"),
          before=left, absorbed=out.shield_absorbed, multiplier=multiplier, drained=out.shield_drained,
          pool_before=a.shield, pool_after=pool, after=left - out.shield_absorbed)


def explain_vitality(s: Steps, a: Unit, instance: DamageInstance, out: DamageOutcome, left: Any = None,
                     ruleset: Ruleset | None = None, board: Board | None = None) -> None:
    """500.1-13 and the credit of 500.5a (a shared tick's split: 500.5b, 500.5c); a remainder above the Vitality
    takes only what is there (500.8b). ``board``: whose damage is friendly (INT-357)."""
    lost = out.vitality_lost
    died = "; it dies (500.4a)" if out.died else ""
    clamp = (f"the remainder {left} is more than its {a.vitality} Vitality: it loses what it has, never more, and "
             "Vitality never goes below 0 (500.1-13, 500.8b); " if left is not None and left > a.vitality else "")
    s.say("vitality", "500.1-13", f"{clamp}{a.uid} loses {lost} Vitality ({a.vitality} -> {a.vitality - lost}){died}.",
          ("damage_taken", *LOSS_TAIL), lost=lost, before=a.vitality, after=a.vitality - lost,
          died=bool(out.died))
    credited = out.shield_absorbed + lost
    if compute_applied(instance) and credited > 0:
        explain_tick_split(s, instance, out.shield_absorbed, lost, ruleset or DEFAULT, board, a.uid)
    elif instance.source is not None and credited > 0 and is_credit_withheld(board, instance.source, a.uid,
                                                                             ruleset or DEFAULT):
        s.say("credit", "500.5a", f"{instance.source} dealt {credited} to {_friend(instance.source, a.uid)}: friendly "
              "damage is credited to nobody and feeds no Feast (friendly_damage_credit = enemies_only, INT-357).",
              absent=("credit", "feast"), credited=0, feast=0)
    elif instance.source is not None and credited > 0 and is_dead_source_withheld(
            source_at_credit(board, instance, out), instance.source, instance.kind, ruleset or DEFAULT):
        s.say("credit", "500.5d", f"{instance.source} is dead as its {instance.kind} lands: it keeps the kill alone, "
              "credited no damage and fed no Feast (dead_source_credit = kill_only, INT-355).",
              absent=("credit", "feast"), credited=0, feast=0)
    elif instance.source is not None and credited > 0 and is_feast_withheld_from_boss(board, a.uid, ruleset or DEFAULT):
        s.say("credit", "500.5a", f"{instance.source} is credited {credited} ({absorbed_text(out.shield_absorbed)}"
              f"Vitality {lost}); {BOSS_NO_FEAST}.", ("credit", *LOSS_TAIL), absent=("feast",), credited=credited, feast=0)
    elif instance.source is not None and credited > 0:
        s.say("credit", "500.5a", f"{instance.source} is credited {credited} ({absorbed_text(out.shield_absorbed)}"
              f"Vitality {lost}); Feast {lost}, the Vitality portion only (500.1e, 500.5c; INT-019).",
              ("credit", "feast", *LOSS_TAIL),
              credited=credited, feast=lost)
    elif instance.source is not None:
        s.say("credit", "500.5a", f"nothing reached Shield or Vitality: {instance.source} is credited nothing and feeds no "
              "Feast (500.5a, 500.1e).", absent=("credit", "feast"), credited=0, feast=0)
    explain_boss_meters(s, a, instance, out, ruleset or DEFAULT)


def explain_boss_meters(s: Steps, a: Unit, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset) -> None:
    """Damage into a boss checks Phasebreak on the Vitality lost; direct damage advances Stagger by what it dealt
    (500.6g, INT-401), as :func:`~referee.model.combat.damage.process_boss_meters` emits them, before the loss tail."""
    if not a.is_boss:
        return
    lost, dealt = out.vitality_lost, out.shield_absorbed + out.vitality_lost
    staggers = is_direct_damage(instance, ruleset) and dealt > 0
    if not lost and not staggers:
        return
    check = f"the {lost} Vitality lost checks its Phasebreak" if lost else "no Vitality lost: no Phasebreak check"
    stagger = (f"; direct damage advances its Stagger by the {dealt} dealt" if staggers else
               f"; a {instance.kind} instance does not advance Stagger (stagger_lanes = {ruleset.stagger_lanes})")
    s.say("boss_meters", "500.6g", f"{a.uid} is a boss: {check}{stagger} (500.6g, INT-401).",
          ("phasebreak_check", "stagger", *LOSS_TAIL), phasebreak=lost, stagger=dealt if staggers else 0)


def absorbed_text(absorbed: Any) -> str:
    """The Shield part of a credit, with the clause that made it (500.1-10); nothing when Shield took none."""
    return f"Shield absorbed {absorbed} (500.1-10) + " if absorbed else "Shield absorbed 0 + "


#: Vitality a damage instance takes from a boss, under ``boss_feast_exclusion = all_boss_vitality`` (INT-123).
BOSS_NO_FEAST = ("no Feast: Vitality taken from a boss feeds none, whatever took it (boss_feast_exclusion = "
                 "all_boss_vitality, 500.6f, INT-123)")


def source_at_credit(board: Board | None, instance: DamageInstance, out: DamageOutcome) -> Board | None:
    """The board with the source as the credit step meets it (INT-355): dead already, or killed by the Subrogated
    payback of this very instance (500.1-8, paid before Vitality is reduced) with no Vessel to revive it (500.9b)."""
    if board is None or not board.has(instance.source):
        return board
    source = board.unit(instance.source)
    killed = source.alive and 0 < out.subrogation_paid and source.vitality <= out.subrogation_paid
    revived = source.vessels > 0 and source.max_vitality > 0
    return board.with_unit(replace(source, alive=False)) if killed and not revived else board


def _friend(uid: str, recipient: str) -> str:
    return "itself" if uid == recipient else f"its ally {recipient}"


def explain_tick_split(s: Steps, instance: DamageInstance, absorbed: Any, lost: Any, ruleset: Ruleset,
                       board: Board | None = None, recipient: str | None = None) -> None:
    """A tick's credit divided by what each applier applied (500.5b, INT-351), then its Feast from the Vitality
    portion alone by the same shares (500.5c, INT-352), as :func:`~referee.model.combat.attribution.process_credit`;
    a friendly applier's share credited to nobody under ``enemies_only`` (INT-357)."""
    shares = compute_credited(instance)
    withheld = [uid for uid, _ in shares if recipient is not None and is_credit_withheld(board, uid, recipient, ruleset)]
    weights = tuple(w for _, w in shares)
    credited = absorbed + lost
    credit = compute_shares(credited, weights, ruleset)
    feast = compute_shares(lost, compute_feast_weights(credited, weights, credit, ruleset), ruleset)
    whole = sum(weights)
    exact = ", ".join(f"{uid} {mixed(Fraction(credited * w, whole))}" for uid, w in shares)
    floors = [credited * w // whole for w in weights]
    left = credited - sum(floors)
    rule = ("to the first applier (remainder_to_first)" if ruleset.tick_share_rounding == "remainder_to_first"
            else "one each to the largest remainders, ties to the earlier applier (INT-351)")
    leftover = f"; the {left} point(s) left over go {rule}" if left else ""
    named = ", ".join(f"{uid} {c}" for (uid, _), c in zip(shares, credit))
    applied = ", ".join(f"{uid} {w}" for uid, w in shares)
    s.say("tick_credit", "500.5b", f"the tick's {credited} dealt ({absorbed_text(absorbed)}Vitality {lost}) is divided "
          f"between its appliers in proportion to what each applied ({applied}; 500.5b), exactly, no point lost or made: "
          f"{exact}, floored {', '.join(map(str, floors))}{leftover}: credited {named}{_withheld_text(withheld)}.",
          ("credit",), absent=("credit",) if 0 in credit or withheld else (), credited=credited,
          shares=dict(zip((u for u, _ in shares), credit)))
    by = ("what each applied" if ruleset.tick_feast_shares == "of_applied" else "the same credit shares")
    fed = ", ".join(f"{uid} {f}" for (uid, _), f in zip(shares, feast))
    boss = recipient is not None and is_feast_withheld_from_boss(board, recipient, ruleset)
    fed = f"{fed} by the shares, but {BOSS_NO_FEAST}" if boss else fed
    s.say("tick_feast", "500.5c", f"Feast uses only the Vitality portion of the tick, {lost} (the {absorbed} absorbed "
          f"never feeds it), divided by {by} (500.5c, INT-352): Feast {fed}{_withheld_text(withheld)}.",
          ("feast", *LOSS_TAIL), absent=("feast",) if boss or withheld or any(f < c for f, c in zip(feast, credit)) else (),
          feast=lost,
          fed=dict(zip((u for u, _ in shares), feast)))


def _withheld_text(withheld: list[str]) -> str:
    """The appliers whose share of a tick on an ally or themselves is credited to nobody (INT-357)."""
    if not withheld:
        return ""
    return (f"; {', '.join(withheld)}'s share is friendly damage, credited to nobody and feeding no Feast "
            "(friendly_damage_credit = enemies_only, INT-357)")


def tick_text(a: Unit, raw: int, adjusted: int) -> str:
    parts = [f"tick of {raw}"]
    if a.prismbroken:
        parts.append(f"Prismbreak +50% rounded up -> {-((-3 * raw) // 2)}")
    if a.rune_tick_reduction:
        parts.append(f"rune reduction -{a.rune_tick_reduction}")
    if a.forge_tick_reduction:
        parts.append(f"Forge Core reduction -{a.forge_tick_reduction}")
    return ", ".join(parts) + f": {adjusted} enters."
