"""``referee prove`` records its run where ``referee clauses`` reads the 'proved' status."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli.app import app


def test_prove_records_the_run_for_the_catalogue(tmp_path: Path) -> None:
    record = tmp_path / "run" / "proofs.json"
    result = CliRunner().invoke(app, ["prove", "-k", "surviving_damage_rounds_up", "--no-crosshair", "--record", str(record)])
    assert result.exit_code == 0, result.output
    saved = json.loads(record.read_text())
    assert [t["name"] for t in saved["theorems"]] == ["surviving_damage_rounds_up"]
    assert saved["theorems"][0]["status"] == "proved"


def test_no_record_writes_nothing(tmp_path: Path) -> None:
    record = tmp_path / "proofs.json"
    args = ["prove", "-k", "surviving_damage_rounds_up", "--no-crosshair", "--record", str(record), "--no-record"]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert not record.exists()


def test_a_selected_run_does_not_replace_the_complete_record(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["prove", "-k", "surviving_damage_rounds_up", "--no-crosshair"]).exit_code == 0
    assert not (tmp_path / ".referee" / "proofs.json").exists()


def test_prove_and_clauses_use_the_repository_roots_record_whatever_the_current_directory(tmp_path: Path, monkeypatch) -> None:
    from referee.specs import proof_record
    from referee.specs.catalogue import repo_root, trace

    monkeypatch.delenv(proof_record.STATE_DIR_VARIABLE, raising=False)  # the test session sets it (tests/conftest.py)
    monkeypatch.chdir(tmp_path)
    assert proof_record.record_path() == repo_root() / ".referee" / "proofs.json"  # not ./.referee
    assert proof_record.record_path(tmp_path / "state") == tmp_path / "state" / "proofs.json"
    proof_record.write_record(tmp_path / "state" / "proofs.json", {"theorems": [], "code": proof_record.code_stamp()})
    assert trace(state_dir=tmp_path / "state").proofs_file == tmp_path / "state" / "proofs.json"


def test_the_record_is_tied_to_the_code_and_written_atomically(tmp_path: Path, monkeypatch) -> None:
    from referee.specs import proof_record

    record = tmp_path / "proofs.json"
    result = CliRunner().invoke(app, ["prove", "-k", "surviving_damage_rounds_up", "--no-crosshair", "--record", str(record)])
    assert result.exit_code == 0, result.output
    saved = json.loads(record.read_text())
    assert saved["code"]["hash"] == proof_record.code_hash()
    assert proof_record.staleness(record) is None
    assert [p.name for p in tmp_path.iterdir()] == ["proofs.json"]  # no temporary file left

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(proof_record.os, "replace", fail)
    try:
        proof_record.write_record(record, {"theorems": []})
    except OSError:
        pass
    assert json.loads(record.read_text()) == saved  # the old record is whole
    assert [p.name for p in tmp_path.iterdir()] == ["proofs.json"]


def test_clauses_says_when_the_record_is_stale(tmp_path: Path) -> None:
    from referee.specs import proof_record

    state = tmp_path / "state"
    document = {"theorems": [{"name": "surviving_damage_rounds_up", "status": "proved"}],
                "code": {"hash": "0" * 64}}
    proof_record.write_record(state / "proofs.json", document)
    result = CliRunner().invoke(app, ["clauses", "--rulebook", "combat", "--state-dir", str(state)])
    assert result.exit_code == 0, result.output
    assert "is stale: model/ or proofs/ changed since it was recorded" in " ".join(result.output.split())
    document["code"] = proof_record.code_stamp()
    proof_record.write_record(state / "proofs.json", document)
    fresh = CliRunner().invoke(app, ["clauses", "--rulebook", "combat", "--state-dir", str(state)])
    assert "stale" not in fresh.output
    listed = json.loads(CliRunner().invoke(app, ["clauses", "--json", "--state-dir", str(state)]).stdout)
    named = [r for r in listed if "surviving_damage_rounds_up" in r["theorems"]]
    assert named and all(r["proof_results"]["surviving_damage_rounds_up"] == "proved" for r in named)
