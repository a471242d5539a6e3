"""Every option of ``check``, ``vectors run``, ``vectors export`` and the pytest plugin, declared once.

One :class:`Option` says an option's name, type, default, help, the verbs that take it, whether it
changes the run and whether it is part of the engine's *declaration*. From :data:`OPTIONS` come the
command-line flags (``--event-fields``), the keys of ``referee.toml`` / ``[tool.referee]`` (``event_fields``),
the pytest plugin's options (``--referee-event-fields``), the replay command printed after a failure and
the guide's option table. A value is taken from the flag when given, else from the file, else the option's
default for the verb (:func:`resolve`).

The declaration (``declaration=True``: how to start the engine, the protocol it was written for, its kinds,
features, readings, what is compared, its known divergences) is written at the top level of the file and
read by every verb that takes it (``exhaust``, ``validate`` and ``query`` too). A run setting (``examples``,
``seed``, ``batch``, ``tier``...) is written at the top level, for every verb that takes it, or in a verb's
table (:data:`TABLES`: ``[check]``, ``[vectors]``, ``[exhaust]``...), where it is that verb's alone and wins
(``referee.check.config``).
"""

from __future__ import annotations

import inspect
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

#: ``referee.engines.transports.DEFAULT_ENGINE_BUDGET`` (the engines sit above the options; a test holds the two equal).
DEFAULT_ENGINE_BUDGET = 900.0
CHECK, RUN, EXPORT, PLUGIN = "check", "vectors run", "vectors export", "pytest plugin"
EXHAUST, VALIDATE, QUERY, PROVE = "exhaust", "validate", "query", "prove"
VERBS = (CHECK, RUN, EXPORT, PLUGIN)
ENGINE_VERBS = (CHECK, RUN, PLUGIN)
DRAW_VERBS = (CHECK, PLUGIN)
#: The verbs that start an engine (``exhaust`` runs a tier through one).
STARTING = (CHECK, RUN, PLUGIN, EXHAUST)
#: The verbs that read a profile (what is drawn, selected or compared) and readings.
PROFILED = (CHECK, RUN, EXPORT, PLUGIN, EXHAUST)
#: Every verb that reads the engine's declaration: each honours every part of it it can.
DECLARING = (CHECK, RUN, EXPORT, PLUGIN, EXHAUST, VALIDATE, QUERY)
#: The tables of ``referee.toml`` that scope run settings to verbs, as ruff's ``[lint]`` does.
TABLES: dict[str, tuple[str, ...]] = {"check": (CHECK,), "vectors": (RUN, EXPORT), "plugin": (PLUGIN,),
                                      "exhaust": (EXHAUST,), "validate": (VALIDATE,), "query": (QUERY,)}

#: How each type of option reads from the command line and from the file.
FLAG_TYPES: dict[str, Any] = {
    "text": Optional[str], "choice": Optional[str], "int": Optional[int], "float": Optional[float],
    "flag": Optional[bool], "words": Optional[str], "pairs": Optional[list[str]], "paths": Optional[list[str]],
    "known": Optional[str],
}
FILE_TYPES: dict[str, type | tuple[type, ...]] = {
    "text": str, "choice": str, "int": int, "float": (int, float), "flag": bool, "words": (list, str),
    "pairs": dict, "paths": list, "known": list,
}


@dataclass(frozen=True)
class Option:
    """One option, in every place it can be given."""

    name: str
    kind: str
    help: str
    verbs: tuple[str, ...]
    default: Any = None
    #: The verb's own default where it differs from ``default`` (``batch``: 64 for ``vectors run``).
    defaults: dict[str, Any] = field(default_factory=dict)
    #: It changes what is drawn, sent, compared or judged: the replay command keeps it.
    changes_run: bool = True
    #: Spelled in the replay command (``seed`` is changes_run but added by the run, with the seed it used).
    in_replay: bool | None = None
    #: May be written in ``referee.toml`` (a one-off such as ``--replay FILE`` may not).
    in_file: bool = True
    short: str | None = None
    #: A value other than the default, in the file's form (the four-door test gives it each way).
    sample: Any = None
    #: Other options the sample needs to take effect (``fields`` needs ``compare = "fields"``).
    needs: dict[str, Any] = field(default_factory=dict)
    #: Part of the engine's declaration: written once at the top level, read by every verb that takes it.
    declaration: bool = False
    #: Has a flag (``protocol`` is written in the file alone).
    on_command_line: bool = True

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def plugin_flag(self) -> str:
        return "--referee-" + self.name.replace("_", "-")

    @property
    def replayed(self) -> bool:
        return self.changes_run if self.in_replay is None else self.in_replay

    def default_for(self, verb: str) -> Any:
        return self.defaults.get(verb, self.default)


def _o(name: str, kind: str, help: str, verbs: tuple[str, ...], **more: Any) -> Option:
    return Option(name, kind, help, verbs, **more)


#: Every option, in the order of the replay command and of ``--help``.
OPTIONS: tuple[Option, ...] = (
    _o("python", "text", "an in-process engine: package.module:function", STARTING, sample="referee.examples.engine:run",
       declaration=True),
    _o("engine", "text", 'a JSON-lines engine program: "CMD ARGS"', STARTING, sample="./other-engine",
       declaration=True),
    _o("protocol", "text", "the protocol version the declaration was written for (referee/2): a declaration written "
       "for an earlier one, or naming none, is warned of each feature added since that its features list leaves out",
       DECLARING, changes_run=False, sample="referee/2", declaration=True, on_command_line=False),
    _o("timeout", "float", "seconds per scenario before the engine counts as hung (> 0)", STARTING, default=5.0,
       sample=2.5),
    _o("batch", "int", "scenarios per batch sent to a JSON-lines engine", STARTING, default=32,
       defaults={RUN: 64, EXHAUST: 64}, sample=8),
    _o("name", "text", "the engine's name: keys its stored failures (default: a digest of what it runs)", ENGINE_VERBS,
       sample="studio-engine", declaration=True),
    _o("version", "text", "the engine's version, shown beside its name by `referee report conformance` and "
       "`referee report matrix`", DECLARING, changes_run=False, sample="1.4.2", declaration=True,
       on_command_line=False),
    _o("in_process", "flag", "call the --python engine in this process (faster; its os._exit is caught as a crash, "
       "but a signal killing the process ends the run)",
       (CHECK, RUN, EXHAUST), default=False, sample=True),
    _o("engine_budget", "float", "seconds the whole run may wait on the engine, in all", (CHECK, RUN),
       default=DEFAULT_ENGINE_BUDGET, sample=60.0),
    _o("examples", "int", "scenarios to check (per rule area in the plugin)", DRAW_VERBS, default=500,
       defaults={PLUGIN: 200}, short="-n", sample=64),
    _o("kinds", "words", "action kinds to draw, comma-separated (default: all; the plugin: one test per kind)", PROFILED,
       sample=["cost"], declaration=True),
    _o("features", "words", "only these features may be drawn, comma-separated (default: all; see referee features)",
       DECLARING, sample=["armor", "shield"], declaration=True),
    _o("without", "words", "features the engine does not implement: never drawn, comma-separated", DECLARING,
       sample=["redirect"], declaration=True),
    _o("swarm", "flag", "swarm testing: each scenario draws a random subset of the features", DRAW_VERBS,
       default=False, sample=True),
    _o("generation", "choice", "seeded (Hypothesis draws one seed per batch; fast) | hypothesis (every choice drawn "
       "by Hypothesis; the generator before 2026-12); docs/performance.md", DRAW_VERBS, default="seeded",
       sample="hypothesis"),
    _o("keep_going", "flag", "go on after a divergence: report every distinct one, each shrunk", DRAW_VERBS,
       default=False, sample=True),
    _o("max_divergences", "int", "with --keep-going: stop after this many distinct divergences (>= 1)", DRAW_VERBS,
       default=20, sample=3,
       needs={"keep_going": True}),
    _o("workers", "int", "processes on disjoint scenario streams, one merged report", (CHECK,), default=1, sample=2),
    _o("strict_known", "flag", "a known divergence that matched nothing fails", DRAW_VERBS, default=False,
       sample=True),
    _o("compare", "choice", "full | state | fields", STARTING, default="full", sample="state", declaration=True),
    _o("fields", "words", "unit fields for --compare fields: a,b,c", STARTING, sample=["vitality", "shield"],
       needs={"compare": "fields"}, declaration=True),
    _o("events", "text", "all | none | name,name (compare only these events)", STARTING, sample="damage_taken",
       declaration=True),
    _o("event_fields", "words", "compare only these event fields: name,unit,amount,other,detail (name required)",
       ENGINE_VERBS, sample=["name", "unit"], declaration=True),
    _o("event_order", "choice", "strict | per-unit | multiset", ENGINE_VERBS, default="strict", sample="multiset",
       declaration=True),
    _o("ruleset", "pairs", "a ruleset option name=value (repeatable; the file: a table)", (*DECLARING, PROVE),
       sample={"negative_armor": "reciprocal"}, declaration=True),
    _o("max_actions", "int", "actions per scenario (1..N)", DRAW_VERBS, default=2, sample=1),
    _o("battle", "flag", "whole battles: every combat scenario a board of six units and --max-actions actions "
       "on the clock", DRAW_VERBS, default=False, sample=True),
    _o("path", "paths", "a folder to import the --python module from (repeatable; the current directory is always "
       "searched)", (CHECK,), sample=["src"]),
    _o("state_dir", "text", "the folder everything written goes to: examples/, failures/, hypothesis/ ('' for none: "
       "failing scenarios go to the system's temporary folder)", (CHECK,), default=".referee", sample="state"),
    _o("database", "text", "Hypothesis example database: a directory, or redis://HOST:PORT/DB shared by a campaign's "
       "workers ('' for none; default: $REFEREE_DATABASE when set, else STATE_DIR/examples)", DRAW_VERBS, sample="db"),
    _o("seed", "int", "random seed (printed when not given)", DRAW_VERBS, in_replay=False, sample=7),
    _o("known", "known", "known divergences: a TOML file of known tables (default: referee-known.toml, or the settings file's known)",
       (CHECK, PLUGIN, VALIDATE), sample=[{"clause": "combat:500.1-7", "reason": "not yet"}], declaration=True),
    _o("backend", "choice", "hypothesis | crosshair (Python engines)", (CHECK,), default="hypothesis",
       sample="crosshair", needs={"python": "referee.examples.engine:run"}),
    _o("require_coverage", "flag", "fail (exit 5) when a clause reachable under the --kinds/--features profile was "
       "never exercised, naming it", (CHECK,), default=False, sample=True),
    _o("max_restarts", "int", "engine restarts after faults before the remaining vectors are not run", (RUN,),
       default=25, sample=3),
    _o("exclude_features", "words", "skip every vector that uses any of these features, comma-separated (a filter: "
       "what is compared is unchanged, unlike --without)", (RUN,), sample=["armor"]),
    _o("expected_failures", "text", "a file of vector paths expected to fail, one a line (# comments): a listed "
       "failure is known (not a failure), a listed pass is stale and fails the run", (RUN,),
       sample="expected-failures.txt"),
    _o("stats", "flag", "count per feature, event and clause the scenarios exercising it", (CHECK,), default=False,
       changes_run=False, sample=True),
    _o("json", "flag", "print the report as JSON", (CHECK, RUN), default=False, changes_run=False, in_file=False),
    _o("trail", "flag", "print the model's whole clause trail up to the divergence (by default: the explain steps "
       "around it; --json always has both)", (CHECK,), default=False, changes_run=False, in_file=False),
    _o("junit", "text", "write a JUnit XML report to FILE", (CHECK, RUN), changes_run=False, sample="junit.xml"),
    _o("html", "text", "write the run as one self-contained web page to FILE (verdict, groups, coverage)", (CHECK,),
       changes_run=False, sample="run.html"),
    _o("receipt", "text", "write which vectors ran, with their results, to FILE", (RUN,), changes_run=False,
       sample="receipt.json"),
    _o("replay", "text", "run one stored scenario (JSON file) instead", (CHECK,), in_replay=False, in_file=False),
    _o("only", "text", "only templates whose name starts with this (e.g. cost/)", (EXPORT,), in_replay=False,
       in_file=False, sample="cost/"),
    _o("quiet", "flag", "no per-template progress", (EXPORT,), default=False, changes_run=False, in_file=False,
       short="-q"),
    _o("release", "flag", "write a release: into FOLDER/<name>/ (named for the rules version and the declaration), "
       "with release.json (every file's SHA-256, what is compared); prints the release folder", (EXPORT,),
       default=False, changes_run=False, in_file=False),
    _o("tier", "choice", "tiny | small | standard (docs/exhaust.md gives each scope)", (EXHAUST,), default="tiny",
       sample="small"),
)

BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}


def for_verb(verb: str) -> tuple[Option, ...]:
    """The options ``verb`` takes, in declaration order."""
    return tuple(option for option in OPTIONS if verb in option.verbs)


def flags_of(verb: str) -> tuple[Option, ...]:
    """The options ``verb`` takes on its command line (``protocol`` is written in the file alone)."""
    return tuple(option for option in for_verb(verb) if option.on_command_line)


def table_verbs(table: str) -> tuple[str, ...]:
    """The verbs a ``[table]`` of ``referee.toml`` scopes its run settings to."""
    return TABLES[table]


def file_keys() -> dict[str, type | tuple[type, ...]]:
    """Every key ``referee.toml`` may hold, and the type of its value."""
    return {option.name: FILE_TYPES[option.kind] for option in OPTIONS if option.in_file}


# --------------------------------------------------------------------------------------
# Resolving: flag, else file, else the verb's default
# --------------------------------------------------------------------------------------


def from_flag(option: Option, value: Any) -> Any:
    """A command-line value in the settings' form (``None``: not given)."""
    if value is None or (option.kind in ("pairs", "paths") and not value):
        return None
    if option.kind == "words":
        words = [w.strip() for w in value.split(",") if w.strip()]
        if not words:  # `--fields ,` would compare nothing: a usage error, never a pass over nothing
            raise ValueError(f"{option.flag} {value!r}: names no {_NOUNS.get(option.name, option.name)}")
        return words
    return list(value) if option.kind in ("pairs", "paths") else value


#: What each words option names, for the error of a list that names nothing.
_NOUNS = {"fields": "field (a comparison must compare something)",
          "event_fields": "event field (a comparison must compare something)", "kinds": "action kind",
          "features": "feature", "without": "feature", "exclude_features": "feature"}


def from_file(option: Option, value: Any) -> Any:
    """A file value in the settings' form (a table of ``ruleset`` as ``name=value`` items)."""
    if option.kind == "words" and isinstance(value, str):
        return [w.strip() for w in value.split(",") if w.strip()]
    if option.kind == "pairs":
        return [f"{k}={v}" for k, v in value.items()]
    if option.kind == "float":
        return float(value)
    return list(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class Settings:
    """The resolved options of one run of ``verb``, and where each came from (``flag``, ``file``, ``default``)."""

    verb: str
    values: dict[str, Any]
    sources: dict[str, str]
    config_source: Any = None

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def text(self, name: str) -> str | None:
        """A words option as the command line spells it (``a,b``), or None."""
        value = self.values[name]
        return None if value is None else ",".join(value)

    def given(self, name: str) -> bool:
        return self.sources[name] != "default"


def resolve(verb: str, given: dict[str, Any], config: Any) -> Settings:
    """The settings of ``verb``: each option's flag when given, else the file's value, else its default."""
    values, sources = {}, {}
    for option in for_verb(verb):
        flag = from_flag(option, given.get(option.name))
        stored = config.values.get(option.name) if config is not None else None
        if flag is not None:
            values[option.name], sources[option.name] = flag, "flag"
        elif stored is not None and option.in_file:
            values[option.name], sources[option.name] = from_file(option, stored), "file"
        else:
            values[option.name], sources[option.name] = option.default_for(verb), "default"
    _one_engine(values, sources)
    return Settings(verb, values, sources, getattr(config, "source", None))


def _one_engine(values: dict[str, Any], sources: dict[str, str]) -> None:
    """How to start the engine is one choice: ``--python`` or ``--engine`` on the command line replaces the file's,
    whichever of the two the file named (the command line wins over the file, guide section 3b)."""
    given = [name for name in ("python", "engine") if sources.get(name) == "flag"]
    if len(given) == 1:
        other = "engine" if given[0] == "python" else "python"
        if sources.get(other) == "file":
            values[other], sources[other] = None, "default"


# --------------------------------------------------------------------------------------
# The replay command
# --------------------------------------------------------------------------------------


def _words_of(option: Option, value: Any) -> list[str]:
    """The command-line words giving ``value`` to ``option``."""
    if option.kind == "flag":
        return [option.flag] if value else []
    if option.kind in ("pairs", "paths"):
        return [word for item in value for word in (option.flag, item)]
    if option.kind == "words":
        return [option.flag, ",".join(value)]
    if option.kind == "float":
        return [option.flag, f"{value:g}"]
    return [option.flag, str(value)]


def _replayed_value(option: Option, settings: Settings) -> Any:
    """The value the replay command spells for ``option`` (None: left out, the default of ``check``)."""
    value = settings.values.get(option.name)
    if option.name == "examples":
        return value  # always spelled: the count is half of what reproduces a run
    if option.name == "database":
        return _replayed_database(value, settings)
    if option.kind == "known":
        return value if settings.sources.get("known") == "flag" else None  # the file's entries are read again
    return None if value == option.default_for(CHECK) else value


def _replayed_database(value: str | None, settings: Settings) -> str | None:
    """The database as the replay command spells it: left out when it is the state folder's or was read from
    ``REFEREE_DATABASE`` (read again by the replay); a URL's password as ``***`` (never printed)."""
    from .databases import shown

    if value is None or value == _state_examples(settings) or settings.sources.get("database") == "environment":
        return None
    return shown(value)


def _state_examples(settings: Settings) -> str | None:
    from pathlib import Path

    state_dir = settings.values.get("state_dir", ".referee")
    return str(Path(state_dir) / "examples") if state_dir else None


def replay_words(settings: Settings) -> list[str]:
    """``referee check`` and every option of ``settings`` that changes the run (the seed is added by the run)."""
    words = ["referee", "check"]
    for option in OPTIONS:
        if not option.replayed or option.name not in settings.values:
            continue
        value = _replayed_value(option, settings)
        if value is not None and value is not False:
            words += _words_of(option, value)
    return words


def replay_command(settings: Settings) -> str:
    return shlex.join(replay_words(settings))


# --------------------------------------------------------------------------------------
# The command line (Typer) and the plugin (pytest)
# --------------------------------------------------------------------------------------


def _help(option: Option, verb: str) -> str:
    default = option.default_for(verb)
    shown = default not in (None, False) and option.kind != "flag"
    return option.help + (f" (default: {default:g})" if shown and isinstance(default, float)
                          else f" (default: {default})" if shown else "")


def typer_parameter(option: Option, verb: str) -> inspect.Parameter:
    """``option`` as a keyword parameter Typer reads (its default: not given)."""
    import typer

    names = [option.flag] + ([option.short] if option.short else [])
    info = typer.Option(None, *names, help=_help(option, verb), show_default=False)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=info,
                             annotation=FLAG_TYPES[option.kind])


def typer_command(verb: str, body: Callable[..., None], leading: list[inspect.Parameter] = ()) -> Callable[..., None]:
    """A Typer command of ``verb``'s options (after ``leading`` arguments) calling ``body(given, **leading)``."""
    names = [p.name for p in leading]

    def command(**values: Any) -> None:
        body({k: v for k, v in values.items() if k not in names}, **{k: values[k] for k in names})

    params = list(leading) + [typer_parameter(option, verb) for option in flags_of(verb)]
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = body.__doc__
    return command


def add_plugin_options(group: Any) -> None:
    """The plugin's ``--referee-*`` options (defaults: not given; :func:`resolve` fills them in)."""
    for option in flags_of(PLUGIN):
        kind = option.kind
        extra: dict[str, Any] = {"action": "store_const", "const": True} if kind == "flag" else \
            {"action": "append"} if kind in ("pairs", "paths") else \
            {"type": {"int": int, "float": float}[kind]} if kind in ("int", "float") else {}
        group.addoption(option.plugin_flag, default=None, help=_help(option, PLUGIN), **extra)


def plugin_given(config: Any) -> dict[str, Any]:
    """The plugin's options as given on pytest's command line (``None``: not given)."""
    return {option.name: config.getoption(option.plugin_flag, None) for option in flags_of(PLUGIN)}


# --------------------------------------------------------------------------------------
# The guide's table
# --------------------------------------------------------------------------------------

_SHORT = {CHECK: "check", RUN: "vectors run", EXPORT: "vectors export", PLUGIN: "plugin", EXHAUST: "exhaust",
          VALIDATE: "validate", QUERY: "query", PROVE: "prove"}


def _default_cell(option: Option) -> str:
    shown = {verb: option.default_for(verb) for verb in option.verbs if option.default_for(verb) not in (None, False)}
    if len(set(map(str, shown.values()))) > 1:
        return ", ".join(f"{value} ({_SHORT[verb]})" for verb, value in shown.items())
    return f"`{next(iter(shown.values()))}`" if shown else ""


def option_table() -> str:
    """The guide's option table: every option, its flag, file key, plugin option, verbs and default."""
    lines = ["| option | `referee.toml` key | plugin | verbs | default | changes the run | what it does |",
             "|---|---|---|---|---|---|---|"]
    for option in OPTIONS:
        flag = (f"`{option.flag}`" + (f", `{option.short}`" if option.short else "")) if option.on_command_line \
            else "(file only)"
        key = (f"`{option.name}`" + (" (declaration)" if option.declaration else "")) if option.in_file \
            else "(command line only)"
        plugin = f"`{option.plugin_flag}`" if PLUGIN in option.verbs and option.on_command_line else ""
        verbs = ", ".join(_SHORT[v] for v in option.verbs)
        changes = "yes (kept by the replay command)" if option.replayed else "yes" if option.changes_run else "no"
        lines.append(f"| {flag} | {key} | {plugin} | {verbs} | {_default_cell(option)} | {changes} "
                     f"| {option.help.replace('|', '&#124;')} |")
    return "\n".join(lines) + "\n"
