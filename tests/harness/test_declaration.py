"""One engine declaration (``referee.toml``), honoured by every verb.

The top level is the engine's declaration (engine, protocol, kinds, features, readings, what is compared, known
divergences) and run settings for every verb that takes them; ``[check]``, ``[vectors]``, ``[exhaust]``... hold
one verb's run settings. A file written for ``referee/1`` whose ``features`` list leaves out the features split
out since is warned of on every verb, and every verdict's summary counts the features it compared.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.check import config as config_module
from referee.check.config import ConfigError, load_config
from referee.check.options import CHECK, DECLARING, EXHAUST, PLUGIN, QUERY, RUN, VALIDATE, resolve
from referee.cli.app import app

RUNNER = CliRunner()
#: The declaration of the issue's reproduction: an engine started by a command, a run setting and a reading.
REPORTED = ('engine = "python -m referee.examples.engine"\nexamples = 200\n'
            'ruleset = { lethal_redirect_test = "raw_amount" }\n')
#: The guide's own file (docs/guide-check-your-engine.md, section 3b), verbatim.
GUIDE = ('engine = "node engine.js"\nkinds = ["damage"]\n'
         'without = ["redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting"]\nexamples = 2000\n')
#: A features list written for referee/1: it names none of the features referee/2 split out.
OLD_LIST = 'python = "referee.examples.engine:run"\nfeatures = ["armor", "shield"]\n'


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    """Each invocation in this process warns again (a real run is one process)."""
    monkeypatch.setattr(config_module, "_ANNOUNCED", set())


def _in(tmp_path: Path, monkeypatch, text: str) -> Path:
    (tmp_path / "referee.toml").write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("text", [REPORTED, GUIDE], ids=["reported", "guide"])
def test_the_declaration_is_read_by_every_verb_without_a_refusal(tmp_path, text):
    (tmp_path / "referee.toml").write_text(text)
    for verb in DECLARING:
        load_config(tmp_path, verb=verb)  # raises a ConfigError on a refused key


def test_vectors_export_takes_the_reported_declaration_and_run_uses_its_engine(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, REPORTED)
    exported = RUNNER.invoke(app, ["vectors", "export", "out", "--only", "cost/", "-q"])
    assert exported.exit_code == 0, exported.output
    ran = RUNNER.invoke(app, ["vectors", "run", "out"])
    assert ran.exit_code == 0, ran.output
    assert "python -m referee.examples.engine" in ran.output and "vectors pass" in ran.output


def test_check_takes_the_reported_declaration_and_its_check_table(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, REPORTED + '[check]\nexamples = 32\nseed = 3\nstate_dir = ""\n')
    result = RUNNER.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    assert "checked:  32 scenarios" in result.output and "(seed 3" in result.output


def test_a_features_list_written_for_referee_1_is_warned_of_on_every_verb(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, OLD_LIST)
    trace = tmp_path / "match.jsonl"
    trace.write_text(_a_trace())
    runs = {CHECK: ["check", "--in-process", "--state-dir", "", "-n", "32", "--seed", "1"],
            VALIDATE: ["validate", str(trace)],
            QUERY: ["query", "target.shield > 0", "--kind", "hit", "--units", "2", "--python",
                    "referee.examples.engine:run"]}
    for verb, argv in runs.items():
        config_module._ANNOUNCED.clear()
        result = RUNNER.invoke(app, argv)
        assert f"referee {verb}: warning: " in result.output, (verb, result.output[-3000:])
        assert "names no protocol (read as written for referee/1)" in result.output
        assert "leaves out 13 feature(s) added since" in result.output
        assert "costs, credit, cull, macabre" in result.output, verb


def test_the_warning_is_one_per_file_and_names_every_feature_the_list_leaves_out(tmp_path):
    (tmp_path / "referee.toml").write_text('protocol = "referee/1"\nfeatures = ["armor", "credit", "costs"]\n')
    warnings = load_config(tmp_path, verb=CHECK).warnings
    assert len(warnings) == 1 and "written for referee/1" in warnings[0]
    named = warnings[0].split("compared: ", 1)[1].split(". ", 1)[0].split(", ")
    assert named == ["ability_lines", "armor_change", "bloodletting", "charge", "cull", "macabre", "recovery",
                     "revival_bookkeeping", "statuses", "untargetable", "vessel_batch"]


@pytest.mark.parametrize("text", ['protocol = "referee/2"\nfeatures = ["armor"]\n', 'without = ["boss"]\n',
                                  'protocol = "referee/1"\nkinds = ["damage"]\n'],
                         ids=["declared-current", "without-only", "no-features-list"])
def test_no_warning_where_nothing_compares_less_than_meant(tmp_path, text):
    (tmp_path / "referee.toml").write_text(text)
    assert load_config(tmp_path, verb=CHECK).warnings == ()


def test_a_protocol_this_referee_does_not_know_is_refused_naming_the_key(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, 'python = "referee.examples.engine:run"\nprotocol = "referee/9"\n')
    with pytest.raises(ConfigError, match=r"protocol: 'referee/9' is not a version this referee knows"):
        load_config(tmp_path, verb=RUN)
    result = RUNNER.invoke(app, ["check", "-n", "32"])
    assert result.exit_code == 2 and "referee/9" in result.output


def test_the_plugin_reads_the_declaration_and_warns(tmp_path):
    (tmp_path / "referee.toml").write_text(OLD_LIST + '[plugin]\nexamples = 16\n')
    config = load_config(tmp_path, verb=PLUGIN)
    settings = resolve(PLUGIN, {}, config)
    assert settings["examples"] == 16 and settings["features"] == ["armor", "shield"] and config.warnings


def test_the_plugin_shows_the_declarations_warning_in_the_session_header(pytester: pytest.Pytester):
    pytester.makefile(".toml", referee=OLD_LIST)
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["referee: warning: *names no protocol (read as written for referee/1)*"])
    result.assert_outcomes(passed=1)


def test_every_verdict_counts_the_features_it_compared(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, 'protocol = "referee/2"\npython = "referee.examples.engine:run"\n'
                               'without = ["boss", "reflect"]\n')
    trace = tmp_path / "match.jsonl"
    trace.write_text(_a_trace())
    checked = RUNNER.invoke(app, ["check", "--in-process", "--state-dir", "", "-n", "32", "--seed", "1"])
    assert "features: compared 45 of 47 features; not compared: boss, reflect (never drawn)" in checked.output
    validated = RUNNER.invoke(app, ["validate", str(trace)])
    assert "compared: 45 of 47 features; not compared: boss, reflect" in validated.output, validated.output
    exhausted = RUNNER.invoke(app, ["exhaust", "--kinds", "cost", "--in-process"])
    assert exhausted.exit_code == 0, exhausted.output
    assert "features: 45 of 47 features; not compared: boss, reflect)" in exhausted.output, exhausted.output
    RUNNER.invoke(app, ["vectors", "export", "out", "--only", "cost/", "-q"])
    ran = RUNNER.invoke(app, ["vectors", "run", "out", "--in-process"])
    assert "features: 45 of 47 features; not compared: boss, reflect)" in ran.output, ran.output


def test_query_with_an_engine_is_asked_under_the_declared_readings(tmp_path, monkeypatch):
    _in(tmp_path, monkeypatch, 'python = "referee.examples.engine:run"\n'
                               'ruleset = { negative_armor = "reciprocal" }\nwithout = ["shield"]\n')
    result = RUNNER.invoke(app, ["query", "target.shield > 0", "--kind", "hit", "--units", "2", "--python",
                                 "referee.examples.engine:run"])
    said = " ".join(result.output.split())  # the terminal wraps the space line wherever its width falls
    assert "negative_armor=reciprocal" in said and "without the features shield" in said
    assert "lethal_redirect_test=would_kill" in said  # every other reading at its default, as check runs
    assert result.exit_code == 1, result.output  # impossible: the engine's profile has no Shield


def _a_trace() -> str:
    from referee.examples import engine
    from referee.rulebooks.combat.battles import battle

    out = io.StringIO()
    engine.write_trace(battle(5, 4), out)
    return out.getvalue()


pytest_plugins = ["pytester"]


@pytest.mark.parametrize("flag", ["--referee-max-divergences", "--referee-examples", "--referee-batch"])
def test_the_plugin_refuses_a_count_below_its_minimum_as_check_does(pytester: pytest.Pytester, flag):
    pytester.makepyfile("def test_nothing():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-python", "referee.examples.engine:run", flag, "0")
    assert result.ret != 0
    assert f"{flag} 0: expected a whole number >= 1" in result.stdout.str() + result.stderr.str()


def test_the_plugin_reads_the_database_from_the_environment(tmp_path, monkeypatch):
    from referee.cli.pytest_plugin import plugin_settings

    monkeypatch.setenv("REFEREE_DATABASE", str(tmp_path / "shared-examples"))

    class Config:
        rootpath = tmp_path

        def getoption(self, name, default=None):
            return default

    settings = plugin_settings(Config())
    assert settings["database"] == str(tmp_path / "shared-examples") and settings.sources["database"] == "environment"


@pytest.mark.parametrize("file_line, flag", [
    ('python = "no_such_module:run"\n', ["--engine", "python -m referee.examples.engine"]),
    ('engine = "no-such-program"\n', ["--python", "referee.examples.engine:run"]),
])
def test_an_engine_on_the_command_line_replaces_the_files_other_kind_of_engine(tmp_path, monkeypatch, file_line, flag):
    _in(tmp_path, monkeypatch, 'protocol = "referee/2"\n' + file_line + 'kinds = ["damage"]\n')
    result = RUNNER.invoke(app, ["check", *flag, "--examples", "20", "--state-dir", ""])
    assert result.exit_code == 0, result.output
    assert f"engine:   {flag[1]}" in result.output
