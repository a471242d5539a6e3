"""The combat rulebook as the generic tools see it (:class:`referee.rulebook.Rulebook`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.events import Event

from ...rulebook import ActionKind, Divergence, PackageRulebook, Vector
from ...wire import Observation
from . import battles, codec, compare, exhaust, generate, run, schema, shrink, vectors
from .features import CORE, FEATURES, features_used
from .kinds import KINDS


class CombatRulebook(PackageRulebook):
    """Chapters 400, 500 and 800: a board of units, damage, costs, retaliation, Bloodletting."""

    name = "combat"
    is_default = True
    kinds: dict[str, ActionKind] = KINDS
    state_fields = compare.STATE_FIELDS
    state_key = "board"
    features = FEATURES
    #: What no profile leaves out (``referee features`` lists it first).
    core_feature = CORE
    default_rules = DEFAULT
    vectors_method = vectors.METHOD
    #: Events no scenario of the default readings reaches: no action activates a unit (the Reliquary clear,
    #: 500.9l), and a revival finds no full half while the cell of death is tried first and nothing moves into
    #: it (``everlasting_delayed`` needs ``--ruleset everlasting_slot_order=reading_order``, INT-404).
    unreachable_events = ("reliquary_cleared", "everlasting_delayed")

    rules_class = Ruleset
    run_module, codec, compare, shrink = run, codec, compare, shrink

    def rules_to_json(self, rules: Ruleset) -> dict[str, Any]:
        return rules.to_json()

    def observation(self, state: Any, events: tuple[Event, ...], sid: str | None = None) -> Observation:
        return codec.CombatObservation(state, events, id=sid)

    def state_divergences(self, model: Observation, engine: Observation, fields_: tuple[str, ...]) -> list[Divergence]:
        return compare.state_divergences(model, engine, fields_)

    def draw_scenario(self, draw: Any, kinds: tuple[str, ...], max_actions: int, rules: Any,
                      features: frozenset[str] | None = None, swarm: bool = False) -> dict[str, Any]:
        return generate.draw_scenario(draw, kinds, max_actions, rules, features=features, swarm=swarm)

    def features_used(self, scenario: dict[str, Any]) -> set[str]:
        return features_used(scenario)

    def scenario_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return schema.scenario_schema()

    def observation_schema(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return schema.observation_schema()

    def vectors(self, progress: Callable[[str], None] | None = None, only: str | None = None,
                profile: Any = None) -> tuple[list[Vector], Any]:
        found, coverage = vectors.generate(progress, only, profile)
        return found, coverage

    def draw_battle(self, draw: Any, kinds: tuple[str, ...], count: int, rules: Any,
                    features: frozenset[str] | None = None) -> dict[str, Any]:
        """A whole battle of ``count`` actions (``referee check --battle``; :mod:`.battles`)."""
        ruleset = rules.to_json() if rules is not None else None
        return battles.draw_battle(draw, count, kinds, ruleset, features=features)

    def exhaust_families(self, tier: str) -> list[Any]:
        """The families of an exhaustive tier (``referee exhaust``; :mod:`.exhaust`)."""
        return exhaust.families(tier)

    def exercised_branches(self, scenario: dict[str, Any]) -> list[str]:
        """The branches of the vector search a scenario's concrete model run takes."""
        return vectors.exercised_branches(scenario)


RULEBOOK = CombatRulebook()
