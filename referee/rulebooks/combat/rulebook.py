"""The combat rulebook as the generic tools see it (:class:`referee.rulebook.Rulebook`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from typing import Any

from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.events import Event

from ...rulebook import ActionKind, Divergence, Vector
from ...trail import Step
from ...wire import Observation, Scenario
from . import codec, compare, generate, run, schema, shrink, vectors
from .features import FEATURES, features_used
from .kinds import KINDS


class CombatRulebook:
    """Chapters 400, 500 and 800: a board of units, damage, costs, retaliation, Bloodletting."""

    name = "combat"
    is_default = True
    kinds: dict[str, ActionKind] = KINDS
    state_fields = compare.STATE_FIELDS
    state_key = "board"
    features = FEATURES
    default_rules = DEFAULT
    vectors_method = vectors.METHOD

    def rule_options(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(Ruleset))

    def rules_from_options(self, values: dict[str, Any]) -> Ruleset:
        return Ruleset.from_json(values)

    def rules_to_json(self, rules: Ruleset) -> dict[str, Any]:
        return rules.to_json()

    def decode_scenario(self, data: dict[str, Any], path: str = "scenario") -> Scenario:
        return run.decode_scenario(data, path)

    def run(self, scenario: Scenario) -> tuple[Any, tuple[Event, ...]]:
        return run.run(scenario)

    def observe(self, scenario: dict[str, Any]) -> tuple[Any, tuple[Event, ...], list[Step]]:
        return run.observe(scenario)

    def observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> Observation:
        return codec.CombatObservation(state, events, id=sid)

    def encode_observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> dict[str, Any]:
        return codec.encode_observation(state, events, sid)

    def decode_observation(self, data: dict[str, Any], path: str = "observation", *,
                           fields_needed: tuple[str, ...] | None = None, events_needed: bool = True) -> Observation:
        return codec.decode_observation(data, path, fields_needed=fields_needed, events_needed=events_needed)

    def state_divergences(self, model: Observation, engine: Observation, fields_: tuple[str, ...]) -> list[Divergence]:
        return compare.state_divergences(model, engine, fields_)

    def describe_state(self, fields_: tuple[str, ...] | None) -> str:
        return compare.describe_state(fields_)

    def compact(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return shrink.compact(scenario)

    def shrink_candidates(self, scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
        return shrink.candidates(scenario)

    def is_shrink_valid(self, scenario: dict[str, Any]) -> bool:
        return shrink.is_shrink_valid(scenario)

    def draw_scenario(self, draw: Any, kinds: tuple[str, ...], max_actions: int, rules: Any,
                      features: frozenset[str] | None = None, swarm: bool = False) -> dict[str, Any]:
        return generate.draw_scenario(draw, kinds, max_actions, rules, features=features, swarm=swarm)

    def features_used(self, scenario: dict[str, Any]) -> set[str]:
        return features_used(scenario)

    def scenario_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return schema.scenario_schema()

    def observation_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return schema.observation_schema()

    def vectors(self, progress: Callable[[str], None] | None = None, only: str | None = None) -> tuple[list[Vector], Any]:
        found, coverage = vectors.generate(progress, only)
        return found, coverage


RULEBOOK = CombatRulebook()
