"""The activation itself, before its lines or its cost: the charge it spends and the Reliquary Speed it clears (500.9l).

``model/combat/battle.py``'s ``resolve_activation`` runs first in every activation (an ability, a Bloodletting
activation): the charge is spent, and the Speed a Reliquary revival handed the unit is cleared, with
``reliquary_cleared``, at the point ``reliquary_clear_point`` names (INT-411): as the activation begins (``start``,
the default), once its cost is paid (``after_cost``; at once when it has none) or once it has resolved (``end``).
A step is written only when there is Reliquary Speed to clear.
"""

from __future__ import annotations

from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board

from .steps import Steps

#: Where each reading of INT-411 clears the Speed, in words.
CLEAR_POINTS = {"start": "as it begins", "after_cost": "once its cost is paid", "end": "once it has resolved"}


def clears_at_start(ruleset: Ruleset, has_cost: bool = True) -> bool:
    """Whether the activation clears the Speed as it begins (INT-411; after_cost with no cost to pay does too)."""
    return ruleset.reliquary_clear_point == "start" or (not has_cost and ruleset.reliquary_clear_point == "after_cost")


def explain_activation(s: Steps, board: Board, caster: str, ruleset: Ruleset = DEFAULT, has_cost: bool = True) -> None:
    """500.9l: the caster's activation spends its charge and, as it begins under the default reading, clears its
    Reliquary Speed; under another reading the step says when it will (INT-411)."""
    unit = board.unit(caster)
    if unit.reliquary_speed <= 0:
        return
    charge = f"its charge is spent ({unit.charge} -> 0) and " if unit.charge else ""
    if not clears_at_start(ruleset, has_cost):
        point = ruleset.reliquary_clear_point
        s.say("activation_clears", "500.9l", f"{caster} activates: {charge}the Reliquary Speed {unit.reliquary_speed} "
              f"its revival handed it lasts until this activation clears it {CLEAR_POINTS[point]} "
              f"(reliquary_clear_point = {point}; 500.9l, INT-411).", touches=(f"{caster}.charge",))
        return
    s.say("activation_clears", "500.9l", f"{caster} activates: {charge}the Reliquary Speed {unit.reliquary_speed} its "
          "revival handed it lasts only until its next activation, which is this one: it is cleared "
          f"({unit.reliquary_speed} -> 0; 500.9l, INT-411).", ("reliquary_cleared",),
          touches=(f"{caster}.reliquary_speed", f"{caster}.charge"), before=unit.reliquary_speed, after=0)


def explain_speed_cleared(s: Steps, speed: int, caster: str, point: str) -> None:
    """500.9l under ``reliquary_clear_point = point`` (after_cost, end): the ``speed`` the caster holds is cleared."""
    if speed <= 0:
        return
    s.say("speed_cleared", "500.9l", f"the activation clears {caster}'s Reliquary Speed {CLEAR_POINTS[point]} "
          f"({speed} -> 0; reliquary_clear_point = {point}, INT-411).", ("reliquary_cleared",),
          touches=(f"{caster}.reliquary_speed",), before=speed, after=0)
