"""The pytest plugin: inert without options; one test per rule area with them."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_plugin_is_inert_without_options(pytester: pytest.Pytester):
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "referee[" not in result.stdout.str()


def test_command_line_adds_one_passing_test_per_rule_area(pytester: pytest.Pytester):
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--referee-python", "referee.examples.engine:run",
        "--referee-examples", "40", "--referee-seed", "1", "-v",
    )
    from referee.actions import ACTION_KINDS

    result.assert_outcomes(passed=1 + len(ACTION_KINDS))
    for kind in ACTION_KINDS:
        result.stdout.fnmatch_lines([f"*referee[[]{kind}[]] PASSED*"])


def test_a_mutant_fails_only_its_rule_area(pytester: pytest.Pytester):
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--referee-python", "referee.examples.mutants:bloodletting_column_order",
        "--referee-examples", "300", "--referee-seed", "1", "--referee-kinds", "cost,bloodletting", "-v",
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*referee[[]cost[]] PASSED*", "*referee[[]bloodletting[]] FAILED*"])
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
