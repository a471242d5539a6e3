"""``referee vectors export DIR --release``: the export filed under a name that says which rules it holds
(``referee-2_rules-<rules version>[_profile-<declaration>]``) with ``release.json``, the SHA-256 of every file and what
the declaration leaves out of the comparison; ``referee vectors check-release`` holds a folder to it. And
``vectors run --exclude-features``: a pure filter over the manifest's feature tags."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from importlib import resources
from pathlib import Path

import pytest
from harness_tools import boundary_cases_only
from typer.testing import CliRunner

from referee import rulebooks
from referee.cli.app import app
from referee.vectors.release import (RELEASE_FORMAT, compared_of, declaration_of, release_name, rules_document,
                                     rules_version)

RUNNER = CliRunner()
#: One template's Z3 search: a small export (about 130 vectors, a few seconds).
ONLY = "damage/hit/plain"
NAME = re.compile(r"referee-2_rules-([0-9a-f]{12})(?:_profile-([0-9a-f]{8}))?")


def _export(parent: Path, *extra: str) -> Path:
    """Export a release of the template ``ONLY`` into ``parent``; the release folder the command printed."""
    result = RUNNER.invoke(app, ["vectors", "export", str(parent), "--release", "--only", ONLY, "--quiet", *extra])
    assert result.exit_code == 0, result.output[-2000:]
    return Path(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _export(tmp_path_factory.mktemp("release"))


@pytest.fixture(scope="module")
def reciprocal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same export under one declared reading."""
    return _export(tmp_path_factory.mktemp("reciprocal"), "--ruleset", "negative_armor=reciprocal")


def _release_json(folder: Path) -> dict:
    return json.loads((folder / "release.json").read_text())


def _check(folder: Path):
    return RUNNER.invoke(app, ["vectors", "check-release", str(folder)])


def test_the_release_folder_is_named_for_the_rules_and_the_declaration(release: Path):
    match = NAME.fullmatch(release.name)
    assert match and match.group(1) == rules_version() and match.group(2)  # --only is declared: a profile part
    data = _release_json(release)
    assert data["format"] == RELEASE_FORMAT == "referee-vectors-release/1"
    assert (data["name"], data["protocol"], data["rules"]) == (release.name, "referee/2", rules_version())
    assert data["declaration"] == {"kinds": None, "features": None, "without": [], "only": ONLY, "ruleset": {}}
    assert data["compared"] == {"fields_off": [], "events_off": []}
    assert set(data["features"]) == set(rulebooks.all_features())


def test_every_file_of_the_release_is_hashed_and_verifies(release: Path):
    data = _release_json(release)
    manifest = json.loads((release / "manifest.json").read_text())
    assert set(data["files"]) == {"manifest.json"} | {entry["path"] for entry in manifest["vectors"]}
    for path, digest in data["files"].items():
        assert hashlib.sha256((release / path).read_bytes()).hexdigest() == digest, path
    result = _check(release)
    assert result.exit_code == 0 and "check-release: ok: 0 problems" in result.output


def test_check_release_takes_the_folder_holding_exactly_one_release(release: Path):
    assert _check(release.parent).exit_code == 0
    holder = release.parent.parent / "two-releases"
    shutil.copytree(release, holder / release.name)
    shutil.copytree(release, holder / (release.name + "-copy"))
    result = _check(holder)
    assert result.exit_code == 2 and "not exactly one" in result.output


@pytest.fixture
def copy(release: Path, tmp_path: Path) -> Path:
    """A copy of the release to damage."""
    return Path(shutil.copytree(release, tmp_path / release.name))


def test_a_tampered_vector_fails_check_release_naming_it(copy: Path):
    path = json.loads((copy / "manifest.json").read_text())["vectors"][3]["path"]
    data = json.loads((copy / path).read_text())
    data["expected"]["events"] = data["expected"]["events"][:-1]
    (copy / path).write_text(json.dumps(data, indent=1) + "\n")
    result = _check(copy)
    assert result.exit_code == 1
    assert f"{path}: its SHA-256 is not release.json's" in result.output and "1 problems" in result.output


def test_an_unlisted_file_and_a_missing_one_fail_check_release_naming_them(copy: Path):
    gone = json.loads((copy / "manifest.json").read_text())["vectors"][0]["path"]
    (copy / gone).unlink()
    (copy / "combat" / "notes.txt").write_text("added after the export\n")
    result = _check(copy)
    assert result.exit_code == 1
    assert f"{gone}: listed in release.json, not in the folder" in result.output
    assert "combat/notes.txt: a file release.json does not list" in result.output


def test_a_release_of_another_protocol_or_format_is_refused(copy: Path):
    data = _release_json(copy)
    (copy / "release.json").write_text(json.dumps({**data, "protocol": "referee/1"}))
    assert _check(copy).exit_code == 1 and "protocol 'referee/1'" in _check(copy).output
    (copy / "release.json").write_text(json.dumps({**data, "format": "referee-vectors-release/0"}))
    result = _check(copy)
    assert result.exit_code == 2 and "not a referee vectors release" in result.output


def test_the_rules_version_is_stable_and_a_second_export_is_written_in_place(release: Path, tmp_path: Path):
    parent = Path(shutil.copytree(release.parent, tmp_path / "parent"))
    before = (parent / release.name / "release.json").read_bytes()
    again = _export(parent)
    assert again == parent / release.name and [p.name for p in parent.iterdir()] == [release.name]
    assert (again / "release.json").read_bytes() == before
    assert _check(again).exit_code == 0


def test_declared_readings_change_the_profile_part_of_the_name_not_the_rules_part(release: Path, reciprocal: Path):
    ours, theirs = NAME.fullmatch(release.name), NAME.fullmatch(reciprocal.name)
    assert ours.group(1) == theirs.group(1) == rules_version()
    assert ours.group(2) != theirs.group(2)
    assert _release_json(reciprocal)["declaration"]["ruleset"] == {"negative_armor": "reciprocal"}
    assert _check(reciprocal).exit_code == 0


def test_the_rules_version_is_the_digest_of_the_catalogues_and_the_default_readings():
    document = rules_document()
    specs = resources.files("referee.specs")
    assert document["catalogue"] == {name: hashlib.sha256(specs.joinpath(name).read_bytes()).hexdigest()
                                     for name in ("catalogue_combat.toml", "catalogue_play.toml")}
    assert document["ruleset"]["combat"]["negative_armor"] == "mirror"
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    assert rules_version() == hashlib.sha256(canonical).hexdigest()[:12]


def test_an_export_declaring_nothing_has_no_profile_part_and_the_plain_export_s_bytes(tmp_path: Path):
    """Without a declaration the name is the rules alone, and the release holds exactly the files the plain export
    writes (``--release`` adds release.json and changes no byte of the others)."""
    with boundary_cases_only():
        plain = RUNNER.invoke(app, ["vectors", "export", str(tmp_path / "plain"), "--quiet"])
        released = RUNNER.invoke(app, ["vectors", "export", str(tmp_path / "out"), "--release", "--quiet"])
    assert plain.exit_code == 0 and released.exit_code == 0, released.output
    folder = tmp_path / "out" / f"referee-2_rules-{rules_version()}"
    assert released.stdout.strip().splitlines()[-1] == str(folder)
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "plain").as_posix()
                           for p in (tmp_path / "plain").rglob("*") if p.is_file()) + ["release.json"]
    assert all((folder / f).read_bytes() == (tmp_path / "plain" / f).read_bytes() for f in files if f != "release.json")


def test_compared_holds_what_the_declaration_leaves_out_and_features_what_each_would_add():
    compared, effects = compared_of(declaration_of(None, None, ["redirect"], None, {}))
    fields, events = rulebooks.profile_off(frozenset(rulebooks.all_features()) - {"redirect"})
    assert compared == {"fields_off": sorted(fields), "events_off": sorted(events)}
    assert "redirect_to" in compared["fields_off"] and "redirect" in compared["events_off"]
    assert effects["redirect"] == {"fields_off": [], "events_off": []}  # left out already
    assert effects["armor"]["fields_off"] == ["armor"]


def test_the_name_of_a_declaration_is_its_digest_whatever_the_order_of_its_lists():
    one = declaration_of(["hit", "damage"], None, ["shield", "armor"], None, {})
    other = declaration_of(["damage", "hit"], None, ["armor", "shield"], None, {})
    assert release_name(one) == release_name(other) != release_name(declaration_of(["damage"], None, [], None, {}))
    assert release_name(declaration_of(None, None, None, None, {})) == f"referee-2_rules-{rules_version()}"


# --------------------------------------------------------------------------------------
# vectors run --exclude-features: a pure filter
# --------------------------------------------------------------------------------------


def _run(folder: Path, *extra: str):
    return RUNNER.invoke(app, ["vectors", "run", str(folder), "--python", "referee.examples.engine:run",
                               "--in-process", "--json", *extra])


def test_exclude_features_skips_exactly_the_tagged_vectors_and_counts_them(release: Path):
    entries = json.loads((release / "manifest.json").read_text())["vectors"]
    capped = [e["path"] for e in entries if "cap" in e["features"]]
    assert 0 < len(capped) < len(entries)
    everything, result = _run(release), _run(release, "--exclude-features", "cap")
    assert result.exit_code == 0, result.output[-2000:]
    report = json.loads(result.stdout)
    assert report["skipped"] == len(capped) and report["vectors"] == len(entries) - len(capped)
    assert report["skipped_by_reason"] == {"uses excluded feature cap": len(capped)}
    assert report["selection"]["exclude_features"] == ["cap"]
    assert report["compared"] == json.loads(everything.stdout)["compared"]  # nothing left out of the comparison


def test_exclude_features_names_every_excluded_feature_a_vector_uses(release: Path, tmp_path: Path):
    entries = json.loads((release / "manifest.json").read_text())["vectors"]
    both = sum({"cap", "shield_multiplier"} <= set(e["features"]) for e in entries)
    receipt = tmp_path / "receipt.json"
    result = _run(release, "--exclude-features", "cap,shield_multiplier", "--receipt", str(receipt))
    report = json.loads(result.stdout)
    assert both and report["skipped_by_reason"]["uses excluded features cap, shield_multiplier"] == both
    skipped = json.loads(receipt.read_text())["skipped"]
    assert len(skipped) == report["skipped"] and all(s["reason"].startswith("uses excluded feature") for s in skipped)


def test_an_unknown_feature_to_exclude_is_a_usage_error(release: Path):
    result = _run(release, "--exclude-features", "armor,no_such_feature")
    assert result.exit_code == 2 and "unknown feature 'no_such_feature'" in result.output


def test_a_json_run_of_a_release_names_the_protocol_the_referee_the_engine_and_the_release(release: Path):
    result = RUNNER.invoke(app, ["vectors", "run", str(release), "--python", "referee.examples.engine:run", "--json"])
    assert result.exit_code == 0, result.output
    head = json.loads(result.stdout)
    assert head["protocol"] == "referee/2" and head["engine"] == "referee.examples.engine:run"
    assert head["release"] == _release_json(release)["name"] and head["referee"] == _release_json(release)["referee"]
