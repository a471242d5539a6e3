"""500.8 Vitality costs: a price paid in Vitality, which skips the damage pipeline.

A cost is a statement, not a hit: Armor, the cap, Insurance, Shield and ignore charges
never see it (500.8a), it starts no damage reactions (500.8c), but Vitality-loss
listeners answer (500.8d) and a death by cost is an ordinary death (500.8j).

Every cost, whatever its kind, goes through :func:`pay_vitality_cost`; the kinds differ
only where 500.8 says they do: who is refused (retaliation also refuses Dormant units
and never hits the retaliator itself or an ally, 500.6e, 500.6h), whether defy-death
answers (500.8f), what Interest does to maximum Vitality (500.8g), and how much a
self-destruct takes (500.8h). Worked example: a payer with 10 Vitality and 1 Shield owes a
Bloodletting cost of 30; Shield is not asked (500.8a), the price is clamped to 10
(500.8b), an armed defy-death rune answers (500.8f) and leaves it at 1, so 9 Vitality
moves and the ``bloodletting_paid`` channel reports 9 (500.8i).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ..arith import and_, ite, max_, min_, not_, or_
from ..clauses import combat
from ..events import EventLog
from .ruleset import DEFAULT, Ruleset
from .state import Board, Bool, Int, Unit
from .vitality import lose_vitality

CostKind = Literal["bloodletting", "interest", "self_destruct", "retaliation"]
COST_KINDS: tuple[str, ...] = ("bloodletting", "interest", "self_destruct", "retaliation")

#: Whether a defy-death rune answers a lethal cost of this kind (500.8f).
DEFY_DEATH_ANSWERS: dict[str, bool] = {
    "bloodletting": True,
    "retaliation": True,
    "interest": False,
    "self_destruct": False,
}


# --------------------------------------------------------------------------------------
# Who may pay
# --------------------------------------------------------------------------------------


@combat.implements("500.8e", "500.6e")
def compute_refusal_reasons(unit: Unit, kind: str) -> tuple[tuple[str, Bool], ...]:
    """Each reason a payer is refused outright, with its (mutually exclusive) condition (500.8e, 500.6e).

    Dead and Entrapped payers are refused for every kind; a retaliation also refuses a
    Dormant one, which is not a legal combat target.
    """
    reasons = [("dead", not_(unit.alive)), ("entrapped", and_(unit.alive, unit.entrapped))]
    if kind == "retaliation":
        reasons.append(("dormant", and_(unit.alive, not_(unit.entrapped), unit.dormant)))
    return tuple(reasons)


@combat.implements("500.8e", "500.6e")
def is_refused_payer(unit: Unit, kind: str) -> Bool:
    """Dead and Entrapped payers are refused; retaliation also refuses a Dormant one (500.8e, 500.6e)."""
    return or_(*(condition for _, condition in compute_refusal_reasons(unit, kind)))


@combat.implements("500.6h")
def compute_side_refusal(board: Board, payer: str, beneficiary: str | None, kind: str) -> str | None:
    """A unit never retaliates against itself or an ally: ``"self"``, ``"ally"`` or ``None`` (500.6h)."""
    if kind != "retaliation" or beneficiary is None or not board.has(beneficiary):
        return None
    if beneficiary == payer:
        return "self"
    if board.unit(beneficiary).side == board.unit(payer).side:
        return "ally"
    return None


# --------------------------------------------------------------------------------------
# What is paid
# --------------------------------------------------------------------------------------


@combat.implements("500.8b", "500.8e", "500.8h")
def compute_price(unit: Unit, amount: Int, kind: str) -> Int:
    """What the payer owes: clamped to its Vitality, all of it for a self-destruct, nothing for a Tool or Hub."""
    owed = unit.vitality if kind == "self_destruct" else min_(max_(amount, 0), unit.vitality)
    return ite(unit.discards_combat, 0, owed)


@combat.implements("500.8f", "500.6d", "800.4h")
def is_defied(unit: Unit, price: Int, kind: str) -> Bool:
    """A lethal cost meets an armed defy-death rune only for the kinds that opt in (500.8f)."""
    return and_(DEFY_DEATH_ANSWERS[kind], unit.defy_death, price > 0, price >= unit.vitality)


@combat.implements("500.8f", "500.6d", "800.4h")
def compute_defied_price(unit: Unit, ruleset: Ruleset) -> Int:
    """What a defied lethal cost still takes: down to the rune's floor, never below 0 (500.8f, INT-004, INT-102)."""
    return max_(unit.vitality - ruleset.defy_death_leaves, 0)


@combat.implements("500.8h")
def scraps_shield(unit: Unit, kind: str) -> Bool:
    """A self-destruct scraps the payer's Shield rather than damaging it: no Shield trigger (500.8h)."""
    return and_(kind == "self_destruct", unit.shield > 0, not_(unit.discards_combat))


@combat.implements("500.6d")
def compute_killer(payer: str, beneficiary: str | None, kind: str) -> str | None:
    """The killer a cost death names: the retaliator for retaliation, nobody otherwise (500.6d, INT-109)."""
    return beneficiary if kind == "retaliation" and beneficiary != payer else None


# --------------------------------------------------------------------------------------
# The operation
# --------------------------------------------------------------------------------------

#: The fast twin (``model/combat/fast.py``), which takes a cost that happens in a concrete run nobody traces.
FAST_TWIN: Any = None


@combat.implements("500.8a", "500.8b", "500.8c", "500.8d", "500.8e", "500.8f", "500.8h", "500.8i", "500.8j")
def pay_vitality_cost(
    board: Board,
    payer: str,
    amount: Int,
    kind: str,
    log: EventLog,
    *,
    channel: str = "cost_paid",
    beneficiary: str | None = None,
    ruleset: Ruleset = DEFAULT,
    when: Bool = True,
) -> tuple[Board, Int]:
    """Pay ``amount`` Vitality as a cost of ``kind``; return the board and the Vitality that left.

    ``channel`` is the event that reports the payment (``cost_paid``, ``bloodletting_paid``,
    ``thorns``...); it fires only when Vitality actually moved and carries that amount (500.8i).
    ``beneficiary`` is the unit the channel credits (the retaliator, the caster); for a
    retaliation it is also the killer. ``when`` guards the whole cost (a retaliation that
    fires only on a roll): when it does not hold, nothing happens and nothing is emitted.
    Nothing of the damage pipeline is read or spent: no Armor, cap, Insurance, Shield or
    ignore charge (500.8a), and no damage reaction is emitted (500.8c).
    """
    if kind not in COST_KINDS:
        raise ValueError(f"unknown cost kind {kind!r} (known: {', '.join(COST_KINDS)})")
    if (when is True or when is False) and FAST_TWIN is not None and FAST_TWIN.is_concrete_run(amount):
        return FAST_TWIN.pay_cost(board, payer, amount, kind, log, channel, beneficiary, ruleset, when)
    side = compute_side_refusal(board, payer, beneficiary, kind)
    if side is not None:
        log.emit("cost_refused", when=when, unit=payer, other=beneficiary, detail=side)
        return board, 0
    unit, price = settle_price(board.unit(payer), amount, kind, when, beneficiary, ruleset, log)
    board = board.with_unit(unit)
    killer = compute_killer(payer, beneficiary, kind)
    announce = cost_announcer(unit, kind, channel, beneficiary, log)
    return lose_vitality(board, payer, price, killer, log, announce, ruleset=ruleset if kind == "interest" else None)


@combat.implements("500.8e", "500.8f", "500.8g", "500.8h")
def settle_price(
    unit: Unit, amount: Int, kind: str, when: Bool, beneficiary: str | None, ruleset: Ruleset, log: EventLog
) -> tuple[Unit, Int]:
    """The payer as the price leaves it and the price: refusals (500.8e), defy-death (500.8f), Shield scrapped
    (500.8h), Interest (500.8g)."""
    payer = unit.uid
    refused = is_refused_payer(unit, kind)
    for reason, condition in compute_refusal_reasons(unit, kind):
        log.emit("cost_refused", when=and_(when, condition), unit=payer, other=beneficiary, detail=reason)
    pays = and_(when, not_(refused))
    owed = ite(pays, compute_price(unit, amount, kind), 0)
    defied = and_(pays, is_defied(unit, owed, kind))
    price = ite(defied, compute_defied_price(unit, ruleset), owed)
    log.emit("defy_death", when=defied, unit=payer, amount=max_(amount, 0) - price, other=beneficiary)  # what it kept (INT-102)
    scrapped = and_(pays, scraps_shield(unit, kind))
    log.emit("shield_scrapped", when=scrapped, unit=payer, amount=unit.shield)
    unit = unit.evolve(
        defy_death=ite(defied, False, unit.defy_death),
        defy_death_spent=or_(unit.defy_death_spent, defied),  # re-armed by a revival (500.9e)
        shield=ite(scrapped, 0, unit.shield),
        max_vitality=compute_max_vitality_after(unit, price, kind),
    )
    return unit, price


@combat.implements("500.8g", "500.8i")
def cost_announcer(unit: Unit, kind: str, channel: str, beneficiary: str | None, log: EventLog) -> Callable[[Int], None]:
    """What reports the Vitality that left, only when some did (500.8i): the channel, Interest's maximum (500.8g),
    credit."""

    def announce(lost: Int) -> None:
        log.emit(channel, when=lost > 0, unit=unit.uid, amount=lost, other=beneficiary, detail=_channel_detail(channel, kind))
        if kind == "interest":
            log.emit("max_vitality_lowered", when=lost > 0, unit=unit.uid, amount=lost)
        if kind == "retaliation" and beneficiary is not None:
            process_retaliation_credit(unit, beneficiary, lost, log)

    return announce


def _channel_detail(channel: str, kind: str) -> str | None:
    return kind if channel == "cost_paid" else None


@combat.implements("500.6f", "500.6g")
def process_retaliation_credit(payer: Unit, retaliator: str, lost: Int, log: EventLog) -> None:
    """The retaliator is credited; Feast unless the payer is a boss; a boss checks Phasebreak, never Stagger (500.6f, 500.6g)."""
    took = lost > 0
    log.emit("credit", when=took, unit=retaliator, other=payer.uid, amount=lost)
    log.emit("feast", when=and_(took, not_(payer.is_boss)), unit=retaliator, other=payer.uid, amount=lost)
    log.emit("phasebreak_check", when=and_(took, payer.is_boss), unit=payer.uid, other=retaliator, amount=lost)


@combat.implements("500.8g")
def compute_max_vitality_after(unit: Unit, price: Int, kind: str) -> Int:
    """Interest also lowers the payer's maximum Vitality by what it pays, for the rest of the battle (500.8g, INT-108).

    The debit lands with the payment, before a death it causes resolves, so a unit an
    Interest payment kills and a Vessel revives comes back at the lowered maximum.
    """
    return unit.max_vitality - price if kind == "interest" else unit.max_vitality


# --------------------------------------------------------------------------------------
# The kinds as actions
# --------------------------------------------------------------------------------------


@combat.implements("500.8g")
def process_interest(board: Board, payer: str, amount: Int, log: EventLog, ruleset: Ruleset = DEFAULT) -> tuple[Board, Int]:
    """An Interest payment: a cost with no defy-death that also debits maximum Vitality (500.8f, 500.8g)."""
    return pay_vitality_cost(board, payer, amount, "interest", log, ruleset=ruleset)


@combat.implements("500.8h", "500.4a")
def process_self_destruct(board: Board, uid: str, log: EventLog, ruleset: Ruleset = DEFAULT) -> tuple[Board, Int]:
    """A self-destruct: the unit pays its entire Vitality; nothing prevents the death (500.8h, 500.4a)."""
    return pay_vitality_cost(board, uid, board.unit(uid).vitality, "self_destruct", log, ruleset=ruleset)


def resolve_interest(board: Board, payer: str, amount: Int, ruleset: Ruleset = DEFAULT) -> tuple[Board, EventLog]:
    """Action: an Interest payment of ``amount`` by ``payer``; the board and its events."""
    log = EventLog()
    board, _ = process_interest(board, payer, amount, log, ruleset)
    return board, log


def resolve_self_destruct(board: Board, uid: str, ruleset: Ruleset = DEFAULT) -> tuple[Board, EventLog]:
    """Action: ``uid`` self-destructs; the board and its events."""
    log = EventLog()
    board, _ = process_self_destruct(board, uid, log, ruleset)
    return board, log

