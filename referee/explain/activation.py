"""The activation itself, before its lines or its cost: the Reliquary Speed it clears (500.9l).

``model/combat/battle.py``'s ``resolve_activation`` runs first in every activation (an ability,
a Bloodletting activation): the charge is spent and the Speed a Reliquary revival handed the
unit is cleared, with ``reliquary_cleared`` (INT-411). The step is written only when there is
Reliquary Speed to clear.
"""

from __future__ import annotations

from referee.model.combat.state import Board

from .steps import Steps


def explain_activation(s: Steps, board: Board, caster: str) -> None:
    """500.9l: the caster's activation clears its Reliquary Speed (and spends its charge)."""
    unit = board.unit(caster)
    if unit.reliquary_speed <= 0:
        return
    charge = f"its charge is spent ({unit.charge} -> 0) and " if unit.charge else ""
    s.say("activation_clears", "500.9l", f"{caster} activates: {charge}the Reliquary Speed {unit.reliquary_speed} its "
          "revival handed it lasts only until its next activation, which is this one: it is cleared "
          f"({unit.reliquary_speed} -> 0; 500.9l, INT-411).", ("reliquary_cleared",),
          touches=(f"{caster}.reliquary_speed", f"{caster}.charge"), before=unit.reliquary_speed, after=0)
