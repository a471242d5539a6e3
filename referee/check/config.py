"""An engine's own settings, declared once in its repository.

``referee check`` (and ``vectors export``, ``vectors run``, the pytest plugin) read them from ``referee.toml`` in
the current directory, or else from the ``[tool.referee]`` table of its ``pyproject.toml``:

.. code-block:: toml

    [tool.referee]
    engine = "node engine.js"          # or python = "my_engine:run"
    kinds = ["damage", "hit"]
    without = ["redirect", "boss"]      # features the engine does not implement yet
    ruleset = { defy_death_leaves = 1 }
    examples = 2000

Every key is an option declared in ``referee.check.options`` (its file name: ``event_fields`` for
``--event-fields``). An option given on the command line wins over the file. An unknown key, a value of
the wrong type, or a key the verb being run does not take (``examples`` for ``vectors run``) is an error
naming the file and the key (and the verb): never a setting read and ignored.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..input_files import InputFileError, read_input_text
from .options import BY_NAME, file_keys

#: Every key the file may hold, and the type of its value (from the option declarations).
KEYS: dict[str, type | tuple[type, ...]] = file_keys()


class ConfigError(ValueError):
    """A settings file that cannot be read, or holds an unknown key or a badly typed value."""


@dataclass(frozen=True)
class Config:
    """The settings found, and the file they came from (None: no file)."""

    values: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None

    def get(self, key: str, given: Any = None) -> Any:
        """The command line's value when given, else the file's (``None`` when neither)."""
        return given if given is not None else self.values.get(key)

    def words(self, key: str, given: str | None = None) -> list[str] | None:
        """A list option (``kinds``, ``features``, ``without``): the command line's ``a,b`` or the file's list."""
        if given is not None:
            return [w.strip() for w in given.split(",") if w.strip()]
        value = self.values.get(key)
        return None if value is None else list(value)

    def ruleset_pairs(self, given: list[str] | None) -> list[str] | None:
        """``--ruleset name=value`` items: the command line's, else the file's table as such items."""
        if given:
            return given
        table = self.values.get("ruleset")
        return None if table is None else [f"{k}={v}" for k, v in table.items()]


def _read(path: Path, table_path: tuple[str, ...]) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(read_input_text(path))
    except InputFileError as error:
        raise ConfigError(str(error)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
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


def _check(path: Path, where: str, values: dict[str, Any], verb: str | None = None) -> None:
    for key, value in values.items():
        if key not in KEYS:
            only = " (a command-line option only)" if key in BY_NAME else ""
            raise ConfigError(f"{path}: {where}{key}: unknown setting{only} (known: {', '.join(KEYS)})")
        problem = _type_problem(key, value)
        if problem:
            raise ConfigError(f"{path}: {where}{key}: {problem}")
        if verb is not None and verb not in BY_NAME[key].verbs:
            takers = ", ".join(BY_NAME[key].verbs)
            raise ConfigError(f"{path}: {where}{key}: not a setting of `{_spelled(verb)}` (taken by: {takers}); "
                              "it would be ignored, so it is refused")


def _spelled(verb: str) -> str:
    return verb if verb == "pytest plugin" else f"referee {verb}"


def load_config(folder: Path | None = None, verb: str | None = None) -> Config:
    """The settings of ``folder`` (the current directory): ``referee.toml``, else ``pyproject.toml``'s table;
    with ``verb``, a key that verb does not take is an error."""
    folder = folder or Path.cwd()
    own = folder / "referee.toml"
    if own.is_file():
        values = _read(own, ()) or {}
        _check(own, "", values, verb)
        return Config(values, own)
    project = folder / "pyproject.toml"
    if project.is_file():
        values = _read(project, ("tool", "referee"))
        if values is not None:
            _check(project, "tool.referee.", values, verb)
            return Config(values, project)
    return Config()
