"""The example database a run keeps its failures in: a folder on this machine, or Redis shared by many.

``referee check --database SPEC`` (and the pytest plugin's ``--referee-database``) takes:

* ``''``: no database (nothing is stored, nothing replayed);
* ``redis://HOST:PORT/DB``, ``rediss://...`` (TLS) or ``unix:///path/to/redis.sock``: Hypothesis'
  ``RedisExampleDatabase`` on that server (the ``redis`` client package must be installed), so every
  worker of a campaign, on any machine, replays first what any other worker found;
* anything else: a folder (Hypothesis' ``DirectoryBasedExampleDatabase``), shared by the workers of
  one machine (``pytest -n auto``).

The server is asked for a ``PING`` before the run starts, so an unreachable one, one that wants a
password or refuses the one given, or a database number that is not a number, is a usage error naming
the address and saying which (exit 2), never a traceback from inside Hypothesis. A server that fails *during*
the run (killed, unreachable, out of memory) is not an error of the run: the database degrades to
a local folder (:class:`DegradingDatabase`, the state folder's ``examples``), says so once on stderr,
and the run goes on to its report, its failure file and its replay command.

A URL's password (``redis://:PASSWORD@HOST:PORT/DB``, ``?password=``) is never printed: every line, report
and file referee writes shows it as ``***`` (:func:`shown`). The database may also be named by the
environment variable ``REFEREE_DATABASE`` (:func:`with_environment`), read when neither ``--database`` nor
the settings file names one: the replay command then leaves ``--database`` out, since the variable is read
again, and a password given that way is never on a command line at all.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Mapping
from urllib.parse import unquote

#: The URL schemes that name a Redis server.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
#: The environment variable naming the database when neither ``--database`` nor the settings file does.
ENVIRONMENT = "REFEREE_DATABASE"
#: What a password is shown as.
MASK = "***"
_QUERY_PASSWORD = re.compile(r"(?<=[?&])password=[^&#]*")


class DatabaseError(ValueError):
    """A ``--database`` that cannot be opened: the message names it and says why."""


def is_redis(spec: str | None) -> bool:
    return bool(spec) and spec.startswith(REDIS_SCHEMES)


def _split_netloc(spec: str) -> tuple[str, str, str]:
    """A URL as its ``scheme://``, its network location and the rest (path, query), as ``urlsplit`` cuts it."""
    scheme, rest = spec.split("://", 1)
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    return scheme + "://", rest[:end], rest[end:]


def shown(spec: str | None) -> str:
    """``spec`` as every line, report and file shows it: a Redis URL's password (``redis://USER:PASSWORD@``,
    ``?password=``) as ``***``; a folder as it is."""
    if not spec or not is_redis(spec):
        return spec or ""
    scheme, netloc, rest = _split_netloc(spec)
    userinfo, at, host = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.partition(':')[0]}:{MASK}@{host}"
    return scheme + netloc + _QUERY_PASSWORD.sub(f"password={MASK}", rest)


def _passwords(spec: str) -> list[str]:
    """The passwords a Redis URL holds, as written and decoded (to hide them from any text)."""
    _, netloc, rest = _split_netloc(spec)
    userinfo, at, _ = netloc.rpartition("@")
    found = [userinfo.partition(":")[2]] if at and ":" in userinfo else []
    found += [match.group()[len("password="):] for match in _QUERY_PASSWORD.finditer(rest)]
    return [word for password in found for word in {password, unquote(password)} if word]


def hidden(text: str, spec: str | None) -> str:
    """``text`` (a client's error message, a warning) with every password of ``spec`` shown as ``***``."""
    if not spec or not is_redis(spec):
        return text
    for password in sorted(_passwords(spec), key=len, reverse=True):
        text = text.replace(password, MASK)
    return text


def has_password(spec: str | None) -> bool:
    return bool(spec) and is_redis(spec) and bool(_passwords(spec))


def with_environment(settings: Any, environ: Mapping[str, str] = os.environ) -> Any:
    """``settings`` with the database ``REFEREE_DATABASE`` names, when the verb takes one and neither the
    flag nor the file gave it (its source: ``environment``; the replay command leaves it out)."""
    value = environ.get(ENVIRONMENT)
    if not value or "database" not in settings.values or settings.sources.get("database") != "default":
        return settings
    from dataclasses import replace  # the settings are a frozen dataclass of referee.check.options, above this module

    return replace(settings, values={**settings.values, "database": value},
                   sources={**settings.sources, "database": "environment"})


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
    named = f"--database {shown(url)}"
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise DatabaseError(f"{named}: the redis client package is not installed (pip install redis)") from None
    problem = _database_number_problem(url)
    if problem:
        raise DatabaseError(f"{named}: {problem}; expected redis://HOST:PORT/DB, DB a whole number")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    except ValueError as error:
        raise DatabaseError(f"{named}: not a Redis URL ({hidden(str(error), url)}); "
                            "expected redis://HOST:PORT/DB") from None
    if check:
        _ping(client, url, named)
    # The keys carry the engine and the options (examples_database._digest), so one server serves many campaigns.
    return RedisExampleDatabase(client, key_prefix=b"referee-example:")


def _database_number_problem(url: str) -> str | None:
    """What is wrong with the database number of a ``redis://`` / ``rediss://`` URL (its path), or None: the
    client would silently take database 0 for ``/notanumber``."""
    if not url.startswith(("redis://", "rediss://")):
        return None  # unix://: the path is the socket's; the number is ?db=N, which the client checks
    number = unquote(_split_netloc(url)[2].partition("?")[0].partition("#")[0]).replace("/", "")
    if number and not re.fullmatch(r"[0-9]+", number):
        return f"the database number {number!r} (the path of the URL) is not a whole number"
    return None


def _ping(client: Any, url: str, named: str) -> None:
    """Ask the server for a ``PING``: a DatabaseError saying why it did not answer (a password wanted or
    refused, nothing listening, an error)."""
    import redis

    try:
        client.ping()
    except redis.AuthenticationError as error:
        why = ("the Redis server refused the password" if has_password(url) else
               f"the Redis server wants a password (redis://:PASSWORD@HOST:PORT/DB, best given in {ENVIRONMENT})")
        raise DatabaseError(f"{named}: {why} ({hidden(str(error), url)})") from None
    except (redis.ConnectionError, redis.TimeoutError) as error:
        raise DatabaseError(f"{named}: the Redis server does not answer ({hidden(str(error), url)})") from None
    except redis.RedisError as error:
        said = hidden(str(error), url)
        raise DatabaseError(f"{named}: the Redis server answered PING with an error ({said})") from None


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
        return f"DegradingDatabase({shown(self.spec)!r}, fallback={self.fallback_path!r})"

    def _degrade(self, error: BaseException) -> None:
        from hypothesis.database import DirectoryBasedExampleDatabase

        text = hidden(" ".join(str(error).split()), self.spec)[:300]
        self.warning = (f"referee: warning: the example database {shown(self.spec)} failed during the run "
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
