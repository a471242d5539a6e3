"""An engine that does not implement an action kind refuses it by name; ``kinds = []`` is the first check.

docs/protocol.md "Refusing an action kind": an answer ``{"protocol", "id", "unsupported": {"kind", "reason"}}``
names one of the scenario's action kinds (the first the engine does not implement). ``referee check`` reports it as an ``unsupported`` engine fault saying
what to build next; under ``kinds = []`` (what ``referee init`` writes) it probes one scenario of every kind and
passes on refusals and valid observations alike, comparing nothing, and says so. The other verbs refuse
``kinds = []`` by name instead of reading it as "every kind".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.check.probe import probe_kinds, probe_scenario
from referee.cli.app import app
from referee.engines.transports import EngineFault, check_answer

RUNNER = CliRunner()
#: A skeleton as `referee init` writes one, in Python: every scenario refused by its first action's kind.
SKELETON = """
import json, sys
CRASH_ON = sys.argv[1] if len(sys.argv) > 1 else None
for line in sys.stdin:
    if not line.strip():
        continue
    scenario = json.loads(line)
    kind = scenario["actions"][0]["kind"]
    if kind == CRASH_ON:
        sys.exit("no idea what a " + kind + " is")
    refusal = {"kind": kind, "reason": "not implemented yet"}
    print(json.dumps({"protocol": "referee/2", "id": scenario.get("id"), "unsupported": refusal}), flush=True)
"""


def _declare(tmp_path: Path, monkeypatch, engine_args: str = "", kinds: str = "[]") -> None:
    (tmp_path / "skeleton.py").write_text(SKELETON)
    (tmp_path / "referee.toml").write_text(f'protocol = "referee/2"\nname = "skeleton"\n'
                                           f'engine = "{sys.executable} skeleton.py {engine_args}"\nkinds = {kinds}\n')
    monkeypatch.chdir(tmp_path)


def _scenario(kind: str = "damage") -> dict:
    return {**probe_scenario(kind), "id": "s1"}


def _refusal(kind: str, **more) -> dict:
    return {"protocol": "referee/2", "id": "s1", "unsupported": {"kind": kind, "reason": "later"}, **more}


def test_a_refusal_is_an_unsupported_fault_naming_the_kind():
    fault = check_answer(_refusal("damage"), _scenario(), fields_needed=None, events_needed=True)
    assert isinstance(fault, EngineFault) and fault.kind == "unsupported"
    assert "refuses action kind 'damage' by name (later)" in fault.message and "`kinds`" in fault.message


def test_a_refusal_may_name_a_later_action_of_the_scenario():
    scenario = {**_scenario(), "actions": [*_scenario()["actions"], {"kind": "cull", "target": "a"}]}
    fault = check_answer(_refusal("cull"), scenario, fields_needed=None, events_needed=True)
    assert isinstance(fault, EngineFault) and fault.kind == "unsupported" and "'cull'" in fault.message


@pytest.mark.parametrize("answer, problem", [
    (_refusal("hit"), "refuses 'hit', which no action of the scenario is (its kinds: damage)"),
    ({**_refusal("damage"), "id": "s2"}, "observation.id: expected 's1'"),
    ({**_refusal("damage"), "protocol": "referee/1"}, "observation.protocol"),
    ({"protocol": "referee/2", "id": "s1", "unsupported": "damage"}, "observation.unsupported: expected"),
    ({"protocol": "referee/2", "id": "s1", "unsupported": {"kind": "damage", "why": "x"}}, "observation.unsupported"),
])
def test_a_malformed_refusal_is_a_schema_fault_naming_the_field(answer, problem):
    fault = check_answer(answer, _scenario(), fields_needed=None, events_needed=True)
    assert isinstance(fault, EngineFault) and fault.kind == "schema" and problem in fault.message


def test_every_kind_has_a_probe_scenario_whose_first_action_is_of_it():
    for kind in probe_kinds():
        assert probe_scenario(kind)["actions"][0]["kind"] == kind


def test_the_skeleton_passes_check_under_an_empty_profile_and_is_told_what_to_build(tmp_path, monkeypatch):
    _declare(tmp_path, monkeypatch)
    result = RUNNER.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    assert "PASS (empty profile: kinds = [], nothing compared with the model)" in result.output
    assert "refuses:  " + ", ".join(probe_kinds()) + " (by name)" in result.output
    assert 'implement `damage`' in result.output and 'kinds = ["damage"]' in result.output


def test_the_probe_as_json_says_nothing_was_compared(tmp_path, monkeypatch):
    _declare(tmp_path, monkeypatch)
    result = RUNNER.invoke(app, ["check", "--json"])
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["compared"] == "nothing" and report["answered"] == []
    assert sorted(report["refused"]) == sorted(probe_kinds())


def test_a_skeleton_crashing_on_one_kind_fails_the_probe_as_an_engine_fault(tmp_path, monkeypatch):
    _declare(tmp_path, monkeypatch, engine_args="cull")
    result = RUNNER.invoke(app, ["check"])
    assert result.exit_code == 3, result.output
    assert "ENGINE FAULT" in result.output and "no idea what a cull is" in result.output


def test_an_engine_answering_every_kind_is_told_to_declare_them(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text('protocol = "referee/2"\npython = "referee.examples.engine:run"\n'
                                           "kinds = []\n")
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    assert "answers:  damage, hit" in result.output and "declare kinds = [" in result.output


def test_a_declared_kind_the_engine_refuses_is_an_engine_fault_saying_so(tmp_path, monkeypatch):
    _declare(tmp_path, monkeypatch, kinds='["damage"]')
    result = RUNNER.invoke(app, ["check", "--examples", "5"])
    assert result.exit_code == 3, result.output
    assert "engine fault (unsupported): the engine refuses action kind 'damage' by name" in result.output


@pytest.mark.parametrize("verb", [["vectors", "export", "out", "-q"], ["exhaust", "--tier", "tiny"]])
def test_other_verbs_refuse_an_empty_kinds_list_by_name(tmp_path, monkeypatch, verb):
    _declare(tmp_path, monkeypatch)
    result = RUNNER.invoke(app, verb)
    assert result.exit_code == 2, result.output
    assert "kinds = []: the engine implements no action kind yet" in result.output
