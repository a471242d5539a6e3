"""500.6, 500.7 Retaliation: the enemy that damaged you loses Vitality, and the boss Reflect rune.

Thorns, Riposte, Retort and Subrogated Insurance are one mechanic: a Vitality cost paid by
the damaging enemy (500.6a), through :func:`~referee.model.combat.costs.pay_vitality_cost` with the
``retaliation`` kind, which refuses dead, Entrapped and Dormant payers (500.6e), the
retaliator itself and its allies (500.6h), lets defy-death answer (500.6d), credits the
retaliator with Feast except against a boss (500.6f) and checks a boss's Phasebreak but
never its Stagger (500.6g). Subrogated Insurance is paid inside the pipeline, at step
500.1-8, for exactly what its points absorbed (500.7g); the others answer here, after the
instance has resolved.

What each answers (500.7a-f): Thorns and Riposte answer every damage event (an Insurance
point spent, or damage left after Shield), whatever its size; Retort only damage that
landed on Vitality. Each answers once per damaging source per event, so a tick attributed
to several enemies answers each of them (500.7e). Riposte's 50% roll is an input of the
scenario, consumed in order, one per event and attacker (500.7b).

The boss Reflect rune is not retaliation (500.7h-l): it is a real damage instance of 5%
of what landed on the boss, rounded down but at least 1, that enters the attacker's
pipeline below the Armor steps and starts no damage reactions.

Worked example: an enemy hits a unit with Thorns 3, Riposte 2 and Retort 4 for 30, and
an Insurance point swallows it all. A damage event happened but nothing landed: the
attacker pays Thorns 3, Riposte 2 if its roll is ``True``, and no Retort (500.7c, 500.7f).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..arith import and_, floordiv, is_symbolic, ite, max_, not_, or_
from ..clauses import combat
from .attribution import compute_applied
from .costs import pay_vitality_cost
from .guarded import run_guarded
from ..events import EventLog
from ..readings import by_reading
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit

#: Reflect sends back this percentage of what landed (500.7h).
REFLECT_PERCENT = 5


class ScenarioError(ValueError):
    """A scenario that does not give the model an input it needs (a missing Riposte roll)."""


@dataclass
class RollCursor:
    """Riposte's rolls for one damage event, consumed in order (500.7b).

    ``used`` counts the rolls consumed so far; in a symbolic run it is a term, and the roll
    it points at is chosen with ``ite`` over the given rolls.
    """

    rolls: Sequence[Bool]
    used: Int = 0
    where: str = ""

    def take(self, needed: Bool, why: str) -> Bool:
        """The next roll when ``needed`` holds (``False`` otherwise), advancing the cursor."""
        if needed is True and not is_symbolic(self.used) and self.used >= len(self.rolls):
            raise ScenarioError(
                f"riposte_rolls of {self.where}: roll #{self.used + 1} is needed ({why}) "
                f"but only {len(self.rolls)} were given"
            )
        roll: Bool = False
        for position in reversed(range(len(self.rolls))):
            roll = ite(self.used == position, self.rolls[position], roll)
        self.used = ite(needed, self.used + 1, self.used)
        return and_(needed, roll)


# --------------------------------------------------------------------------------------
# What retaliates
# --------------------------------------------------------------------------------------


@combat.implements("500.7e", "500.1c")
def compute_attackers(instance: Any) -> tuple[str, ...]:
    """The enemies a damage event is attributed to: its appliers, else its source; none for no actor (500.7e, 500.1c)."""
    appliers = tuple(uid for uid, _ in compute_applied(instance))
    if appliers:
        return appliers  # once per damaging source, whatever each applied (500.7e, INT-354)
    return () if instance.source is None else (instance.source,)


@combat.implements("500.7a", "500.7c", "500.7d")
def is_answerable_event(outcome: Any) -> Bool:
    """Thorns and Riposte answer any damage event, whatever its size; none when Armor or Shield left nothing (500.7c, 500.7d)."""
    return outcome.damage_event


@combat.implements("500.7f")
def is_landed(outcome: Any) -> Bool:
    """Retort answers only damage that landed on Vitality (500.7f)."""
    return outcome.vitality_lost > 0


@combat.implements("500.6h")
def is_hostile(board: Board, recipient: Unit, attacker: str) -> bool:
    """A unit retaliates only against an enemy: never itself, never an ally (500.6h)."""
    return attacker != recipient.uid and board.unit(attacker).side != recipient.side


@combat.implements("500.7b")
def compute_thorns(recipient: Unit, event: Bool) -> tuple[Bool, Int]:
    """Thorns always fires on a damage event, for its flat per-tier amount (500.7b)."""
    return and_(event, recipient.thorns > 0), recipient.thorns


@combat.implements("500.7b")
def needs_riposte_roll(recipient: Unit, attacker: Unit, event: Bool, ruleset: Ruleset) -> Bool:
    """A Riposte carrier rolls for each damage event and attacker; against a refused attacker per INT-106 (500.7b)."""
    legal = and_(attacker.alive, not_(attacker.entrapped), not_(attacker.dormant))
    return and_(event, recipient.riposte > 0, or_(ruleset.riposte_roll_on_refused == "consumed", legal))


@combat.implements("500.7f")
def compute_retort(recipient: Unit, landed: Bool) -> tuple[Bool, Int]:
    """Retort fires only on damage that landed, for its printed amount (500.7f)."""
    return and_(landed, recipient.retort > 0), recipient.retort


#: The answers a carrier gives one attacker, in the order it gives them (500.7b, 500.7f).
ANSWER_KINDS = ("thorns", "riposte", "retort")


@combat.implements("500.6a", "500.6b", "500.6e", "500.6h", "500.7a", "500.7b", "500.7c", "500.7d", "500.7f")
def process_answer_attacker(
    board: Board, recipient: Unit, attacker: str, outcome: Any, rolls: RollCursor, log: EventLog, ruleset: Ruleset,
    kinds: tuple[str, ...] = ANSWER_KINDS,
) -> Board:
    """One attacker answered for one event: Thorns, then Riposte, then Retort, each a Vitality cost (500.6a, 500.7);
    ``kinds``: only those answers (one pass of ``answer_order = per_kind``, INT-110), the side check with the first."""
    event = is_answerable_event(outcome)
    if not is_hostile(board, recipient, attacker):
        # 500.6h: sides are checked before either fires, so no roll is made.
        present = or_(recipient.thorns > 0, recipient.riposte > 0, and_(is_landed(outcome), recipient.retort > 0))
        detail = "self" if attacker == recipient.uid else "ally"
        refused = and_(event, present) if kinds[0] == "thorns" else False
        log.emit("cost_refused", when=refused, unit=attacker, other=recipient.uid, detail=detail)
        return board
    fires, amount = compute_thorns(recipient, event)
    board = pay_retaliation(board, attacker, recipient.uid, amount, "thorns", fires, log, ruleset, kinds)
    needed = needs_riposte_roll(recipient, board.unit(attacker), event, ruleset) if "riposte" in kinds else False
    hit = rolls.take(needed, f"Riposte on {recipient.uid} against {attacker}")
    log.emit("riposte_missed", when=and_(needed, not_(hit)), unit=attacker, other=recipient.uid)
    board = pay_retaliation(board, attacker, recipient.uid, recipient.riposte, "riposte", hit, log, ruleset, kinds)
    fires, amount = compute_retort(recipient, is_landed(outcome))
    return pay_retaliation(board, attacker, recipient.uid, amount, "retort", fires, log, ruleset, kinds)


@combat.implements("500.7a", "500.7e")
def process_answers(
    board: Board, recipient: Unit, attackers: tuple[str, ...], outcome: Any, rolls: RollCursor, log: EventLog,
    ruleset: Ruleset,
) -> Board:
    """One carrier's answers to the attackers of one event (500.7e): each attacker in turn, Thorns, Riposte, Retort
    (``answer_order = per_attacker``, the default), or every attacker's Thorns, then every Riposte, then every Retort
    (``per_kind``) (INT-110). The two orders differ only with several attackers; on a symbolic reading each runs
    from the same board, guarded by its reading, each with its own copy of the rolls."""
    order = ruleset.answer_order
    if len(attackers) < 2 or (order == "per_attacker") is True:
        return process_answers_in_order(board, recipient, attackers, outcome, rolls, log, ruleset, (ANSWER_KINDS,))
    passes = tuple((kind,) for kind in ANSWER_KINDS)
    if (order == "per_kind") is True:
        return process_answers_in_order(board, recipient, attackers, outcome, rolls, log, ruleset, passes)
    cursors = []
    for reading, order_passes in (("per_attacker", (ANSWER_KINDS,)), ("per_kind", passes)):
        cursor = RollCursor(rolls.rolls, rolls.used, rolls.where)
        board, _ = run_guarded(order == reading, board, log, lambda b, sub, c=cursor, o=order_passes: (
            process_answers_in_order(b, recipient, attackers, outcome, c, sub, ruleset, o), None))
        cursors.append(cursor)
    rolls.used = ite(order == "per_attacker", cursors[0].used, cursors[1].used)
    return board


def process_answers_in_order(
    board: Board, recipient: Unit, attackers: tuple[str, ...], outcome: Any, rolls: RollCursor, log: EventLog,
    ruleset: Ruleset, passes: tuple[tuple[str, ...], ...],
) -> Board:
    """Each pass answers every attacker with its kinds, in attribution order (500.7e, INT-110)."""
    for kinds in passes:
        for attacker in attackers:
            board = process_answer_attacker(board, recipient, attacker, outcome, rolls, log, ruleset, kinds)
    return board


@combat.implements("500.6a", "500.6c", "500.6d", "500.6e", "500.6f", "500.6g", "500.6h")
def pay_retaliation(
    board: Board, payer: str, retaliator: str, amount: Int, channel: str, fires: Bool, log: EventLog, ruleset: Ruleset,
    kinds: tuple[str, ...] = ANSWER_KINDS,
) -> Board:
    """The damaging enemy pays ``amount`` Vitality to ``retaliator`` on ``channel`` when ``fires`` holds (500.6a), in
    the pass whose ``kinds`` hold the channel (INT-110)."""
    if channel not in kinds:
        return board
    board, _ = pay_vitality_cost(
        board, payer, amount, "retaliation", log, channel=channel, beneficiary=retaliator, ruleset=ruleset, when=fires
    )
    return board


@combat.implements("500.6b", "500.7a", "500.7e", "500.7k", "500.1c")
def process_retaliation(board: Board, instance: Any, outcome: Any, log: EventLog, ruleset: Ruleset = DEFAULT) -> Board:
    """Answer one resolved damage instance: each attacker in turn, then a boss's Reflect (500.6, 500.7).

    A Reflect is already an answer and starts no damage reactions (500.7k); an instance
    with no actor behind it has nobody to answer (500.1c). Retaliation is a cost, and a
    cost is never a damage instance, so nothing here can be answered in turn (500.6b). A carrier the
    instance killed answers as any other, or not at all, as ``dead_carrier_answers`` reads (INT-116).
    """
    if instance.kind == "reflect":
        return board
    rolls = RollCursor(tuple(getattr(instance, "riposte_rolls", ()) or ()), 0, f"the damage on {outcome.target}")
    for landed_on in compute_answering_outcomes(outcome):
        recipient = board.unit(landed_on.target)
        landed_on = compute_heard_outcome(landed_on, ruleset)
        if landed_on is None:
            continue  # a carrier the instance killed answers nothing under dead_carrier_answers = silent (INT-116)
        board = process_answers(board, recipient, compute_attackers(instance), landed_on, rolls, log, ruleset)
        board = process_reflect(board, recipient, instance, landed_on, log, ruleset)
    return board


@combat.implements("500.7a", "500.4b")
def is_answering_carrier(outcome: Any, ruleset: Ruleset = DEFAULT) -> Bool:
    """Whether the unit the instance landed on answers it: always under ``dead_carrier_answers = answers`` (the
    default: the answer belongs to the event, which happened to a carrier, 500.7a); under ``silent`` only when the
    instance did not kill it (a dead unit's runes are gone, 500.4b), whether or not a Vessel revives it (INT-116)."""
    return by_reading(ruleset.dead_carrier_answers, answers=lambda: True, silent=lambda: not_(outcome.died))


@combat.implements("500.7a", "500.4b")
def compute_heard_outcome(outcome: Any, ruleset: Ruleset) -> Any:
    """The outcome as the carrier's answers read it: unchanged when it answers, ``None`` when it is silent, and on a
    symbolic reading one whose damage event and Vitality lost hold only where it answers, so that a silent carrier
    fires no Thorns, Riposte (nor its roll), Retort or Reflect (INT-116)."""
    answers = is_answering_carrier(outcome, ruleset)
    if answers is True or answers is False:
        return outcome if answers else None
    figures = {name: ite(answers, getattr(outcome, name), 0) for name in HEARD_FIGURES}
    return outcome._replace(damage_event=and_(answers, outcome.damage_event), landed=and_(answers, outcome.landed),
                            **figures)


#: The figures of an outcome the answers read: Retort's and Reflect's (500.7f, 500.7h, 500.7i; INT-111).
HEARD_FIGURES = ("vitality_lost", "after_cap", "subrogated_absorbed", "insurance_absorbed", "shield_absorbed")


@combat.implements("500.7a", "500.1g")
def compute_answering_outcomes(outcome: Any) -> tuple[Any, ...]:
    """The recipient's outcome, then those of damage moved away: the interceptor's, the redirect receiver's (500.1g, INT-113).

    Moved damage lands as the receiver's own instance, so its receiver answers it as its own
    damage event, against the same attackers.
    """
    found = [outcome]
    for nested in (getattr(outcome, "interceptor_outcome", None), getattr(outcome, "receiver_outcome", None)):
        if nested is not None:
            found.extend(compute_answering_outcomes(nested))
    return tuple(found)


# --------------------------------------------------------------------------------------
# The boss Reflect rune
# --------------------------------------------------------------------------------------


@combat.implements("500.7h", "500.7i")
def compute_reflect_amount(landed: Int) -> Int:
    """5% of what landed, rounded down but at least 1; nothing when nothing landed (500.7h, 500.7i)."""
    return ite(landed > 0, max_(floordiv(REFLECT_PERCENT * landed, 100), 1), 0)


@combat.implements("500.7h", "500.7i")
def compute_reflect_basis(outcome: Any, ruleset: Ruleset = DEFAULT) -> Int:
    """'The damage the attacker actually put on the boss' (500.7h), read after the boss's own Armor, Shield and
    Insurance (500.7i): the Vitality the boss lost (``reflect_basis = vitality_lost``, the default), or what its
    Shield left (``after_shield``: before the ally redirect, the defy-death rune and the Vitality clamp, so overkill
    counts) (INT-111)."""
    return by_reading(ruleset.reflect_basis, vitality_lost=lambda: outcome.vitality_lost,
                      after_shield=lambda: compute_after_shield(outcome))


@combat.implements("500.1-10")
def compute_after_shield(outcome: Any) -> Int:
    """What the recipient's Shield left of the instance (500.1-10): past the cap, less what the Insurance points and
    the Shield absorbed (500.1-8, 500.1-9, 500.1-10)."""
    return outcome.after_cap - outcome.subrogated_absorbed - outcome.insurance_absorbed - outcome.shield_absorbed


@combat.implements("500.7h")
def has_reflect(recipient: Unit) -> Bool:
    """The Reflect rune is a boss rune (500.7h)."""
    return and_(recipient.is_boss, recipient.reflect)


@combat.implements("500.7h", "500.7k")
def is_reflected_lane(kind: str, ruleset: Ruleset) -> Bool:
    """Reflect answers hits, and Burn and Venom ticks unless the ruleset reads 'a hit' strictly (INT-112).

    A condition for a tick on a symbolic reading (``model/readings.py``), else a bool.
    """
    if kind not in ("burn", "venom"):
        return True
    return ruleset.reflect_lanes == "hits_and_ticks"


@combat.implements("500.7h", "500.7i", "500.7j", "500.7k", "500.7l")
def process_reflect(board: Board, boss: Unit, instance: Any, outcome: Any, log: EventLog, ruleset: Ruleset) -> Board:
    """A boss Reflect: real damage back at the attacker, below its Armor, with no reactions (500.7h-l).

    The amount reads what landed on the boss after its Armor, Insurance and Shield, as
    ``reflect_basis`` reads it (500.7i, INT-111); the instance is resolved by the pipeline
    with the ``reflect`` kind, which skips the attacker's Armor (500.7j) and starts no damage
    reactions (500.7k). It is not an activation, so it never applies Shatter (500.7l): nothing
    here applies any status.
    """
    from .damage import DamageInstance, resolve_damage

    attacker = instance.source
    if attacker is None or not is_hostile(board, boss, attacker):
        return board  # a hostile hit with an actor only (500.1c, INT-112)
    lane = is_reflected_lane(instance.kind, ruleset)
    if lane is False:
        return board
    amount = compute_reflect_amount(compute_reflect_basis(outcome, ruleset))
    reflects = and_(has_reflect(boss), amount > 0) if lane is True else and_(lane, has_reflect(boss), amount > 0)
    log.emit("reflect", when=reflects, unit=boss.uid, other=attacker, amount=amount)
    back = DamageInstance(target=attacker, amount=ite(reflects, amount, 0), source=boss.uid, kind="reflect")
    board, step, _ = resolve_damage(board, back, ruleset)
    log.extend(step)
    return board


# --------------------------------------------------------------------------------------
# The action
# --------------------------------------------------------------------------------------


@combat.implements("500.1j", "500.6a", "500.7a")
def resolve_hit(board: Board, instance: Any, ruleset: Ruleset = DEFAULT) -> tuple[Board, EventLog]:
    """Action: one damage instance through the pipeline (500.1), then what answers it (500.6, 500.7)."""
    from .damage import resolve_damage, strip_overtime_actor

    instance = strip_overtime_actor(instance)
    board, log, outcome = resolve_damage(board, instance, ruleset)
    board = process_retaliation(board, instance, outcome, log, ruleset)
    return board, log
