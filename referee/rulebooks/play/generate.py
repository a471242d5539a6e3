"""Drawing a whole play scenario: a play state, then actions of the chosen kinds."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.play.rules import DEFAULT_PLAY_RULES

from ...wire import PROTOCOL
from .kinds import KINDS
from .strategies import _align_pool, draw_play_state

_STRATEGY_CACHE: dict[Any, Any] = {}
_ACTION_COUNTS: dict[int, Any] = {}


def draw_scenario(draw: Any, kinds: tuple[str, ...], max_actions: int = 2, play_rules: Any = None) -> dict[str, Any]:
    """A valid play-rulebook scenario: a play state and 1..max_actions play actions, the pool aligned to the first."""
    key = ("play", kinds)
    if key not in _STRATEGY_CACHE:
        _STRATEGY_CACHE[key] = st.sampled_from(kinds)
    kind_choice = _STRATEGY_CACHE[key]
    state = draw_play_state(draw)
    steps = _ACTION_COUNTS.get(max_actions)
    if steps is None:  # built once per count (st.integers at each scenario cost more than the draw)
        steps = _ACTION_COUNTS[max_actions] = st.integers(1, max(max_actions, 1))
    actions = [KINDS[draw(kind_choice)].draw(draw, state) for _ in range(draw(steps))]
    _align_pool(draw, state, actions[0])
    rules = (play_rules if play_rules is not None else DEFAULT_PLAY_RULES).to_json()
    return {"protocol": PROTOCOL, "rulebook": "play", "rules": rules, "state": state, "actions": actions}
