"""Drawing a whole combat scenario: a board, then actions of the chosen kinds."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat.ruleset import DEFAULT, Ruleset

from ...wire import PROTOCOL
from .codec import UNIT_DEFAULTS, UNIT_FIELDS
from .features import FEATURES, neutralize, off_fields
from .kinds import KINDS
from .strategies import _STRATEGY_CACHE, draw_unit, link_allies

_UNIT_COUNTS = {n: st.integers(1, n) for n in range(1, 4)}
_ACTION_COUNTS: dict[int, Any] = {}


_COIN = st.booleans()
ALL_FEATURES = frozenset(FEATURES)


def _kind_choice(names: tuple[str, ...], off: frozenset[str]) -> tuple[frozenset[str], Any]:
    """The unit fields the kinds read (less the features that are off), and a strategy choosing a kind."""
    key = ("kinds", names, off)
    if key not in _STRATEGY_CACHE:
        wanted = frozenset(f for name in names for f in KINDS[name].unit_fields) - off_fields(off)
        _STRATEGY_CACHE[key] = (wanted, st.sampled_from(names))
    return _STRATEGY_CACHE[key]


def draw_features(draw: Any, allowed: frozenset[str], swarm: bool) -> frozenset[str]:
    """The features a scenario may use: all ``allowed``, or (swarm testing) a random subset of them."""
    if not swarm:
        return allowed
    return frozenset(name for name in sorted(allowed) if draw(_COIN))


def draw_scenario(
    draw: Any, kinds: tuple[str, ...], max_actions: int = 2, ruleset: Ruleset | None = None, max_units: int = 3,
    *, features: frozenset[str] | None = None, swarm: bool = False,
) -> dict[str, Any]:
    """A complete, valid combat scenario (JSON) over ``kinds``: units first, then aligned actions.

    It uses no feature outside ``features`` (None: every feature): what an alignment step
    set for one is put back at its default (:func:`.features.neutralize`).
    """
    on = draw_features(draw, ALL_FEATURES if features is None else features, swarm)
    off = ALL_FEATURES - on
    wanted, kind_choice = _kind_choice(tuple(kinds), off)
    count = draw(_UNIT_COUNTS[min(max(max_units, 1), 3)])
    units = [draw_unit(draw, i, wanted) for i in range(count)]
    link_allies(draw, units, wanted)
    actions, aligned = [], set()
    steps = _ACTION_COUNTS.setdefault(max_actions, st.integers(1, max(max_actions, 1)))
    for step in range(draw(steps)):
        action = KINDS[draw(kind_choice)].draw(draw, units)
        align = action.pop("_align", None) or {}
        if not aligned & set(align):  # whole or not at all: a unit keeps what an earlier action set it for
            for unit in units:
                unit.update(align.get(unit["uid"], {}))
            aligned.update(align)
        actions.append(action)
    scenario = {"protocol": PROTOCOL, "ruleset": (ruleset or DEFAULT).to_json(), "board": units, "actions": actions}
    return neutralize(scenario, off) if off else scenario


assert set(UNIT_DEFAULTS) | {"uid"} == set(UNIT_FIELDS)
