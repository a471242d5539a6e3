"""The play rulebook as the generic tools see it (:class:`referee.rulebook.Rulebook`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.model.play.rules import DEFAULT_PLAY_RULES as DEFAULT, PlayRules as Ruleset
from referee.model.events import Event

from ...rulebook import ActionKind, Divergence, PackageRulebook, Vector
from ...wire import Observation
from . import codec, compare, exhaust, generate, run, shrink, vectors
from .schema import rules_schema, state_schema
from ...rulebook import action_schema
from ...wire import PROTOCOL
from .kinds import KINDS


class PlayRulebook(PackageRulebook):
    """Paying costs and playing a card (the `004_*` seed): a play state, `play_card` and `activate`."""

    name = "play"
    is_default = False
    kinds: dict[str, ActionKind] = KINDS
    state_fields = compare.STATE_FIELDS
    state_key = "state"
    features: dict[str, Any] = {}
    default_rules = DEFAULT
    vectors_method = vectors.METHOD

    rules_class = Ruleset
    run_module, codec, compare, shrink = run, codec, compare, shrink

    def observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> Observation:
        return Observation(state, events, id=sid)

    def state_divergences(self, model: Observation, engine: Observation, fields_: tuple[str, ...]) -> list[Divergence]:
        return compare.state_divergences(model.state, engine.state)

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

    def vectors(self, progress: Callable[[str], None] | None = None, only: str | None = None,
                profile: Any = None) -> tuple[list[Vector], Any]:
        wanted = only is None or "play".startswith(only) or only.startswith("play")
        return (vectors.play_vectors() if wanted else []), None


    def exhaust_families(self, tier: str) -> list[Any]:
        """The families of an exhaustive tier (``referee exhaust``; :mod:`.exhaust`)."""
        return exhaust.families(tier)


RULEBOOK = PlayRulebook()
