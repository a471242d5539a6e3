"""The play rulebook as the generic tools see it (:class:`referee.rulebook.Rulebook`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from typing import Any

from referee.model.play.rules import DEFAULT_PLAY_RULES as DEFAULT, PlayRules as Ruleset
from referee.model.events import Event

from ...rulebook import ActionKind, Divergence, Vector
from ...trail import Step
from ...wire import Observation, Scenario
from . import codec, compare, generate, run, shrink, vectors
from .schema import rules_schema, state_schema
from ...rulebook import action_schema
from ...wire import PROTOCOL
from .kinds import KINDS


class PlayRulebook:
    """Paying costs and playing a card (the `004_*` seed): a play state, `play_card` and `activate`."""

    name = "play"
    is_default = False
    kinds: dict[str, ActionKind] = KINDS
    state_fields = compare.STATE_FIELDS
    state_key = "state"
    features: dict[str, Any] = {}
    default_rules = DEFAULT
    vectors_method = vectors.METHOD

    def rule_options(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(Ruleset))

    def rules_from_options(self, values: dict[str, Any]) -> Ruleset:
        return Ruleset.from_json(values)

    def rules_to_json(self, rules: Ruleset) -> dict[str, Any]:
        return {f.name: getattr(rules, f.name) for f in fields(Ruleset)}

    def decode_scenario(self, data: dict[str, Any], path: str = "scenario") -> Scenario:
        return run.decode_scenario(data, path)

    def run(self, scenario: Scenario) -> tuple[Any, tuple[Event, ...]]:
        return run.run(scenario)

    def observe(self, scenario: dict[str, Any]) -> tuple[Any, tuple[Event, ...], list[Step]]:
        return run.observe(scenario)

    def observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> Observation:
        return Observation(state, events, id=sid)

    def encode_observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> dict[str, Any]:
        return codec.encode_observation(state, events, sid)

    def decode_observation(self, data: dict[str, Any], path: str = "observation", *,
                           fields_needed: tuple[str, ...] | None = None, events_needed: bool = True) -> Observation:
        return codec.decode_observation(data, path, fields_needed=fields_needed, events_needed=events_needed)

    def state_divergences(self, model: Observation, engine: Observation, fields_: tuple[str, ...]) -> list[Divergence]:
        return compare.state_divergences(model.state, engine.state)

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
        return generate.draw_scenario(draw, kinds, max_actions, rules)

    def features_used(self, scenario: dict[str, Any]) -> set[str]:
        return set()

    def scenario_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        scenario = {
            "type": "object",
            "properties": {
                "protocol": {"const": PROTOCOL},
                "id": {"type": "string", "description": "echoed back in the observation"},
                "rulebook": {"const": "play"},
                "rules": rules_schema(),
                "state": {"$ref": "#/$defs/play_state"},
                "actions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/play_action"}},
            },
            "required": ["protocol", "rulebook", "state", "actions"],
            "additionalProperties": False,
        }
        actions = {"oneOf": [action_schema(kind) for kind in KINDS.values()]}
        return scenario, {"play_state": state_schema(complete=False), "play_action": actions}

    def observation_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"state": {"$ref": "#/$defs/play_state"}}, {"play_state": state_schema(complete=True)}

    def vectors(self, progress: Callable[[str], None] | None = None, only: str | None = None) -> tuple[list[Vector], Any]:
        wanted = only is None or "play".startswith(only) or only.startswith("play")
        return (vectors.play_vectors() if wanted else []), None


RULEBOOK = PlayRulebook()
