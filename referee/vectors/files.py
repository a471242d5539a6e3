"""Reading and writing a vectors folder safely: every damage is a clean error naming the file.

``vectors run`` on a damaged folder (a manifest that is a list, an entry without ``path``, a
missing file, a directory, deep JSON, a vector without ``scenario``, another format, a path
that leaves the folder) and ``vectors export`` to a bad destination (unwritable, ``""``, a
folder holding somebody else's ``manifest.json``) are usage errors, raised before any work:
:class:`VectorFileError`, a ``ValueError`` the commands print and exit 2 on.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


class VectorFileError(ValueError):
    """A vectors folder or file that cannot be used; the message names the file."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice is refused (JSON would keep the last one silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r:.60} appears twice in one object")
        out[key] = value
    return out


def read_json(path: Path) -> Any:
    """A JSON file, or a :class:`VectorFileError` naming it (unreadable, not JSON, a key given twice, too deep, a
    directory, not a regular file such as a FIFO, larger than the input limit: ``referee.input_files``)."""
    return read_json_and_digest(path)[0]


def read_json_and_digest(path: Path) -> tuple[Any, str]:
    """:func:`read_json`'s value and the SHA-256 of the very bytes it was read from (what a receipt records). The
    file is read by :func:`referee.input_files.read_input_bytes`: only a regular file (a FIFO, ``/dev/zero`` or a
    symlink to one is refused without reading), up to its size limit."""
    from ..input_files import InputFileError, read_input_bytes

    try:
        raw = read_input_bytes(path)
        return json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicate_keys), hashlib.sha256(raw).hexdigest()
    except InputFileError as error:
        raise VectorFileError(str(error)) from None
    except UnicodeDecodeError as error:
        raise VectorFileError(f"{path}: not UTF-8 text: {error.reason}") from None
    except RecursionError:
        raise VectorFileError(f"{path}: JSON nested too deeply to read") from None
    except ValueError as error:
        raise VectorFileError(f"{path}: not valid JSON: {error}") from None


def read_manifest(folder: Path, expected_format: str) -> dict[str, Any]:
    """``folder/manifest.json``, checked: an object of the expected format with a non-empty list of entries; the
    SHA-256 of the bytes read under ``"sha256"`` (a key the export never writes)."""
    path = folder / "manifest.json"
    manifest, digest = read_json_and_digest(path)
    if not isinstance(manifest, dict):
        raise VectorFileError(f"{path}: expected a JSON object, got {_json_type(manifest)}")
    if manifest.get("format") != expected_format:
        raise VectorFileError(f"{path}: format {manifest.get('format')!r:.60}, expected {expected_format!r} "
                              "(export the vectors again with this referee)")
    entries = manifest.get("vectors")
    if not isinstance(entries, list):
        raise VectorFileError(f"{path}: \"vectors\" must be a list of entries")
    if not entries:
        raise VectorFileError(f"{path}: lists no vectors (an empty selection is a failure, not a pass)")
    return {**manifest, "sha256": digest}


def _json_type(value: Any) -> str:
    """A JSON value's type, in JSON's words ("an array", "a number")."""
    for kind, name in ((bool, "a boolean"), (int, "a number"), (float, "a number"), (str, "a string"),
                       (list, "an array"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return "null"


def inside(folder: Path, relative: Any, where: str) -> Path:
    """``folder / relative``, refused unless it stays inside ``folder`` (no ``..``, no absolute path)."""
    if not isinstance(relative, str) or not relative:
        raise VectorFileError(f"{where}: \"path\" must be a non-empty string")
    root = folder.resolve()
    target = (folder / relative).resolve()
    if target != root and root not in target.parents:
        through = " (through a symbolic link)" if (folder / relative).is_symlink() else ""
        raise VectorFileError(f"{where}: path {relative!r:.80} leaves the vectors folder{through}")
    return target


def listing_problems(folder: Path, manifest: dict[str, Any]) -> list[str]:
    """Where a folder's vector files and its manifest disagree: each vector file (a ``.json`` file below the top
    level, where the export files every vector) that the manifest does not list, and each listed path that is not
    there. ``vectors run`` refuses such a folder (:func:`check_listing`); ``check-receipt`` fails on it."""
    listed = {os.path.normpath(e["path"]) for e in manifest.get("vectors", [])
              if isinstance(e, dict) and isinstance(e.get("path"), str) and e["path"]}
    listed = {p for p in listed if not os.path.isabs(p) and p.split(os.sep)[0] != ".."}  # :func:`inside` names those
    on_disk = set()
    for path in folder.rglob("*.json"):
        relative = path.relative_to(folder)
        if len(relative.parts) > 1 and not path.is_dir():
            on_disk.add(os.path.normpath(relative.as_posix()))
    return ([f"{folder / p}: a vector file manifest.json does not list" for p in sorted(on_disk - listed)]
            + [f"{folder / p}: listed in manifest.json, not in the folder" for p in sorted(listed - on_disk)
               if not os.path.lexists(folder / p)])


def check_listing(folder: Path, manifest: dict[str, Any]) -> None:
    """A :class:`VectorFileError` naming the files where the folder and its manifest disagree (the first 20, and
    how many in all): a folder holding vectors its manifest does not describe is not the suite it claims."""
    problems = listing_problems(folder, manifest)
    if problems:
        more = f"; and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise VectorFileError(f"{folder}: its vector files disagree with manifest.json ({len(problems)} files; "
                              "export the vectors again into an empty folder): " + "; ".join(problems[:20]) + more)


def read_vectors(folder: Path, expected_format: str,
                 manifest: dict[str, Any] | None = None) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Every vector of a folder (of ``manifest``, read already, or read here): ``(entry, scenario, expected)``,
    each checked, its entry holding the SHA-256 of the file read (``"sha256"``); the first damage raised."""
    manifest = manifest if manifest is not None else read_manifest(folder, expected_format)
    out = []
    seen: dict[Path, int] = {}
    for i, entry in enumerate(manifest["vectors"]):
        where = f"{folder / 'manifest.json'}: vectors[{i}]"
        if not isinstance(entry, dict):
            raise VectorFileError(f"{where}: expected an object with a \"path\"")
        path = inside(folder, entry.get("path"), where)
        if path in seen:  # counted once per listing, a vector listed twice would count twice
            raise VectorFileError(f"{where}: {entry['path']!r:.80} is listed already (vectors[{seen[path]}])")
        seen[path] = i
        for key in ("clauses", "exercises"):
            listed = entry.get(key, [])
            if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
                raise VectorFileError(f"{where}: \"{key}\" must be a list of " + ("clause ids" if key == "clauses"
                                                                                   else "branch names"))
        data, digest = read_vector(path)
        out.append(({**entry, "clauses": entry.get("clauses", []), "sha256": digest}, data["scenario"], data["expected"]))
    return out


def read_vector(path: Path) -> tuple[dict[str, Any], str]:
    """One vector file, checked: its scenario decodes under the protocol (a wrong ``protocol``, an unknown field, an
    illegal board are refused) and its ``expected`` is a valid observation of it; every error names the file."""
    from ..protocol import decode_observation, decode_scenario, rulebook_of

    data, digest = read_json_and_digest(path)
    if not isinstance(data, dict):
        raise VectorFileError(f"{path}: expected a vector object {{scenario, expected}}")
    for key in ("scenario", "expected"):
        if not isinstance(data.get(key), dict):
            raise VectorFileError(f"{path}: \"{key}\" must be an object" if key in data else f"{path}: no \"{key}\"")
    try:
        decode_scenario(data["scenario"], "scenario")
        decode_observation(data["expected"], "expected", rulebook=rulebook_of(data["scenario"]))
    except (ValueError, TypeError, RecursionError) as error:
        raise VectorFileError(f"{path}: {error}") from None
    return data, digest


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
