"""What answers a hit (500.6, 500.7): Thorns, Riposte, Retort as Vitality costs, and a boss Reflect as damage.

The answers are run through the model's own functions in the model's order
(:func:`~referee.model.combat.retaliation.process_answer_attacker` for each attacker, then the
Reflect), each on a fresh event log so that each cost can be explained from what it emitted.
A mechanic nobody on the board has is not mentioned.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from referee.model.combat import retaliation
from referee.model.combat.damage import DamageInstance, DamageOutcome, resolve_damage
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import Event, EventLog

from .damage import explain_instance
from .steps import (DEFY_SPENT, LOSS_TAIL, SKIPS_PIPELINE, Step, Steps, defy_fields, layer_fields, mixed,
                    refusal_decision)

COST_CHANNELS = {"thorns": ("Thorns", "500.7b"), "riposte": ("Riposte", "500.7b"), "retort": ("Retort", "500.7f")}


def explain_hit(board: Board, instance: DamageInstance, ruleset: Ruleset, depth: int = 0) -> tuple[Board, EventLog, list[Step]]:
    """A hit: the instance's waterfall, then what answers it; the board after all of it, its events, the steps."""
    after, log, outcome = resolve_damage(board, instance, ruleset)
    steps = explain_instance(board, instance, outcome, ruleset, depth)
    after, answer_steps = explain_answers(after, instance, outcome, log, ruleset, depth)
    return after, log, steps + answer_steps


def explain_answers(
    board: Board, instance: DamageInstance, outcome: DamageOutcome, log: EventLog, ruleset: Ruleset, depth: int
) -> tuple[Board, list[Step]]:
    """Each recipient's answers to each attacker, then its Reflect, as :func:`retaliation.process_retaliation` runs them."""
    s = Steps(depth)
    if instance.kind == "reflect":
        return board, []
    rolls = retaliation.RollCursor(tuple(instance.riposte_rolls), 0, f"the damage on {outcome.target}")
    for landed in retaliation.compute_answering_outcomes(outcome):
        recipient = board.unit(landed.target)
        if retaliation.compute_heard_outcome(landed, ruleset) is None:
            explain_silent_carrier(s, recipient)
            continue
        attackers = retaliation.compute_attackers(instance)
        passes = [(kind,) for kind in retaliation.ANSWER_KINDS] \
            if len(attackers) > 1 and ruleset.answer_order == "per_kind" else [retaliation.ANSWER_KINDS]
        for kinds in passes:  # each attacker in turn, or one kind across the attackers at a time (INT-110)
            board = explain_pass(s, board, recipient, attackers, landed, rolls, log, ruleset, kinds, kinds == passes[-1])
        board = explain_reflect(s, board, recipient, instance, landed, log, ruleset)
    return board, s.items


def explain_pass(s: Steps, board: Board, recipient: Unit, attackers: tuple[str, ...], landed: DamageOutcome,
                 rolls: retaliation.RollCursor, log: EventLog, ruleset: Ruleset, kinds: tuple[str, ...],
                 last: bool) -> Board:
    """The answers of ``kinds`` to each attacker in attribution order: all three per attacker (answer_order =
    per_attacker), or one kind at a time (per_kind, INT-110); what did not fire is said in the last pass."""
    for n, attacker in enumerate(attackers, 1):
        if n > 1:
            s.say("applier", "500.7e", f"{recipient.uid} answers {attacker} too: a tick attributed to several "
                  f"enemies is answered once per damaging source (applier {n} of {len(attackers)}).", opens=True,
                  applier=attacker)
        part = EventLog()
        payer = layer_fields(board.unit(attacker)) if board.has(attacker) else ()
        board = retaliation.process_answer_attacker(board, recipient, attacker, landed, rolls, part, ruleset, kinds)
        log.extend(part)
        each = (f" ({attacker} is applier {n} of the {len(attackers)} the tick is attributed to: each is answered once, "
                "500.7e)") if len(attackers) > 1 else ""
        explain_attacker(s, recipient, attacker, landed, part.events(), each, payer, last)
    return board


def explain_silent_carrier(s: Steps, r: Unit) -> None:
    """A carrier the instance killed answers nothing under ``dead_carrier_answers = silent`` (500.4b, INT-116)."""
    held = [name for name, n in (("Thorns", r.thorns), ("Riposte", r.riposte), ("Retort", r.retort)) if n > 0]
    if retaliation.has_reflect(r):
        held.append("Reflect")
    if held:
        s.say("silent_carrier", "500.4b", f"{r.uid} was killed by this instance, so its {', '.join(held)} answer "
              "nothing: a dead unit's runes are gone (dead_carrier_answers = silent, INT-116).",
              absent=("thorns", "riposte", "riposte_missed", "retort", "reflect", "cost_refused"),
              decision="silent_carrier[combat:500.4b]")


def explain_attacker(s: Steps, r: Unit, attacker: str, landed: DamageOutcome, events: tuple[Event, ...],
                     each: str = "", payer_layers: tuple[str, ...] = (), silent: bool = True) -> None:
    """What ``r``'s retaliation did to one attacker, mechanic by mechanic, only for the ones ``r`` has; ``each`` says,
    for a tick attributed to several enemies, that this is one of them (500.7e)."""
    start = len(s.items)
    defied: list[Event] = []  # a defy-death answer is emitted with the price, before the channel it answers
    for e in events:
        if e.name == "defy_death":
            defied.append(e)
        elif e.name in COST_CHANNELS:
            explain_channel(s, r, attacker, e, events, defied, payer_layers)
        elif e.name == "riposte_missed":
            s.say("riposte", "500.7b", f"Riposte on {r.uid} rolls against {attacker} and misses (the 50% roll is False).",
                  ("riposte_missed",), payer=attacker, roll=False)
        elif e.name == "cost_refused":
            clause = "500.6h" if e.detail in ("self", "ally") else "500.6e"
            s.say("retaliation_refused", clause, f"{r.uid}'s retaliation is refused: {attacker} is "
                  f"{'an ally' if e.detail == 'ally' else 'itself' if e.detail == 'self' else e.detail}.", ("cost_refused",),
                  decision=refusal_decision(e.detail), payer=attacker, reason=e.detail)
    for e in defied:  # answered, but nothing left the payer
        explain_defied_payer(s, attacker, e, 0, payer_layers)
    if silent:
        explain_silent_answers(s, r, landed)
    if each:
        s.items[start:] = [replace(step, text=f"{step.text.removesuffix('.')}{each}.") for step in s.items[start:]]


def explain_channel(s: Steps, r: Unit, attacker: str, e: Event, events: tuple[Event, ...], defied: list[Event],
                    payer_layers: tuple[str, ...] = ()) -> None:
    """One retaliation cost paid (Thorns, Riposte, Retort: 500.7b-f), the defy-death answer that priced it, if any
    (500.6d), then its credit and Feast (500.6f): the payback's order (``damage.explain_payback``)."""
    name, clause = COST_CHANNELS[e.name]
    why = "damage that landed" if e.name == "retort" else "the damage event, whatever its size (500.7c)"
    s.say(e.name, clause, f"{name} on {r.uid} answers {why}: {attacker} loses {e.amount} Vitality as a Vitality "
          f"cost; it skips the pipeline (500.8a) and starts no damage reactions (500.6b).", (e.name,),
          also_takes=(SKIPS_PIPELINE,) if payer_layers else (), keeps_layers=payer_layers, payer=attacker, amount=e.amount)
    if defied:
        explain_defied_payer(s, attacker, defied.pop(0), e.amount, payer_layers)
    fed = any(x.name == "feast" and x.unit == r.uid for x in events)
    feast = "it feeds its Feast" if fed else "no Feast: the payer is a boss"
    s.say("retaliation_credit", "500.6f", f"{r.uid} is credited the {e.amount} Vitality it took; {feast}.",
          ("credit", "feast", "phasebreak_check", *LOSS_TAIL), credited=e.amount, feast=e.amount if fed else 0)


def explain_silent_answers(s: Steps, r: Unit, landed: DamageOutcome) -> None:
    """The retaliations ``r`` holds that did not fire: no damage event (500.7d), nothing landed for Retort (500.7f)."""
    event = retaliation.is_answerable_event(landed)
    if r.thorns > 0 and not event:
        s.say("thorns", "500.7d", f"Thorns on {r.uid} does not fire: no damage event (Armor or Shield left nothing).",
              absent=("thorns", "cost_refused"), decision="silenced[combat:500.7d]")
    if r.riposte > 0 and not event:
        s.say("riposte", "500.7d", f"Riposte on {r.uid} does not fire: no damage event.",
              absent=("riposte", "riposte_missed", "cost_refused"), decision="silenced[combat:500.7d]")
    if r.retort > 0 and not retaliation.is_landed(landed):
        s.say("retort", "500.7f", f"Retort on {r.uid} does not answer: it answers only damage that landed on Vitality, "
              "and none did (Armor, Insurance or Shield took it all) (500.7f).", absent=("retort", "cost_refused"))


def explain_defied_payer(s: Steps, attacker: str, defied: Event, paid: int,
                         payer_layers: tuple[str, ...] = ()) -> None:
    """A defy-death rune answers the lethal retaliation it follows: what it prevented, what was still paid (500.6d)."""
    asked = defied.amount + paid
    s.say("defy_death", "500.6d", f"a defy-death rune saves {attacker}, the payer: of the {asked} asked it prevents "
          f"{defied.amount}, so {attacker} pays {paid} and survives (500.6d, 500.8f).", ("defy_death",),
          touches=defy_fields(attacker), decision=DEFY_SPENT, keeps_layers=payer_layers,
          also_takes=(SKIPS_PIPELINE,) if payer_layers else (), prevented=defied.amount, paid=paid)


def explain_reflect(
    s: Steps, board: Board, boss: Unit, instance: DamageInstance, landed: DamageOutcome, log: EventLog, ruleset: Ruleset
) -> Board:
    """A boss Reflect: 5% of what landed, rounded down but at least 1, back as real damage with its own waterfall (500.7h-k)."""
    if not retaliation.has_reflect(boss) or instance.source is None:
        return board
    if not retaliation.is_hostile(board, boss, instance.source):
        return board
    basis = retaliation.compute_reflect_basis(landed, ruleset)
    amount = retaliation.compute_reflect_amount(basis)
    what = "that landed" if ruleset.reflect_basis == "vitality_lost" else \
        "its Shield left, overkill included (reflect_basis = after_shield, INT-111)"
    if amount <= 0:
        s.say("reflect", "500.7i", f"{boss.uid}'s Reflect reads what landed after its own Armor, Shield and Insurance: "
              "nothing landed, so nothing is reflected.", landed=basis, amount=0)
        return board
    exact = mixed(Fraction(retaliation.REFLECT_PERCENT * basis, 100))
    s.say("reflect", "500.7h", f"{boss.uid}'s Reflect sends back 5% of the {basis} {what}: {exact}, "
          f"rounded down but never below 1: {amount}, as real damage at {instance.source} (not a cost). It enters below the Armor steps "
          "(500.7j) and starts no damage reactions (500.7k).", ("reflect",), landed=basis,
          exact=Fraction(retaliation.REFLECT_PERCENT * basis, 100), amount=amount)
    log.emit("reflect", unit=boss.uid, other=instance.source, amount=amount)
    back = DamageInstance(target=instance.source, amount=amount, source=boss.uid, kind="reflect")
    after, step, out = resolve_damage(board, back, ruleset)
    log.extend(step)
    s.extend(explain_instance(board, back, out, ruleset, s.depth + 1))
    return after
