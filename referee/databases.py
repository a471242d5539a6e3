"""The example database a run keeps its failures in: a folder on this machine, or Redis shared by many.

``referee check --database SPEC`` (and the pytest plugin's ``--referee-database``) takes:

* ``''``: no database (nothing is stored, nothing replayed);
* ``redis://HOST:PORT/DB``, ``rediss://...`` (TLS) or ``unix:///path/to/redis.sock``: Hypothesis'
  ``RedisExampleDatabase`` on that server (the ``redis`` client package must be installed), so every
  worker of a campaign, on any machine, replays first what any other worker found;
* anything else: a folder (Hypothesis' ``DirectoryBasedExampleDatabase``), shared by the workers of
  one machine (``pytest -n auto``).

The server is asked for a ``PING`` before the run starts, so an unreachable one is a usage error
naming the address (exit 2), never a traceback from inside Hypothesis.
"""

from __future__ import annotations

from typing import Any

#: The URL schemes that name a Redis server.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


class DatabaseError(ValueError):
    """A ``--database`` that cannot be opened: the message names it and says why."""


def is_redis(spec: str | None) -> bool:
    return bool(spec) and spec.startswith(REDIS_SCHEMES)


def open_database(spec: str | None, *, check: bool = True) -> Any:
    """The Hypothesis example database ``spec`` names (None for ``''`` or None); ``check`` pings a Redis server."""
    if not spec:
        return None
    if is_redis(spec):
        return _redis_database(spec, check)
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
