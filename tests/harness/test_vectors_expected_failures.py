"""``vectors run --expected-failures FILE`` (or ``expected_failures`` under ``[vectors]``): a listed vector that fails
is ``known`` (the run passes over it, counted and listed), a listed vector that passes is ``stale`` and fails the run,
a listed path the folder does not hold is a usage error naming ``FILE:LINE`` before the engine starts, and a listed
vector a filter skips is neither (``not run``). Exercised with a seeded bug (``referee.examples.mutants``)."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from harness_tools import export_boundary_cases
from typer.testing import CliRunner

from referee.cli.app import app
from referee.vectors.expected import listed_paths

RUNNER = CliRunner()
#: A death decided on ``< 0`` instead of ``<= 0``: the boundary cases where Vitality meets the damage fail.
MUTANT = "referee.examples.mutants:death_only_below_zero"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written boundary cases only, exported (no Z3 search)."""
    return export_boundary_cases(tmp_path_factory.mktemp("expected"))


def _run(folder: Path, *extra: str, engine: str = MUTANT):
    return RUNNER.invoke(app, ["vectors", "run", str(folder), "--python", engine, "--in-process", *extra])


@pytest.fixture(scope="module")
def failing(folder: Path) -> list[str]:
    """The vectors the seeded bug fails, without a list."""
    result = _run(folder, "--json")
    assert result.exit_code == 1, result.output[-2000:]
    paths = [f["path"] for f in json.loads(result.stdout)["failed"]]
    assert paths and all(f["status"] == "mismatch" for f in json.loads(result.stdout)["failed"])
    return paths


def _passing(folder: Path, failing: list[str]) -> str:
    entries = json.loads((folder / "manifest.json").read_text())["vectors"]
    return next(e["path"] for e in entries if e["path"] not in failing)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_file_format_takes_comments_and_blank_lines():
    text = "# the bugs we know\n\ncombat/a.json  # the death\n   \n  combat/b.json\n#combat/c.json\n"
    assert listed_paths(text) == [(3, "combat/a.json"), (5, "combat/b.json")]


def test_listed_failures_are_known_and_the_run_passes(folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", ["# death at exactly 0: not fixed yet", "", *failing])
    receipt = tmp_path / "receipt.json"
    result = _run(folder, "--json", "--expected-failures", str(listing), "--receipt", str(receipt))
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.stdout)
    known = report["expected_failures"]["known"]
    assert sorted(k["path"] for k in known) == sorted(failing) and report["expected_failures"]["stale"] == []
    assert all(k["status"] == "mismatch" and k["line"] == failing.index(k["path"]) + 3 for k in known)
    assert {f["status"] for f in report["failed"]} == {"known"}
    rows = {clause: row for clause, row in report["clauses"].items() if row["known"]}
    assert rows and all(row["status"] == "known" for row in rows.values())
    assert not any(row["status"] == "FAIL" for row in report["clauses"].values())
    recorded = {r["path"]: r for r in json.loads(receipt.read_text())["results"]}
    assert all(recorded[p]["status"] == "known" and recorded[p]["outcome"] == "mismatch" for p in failing)


def test_the_text_report_counts_and_lists_the_known_failures(folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", failing)
    result = _run(folder, "--expected-failures", str(listing))
    assert result.exit_code == 0
    assert f"{len(failing)} known failures" in result.output
    assert f"expected failures ({listing}): {len(failing)} known, 0 stale, 0 not run" in result.output
    assert any(re.match(r"  known +combat:\S+ +\d+/\d+ ", line) for line in result.output.splitlines())  # a row


def test_a_listed_vector_that_passes_is_stale_and_fails_the_run(folder: Path, failing: list[str], tmp_path: Path):
    passing = _passing(folder, failing)
    listing = _write(tmp_path / "expected.txt", [*failing, "", passing])
    receipt = tmp_path / "receipt.json"
    result = _run(folder, "--expected-failures", str(listing), "--receipt", str(receipt))
    assert result.exit_code == 1
    assert f"{listing}:{len(failing) + 2}: {passing} passes now: remove it" in result.output
    recorded = {r["path"]: r for r in json.loads(receipt.read_text())["results"]}
    assert recorded[passing]["status"] == "stale" and recorded[passing]["outcome"] == "pass"
    assert RUNNER.invoke(app, ["vectors", "check-receipt", str(receipt), str(folder)]).exit_code == 0


def test_the_correct_engine_makes_every_listed_vector_stale(folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", failing)
    result = _run(folder, "--json", "--expected-failures", str(listing), engine="referee.examples.engine:run")
    assert result.exit_code == 1
    stale = json.loads(result.stdout)["expected_failures"]["stale"]
    assert sorted(s["path"] for s in stale) == sorted(failing)


def test_an_unlisted_failure_still_fails_the_run(folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", failing[1:])
    result = _run(folder, "--json", "--expected-failures", str(listing))
    assert result.exit_code == 1
    statuses = {f["path"]: f["status"] for f in json.loads(result.stdout)["failed"]}
    assert statuses[failing[0]] == "mismatch" and all(statuses[p] == "known" for p in failing[1:])


def test_a_listed_path_the_folder_does_not_hold_is_a_usage_error_before_the_engine_starts(
        folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", [failing[0], "# gone since", "combat/damage/999/0001.json"])
    marker = tmp_path / "started"
    engine = shlex.join([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    result = RUNNER.invoke(app, ["vectors", "run", str(folder), "--engine", engine, "--expected-failures",
                                 str(listing)])
    assert result.exit_code == 2
    assert f"{listing}:3: combat/damage/999/0001.json: not a vector of" in result.output
    assert not marker.exists()


def test_a_path_listed_twice_is_a_usage_error_naming_both_lines(folder: Path, failing: list[str], tmp_path: Path):
    listing = _write(tmp_path / "expected.txt", [failing[0], failing[0]])
    result = _run(folder, "--expected-failures", str(listing))
    assert result.exit_code == 2 and f"{listing}:2: {failing[0]} is listed already (line 1)" in result.output


def test_a_listed_vector_a_filter_skips_is_neither_known_nor_stale(folder: Path, failing: list[str], tmp_path: Path):
    entries = {e["path"]: e for e in json.loads((folder / "manifest.json").read_text())["vectors"]}
    feature = next(f for p in failing for f in entries[p]["features"])
    skipped = [p for p in failing if feature in entries[p]["features"]]
    listing = _write(tmp_path / "expected.txt", failing)
    result = _run(folder, "--json", "--expected-failures", str(listing), "--exclude-features", feature)
    settled = json.loads(result.stdout)["expected_failures"]
    assert sorted(n["path"] for n in settled["not_run"]) == sorted(skipped)
    assert all(n["reason"] == f"skipped: uses excluded feature {feature}" for n in settled["not_run"])
    assert not {k["path"] for k in settled["known"]} & set(skipped) and settled["stale"] == []
    assert result.exit_code == 0
    text = _run(folder, "--expected-failures", str(listing), "--exclude-features", feature).output
    assert f"not run: {listing}:{failing.index(skipped[0]) + 1}: {skipped[0]} (skipped: uses excluded" in text


def test_expected_failures_under_vectors_in_referee_toml(folder: Path, failing: list[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    _write(tmp_path / "expected.txt", [*failing, _passing(folder, failing)])
    (tmp_path / "referee.toml").write_text(f'python = "{MUTANT}"\n[vectors]\nexpected_failures = "expected.txt"\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["vectors", "run", str(folder), "--in-process", "--json"])
    assert result.exit_code == 1  # the stale entry
    settled = json.loads(result.stdout)["expected_failures"]
    assert settled["file"] == "expected.txt" and len(settled["known"]) == len(failing) and len(settled["stale"]) == 1
