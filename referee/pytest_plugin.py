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

Options: ``--referee-examples N`` (per area), ``--referee-seed S``, ``--referee-compare``,
``--referee-fields``, ``--referee-events``, ``--referee-timeout``, ``--referee-kinds``,
``--referee-without a,b`` / ``--referee-features a,b`` (the mechanics the engine leaves out:
never drawn, and said so in a failure's report; ``referee features`` lists them). Without them
the ``features`` / ``without`` of the engine's ``referee.toml`` (or ``[tool.referee]``) apply (and
its ``kinds`` without ``--referee-kinds``; the engine itself is always given explicitly); in
fixture mode a ``referee_without`` fixture of your own (a list of names) wins over both.
An unknown feature name is a usage error listing the known ones.
``--referee-database`` (a folder or a ``redis://`` URL: with ``pytest -n auto`` or a CI matrix,
every worker replays first what any worker found; docs/guide-check-your-engine.md, "Scale out").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AREAS_HELP = ("action kinds to check, comma-separated (default: referee.toml's kinds, else the combat kinds; "
              "name play_card,activate to add play)")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("referee", "differential checking against the referee model")
    group.addoption("--referee-python", default=None, help="an in-process engine: package.module:function")
    group.addoption("--referee-engine", default=None, help='a JSON-lines engine program: "CMD ARGS"')
    group.addoption("--referee-examples", type=int, default=200, help="scenarios per rule area (default 200)")
    group.addoption("--referee-seed", type=int, default=None, help="random seed (printed with every failure)")
    group.addoption("--referee-compare", default="full", help="full | state | fields")
    group.addoption("--referee-fields", default=None, help="unit fields for --referee-compare fields")
    group.addoption("--referee-events", default=None, help="all | none | name,name")
    group.addoption("--referee-timeout", type=float, default=5.0, help="seconds per scenario")
    group.addoption("--referee-kinds", default=None, help=AREAS_HELP)
    group.addoption("--referee-features", default=None,
                    help="only these features may be drawn, comma-separated (default: all; see referee features)")
    group.addoption("--referee-without", default=None,
                    help="features the engine does not implement: never drawn, comma-separated")
    group.addoption("--referee-database", default=None,
                    help="the example database: a directory, or redis://HOST:PORT/DB shared by every worker and "
                    "machine ('' for none; default .referee/examples)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--referee-features", None) is None and config.getoption("--referee-without", None) is None:
        return
    try:
        _features(config)
    except ValueError as error:
        raise pytest.UsageError(f"referee: {error}") from None


def _words(text: str | None) -> list[str] | None:
    return None if text is None else [w.strip() for w in text.split(",") if w.strip()]


def _features(config: pytest.Config, without: list[str] | None = None) -> frozenset[str] | None:
    """The features the run may draw: ``without`` (a fixture's), else the options, else the engine's config file."""
    from referee.config import load_config
    from referee.rulebooks import resolve_features

    features = _words(config.getoption("--referee-features"))
    if without is None:
        without = _words(config.getoption("--referee-without"))
        if features is None and without is None:
            file = load_config(config.rootpath)
            features, without = file.words("features"), file.words("without")
    return resolve_features(features, without)


def _configured(config: pytest.Config) -> bool:
    return bool(config.getoption("--referee-python") or config.getoption("--referee-engine"))


def _areas(config: pytest.Config) -> list[str]:
    from referee.rulebooks import default_kinds

    chosen = config.getoption("--referee-kinds")
    if chosen:
        return [k.strip() for k in chosen.split(",") if k.strip()]
    from referee.config import load_config

    return load_config(config.rootpath).words("kinds") or list(default_kinds())


class RefereeArea:
    """One rule area (an action kind) to check against the model."""

    def __init__(self, config: pytest.Config, kind: str, engine: Any, without: list[str] | None = None) -> None:
        self.config = config
        self.kind = kind
        self.engine = engine
        #: The features it may draw (None: all), from ``without`` (a ``referee_without`` fixture) or the options.
        self.features = _features(config, list(without) if without is not None else None)

    def run(self):
        from referee.compare import Comparison
        from referee.harness import CheckOptions, check

        comparison = Comparison.from_options(
            self.config.getoption("--referee-compare"),
            self.config.getoption("--referee-fields"),
            self.config.getoption("--referee-events"),
        )
        options = CheckOptions(
            examples=self.config.getoption("--referee-examples"),
            seed=self.config.getoption("--referee-seed"),
            kinds=(self.kind,),
            comparison=comparison,
            command=f"referee check {self._engine_words()} --examples {self.config.getoption('--referee-examples')} "
                    f"--kinds {self.kind}{self._feature_words()}{self._database_words()}",
            features=self.features,
        )
        database = self.config.getoption("--referee-database")
        if database is not None:
            options.database = database or None
        return self._check(options)

    def _check(self, options: Any) -> Any:
        """``check`` as ``referee check`` runs it: the project's known divergences (a run with any goes on after
        a divergence, to match every group), Hypothesis' files in the state folder (``referee.plugin_state``)."""
        from referee.harness import check
        from referee.plugin_state import STATE_DIR, hypothesis_home, known_entries

        from referee.groups import KnownError

        root = Path(self.config.rootpath)
        try:
            options.known = known_entries(root)
        except KnownError as error:  # a malformed known-divergences file: its message names the file and entry
            pytest.fail(str(error), pytrace=False)
        options.keep_going = bool(options.known)
        with hypothesis_home(root / STATE_DIR / "hypothesis"):
            return check(self.engine, options)

    def _database_words(self) -> str:
        import shlex

        database = self.config.getoption("--referee-database")
        return "" if database is None else f" --database {shlex.quote(database)}"

    def check(self) -> None:
        """Fail (with the report: shrunk scenario, divergence, clause trail, replay) on any disagreement."""
        report = self.run()
        if not report.ok:
            pytest.fail(report.text(), pytrace=False)

    def _feature_words(self) -> str:
        from referee.rulebooks import all_features

        if self.features is None:
            return ""
        return " --without " + ",".join(sorted(set(all_features()) - self.features))

    def _engine_words(self) -> str:
        import shlex

        python = self.config.getoption("--referee-python")
        if python:
            return f"--python {python}"
        command = self.config.getoption("--referee-engine")
        return f"--engine {shlex.quote(command)}" if command else "--python <your engine>"


def _make_engine(config: pytest.Config, spec: Any = None):
    from referee.engines import Engine, PythonEngine, SubprocessEngine, make_engine

    timeout = config.getoption("--referee-timeout")
    if spec is None:
        return make_engine(config.getoption("--referee-python"), config.getoption("--referee-engine"), timeout, 32)
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
    """The engine under test; override it in your conftest.py, or give --referee-python/--referee-engine."""
    if not _configured(pytestconfig):
        pytest.skip("no engine for referee: give --referee-python or --referee-engine, or define a referee_engine fixture")
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
    except ValueError as error:  # an unknown feature name in the referee_without fixture
        pytest.fail(f"referee_without: {error}", pytrace=False)


_MADE_KEY = pytest.StashKey[dict]()


def _engine_for(config: pytest.Config, spec: Any):
    """One engine per fixture value for the whole session (a JSON-lines engine is started once), closed at exit."""
    made = config.stash.setdefault(_MADE_KEY, {})
    key = spec if isinstance(spec, str) else id(spec)
    if key not in made:
        made[key] = (spec, _make_engine(config, spec))
    return made[key][1]
