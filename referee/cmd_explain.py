"""``referee explain``: resolve a scenario step by step, citing each clause as it applies (400.8).

The explanation is read off the model's own concrete run: the :class:`DamageOutcome` of
``resolve_damage`` records what each step of 500.1 did (what Armor let through, the points
spent, what Shield absorbed, what moved), so the text cannot drift from the model. Damage
moved by a redirect is explained as the receiver's own instance, indented beneath.

A scenario is the protocol's (``docs/protocol.md``: ``protocol``, ``board``, ``actions``,
optional ``ruleset``) or, for one damage instance, the short form::

    {"board": [{"uid": "a", "armor": 81}, {"uid": "e", "side": 1}],
     "damage": {"target": "a", "amount": 87, "source": "e"}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from referee.model.combat.armor import apply_armor_percentage
from referee.model.combat.damage import DamageInstance, DamageOutcome, is_ignoring_armor, resolve_damage
from referee.model.events import EventLog
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import UNIT_FIELDS, Board, Unit
from referee.model.combat.ticks import is_damage_over_time


@dataclass(frozen=True)
class Step:
    """One applied clause: its id, what it did, and how deep in moved damage it happened."""

    clause: str
    text: str
    depth: int = 0

    def line(self) -> str:
        return f"{'    ' * self.depth}[{self.clause}] {self.text}"


# --------------------------------------------------------------------------------------
# Explaining one damage instance from its outcome
# --------------------------------------------------------------------------------------


def explain_damage(board: Board, instance: DamageInstance, ruleset: Ruleset) -> tuple[Board, EventLog, list[Step]]:
    """Resolve the instance through the model and say, clause by clause, what happened."""
    after, log, outcome = resolve_damage(board, instance, ruleset)
    return after, log, explain_outcome(board, instance, outcome, ruleset, 0)


def explain_outcome(board: Board, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset, depth: int) -> list[Step]:
    """The steps of one instance, from the board it met and its outcome."""
    a = board.unit(instance.target)
    steps: list[Step] = []

    def say(clause: str, text: str) -> None:
        steps.append(Step(f"combat:{clause}", text, depth))

    who = f"{instance.source}'s" if instance.source else "an actorless"
    moved = " (moved damage: it is never redirected again)" if instance.redirected else ""
    say("500.1", f"{who} {instance.kind} of {instance.amount} at {a.uid}{moved}.")
    if instance.amount <= 0:
        say("500.1-3", "the amount is 0 or less: nothing happens.")
        return steps
    if is_damage_over_time(instance.kind) and not instance.redirected:
        say("500.1h", tick_text(a, instance.amount, out.amount))
        if out.tick_prevented:
            say("500.1h", "the tick was reduced to 0 or less: it never enters the pipeline.")
            return steps
    if not a.alive:
        say("500.1-3", f"{a.uid} is already dead: nothing happens.")
        return steps
    if out.amount <= 0:
        say("500.1-3", "the amount is 0 or less: nothing happens.")
        return steps
    if a.discards_combat:
        say("500.1-1", f"{a.uid} is a {'Tool' if a.is_tool else 'Hub'}: the damage is discarded.")
        return steps
    if out.discarded:
        say("500.1-2", f"{a.uid} is Dormant and the source does not allow it: the damage is discarded.")
        return steps
    if a.dormant:
        reason = "a damage-over-time tick reaches it (500.1i)" if is_damage_over_time(instance.kind) else "the source allows it"
        say("500.1-2", f"{a.uid} is Dormant, but {reason}.")
    if out.interceptor_outcome is not None:
        test = "would kill it through steps 4-13" if ruleset.lethal_redirect_test == "would_kill" else "is at least its Vitality"
        if out.intercepted:
            say("500.1f", f"the hit {test} ({a.vitality} Vitality): all {out.amount} moves to the interceptor "
                          f"{a.intercept_by} before mitigation, as its own instance (500.1g).")
            steps.extend(explain_outcome(board, moved_to(instance, a.intercept_by, out.amount), out.interceptor_outcome,
                                         ruleset, depth + 1))
            return steps
        say("500.1f", f"a lethal redirect to {a.intercept_by} is armed, but it does not apply: the hit is not lethal "
                      f"(the test: it {test}) or {a.intercept_by} cannot take it.")
    if out.ignored:
        say("500.1-4", f"{a.uid} spends a damage-ignore charge ({a.ignore_charges} -> {a.ignore_charges - 1}): "
                       "the instance is discarded.")
        return steps
    steps.extend(explain_armor(a, instance, out, ruleset, say))
    if a.has_cap:
        say("500.1-7", f"the printed cap of {a.cap} leaves {out.after_cap}; anything above it is gone.")
    if out.subrogated_spent:
        say("500.1-8", f"{out.subrogated_spent} Subrogated Insurance point(s) absorb {out.subrogated_absorbed} "
                       "(up to 25 each, spent whole, 500.1a).")
        if out.subrogation_paid:
            say("500.7g", f"the source {instance.source} loses {out.subrogation_paid} Vitality as a cost (500.6a).")
    if out.insurance_spent:
        say("500.1-9", f"{out.insurance_spent} plain Insurance point(s) absorb {out.insurance_absorbed}.")
    if out.subrogated_spent or out.insurance_spent:
        say("500.1b", "damage absorbed by Insurance is credited to nobody.")
    if out.shield_drained:
        left = a.shield - out.shield_drained
        broken = ", and it breaks" if left <= 0 else ""
        say("500.1-10", f"Shield absorbs {out.shield_absorbed}, draining {out.shield_drained} "
                        f"({a.shield} -> {left}){broken}.")
    if out.receiver_outcome is not None and out.redirected:
        say("500.1-11", f"the ally redirect moves {out.redirected} to {a.redirect_to}, as its own instance (500.1g).")
        steps.extend(explain_outcome(board, moved_to(instance, a.redirect_to, out.redirected), out.receiver_outcome,
                                     ruleset, depth + 1))
    if out.defied:
        say("500.1-12", f"the remainder would be lethal: the defy-death rune prevents {out.defy_prevented} "
                        "and its once-per-life charge is spent.")
    if out.vitality_lost:
        died = "; it dies (500.4)" if out.died else ""
        say("500.1-13", f"{a.uid} loses {out.vitality_lost} Vitality ({a.vitality} -> {a.vitality - out.vitality_lost}){died}.")
    else:
        say("500.1-13", f"{a.uid} loses no Vitality.")
    if instance.source is not None and out.shield_absorbed + out.vitality_lost > 0:
        say("500.5a", f"{instance.source} is credited {out.shield_absorbed + out.vitality_lost}; "
                      f"Feast {out.vitality_lost} (the Vitality portion only, 500.1e).")
    event = "a damage event" if out.damage_event else "no damage event"
    say("500.7c", f"this is {event} for Thorns and Riposte; Retort {'answers' if out.landed else 'does not answer'} "
                  "(500.7f).")
    return steps


def explain_armor(a: Unit, instance: DamageInstance, out: DamageOutcome, ruleset: Ruleset, say: Any) -> list[Step]:
    if is_ignoring_armor(instance):
        why = "a Reflect skips the attacker's Armor (500.7j)" if instance.kind == "reflect" else "Burn and Venom ignore Armor (500.1d)"
        say("500.1-5", f"{why}: {out.after_armor} goes on.")
        return []
    if a.armor == 0:
        say("500.1-5", "no Armor: nothing is reduced.")
        return []
    percentage = apply_armor_percentage(out.amount, a.armor, ruleset)
    if a.armor > 0:
        say("500.1-5", f"Armor {a.armor}: sqrt(A)/(sqrt(A)+20) is taken off (500.2a), rounded against the defender "
                       f"(500.2c): {out.amount} -> {percentage}.")
        say("500.1-6", f"flat reduction {a.armor // 5} (1 per 5 Armor, 500.2b): {percentage} -> {out.after_armor}.")
    else:
        say("500.1-5", f"negative Armor {a.armor} amplifies (500.2d) ({ruleset.negative_armor} reading, INT-001), "
                      f"rounded up: {out.amount} -> {percentage}; no flat change.")
    return []


def tick_text(a: Unit, raw: int, adjusted: int) -> str:
    parts = [f"tick of {raw}"]
    if a.prismbroken:
        parts.append(f"Prismbreak +50% rounded up -> {-((-3 * raw) // 2)}")
    if a.rune_tick_reduction:
        parts.append(f"rune reduction -{a.rune_tick_reduction}")
    if a.forge_tick_reduction:
        parts.append(f"Forge Core reduction -{a.forge_tick_reduction}")
    return ", ".join(parts) + f": {adjusted} enters."


def moved_to(instance: DamageInstance, receiver: str | None, amount: Any) -> DamageInstance:
    from dataclasses import replace

    return replace(instance, target=receiver, amount=amount, redirected=True)


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


def load_scenario(path: Path) -> tuple[Board, Ruleset, list[dict[str, Any]]]:
    """The board, ruleset and decoded actions of a scenario file; errors name the place."""
    from referee.protocol import PROTOCOL, decode_scenario

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"{path}: cannot read: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON: {error}") from None
    if isinstance(data, dict) and "damage" in data and "actions" not in data:
        damage = data.get("damage")
        if not isinstance(damage, dict):
            raise ValueError(f"{path}: scenario.damage: expected an object")
        damage = dict(damage)
        if "kind" in damage:
            damage["damage_kind"] = damage.pop("kind")
        data = {**{k: v for k, v in data.items() if k != "damage"}, "protocol": PROTOCOL,
                "actions": [{"kind": "damage", **damage}]}
    scenario = decode_scenario(data)
    return scenario.board, scenario.ruleset, list(scenario.actions)


def instance_of(action: dict[str, Any]) -> DamageInstance:
    return DamageInstance(
        target=action["target"], amount=action["amount"], source=action.get("source"),
        kind=action.get("damage_kind", "hit"), allows_dormant=action.get("allows_dormant", False),
        riposte_rolls=tuple(action.get("riposte_rolls", ())),
    )


def explain_scenario(board: Board, ruleset: Ruleset, actions: list[dict[str, Any]]) -> tuple[Board, list[str]]:
    """Every action in order: damage explained step by step, other actions by their events."""
    from referee.actions import ACTION_KINDS

    lines: list[str] = []
    for number, action in enumerate(actions, 1):
        lines.append(f"action {number}: {action['kind']}")
        before = board
        if action["kind"] in ("damage", "hit"):
            board, log, steps = explain_damage(board, instance_of(action), ruleset)
            lines.extend("  " + step.line() for step in steps)
            if action["kind"] == "hit":
                board, log = ACTION_KINDS["hit"].run(before, action, ruleset)
                lines.append("  [combat:500.6] what answers the hit (retaliation, Reflect) is in the events below.")
        else:
            board, log = ACTION_KINDS[action["kind"]].run(board, action, ruleset)
            lines.append("  (not explained step by step yet: its events follow)")
        lines.append("  events:")
        lines.extend(f"    {describe_event(e)}" for e in log.events())
        lines.extend(f"  {change}" for change in changes(before, board))
    return board, lines


def describe_event(e: Any) -> str:
    parts = [e.name] + [f"{k}={v}" for k, v in (("unit", e.unit), ("amount", e.amount), ("other", e.other), ("detail", e.detail))
                        if v not in (None, 0) or (k == "amount" and e.name not in _NO_AMOUNT and v == 0)]
    return " ".join(parts)


_NO_AMOUNT = {"threshold_reevaluated", "rune_reset", "death", "macabre", "deathrattle", "shield_broken",
              "ignore_charge_spent", "vessel_revival", "everlasting_scheduled"}


def changes(before: Board, after: Board) -> list[str]:
    out = []
    for old in before.units:
        new = after.unit(old.uid)
        diffs = [f"{f} {getattr(old, f)} -> {getattr(new, f)}" for f in UNIT_FIELDS if getattr(old, f) != getattr(new, f)]
        if diffs:
            out.append(f"{old.uid}: " + ", ".join(diffs))
    return out


def register(app: typer.Typer) -> None:
    @app.command("explain")
    def explain_command(
        scenario: Path = typer.Argument(..., help="a scenario JSON file (the protocol's, or {board, damage, ruleset})"),
    ) -> None:
        """Resolve a scenario step by step, citing each clause as it applies (the method of 400.8)."""
        try:
            board, ruleset, actions = load_scenario(scenario)
        except ValueError as error:
            typer.echo(f"referee explain: {error}", err=True)
            raise typer.Exit(2) from None
        try:
            _, lines = explain_scenario(board, ruleset, actions)
        except ValueError as error:  # a scenario the model refuses (a Riposte roll missing, ...)
            typer.echo(f"referee explain: {scenario}: {error}", err=True)
            raise typer.Exit(2) from None
        typer.echo("\n".join(lines))
