"""The ``cost`` action (500.8): a Vitality cost paid by one unit."""

from __future__ import annotations

from typing import Any

from referee.model.combat import costs
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog

from ....rulebook import ActionKind, Field
from ..strategies import draw_cost
from ..templates import cost_templates


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: the payer pays the cost (500.8)."""
    log = EventLog()
    board, _ = costs.pay_vitality_cost(
        board, action["payer"], action["amount"], action["cost_kind"], log,
        beneficiary=action["beneficiary"], ruleset=ruleset,
    )
    return board, log


KINDS = (
    ActionKind(
        name="cost",
        summary="A Vitality cost paid by one unit (500.8): Bloodletting, Interest, self-destruct or retaliation.",
        chapters=("combat:500.8", "combat:500.4"),
        fields=(
            Field("payer", "unit", "uid of the unit paying"),
            Field("amount", "integer", "the printed price (ignored by a self-destruct)"),
            Field("cost_kind", tuple(costs.COST_KINDS), "which cost (500.8f: defy-death answers some)"),
            Field("beneficiary", "unit?", "the unit the payment serves (the retaliator, the caster); the killer only "
                  "of a retaliation it kills, else a cost death has no killer (500.6d, INT-109)", None),
        ),
        run=run,
        draw=draw_cost,
        unit_fields=(
            "alive", "vitality", "max_vitality", "dormant", "entrapped", "is_tool", "is_hub", "shield",
            "defy_death", "adrenaline", "momentum", "bolster", "deathrattle", "everlasting", "vessels",
            "insurance", "subrogated", "ignore_charges", "armor",
        ),
        rulebook="combat",
        extra={"templates": cost_templates},
    ),
)
