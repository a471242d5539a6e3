"""Conformance vectors: every branch of every modeled clause has one (found by Z3), the boundary
cases are there, and ``referee vectors run`` replays them and reports per clause."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model.clauses import IMPLEMENTATIONS, load_all_model_modules
from referee.rulebooks.combat.vectors import BOUNDARY_CASES
from referee.vectors.suite import VECTORS_FORMAT

from test_harness_at_fault import names_clause


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("vectors")
    result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--quiet"])
    assert result.exit_code == 0, result.output
    return folder


def test_export_covers_every_branch_found_in_the_model(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["format"] == VECTORS_FORMAT and manifest["protocol"] == "referee/2"
    branches = manifest["rulebooks"]["combat"]["branches"]
    assert branches["unknown"] == [] and branches["templates_not_run"] == []
    # Branches no valid scenario reaches get no vector: the Shield pool's clamp at 0 fires only for a
    # negative Shield, outside the domain the theorems assume and the loader accepts
    # (``referee.model.combat.legal.UNIT_DOMAIN``); branches only the RELAXED bounds reach are
    # ``outside_domain``. The recovery cap's clamp at 0 (``compute_receivable``) likewise fires only for a
    # living unit above its maximum Vitality, which the domain excludes. Any other unreachable branch is a
    # dead guard.
    outside_domain = ("combat.shield.compute_damage_to_break@", "combat.recovery.compute_receivable@")
    dead = [b for b in branches["unreachable"] if not b.startswith(outside_domain)]
    assert dead == [], "a branch no scenario takes: a model guard that can never fire?"
    assert len(branches["covered"]) + len(branches["unreachable"]) + len(branches["outside_domain"]) == branches["total"] > 100
    assert len(branches["outside_domain"]) < 12
    for path in branches["covered"].values():
        vector = json.loads((exported / path).read_text())
        assert set(vector) == {"scenario", "expected", "clauses", "branch", "source"}


def test_export_covers_every_modeled_combat_clause(exported: Path):
    load_all_model_modules()
    manifest = json.loads((exported / "manifest.json").read_text())
    modeled = {str(c) for c in IMPLEMENTATIONS if c.rulebook == "combat"}
    # Every modeled combat clause has a vector: the recover, cull, tick, advance and end_combat kinds
    # (issue 14) reach recovery's ledger (500.3a, 500.3b, 500.3f) and the battle clock (500.9a).
    assert modeled - set(manifest["clauses"]) == set()


def test_layout_is_by_rulebook_kind_and_clause(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    for entry in manifest["vectors"]:
        rulebook, kind, clause, _ = Path(entry["path"]).parts
        assert rulebook == entry["rulebook"] == ("play" if entry["source"] == "play-case" else "combat")
        assert kind == entry["actions"][0] and f"{rulebook}:{clause}" in entry["clauses"]
    boundary = [e for e in manifest["vectors"] if e["source"] == "boundary"]
    assert len(boundary) == len(BOUNDARY_CASES)
    assert any(p.endswith("armor-exact-third-87-into-81.json") for p in (e["path"] for e in boundary))


def test_run_passes_the_clean_engine_and_reports_per_clause(exported: Path, engine_cmd):
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", engine_cmd(), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.output)
    assert report["failed"] == [] and report["vectors"] > 150
    assert "combat:500.2c" in report["clauses"]
    # every vector ran and passed, and between them they take every branch the export covered: ok everywhere
    assert {row["status"] for row in report["clauses"].values()} == {"ok"}
    assert all(row["branches_exercised"] == row["branches"] for row in report["clauses"].values())


def test_run_fails_a_mutant_on_its_clause_and_goes_on(exported: Path, engine_cmd, tmp_path: Path):
    junit = tmp_path / "vectors.xml"
    result = CliRunner().invoke(
        app, ["vectors", "run", str(exported), "--engine", engine_cmd("--mutant", "insurance_point_not_spent_whole"),
              "--json", "--junit", str(junit)],
    )
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["failed"] and all(f["status"] == "mismatch" for f in report["failed"])
    # each failure fails one clause, the one check names for it (tests/harness/test_harness_vector_marks.py), and
    # for most failures that is the mutant's clause (500.1a), as the step at fault shown beside it names it
    at_fault = {f["failed_clauses"][0] for f in report["failed"]}
    assert all(len(f["failed_clauses"]) == 1 for f in report["failed"])
    assert {c for c, row in report["clauses"].items() if row["status"] == "FAIL"} == at_fault
    assert sum(f["failed_clauses"] == ["combat:500.1a"] for f in report["failed"]) > len(report["failed"]) / 2
    named = [f for f in report["failed"] if names_clause(f["explain"][-1], "combat:500.1a")]
    assert len(named) > len(report["failed"]) / 2
    assert "<failure" in junit.read_text()


def test_run_records_faults_per_vector(exported: Path, faulty_cmd):
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--engine", faulty_cmd("garbage", 5), "--json",
                                      "--batch", "8"])
    assert result.exit_code == 3  # faults, no divergence
    report = json.loads(result.output)
    faults = [f for f in report["failed"] if f["status"] == "fault"]
    assert faults and "garbage" in faults[0]["detail"]
    assert len(report["failed"]) < report["vectors"]  # the rest still ran


# --------------------------------------------------------------------------------------
# Claims that hold (issue 24): the mutants, FAIL at the clause at fault, not covered, the profile's search
# --------------------------------------------------------------------------------------

#: The seeded mutants the export of 2026-12-01 (343 vectors, 205 of 210 branches) let through: branch coverage
#: takes each branch once at numbers Z3 picks, and these bugs show only at a boundary (Armor driven below 0, an
#: odd Maim prevention) or in a board shape (an ally source, a boss or Tool first in reading order, a kill before
#: a count). The boundary cases of ``referee.rulebooks.combat.vectors`` aim at each from its rule.
SURVIVORS = ("armor_floored_at_zero", "bolster_not_reset", "dormant_payer_refused_for_every_cost", "thorns_on_nothing",
             "retaliation_against_ally", "reflect_meets_armor", "bloodletting_boss_pays",
             "count_sampled_at_activation_start", "dead_units_still_counted", "restore_maim_rounds_down",
             "recovery_reaches_the_entrapped")


def _kills(folder: Path, name: str) -> bool:
    result = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", f"referee.examples.mutants:{name}",
                                      "--in-process"])
    assert result.exit_code in (0, 1), result.output[-2000:]
    return result.exit_code == 1


def _rotating_sample(names: tuple[str, ...], size: int) -> list[str]:
    """``size`` of ``names``, a different run of them each day (the whole list under ``--runslow``)."""
    import datetime

    start = datetime.date.today().toordinal() * size % len(names)
    return [names[(start + i) % len(names)] for i in range(size)]


def test_the_default_export_kills_the_mutants_branch_coverage_let_through(exported: Path):
    """A rotating sample of four of the eleven a day in the default run (each run replays the whole export)."""
    assert [name for name in _rotating_sample(SURVIVORS, 4) if not _kills(exported, name)] == []


@pytest.mark.slow
def test_the_default_export_kills_every_seeded_mutant(exported: Path):
    from referee.examples.mutants import MUTANTS

    assert len(MUTANTS) >= 79
    assert [m.name for m in MUTANTS if not _kills(exported, m.name)] == []


def test_one_rounding_bug_fails_one_clause_not_every_clause_it_passed(exported: Path):
    """``float_armor_step`` gets one exact-third vector wrong: 33 clauses showed FAIL when a failure marked every
    clause its vector applied; it fails at the clause of the step at fault alone."""
    result = CliRunner().invoke(app, ["vectors", "run", str(exported), "--python",
                                      "referee.examples.mutants:float_armor_step", "--in-process", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    failed = [c for c, row in report["clauses"].items() if row["status"] == "FAIL"]
    assert failed == sorted({f["failed_clauses"][0] for f in report["failed"]}) and len(failed) == 1
    assert names_clause(report["failed"][0]["explain"][-1], "combat:500.2c")
    for passed in ("combat:500.1-11", "combat:500.1f", "combat:500.1-7"):  # redirect, intercept, the cap
        assert report["clauses"][passed]["status"] != "FAIL"


def test_a_clause_whose_branch_no_vector_takes_is_not_covered_not_ok(exported: Path, tmp_path: Path):
    """The claim of issue 24: an engine whose Bloodletting payer search skips Tools passed `ok 800.4d 5/5` when no
    vector put a Tool first. Take the Tool-first vectors out of the folder: 800.4d is ``not covered``."""
    import shutil

    folder = tmp_path / "vectors"
    shutil.copytree(exported, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    covered = manifest["rulebooks"]["combat"]["branches"]["covered"]
    failing = [b for b in covered if b.startswith("combat.bloodletting.process_bloodletting@")
               and b.endswith(":event:activation_failed=true")]  # found by its site, whatever line it is on
    assert len(failing) == 1, failing
    failing = failing[0]
    for entry in manifest["vectors"]:  # out of the folder as well: a file the manifest does not list is refused
        if failing in entry["exercises"]:
            (folder / entry["path"]).unlink()
    manifest["vectors"] = [e for e in manifest["vectors"] if failing not in e["exercises"]]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", "referee.examples.engine:run",
                                      "--in-process", "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    row = json.loads(result.output)["clauses"]["combat:800.4d"]
    assert row["status"] == "not covered" and row["vectors"] > 0 and row["branches_exercised"] < row["branches"]
    text = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", "referee.examples.engine:run",
                                    "--in-process"]).output
    assert "not covered combat:800.4d" in text and "branches taken by no passing vector" in text


def test_every_covered_branch_is_taken_by_a_vector_that_records_it(exported: Path):
    manifest = json.loads((exported / "manifest.json").read_text())
    branches = manifest["rulebooks"]["combat"]["branches"]
    taken = {b for e in manifest["vectors"] for b in e["exercises"]}
    assert set(branches["covered"]) <= taken
    assert all(b.rsplit("=", 1)[0] in branches["sites"] for b in taken)


def _tool_or_hub_first(scenario: dict) -> bool:
    """A Bloodletting action whose caster's side has a Tool or a Hub first in reading order (800.4b, 800.4d)."""
    action = next((a for a in scenario["actions"] if a["kind"] == "bloodletting"), None)
    if action is None:
        return False
    side = next(u["side"] for u in scenario["board"] if u["uid"] == action["caster"])
    first = min((u for u in scenario["board"] if u["side"] == side), key=lambda u: (u["row"], u["col"]))
    return first["is_tool"] or first["is_hub"]


def test_a_profiles_export_searches_inside_it(exported: Path, tmp_path: Path):
    """Under ``--kinds bloodletting --features tools_hubs`` every branch a scenario inside the profile takes has a
    vector inside it (filtering the full export kept fewer), a Tool-first vector is among them, and the branches
    only scenarios outside the profile take are listed."""
    folder = tmp_path / "profile"
    result = CliRunner().invoke(app, ["vectors", "export", str(folder), "--quiet", "--kinds", "bloodletting",
                                      "--features", "tools_hubs"])
    assert result.exit_code == 0, result.output
    assert "the profile makes" in result.output
    manifest = json.loads((folder / "manifest.json").read_text())
    branches = manifest["rulebooks"]["combat"]["branches"]
    assert branches["unknown"] == [] and branches["outside_profile"]
    assert sum(len(branches[k]) for k in ("covered", "unreachable", "outside_domain", "outside_profile")) == branches["total"]
    vectors = [json.loads((folder / e["path"]).read_text())["scenario"] for e in manifest["vectors"]]
    assert any(_tool_or_hub_first(s) for s in vectors)
    # filtering the full export to the profile keeps the branches of the vectors that happen to lie inside it
    full = json.loads((exported / "manifest.json").read_text())
    inside = [e for e in full["vectors"] if e["kinds"] == ["bloodletting"] and set(e["features"]) <= {"tools_hubs"}]
    filtered = {b for e in inside for b in e["exercises"]}
    assert filtered < {b for e in manifest["vectors"] for b in e["exercises"]}
