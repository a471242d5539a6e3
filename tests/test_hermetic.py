"""The test session reads and writes nothing of the checkout's ``.referee/`` nor ``.hypothesis/`` (tests/conftest.py).

The README's main command (``referee prove`` ...) leaves a warm proof cache in the checkout's ``.referee/``; a test
that read it passed or failed by what ran before it (the SIGTERM test of ``prove`` ended first, exit 0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import configuration, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.specs import catalogue, proof_record

from hermetic_state import CHECKOUT, GUARDED, STATE_VARIABLE, changes, guarded_files

REFEREE = str(Path(sys.executable).with_name("referee"))
THEOREM = "surviving_damage_rounds_up"


def _outside_the_checkout(path: Path) -> bool:
    return not path.resolve().is_relative_to(CHECKOUT)


def test_referees_state_hypothesis_and_the_current_directory_are_away_from_the_checkout():
    assert _outside_the_checkout(Path(os.environ[STATE_VARIABLE]))
    assert proof_record.state_dir() == Path(os.environ[STATE_VARIABLE])
    assert _outside_the_checkout(proof_record.record_path())
    assert _outside_the_checkout(configuration.storage_directory("examples", intent_to_write=False).path)
    assert _outside_the_checkout(Path.cwd())


def test_the_catalogue_reads_the_sessions_record_not_the_checkouts():
    """``referee clauses`` reads 'proved' from the state folder's record: the session's, whatever the checkout holds."""
    record = proof_record.record_path()
    proof_record.write_record(record, {"theorems": [{"name": THEOREM, "status": "proved"}],
                                       "code": proof_record.code_stamp()})
    try:
        assert catalogue.trace().proofs_file == record
    finally:
        record.unlink()


@settings(max_examples=5)
@given(st.integers())
def test_a_hypothesis_test_with_the_default_database(number):
    """Run by the next test's check: Hypothesis' default database must not be the checkout's ``.hypothesis/``."""
    assert isinstance(number, int)


def test_verbs_run_from_the_checkout_leave_its_state_folders_alone(tmp_path):
    """``prove`` keeps its cache at the repository root whatever the current directory: run there, it writes to the
    session's state folder; a Hypothesis test and ``check`` (run here, in the session's folder) write nothing there."""
    before = guarded_files()
    done = subprocess.run([REFEREE, "prove", "-k", THEOREM, "--no-crosshair", "-j", "1"], cwd=CHECKOUT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    test_a_hypothesis_test_with_the_default_database()
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "-n", "5", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert changes(before, guarded_files()) == [], f"the checkout's {GUARDED} changed"
    cache = json.loads((proof_record.state_dir() / "proof-cache.json").read_text())
    assert cache, "prove stored its answers in the session's state folder"


def test_the_guard_names_what_was_created_modified_or_removed(tmp_path):
    (tmp_path / ".referee").mkdir()
    (tmp_path / ".referee" / "proofs.json").write_text("{}")
    (tmp_path / ".referee" / "old.json").write_text("{}")
    before = guarded_files(tmp_path)
    (tmp_path / ".referee" / "old.json").unlink()
    (tmp_path / ".hypothesis" / "examples").mkdir(parents=True)
    os.utime(tmp_path / ".referee" / "proofs.json", ns=(0, 0))
    assert changes(before, guarded_files(tmp_path)) == [
        "created .hypothesis", "created .hypothesis/examples", "removed .referee/old.json",
        "modified .referee", "modified .referee/proofs.json"]
