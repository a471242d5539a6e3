"""The protocol referee/2: round trips, errors that name the field, schemas that agree."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from conftest import compiled
from referee.check.harness import model_observation
from referee.model.events import EVENT_NAMES
from referee.protocol import (
    PROTOCOL,
    ProtocolError,
    decode_observation,
    decode_scenario,
    schema_text,
)
from referee.rulebooks.combat.codec import encode_observation, encode_scenario
from referee.check.strategies import scenarios

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_SCHEMA = json.loads(schema_text("scenario"))
OBSERVATION_SCHEMA = json.loads(schema_text("observation"))


SCENARIO_VALIDATOR, OBSERVATION_VALIDATOR = compiled(SCENARIO_SCHEMA), compiled(OBSERVATION_SCHEMA)


def small_scenario(**unit_changes) -> dict:
    return {
        "protocol": PROTOCOL,
        "board": [{"uid": "a", **unit_changes}, {"uid": "b", "side": 1}],
        "actions": [{"kind": "damage", "target": "a", "amount": 30, "source": "b"}],
    }


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios())
def test_generated_scenarios_round_trip_and_validate(scenario):
    decoded = decode_scenario(scenario)
    again = encode_scenario(decoded.board, list(decoded.actions), decoded.ruleset)
    assert decode_scenario(again) == decoded
    SCENARIO_VALIDATOR.validate(scenario)
    observation = model_observation(scenario)
    encoded = encode_observation(observation.board, observation.events, "s1")
    OBSERVATION_VALIDATOR.validate(encoded)
    back = decode_observation(json.loads(json.dumps(encoded)))
    assert back.board == observation.board and back.events == observation.events and back.id == "s1"


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda s: s["board"].append({"uid": "c", "col": 2, "armor": "7"}), "scenario.board[2].armor", "expected integer"),
        (lambda s: s["board"][0].update(alive=1), "scenario.board[0].alive", "expected boolean"),
        (lambda s: s["board"][0].update(side=2), "scenario.board[0].side", "expected 0 or 1"),
        (lambda s: s["board"][0].update(colour="red"), "scenario.board[0].colour", "unknown unit field"),
        (lambda s: s["board"][1].update(uid="a"), "scenario.board[1].uid", "duplicate uid"),
        (lambda s: s["board"][1].update(side=0), "scenario.board[1]", "already holds"),
        (lambda s: s["board"][0].update(redirect_to="zz"), "scenario.board[0].redirect_to", "no unit"),
        (lambda s: s.update(protocol="referee/0"), "scenario.protocol", "expected 'referee/2'"),
        (lambda s: s.pop("board"), "scenario.board", "missing"),
        (lambda s: s.update(actions=[]), "scenario.actions", "at least one"),
        (lambda s: s["actions"][0].update(kind="explode"), "scenario.actions[0].kind", "unknown action kind"),
        (lambda s: s["actions"][0].pop("amount"), "scenario.actions[0].amount", "missing"),
        (lambda s: s["actions"][0].update(target="zz"), "scenario.actions[0].target", "no unit"),
        (lambda s: s["actions"][0].update(damage_kind="laser"), "scenario.actions[0].damage_kind", "expected one of"),
        (lambda s: s["actions"][0].update(riposte_rolls=[1]), "scenario.actions[0].riposte_rolls", "array of booleans"),
        (lambda s: s.update(ruleset={"negative_armor": "sideways"}), "scenario.ruleset", "negative_armor"),
        (lambda s: s.update(ruleset={"nope": 1}), "scenario.ruleset", "unknown option"),
    ],
)
def test_invalid_scenario_errors_name_the_field(change, path, words):
    scenario = small_scenario()
    change(scenario)
    with pytest.raises(ProtocolError) as caught:
        decode_scenario(scenario)
    assert str(caught.value).startswith(path + ":"), str(caught.value)
    assert words in str(caught.value)
    # the published schema rejects it too (except for cross-field rules a schema cannot state)
    if words not in ("duplicate uid", "already holds", "no unit", "at least one"):
        with pytest.raises(jsonschema.ValidationError):
            SCENARIO_VALIDATOR.validate(scenario)


def test_invalid_observation_errors_say_missing_or_schema():
    good = encode_observation(model_observation(small_scenario()).board, (), "s1")
    bad = json.loads(json.dumps(good))
    del bad["board"][1]["shield"]
    with pytest.raises(ProtocolError) as caught:
        decode_observation(bad)
    assert caught.value.kind == "missing" and caught.value.path == "observation.board[1].shield"
    # ...unless the comparison does not read that field
    decode_observation(bad, fields_needed=("vitality",))
    bad = json.loads(json.dumps(good))
    bad["events"] = [{"name": "kaboom"}]
    with pytest.raises(ProtocolError) as caught:
        decode_observation(bad)
    assert caught.value.kind == "schema" and caught.value.path == "observation.events[0].name"
    with pytest.raises(jsonschema.ValidationError):
        OBSERVATION_VALIDATOR.validate(bad)


def test_scenario_may_omit_unit_fields_that_are_at_default():
    decoded = decode_scenario(small_scenario(armor=81))
    assert decoded.board.unit("a").armor == 81 and decoded.board.unit("a").vitality == 100


@pytest.mark.parametrize("name", ["scenario", "observation"])
def test_published_schemas_match_referee_schema_output(name):
    text = schema_text(name)
    assert (ROOT / "referee" / "schema" / f"{name}.schema.json").read_text() == text, "run: referee schema --out referee/schema"
    assert (ROOT / "docs" / "schema" / f"{name}.schema.json").read_text() == text, "run: referee schema --out docs/schema"
    jsonschema.Draft202012Validator.check_schema(json.loads(text))


def test_protocol_reference_lists_every_event_name():
    text = (ROOT / "docs" / "protocol.md").read_text()
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.M))
    assert set(EVENT_NAMES) <= listed, sorted(set(EVENT_NAMES) - listed)
    assert listed - set(EVENT_NAMES) <= _other_names_in_tables(), sorted(listed - set(EVENT_NAMES))


def _other_names_in_tables() -> set[str]:
    """Backquoted table rows that are not events: unit fields, action fields, fault kinds."""
    from referee.actions import ACTION_KINDS
    from referee.engines.transports import FAULT_KINDS
    from referee.rulebooks.combat.codec import UNIT_FIELDS

    names = set(UNIT_FIELDS) | set(FAULT_KINDS) | set(ACTION_KINDS) | {"protocol", "id", "ruleset", "board", "actions", "events"}
    names |= {"full", "state", "fields"}  # comparison modes
    for kind in ACTION_KINDS.values():
        names |= {f.name for f in kind.fields}
    from referee.rulebooks.combat.kinds.damage import HIT_FIELDS
    from referee.model.combat.ruleset import Ruleset
    from dataclasses import fields

    from referee.rulebooks.combat.codec import LINE_FIELDS

    names |= {f.name for f in HIT_FIELDS} | {f.name for f in fields(Ruleset)} | {"name", "unit", "amount", "other", "detail"}
    names |= set(LINE_FIELDS)  # an ability's printed line (the ability action)
    from referee.rulebooks import RULEBOOKS

    names |= {option for book in RULEBOOKS.values() for option in book.rule_options()}  # the ruleset table
    return names
