"""The referee pytest plugin: check an engine from its own test suite.

Loaded through pytest's entry-point convention (``pytest11``), so installing referee is
enough. It is inert unless asked: without ``--referee-python`` / ``--referee-engine`` (or
a ``referee_engine`` fixture of your own) it adds no tests and changes nothing.

Two ways in:

* command line only: ``pytest --referee-python mygame.engine:run`` (or
  ``--referee-engine "mygame --json-lines"``) adds one test per rule area (one per combat
  action kind: ``referee::damage``, ``referee::hit``, ``referee::bloodletting``,
  ``referee::cost``, ``referee::armor_debuff``; the play kinds ``play_card`` and ``activate``
  only when ``--referee-kinds`` names them), so a divergence fails exactly the area it is in;
* a fixture: define ``referee_engine`` in your ``conftest.py`` (a callable, a
  ``"package.module:function"`` string, a JSON-lines command string such as
  ``"node engine.js"``, or an ``Engine``), and write::

      def test_rules_agree_with_referee(referee_area):
          referee_area.check()   # one test per rule area, via parametrization

Options: every option of ``referee check`` that the plugin takes, as ``--referee-`` and its name
(``--referee-examples N`` per area, ``--referee-seed``, ``--referee-compare``, ``--referee-event-fields``,
``--referee-known FILE``, ``--referee-without a,b``, ...), declared once in ``referee.check.options`` (the guide's
option table lists them). Without them the engine's ``referee.toml`` (or ``[tool.referee]``) applies, key by
key, and a key the plugin does not take is a usage error naming it; its ``python`` / ``engine`` is the
``referee_engine`` fixture's engine, but only ``--referee-python`` / ``--referee-engine`` add the
one-test-per-area items. In fixture mode a ``referee_without`` fixture of your own (a list of names) wins over
both. An unknown feature name is a usage error listing the known ones. ``--referee-database`` (a folder or a
``redis://`` URL: with ``pytest -n auto`` or a CI matrix, every worker replays first what any worker found;
docs/guide-check-your-engine.md, "Scale out").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    from referee.check.options import add_plugin_options

    group = parser.getgroup("referee", "differential checking against the referee model")
    add_plugin_options(group)


def pytest_configure(config: pytest.Config) -> None:
    if not _configured(config) and config.getoption("--referee-features", None) is None \
            and config.getoption("--referee-without", None) is None:
        return
    try:
        plugin_settings(config)
    except ValueError as error:
        raise pytest.UsageError(f"referee: {error}") from None


def pytest_report_header(config: pytest.Config) -> list[str]:
    """The engine's declaration's warnings (a ``features`` list written for an earlier protocol), where the
    session shows them: in its header, not in a captured stream."""
    from referee.check.config import ConfigError, load_config

    try:
        declared = load_config(config.rootpath)
    except ConfigError:  # a bad file is the configure step's usage error, where the plugin is asked for
        return []
    return [f"referee: warning: {warning}" for warning in declared.warnings]


def plugin_settings(config: pytest.Config, without: list[str] | None = None):
    """The plugin's settings: its ``--referee-*`` options, else the engine's ``referee.toml`` (or
    ``[tool.referee]``) in the root folder, else the defaults; ``without`` (a ``referee_without``
    fixture's) wins over both. A key of the file the plugin does not take, or a bad value, is a ValueError."""
    from referee.check.config import load_config
    from referee.check.options import PLUGIN, Settings, plugin_given, resolve
    from referee.check.plan import comparison, selection

    from referee.check.databases import with_environment
    from referee.cli.check import usage_problem

    settings = with_environment(resolve(PLUGIN, plugin_given(config), load_config(config.rootpath, verb=PLUGIN)))
    values = settings.values
    problem = usage_problem(examples=values["examples"], batch=values["batch"], max_actions=values["max_actions"],
                            backend="hypothesis", max_divergences=values["max_divergences"])
    if problem:  # the plugin's spelling of each option
        raise ValueError(problem.replace("--", "--referee-", 1))
    if without is not None:
        settings = Settings(PLUGIN, {**settings.values, "without": list(without)},
                            {**settings.sources, "without": "fixture"}, settings.config_source)
    selection(settings), comparison(settings)  # every name and value checked before any test runs
    return settings


def _configured(config: pytest.Config) -> bool:
    return bool(config.getoption("--referee-python") or config.getoption("--referee-engine"))


def _areas(config: pytest.Config) -> list[str]:
    from referee.rulebooks import default_kinds

    return plugin_settings(config)["kinds"] or list(default_kinds())


class RefereeArea:
    """One rule area (an action kind) to check against the model."""

    def __init__(self, config: pytest.Config, kind: str, engine: Any, without: list[str] | None = None) -> None:
        from referee.check.plan import selection

        self.config = config
        self.kind = kind
        self.engine = engine
        self.settings = _area_settings(plugin_settings(config, without), kind)
        #: The features it may draw (None: all), from ``without`` (a ``referee_without`` fixture) or the options.
        self.features = selection(self.settings)[1]

    def run(self):
        from referee.check.grouping.groups import KnownError
        from referee.check.harness import check
        from referee.vectors import require_coverage  # noqa: F401  (--stats is handed its reachable set)
        from referee.check.options import replay_command
        from referee.check.plan import check_options
        from referee.cli.plugin_state import STATE_DIR, hypothesis_home

        root = Path(self.config.rootpath)
        command = replay_command(_with_engine_words(self.settings))
        try:
            options = check_options(self.settings, root, command)
        except KnownError as error:  # a malformed known-divergences file: its message names the file and entry
            pytest.fail(str(error), pytrace=False)
        # Hypothesis' own files go to the state folder, as ``referee check`` keeps them (``referee.cli.plugin_state``)
        with hypothesis_home(root / STATE_DIR / "hypothesis"):
            return check(self.engine, options)

    def check(self) -> None:
        """Fail (with the report: shrunk scenario, divergence, clause trail, replay) on any disagreement."""
        report = self.run()
        if not report.ok:
            pytest.fail(report.text(), pytrace=False)


def _area_settings(settings, kind: str):
    """The settings of one rule area: its one action kind."""
    from referee.check.options import Settings

    return Settings(settings.verb, {**settings.values, "kinds": [kind]}, {**settings.sources, "kinds": "area"},
                    settings.config_source)


def _with_engine_words(settings):
    """An engine given by a fixture has no command line: the replay command says where it goes."""
    from referee.check.options import Settings

    if settings["python"] or settings["engine"]:
        return settings
    return Settings(settings.verb, {**settings.values, "python": "<your engine>"}, settings.sources,
                    settings.config_source)


def _make_engine(config: pytest.Config, spec: Any = None):
    """The engine of ``spec`` (a fixture's value), else of the options or the engine's ``referee.toml``."""
    from referee.engines.transports import Engine, PythonEngine, SubprocessEngine
    from referee.check.plan import engine_spec

    settings = plugin_settings(config)
    if spec is None:
        return engine_spec(settings).make()
    timeout = float(settings["timeout"])
    if isinstance(spec, Engine):
        return spec
    if isinstance(spec, str) and not is_callable_spec(spec):
        return SubprocessEngine(spec, timeout=timeout)
    return PythonEngine(spec, timeout=timeout)


def is_callable_spec(text: str) -> bool:
    """``package.module:function`` (a Python engine); anything else is a JSON-lines command."""
    import re

    return re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*", text.strip()) is not None


# --------------------------------------------------------------------------------------
# Command-line mode: one generated test per rule area
# --------------------------------------------------------------------------------------


class RefereeItem(pytest.Item):
    def __init__(self, *, kind: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = kind

    def runtest(self) -> None:
        engine = self.session.config.stash.get(_ENGINE_KEY, None)
        if engine is None:
            engine = _make_engine(self.config)
            engine.start()
            self.session.config.stash[_ENGINE_KEY] = engine
        RefereeArea(self.config, self.kind, engine).check()

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, pytest.fail.Exception):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "referee", None, f"referee::{self.kind}"


_ENGINE_KEY = pytest.StashKey[Any]()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _configured(config):
        return
    added = [RefereeItem.from_parent(session, name=kind, nodeid=f"referee::{kind}", kind=kind)
             for kind in _areas(config)]
    items.extend(added)
    # Counted as collected, so the header says "collected N items" with the rule areas in N.
    config.hook.pytest_collectreport(report=pytest.CollectReport("referee", "passed", None, added))


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.close()
    for spec, made in config.stash.get(_MADE_KEY, {}).values():
        if made is not spec:
            made.close()


# --------------------------------------------------------------------------------------
# Fixture mode
# --------------------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "referee_area" in metafunc.fixturenames:
        metafunc.parametrize("referee_area", _areas(metafunc.config), indirect=True)


@pytest.fixture(scope="session")
def referee_engine(pytestconfig: pytest.Config):
    """The engine under test; override it in your conftest.py, or give --referee-python/--referee-engine
    (or ``python`` / ``engine`` in the engine's ``referee.toml``)."""
    settings = plugin_settings(pytestconfig)
    if not (settings["python"] or settings["engine"]):
        pytest.skip("no engine for referee: give --referee-python or --referee-engine, name one in referee.toml, "
                    "or define a referee_engine fixture")
    engine = _make_engine(pytestconfig)
    engine.start()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def referee_without(pytestconfig: pytest.Config) -> list[str] | None:
    """The features the engine leaves out (None: the options' or the config file's); override it in your conftest.py."""
    return None


@pytest.fixture
def referee_area(request: pytest.FixtureRequest, referee_engine: Any, referee_without: Any) -> RefereeArea:
    """One rule area (action kind) of the model, ready to ``check()`` the engine against."""
    try:
        return RefereeArea(request.config, request.param, _engine_for(request.config, referee_engine), referee_without)
    except ValueError as error:  # an unknown feature name in the referee_without fixture, a bad settings file
        pytest.fail(f"referee: {error}", pytrace=False)


_MADE_KEY = pytest.StashKey[dict]()


def _engine_for(config: pytest.Config, spec: Any):
    """One engine per fixture value for the whole session (a JSON-lines engine is started once), closed at exit."""
    made = config.stash.setdefault(_MADE_KEY, {})
    key = spec if isinstance(spec, str) else id(spec)
    if key not in made:
        made[key] = (spec, _make_engine(config, spec))
    return made[key][1]
