"""500.8 Vitality costs: a price paid in Vitality, which skips the damage pipeline.

A cost is a statement, not a hit: Armor, the cap, Insurance, Shield and ignore charges
never see it (500.8a), it starts no damage reactions (500.8c), but Vitality-loss
listeners answer (500.8d) and a death by cost is an ordinary death (500.8j).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from .arith import and_, ite, max_, min_, not_, or_
from .clauses import combat
from .events import EventLog
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


@combat.implements("500.8e", "500.6e")
def is_refused_payer(unit: Unit, kind: str) -> Bool:
    """Dead and Entrapped payers are refused; retaliation also refuses a Dormant one (500.8e, 500.6e)."""
    refused = or_(not_(unit.alive), unit.entrapped)
    if kind == "retaliation":
        return or_(refused, unit.dormant)
    return refused


@combat.implements("500.8b", "500.8e", "500.8h")
def compute_price(unit: Unit, amount: Int, kind: str) -> Int:
    """What the payer owes: clamped to its Vitality, all of it for a self-destruct, nothing for a Tool or Hub."""
    owed = unit.vitality if kind == "self_destruct" else min_(max_(amount, 0), unit.vitality)
    return ite(unit.discards_combat, 0, owed)


@combat.implements("500.8f", "500.6d", "800.4h")
def is_defied(unit: Unit, price: Int, kind: str) -> Bool:
    """A lethal cost meets an armed defy-death rune only for the kinds that opt in (500.8f)."""
    return and_(DEFY_DEATH_ANSWERS[kind], unit.defy_death, price > 0, price >= unit.vitality)


@combat.implements("500.8a", "500.8b", "500.8c", "500.8d", "500.8f", "500.8g", "500.8h", "500.8i", "500.8j")
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
) -> tuple[Board, Int]:
    """Pay ``amount`` Vitality as a cost of ``kind``; return the board and the Vitality that left.

    ``channel`` is the event that reports the payment (``cost_paid``, ``bloodletting_paid``,
    ``thorns``...); it fires only when Vitality actually moved and carries that amount (500.8i).
    ``beneficiary`` is the unit the channel credits (the retaliator, the caster), also the killer.
    """
    if kind not in COST_KINDS:
        raise ValueError(f"unknown cost kind {kind!r} (known: {', '.join(COST_KINDS)})")
    unit = board.unit(payer)
    refused = is_refused_payer(unit, kind)
    log.emit("cost_refused", when=refused, unit=payer, detail=kind)
    price = ite(refused, 0, compute_price(unit, amount, kind))
    defied = and_(not_(refused), is_defied(unit, price, kind))
    price = ite(defied, max_(unit.vitality - ruleset.defy_death_leaves, 0), price)
    log.emit("defy_death", when=defied, unit=payer, amount=amount - price)
    scraps_shield = and_(not_(refused), kind == "self_destruct", unit.shield > 0, not_(unit.discards_combat))
    log.emit("shield_scrapped", when=scraps_shield, unit=payer, amount=unit.shield)
    unit = replace(
        unit,
        defy_death=ite(defied, False, unit.defy_death),
        shield=ite(scraps_shield, 0, unit.shield),
    )
    board = board.with_unit(unit)

    def announce(lost: Int) -> None:
        detail = kind if channel == "cost_paid" else None
        log.emit(channel, when=lost > 0, unit=payer, amount=lost, other=beneficiary, detail=detail)

    board, lost = lose_vitality(board, payer, price, beneficiary, log, announce)
    if kind == "interest":
        board = debit_max_vitality(board, payer, lost, log)
    return board, lost


@combat.implements("500.8g")
def debit_max_vitality(board: Board, payer: str, paid: Int, log: EventLog) -> Board:
    """Interest also lowers the payer's maximum Vitality by what was paid (500.8g)."""
    unit = board.unit(payer)
    log.emit("max_vitality_lowered", when=paid > 0, unit=payer, amount=paid)
    return board.with_unit(replace(unit, max_vitality=unit.max_vitality - paid))
