"""Every option declared once (``referee.check.options``), walked through its four doors.

Each declared option is given by its flag (``referee check --event-fields``), by the settings file
(``event_fields = [...]`` in ``referee.toml``), by the pytest plugin (``--referee-event-fields``) and read
back from the replay command; each door must give the same value, an option that changes the run must
change it (the engine, the options of the check, the comparison or the selection), and a door the option
does not have must refuse it by name, never take it and ignore it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.app import app
from referee.check.config import ConfigError, load_config
from referee.check.options import (CHECK, EXPORT, OPTIONS, PLUGIN, RUN, TABLES, Option, plugin_given, replay_words,
                                    resolve)
from referee.check.plan import check_plan, comparison, engine_spec, readings, selection
from referee.vectors.suite import run_selection

pytest_plugins = ["pytester"]
RUNNER = CliRunner()
COMMAND = typer.main.get_command(app)
#: The command-line verbs and their click commands (the plugin is the fourth door).
CLI_VERBS = {CHECK: COMMAND.commands["check"], RUN: COMMAND.commands["vectors"].commands["run"],
             EXPORT: COMMAND.commands["vectors"].commands["export"]}
KNOWN_TOML = '[[known]]\nclause = "combat:500.1-7"\nreason = "not yet"\n'
#: ``--replay FILE`` runs one stored scenario instead of drawing: the plan of a drawn run does not show it;
#: tests/harness/test_harness_check.py runs it.
OUTSIDE_THE_PLAN = {"replay"}


def _flag_words(option: Option, value, folder: Path, prefix: str = "") -> list[str]:
    """The command-line words giving the file-form ``value`` to ``option``."""
    flag = prefix + option.flag[2:] if prefix else option.flag
    if option.kind == "flag":
        return [flag] if value else []
    if option.kind == "known":
        path = folder / "known.toml"
        path.write_text(KNOWN_TOML)
        return [flag, str(path)]
    if option.kind == "pairs":
        return [w for k, v in value.items() for w in (flag, f"{k}={v}")]
    if option.kind == "paths":
        return [w for item in value for w in (flag, item)]
    if option.kind == "words":
        return [flag, ",".join(value)]
    return [flag, str(value)]


def _sample(option: Option):
    return True if option.kind == "flag" and option.sample is None else option.sample if option.sample is not None \
        else "x.json"


def _needs_argv(option: Option, folder: Path, prefix: str = "") -> list[str]:
    """The words giving the options ``option``'s sample needs (``--compare fields`` for ``--fields``)."""
    words = []
    for name, needed in option.needs.items():
        words += _flag_words(next(o for o in OPTIONS if o.name == name), needed, folder, prefix)
    return words


def _argv(option: Option, folder: Path, prefix: str = "") -> list[str]:
    return _needs_argv(option, folder, prefix) + _flag_words(option, _sample(option), folder, prefix)


def _by_flags(verb: str, argv: list[str]):
    folder = ["FOLDER"] if verb in (RUN, EXPORT) else []
    params = CLI_VERBS[verb].make_context(verb, folder + argv).params
    return resolve(verb, {k: v for k, v in params.items() if k != "folder"}, None)


def _run_of(verb: str, settings, folder: Path):
    """What the run of ``verb`` under ``settings`` is made of (without starting anything)."""
    if verb in (CHECK, PLUGIN):
        spec, options = check_plan(settings, folder)
        return spec, options
    if verb == RUN:  # how many engine restarts it allows before the rest is not run, what it skips, what it expects
        return (engine_spec(settings), comparison(settings), selection(settings), readings(settings),  # to fail
                settings["max_restarts"], run_selection(settings), settings["expected_failures"])
    return selection(settings), readings(settings), settings["only"]


def _toml(values: dict) -> str:
    lines = []
    for key, value in values.items():
        if isinstance(value, dict):
            value = "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + " }"
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            continue  # written as [[known]] tables below
        else:
            value = json.dumps(value)
        lines.append(f"{key} = {value}")
    for key, value in values.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for table in value:
                lines.append(f"[[{key}]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in table.items()))
    return "\n".join(lines) + "\n"


def _file(folder: Path, option: Option, alone: bool = False, table: str | None = None) -> Path:
    """A folder whose ``referee.toml`` gives ``option`` its sample (with what it needs, unless ``alone``), at the
    top level or in ``[table]``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = _toml({**({} if alone else option.needs), option.name: _sample(option)})
    if table and option.kind == "known":  # an array of tables: [[check.known]]
        text = text.replace(f"[[{option.name}]]", f"[[{table}.{option.name}]]")
    (folder / "referee.toml").write_text(f"[{table}]\n{text}" if table else text)
    return folder


def _table_of(verb: str) -> str:
    return next(table for table, verbs in TABLES.items() if verb in verbs)


def _not_taken(option: Option, verb: str, folder: Path) -> None:
    """A verb that does not take ``option``: at the top level (the declaration, or another verb's run setting) it
    is not read; in the verb's own table it is refused by name, never taken and ignored."""
    if not option.in_file:
        with pytest.raises(ConfigError, match=rf"{option.name}: unknown setting \(a command-line option only\)"):
            load_config(_file(folder / "top", option, alone=True), verb=verb)
        return
    assert option.name not in load_config(_file(folder / "top", option, alone=True), verb=verb).values
    table = _table_of(verb)
    refusal = "part of the engine's declaration" if option.declaration else \
        rf"not a setting of [^(]*`{'pytest plugin' if verb == PLUGIN else 'referee ' + verb}`"
    if option.declaration or not set(TABLES[table]) & set(option.verbs):
        with pytest.raises(ConfigError, match=rf"{table}\.{option.name}: {refusal}"):
            load_config(_file(folder / "table", option, alone=True, table=table), verb=verb)


def _same_value(option: Option, settings_a, settings_b) -> bool:
    if option.kind == "known":  # a path on the command line, tables in the file: the same entries
        return bool(settings_a[option.name]) and bool(settings_b[option.name])
    return settings_a[option.name] == settings_b[option.name]


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_option_through_the_flag_the_file_and_the_replay(option: Option, tmp_path: Path):
    for verb in (CHECK, RUN, EXPORT):
        if verb not in option.verbs:
            _not_taken(option, verb, tmp_path / verb.replace(" ", "-"))
            continue
        folder = _file(tmp_path / verb.replace(" ", "-"), option)
        if not option.on_command_line:
            filed = resolve(verb, {}, load_config(folder, verb=verb))
            assert filed.sources[option.name] == "file" and filed[option.name] == _sample(option)
            continue
        flagged = _by_flags(verb, _argv(option, tmp_path))
        assert flagged.sources[option.name] == "flag"
        baseline = _by_flags(verb, _needs_argv(option, tmp_path))
        if option.in_file:
            filed = resolve(verb, {}, load_config(folder, verb=verb))
            assert filed.sources[option.name] == "file" and _same_value(option, flagged, filed), verb
        else:
            with pytest.raises(ConfigError, match=rf"{option.name}: unknown setting \(a command-line option only\)"):
                load_config(folder, verb=verb)
        if option.name in OUTSIDE_THE_PLAN:
            continue
        if option.changes_run:
            assert _run_of(verb, flagged, tmp_path) != _baseline_run(verb, option, flagged, baseline, tmp_path), \
                (verb, option.name)
    _replay_door(option, tmp_path)


def _baseline_run(verb: str, option: Option, flagged, baseline, folder: Path):
    """The run with ``option`` at its default: its ``needs`` kept, or all defaults when they need the option
    (``--compare fields`` without ``--fields`` is no run at all)."""
    try:
        return _run_of(verb, _without(option, flagged, baseline), folder)
    except ValueError:
        return _run_of(verb, resolve(verb, {}, None) if verb == PLUGIN else _by_flags(verb, []), folder)


def _without(option: Option, flagged, baseline):
    """``flagged`` with ``option`` back at its default (its ``needs`` kept)."""
    from referee.check.options import Settings

    return Settings(flagged.verb, {**flagged.values, option.name: baseline.values[option.name]},
                    {**flagged.sources, option.name: "default"})


def _replay_door(option: Option, folder: Path) -> None:
    """A replayed option is spelled in the replay command, and reading that command back gives its value."""
    if CHECK not in option.verbs or not option.on_command_line:
        return
    flagged = _by_flags(CHECK, _argv(option, folder))
    words = replay_words(flagged)
    if not option.replayed:
        assert option.flag not in words
        return
    assert option.flag in words, words
    again = _by_flags(CHECK, words[2:])
    assert _same_value(option, flagged, again)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_option_through_the_plugin(option: Option, tmp_path: Path, pytester: pytest.Pytester):
    folder = _file(tmp_path / "plugin", option, alone=PLUGIN not in option.verbs)
    if PLUGIN not in option.verbs or not option.on_command_line:
        if PLUGIN not in option.verbs:
            _not_taken(option, PLUGIN, tmp_path / "not-taken")
        else:
            assert resolve(PLUGIN, {}, load_config(folder, verb=PLUGIN)).sources[option.name] == "file"
        assert not any(a.startswith(option.plugin_flag) for a in _plugin_flags(pytester))
        return
    config = pytester.parseconfig(*_argv(option, tmp_path, prefix="--referee-"))
    given = resolve(PLUGIN, plugin_given(config), None)
    filed = resolve(PLUGIN, {}, load_config(folder, verb=PLUGIN))
    assert given.sources[option.name] == "flag" and _same_value(option, given, filed)
    if option.name not in OUTSIDE_THE_PLAN and option.changes_run:
        baseline = resolve(PLUGIN, plugin_given(pytester.parseconfig(*_needs_argv(option, tmp_path, "--referee-"))),
                           None)
        assert _run_of(PLUGIN, given, tmp_path) != _baseline_run(PLUGIN, option, given, baseline, tmp_path)


def _plugin_flags(pytester: pytest.Pytester) -> list[str]:
    config = pytester.parseconfig()
    return [name for opt in config._parser._anonymous.options + [o for g in config._parser._groups for o in g.options]
            for name in opt.names()]


# --------------------------------------------------------------------------------------
# The drift the declarations ended, end to end
# --------------------------------------------------------------------------------------


def test_a_bad_compare_in_the_file_is_a_usage_error(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text('python = "referee.examples.engine:run"\ncompare = "bogus"\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["check", "--in-process", "--database", "", "-n", "32"])
    assert result.exit_code == 2 and "compare mode 'bogus'" in result.output


def test_events_fields_and_event_options_in_the_file_change_what_is_compared(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text(
        'python = "referee.examples.engine:run"\nkinds = ["cost"]\ncompare = "fields"\nfields = ["vitality"]\n'
        'events = "damage_taken"\nevent_fields = ["name", "unit"]\nevent_order = "multiset"\nexamples = 32\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["check", "--in-process", "--database", "", "--json", "--seed", "1"])
    assert result.exit_code == 0, result.output[-2000:]
    compared = json.loads(result.output)["compared"]
    assert compared["fields"] == ["vitality"] and compared["events"] == ["damage_taken"]
    assert compared["event_fields"] == ["name", "unit"] and compared["event_order"] == "multiset"


def test_a_key_the_verbs_table_does_not_take_is_refused_naming_the_verb(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text('engine = "x"\n[vectors]\nexamples = 40\n')
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "manifest.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["vectors", "run", "v"])
    assert result.exit_code == 2
    assert ("referee.toml: vectors.examples: not a setting of `referee vectors run` or `referee vectors export` "
            "(taken by: check, pytest plugin)") in result.output


def test_a_declaration_key_in_a_verbs_table_is_refused(tmp_path):
    (tmp_path / "referee.toml").write_text('[check]\nkinds = ["damage"]\n')
    with pytest.raises(ConfigError, match=r"check\.kinds: part of the engine's declaration: write it at the top level"):
        load_config(tmp_path, verb=CHECK)


def test_an_unknown_table_or_key_is_refused_whichever_verb_reads_the_file(tmp_path):
    (tmp_path / "referee.toml").write_text('[chek]\nseed = 3\n')
    for verb in (CHECK, RUN, EXPORT, PLUGIN, "exhaust", "validate", "query", None):
        with pytest.raises(ConfigError, match=r"chek: unknown setting .*tables: \[check\]"):
            load_config(tmp_path, verb=verb)


def test_a_verbs_table_wins_over_the_top_level_for_that_verb_alone(tmp_path):
    (tmp_path / "referee.toml").write_text('batch = 16\nexamples = 200\n[vectors]\nbatch = 8\n[check]\nexamples = 64\n')
    assert resolve(CHECK, {}, load_config(tmp_path, verb=CHECK))["examples"] == 64
    assert resolve(CHECK, {}, load_config(tmp_path, verb=CHECK))["batch"] == 16
    assert resolve(RUN, {}, load_config(tmp_path, verb=RUN))["batch"] == 8
    assert resolve(PLUGIN, {}, load_config(tmp_path, verb=PLUGIN))["examples"] == 200


def test_the_replay_command_keeps_the_file_features(tmp_path, monkeypatch):
    (tmp_path / "referee.toml").write_text('features = ["armor", "shield"]\nkinds = ["damage"]\n')
    settings = resolve(CHECK, {"engine": "./e"}, load_config(tmp_path, verb=CHECK))
    assert "--features armor,shield" in " ".join(replay_words(settings))


def test_the_plugin_reads_known_from_the_file(pytester: pytest.Pytester):
    """The file's known divergences and ``strict_known`` reach the plugin's run: an entry no divergence of the
    (correct) engine matches is reported stale and fails the area; without them the area passes."""
    pytester.makefile(".toml", referee='kinds = ["cost"]\nstrict_known = true\n[[known]]\nclause = "combat:500.8a"\n'
                      'reason = "never seen"\n')
    pytester.makeconftest("import pytest\nfrom referee.examples.engine import run\n"
                          "@pytest.fixture(scope='session')\ndef referee_engine():\n    return run\n")
    pytester.makepyfile("def test_rules(referee_area):\n    assert referee_area.settings['known']\n"
                        "    assert referee_area.run().status == 'stale-known'\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--referee-examples", "32", "--referee-seed", "2",
                                "--referee-database", "")
    result.assert_outcomes(passed=1)


def test_the_engine_budget_default_is_the_engines():
    from referee.engines import transports as engines
    from referee.check import options

    assert options.BY_NAME["engine_budget"].default == options.DEFAULT_ENGINE_BUDGET == engines.DEFAULT_ENGINE_BUDGET


def test_the_guide_lists_every_option():
    guide = (Path(__file__).parents[2] / "docs" / "guide-check-your-engine.md").read_text()
    table = guide.split("<!-- begin generated: options", 1)[1].split("<!-- end generated: options", 1)[0]
    for option in OPTIONS:
        row = f"| `{option.flag}`" if option.on_command_line else f"| (file only) | `{option.name}` (declaration)"
        assert row in table, option.name
