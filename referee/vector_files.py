"""Reading and writing a vectors folder safely: every damage is a clean error naming the file.

``vectors run`` on a damaged folder (a manifest that is a list, an entry without ``path``, a
missing file, a directory, deep JSON, a vector without ``scenario``, another format, a path
that leaves the folder) and ``vectors export`` to a bad destination (unwritable, ``""``, a
folder holding somebody else's ``manifest.json``) are usage errors, raised before any work:
:class:`VectorFileError`, a ``ValueError`` the commands print and exit 2 on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class VectorFileError(ValueError):
    """A vectors folder or file that cannot be used; the message names the file."""


def read_json(path: Path) -> Any:
    """A JSON file, or a :class:`VectorFileError` naming it (unreadable, not JSON, too deep, a directory)."""
    if path.is_dir():
        raise VectorFileError(f"{path}: is a directory, not a JSON file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VectorFileError(f"{path}: no such file") from None
    except OSError as error:
        raise VectorFileError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise VectorFileError(f"{path}: not UTF-8 text: {error.reason}") from None
    except RecursionError:
        raise VectorFileError(f"{path}: JSON nested too deeply to read") from None
    except ValueError as error:
        raise VectorFileError(f"{path}: not valid JSON: {error}") from None


def read_manifest(folder: Path, expected_format: str) -> dict[str, Any]:
    """``folder/manifest.json``, checked: an object of the expected format with a non-empty list of entries."""
    path = folder / "manifest.json"
    manifest = read_json(path)
    if not isinstance(manifest, dict):
        raise VectorFileError(f"{path}: expected a JSON object, got a {type(manifest).__name__}")
    if manifest.get("format") != expected_format:
        raise VectorFileError(f"{path}: format {manifest.get('format')!r:.60}, expected {expected_format!r} "
                              "(export the vectors again with this referee)")
    entries = manifest.get("vectors")
    if not isinstance(entries, list):
        raise VectorFileError(f"{path}: \"vectors\" must be a list of entries")
    if not entries:
        raise VectorFileError(f"{path}: lists no vectors (an empty selection is a failure, not a pass)")
    return manifest


def inside(folder: Path, relative: Any, where: str) -> Path:
    """``folder / relative``, refused unless it stays inside ``folder`` (no ``..``, no absolute path)."""
    if not isinstance(relative, str) or not relative:
        raise VectorFileError(f"{where}: \"path\" must be a non-empty string")
    root = folder.resolve()
    target = (folder / relative).resolve()
    if target != root and root not in target.parents:
        raise VectorFileError(f"{where}: path {relative!r:.80} leaves the vectors folder")
    return target


def read_vectors(folder: Path, expected_format: str) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Every vector of a folder: ``(entry, scenario, expected)``, each checked; the first damage raised."""
    manifest = read_manifest(folder, expected_format)
    out = []
    for i, entry in enumerate(manifest["vectors"]):
        where = f"{folder / 'manifest.json'}: vectors[{i}]"
        if not isinstance(entry, dict):
            raise VectorFileError(f"{where}: expected an object with a \"path\"")
        path = inside(folder, entry.get("path"), where)
        clauses = entry.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            raise VectorFileError(f"{where}: \"clauses\" must be a list of clause ids")
        data = read_json(path)
        if not isinstance(data, dict):
            raise VectorFileError(f"{path}: expected a vector object {{scenario, expected}}")
        for key in ("scenario", "expected"):
            if not isinstance(data.get(key), dict):
                raise VectorFileError(f"{path}: \"{key}\" must be an object" if key in data else f"{path}: no \"{key}\"")
        check_legal_scenario(path, data["scenario"])
        out.append(({**entry, "clauses": clauses}, data["scenario"], data["expected"]))
    return out


def check_legal_scenario(path: Path, scenario: dict[str, Any]) -> None:
    """A vector's scenario goes through its rulebook's decoder, as ``check --replay`` does: an illegal one (a
    negative cap, a unit off its half, ...) is refused, naming the file, the unit, the field and the clause."""
    from .protocol import decode_scenario
    from .wire import ProtocolError

    try:
        decode_scenario(scenario)
    except ProtocolError as error:
        raise VectorFileError(f"{path}: {error}") from None


def check_destination(folder: str | os.PathLike, expected_format: str) -> Path:
    """Where ``vectors export`` may write, checked before any generation: a named folder (not ``""``),
    writable, and not holding a ``manifest.json`` that is not ours."""
    if str(folder).strip() == "":
        raise VectorFileError("the destination folder is empty: name one (for example vectors/)")
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise VectorFileError(f"{path}: exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".referee-write-probe"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise VectorFileError(f"{path}: cannot write there: {error.strerror or error}") from None
    manifest = path / "manifest.json"
    if manifest.exists():
        try:
            ours = read_json(manifest).get("format") == expected_format
        except (VectorFileError, AttributeError):
            ours = False
        if not ours:
            raise VectorFileError(f"{manifest}: exists and is not a referee vectors manifest; not overwriting it")
    return path


def previous_paths(folder: Path, expected_format: str) -> set[str]:
    """The vector paths a previous export listed in ``folder`` (empty when there is none)."""
    try:
        return {e["path"] for e in read_manifest(folder, expected_format)["vectors"]
                if isinstance(e, dict) and isinstance(e.get("path"), str)}
    except VectorFileError:
        return set()


def remove_stale(folder: Path, old: set[str], new: set[str]) -> list[str]:
    """Delete the vectors a previous export wrote that the new manifest no longer lists; their paths."""
    removed = []
    for relative in sorted(old - new):
        try:
            target = inside(folder, relative, str(folder))
        except VectorFileError:
            continue
        if target.is_file():
            target.unlink()
            removed.append(relative)
    return removed
