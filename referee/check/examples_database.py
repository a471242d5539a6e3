"""Hypothesis' example database for a campaign: its key (the engine and every option that changes what is drawn
or judged), the database itself (a folder or a shared Redis server, bounded in what its replay phase sees), and
where a shared database's failures go if it fails mid-run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from . import failure_store
from ..engines.transports import Engine
from .outcome import CheckOptions, _is_seeded


def _digest(engine: Engine, options: CheckOptions, kinds: tuple[str, ...]) -> bytes:
    """The example database's key: the engine and every option that changes what is drawn or judged."""
    key = json.dumps(
        [engine.identity or engine.name, list(kinds), options.max_actions, options.comparison.to_json(),
         {name: repr(rules) for name, rules in sorted(options.rules.items())}]
        + ([sorted(options.features)] if options.features is not None else []) + (["swarm"] if options.swarm else [])
        + (["seeded"] if _is_seeded(options) else []),  # a seed per batch, not Hypothesis' choices: its own key
        sort_keys=True,
    )
    return hashlib.sha256(key.encode()).digest()


def _key_database(run: Any, digest: bytes) -> None:
    """Key the example database by ``digest``. Hypothesis reads the digest from the inner test
    function (``function_digest(test.hypothesis.inner_test)``), so it is set on ``run`` itself,
    before ``given`` wraps it; set on the wrapper, every engine shared one key and a passing run
    of one engine erased another's saved failure."""
    run._hypothesis_internal_add_digest = digest


def _database(options: CheckOptions) -> Any:
    """The example database (a folder, or a Redis server a campaign's workers share), read-only for
    ``--keep-going``: such a run lets every example pass, so Hypothesis would take each stored failure
    it replays for fixed and delete it, for every worker sharing the database."""
    from hypothesis.database import ReadOnlyDatabase

    from .databases import open_database

    database = open_database(options.database, fallback=str(examples_fallback(options)))
    if database is not None:  # its replay phase sees a few well-formed entries, never another's
        database = failure_store.ReplayBounded(database, _is_seeded(options))
    return ReadOnlyDatabase(database) if database is not None and options.keep_going else database


def _degraded_warning(database: Any) -> str:
    """What a shared database that failed mid-run said (``referee.check.databases.DegradingDatabase``), or ''."""
    while hasattr(database, "_wrapped"):  # a --keep-going run's ReadOnlyDatabase, the ReplayBounded
        database = database._wrapped
    return getattr(database, "warning", "") or ""


def examples_fallback(options: CheckOptions) -> Path:
    """Where a shared database's failures go if it fails mid-run: ``<state dir>/examples``, else the temporary folder."""
    if options.state_dir:
        return Path(options.state_dir) / "examples"
    import tempfile

    return Path(tempfile.gettempdir()) / "referee-examples"
