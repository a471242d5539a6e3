"""``referee prove`` records its run where ``referee clauses`` reads the 'proved' status."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app


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
