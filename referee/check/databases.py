"""The example database a run keeps its failures in: a folder on this machine, or Redis shared by many.

``referee check --database SPEC`` (and the pytest plugin's ``--referee-database``) takes:

* ``''``: no database (nothing is stored, nothing replayed);
* ``redis://HOST:PORT/DB``, ``rediss://...`` (TLS) or ``unix:///path/to/redis.sock``: Hypothesis'
  ``RedisExampleDatabase`` on that server (the ``redis`` client package must be installed), so every
  worker of a campaign, on any machine, replays first what any other worker found;
* anything else: a folder (Hypothesis' ``DirectoryBasedExampleDatabase``), shared by the workers of
  one machine (``pytest -n auto``).

The server is asked for a ``PING`` before the run starts, so an unreachable one is a usage error
naming the address (exit 2), never a traceback from inside Hypothesis. A server that fails *during*
the run (killed, unreachable, out of memory) is not an error of the run: the database degrades to
a local folder (:class:`DegradingDatabase`, the state folder's ``examples``), says so once on stderr,
and the run goes on to its report, its failure file and its replay command.
"""

from __future__ import annotations

import sys
from typing import Any

#: The URL schemes that name a Redis server.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


class DatabaseError(ValueError):
    """A ``--database`` that cannot be opened: the message names it and says why."""


def is_redis(spec: str | None) -> bool:
    return bool(spec) and spec.startswith(REDIS_SCHEMES)


def open_database(spec: str | None, *, check: bool = True, fallback: str | None = None) -> Any:
    """The Hypothesis example database ``spec`` names (None for ``''`` or None); ``check`` pings a Redis server.
    With a ``fallback`` folder, a Redis database degrades to that folder if it fails mid-run."""
    if not spec:
        return None
    if is_redis(spec):
        database = _redis_database(spec, check)
        return DegradingDatabase(database, spec, fallback) if fallback else database
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(spec)


def _redis_database(url: str, check: bool) -> Any:
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise DatabaseError(f"--database {url}: the redis client package is not installed (pip install redis)") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    except ValueError as error:
        raise DatabaseError(f"--database {url}: not a Redis URL ({error}); expected redis://HOST:PORT/DB") from None
    if check:
        try:
            client.ping()
        except redis.RedisError as error:
            raise DatabaseError(f"--database {url}: the Redis server does not answer ({error})") from None
    # The keys carry the engine and the options (harness._digest), so one server serves many campaigns.
    return RedisExampleDatabase(client, key_prefix=b"referee-example:")


def _degrading_base() -> type:
    from hypothesis.database import ExampleDatabase

    return ExampleDatabase


class DegradingDatabase(_degrading_base()):  # type: ignore[misc]
    """A shared database (Redis) that, the first time an operation on it fails, hands every operation of
    the rest of the run to a local folder, with one warning: a found bug is kept, never lost to the server."""

    def __init__(self, primary: Any, spec: str, fallback: str) -> None:
        super().__init__()
        self.primary, self.spec, self.fallback_path = primary, spec, fallback
        self.fallback: Any = None
        self.warning = ""

    def __repr__(self) -> str:
        return f"DegradingDatabase({self.spec!r}, fallback={self.fallback_path!r})"

    def _degrade(self, error: BaseException) -> None:
        from hypothesis.database import DirectoryBasedExampleDatabase

        text = " ".join(str(error).split())[:300]
        self.warning = (f"referee: warning: the example database {self.spec} failed during the run "
                        f"({type(error).__name__}: {text}); this run keeps its failures in {self.fallback_path} instead")
        print(self.warning, file=sys.stderr, flush=True)
        self.fallback = DirectoryBasedExampleDatabase(self.fallback_path)

    def _run(self, operation: Any) -> Any:
        if self.fallback is None:
            try:
                return operation(self.primary)
            except Exception as error:  # any failure of the server or its client: degrade, never lose the run
                self._degrade(error)
        return operation(self.fallback)

    def save(self, key: bytes, value: bytes) -> None:
        self._run(lambda database: database.save(key, value))

    def fetch(self, key: bytes) -> list[bytes]:
        return self._run(lambda database: list(database.fetch(key)))

    def delete(self, key: bytes, value: bytes) -> None:
        self._run(lambda database: database.delete(key, value))

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._run(lambda database: database.move(src, dest, value))
