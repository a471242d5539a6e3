"""The proof cache: a check's solver answer, stored under the hash of the question asked.

The key is the SHA-256 of the check's SMT-LIB text together with the Z3 version, the
rlimit and the kind of check (proof, vacuity, mutant): the same key is the same question,
so its answer can be reused; any change to the text (an edited model function, a new
lemma) is a new key, decided afresh. An entry holds Z3's answer, the rlimit it used, the
seed (and every seed tried before it, so a check that ran out first is outside the margin
cached or not) and, for ``sat``, the witness's values; the verdict is always re-judged from it, and
every witness is replayed through the current model before it is shown (core.judge).
``unknown`` is never stored.

The cache also keeps an *index*: for the code it was built from (the hash of every file of
``model/`` and ``proofs/``, the Z3 and Python versions), the key of each check by name. With
the code unchanged, a run looks its checks up by name without writing their texts again;
that holds because a check's text is a function of that code alone
(tests/test_proof_determinism.py). Any edit to the code makes the index void, and the texts
are built and looked up by content.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import Attempt, SolverAnswer
from .smt import TACTICS

#: The cache file's format; a file of another format is refused by name.
FORMAT = 1
#: The file name in the state folder.
CACHE_NAME = "proof-cache.json"


class CacheError(ValueError):
    """A cache file that cannot be read, named with the reason."""


def z3_version() -> str:
    import z3

    return z3.get_full_version()


def cache_key(digest: str, kind: str, rlimit: int) -> str:
    """SHA-256 over the query text's SHA-256 (``Query.digest``), the Z3 version and solver, the limit and the kind."""
    solver = ",".join(TACTICS)
    stamp = f"referee-proof-cache/{FORMAT}\0{kind}\0{z3_version()}\0{solver}\0{rlimit}\0{digest}"
    return hashlib.sha256(stamp.encode()).hexdigest()


def code_stamp() -> str:
    """What the check texts are a function of: every file of ``model/`` and ``proofs/``, Z3, Python."""
    import importlib

    hasher = hashlib.sha256(f"{z3_version()}\0{sys.version}\0".encode())
    for name in ("referee.model", "referee.proofs"):
        for folder in importlib.import_module(name).__path__:
            base = Path(folder)
            files = [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
            for path in sorted(files, key=lambda p: p.relative_to(base).as_posix()):
                hasher.update(f"{name}/{path.relative_to(base).as_posix()}\0".encode())
                hasher.update(path.read_bytes() + b"\0")
    return hasher.hexdigest()


def index_name(check: str, rlimit: int) -> str:
    return f"{check} @{rlimit}"


@dataclass
class ProofCache:
    """Entries by key, and the index of keys by check for one code stamp."""

    path: Path | None = None
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    index_code: str = ""
    index: dict[str, str] = field(default_factory=dict)
    added: int = 0
    #: A fully confirmed CrossHair report under its key (``contracts.report_key``), or empty.
    crosshair: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> ProofCache:
        """The cache at ``path`` (empty when the file does not exist); a bad file raises :class:`CacheError`."""
        if not path.exists():
            return cls(path)
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CacheError(f"{path}: not a readable proof cache ({error})") from error
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            found = document.get("format") if isinstance(document, dict) else type(document).__name__
            raise CacheError(f"{path}: field 'format' is {found!r}, expected {FORMAT}")
        entries, index = document.get("entries"), document.get("index", {})
        if not isinstance(entries, dict) or not isinstance(index, dict):
            raise CacheError(f"{path}: fields 'entries' and 'index' must be objects")
        crosshair = document.get("crosshair") or {}
        return cls(path, entries, str(index.get("code", "")), dict(index.get("keys", {})), crosshair=dict(crosshair))

    def get(self, key: str) -> SolverAnswer | None:
        """The stored answer under ``key`` (never ``unknown``), or ``None``."""
        entry = self.entries.get(key)
        if entry is None or entry.get("answer") not in ("sat", "unsat"):
            return None
        attempts = [
            Attempt(int(a["seed"]), str(a["answer"]), a.get("rlimit_used"), str(a.get("reason", "")))
            for a in entry.get("attempts", [])
        ]
        if not attempts or attempts[-1].answer != entry["answer"]:  # the deciding attempt is always last
            attempts.append(Attempt(int(entry["seed"]), entry["answer"], entry.get("rlimit_used")))
        values = entry.get("values") if entry["answer"] == "sat" else None
        return SolverAnswer(entry["answer"], attempts, dict(values) if values is not None else None)

    def put(self, key: str, kind: str, answer: SolverAnswer, check: str, reads: list[str] | None = None) -> bool:
        """Store a decided answer, with the ruleset options its check reads; ``unknown`` is refused (``False``)."""
        if answer.answer not in ("sat", "unsat") or answer.seed is None:
            return False
        if key not in self.entries:
            self.added += 1
        self.entries[key] = {
            "kind": kind,
            "answer": answer.answer,
            "seed": answer.seed,
            "rlimit_used": answer.rlimit_used,
            "values": answer.values if answer.answer == "sat" else None,
            # Every seed tried, those that ran out first included: the margin rule reads the worst.
            "attempts": [
                {"seed": a.seed, "answer": a.answer, "rlimit_used": a.rlimit_used, "reason": a.reason}
                for a in answer.attempts
            ],
            "check": check,
            "reads": list(reads or []),
            "z3": z3_version(),
        }
        return True

    def reads(self, key: str) -> list[str]:
        """The ruleset options the check stored under ``key`` reads (its cone of influence)."""
        return list((self.entries.get(key) or {}).get("reads") or [])

    def indexed(self, code: str, check: str, rlimit: int) -> str | None:
        """The key of ``check`` under ``rlimit`` when the index was made for ``code`` (else ``None``)."""
        return self.index.get(index_name(check, rlimit)) if code and code == self.index_code else None

    def reindex(self, code: str, keys: dict[str, str]) -> None:
        """Record the keys of these checks for ``code`` (the index of other code is dropped)."""
        if code != self.index_code:
            self.index_code, self.index = code, {}
        self.index.update(keys)

    def save(self, path: Path | None = None) -> None:
        """Write the cache atomically (sorted, so a committed cache diffs by entry); raises OSError."""
        target = path or self.path
        if target is None:
            return
        document = {
            "format": FORMAT,
            "index": {"code": self.index_code, "keys": dict(sorted(self.index.items()))},
            "entries": dict(sorted(self.entries.items())),
            "crosshair": self.crosshair,
        }
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(json.dumps(document, indent=1, sort_keys=True) + "\n")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
