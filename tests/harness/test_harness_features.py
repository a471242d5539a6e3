"""Feature profiles: a run without a feature never draws it; names are checked; the report says so."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.protocol import PROTOCOL
from referee.rulebooks import RULEBOOKS, all_features, resolve_features
from referee.rulebooks.combat.features import FEATURES, features_used, neutralize
from referee.rulebooks.combat.kinds import KINDS
from referee.specs.trace import covers
from referee.check.strategies import scenarios

COMBAT_KINDS = tuple(KINDS)
#: The partial engine of the guide: the damage pipeline without these.
PIPELINE_ONLY = frozenset(FEATURES) - {"redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting"}


@settings(max_examples=300, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_scenario_drawn_without_features_never_uses_them(data):
    off = data.draw(st.frozensets(st.sampled_from(sorted(FEATURES)), min_size=1))
    kinds = data.draw(st.lists(st.sampled_from(COMBAT_KINDS), min_size=1, max_size=3, unique=True))
    swarm = data.draw(st.booleans())
    scenario = data.draw(scenarios(kinds=tuple(kinds), features=frozenset(FEATURES) - off, swarm=swarm))
    assert features_used(scenario) & off == set()


@settings(max_examples=200, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios(kinds=COMBAT_KINDS))
def test_neutralize_takes_out_exactly_what_it_names_and_keeps_the_scenario_valid(scenario):
    from referee.protocol import decode_scenario

    used = features_used(scenario)
    for name in sorted(used)[:3]:
        again = neutralize(json.loads(json.dumps(scenario)), frozenset({name}))
        assert name not in features_used(again)
        decode_scenario(again)  # still a valid scenario


def test_a_dead_appliers_tick_without_ticks_becomes_a_sourceless_hit():
    """Found by the test above: a dead applier's tick, the ticks taken out, was a hit by a dead unit (400.8b)."""
    from referee.protocol import decode_scenario

    units = [{"uid": "a", "side": 0, "row": 0, "col": 0, "alive": False, "vitality": 0},
             {"uid": "b", "side": 1, "row": 0, "col": 0}]  # fmt: skip
    tick = {"kind": "tick", "target": "b", "amount": 3, "damage_kind": "burn", "appliers": [{"unit": "a", "applied": 3}]}
    scenario = {"protocol": PROTOCOL, "ruleset": {}, "board": units, "actions": [tick]}
    decode_scenario(json.loads(json.dumps(scenario)))  # a dead applier's Burn still ticks (INT-356)
    hit = neutralize(scenario, frozenset({"ticks"}))["actions"][0]
    assert hit["kind"] == "hit" and hit["source"] is None
    decode_scenario(scenario)


def test_a_dead_sources_burn_damage_without_ticks_becomes_a_sourceless_hit():
    """Found by the neutralize property above: a ``damage`` action on the Burn lane from a dead source (a tick,
    legal: INT-356), its lane taken out, was a hit by a dead unit (400.8b) and refused."""
    from referee.protocol import decode_scenario

    units = [{"uid": "a", "side": 0, "row": 0, "col": 0, "armor": 1},
             {"uid": "b", "side": 1, "row": 0, "col": 1, "alive": False, "vitality": 0}]  # fmt: skip
    burn = {"kind": "damage", "target": "a", "amount": 21, "source": "b", "damage_kind": "burn"}
    scenario = {"protocol": PROTOCOL, "ruleset": {}, "board": units, "actions": [burn]}
    decode_scenario(json.loads(json.dumps(scenario)))
    hit = neutralize(scenario, frozenset({"ticks"}))["actions"][0]
    assert hit["damage_kind"] == "hit" and hit["source"] is None
    decode_scenario(scenario)


@settings(max_examples=150, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios(kinds=COMBAT_KINDS, swarm=True))
def test_swarm_scenarios_are_valid_and_vary_their_features(scenario):
    from referee.protocol import decode_scenario

    decode_scenario(scenario)


def test_swarm_turns_each_rare_feature_on_in_many_scenarios():
    """Swarm testing (Groce et al. 2012): each feature is on in about half the scenarios, so rare ones appear."""
    seen: dict[str, int] = {}
    count = 0

    @settings(max_examples=400, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(scenarios(kinds=("hit", "damage"), swarm=True))
    def draw(scenario):
        nonlocal count
        count += 1
        for name in features_used(scenario):
            seen[name] = seen.get(name, 0) + 1

    draw()
    for name in ("redirect", "lethal_intercept", "thorns", "riposte", "reflect", "boss"):
        assert seen.get(name, 0) >= count * 0.01, (name, seen.get(name, 0), count)


def test_unknown_feature_names_are_an_error_listing_the_known_ones():
    with pytest.raises(ValueError, match="unknown feature 'nope'.*redirect"):
        resolve_features(None, ["nope"])
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--without", "nope", "-n", "5"])
    assert result.exit_code == 2 and "unknown feature 'nope'" in result.output


def test_every_feature_belongs_to_one_rulebook_and_names_clauses_of_it():
    known = all_features()
    assert set(known) == {n for book in RULEBOOKS.values() for n in book.features}
    for name, feature in FEATURES.items():
        assert feature.clauses and all(c.startswith("combat:") for c in feature.clauses), name


@covers("combat:500.1-11", "combat:500.1f")
def test_check_without_features_says_so_and_passes_a_pipeline_only_engine_view():
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "--kinds", "damage",
                                      "--without", "redirect,lethal_intercept,boss,reflect,vessel,everlasting",
                                      "-n", "64", "--seed", "7", "--database", "", "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["features"]["without"] == sorted(["redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting"])
    text = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "--kinds", "damage",
                                    "--without", "redirect", "-n", "32", "--seed", "7", "--database", ""])
    assert "features: compared 46 of 47 features; not compared: redirect (never drawn)" in text.output


def test_a_config_file_declares_the_engine_kinds_and_features(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text(
        'python = "referee.examples.engine:run"\nkinds = ["cost"]\nwithout = ["vessel"]\nexamples = 40\n'
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "--in-process", "--database", "", "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["action_kinds"] == ["cost"] and report["features"]["without"] == ["vessel"]


def test_a_config_file_with_an_unknown_key_names_the_file_and_the_key(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.referee]\npythn = "x"\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check"])
    assert result.exit_code == 2 and "pyproject.toml: tool.referee.pythn: unknown setting" in result.output


def test_stats_count_features_events_and_clauses_and_flag_the_rare_ones():
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "--kinds", "hit",
                                      "-n", "64", "--seed", "5", "--database", "", "--stats", "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    stats = json.loads(result.output)["stats"]
    assert stats["scenarios"] >= 64
    assert stats["events"] and all(0 < row["scenarios"] <= stats["scenarios"] for row in stats["events"].values())
    assert "combat:500.1-13" in stats["clauses"]
    # a clause no hit can reach (a Bloodletting payer, 800.4b) is not flagged: the warnings name only what the
    # selection can reach (issue 24); before, it was flagged as rarely exercised
    assert "combat:800.4b" not in stats["rare"]["clauses"] and "combat:800.4b" not in stats["clauses"]


def test_ctrl_c_prints_the_seed_and_counts_and_exits_130(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    referee = Path(sys.executable).with_name("referee")
    process = subprocess.Popen([str(referee), "check", "--python", "referee.examples.engine:run", "-n", "100000",
                                "--seed", "9", "--database", ""], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path)
    # wait until the run has started (the --python engine's worker is a child), whatever the import time
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not _children(process.pid):
        time.sleep(0.2)
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out[-2000:], err[-2000:])
    assert "INTERRUPTED" in out and "seed 9" in out and "Traceback" not in out + err


def _children(pid: int) -> list[int]:
    from pathlib import Path

    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_referee_features_says_where_each_feature_is_carried():
    """Every line names the fields, lanes or shape that carry the feature; none borrows another's."""
    result = CliRunner().invoke(app, ["features"])
    assert result.exit_code == 0, result.output
    lines = {line.split(":", 2)[1]: line for line in result.output.splitlines()}
    assert lines["shared_ticks"].endswith("; a tick action with two or more appliers)")
    assert lines["negative_armor"].endswith("; Armor below 0)")
    assert [name for name, line in lines.items() if "Armor below 0)" in line] == ["negative_armor"]
    assert not [name for name, line in lines.items() if line.endswith("; )")]


def test_features_used_reads_a_field_away_from_its_default_whatever_its_value():
    """The quick path compares (field, value) pairs as a set; an unhashable value takes the field-by-field path."""
    from referee.rulebooks.combat.features import features_used

    assert features_used({"board": [{"uid": "a", "thorns": 0, "alive": 1}], "actions": []}) == set()
    assert features_used({"board": [{"uid": "a", "thorns": 3}], "actions": []}) == {"thorns"}
    assert features_used({"board": [{"uid": "a", "thorns": 3, "cap": [1]}], "actions": []}) == {"thorns", "cap"}
