"""``referee query --without`` / ``--features``: a feature left out is fixed off in the searched space,
the verdict's space line says so, and unknown names are a usage error listing the known ones."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from referee.cli.app import app
from referee.rulebooks.combat.features import FEATURES, features_used
from referee.specs.trace import covers

SMALL = ["--action", "damage", "--units", "2", "--source", "enemy"]


@covers("combat:500.1-10")
def test_query_without_shield_fixes_shield_off_and_the_impossible_line_says_so():
    runner = CliRunner()
    found = runner.invoke(app, ["query", "target.shield > 0", *SMALL, "--json"])
    assert found.exit_code == 0, found.output
    left_out = runner.invoke(app, ["query", "target.shield > 0", *SMALL, "--without", "shield"])
    assert left_out.exit_code == 1, left_out.output
    text = " ".join(left_out.output.split())
    assert text.startswith("impossible: target.shield > 0")
    assert "without the features shield (fixed off: shield=0)" in text
    # --features is the positive form: every feature but shield is the same space
    positive = runner.invoke(app, ["query", "target.shield > 0", *SMALL, "--json",
                                   "--features", ",".join(sorted(set(FEATURES) - {"shield"}))])
    answer = json.loads(positive.stdout)
    assert positive.exit_code == 1 and answer["status"] == "impossible" and "without the features shield" in answer["space"]


@covers("combat:500.1-2", "combat:500.2d", "combat:500.1-11", "combat:500.1f")
def test_query_witness_found_without_features_uses_none_of_them():
    off = ["redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting", "dormant", "negative_armor"]
    result = CliRunner().invoke(app, ["query", "outcome.died", *SMALL, "--without", ",".join(off), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["status"] == "found" and "armor>=0" in answer["space"] and "allows_dormant=false" in answer["space"]
    assert features_used(answer["scenario"]) & set(off) == set()
    assert all(unit.get("armor", 0) >= 0 for unit in answer["scenario"]["board"])


def test_query_negative_armor_left_out_makes_armor_below_zero_impossible():
    result = CliRunner().invoke(app, ["query", "target.armor < 0", *SMALL, "--without", "negative_armor", "--json"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["status"] == "impossible"


def test_query_unknown_feature_is_a_usage_error_listing_the_known_ones():
    result = CliRunner().invoke(app, ["query", "outcome.died", "--without", "redirect,nope"])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "unknown feature 'nope'" in text and "known: ability_lines, armor," in text and "redirect" in text


def test_query_whose_damage_kind_is_a_feature_left_out_is_a_usage_error():
    result = CliRunner().invoke(app, ["query", "outcome.died", "--kind", "burn", "--without", "ticks"])
    assert result.exit_code == 2
    assert "'burn' is the feature 'ticks'" in " ".join(result.output.split())
