"""INT-412 as a ruleset option: does an activation's later line reach a target it killed and a Vessel revived?

``rider_on_revived_target = lands`` (the default): every line reads the board the previous lines left (400.8-4); the
revived unit stands alive in its cell (500.9b), so the after-hit Burn lands on it. ``refused``: a unit killed by this
activation is gone for every later clause (400.8b) and what came back is a new incarnation (500.9f) the activation
never aimed at, so the Burn is refused as dead. The expectations below are derived by hand from those words.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.cli.app import app
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "rider_on_revived_target"


def _scenario(reading: str, target_vitality: int = 10, vessels: int = 1) -> dict:
    """A caster hits ``t`` for 20 then Burns it for 3 (after the hit); ``t`` holds a Vessel unless told not."""
    board = [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 50, "max_vitality": 50},
             {"uid": "t", "side": 1, "row": 0, "col": 0, "vitality": target_vitality, "max_vitality": 30,
              "vessels": vessels}]
    lines = [{"effect": "damage", "amount": 20}, {"effect": "burn", "amount": 3, "lane": "after_hit"}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "a", "targets": ["t"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    target = state.unit("t")
    return {"alive": target.alive, "vitality": target.vitality, "burn": target.burn,
            "incarnation": target.incarnation}, [(e.name, e.unit, e.detail) for e in events]


@covers("combat:400.8b", "combat:400.8-5", "combat:500.9b", "combat:500.9f")
def test_lands_the_burn_reaches_the_target_the_vessel_revived():
    target, events = _run(_scenario("lands"))
    assert target == {"alive": True, "vitality": 30, "burn": 3, "incarnation": 1}  # revived at full (500.9c), Burned
    assert ("status_applied", "t", "burn") in events and ("line_refused", "t", "dead") not in events


@covers("combat:400.8b", "combat:400.8-5", "combat:500.9b", "combat:500.9f")
def test_refused_the_burn_is_refused_as_dead_on_the_new_incarnation():
    target, events = _run(_scenario("refused"))
    assert target == {"alive": True, "vitality": 30, "burn": 0, "incarnation": 1}
    assert ("line_refused", "t", "dead") in events and ("status_applied", "t", "burn") not in events
    assert events.index(("vessel_revival", "t", None)) < events.index(("line_refused", "t", "dead"))


@pytest.mark.parametrize("reading", ["lands", "refused"])
def test_a_target_the_hit_did_not_kill_is_burned_under_either_reading(reading):
    target, events = _run(_scenario(reading, target_vitality=25))
    assert target == {"alive": True, "vitality": 5, "burn": 3, "incarnation": 0}


@pytest.mark.parametrize("reading", ["lands", "refused"])
def test_a_target_that_stays_dead_is_refused_as_dead_under_either_reading(reading):
    target, events = _run(_scenario(reading, vessels=0))
    assert (target["alive"], target["burn"]) == (False, 0) and ("line_refused", "t", "dead") in events


@pytest.mark.parametrize("reading", ["lands", "refused"])
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    scenario = _scenario(reading)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)


def _referee(*args: str):
    return CliRunner().invoke(app, list(args))


def test_check_declaring_refused_passes_the_example_engine_and_fails_an_engine_on_lands(tmp_path):
    declared = ("--ruleset", f"{OPTION}=refused", "--kinds", "ability", "--examples", "200", "--seed", "7")
    passed = _referee("check", "--python", "referee.examples.engine:run", *declared, "--database", str(tmp_path / "db"))
    assert passed.exit_code == 0, passed.output
    replay = tmp_path / "s.json"
    replay.write_text(json.dumps(_scenario("refused")))
    lands = tmp_path / "lands_engine.py"
    lands.write_text("from referee.examples.engine import run as inner\n\n"
                     f"def run(s):\n    return inner({{**s, 'ruleset': {{**s['ruleset'], {OPTION!r}: 'lands'}}}})\n")
    failed = _referee("check", "--python", "lands_engine:run", "--path", str(tmp_path), "--replay", str(replay))
    assert failed.exit_code == 1 and "400.8" in failed.output, failed.output


def test_vectors_exhaust_and_a_query_honour_the_declared_reading(tmp_path):
    out = tmp_path / "v"
    exported = _referee("vectors", "export", str(out), "--kinds", "ability", "--ruleset", f"{OPTION}=refused", "--quiet")
    assert exported.exit_code == 0, exported.output
    vectors = [json.loads(path.read_text()) for path in out.glob("combat/ability/*/*.json")]
    assert vectors and all(vector["scenario"]["ruleset"][OPTION] == "refused" for vector in vectors)
    ran = _referee("vectors", "run", str(out), "--python", "referee.examples.engine:run", "--ruleset", f"{OPTION}=refused")
    assert ran.exit_code == 0, ran.output
    tier = _referee("exhaust", "--tier", "tiny", "--kinds", "ability", "--python", "referee.examples.engine:run",
                    "--ruleset", f"{OPTION}=refused")
    assert tier.exit_code == 0 and f"{OPTION}=refused" in tier.output, tier.output
    question = ('event("vessel_revival", unit="target") and event("line_refused", unit="target") and not '
                "target.entrapped and not target.dormant and not target.untargetable")
    action = "ability:caster=source,targets=target,lines=damage@hit/burn@after_hit"
    base = ("query", question, "--action", action, "--units", "2", "--source", "enemy",
            "--ruleset", "reflect_subrogation=no_payback")
    assert _referee(*base, "--ruleset", f"{OPTION}=refused").output.startswith("found")
    assert _referee(*base, "--ruleset", f"{OPTION}=lands").output.startswith("impossible")
