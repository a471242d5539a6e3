"""Event comparisons an engine opts into (``--event-fields``, ``--event-order``), never silently."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.check.compare import Comparison, first_event_divergence
from referee.model.events import EVENT_NAMES, Event
from referee.protocol import decode_observation
from referee.specs.trace import covers
from referee.wire import ProtocolError

ALL = frozenset(EVENT_NAMES)


def lost(unit: str, amount: int = 5) -> Event:
    return Event("vitality_lost", unit=unit, amount=amount)


def drained(unit: str, amount: int = 3, source: str | None = "e") -> Event:
    return Event("shield_damaged", unit=unit, amount=amount, other=source)


def divergence(model, engine, order="strict", fields=None):
    return first_event_divergence(tuple(model), tuple(engine), ALL, fields, order)


@covers("combat:500.6c")
def test_units_interleaved_differently_diverge_in_strict_order_and_agree_per_unit_and_as_a_multiset():
    model, engine = [drained("a"), lost("a"), lost("b")], [lost("b"), drained("a"), lost("a")]
    found = divergence(model, engine)
    assert found is not None and found.path == "events[0]"
    assert divergence(model, engine, "per-unit") is None
    assert divergence(model, engine, "multiset") is None


@covers("combat:500.1-10", "combat:500.6c")
def test_one_units_own_events_out_of_order_are_caught_per_unit_but_not_as_a_multiset():
    model, engine = [drained("a"), lost("a")], [lost("a"), drained("a")]
    found = divergence(model, engine, "per-unit")
    assert found is not None and found.path == "events[unit=a][0]"
    assert found.model["name"] == "shield_damaged" and found.engine["name"] == "vitality_lost"
    assert divergence(model, engine, "multiset") is None


@covers("combat:500.6c")
@pytest.mark.parametrize("order", ["strict", "per-unit", "multiset"])
def test_a_missing_event_or_a_wrong_amount_is_caught_in_every_order(order):
    model = [drained("a"), lost("a"), lost("b")]
    missing = divergence(model, [drained("a"), lost("a")], order)
    assert missing is not None and missing.model == lost("b").to_json() and missing.engine is None
    assert missing.event_index == 2  # the trail reads the model's own index
    wrong = divergence(model, [drained("a"), lost("a", 6), lost("b")], order)
    assert wrong is not None and (wrong.model or {}).get("amount") in (5, None)
    extra = divergence(model, [*model, lost("b")], order)
    assert extra is not None and extra.model is None and extra.engine == lost("b").to_json()


@covers("combat:500.1-10")
def test_event_fields_compare_only_the_chosen_fields():
    model, engine = [drained("a", source="e")], [drained("a", source=None)]
    assert divergence(model, engine) is not None
    assert divergence(model, engine, fields=("name", "unit", "amount")) is None
    found = divergence([drained("a", 3)], [drained("a", 4)], fields=("name", "unit", "amount"))
    assert found is not None and found.model == {"name": "shield_damaged", "unit": "a", "amount": 3}


def test_the_options_are_parsed_described_and_reported():
    how = Comparison.from_options("full", None, None, "amount,name,unit", "per-unit")
    assert how.event_fields == ("name", "unit", "amount") and how.event_order == "per-unit"
    assert "in order per unit" in how.describe() and "other, detail ignored" in how.describe()
    assert how.to_json()["event_fields"] == ["name", "unit", "amount"] and how.to_json()["event_order"] == "per-unit"
    assert how.cli_words() == ["--event-fields", "name,unit,amount", "--event-order", "per-unit"]
    default = Comparison.from_options()
    assert default.event_fields is None and default.event_order == "strict" and default.cli_words() == []
    assert default.describe().endswith("every event, in order")
    assert Comparison.from_options(event_order="multiset").describe().endswith("every event, in any order")
    assert Comparison.from_options(event_fields="name,unit,amount,other,detail").event_fields is None


@pytest.mark.parametrize(
    "event_fields, order, message",
    [
        ("name,colour", None, r"unknown event field\(s\) colour"),
        ("unit,amount", None, "must include name"),
        (None, "sorted", "is not one of strict, per-unit, multiset"),
        ("name,amount", "per-unit", "per-unit needs unit"),
    ],
)
def test_invalid_event_options_are_usage_errors(event_fields, order, message):
    with pytest.raises(ValueError, match=message):
        Comparison.from_options("full", None, None, event_fields, order)


@covers("combat:500.8d")
def test_a_field_left_out_of_the_comparison_is_not_held_to_its_contract_either():
    observation = {"protocol": "referee/2", "board": [], "events": [
        {"name": "vitality_lost", "unit": "a", "amount": 3, "other": "b", "detail": None}]}
    with pytest.raises(ProtocolError, match=r"events\[0\]\.other: always null for vitality_lost"):
        decode_observation(observation, fields_needed=())
    decoded = decode_observation(observation, fields_needed=(), event_fields=("name", "unit", "amount"))
    assert decoded.events[0].other == "b"


def test_check_prints_the_event_options_in_the_compared_line_and_in_json():
    runner = CliRunner()
    args = ["check", "--python", "referee.examples.engine:run", "--examples", "20", "--seed", "3", "--kinds", "damage",
            "--event-fields", "name,unit,amount", "--event-order", "multiset", "--database", ""]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "in any order, on the fields name, unit, amount only (other, detail ignored)" in text.output
    report = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert report["compared"]["event_order"] == "multiset"
    assert report["compared"]["event_fields"] == ["name", "unit", "amount"]
    bad = runner.invoke(app, [*args[:-4], "--event-order", "sideways"])
    assert bad.exit_code == 2 and "sideways" in bad.output
