"""Running a combat scenario through the model: the final board, the events, the clause trail."""

from __future__ import annotations

from typing import Any

from referee.model.combat import battle as clock
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import Event, EventLog

from ...trail import Step, record
from ...wire import Scenario
from ...rulebook import decode_fields
from ...wire import ProtocolError, check_known, decode_id, require, require_list, require_object
from .codec import CombatScenario, board_from_json, ruleset_from_json
from .domain import check_action_domain, check_board_domain
from .kinds import KINDS


SCENARIO_FIELDS = ("protocol", "id", "rulebook", "ruleset", "board", "actions")


def decode_action(path: str, data: Any, board: Board) -> dict[str, Any]:
    """One combat action, checked against its kind (every optional field filled in)."""
    data = require_object(path, data)
    name = require(path, data, "kind")
    if name not in KINDS:
        raise ProtocolError(f"{path}.kind", f"unknown combat action kind {name!r} (known: {', '.join(KINDS)})")
    return decode_fields(path, KINDS[name], data, board)


def decode_scenario(data: dict[str, Any], path: str = "scenario", *, legal_only: bool = True) -> CombatScenario:
    """Check and decode a combat scenario; every error names its field path.

    ``legal_only=False`` skips the legal-state checks (``referee.model.combat.legal``) and nothing else: only
    ``referee query --whole-domain`` asks it, to replay a witness it says is outside the legal states.
    """
    check_known(path, data, SCENARIO_FIELDS, "scenario")
    sid = decode_id(path, data)
    ruleset = ruleset_from_json(f"{path}.ruleset", data.get("ruleset", {}))
    board = board_from_json(f"{path}.board", require(path, data, "board"))
    if legal_only:
        check_board_domain(f"{path}.board", board)
    actions = require_list(f"{path}.actions", require(path, data, "actions"))
    if not actions:
        raise ProtocolError(f"{path}.actions", "expected at least one action")
    decoded = tuple(decode_action(f"{path}.actions[{i}]", a, board) for i, a in enumerate(actions))
    for i, action in enumerate(decoded if legal_only else ()):  # a unit dead on the board stays dead: nothing pends
        check_action_domain(f"{path}.actions[{i}]", action, board)
    return _scenario(board, ruleset, decoded, sid, data)


def _scenario(board: Board, ruleset: Ruleset, actions: tuple[dict[str, Any], ...], sid: str | None,
              raw: dict[str, Any]) -> CombatScenario:
    """``CombatScenario("combat", board, ruleset, actions, id=sid, raw=raw)`` without the frozen ``__init__``'s
    six ``object.__setattr__`` calls: the dataclass has no ``__post_init__`` and keeps its fields in its
    instance dict, so filling that dict, in field order, is the same object."""
    scenario = object.__new__(CombatScenario)
    scenario.__dict__.update(rulebook="combat", state=board, rules=ruleset, actions=actions, id=sid, raw=raw)
    return scenario


def run_actions(board: Board, actions: tuple[dict[str, Any], ...], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """Run decoded actions through the model, in order, on the battle clock; the events of all, in order.

    The scenario is a :class:`~referee.model.combat.battle.Battle` starting at 0 ms: a board
    action runs at the current time (``clock.act`` schedules the Everlasting revivals its
    deaths ask for); a clock action (``extra["battle"]``: ``advance``, ``end_combat``) runs on
    the battle itself. Without clock actions this is the board transitions alone, as before.
    """
    log = EventLog()
    battle = clock.start_battle(board)
    for action in actions:
        kind = KINDS[action["kind"]]
        on_battle = kind.extra.get("battle")
        if on_battle is not None:
            battle, step = on_battle(battle, action, ruleset)
        else:
            battle, step = clock.act(battle, lambda b, kind=kind, action=action: kind.run(b, action, ruleset))
        log.extend(step)
    return battle.board, log


def run(scenario: Scenario) -> tuple[Board, tuple[Event, ...]]:
    """The model's final board and events for a decoded scenario."""
    board, log = run_actions(scenario.state, scenario.actions, scenario.rules)
    return board, log.events()


def observe(scenario: dict[str, Any]) -> tuple[Board, tuple[Event, ...], list[Step]]:
    """A scenario's final board, events and clause trail (for vectors and explain)."""
    decoded = decode_scenario(scenario)
    (board, log), steps = record(run_actions, decoded.state, decoded.actions, decoded.rules)
    return board, log.events(), steps
