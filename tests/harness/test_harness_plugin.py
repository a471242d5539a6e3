"""The pytest plugin: inert without options; one test per rule area with them."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_plugin_is_inert_without_options(pytester: pytest.Pytester):
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "referee::" not in result.stdout.str()


def test_command_line_adds_one_passing_test_per_combat_rule_area(pytester: pytest.Pytester):
    """The default areas are the combat kinds (the guide says so); ids print as ``referee::kind``
    and are counted in "collected N items"."""
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--referee-python", "referee.examples.engine:run",
        "--referee-examples", "40", "--referee-seed", "1", "-v",
    )
    from referee.rulebooks import default_kinds

    combat = default_kinds()
    assert "play_card" not in combat and "damage" in combat
    result.assert_outcomes(passed=1 + len(combat))
    result.stdout.fnmatch_lines([f"*collected {1 + len(combat)} items*"])
    for kind in combat:
        result.stdout.fnmatch_lines([f"referee::{kind} PASSED*"])
    assert "::referee[" not in result.stdout.str() and "play_card" not in result.stdout.str()


def test_a_mutant_fails_only_its_rule_area(pytester: pytest.Pytester):
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--referee-python", "referee.examples.mutants:bloodletting_column_order",
        "--referee-examples", "300", "--referee-seed", "1", "--referee-kinds", "cost,bloodletting", "-v",
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["referee::cost PASSED*", "referee::bloodletting FAILED*"])
    result.stdout.fnmatch_lines(["*first divergence*", "*clause trail*", "*replay: referee check --python*"])


def test_fixture_mode_with_the_engine_given_by_a_fixture(pytester: pytest.Pytester):
    pytester.makeconftest(
        "import pytest\n"
        "from referee.examples.mutants import load\n"
        "@pytest.fixture(scope='session')\n"
        "def referee_engine():\n"
        "    return load('shield_before_insurance').run\n"
    )
    pytester.makepyfile("def test_rules(referee_area):\n    referee_area.check()\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "200", "--referee-seed", "2",
                                "--referee-kinds", "damage,cost", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_rules?damage? FAILED*", "*test_rules?cost? PASSED*"])


def test_fixture_mode_skips_without_an_engine(pytester: pytest.Pytester):
    pytester.makepyfile("def test_rules(referee_area):\n    referee_area.check()\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-kinds", "cost")
    result.assert_outcomes(skipped=1)


def test_fixture_takes_a_json_lines_command_string(pytester: pytest.Pytester):
    """A ``referee_engine`` fixture may return a command string for a JSON-lines engine."""
    import shlex
    import sys

    command = shlex.join([sys.executable, "-m", "referee.examples.engine"])
    pytester.makeconftest(
        "import pytest\n"
        "@pytest.fixture(scope='session')\n"
        f"def referee_engine():\n    return {command!r}\n"
    )
    pytester.makepyfile("def test_rules(referee_area):\n    referee_area.check()\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "40", "--referee-seed", "3",
                                "--referee-kinds", "damage,cost", "-v")
    result.assert_outcomes(passed=2)
    assert "expected package.module:function" not in result.stdout.str()


def test_callable_spec_and_command_strings_are_told_apart():
    from referee.cli.pytest_plugin import is_callable_spec

    assert is_callable_spec("mygame.referee_adapter:run")
    assert not is_callable_spec("node examples/node/engine.js")
    assert not is_callable_spec("./my-engine")


def test_a_known_divergence_passes_the_plugin_as_it_passes_check_and_no_hypothesis_folder_is_left(pytester):
    """The plugin reads ``referee-known.toml`` at the pytest root, as ``referee check`` does, and keeps Hypothesis'
    files in ``.referee/hypothesis``: the engine's folder gets no ``.hypothesis/``."""
    from referee.examples.mutants import BY_NAME

    clause = BY_NAME["bloodletting_column_order"].clause
    args = ("-p", "no:cacheprovider", "--referee-python", "referee.examples.mutants:bloodletting_column_order",
            "--referee-examples", "300", "--referee-seed", "1", "--referee-kinds", "bloodletting", "-v")
    pytester.makefile(".toml", **{"referee-known": f'[[known]]\nclause = "{clause}"\nreason = "ENG-7"\n'})
    result = pytester.runpytest(*args)
    result.assert_outcomes(passed=1)
    assert not (pytester.path / ".hypothesis").exists()
    (pytester.path / "referee-known.toml").unlink()
    pytester.runpytest(*args).assert_outcomes(failed=1)  # the same run without the file fails


def test_during_a_plugin_check_hypothesis_keeps_its_files_in_the_state_folder(pytester):
    """Hypothesis' home is ``.referee/hypothesis`` while the plugin checks (its default is ``.hypothesis/`` in the
    current folder), and is put back after: an in-process engine records where Hypothesis would write."""
    from hypothesis.configuration import storage_directory

    before = storage_directory("x", intent_to_write=False).path
    pytester.makeconftest(
        "import pytest\n"
        "from hypothesis.configuration import storage_directory\n"
        "from referee.examples.engine import run as clean\n"
        "SEEN = set()\n"
        "def probe(scenario):\n"
        "    SEEN.add(str(storage_directory('x', intent_to_write=False).path))\n"
        "    return clean(scenario)\n"
        "@pytest.fixture(scope='session')\n"
        "def referee_engine():\n"
        "    return probe\n")
    pytester.makepyfile(
        "import conftest\n"
        "def test_rules(referee_area):\n"
        "    referee_area.check()\n"
        "    assert conftest.SEEN and all(s.endswith('/.referee/hypothesis/x') for s in conftest.SEEN), conftest.SEEN\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "10", "--referee-kinds", "cost")
    result.assert_outcomes(passed=1)
    assert storage_directory("x", intent_to_write=False).path == before


def test_a_malformed_known_file_fails_the_area_naming_the_file(pytester):
    pytester.makefile(".toml", **{"referee-known": '[[known]]\nclause = "combat:500.2c"\n'})
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-python", "referee.examples.engine:run",
                                "--referee-examples", "10", "--referee-kinds", "cost")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*referee-known.toml: known[[]0[]].reason: every known divergence says why*"])
