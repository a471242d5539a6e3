"""``referee check --workers N`` (``referee.check.workers``): disjoint streams, one merged report."""

from __future__ import annotations

import json
from collections import Counter

from typer.testing import CliRunner

from referee.cli.app import app
from referee.check.compare import Comparison
from referee.check.grouping.groups import Group
from referee.check.harness import CheckReport
from referee.check.stats import Stats
from referee.check.workers import merge_reports


def _report(status: str, run: int, first: tuple[int, float] | None, groups=(), stats=None) -> CheckReport:
    report = CheckReport(status, "e", 5, Comparison(), scenarios_run=run, groups=list(groups), stats=stats)
    if first is not None:
        report.first_failure_after, report.first_failure_seconds = first
    return report


def _stats(scenarios: int, clause: str) -> Stats:
    return Stats(scenarios=scenarios, clauses=Counter({clause: scenarios}), rulebooks={"combat"})


def test_reports_merge_by_group_key_with_counts_and_coverage_added_and_the_worst_verdict():
    a = _report("pass", 300, None, stats=_stats(300, "combat:500.2c"))
    b = _report("mismatch", 300, (40, 2.5), [Group("amount@cap[combat:500.1-7]", 3, {}, [])],
                stats=_stats(300, "combat:500.1-7"))
    c = _report("mismatch", 300, (12, 4.0), [Group("amount@cap[combat:500.1-7]", 5, {}, []),
                                             Group("event@thorns[combat:500.6d]", 1, {}, [])],
                stats=_stats(300, "combat:500.2c"))
    merged = merge_reports([a, b, c])
    assert merged.status == "mismatch" and merged.scenarios_run == 900 and merged.workers == 3
    assert [(g.key, g.count) for g in merged.groups] == [("amount@cap[combat:500.1-7]", 8),
                                                         ("event@thorns[combat:500.6d]", 1)]
    assert (merged.first_failure_seconds, merged.first_failure_after) == (2.5, 40)  # the earliest in time
    assert merged.stats.scenarios == 900 and merged.stats.clauses["combat:500.2c"] == 600


def test_two_workers_check_their_share_each_and_write_one_report(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "-n", "64",
                                      "--seed", "3", "--workers", "2", "--json", "--database", ""])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["status"] == "pass" and report["scenarios_run"] == 64 and report["workers"] == 2


def test_workers_below_one_is_a_usage_error(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--workers", "0"])
    assert result.exit_code == 2 and "--workers 0" in result.output
