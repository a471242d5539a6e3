"""``referee report conformance`` and ``referee report matrix``: an engine's conformance per feature and per clause,
derived from its ``check --json`` and ``vectors run --json`` reports, as JSON, a page and a shields.io badge; many
engines' conformance on one page.

Statuses are checked on hand-made reports (each rule of ``referee.report.conformance`` on its own), then end to end:
the example engine and a seeded mutant (one line of the example engine changed, ``referee.examples.mutants``) checked
and run over one small vector export, their pages and badges, their matrix, and both pages opened in headless
Chromium (the DOM it built, and a screenshot that is not blank).
"""

from __future__ import annotations

import copy
import json
import os
import signal
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from damage_release import damage_release
from typer.testing import CliRunner

from harness_tools import require_program
from referee.cli.app import app
from referee.report import conformance
from referee.specs.catalogue import load_catalogue

RUNNER = CliRunner()
CHROMIUM = "/usr/bin/chromium"
EXAMPLE = "referee.examples.engine:run"
#: A one-line bug at 500.1-4 (an ignore charge not spent), which both the check and the vectors place there.
MUTANT = "referee.examples.mutants:ignore_charge_not_spent"
MUTANT_CLAUSE = "combat:500.1-4"
CATALOGUE = [str(c) for c in load_catalogue()]


def _invoke(*args: str):
    result = RUNNER.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# --------------------------------------------------------------------------------------
# Hand-made reports: each rule on its own
# --------------------------------------------------------------------------------------

COMPARED = {"fields": None, "events": ["damage_taken"], "fields_off": [], "events_off": [],
            "event_fields": ["name", "unit", "amount", "other", "detail"], "event_order": "strict",
            "description": "every unit field; every event, in order"}


def _row(status: str = "ok", passed: int = 3, failed: int = 0) -> dict:
    return {"status": status, "vectors": passed + failed, "passed": passed, "failed": failed, "faults": 0,
            "not_run": 0, "branches": 2, "branches_exercised": 2 if status == "ok" else 1}


def _check(**changes) -> dict:
    report = {"status": "pass", "protocol": "referee/2", "referee": "0.1.0", "engine": "my_engine:run", "seed": 1,
              "action_kinds": ["damage"], "compared": COMPARED,
              "features": {"allowed": None, "without": [], "swarm": False},
              "stats": None, "groups": [], "scenarios_run": 100, "seconds": 1.0, "run_id": "r1"}
    report.update(changes)
    return report


def _vectors(clauses: dict, failed: list | None = None, **changes) -> dict:
    report = {"compared": COMPARED, "vectors": 10, "not_run": 0, "stopped": "", "interrupted": False, "restarts": 0,
              "selection": {"kinds": None, "features": None}, "skipped": 0, "skipped_by_reason": {}, "notes": [],
              "failed": failed or [], "clauses": clauses}
    report.update(changes)
    return report


def _document(folder: Path, check: dict, vectors: dict, declaration: str | None = None, version: str | None = None):
    (folder / "c.json").write_text(json.dumps(check))
    (folder / "v.json").write_text(json.dumps(vectors))
    declared = None
    if declaration is not None:
        declared = folder / "referee.toml"
        declared.write_text(declaration)
    inputs = conformance.load_inputs(folder / "c.json", folder / "v.json", declared)
    return conformance.build(inputs, version)


def _statuses(doc: dict) -> dict[str, str]:
    return {c["id"]: c["status"] for c in doc["clauses"]}


def test_every_clause_of_the_catalogue_has_a_status_derived_from_the_reports(tmp_path):
    failed = [{"path": "combat/damage/500.1-7/0001.json", "status": "mismatch", "failed_clauses": ["combat:500.1-7"]}]
    rows = {"combat:500.1-7": _row("FAIL", 2, 1), "combat:500.1-13": _row()}
    doc = _document(tmp_path, _check(), _vectors(rows, failed))
    statuses = _statuses(doc)
    assert list(statuses) == CATALOGUE, "every clause, in the catalogue's order"
    assert statuses["combat:500.1-7"] == "fail", "a failing vector's clause fails"
    assert statuses["combat:500.1-13"] == "pass", "its vectors passed and the check passed over it"
    unexercised = next(c for c in doc["clauses"] if c["id"] == "combat:500.1-12")
    assert unexercised["status"] == "not covered" and unexercised["why"] == "no vector exercised it"
    assert all(s == "not run" for c, s in statuses.items() if c.startswith("play:")), "no play kind in the profile"
    assert doc["summary"]["counts"]["not run"] == sum(c.startswith("play:") for c in CATALOGUE)
    assert doc["badge"] == {"schemaVersion": 1, "label": "referee/2", "message": "failing", "color": "red"}
    cap = next(f for f in doc["features"] if f["name"] == "cap")
    assert cap["status"] == "fail" and "combat:500.1-7" in cap["clauses"]


def test_two_runs_of_different_engines_are_said_so(tmp_path):
    rows = {"combat:500.1-13": _row()}
    same = _document(tmp_path, _check(), _vectors(rows, engine="my_engine:run", protocol="referee/2"))
    assert not [note for note in same["notes"] if "different engines" in note]
    other = _document(tmp_path, _check(), _vectors(rows, engine="node other.js", protocol="referee/2"))
    assert any("different engines" in note and "node other.js" in note for note in other["notes"])


def test_a_left_out_features_clauses_are_left_out_and_not_counted(tmp_path):
    declaration = ('protocol = "referee/2"\nname = "studio"\nversion = "2.1.0"\nkinds = ["damage"]\n'
                   'without = ["boss", "lethal_intercept"]\nruleset = { negative_armor = "mirror" }\n')
    rows = {c: _row() for c in CATALOGUE if c.startswith("combat:")}
    doc = _document(tmp_path, _check(), _vectors(rows), declaration)
    statuses = _statuses(doc)
    for clause in ("combat:500.1f", "combat:500.6g", "combat:800.4c"):  # named by a left-out feature alone
        assert statuses[clause] == "left out", clause
    assert statuses["combat:500.6f"] == "pass", "named by boss and by credit, which is kept"
    assert {f["name"]: f["status"] for f in doc["features"]}["boss"] == "left out"
    assert doc["engine"] == {"name": "studio", "version": "2.1.0", "spec": "my_engine:run"}
    assert doc["profile"]["kinds"] == ["damage"] and {"boss", "lethal_intercept"} <= set(doc["profile"]["without"])
    assert doc["profile"]["ruleset"] == {"negative_armor": "mirror"}
    summary = doc["summary"]
    assert summary["in_profile"] == len(CATALOGUE) - summary["counts"]["left out"] - summary["counts"]["not run"]
    assert summary["status"] == "pass" and summary["passed"] == summary["in_profile"]
    assert doc["badge"] == {"schemaVersion": 1, "label": "referee/2",
                            "message": f"{summary['passed']} / {summary['in_profile']} clauses", "color": "brightgreen"}
    assert _document(tmp_path, _check(), _vectors(rows), declaration, version="3.0")["engine"]["version"] == "3.0"


def test_known_divergences_of_either_run_are_known_not_failed(tmp_path):
    group = {"key": "amount@cap[combat:500.1-7]", "count": 2, "known": {"reason": "ENG-12: cap not built"},
             "explain": []}
    # as `vectors run --expected-failures` writes them: a row `known`, and each listed failure `known` with its outcome
    rows = {"combat:500.1-7": _row(), "combat:500.1-4": {**_row("known", 2, 0), "known": 2}, "combat:500.1-13": _row()}
    failed = [{"path": "combat/damage/500.2c/0003.json", "status": "known", "outcome": "mismatch",
               "failed_clauses": ["combat:500.2c"]},
              {"path": "combat/damage/500.1-13/0001.json", "status": "stale", "outcome": "pass", "failed_clauses": []}]
    doc = _document(tmp_path, _check(status="pass", groups=[group]), _vectors(rows, failed))
    statuses = _statuses(doc)
    assert statuses["combat:500.1-7"] == statuses["combat:500.1-4"] == statuses["combat:500.2c"] == "known"
    assert statuses["combat:500.1-13"] == "pass", "a stale expected failure passed"
    why = {c["id"]: c["why"] for c in doc["clauses"]}
    assert "ENG-12" in why["combat:500.1-7"] and "known failure (2 vector(s)" in why["combat:500.1-4"]
    assert doc["runs"]["vectors"]["known"] == 1 and doc["runs"]["vectors"]["stale"] == 1
    assert any("pass now (stale" in note for note in doc["notes"])
    assert doc["summary"]["status"] == "incomplete" and doc["badge"]["color"] == "yellow"


def test_the_checks_divergence_fails_its_clause_and_a_fault_fails_the_verdict_at_no_clause(tmp_path):
    group = {"key": "board[].ignore_charges#ignore_charge[combat:500.1-4]", "count": 1, "explain": []}
    placed_by_step = {"key": "events[]@extra:damage_taken", "count": 1,
                      "explain": [{"step": "dormant", "clause": "combat:500.1-2"}]}
    rows = {"combat:500.1-4": _row(), "combat:500.1-2": _row(), "combat:500.1-13": _row()}
    doc = _document(tmp_path, _check(status="mismatch", groups=[group, placed_by_step]), _vectors(rows))
    statuses = _statuses(doc)
    assert statuses["combat:500.1-4"] == "fail" and statuses["combat:500.1-2"] == "fail"
    assert statuses["combat:500.1-13"] == "pass", "the check placed its failures elsewhere"
    fault = {"kind": "crash", "message": "the engine exited (status 1)"}
    doc = _document(tmp_path, _check(status="fault", fault=fault), _vectors(rows))
    assert _statuses(doc)["combat:500.1-13"] == "not covered", "a check that faulted passed over nothing"
    assert doc["summary"]["counts"]["fail"] == 0 and doc["summary"]["status"] == "fail"
    assert any("the engine exited" in f for f in doc["summary"]["failures"]) and doc["badge"]["message"] == "failing"


def test_the_checks_coverage_and_profile_decide_whether_it_passed_over_a_clause(tmp_path):
    stats = {"scenarios": 100, "features": {"cap": {"scenarios": 40}}, "events": {},
             "clauses": {"combat:500.1-13": {"scenarios": 90}, "combat:500.1-7": {"scenarios": 0}}}
    rows = {"combat:500.1-13": _row(), "combat:500.1-7": _row(), "combat:500.1-4": _row(),
            "combat:500.1-5": _row("not covered")}
    doc = _document(tmp_path, _check(stats=stats), _vectors(rows))
    by_id = {c["id"]: c for c in doc["clauses"]}
    assert by_id["combat:500.1-13"]["status"] == "pass" and by_id["combat:500.1-13"]["check_scenarios"] == 90
    assert by_id["combat:500.1-7"]["status"] == "not covered" and "never exercised" in by_id["combat:500.1-7"]["why"]
    assert by_id["combat:500.1-5"]["status"] == "not covered" and "1 of 2 branches" in by_id["combat:500.1-5"]["why"]
    assert by_id["combat:500.1-12"]["status"] == "not covered", "what the profile reaches is not told without rare"
    stats["rare"] = {"events": [], "clauses": ["combat:500.1-7", "combat:500.1-12"]}
    doc = _document(tmp_path, _check(stats=stats), _vectors(rows))
    statuses = _statuses(doc)
    assert statuses["combat:500.1-12"] == "not covered", "reachable (rare), never exercised, no vector"
    assert statuses["combat:800.4b"] == "not run", "no scenario of the profile reaches it: outside, not uncovered"
    assert statuses["combat:500.1-4"] == "not covered", "a vector applied it (reachable); the check never did"
    assert [c for c, status in statuses.items() if status not in ("not run", "left out")] == \
        ["combat:500.1-4", "combat:500.1-5", "combat:500.1-7", "combat:500.1-12", "combat:500.1-13"]
    assert doc["badge"]["message"] == "1 / 5 clauses" and doc["badge"]["color"] == "yellow"
    narrow = _check(features={"allowed": ["armor"], "without": ["ignore_charges"], "swarm": False})
    doc = _document(tmp_path, narrow, _vectors(rows), 'protocol = "referee/2"\nkinds = ["damage"]\n')
    assert _statuses(doc)["combat:500.1-4"] == "not covered", "declared, but the check left its feature out"


# --------------------------------------------------------------------------------------
# Inputs that are not what they say
# --------------------------------------------------------------------------------------


def _conformance_cli(folder: Path, check: object, vectors: object, *more: str):
    for name, data in (("c.json", check), ("v.json", vectors)):
        (folder / name).write_text(data if isinstance(data, str) else json.dumps(data))
    return _invoke("report", "conformance", "--check", str(folder / "c.json"), "--vectors", str(folder / "v.json"),
                   "--out", str(folder / "out"), *more)


@pytest.mark.parametrize(("check", "vectors", "named", "says"), [
    ("{not json", _vectors({}), "c.json", "not valid JSON"),
    (_check(protocol="referee/1"), _vectors({}), "c.json", "protocol: \"referee/1\" is not this referee's protocol"),
    (_vectors({}), _vectors({}), "c.json", "not a referee check report"),
    (_check(), _check(), "v.json", "not a referee vectors run report"),
    (_check(), _vectors({"combat:500.1-7": {"passed": 1}}), "v.json", "clauses.combat:500.1-7: expected a row"),
    (_check(), _vectors({}, protocol="referee/1"), "v.json", "protocol"),
    (_check(), _vectors({}, compared={**COMPARED, "event_order": "multiset"}), "v.json", "compared.event_order"),
    (_check(features="all"), _vectors({}), "c.json", "features: expected"),
    (_check(stats={"scenarios": 3}), _vectors({}), "c.json", "stats: expected"),
])
def test_a_malformed_input_exits_2_naming_the_file_and_the_field(tmp_path, check, vectors, named, says):
    result = _conformance_cli(tmp_path, check, vectors)
    assert result.exit_code == 2, result.output
    assert f"{tmp_path / named}: " in result.output and says in result.output, result.output
    assert not (tmp_path / "out").exists(), "nothing written"


def test_a_bad_declaration_and_an_out_that_is_a_file_exit_2(tmp_path):
    (tmp_path / "referee.toml").write_text('kinds = ["damage"]\nverison = "1"\n')
    result = _conformance_cli(tmp_path, _check(), _vectors({}), "--declaration", str(tmp_path / "referee.toml"))
    assert result.exit_code == 2 and f"{tmp_path / 'referee.toml'}: verison: unknown setting" in result.output
    (tmp_path / "referee.toml").write_text('protocol = "referee/9"\n')
    result = _conformance_cli(tmp_path, _check(), _vectors({}), "--declaration", str(tmp_path / "referee.toml"))
    assert result.exit_code == 2 and "protocol: 'referee/9' is not a version" in result.output, result.output
    (tmp_path / "out").write_text("a file")
    result = _conformance_cli(tmp_path, _check(), _vectors({}))
    assert result.exit_code == 2 and "--out must be a folder" in result.output


# --------------------------------------------------------------------------------------
# End to end: the example engine and a seeded mutant
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vector_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's damage release (``tests/damage_release.py``: exported once, shared with the kits' tests)."""
    return damage_release(tmp_path_factory.mktemp("vectors"))


def _publish(folder: Path, vectors: Path, engine: str, version: str) -> dict:
    """``check --json``, ``vectors run --json`` and ``report conformance`` of one engine; what they wrote. (Without
    ``--stats``: its reachable clauses cost half a minute a profile; the hand-made reports above hold its rule.)"""
    folder.mkdir(parents=True)
    check = _invoke("check", "--python", engine, "--in-process", "--kinds", "damage", "--examples", "100",
                    "--seed", "1", "--database", "", "--state-dir", str(folder / "state"), "--json")
    assert check.exit_code in (0, 1), check.output[-2000:]
    (folder / "check.json").write_text(check.stdout)
    run = _invoke("vectors", "run", str(vectors), "--python", engine, "--in-process", "--json")
    assert run.exit_code in (0, 1), run.output[-2000:]
    (folder / "vectors.json").write_text(run.stdout)
    result = _invoke("report", "conformance", "--check", str(folder / "check.json"), "--vectors",
                     str(folder / "vectors.json"), "--engine-version", version, "--out", str(folder / "out"))
    assert result.exit_code == 0, result.output
    return {"line": result.stdout.splitlines()[0], "check": json.loads(check.stdout), "out": folder / "out",
            "doc": json.loads((folder / "out" / "conformance.json").read_text()),
            "badge": json.loads((folder / "out" / "badge.json").read_text())}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory, vector_folder: Path) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("published")
    return {"example": _publish(folder / "example", vector_folder, EXAMPLE, "1.0"),
            "mutant": _publish(folder / "mutant", vector_folder, MUTANT, "1.0-mutant")}


def test_the_example_engine_passes_where_the_mutant_fails(published):
    example, mutant = published["example"]["doc"], published["mutant"]["doc"]
    assert published["example"]["check"]["status"] == "pass" and published["mutant"]["check"]["status"] == "mismatch"
    assert _statuses(example)[MUTANT_CLAUSE] == "pass"
    assert example["summary"]["counts"]["fail"] == 0 and example["summary"]["status"] != "fail"
    row = next(c for c in mutant["clauses"] if c["id"] == MUTANT_CLAUSE)
    assert row["status"] == "fail" and "vectors:" in row["why"] and "check: divergence" in row["why"], row["why"]
    assert [c for c, s in _statuses(mutant).items() if s == "fail"] == [MUTANT_CLAUSE]
    assert {f["name"]: f["status"] for f in mutant["features"]}["ignore_charges"] == "fail"
    assert mutant["engine"] == {"name": MUTANT, "version": "1.0-mutant", "spec": MUTANT}
    assert example["profile"]["kinds"] == ["damage"] and example["protocol"] == "referee/2"
    assert published["example"]["line"].startswith("referee report conformance: INCOMPLETE: ")
    assert published["mutant"]["line"].startswith("referee report conformance: FAIL: ")


def test_each_engine_gets_its_badge_by_the_rule(published):
    example = published["example"]
    summary = example["doc"]["summary"]
    assert summary["passed"] == sum(1 for s in _statuses(example["doc"]).values() if s == "pass") > 0
    color = "brightgreen" if summary["passed"] == summary["in_profile"] else "yellow"
    assert example["badge"] == {"schemaVersion": 1, "label": "referee/2",
                                "message": f"{summary['passed']} / {summary['in_profile']} clauses", "color": color}
    assert example["badge"] == example["doc"]["badge"]
    assert published["mutant"]["badge"] == {"schemaVersion": 1, "label": "referee/2", "message": "failing",
                                            "color": "red"}


def _matrix(published, folder: Path, *extra: Path):
    files = [published[k]["out"] / "conformance.json" for k in ("example", "mutant")] + list(extra)
    return _invoke("report", "matrix", *map(str, files), "--out", str(folder / "matrix.html"))


def test_the_matrix_of_the_two_counts_each_clause_by_n_of_m(published, tmp_path):
    result = _matrix(published, tmp_path)
    assert result.exit_code == 0, result.output
    matrix = json.loads((tmp_path / "matrix.json").read_text())
    assert [e["heading"] for e in matrix["engines"]] == [f"{EXAMPLE} 1.0", f"{MUTANT} 1.0-mutant"]
    assert [c["id"] for c in matrix["clauses"]] == CATALOGUE
    by_id = {c["id"]: c for c in matrix["clauses"]}
    assert by_id[MUTANT_CLAUSE]["statuses"] == ["pass", "fail"]
    assert by_id[MUTANT_CLAUSE]["summary"] == "passed by 1 of 2"
    example, mutant = (_statuses(published[k]["doc"]) for k in ("example", "mutant"))
    for clause, row in by_id.items():
        assert row["passed_by"] == (example[clause] == "pass") + (mutant[clause] == "pass") and row["engines"] == 2
    page = (tmp_path / "matrix.html").read_text()
    assert "passed by 1 of 2" in page and f"{MUTANT} 1.0-mutant" in page


def test_the_matrix_refuses_two_protocols_naming_both_and_a_non_document(published, tmp_path):
    other = copy.deepcopy(published["mutant"]["doc"])
    other["protocol"], other["engine"]["version"] = "referee/1", "0.9"
    (tmp_path / "old.json").write_text(json.dumps(other))
    result = _matrix(published, tmp_path, tmp_path / "old.json")
    first = published["example"]["out"] / "conformance.json"
    assert result.exit_code == 2 and f"{tmp_path / 'old.json'}: protocol referee/1 differs from {first}'s referee/2" \
        in result.output, result.output
    badge = published["example"]["out"] / "badge.json"
    result = _invoke("report", "matrix", str(first), str(badge), "--out", str(tmp_path / "m.html"))
    assert result.exit_code == 2 and "badge.json: format: not a conformance document" in result.output
    result = _invoke("report", "matrix", str(first), str(first), "--out", str(tmp_path / "m.html"))
    assert result.exit_code == 2 and "give each engine (and version) once" in result.output
    assert not (tmp_path / "m.html").exists() and not (tmp_path / "matrix.html").exists()


# --------------------------------------------------------------------------------------
# In a real browser: headless Chromium, its DOM and a screenshot
# --------------------------------------------------------------------------------------

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run")


def _chromium(folder: Path, page: Path, *args: str) -> str:
    """Chromium on ``page`` with a fresh profile; its stdout. Its whole process group is ended on a timeout."""
    profile = folder / f"profile-{len(list(folder.glob('profile-*')))}"
    command = [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.resolve().as_uri()]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    assert process.returncode == 0, err.decode(errors="replace")[-2000:]
    return out.decode("utf-8")


class _Rows(HTMLParser):
    """The rows of a table (by id) as the browser built them: each ``tr``'s attributes and its cells' text."""

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table, self.inside, self.rows, self.cell = table, False, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.inside = attrs.get("id") == self.table
        elif self.inside and tag == "tr":
            self.rows.append({"attrs": attrs, "cells": []})
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.rows:
            self.rows[-1]["cells"].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def _rows(dom: str, table: str) -> list[dict]:
    parser = _Rows(table)
    parser.feed(dom)
    return parser.rows


def _png_top(data: bytes, rows: int) -> tuple[int, int, set[tuple[int, ...]]]:
    """A PNG's width and height, and the colours of its first ``rows`` rows (8-bit RGB or RGBA, unfiltered here)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    chunks, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + length])
        at += 12 + length
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompressobj().decompress(b"".join(chunks), (stride + 1) * rows)
    prior, colours = bytearray(stride), set()
    for r in range(rows):
        kind, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        _unfilter(kind, line, prior, step)
        colours.update(tuple(line[i:i + 3]) for i in range(0, stride, step))
        prior = line
    return width, height, colours


def _unfilter(kind: int, line: bytearray, prior: bytearray, step: int) -> None:
    """Undo one row's PNG filter in place (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth; ``prior``: the row above)."""
    assert kind in (0, 1, 2, 3, 4), kind
    for i in range(len(line) if kind else 0):
        a = line[i - step] if i >= step else 0
        b = prior[i]
        if kind == 1:
            line[i] = (line[i] + a) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + b) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 0xFF
        else:
            c = prior[i - step] if i >= step else 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF


def test_the_conformance_page_and_the_matrix_render_in_headless_chromium(published, tmp_path):
    require_program("chromium", "chromium", CHROMIUM)
    assert _matrix(published, tmp_path).exit_code == 0
    mutant = published["mutant"]
    dom = _chromium(tmp_path, mutant["out"] / "conformance.html", "--dump-dom")
    clauses = {row["attrs"]["data-clause"]: row for row in _rows(dom, "clauses") if "data-clause" in row["attrs"]}
    assert list(clauses) == CATALOGUE
    assert clauses[MUTANT_CLAUSE]["attrs"]["data-status"] == "fail" and "fail" in clauses[MUTANT_CLAUSE]["cells"]
    for clause in mutant["doc"]["clauses"]:
        assert clauses[clause["id"]]["attrs"]["data-status"] == clause["status"]
    assert 'id="badge"' in dom and 'data-message="failing"' in dom and ">failing</span>" in dom
    matrix_dom = _chromium(tmp_path, tmp_path / "matrix.html", "--dump-dom")
    rows = _rows(matrix_dom, "matrix")
    assert rows[0]["cells"][2:] == [f"{EXAMPLE} 1.0", f"{MUTANT} 1.0-mutant", "passed by"]
    by_clause = {row["attrs"]["data-clause"]: row["cells"] for row in rows[1:]}
    assert list(by_clause) == CATALOGUE
    assert by_clause[MUTANT_CLAUSE][2:] == ["pass", "fail", "passed by 1 of 2"]
    both = next(c for c, cells in by_clause.items() if cells[2:4] == ["pass", "pass"])
    assert by_clause[both][-1] == "passed by 2 of 2"
    seen = {}
    for page, name in ((published["example"]["out"] / "conformance.html", "page.png"),
                       (tmp_path / "matrix.html", "matrix.png")):
        shot = tmp_path / name
        _chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1280,2000")
        width, height, seen[name] = _png_top(shot.read_bytes(), 160)
        assert (width, height) == (1280, 2000)
        assert len(seen[name]) > 10, f"{name}: a blank page ({len(seen[name])} colours at the top)"
    # the example's badge, drawn at the top of its page: its message's yellow (or green) background
    assert {(0xB5, 0x9A, 0x00), (0x2C, 0x9C, 0x2C)} & seen["page.png"]
