"""The failure store: every failing scenario ``referee check`` meets, written ahead, replayed first by every run.

Hypothesis' example database keeps what Hypothesis drew (one integer per group of batches, or its choices), not
the scenario, and keeps it only once Hypothesis learns of the failure: a signal between the verdict and that moment
lost the bug, a fault (which stops Hypothesis at once) was stored as the group's integer, and the run that read it
back took it for a scenario seed. The store is the project's own and holds the scenario itself:

* **write-ahead**: the moment a scenario is judged a divergence or an engine fault, its record (the scenario, the
  verdict, what was wrong) is written atomically (a temporary file, then ``os.replace``), before shrinking, reporting
  or anything a signal can cut short; the shrunk scenario replaces it once shrinking is done (written first, the
  original removed after: never neither);
* **where**: ``<state dir>/failures/store/<engine key>/<scenario hash>.json`` (the replay files ``NAME.json`` and
  ``NAME.jsonl`` stay at the top of ``failures/``), and, when the example database is Redis, the same records in
  the hash ``referee-failure-store:<engine key>`` of that server, so a campaign's machines share them. The engine
  key is a digest of the engine's identity (its ``--name``, else its spec and a digest of what it runs:
  ``referee.engines.transports.identity_of``), so any run of that engine, whatever its seed, options or workers,
  replays it; file names are the scenario's hash, so workers writing at once never clash;
* **replay**: every run sends the store's entries first, oldest first, each judged as usual; an entry leaves the
  store only when the engine passes it under the comparison it was stored with (a divergence or a fault keeps it).
  An entry that no longer decodes, or lies outside the run's profile (its action kinds, its features), is kept,
  not run, and the report says so.

:class:`ReplayBounded` keeps Hypothesis' database to its own role: its replay phase sees only well-formed entries
(with seeded generation: one integer) and at most :data:`REPLAY_LIMIT` of them per key, so entries that are not
ours are never run as scenarios nor spend the run's budget, and are never deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

#: The record's format: a later change of it changes this.
FORMAT = 1
#: The Redis hash of an engine's store is this prefix and the engine key.
REDIS_PREFIX = "referee-failure-store:"
#: At most this many of Hypothesis' stored entries per key are shown to its replay phase.
REPLAY_LIMIT = 8
#: Why an entry is kept and not run.
KEPT_UNDECODABLE = "no longer decodes"
KEPT_OUTSIDE = "outside this run's profile"
KEPT_COMPARISON = "passed, but stored under another comparison"
KEPT_READINGS = "stored under other readings"


def engine_key(identity: str) -> str:
    """The store's key of an engine: 16 hex digits of SHA-256 over its identity."""
    return hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def scenario_name(scenario: dict[str, Any]) -> str:
    """An entry's name: 16 hex digits of SHA-256 over the scenario (keys sorted, no id)."""
    public = {k: v for k, v in scenario.items() if k != "id"}
    return hashlib.sha256(json.dumps(public, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class Entry:
    """One stored failure: its name and its record (None: the file or value is not a record of ours)."""

    name: str
    record: dict[str, Any] | None

    @property
    def scenario(self) -> Any:
        return None if self.record is None else self.record.get("scenario")

    @property
    def stored_at(self) -> float:
        at = None if self.record is None else self.record.get("stored")
        return at if isinstance(at, (int, float)) else 0.0


def make_record(scenario: dict[str, Any], verdict: str, first: str, comparison: Any, identity: str,
                shrunk: bool = False) -> dict[str, Any]:
    """A store record: the scenario (no id) and whether it is the shrunk one, the verdict and what was wrong, the
    comparison, when, by whom."""
    return {"format": FORMAT, "engine": identity, "verdict": verdict, "first": first, "comparison": comparison,
            "stored": time.time(), "shrunk": shrunk, "scenario": {k: v for k, v in scenario.items() if k != "id"}}


class FailureStore:
    """An engine's failure store: a folder, and the same records in Redis when the database is a Redis server."""

    def __init__(self, folder: Path, identity: str, redis: Any = None, shown_as: str = "") -> None:
        self.identity, self.key = identity, engine_key(identity)
        self.folder = folder / self.key
        self.redis, self.redis_key = redis, (REDIS_PREFIX + self.key).encode()
        self.shown_as = shown_as or str(self.folder)
        #: Names written by this run (a scenario seen again is not written again).
        self.written: set[str] = set()
        self.warning = ""

    def write(self, scenario: dict[str, Any], verdict: str, first: str, comparison: Any, shrunk: bool = False) -> str:
        """Write a failing scenario's record atomically (folder, then Redis); its name. Never raises for the disk or
        the server: a store that cannot be written says so once on stderr (the report still shows the scenario)."""
        name = scenario_name(scenario)
        if name in self.written:
            return name
        text = json.dumps(make_record(scenario, verdict, first, comparison, self.identity, shrunk))
        wrote = self._write_file(name, text)
        wrote = self._redis_do(lambda r: r.hset(self.redis_key, name, text)) or wrote
        if wrote:
            self.written.add(name)
        return name

    def replace(self, old: dict[str, Any], new: dict[str, Any], verdict: str, first: str, comparison: Any) -> None:
        """The shrunk scenario ``new`` in place of ``old``: written first, ``old`` removed after."""
        name = self.write(new, verdict, first, comparison, shrunk=True)
        if name in self.written and scenario_name(old) != name:
            self.remove(scenario_name(old))

    def remove(self, name: str) -> None:
        """An entry the engine passed: out of the folder and the server."""
        self.written.discard(name)
        try:
            (self.folder / f"{name}.json").unlink(missing_ok=True)
        except OSError as error:
            self._warn(f"could not remove {self.folder / name}.json ({error})")
        self._redis_do(lambda r: r.hdel(self.redis_key, name))

    def entries(self) -> list[Entry]:
        """Every entry, oldest first (then by name): the folder's and the server's, each name once."""
        found = {entry.name: entry for entry in self._file_entries()}
        for entry in self._redis_entries():
            if entry.record is not None or entry.name not in found:
                found[entry.name] = entry
        return sorted(found.values(), key=lambda entry: (entry.stored_at, entry.name))

    def _write_file(self, name: str, text: str) -> bool:
        """``name``'s record into the folder: a temporary file of this process, flushed, then renamed over it."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.folder)
            try:
                with os.fdopen(fd, "w") as out:
                    out.write(text + "\n")
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, self.folder / f"{name}.json")
            finally:
                if os.path.exists(temporary):
                    os.unlink(temporary)
            return True
        except OSError as error:
            self._warn(f"could not write {self.folder / name}.json ({error})")
            return False

    def _file_entries(self) -> list[Entry]:
        try:
            paths = sorted(self.folder.glob("*.json"))
        except OSError:
            return []
        return [Entry(path.stem, _parsed(_read(path))) for path in paths]

    def _redis_entries(self) -> list[Entry]:
        values = self._redis_do(lambda r: r.hgetall(self.redis_key)) or {}
        return [Entry(_text(name), _parsed(_text(value))) for name, value in values.items()]

    def _redis_do(self, operation: Any) -> Any:
        """One Redis operation (None without Redis, or when it fails: the folder keeps the record)."""
        if self.redis is None:
            return None
        try:
            return operation(self.redis)
        except Exception as error:  # the server failed: the folder holds every record, and the run goes on
            self._warn(f"the Redis server failed ({type(error).__name__}); the failure store is the folder "
                       f"{self.folder} for the rest of the run")
            self.redis = None
            return None

    def _warn(self, text: str) -> None:
        if not self.warning:
            self.warning = f"referee: warning: failure store: {text}"
            print(self.warning, file=sys.stderr, flush=True)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _text(value: Any) -> str | None:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return value if isinstance(value, str) else None


def _parsed(text: str | None) -> dict[str, Any] | None:
    """A record, or None: not JSON, not an object, not our format, no scenario object."""
    if text is None:
        return None
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ours = isinstance(record, dict) and record.get("format") == FORMAT and isinstance(record.get("scenario"), dict)
    return record if ours else None


def open_store(options: Any, identity: str, local: Path) -> FailureStore | None:
    """The run's store (None when the example database is off: ``--database ''`` stores nothing and replays
    nothing); ``local``: the folder its records go to (``<state dir>/failures/store``)."""
    from .databases import is_redis, shown

    if not options.database:
        return None
    redis = _redis_client(options.database) if is_redis(options.database) else None
    said = f"{local / engine_key(identity)}" + (f" and {shown(options.database)}" if redis is not None else "")
    return FailureStore(local, identity, redis, said)


def _redis_client(spec: str) -> Any:
    """The Redis client of a ``--database`` URL (``referee.check.databases``), or None if it cannot be opened (the
    example database reports that itself, before the run)."""
    from .databases import open_database

    try:
        return getattr(open_database(spec, check=False), "redis", None)
    except Exception:  # a bad URL is the example database's usage error, raised when it opens
        return None


# --------------------------------------------------------------------------------------
# Hypothesis' example database, kept to its own role
# --------------------------------------------------------------------------------------


def _database_base() -> type:
    from hypothesis.database import ExampleDatabase

    return ExampleDatabase


def one_seed(blob: bytes) -> bool:
    """Whether an entry is well-formed for seeded generation: one integer of 64 bits (a group's or a scenario's)."""
    from hypothesis.database import choices_from_bytes

    try:
        values = choices_from_bytes(blob)
    except Exception:  # a malformed entry is not ours
        return False
    if values is None or len(values) != 1:
        return False
    value = values[0]
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64


class ReplayBounded(_database_base()):  # type: ignore[misc]
    """An example database whose replay phase sees at most ``limit`` well-formed entries per key (``seeded``: one
    integer each); writes and deletes pass through, so what it never shows is never deleted."""

    def __init__(self, inner: Any, seeded: bool, limit: int = REPLAY_LIMIT) -> None:
        super().__init__()
        self._wrapped, self.seeded, self.limit = inner, seeded, limit

    def __repr__(self) -> str:
        return f"ReplayBounded({self._wrapped!r}, seeded={self.seeded}, limit={self.limit})"

    def fetch(self, key: bytes) -> Iterable[bytes]:
        shown = 0
        for blob in self._wrapped.fetch(key):
            if shown >= self.limit:
                return
            if self.seeded and not one_seed(blob):
                continue
            shown += 1
            yield blob

    def save(self, key: bytes, value: bytes) -> None:
        self._wrapped.save(key, value)

    def delete(self, key: bytes, value: bytes) -> None:
        self._wrapped.delete(key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._wrapped.move(src, dest, value)

    def _start_listening(self) -> None:
        pass

    def _stop_listening(self) -> None:
        pass
