"""The harness checks an engine's events against the one declaration (``referee.model.events.EVENTS``).

Both checks derive from it and must agree: the decoder (``referee.wire.event_from_json``), which
classifies a contract break as a ``schema`` fault naming the field's path, and the published
JSON Schema (``referee schema observation``), which fails at the same path.
"""

from __future__ import annotations

import copy
import random

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.check.harness import model_observation
from referee.model.events import EVENTS
from referee.protocol import decode_observation, encode_observation, observation_schema
from referee.specs.trace import covers
from referee.check.strategies import scenarios
from referee.wire import ProtocolError

VALIDATOR = jsonschema.Draft202012Validator(observation_schema())


def _observation(events: list[dict]) -> dict:
    return {"protocol": "referee/2", "board": [], "events": events}


def _event(name: str, **fields) -> dict:
    return {"name": name, "unit": "a", "amount": 0, "other": None, "detail": None, **fields}


def _decode_error(observation: dict) -> ProtocolError | None:
    try:
        decode_observation(observation, fields_needed=())
    except ProtocolError as error:
        return error
    return None


def _schema_paths(observation: dict) -> list[str]:
    return [".".join(str(p) for p in e.absolute_path) for e in VALIDATOR.iter_errors(observation)]


@covers("combat:500.8d")
def test_an_event_carrying_a_field_its_contract_declares_null_is_a_schema_fault_naming_the_path():
    events = [_event("vitality_lost", amount=3), _event("shield_damaged", amount=3, other="b"),
              _event("threshold_reevaluated"), _event("vitality_lost", amount=3, other="b")]
    error = _decode_error(_observation(events))
    assert error is not None and error.kind == "schema"
    assert str(error) == "observation.events[3].other: always null for vitality_lost"
    assert _schema_paths(_observation(events)) == ["events.3.other"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(_observation(events), observation_schema())


@covers("combat:500.8d", "combat:500.1-10")
@pytest.mark.parametrize(
    "event, path, message",
    [
        (_event("rune_reset", detail="fury"), "detail", "one of adrenaline, momentum, bolster for rune_reset, got 'fury'"),
        (_event("shield_broken", amount=4), "amount", "always 0 for shield_broken"),
        (_event("macabre"), "other", "never null for macabre (the dead unit)"),
        (_event("damage_taken", amount=3, detail=None), "detail", "never null for damage_taken"),
        (_event("death", unit=None), "unit", "never null for death (the dead unit)"),
    ],
)
def test_each_kind_of_contract_break_is_named_by_the_decoder_and_the_schema(event, path, message):
    error = _decode_error(_observation([event]))
    assert error is not None and error.path == f"observation.events[0].{path}" and str(error).startswith(
        f"observation.events[0].{path}: {message}")
    assert _schema_paths(_observation([event])), "the published schema must reject it too"


def test_every_event_name_has_its_own_contract_in_the_schema():
    branches = observation_schema()["$defs"]["event"]["allOf"]
    names = [b["if"]["properties"]["name"]["const"] for b in branches]
    assert names == list(EVENTS)


_FIELD_VALUES = {"unit": ["a", None], "other": ["b", None], "amount": [0, 5], "detail": [None, "plain", "dead", "x"]}


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(scenario=scenarios(max_actions=2), seed=st.integers(0, 2**32 - 1))
def test_the_decoder_and_the_published_schema_agree_on_model_events_and_on_broken_ones(scenario, seed):
    observation = model_observation(scenario)
    book_json = encode_observation(scenario.get("rulebook", "combat"), observation.state, observation.events)
    assert _decode_error(book_json) is None and not _schema_paths(book_json)
    if not book_json["events"]:
        return
    rng = random.Random(seed)
    broken = copy.deepcopy(book_json)
    index = rng.randrange(len(broken["events"]))
    field = rng.choice(sorted(_FIELD_VALUES))
    broken["events"][index][field] = rng.choice(_FIELD_VALUES[field])
    error = _decode_error(broken)
    paths = _schema_paths(broken)
    assert (error is None) == (not paths), (broken["events"][index], error, paths)
    if error is not None:
        assert error.path == f"observation.events[{index}].{field}"
        assert any(p in (f"events.{index}.{field}", f"events.{index}") for p in paths), paths
