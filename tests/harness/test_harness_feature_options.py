"""``--without`` / ``--features`` beyond ``check`` and ``vectors run``: ``vectors export`` writes only the
vectors inside the selection (and says how many it left out, and why), the pytest plugin never draws a
feature left out; unknown names are a usage error listing the known ones everywhere."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.vectors import suite as vectors_module
from referee.cli.app import app
from referee.rulebooks.combat.features import features_used
from referee.rulebooks.combat.vectors import Coverage, boundary_vectors
from referee.vectors.suite import Generated, Selection, export

pytest_plugins = ["pytester"]


@pytest.fixture
def boundary_only(monkeypatch: pytest.MonkeyPatch) -> list:
    """``vectors export`` over the hand-written boundary cases only (no Z3 search: seconds, not minutes)."""
    found = boundary_vectors()
    monkeypatch.setattr(vectors_module, "generate", lambda progress=None, only=None, profile=None: Generated(list(found), {}))
    return found


def test_export_without_features_writes_only_vectors_that_use_none_of_them(tmp_path: Path, boundary_only: list):
    off = {"shield", "armor"}
    using = [v for v in boundary_only if features_used(v.scenario) & off]
    assert using and len(using) < len(boundary_only)
    result = CliRunner().invoke(app, ["vectors", "export", str(tmp_path / "v"), "--without", "shield,armor", "--quiet"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "v" / "manifest.json").read_text())
    assert len(manifest["vectors"]) == len(boundary_only) - len(using)
    assert all(not set(e["features"]) & off for e in manifest["vectors"])
    assert manifest["left_out"]["vectors"] == len(using) and "shield" not in manifest["selection"]["features"]
    assert f"wrote {len(boundary_only) - len(using)} vectors" in result.output
    assert f"left out {len(using)} vectors outside the selection: " in result.output and "uses armor" in result.output
    # the same selection on `vectors run` skips nothing of this folder
    run = CliRunner().invoke(app, ["vectors", "run", str(tmp_path / "v"), "--python", "referee.examples.engine:run",
                                   "--without", "shield,armor", "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["skipped"] == 0


def test_export_features_is_the_positive_form_and_kinds_select_too(tmp_path: Path, boundary_only: list):
    result = CliRunner().invoke(app, ["vectors", "export", str(tmp_path / "v"), "--features", "armor", "--quiet"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "v" / "manifest.json").read_text())
    assert manifest["vectors"] and all(set(e["features"]) <= {"armor"} for e in manifest["vectors"])
    kinds = CliRunner().invoke(app, ["vectors", "export", str(tmp_path / "k"), "--kinds", "cost", "--quiet"])
    assert kinds.exit_code == 0, kinds.output
    entries = json.loads((tmp_path / "k" / "manifest.json").read_text())["vectors"]
    assert entries and all(e["kinds"] == ["cost"] for e in entries)


def test_export_unknown_feature_is_a_usage_error_listing_the_known_ones(tmp_path: Path, boundary_only: list):
    result = CliRunner().invoke(app, ["vectors", "export", str(tmp_path / "v"), "--without", "redirect,nope"])
    assert result.exit_code == 2
    assert "unknown feature 'nope' (known: ability_lines, armor," in " ".join(result.output.split())
    assert not (tmp_path / "v" / "manifest.json").exists()


def test_export_moves_a_covered_branch_whose_vector_is_left_out_to_left_out(tmp_path: Path):
    shielded = next(v for v in boundary_vectors() if "shield" in features_used(v.scenario))
    plain = next(v for v in boundary_vectors() if not features_used(v.scenario))
    shielded.branch, plain.branch = "combat.x@1=true", "combat.x@1=false"
    coverage = Coverage(covered={shielded.branch: "", plain.branch: ""})
    manifest = export(tmp_path, Generated([shielded, plain], {"combat": coverage}),
                      Selection(None, frozenset({"armor"})))
    branches = manifest["rulebooks"]["combat"]["branches"]
    assert branches["left_out"] == [shielded.branch] and list(branches["covered"]) == [plain.branch]
    assert branches["covered"][plain.branch] == plain.path and (tmp_path / plain.path).is_file()


def _engine_command() -> str:
    return shlex.join([sys.executable, "-m", "referee.examples.engine"])


def test_plugin_without_option_is_never_drawn_and_named_in_the_replay(pytester: pytest.Pytester, monkeypatch):
    """With ``--referee-without``, the plugin's scenarios never use the features left out (an engine that
    refuses them checks every scenario it is sent); without the option the same engine fails."""
    pytester.makepyfile(recorder="""
        from referee.examples.engine import run as clean
        from referee.rulebooks.combat.features import features_used
        def run(scenario):
            used = features_used(scenario) & {"redirect", "boss", "shield"}
            assert not used, used
            return clean(scenario)
    """)
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    monkeypatch.syspath_prepend(str(pytester.path))
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-python", "recorder:run",
                                "--referee-examples", "60", "--referee-seed", "4", "--referee-kinds", "damage,hit",
                                "--referee-without", "redirect,boss,shield", "-v")
    result.assert_outcomes(passed=3)
    drawn = pytester.runpytest("-p", "no:cacheprovider", "--referee-python", "recorder:run",
                               "--referee-examples", "200", "--referee-seed", "4", "--referee-kinds", "damage")
    drawn.assert_outcomes(passed=1, failed=1)


def _without_conftest(feature: str) -> str:
    """A conftest whose engine orders Shield before Insurance and whose ``referee_without`` fixture leaves out one feature."""
    return ("import pytest\n"
            "from referee.examples.mutants import load\n"
            "@pytest.fixture(scope='session')\n"
            "def referee_engine():\n"
            "    return load('shield_before_insurance').run\n"
            "@pytest.fixture(scope='session')\n"
            "def referee_without():\n"
            f"    return [{feature!r}]\n")


def test_plugin_fixture_mode_takes_a_referee_without_fixture(pytester: pytest.Pytester):
    pytester.makeconftest(_without_conftest("shield"))
    pytester.makepyfile("def test_rules(referee_area):\n    assert referee_area.features is not None\n"
                        "    assert 'shield' not in referee_area.features\n    referee_area.check()\n")
    # the mutant orders Shield before Insurance: with no Shield drawn it cannot diverge
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "200", "--referee-seed", "2",
                                "--referee-kinds", "damage", "-v")
    result.assert_outcomes(passed=1)
    # with another feature left out it still fails, and the replay command carries the --without
    pytester.makeconftest(_without_conftest("redirect"))
    pytester.makepyfile("def test_rules(referee_area):\n    referee_area.check()\n")
    failing = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "200", "--referee-seed", "2",
                                 "--referee-kinds", "damage")
    failing.assert_outcomes(failed=1)
    assert "--kinds damage --without redirect" in failing.stdout.str()


def test_plugin_reads_without_and_kinds_from_the_engine_config_file(pytester: pytest.Pytester):
    pytester.makefile(".toml", referee='without = ["shield"]\nkinds = ["damage"]\n')
    pytester.makeconftest(
        "import pytest\n"
        "from referee.examples.mutants import load\n"
        "@pytest.fixture(scope='session')\n"
        "def referee_engine():\n"
        "    return load('shield_before_insurance').run\n"
    )
    pytester.makepyfile("def test_rules(referee_area):\n    referee_area.check()\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "200", "--referee-seed", "2", "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*test_rules?damage? PASSED*"])


def test_plugin_unknown_feature_is_a_usage_error_listing_the_known_ones(pytester: pytest.Pytester):
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-engine", _engine_command(),
                                "--referee-without", "nope")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown feature 'nope' (known: ability_lines, armor," in result.stderr.str()
