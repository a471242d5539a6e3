"""Every ruleset option, declared at a value other than its default, honoured by every verb that reads readings.

For each option of both rulebooks (``referee.model.readings.word_options`` of ``Ruleset`` and ``PlayRules``, and the
integer ``defy_death_leaves``), one non-default value is declared with ``--ruleset name=value`` and the bundled
example engine, which implements every reading, is run through ``check``, ``vectors`` (the boundary cases exported
under the declaration, then run under it), ``exhaust`` (the tiny tier, one kind) and a ``query``. Each verb must
pass or answer, and must say the reading it ran under where its report names readings. An option added to either
ruleset is picked up here without a line of this file changing (issue #44: each new option passes through the
machinery). The whole tier and every kind per option run under ``--runslow``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model.combat.ruleset import Ruleset
from referee.model.play.rules import PlayRules
from referee.model.readings import word_options

from harness_tools import export_boundary_cases

ENGINE = "referee.examples.engine:run"


def _declarations() -> list[tuple[str, str, str]]:
    """(rulebook, option, a value other than its default) for every option of both rulebooks."""
    out = [("combat", name, readings[1]) for name, readings in word_options(Ruleset).items()]
    out.append(("combat", "defy_death_leaves", "2"))
    out += [("play", name, readings[1]) for name, readings in word_options(PlayRules).items()]
    return out


DECLARATIONS = _declarations()
IDS = [f"{name}={value}" for _, name, value in DECLARATIONS]


def _referee(*args: str):
    return CliRunner().invoke(app, list(args))


def test_every_option_of_both_rulesets_is_declared_here():
    names = {name for _, name, _ in DECLARATIONS}
    assert names == set(Ruleset.__dataclass_fields__) | set(PlayRules.__dataclass_fields__)


@pytest.mark.parametrize(("book", "name", "value"), DECLARATIONS, ids=IDS)
def test_check_passes_the_example_engine_under_the_declared_reading(book, name, value, tmp_path):
    kinds = "play_card,activate" if book == "play" else "hit,ability,bloodletting,cost,tick"
    result = _referee("check", "--python", ENGINE, "--ruleset", f"{name}={value}", "--kinds", kinds,
                      "--examples", "32", "--seed", "11", "--database", str(tmp_path / "db"), "--json")
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["status"] == "pass" and report["scenarios_run"] >= 32


@pytest.mark.parametrize(("book", "name", "value"), DECLARATIONS, ids=IDS)
def test_vectors_exported_under_the_declared_reading_carry_it_and_pass(book, name, value, tmp_path):
    out = export_boundary_cases(tmp_path / "v", "--ruleset", f"{name}={value}")
    manifest = json.loads((out / "manifest.json").read_text())
    assert str(manifest["rulebooks"][book]["ruleset"][name]) == value
    ran = _referee("vectors", "run", str(out), "--python", ENGINE, "--ruleset", f"{name}={value}")
    assert ran.exit_code == 0, ran.output[-2000:]


@pytest.mark.parametrize(("book", "name", "value"), DECLARATIONS, ids=IDS)
def test_exhaust_runs_the_tier_under_the_declared_reading(book, name, value, request):
    kinds = ("play_card" if book == "play" else "hit",) if not request.config.getoption("--runslow") else ()
    flags = ("--kinds", ",".join(kinds)) if kinds else ()
    result = _referee("exhaust", "--tier", "tiny", *flags, "--python", ENGINE, "--ruleset", f"{name}={value}")
    assert result.exit_code == 0 and f"{name}={value}" in result.output, result.output[-2000:]


@pytest.mark.parametrize(("book", "name", "value"), DECLARATIONS, ids=IDS)
def test_a_query_answers_under_the_declared_reading(book, name, value):
    if book == "play":
        question = ("first.played", "--action", "play_card")
    else:
        question = ("outcome.vitality_lost > 0",)
    result = _referee("query", *question, "--ruleset", f"{name}={value}", "--json")
    assert result.exit_code == 0, result.output[-2000:]
    answer = json.loads(result.output)
    assert answer["status"] == "found", answer
    scenario = answer["scenario"]
    readings = scenario["ruleset"] if book == "combat" else scenario.get("rules", {})
    assert str(readings[name]) == value, f"the witness is under the declared reading: {readings}"
