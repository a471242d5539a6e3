"""``referee explain`` as a library: a scenario resolved step by step, each step citing its clause.

The API:

* :func:`explain_actions(scenario) <explain_actions>` -> ``list[ExplainedAction]``: each action
  with its :class:`~.steps.Step` list, the model's events and the unit fields that changed;
* :func:`explain_steps(scenario) <explain_steps>` -> ``list[Step]``: the same steps, flat;
* :func:`load_explainable(path) <load_explainable>` -> the scenario ``dict`` of a file.

``scenario`` is a protocol scenario (``docs/protocol.md``: combat or play), a replay file
(the same, as ``referee check`` writes it), a conformance vector (``{"scenario": ...,
"expected": ...}``), or a short form: ``{"board": [...], "damage": {...}}`` for one damage
instance, ``{"board": [...], "ability": {...}}`` for one ability (``ability.ability_from_json``).

Every step is read off the model's own run. As a guard against drift, each combat action's
explanation must end on the board and events of the model's own ``run`` of that action
(:data:`referee.actions.ACTION_KINDS`); otherwise :class:`ExplainError` is raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import UNIT_FIELDS, Board
from referee.model.events import Event, EventLog

from .ability import ability_from_json, explain_ability
from .answers import explain_hit
from .clock import (explain_advance, explain_advance_battle, explain_cull, explain_end_battle, explain_end_combat,
                    explain_recover, explain_tick)
from .costs import explain_armor_debuff, explain_bloodletting, explain_cost
from .damage import explain_instance
from .loss import explained_order, split_loss_tails
from .play import explain_activate, explain_play_card, state_changes
from .steps import Step

__all__ = ["EXPLAINERS", "ExplainError", "ExplainedAction", "Step", "explain_actions", "explain_steps", "load_explainable",
           "locate_event", "steps_around_event"]


class ExplainError(ValueError):
    """A scenario explain cannot read, or an explanation that disagrees with the model's run."""


@dataclass(frozen=True)
class ExplainedAction:
    """One action: its number and kind, its steps, the model's events, and what changed (``uid -> field -> [old, new]``)."""

    number: int
    kind: str
    steps: list[Step]
    events: list[Event] = field(default_factory=list)
    changes: dict[str, dict[str, list[Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.number, "kind": self.kind, "steps": [s.to_json() for s in self.steps],
                "events": [e.to_json() for e in self.events], "changes": self.changes}


def _instance(action: dict[str, Any]) -> DamageInstance:
    return DamageInstance(target=action["target"], amount=action["amount"], source=action.get("source"),
                          kind=action.get("damage_kind", "hit"), allows_dormant=action.get("allows_dormant", False),
                          riposte_rolls=tuple(action.get("riposte_rolls", ())))


def _explain_damage(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog, list[Step]]:
    from referee.model.combat.damage import resolve_damage

    instance = _instance(action)
    after, log, outcome = resolve_damage(board, instance, ruleset)
    return after, log, explain_instance(board, instance, outcome, ruleset)


def _explain_hit(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog, list[Step]]:
    return explain_hit(board, _instance(action), ruleset)


def _explain_ability(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog, list[Step]]:
    """An ``ability`` action: ``{"caster", "targets", "ability": Ability or {"numbers", "lines", "name"}, "riposte_rolls"}``."""
    return explain_ability(board, action["caster"], ability_of(action), tuple(action["targets"]), ruleset,
                           tuple(action.get("riposte_rolls", ())))


def ability_of(action: dict[str, Any]) -> Any:
    """The :class:`~referee.model.combat.ability_text.Ability` of an ``ability`` action (given as one, or as its JSON)."""
    ability = action["ability"]
    if isinstance(ability, dict):
        _, _, ability, _ = ability_from_json("action.ability", {**ability, "caster": action["caster"],
                                                                "targets": list(action["targets"])})
    return ability


#: The explainer of each combat action kind: ``(board, decoded action, ruleset) -> (board, log, steps)``.
EXPLAINERS: dict[str, Callable[[Board, dict[str, Any], Ruleset], tuple[Board, EventLog, list[Step]]]] = {
    "damage": _explain_damage,
    "hit": _explain_hit,
    "cost": explain_cost,
    "bloodletting": explain_bloodletting,
    "armor_debuff": explain_armor_debuff,
    "ability": _explain_ability,
    "recover": explain_recover,
    "cull": explain_cull,
    "tick": explain_tick,
    "advance": explain_advance,
    "end_combat": explain_end_combat,
}
#: The clock's kinds, explained on the scenario's battle (what is due lives there, not on the board).
BATTLE_EXPLAINERS = {"advance": explain_advance_battle, "end_combat": explain_end_battle}
#: The explainer of each play action kind: ``(state, decoded action, rules) -> (state, steps)``.
PLAY_EXPLAINERS = {"play_card": explain_play_card, "activate": explain_activate}


# --------------------------------------------------------------------------------------
# Reading what to explain
# --------------------------------------------------------------------------------------


def load_explainable(path: Path) -> dict[str, Any]:
    """The JSON of a scenario, replay or vector file; errors name the file."""
    from referee.input_files import InputFileError, read_input_text

    try:
        data = json.loads(read_input_text(path))
    except InputFileError as error:
        raise ExplainError(str(error)) from None
    except OSError as error:
        raise ExplainError(f"{path}: cannot read: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise ExplainError(f"{path}: not valid JSON: {error}") from None
    except RecursionError:
        raise ExplainError(f"{path}: JSON nested too deeply to read") from None
    except UnicodeDecodeError as error:
        raise ExplainError(f"{path}: not UTF-8 text: {error.reason}") from None
    if not isinstance(data, dict):
        raise ExplainError(f"{path}: expected a JSON object (a scenario, a replay or a vector)")
    return data


def unwrap(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A vector's scenario and expected observation; anything else is the scenario itself."""
    if "scenario" in data and "expected" in data:
        if not isinstance(data["scenario"], dict):
            raise ExplainError("vector.scenario: expected an object")
        return data["scenario"], data["expected"]
    return data, None


def decode(data: dict[str, Any]) -> tuple[Any, Any, list[dict[str, Any]], str]:
    """``(board or play state, ruleset or rules, actions, rulebook)`` of a scenario or short form."""
    from referee.protocol import PROTOCOL, ProtocolError, decode_scenario
    from referee.rulebooks.combat.codec import board_from_json, ruleset_from_json

    try:
        if "ability" in data and "actions" not in data:
            unknown = sorted(set(data) - {"board", "ability", "ruleset"})
            if unknown:
                raise ExplainError(f"scenario.{unknown[0]}: unknown field of the ability short form (board, ability, ruleset)")
            board = board_from_json("scenario.board", data.get("board"))
            caster, targets, ability, rolls = ability_from_json("scenario.ability", data["ability"])
            for where, uid in [("caster", caster), *(("targets", t) for t in targets)]:
                if not board.has(uid):
                    raise ExplainError(f"scenario.ability.{where}: no unit with uid {uid!r} on the board")
            action = {"kind": "ability", "caster": caster, "targets": targets, "ability": ability, "riposte_rolls": rolls}
            return board, ruleset_from_json("scenario.ruleset", data.get("ruleset", {})), [action], "combat"
        if "damage" in data and "actions" not in data:
            damage = data.get("damage")
            if not isinstance(damage, dict):
                raise ExplainError("scenario.damage: expected an object")
            damage = dict(damage)
            if "kind" in damage:
                damage["damage_kind"] = damage.pop("kind")
            data = {**{k: v for k, v in data.items() if k != "damage"}, "protocol": PROTOCOL,
                    "actions": [{"kind": "damage", **damage}]}
        scenario = decode_scenario({k: v for k, v in data.items() if k != "id"})
    except ProtocolError as error:
        raise ExplainError(str(error)) from None
    except ValueError as error:
        raise ExplainError(str(error)) from None
    if scenario.rulebook == "play":
        return scenario.state, scenario.rules, list(scenario.actions), "play"
    return scenario.board, scenario.ruleset, list(scenario.actions), "combat"


# --------------------------------------------------------------------------------------
# Explaining
# --------------------------------------------------------------------------------------


def explain_actions(scenario: dict[str, Any]) -> list[ExplainedAction]:
    """Every action of the scenario, in order, explained step by step."""
    data, _ = unwrap(scenario)
    world, rules, actions, rulebook = decode(data)
    if rulebook == "play":
        return _explain_play(world, rules, actions)
    from dataclasses import replace

    from referee.model.combat import battle as clock

    out = []
    battle = clock.start_battle(world)  # the scenario's timeline: actions at the current time (500.9a)
    for number, action in enumerate(actions, 1):
        kind = action["kind"]
        if kind not in EXPLAINERS:
            raise ExplainError(f"action {number}: no explainer for the {kind!r} action kind")
        world = battle.board
        if kind in BATTLE_EXPLAINERS:
            before = battle
            battle, log, steps = BATTLE_EXPLAINERS[kind](before, action, rules)
            check_battle_against_model(before, action, rules, battle, log, number)
            after = battle.board
        else:
            after, log, steps = EXPLAINERS[kind](world, action, rules)
            check_against_model(world, action, rules, after, log, number)
            battle = clock.schedule_revivals(replace(battle, board=after), log)
        steps = split_loss_tails(steps, log.events(), world)
        out.append(ExplainedAction(number, kind, steps, list(log.events()), board_changes(world, after)))
    return out


def _explain_play(state: Any, rules: Any, actions: list[dict[str, Any]]) -> list[ExplainedAction]:
    from referee.actions import ACTION_KINDS

    out = []
    for number, action in enumerate(actions, 1):
        after, steps = PLAY_EXPLAINERS[action["kind"]](state, action, rules)
        model_after, event = ACTION_KINDS[action["kind"]].run(state, action, rules)
        if model_after != after:
            raise ExplainError(f"action {number}: the explanation ends on a state the model does not reach")
        out.append(ExplainedAction(number, action["kind"], steps, [event], state_changes(state, after)))
        state = after
    return out


def check_against_model(board: Board, action: dict[str, Any], ruleset: Ruleset, after: Board, log: EventLog, number: int) -> None:
    """The explanation's board and events are the model's own run of the action (no drift)."""
    from referee.actions import ACTION_KINDS

    if action["kind"] not in ACTION_KINDS:
        if action["kind"] == "ability":
            from referee.model.combat.abilities import resolve_ability

            model_after, model_log = resolve_ability(board, action["caster"], ability_of(action), action["targets"],
                                                     ruleset=ruleset, riposte_rolls=action.get("riposte_rolls", ()))
        else:
            return
    else:
        model_after, model_log = ACTION_KINDS[action["kind"]].run(board, action, ruleset)
    if model_after != after or model_log.events() != log.events():
        raise ExplainError(f"action {number} ({action['kind']}): the explanation disagrees with the model's run "
                           "(a bug in referee/explain: please report it)")


def check_battle_against_model(battle: Any, action: dict[str, Any], rules: Ruleset, after: Any, log: EventLog,
                               number: int) -> None:
    """A clock action's explanation ends on the battle and events of the model's own run of it (no drift)."""
    from referee.actions import ACTION_KINDS

    model_after, model_log = ACTION_KINDS[action["kind"]].extra["battle"](battle, action, rules)
    if model_after != after or model_log.events() != log.events():
        raise ExplainError(f"action {number} ({action['kind']}): the explanation disagrees with the model's run "
                           "(a bug in referee/explain: please report it)")


def board_changes(before: Board, after: Board) -> dict[str, dict[str, list[Any]]]:
    """Every unit field that changed: ``uid -> field -> [before, after]``."""
    out: dict[str, dict[str, list[Any]]] = {}
    after_by_uid = {unit.uid: unit for unit in after.units}  # one pass: a lookup per unit made explain quadratic
    for old in before.units:
        new = after_by_uid[old.uid]
        if new == old:
            continue
        diffs = {f: [getattr(old, f), getattr(new, f)] for f in UNIT_FIELDS if getattr(old, f) != getattr(new, f)}
        if diffs:
            out[old.uid] = diffs
    return out


def explain_steps(scenario: dict[str, Any]) -> list[Step]:
    """The steps of every action, flat, in order (what a report shows around a divergence)."""
    return [step for action in explain_actions(scenario) for step in action.steps]


def locate_event(actions: list[ExplainedAction], event_index: int) -> tuple[ExplainedAction, int | None]:
    """The action holding the model's ``event_index``-th event (0-based, the whole scenario) and the step behind it.

    Steps name the events they account for (``Step.events``); the events are aligned with the
    steps in order, each event on the first step at or after the previous event's step that
    names it (an event no later step names stays on the step before). The step is ``None``
    when no step names any event up to it (then the action's steps are the context). An index past the model's last event (an engine emitted more) falls on the
    last action.
    """
    offset = 0
    for action in actions:
        if event_index < offset + len(action.events) or action is actions[-1]:
            local = min(event_index - offset, len(action.events) - 1)
            cursor, found = 0, None
            for event in explained_order(action.events[: local + 1]):
                hit = next((i for i in range(cursor, len(action.steps)) if event.name in action.steps[i].events), None)
                if hit is not None:
                    cursor = found = hit
            return action, found
        offset += len(action.events)
    raise ExplainError("the scenario has no action")


def steps_around_event(scenario: dict[str, Any], event_index: int, before: int = 1) -> list[Step]:
    """The step behind the model's ``event_index``-th event and the ``before`` steps preceding it (for a failure report)."""
    actions = explain_actions(scenario)
    action, found = locate_event(actions, event_index)
    if found is None:
        return action.steps[-(before + 1):]
    return action.steps[max(0, found - before): found + 1]
