"""``referee report merge``: a CI matrix's ``referee check --json`` reports as one (issue 24): groups merged by
their key, counts, scenarios and coverage added, the earliest first failure kept, the worst verdict, an HTML
page; reports that cannot be merged refused with exit 2, naming the file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app

RUNNER = CliRunner()
MUTANT = "referee.examples.mutants:armor_floored_at_zero"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """One mutant checked on two seeds (``--keep-going --stats``): the reports of two machines of a matrix."""
    folder = tmp_path_factory.mktemp("reports")
    out = {}
    for seed in (1, 2):
        result = RUNNER.invoke(app, ["check", "--python", MUTANT, "--in-process", "-n", "300", "--seed", str(seed),
                                     "--keep-going", "--stats", "--database", "", "--state-dir", "", "--json"])
        assert result.exit_code == 1, result.output[-2000:]
        out[seed] = folder / f"seed{seed}.json"
        out[seed].write_text(result.stdout)
    return out


def _merge(*args: str):
    result = RUNNER.invoke(app, ["report", "merge", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_two_runs_merge_into_one_report_by_group_key(reports, tmp_path):
    one, two = (json.loads(reports[s].read_text()) for s in (1, 2))
    result = _merge(str(reports[1]), str(reports[2]), "--out", str(tmp_path / "merged.json"),
                    "--html", str(tmp_path / "merged.html"))
    assert result.exit_code == 1, result.output  # a failed run fails the merge
    merged = json.loads((tmp_path / "merged.json").read_text())
    keys = {g["key"] for g in one["groups"]} | {g["key"] for g in two["groups"]}
    assert {g["key"] for g in merged["groups"]} == keys and merged["distinct_divergences"] == len(keys)
    for group in merged["groups"]:
        assert group["count"] == sum(g["count"] for r in (one, two) for g in r["groups"] if g["key"] == group["key"])
    assert merged["scenarios_run"] == one["scenarios_run"] + two["scenarios_run"] == 600
    assert merged["seeds"] == [1, 2] and merged["status"] == "mismatch"
    first = min((one, two), key=lambda r: r["first_failure_seconds"])  # the earliest in time, as --workers
    assert (merged["first_failure_after"], merged["first_failure_seconds"]) == \
        (first["first_failure_after"], first["first_failure_seconds"])
    assert merged["stats"]["scenarios"] == 600
    for clause, row in merged["stats"]["clauses"].items():
        assert row["scenarios"] == sum(r["stats"]["clauses"].get(clause, {"scenarios": 0})["scenarios"]
                                       for r in (one, two))
    page = (tmp_path / "merged.html").read_text()
    for group in merged["groups"]:
        assert f'data-key="{group["key"]}"' in page and f'({group["count"]} scenarios)' in page
    assert "<th>scenarios</th><td>600" in page and "<th>first failure</th><td>after " \
        f"{merged['first_failure_after']} scenarios" in page


def test_the_verdict_is_a_failure_if_any_run_failed_and_a_pass_only_if_all_passed(reports, tmp_path):
    passing = json.loads(reports[1].read_text())
    passing.update(status="pass", groups=[], first_failure_after=None, first_failure_seconds=None,
                   distinct_divergences=0)
    (tmp_path / "pass.json").write_text(json.dumps(passing))
    (tmp_path / "pass2.json").write_text(json.dumps({**passing, "seed": 7, "run_id": "another run"}))  # a 2nd run
    mixed = _merge(str(tmp_path / "pass.json"), str(reports[2]))
    assert mixed.exit_code == 1 and json.loads(mixed.stdout)["status"] == "mismatch"
    both = _merge(str(tmp_path / "pass.json"), str(tmp_path / "pass2.json"))
    assert both.exit_code == 0 and json.loads(both.stdout)["status"] == "pass", both.output


def _bad(reports, tmp_path: Path, how: str) -> tuple[Path, str]:
    """A second report that cannot be merged with the first; what the error must say."""
    path = tmp_path / "bad.json"
    data = json.loads(reports[2].read_text())
    if how == "missing":
        return path, "no such file"
    if how == "not json":
        path.write_text("{")
        return path, "not valid JSON"
    if how == "not a report":
        path.write_text('{"format": "referee-vectors/1"}')
        return path, "not a referee check report"
    if how == "fifo":
        os.mkfifo(path)
        return path, "not a regular file"
    changed = {"protocol": ("protocol", "referee/1"), "referee version": ("referee", "0.0.1"),
               "engine": ("engine", "other:run"), "comparison": ("compared", {"fields": ["vitality"]})}[how]
    data[changed[0]] = changed[1]
    path.write_text(json.dumps(data))
    return path, f"{changed[0]} "


@pytest.mark.parametrize("how", ["missing", "not json", "not a report", "fifo", "protocol", "referee version",
                                 "engine", "comparison"])
def test_reports_that_cannot_be_merged_are_a_usage_error_naming_the_file(reports, tmp_path, how):
    path, says = _bad(reports, tmp_path, how)
    result = _merge(str(reports[1]), str(path))
    assert result.exit_code == 2, result.output
    assert f"{path}: " in result.output and says in result.output, result.output


def test_one_report_is_not_a_merge():
    result = _merge("only.json")
    assert result.exit_code == 2 and "two or more reports" in result.output
