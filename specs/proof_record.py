"""Where ``referee prove`` records its run, and whether that record still describes the code.

One location for writer and reader: ``<state dir>/proofs.json``, the state dir being
``--state-dir`` when given, else ``$REFEREE_STATE_DIR`` when set (the test suite sets it, so that no
test reads or writes the checkout's own), else the repository root's ``.referee/`` in a source
checkout (whatever the current directory), else ``./.referee/`` for a plain install. The record carries
the hash of the code it proved (:func:`code_hash`: every ``.py`` source of ``model/`` and
``proofs/``), so ``referee clauses`` can say when it is stale; it is written atomically (a
temporary file in the same folder, then ``os.replace``), so an interrupted ``prove`` leaves
the previous record whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

RECORD_NAME = "proofs.json"
STATE_DIR_NAME = ".referee"
#: The environment variable that sets the default state dir (``--state-dir`` still wins).
STATE_DIR_VARIABLE = "REFEREE_STATE_DIR"
#: The packages whose sources a proof run is about.
CODE_PACKAGES = ("referee.model", "referee.proofs")


def state_dir(explicit: Path | None = None) -> Path:
    """The folder holding referee's records (see the module docstring for the order)."""
    if explicit is not None:
        return Path(explicit)
    if os.environ.get(STATE_DIR_VARIABLE):
        return Path(os.environ[STATE_DIR_VARIABLE])
    from .paths import repo_root

    root = repo_root()
    return (root if root is not None else Path.cwd()) / STATE_DIR_NAME


def record_path(explicit_state_dir: Path | None = None) -> Path:
    return state_dir(explicit_state_dir) / RECORD_NAME


def code_hash() -> str:
    """SHA-256 over the relative path and bytes of every ``.py`` file of ``model/`` and ``proofs/``."""
    import importlib

    hasher = hashlib.sha256()
    for name in CODE_PACKAGES:
        package = importlib.import_module(name)
        for folder in package.__path__:
            base = Path(folder)
            for path in sorted(base.rglob("*.py"), key=lambda p: p.relative_to(base).as_posix()):
                hasher.update(f"{name}/{path.relative_to(base).as_posix()}\0".encode())
                hasher.update(path.read_bytes() + b"\0")
    return hasher.hexdigest()


def code_stamp() -> dict[str, Any]:
    """What a record says about the code it proved."""
    return {"hash": code_hash(), "sources": "every .py file of model/ and proofs/ (sha256)"}


def write_record(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` as JSON at ``path`` atomically (raises OSError)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(json.dumps(document, indent=2) + "\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def staleness(path: Path) -> str | None:
    """Why the record at ``path`` does not describe the current code, or None when it does."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # unreadable records are reported by the reader itself
    recorded = data.get("code", {}).get("hash") if isinstance(data, dict) and isinstance(data.get("code"), dict) else None
    if recorded is None:
        return f"the recorded proof run {path} does not say which code it proved; rerun `referee prove`"
    if recorded != code_hash():
        return (f"the recorded proof run {path} is stale: model/ or proofs/ changed since it was recorded "
                f"(code {recorded[:12]}, now {code_hash()[:12]}); rerun `referee prove`")
    return None
