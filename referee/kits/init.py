"""Write an engine kit: the skeleton engine, its generated protocol types, its native vector runner, a
``referee.toml`` declaring it, a CI workflow and a README (``referee init``).

Each language's kit is the folder ``referee/kits/<language>/`` of this package. A file whose name ends in
``.tmpl`` is rendered by Jinja2 (the suffix dropped) with the engine's ``name``, the ``protocol`` and the
``referee_version``; every other file is copied byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .. import __version__
from ..protocol import PROTOCOL

LANGUAGES = ("python", "typescript", "rust")
TEMPLATE_SUFFIX = ".tmpl"
#: What ``init`` never copies out of a kit's folder (build output, caches).
SKIPPED_PARTS = frozenset({"__pycache__", "node_modules", "target", "dist", ".pytest_cache"})
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,62}")


class KitError(ValueError):
    """A kit that cannot be written: the message names the language, the name or the folder."""


@dataclass(frozen=True)
class KitFile:
    """One file of a kit: its path inside the written folder and its bytes."""

    path: str
    data: bytes


def engine_name(folder: Path, given: str | None = None) -> str:
    """The engine's name: ``given``, else the folder's base name, lower-cased with ``-`` for anything else."""
    name = given if given is not None else re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-")
    if not _NAME.fullmatch(name or ""):
        raise KitError(f"engine name {name!r}: use a lower-case letter, then letters, digits, - or _ "
                       "(at most 63; --name NAME)")
    return name


def kit_files(language: str, name: str) -> list[KitFile]:
    """Every file of ``language``'s kit, rendered for the engine ``name``, in path order."""
    if language not in LANGUAGES:
        raise KitError(f"--language {language!r}: not one of {', '.join(LANGUAGES)}")
    root = resources.files("referee.kits") / language
    return sorted((_render(path, relative, name) for relative, path in _walk(root, "")), key=lambda f: f.path)


def _walk(folder, prefix: str):
    """``(relative path, resource)`` of every file below ``folder``, skipping build output and caches."""
    for entry in folder.iterdir():
        if entry.name in SKIPPED_PARTS:
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _walk(entry, relative + "/")
        else:
            yield relative, entry


def _render(resource, relative: str, name: str) -> KitFile:
    """One kit file: a ``.tmpl`` rendered (suffix dropped), any other copied as it is."""
    data = resource.read_bytes()
    if not relative.endswith(TEMPLATE_SUFFIX):
        return KitFile(relative, data)
    import jinja2

    template = jinja2.Environment(keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                                  autoescape=False).from_string(data.decode("utf-8"))
    text = template.render(name=name, protocol=PROTOCOL, referee_version=__version__)
    return KitFile(relative[: -len(TEMPLATE_SUFFIX)], text.encode("utf-8"))


def write_kit(language: str, folder: Path, name: str | None = None, force: bool = False) -> list[Path]:
    """Write ``language``'s kit into ``folder`` (created); refuse to overwrite a file unless ``force``.
    Returns the paths written."""
    files = kit_files(language, engine_name(folder, name))
    clashes = [f.path for f in files if (folder / f.path).exists()]
    if clashes and not force:
        more = f" and {len(clashes) - 5} more" if len(clashes) > 5 else ""
        raise KitError(f"{folder}: already holds {', '.join(clashes[:5])}{more}; not overwriting (--force)")
    written = []
    for item in files:
        target = folder / item.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.data)
        written.append(target)
    return written
