"""Mutated vectors folders for the vector-folder fuzz test (``tests/harness/test_vector_folder_fuzz.py``).

A base folder (a few exported vectors) is copied and damaged one to three ways, drawn by a seeded
``random.Random``: the manifest or a vector deleted, truncated, given a key twice, a wrong ``format`` or
``protocol``, a vector listed twice, a path that leaves the folder, a FIFO, a symlink (to a file outside, to
``/dev/zero``, to a FIFO), a sparse file over the size limit, bytes that are not UTF-8, a directory, and the
JSON values inside (``scenario``, ``expected``, the manifest's entries) mutated as the loader fuzz does
(``loader_fuzz.mutate``). Each mutation says which file it touched, so the test can hold the error to naming it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loader_fuzz import HOSTILE, mutate

#: Larger than the largest vectors file read (``referee.input_files.DEFAULT_MAX_INPUT_BYTES``), written sparse.
OVER_THE_LIMIT = 64 * 1024 * 1024 + 1


def vector_paths(folder: Path) -> list[Path]:
    """The vector files of a folder, by the (undamaged) manifest's order."""
    return sorted(p for p in folder.rglob("*.json") if p.name != "manifest.json" and _regular(p))


def _regular(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _load(path: Path) -> Any:
    if not _regular(path):  # never read what an earlier damage made special (a FIFO would block)
        raise ValueError(f"{path} is no longer a regular file")
    return json.loads(path.read_text())


def _replace_with_special(path: Path, rng: random.Random, outside: Path) -> None:
    """``path`` becomes a FIFO, a symlink (outside the folder, to ``/dev/zero``, to a FIFO, dangling), a directory,
    a sparse file over the size limit, or bytes that are not UTF-8."""
    path.unlink(missing_ok=True)
    how = rng.choice(("fifo", "symlink-outside", "symlink-zero", "symlink-fifo", "dangling", "directory", "sparse",
                      "latin-1", "empty"))
    if how == "fifo":
        os.mkfifo(path)
    elif how == "symlink-outside":
        path.symlink_to(outside)
    elif how == "symlink-zero":
        path.symlink_to("/dev/zero")
    elif how == "symlink-fifo":
        pipe = path.with_name(path.name + ".pipe")
        os.mkfifo(pipe)
        path.symlink_to(pipe)
    elif how == "dangling":
        path.symlink_to(path.with_name("nowhere.json"))
    elif how == "directory":
        path.mkdir()
    elif how == "sparse":
        with open(path, "wb") as out:
            out.truncate(OVER_THE_LIMIT)
    elif how == "latin-1":
        path.write_bytes(b'{"scenario": "\xe9t\xe9"}')
    else:
        path.write_bytes(b"")


def _text_damage(path: Path, rng: random.Random) -> None:
    """Truncated JSON, a key given twice, or the file deleted."""
    if not _regular(path):
        raise ValueError(f"{path} is no longer a regular file")
    text = path.read_text()
    how = rng.random()
    if how < 0.4:
        path.write_text(text[: rng.randrange(max(1, len(text)))])
    elif how < 0.8:
        data = json.loads(text)
        if isinstance(data, dict) and data:
            key = rng.choice(sorted(data))
            path.write_text(text.rstrip().rstrip("}") + f", {json.dumps(key)}: {json.dumps(rng.choice(HOSTILE))}}}")
    else:
        path.unlink()


def _manifest_damage(folder: Path, rng: random.Random) -> None:
    """The manifest's own fields: a wrong format, entries listed twice, paths that leave, hostile values."""
    path = folder / "manifest.json"
    data = _load(path)
    entries = data["vectors"]
    how = rng.random()
    if how < 0.2:
        entries.append(dict(rng.choice(entries)))
    elif how < 0.3:
        data["format"] = rng.choice(("referee-vectors/2", "", None, 1, "someone-else/1"))
    elif how < 0.45:
        rng.choice(entries)["path"] = rng.choice(("../outside.json", "/etc/passwd", "", ".", "missing.json", None, 7,
                                                  "combat", "./" + str(rng.choice(entries)["path"])))
    elif how < 0.55:
        data["vectors"] = rng.choice(([], {}, None, "x", [None], [[]]))
    else:
        data = mutate(rng, json.dumps(data))
    path.write_text(json.dumps(data))


def _vector_damage(folder: Path, rng: random.Random) -> None:
    """One vector's JSON: its scenario or expected mutated, its protocol wrong, a field gone."""
    path = rng.choice(vector_paths(folder))
    data = _load(path)
    how = rng.random()
    if how < 0.15:
        data["scenario"]["protocol"] = rng.choice(("referee/1", "referee/99", "", None, 2))
    elif how < 0.25:
        data.pop(rng.choice(("scenario", "expected")))
    elif how < 0.6:
        data["expected"] = mutate(rng, json.dumps(data["expected"]))
    else:
        data["scenario"] = mutate(rng, json.dumps(data["scenario"]))
    path.write_text(json.dumps(data))


def damage(folder: Path, rng: random.Random, outside: Path) -> list[str]:
    """Damage ``folder`` one to three ways; what was done, in words."""
    done = []
    ops: list[tuple[str, Callable[[], None]]] = [
        ("manifest fields", lambda: _manifest_damage(folder, rng)),
        ("vector fields", lambda: _vector_damage(folder, rng)),
        ("manifest text", lambda: _text_damage(folder / "manifest.json", rng)),
        ("vector text", lambda: _text_damage(rng.choice(vector_paths(folder)), rng)),
        ("manifest special", lambda: _replace_with_special(folder / "manifest.json", rng, outside)),
        ("vector special", lambda: _replace_with_special(rng.choice(vector_paths(folder)), rng, outside)),
    ]
    for _ in range(rng.randint(1, 3)):
        name, op = rng.choices(ops, weights=(4, 6, 2, 2, 1, 2))[0]
        try:
            op()
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
            break  # an earlier damage left nothing for this one to work on: the folder is damaged already
        done.append(name)
    return done


def copy_folder(base: Path, target: Path) -> Path:
    shutil.copytree(base, target, symlinks=True)
    return target


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """What a folder holds, to tell whether a damage changed anything (special files by their kind)."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "symlink:" + os.readlink(path)
        elif path.is_file():
            out[key] = path.read_bytes() if path.stat().st_size < 10_000_000 else "big"
        else:
            out[key] = "special" if path.exists() else "gone"
    return out
