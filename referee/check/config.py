"""An engine's declaration and its run settings, written once in its repository.

Every verb that touches an engine or its expectations (``check``, ``exhaust``, ``vectors export``,
``vectors run``, ``validate``, ``query``, the pytest plugin) reads ``referee.toml`` in the current directory,
or else the ``[tool.referee]`` table of its ``pyproject.toml``:

.. code-block:: toml

    protocol = "referee/2"             # the protocol the declaration was written for
    engine = "node engine.js"          # or python = "my_engine:run"
    kinds = ["damage", "hit"]
    without = ["redirect", "boss"]      # features the engine does not implement yet
    ruleset = { defy_death_leaves = 1 }
    examples = 2000                     # a run setting: every verb that takes it

    [check]                             # run settings of one verb: they win over the top level
    seed = 7

    [exhaust]
    tier = "small"

The top level holds the *declaration* (the options declared with ``declaration=True`` in
``referee.check.options``: engine, protocol, kinds, features, readings, what is compared, known
divergences), which each verb reads and honours where it can, and run settings for every verb that takes
them. A table of :data:`referee.check.options.TABLES` holds run settings of its verbs alone. An option
given on the command line wins over the file. An unknown key, a value of the wrong type, a declaration key
inside a verb's table, or a table key its verbs do not take (``examples`` under ``[vectors]``) is an error
naming the file and the key: never a setting read and ignored.

A declaration written for an earlier protocol (or naming none) whose ``features`` list leaves out features
added since is warned of on every verb (:func:`upgrade_warnings`): such a list silently compares less.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..input_files import read_input_toml
from .options import BY_NAME, TABLES, file_keys

#: Every key the file may hold, and the type of its value (from the option declarations).
KEYS: dict[str, type | tuple[type, ...]] = file_keys()


class ConfigError(ValueError):
    """A settings file that cannot be read, or holds an unknown key or a badly typed value."""


@dataclass(frozen=True)
class Config:
    """The settings found for one verb, the file they came from (None: no file) and its warnings."""

    values: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None
    #: What the file's declaration may mean that its author did not (:func:`upgrade_warnings`).
    warnings: tuple[str, ...] = ()

    def get(self, key: str, given: Any = None) -> Any:
        """The command line's value when given, else the file's (``None`` when neither)."""
        return given if given is not None else self.values.get(key)

    def words(self, key: str, given: str | None = None) -> list[str] | None:
        """A list option (``kinds``, ``features``, ``without``): the command line's ``a,b`` or the file's list."""
        if given is not None:
            return [w.strip() for w in given.split(",") if w.strip()]
        value = self.values.get(key)
        if isinstance(value, str):
            return [w.strip() for w in value.split(",") if w.strip()]
        return None if value is None else list(value)

    def ruleset_pairs(self, given: list[str] | None) -> list[str] | None:
        """``--ruleset name=value`` items: the command line's, else the file's table as such items."""
        if given:
            return given
        table = self.values.get("ruleset")
        return None if table is None else [f"{k}={v}" for k, v in table.items()]


def _read(path: Path, table_path: tuple[str, ...]) -> dict[str, Any] | None:
    data: Any = read_input_toml(path, ConfigError)
    for key in table_path:
        data = data.get(key) if isinstance(data, dict) else None
        if data is None:
            return None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: [{'.'.join(table_path) or 'top level'}] must be a table")
    return data


def _type_problem(key: str, value: Any) -> str | None:
    """What is wrong with the type of ``value`` for ``key`` (None: nothing)."""
    wanted = KEYS[key]
    if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
        names = " or ".join(t.__name__ for t in (wanted if isinstance(wanted, tuple) else (wanted,)))
        return f"expected {names}, got {type(value).__name__}"
    if key != "known" and isinstance(value, list) and not all(isinstance(item, str) for item in value):
        return "expected a list of strings"
    return None


def _check_key(path: Path, where: str, key: str, value: Any) -> None:
    """A key the file may hold at all, with a value of its type."""
    if key not in KEYS:
        only = " (a command-line option only)" if key in BY_NAME else ""
        tables = f"; tables: {', '.join(f'[{t}]' for t in TABLES)}" if not where else ""
        raise ConfigError(f"{path}: {where}{key}: unknown setting{only} (known: {', '.join(KEYS)}{tables})")
    problem = _type_problem(key, value)
    if problem:
        raise ConfigError(f"{path}: {where}{key}: {problem}")


def _check_table_key(path: Path, where: str, table: str, key: str, value: Any) -> None:
    """A run setting of one of ``table``'s verbs (a declaration key belongs at the top level)."""
    _check_key(path, where, key, value)
    option, verbs = BY_NAME[key], TABLES[table]
    if option.declaration:
        raise ConfigError(f"{path}: {where}{key}: part of the engine's declaration: write it at the top level, "
                          "where every verb reads it")
    if not set(verbs) & set(option.verbs):
        takers = ", ".join(option.verbs)
        raise ConfigError(f"{path}: {where}{key}: not a setting of {' or '.join(map(_spelled, verbs))} "
                          f"(taken by: {takers}); it would be ignored, so it is refused")


def _spelled(verb: str) -> str:
    return f"`{verb}`" if verb == "pytest plugin" else f"`referee {verb}`"


def _split(path: Path, prefix: str, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The file's top-level settings and its verb tables, every key checked."""
    top, tables = {}, {}
    for key, value in values.items():
        if key in TABLES and key not in KEYS:
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: [{prefix}{key}] must be a table of run settings")
            for inner, setting in value.items():
                _check_table_key(path, f"{prefix}{key}.", key, inner, setting)
            tables[key] = value
        else:
            _check_key(path, prefix, key, value)
            top[key] = value
    return top, tables


def _for_verb(top: dict[str, Any], tables: dict[str, dict[str, Any]], verb: str | None) -> dict[str, Any]:
    """What ``verb`` reads: the top level's keys it takes, then its tables' (which win); every key for no verb."""
    if verb is None:
        return dict(top)
    values = {key: value for key, value in top.items() if verb in BY_NAME[key].verbs}
    for table, settings in tables.items():
        if verb in TABLES[table]:
            values.update({key: value for key, value in settings.items() if verb in BY_NAME[key].verbs})
    return values


def _found(folder: Path) -> tuple[Path, str, dict[str, Any]] | None:
    """The settings file of ``folder``, the prefix its keys are named with, and its table."""
    own = folder / "referee.toml"
    if own.is_file():
        return own, "", _read(own, ()) or {}
    project = folder / "pyproject.toml"
    if project.is_file():
        values = _read(project, ("tool", "referee"))
        if values is not None:
            return project, "tool.referee.", values
    return None


def load_config(folder: Path | None = None, verb: str | None = None) -> Config:
    """The settings of ``folder`` (the current directory) that ``verb`` reads: ``referee.toml``, else
    ``pyproject.toml``'s table; every key is checked whichever verb reads the file."""
    found = _found(folder or Path.cwd())
    if found is None:
        return Config()
    path, prefix, raw = found
    top, tables = _split(path, prefix, raw)
    config = Config(_for_verb(top, tables, verb), path, upgrade_warnings(top, path, prefix))
    if verb is not None:
        _announce(config.warnings, verb)
    return config


def load_declaration(path: Path) -> Config:
    """The top level of one named settings file (``referee.toml``, or a ``pyproject.toml``'s ``[tool.referee]``),
    every key checked as :func:`load_config` checks it: the engine's declaration, for a verb that is handed the
    file (``referee report conformance --declaration``) rather than finding it in the current directory."""
    table = ("tool", "referee") if path.name == "pyproject.toml" else ()
    prefix = "tool.referee." if table else ""
    raw = _read(path, table)
    if raw is None:
        raise ConfigError(f"{path}: no [tool.referee] table")
    top, _tables = _split(path, prefix, raw)
    return Config(top, path, upgrade_warnings(top, path, prefix))


#: The warnings already printed by this process (a verb may load its settings more than once).
_ANNOUNCED: set[str] = set()


def _announce(warnings: tuple[str, ...], verb: str) -> None:
    """Each warning of the declaration on stderr, once a process, whichever verb reads it."""
    import sys

    for warning in warnings:
        if warning not in _ANNOUNCED:
            _ANNOUNCED.add(warning)
            print(f"{_spelled(verb).strip('`')}: warning: {warning}", file=sys.stderr)


# --------------------------------------------------------------------------------------
# A declaration written for an earlier protocol
# --------------------------------------------------------------------------------------


def upgrade_warnings(top: dict[str, Any], path: Path, prefix: str = "") -> tuple[str, ...]:
    """One warning naming each feature added since the declaration's protocol that its ``features`` list leaves
    out (a list written before them compares less than the engine's author meant); an unknown protocol is an
    error naming the key."""
    from ..wire import OLDER_PROTOCOLS, PROTOCOL

    declared = top.get("protocol")
    if declared is not None and declared not in (*OLDER_PROTOCOLS, PROTOCOL):
        raise ConfigError(f"{path}: {prefix}protocol: {declared!r} is not a version this referee knows "
                          f"(known: {', '.join((*OLDER_PROTOCOLS, PROTOCOL))}; this referee speaks {PROTOCOL})")
    if declared == PROTOCOL or top.get("features") is None:
        return ()
    left_out = _added_since(declared or OLDER_PROTOCOLS[0]) - set(Config(top).words("features") or ())
    if not left_out:
        return ()
    written = f"written for {declared}" if declared else f"names no protocol (read as written for {OLDER_PROTOCOLS[0]})"
    return (f"{path}: the declaration {written}; its `features` list leaves out {len(left_out)} feature(s) added "
            f"since, which are therefore neither drawn nor compared: {', '.join(sorted(left_out))}. Add those the "
            f"engine has to `features`, and write `protocol = \"{PROTOCOL}\"` to say the list is meant "
            "(docs/protocol-changelog.md, narrowing changes)",)


def _added_since(version: str) -> set[str]:
    """The features of every rulebook added in a protocol version after ``version``."""
    from ..wire import OLDER_PROTOCOLS, PROTOCOL
    from ..rulebooks import RULEBOOKS

    order = (*OLDER_PROTOCOLS, PROTOCOL)
    later = set(order[order.index(version) + 1:])
    return {name for book in RULEBOOKS.values() for name, feature in book.features.items()
            if getattr(feature, "since", order[0]) in later}
