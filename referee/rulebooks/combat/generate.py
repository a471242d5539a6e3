"""Drawing a whole combat scenario: a board, then actions of the chosen kinds."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat.legal import ACTIVATION_LANES
from referee.model.combat.ruleset import DEFAULT, Ruleset

from ...wire import PROTOCOL
from .codec import UNIT_DEFAULTS, UNIT_FIELDS
from .features import FEATURES, neutralize, off_fields
from .kinds import KINDS
from .strategies import _STRATEGY_CACHE, draw_unit, link_allies

#: How many units: 1..n, the full board (where allies and enemies meet: a redirect, a revival listener, a
#: Subrogated payback, Reflect) three times as often as each smaller one. Uniform, a duel's boss found no enemy
#: to Reflect at in half its draws, and revival_ally (which needs an ally) stayed under 1%.
_UNIT_COUNTS = {n: st.sampled_from((*range(1, n + 1), n, n)) if n > 1 else st.just(1) for n in range(1, 4)}
_ACTION_COUNTS: dict[int, Any] = {}


_COIN = st.booleans()
ALL_FEATURES = frozenset(FEATURES)
_NO_FEATURES: frozenset[str] = frozenset()


#: How often each kind is drawn, relative to the others, where several are drawn (a kind not named: 2). A
#: ``hit`` carries every retaliation (Thorns, Riposte, Retort, Reflect: 500.6-7) on top of the damage
#: pipeline, a ``cull`` the deaths the clock revives (500.9), ``ability`` and ``recover`` the recovery events;
#: the clock's own kinds mean something only after a death, and a ``cull`` of an Everlasting unit draws
#: ``advance`` after it anyway (``advance`` is 2 for a mix of ``cull`` and ``advance`` alone, where a revival
#: retried on later ticks needs several). With every kind equal, 13 event names stayed under 1% of the default
#: mix; with hit 6, cull 4, ability 3, recover 3, cost 3 and the rest 2 or 1, six (docs/performance.md,
#: "Coverage of the default mix"); ``bloodletting`` (800.4: an aborted activation) and ``tick`` (a prevented
#: tick) rose with the others so that their events stayed over 1%.
KIND_WEIGHTS = {"hit": 9, "cull": 7, "ability": 7, "recover": 6, "cost": 4, "bloodletting": 4, "tick": 3,
                "damage": 2, "armor_debuff": 1, "advance": 2, "end_combat": 1}


def _kind_choice(names: tuple[str, ...], off: frozenset[str]) -> tuple[frozenset[str], Any]:
    """The unit fields the kinds read (less the features that are off), and a strategy choosing a kind."""
    key = ("kinds", names, off)
    if key not in _STRATEGY_CACHE:
        wanted = frozenset(f for name in names for f in KINDS[name].unit_fields) - off_fields(off)
        weighted = names if len(names) == 1 else tuple(n for n in names for _ in range(KIND_WEIGHTS.get(n, 2)))
        _STRATEGY_CACHE[key] = (wanted, st.sampled_from(weighted))
    return _STRATEGY_CACHE[key]


def _follow_up(draw: Any, hint: tuple[str, ...] | None, kinds: tuple[str, ...]) -> str | None:
    """The kind the second action is when the first names follow-ups (``_then``: a ``cull`` of an Everlasting
    unit names ``advance`` and ``end_combat``, since a revival needs a death, then time), among ``kinds``."""
    if not hint:
        return None
    allowed = tuple(h for h in hint if h in kinds)
    if not allowed:
        return None
    if len(allowed) == 1:
        return allowed[0]
    strategy = _STRATEGY_CACHE.get(("then", allowed))
    if strategy is None:  # built once per follow-up list
        strategy = _STRATEGY_CACHE[("then", allowed)] = st.sampled_from(allowed)
    return draw(strategy)


_LAST_RULESET: list[tuple[Any, Any]] = [(None, None)]  # (the last ruleset drawn for, its JSON), read in one step


def _ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    """``ruleset.to_json()``, a fresh dict each time, built once while the same ruleset object is drawn for (a run
    draws every scenario for one; its values are strings and ints, and hashing the frozen dataclass costs more)."""
    last = _LAST_RULESET[0]
    if last[0] is not ruleset:
        last = _LAST_RULESET[0] = (ruleset, ruleset.to_json())
    return dict(last[1])


def draw_features(draw: Any, allowed: frozenset[str], swarm: bool) -> frozenset[str]:
    """The features a scenario may use: all ``allowed``, or (swarm testing) a random subset of them."""
    if not swarm:
        return allowed
    # a feature no scenario carries (its events alone) changes no draw: it stays on, and costs no coin
    return frozenset(name for name in sorted(allowed) if not FEATURES[name].drawn or draw(_COIN))


def draw_scenario(
    draw: Any, kinds: tuple[str, ...], max_actions: int = 2, ruleset: Ruleset | None = None, max_units: int = 3,
    *, features: frozenset[str] | None = None, swarm: bool = False,
) -> dict[str, Any]:
    """A complete, valid combat scenario (JSON) over ``kinds``: units first, then aligned actions.

    It uses no feature outside ``features`` (None: every feature): what an alignment step
    set for one is put back at its default (:func:`.features.neutralize`).
    """
    on = draw_features(draw, ALL_FEATURES if features is None else features, swarm)
    off = ALL_FEATURES - on if on is not ALL_FEATURES else _NO_FEATURES
    wanted, kind_choice = _kind_choice(tuple(kinds), off)
    count = draw(_UNIT_COUNTS[min(max(max_units, 1), 3)])
    units = [draw_unit(draw, i, wanted) for i in range(count)]
    link_allies(draw, units, wanted)
    actions: list[dict[str, Any]] = []
    if max_actions not in _ACTION_COUNTS:  # 1..max_actions, the most three times as often as each fewer
        top = max(max_actions, 1)
        _ACTION_COUNTS[max_actions] = st.sampled_from((*range(1, top + 1), top, top)) if top > 1 else st.just(1)
    steps = _ACTION_COUNTS[max_actions]
    count, then = draw(steps), None
    step, aligned = 0, set()
    while step < count:
        kind = then if then is not None else draw(kind_choice)
        action = KINDS[kind].draw(draw, units)
        align = action.pop("_align", None) or {}
        hint = action.pop("_then", None)
        then = None
        _apply_alignment(units, align, aligned)
        if step == 0:
            then = _follow_up(draw, hint, kinds) if max_actions > 1 else None
            count = max(count, 2) if then else count
        actions.append(action)
        step += 1
    scenario = {"protocol": PROTOCOL, "ruleset": _ruleset_json(ruleset or DEFAULT), "board": units, "actions": actions}
    return keep_actors_alive(neutralize(scenario, off) if off else scenario)


def keep_actors_alive(scenario: dict[str, Any]) -> dict[str, Any]:
    """A later action's alignment may have left an earlier action's actor dead on the board: such a hit, Tremor
    half or AoE share becomes sourceless, and such a Bloodletting caster's activation hits are dropped, so the
    scenario stays a legal state (a dead unit deals no hit, 400.8b; ``referee.model.combat.legal``)."""
    alive = {u["uid"]: u.get("alive", True) for u in scenario["board"]}
    for action in scenario["actions"]:
        if action["kind"] in ("damage", "hit") and action.get("damage_kind", "hit") in ACTIVATION_LANES:
            if action.get("source") is not None and not alive.get(action["source"], True):
                action["source"] = None
        elif action["kind"] == "bloodletting" and not alive.get(action["caster"], True):
            action["hits"] = [h for h in action["hits"] if h.get("damage_kind", "hit") not in ACTIVATION_LANES]
    return scenario


def _apply_alignment(units: list[dict[str, Any]], align: dict[str, dict[str, Any]], aligned: set[str]) -> None:
    """An action's alignment, put on the board only when no earlier alignment touched its units (all of them or
    none: an alignment is coherent across units, a redirect's ally); ``aligned`` gains the units it touched."""
    touched = [uid for uid, fields in align.items() if fields]
    if aligned.isdisjoint(touched):
        for unit in units:
            fields = align.get(unit["uid"])
            if fields:
                unit.update(fields)
        aligned.update(touched)


assert set(UNIT_DEFAULTS) | {"uid"} == set(UNIT_FIELDS)
