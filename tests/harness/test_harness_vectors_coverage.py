"""``referee check --require-coverage`` (config: ``require_coverage``): a run that never exercised a clause
reachable under its profile fails (exit 5) naming it; reachable is shown by the profile's own vectors."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.vectors.require_coverage import EXIT_NOT_COVERED, reachable_clauses

CHECK = ["check", "--python", "referee.examples.engine:run", "--in-process", "--kinds", "cost", "--seed", "1"]


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One state folder for the module: the reachable set is computed once (a vector search) and then read."""
    return str(tmp_path_factory.mktemp("state"))


@pytest.fixture(scope="module")
def reachable(state: str) -> list[str]:
    return reachable_clauses(("cost",), None, 2, state)


def test_a_reachable_clause_never_exercised_fails_the_run_by_name(in_tmp, state, reachable):
    assert "combat:500.8a" in reachable and "combat:500.1-5" not in reachable  # a cost never meets Armor
    result = CliRunner().invoke(app, [*CHECK, "--examples", "5", "--require-coverage", "--state-dir", state])
    assert result.exit_code == EXIT_NOT_COVERED, result.output[-2000:]
    named = result.output.split("were never exercised in 5 scenarios: ")[1].split(" (exit 5")[0].split(", ")
    assert named and set(named) <= set(reachable)
    # the reachable set is kept in the state folder for the next run of the same profile and model
    assert len(list((Path(state) / "reachable").glob("*.json"))) == 1
    without = CliRunner().invoke(app, [*CHECK, "--examples", "5", "--database", ""])
    assert without.exit_code == 0


def test_the_config_key_asks_for_it_too(in_tmp, state, reachable):
    (in_tmp / "referee.toml").write_text("require_coverage = true\n")
    result = CliRunner().invoke(app, [*CHECK, "--examples", "5", "--state-dir", state])
    assert result.exit_code == EXIT_NOT_COVERED and "--require-coverage" in result.output


def test_a_run_that_exercised_every_reachable_clause_passes(in_tmp, state, reachable):
    result = CliRunner().invoke(app, [*CHECK, "--examples", "400", "--require-coverage", "--state-dir", state])
    assert result.exit_code == 0, result.output[-2000:]
    assert "were never exercised" not in result.output


def test_stats_warn_only_about_what_the_selection_can_reach(in_tmp, state, reachable):
    import json

    from referee.model.events import EVENT_SPECS
    from referee.vectors.require_coverage import reachable as reach_of

    reach = reach_of(("cost",), None, 2, state)
    assert reach["clauses"] == reachable
    result = CliRunner().invoke(app, [*CHECK, "--examples", "40", "--stats", "--json", "--database", "",
                                      "--state-dir", state])
    assert result.exit_code == 0, result.output[-2000:]
    stats = json.loads(result.output)["stats"]
    met_events, met_clauses = set(stats["events"]), set(stats["clauses"])
    assert stats["rare"]["events"]  # something is still rare in 40 scenarios
    assert set(stats["rare"]["events"]) <= set(reach["events"]) | met_events
    assert set(stats["rare"]["clauses"]) <= set(reach["clauses"]) | met_clauses
    # what a cost cannot produce (Armor's clause, a shield's damage event) is no longer named
    out_of_reach = {s.name for s in EVENT_SPECS if s.rulebook == "combat"} - set(reach["events"]) - met_events
    assert "shield_damaged" in out_of_reach and "shield_damaged" not in stats["rare"]["events"]
    assert "combat:500.1-5" not in stats["rare"]["clauses"]
