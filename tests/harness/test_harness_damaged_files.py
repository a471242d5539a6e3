"""Damaged vectors folders, hostile replay and explain files, bad export destinations (issue 13: 6, 9, 10):
each a clean error naming the file (exit 2), never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.examples.engine import run as clean_engine
from referee.protocol import PROTOCOL
from referee.vectors.files import VectorFileError, check_destination, read_vectors, remove_stale
from referee.vectors.suite import VECTORS_FORMAT

RUNNER = CliRunner()
SCENARIO = {"protocol": PROTOCOL, "board": [{"uid": "a", "side": 0, "row": 0, "col": 0},
                                            {"uid": "b", "side": 1, "row": 0, "col": 0, "shield": 2}],
            "actions": [{"kind": "damage", "target": "b", "amount": 5}]}
DEEP = "[" * 100_000 + "]" * 100_000


def good_folder(root: Path) -> Path:
    folder = root / "vectors"
    (folder / "combat" / "damage").mkdir(parents=True)
    vector = {"scenario": SCENARIO, "expected": clean_engine(SCENARIO), "clauses": ["combat:500.1-9"]}
    (folder / "combat" / "damage" / "0001.json").write_text(json.dumps(vector))
    manifest = {"format": VECTORS_FORMAT, "vectors": [{"path": "combat/damage/0001.json", "clauses": ["combat:500.1-9"]}]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def run_vectors_cli(folder: Path):
    return RUNNER.invoke(app, ["vectors", "run", str(folder), "--python", "referee.examples.engine:run", "--in-process"])


def test_a_good_folder_passes(tmp_path):
    result = run_vectors_cli(good_folder(tmp_path))
    assert result.exit_code == 0, result.output
    assert "1/1 vectors pass" in result.output


def _damage(folder: Path, how: str) -> str:
    """Damage the folder one way; the words the error must hold."""
    manifest = folder / "manifest.json"
    data = json.loads(manifest.read_text())
    vector = folder / "combat" / "damage" / "0001.json"
    if how == "manifest-list":
        manifest.write_text("[]")
        return "expected a JSON object"
    if how == "no-path":
        data["vectors"][0].pop("path")
    elif how == "missing-file":
        data["vectors"][0]["path"] = "combat/damage/0002.json"
        manifest.write_text(json.dumps(data))
        return "0002.json: no such file"
    elif how == "directory":
        data["vectors"][0]["path"] = "combat/damage"
        manifest.write_text(json.dumps(data))
        return "is a directory"
    elif how == "deep-manifest":
        manifest.write_text(DEEP)
        return "nested too deeply"
    elif how == "deep-vector":
        vector.write_text(DEEP)
        return "nested too deeply"
    elif how == "no-scenario":
        vector.write_text(json.dumps({"expected": {}}))
        return 'no "scenario"'
    elif how == "empty":
        data["vectors"] = []
    elif how == "format":
        data["format"] = "someone-else/9"
    elif how == "escape":
        data["vectors"][0]["path"] = "../../../../etc/passwd"
    elif how == "entry-not-object":
        data["vectors"][0] = "combat/damage/0001.json"
    elif how == "not-json":
        vector.write_text("{not json")
        return "not valid JSON"
    manifest.write_text(json.dumps(data))
    return {"no-path": '"path" must be a non-empty string', "empty": "lists no vectors", "format": "format 'someone-else/9'",
            "escape": "leaves the vectors folder", "entry-not-object": "expected an object"}[how]


@pytest.mark.parametrize("how", ["manifest-list", "no-path", "missing-file", "directory", "deep-manifest", "deep-vector",
                                 "no-scenario", "empty", "format", "escape", "entry-not-object", "not-json"])
def test_a_damaged_vectors_folder_is_a_clean_error_naming_the_file(tmp_path, how):
    folder = good_folder(tmp_path)
    says = _damage(folder, how)
    with pytest.raises(VectorFileError, match=None) as caught:
        read_vectors(folder, VECTORS_FORMAT)
    assert says in str(caught.value) and str(folder) in str(caught.value)
    result = run_vectors_cli(folder)
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output


# --------------------------------------------------------------------------------------
# vectors export: the destination is checked before any generation
# --------------------------------------------------------------------------------------


def test_export_refuses_an_empty_destination():
    result = RUNNER.invoke(app, ["vectors", "export", ""])
    assert result.exit_code == 2 and "destination folder is empty" in result.output


def test_export_refuses_an_unwritable_destination_at_once(tmp_path):
    if os.geteuid() == 0:
        target = Path("/proc/referee-vectors")  # not writable even for root
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "vectors"
    result = RUNNER.invoke(app, ["vectors", "export", str(target), "--quiet"])
    assert result.exit_code == 2, result.output
    assert "cannot write there" in result.output and "Traceback" not in result.output


def test_export_refuses_a_file_and_a_foreign_manifest(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(VectorFileError, match="not a folder"):
        check_destination(tmp_path / "afile", VECTORS_FORMAT)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "manifest.json").write_text('{"name": "my web app"}')
    with pytest.raises(VectorFileError, match="not a referee vectors manifest; not overwriting it"):
        check_destination(tmp_path / "mine", VECTORS_FORMAT)
    assert (tmp_path / "mine" / "manifest.json").read_text() == '{"name": "my web app"}'
    check_destination(good_folder(tmp_path), VECTORS_FORMAT)  # a previous export of ours is fine


def test_stale_vectors_of_a_previous_export_are_removed(tmp_path):
    folder = good_folder(tmp_path)
    (folder / "combat" / "damage" / "0009.json").write_text("{}")
    removed = remove_stale(folder, {"combat/damage/0001.json", "combat/damage/0009.json", "../../x"},
                           {"combat/damage/0001.json"})
    assert removed == ["combat/damage/0009.json"]
    assert (folder / "combat" / "damage" / "0001.json").exists()


# --------------------------------------------------------------------------------------
# --replay and explain on hostile files
# --------------------------------------------------------------------------------------

HOSTILE = {
    "a list": "[1, 2]",
    "a number": "7",
    "deep JSON": DEEP,
    "a list kind": json.dumps({**SCENARIO, "actions": [{"kind": ["damage"], "target": "b", "amount": 1}]}),
    "a dict kind": json.dumps({**SCENARIO, "actions": [{"kind": {"x": 1}, "target": "b", "amount": 1}]}),
    "deep actions": '{"protocol": "%s", "board": [], "actions": %s}' % (PROTOCOL, DEEP),
    "not UTF-8": b"\xff\xfe{".decode("latin-1"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_replay_of_a_hostile_file_is_a_usage_error(tmp_path, name):
    path = tmp_path / "bad.json"
    path.write_bytes(HOSTILE[name].encode("latin-1") if name == "not UTF-8" else HOSTILE[name].encode())
    result = RUNNER.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process",
                                 "--replay", str(path), "--database", ""])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_explain_of_a_hostile_file_is_a_usage_error(tmp_path, name):
    path = tmp_path / "bad.json"
    path.write_bytes(HOSTILE[name].encode("latin-1") if name == "not UTF-8" else HOSTILE[name].encode())
    result = RUNNER.invoke(app, ["explain", str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


def test_replay_takes_a_vector_file_and_a_one_line_replay(tmp_path):
    folder = good_folder(tmp_path)
    vector = folder / "combat" / "damage" / "0001.json"
    line = tmp_path / "replay.jsonl"
    line.write_text(json.dumps(SCENARIO) + "\n")
    for path in (vector, line):
        result = RUNNER.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process",
                                     "--replay", str(path), "--database", ""])
        assert result.exit_code == 0, result.output
        assert "PASS" in result.output
