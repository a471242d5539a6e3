"""The model entries of the play actions: ``play_card`` (350-359) and ``activate`` (399)."""

from __future__ import annotations

from typing import Any

from referee.model.events import Event
from referee.model.play import process as play_process
from referee.model.play.rules import PlayRules
from referee.model.play.state import PlayState

from .codec import to_component, to_modifiers, to_plan


def run_play_card(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, Event]:
    text = play_process.CardText(to_component(action["cost"]), tuple(to_component(c) for c in action["additional"]))
    choices = play_process.Choices(tuple(action["pay_optional"]), action["location"])
    result = play_process.process_play(state, action["card"], text, choices, to_plan(action["plan"]),
                                       to_modifiers(action["modifiers"]), rules)
    cancelled = play_process.get_cancellation(result)
    if cancelled is None:
        return result.state, Event("played", unit=action["card"])
    return result.state, Event("play_cancelled", unit=action["card"], detail=cancelled.check)


def run_activate(state: PlayState, action: dict[str, Any], rules: PlayRules) -> tuple[PlayState, Event]:
    a = action["ability"]
    ability = play_process.Ability(to_component(a["cost"]), play_process.Effect(a["effect"]["kind"], a["effect"]["amount"]))
    result = play_process.process_activate(state, action["source"], ability, to_plan(action["plan"]),
                                           to_modifiers(action["modifiers"]), rules)
    cancelled = play_process.get_cancellation(result)
    if cancelled is None:
        return result.state, Event("activated", unit=action["source"])
    return result.state, Event("activation_cancelled", unit=action["source"], detail=cancelled.check)
