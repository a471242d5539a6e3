"""Shrinking a failing scenario through the engine, holding its group key (or a key the drift guard accepts)."""

from __future__ import annotations

from typing import Any, Callable

from ..compare import Divergence
from ...engines.transports import Engine
from ..judging import _public, engine_answers, judge
from ..outcome import CheckOptions, _said
from .filing import _keys_of, group_key_of


def _still_diverges(engine: Engine, scenario: dict[str, Any], options: CheckOptions) -> bool:
    """Run the scenario once more: does it still diverge?"""
    sent = {**_public(scenario), "id": "again"}
    verdict, _ = judge(sent, engine_answers(engine, [sent])[0], options.comparison)
    return verdict == "mismatch"


def _shrink(
    engine: Engine, scenario: dict[str, Any], divergences: list[Divergence], options: CheckOptions,
    key: str | None = None, behind: bool = False, accept: Callable[[str], bool] | None = None,
    refused: set[str] | None = None,
) -> tuple[dict[str, Any], list[Divergence], int]:
    """Shrink a failing scenario through the engine, in batches; its new divergences.

    With a group ``key`` (``--keep-going``), a smaller scenario is kept only if its first divergence
    still has that key: the shrink never drifts into another group's divergence. ``behind``: the group's
    difference lies behind another's first divergence (:func:`_behind_first`), and must still lie there.
    With no key, ``accept``: a smaller scenario is kept only if its first divergence's key is one it accepts (a
    settling shrink kept to the keys the drift guard allows, :func:`_drift_guard`); ``refused`` collects the keys of the
    failing candidates it did not accept (the merges the guard declined: the report says so).
    """
    from ..shrink import shrink

    found: dict[str, Any] = {}

    def still_fails(batch_scenarios: list[dict[str, Any]]) -> int | None:
        sent = [{**s, "id": f"shrink{i}"} for i, s in enumerate(batch_scenarios)]
        for i, (scenario_i, answer) in enumerate(zip(sent, engine_answers(engine, sent))):
            verdict, detail = judge(scenario_i, answer, options.comparison)
            if verdict != "mismatch":
                continue
            keys = {None: detail} if key is None and accept is None else _keys_of(scenario_i, detail) if behind else \
                {group_key_of(scenario_i, detail): detail}
            held = _held_key(keys, key, accept)
            if held is not _NOT_HELD:
                found["divergences"] = keys[held]
                return i
            if refused is not None and accept is not None:
                refused.add(next(iter(keys)))
        return None

    smaller, calls = shrink(_public(scenario), still_fails, batch=max(1, engine.batch_size), budget=options.shrink_budget)
    return smaller, found.get("divergences", divergences), calls


_NOT_HELD = object()


def _held_key(keys: dict[Any, list[Divergence]], key: str | None, accept: Callable[[str], bool] | None) -> Any:
    """Which of a candidate's keys lets a shrink keep it (:func:`_shrink`): the key held, else its own key where
    ``accept`` takes it; :data:`_NOT_HELD`: none."""
    if key in keys:
        return key
    own = next(iter(keys))
    return own if accept is not None and accept(own) else _NOT_HELD


def _store_shrunk(campaign: Any, found: dict[str, Any], shrunk: dict[str, Any],
                  divergences: list[Divergence]) -> None:
    """The shrunk scenario in the failure store in place of the one found (written first, then the other removed)."""
    if campaign.store is not None and _public(shrunk) != _public(found):
        campaign.store.replace(_public(found), _public(shrunk), "mismatch", _said("mismatch", divergences),
                               campaign.options.comparison.to_json())
