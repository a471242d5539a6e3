"""A profile covers observations: what it leaves out is neither required from an engine nor compared.

``examples/damage_engine.py`` implements the damage pipeline's core alone and answers with only its
fields and events; ``examples/profile_engine.py`` answers as the full example engine but with only
the fields and events it is told to keep. Both pass under the profile that matches what they
report, and fail (a missing field, a missing event) under one that asks for more.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.engines.transports import make_engine
from referee.check.harness import CheckOptions, check, replay
from referee.model.events import EVENTS
from referee.rulebooks.combat.features import CORE, FEATURES

EVERY_FEATURE = ",".join(FEATURES)
PROFILE = "referee.examples.profile_engine:run"


def _keep(monkeypatch: pytest.MonkeyPatch, features: list[str], drop_fields=(), drop_events=()) -> None:
    """Have the profile engine keep the fields and events of the core and ``features`` (less those dropped)."""
    kept = [CORE, *(FEATURES[name] for name in features)]
    monkeypatch.setenv("PROFILE_FIELDS", ",".join(n for f in kept for n in f.fields if n not in drop_fields))
    monkeypatch.setenv("PROFILE_EVENTS", ",".join(k for f in kept for k in f.events if k not in drop_events))


def _check(features: frozenset[str], kinds: tuple[str, ...] = ("damage",), examples: int = 32, seed: int = 1):
    engine = make_engine(PROFILE, None, 5.0, 32, in_process=True)
    with engine:
        return check(engine, CheckOptions(examples=examples, seed=seed, kinds=kinds, features=features,
                                          database=None, state_dir=None))


def test_the_damage_engine_passes_with_every_feature_left_out(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.damage_engine:run", "--kinds", "damage",
                                      "--without", EVERY_FEATURE, "--examples", "96", "--seed", "3", "--database", ""])
    assert result.exit_code == 0, result.output
    assert "referee check: PASS" in result.output
    assert "left out by the profile (neither required nor compared): unit fields adrenaline, armor," in result.output


def test_the_damage_engine_is_asked_for_the_fields_of_a_feature_the_profile_keeps(in_tmp):
    others = ",".join(name for name in FEATURES if name != "shield")
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.damage_engine:run", "--kinds", "damage",
                                      "--without", others, "--examples", "32", "--seed", "3", "--database", ""])
    assert result.exit_code == 3, result.output
    assert "observation.board[0].shield: missing" in result.output


@pytest.mark.parametrize("name", list(FEATURES))
def test_one_more_feature_at_a_time(in_tmp, monkeypatch, name):
    _keep(monkeypatch, [name])
    report = _check(frozenset({name}))
    assert report.status == "pass", report.text()
    assert set(FEATURES[name].fields) <= set(report.comparison.unit_fields)
    assert not set(FEATURES[name].events) & report.comparison.events_off


def test_a_kept_field_the_engine_leaves_out_is_a_missing_fault(in_tmp, monkeypatch):
    _keep(monkeypatch, ["shield"], drop_fields=("shield",))
    report = _check(frozenset({"shield"}))
    assert report.status == "fault" and "shield: missing" in report.fault.describe()


def test_a_kept_event_the_engine_leaves_out_is_a_divergence(in_tmp, monkeypatch):
    _keep(monkeypatch, ["credit"], drop_events=("credit",))
    report = _check(frozenset({"credit"}), examples=64)
    assert report.status == "mismatch", report.text()
    assert report.divergences[0].model["name"] == "credit"


@pytest.mark.parametrize("name, kinds", [("charge", ("bloodletting", "damage")), ("armor_change", ("armor_debuff",)),
                                         ("vessel_batch", ("damage", "cull"))])
def test_charge_armor_change_and_vessel_batch_can_each_be_left_out(in_tmp, monkeypatch, name, kinds):
    everything_else = [other for other in FEATURES if other != name]
    _keep(monkeypatch, everything_else)
    report = _check(frozenset(everything_else), kinds=kinds, examples=64)
    assert report.status == "pass", report.text()
    assert name in report.comparison.describe()


def test_events_minus_vessel_batch_on_the_command_line(in_tmp, monkeypatch):
    monkeypatch.setenv("PROFILE_EVENTS", ",".join(n for n in EVENTS if n != "vessel_batch"))
    base = ["check", "--python", PROFILE, "--kinds", "cull", "--examples", "32", "--seed", "2", "--database", ""]
    result = CliRunner().invoke(app, [*base, "--events", "-vessel_batch"])
    assert result.exit_code == 0, result.output
    assert "every event but vessel_batch" in result.output
    assert CliRunner().invoke(app, [*base, "--events=-vessel_batch"]).exit_code == 0
    missing = CliRunner().invoke(app, base)
    assert missing.exit_code == 1 and "vessel_batch" in missing.output


def test_a_replayed_scenario_using_a_left_out_feature_is_refused(in_tmp):
    scenario = {"protocol": "referee/2", "board": [{"uid": "a", "shield": 5}, {"uid": "b", "side": 1}],
                "actions": [{"kind": "damage", "target": "a", "amount": 3, "source": "b"}]}
    engine = make_engine("referee.examples.damage_engine:run", None, 5.0, 1, in_process=True)
    with engine:
        report = replay(engine, json.loads(json.dumps(scenario)), CheckOptions(features=frozenset(), state_dir=None))
    assert report.status == "model-error"
    assert "uses shield, which the profile leaves out" in report.error
