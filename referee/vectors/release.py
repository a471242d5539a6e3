"""A vector release: an export filed under a name that says which rules it holds, with its receipt (``release.json``).

``referee vectors export DIR --release`` writes the export into ``DIR/<name>/``, where ``<name>`` is
``referee-2_rules-<rules version>`` (the protocol without its ``/``, then :func:`rules_version`), followed by
``_profile-<8 hex>`` when the export declared kinds, features, ``without``, ``only`` or readings (the digest of that
declaration, :func:`profile_digest`). Beside ``manifest.json`` and the vector files it writes ``release.json``
(format :data:`RELEASE_FORMAT`): the SHA-256 of ``manifest.json`` and of every vector file, what the declaration
leaves out of the comparison (``compared``), what leaving out each feature would add to it (``features``), and the
declaration itself. ``referee vectors check-release DIR`` verifies it (:func:`check_release`): the first step of
every native vector runner, in Python. Documented in ``docs/protocol.md`` ("Releases, tags and expected failures").
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__, rulebooks
from ..protocol import PROTOCOL
from .files import VectorFileError, inside, read_json

RELEASE_FORMAT = "referee-vectors-release/1"
RELEASE_FILE = "release.json"


def _canonical(value: Any) -> bytes:
    """A JSON value as canonical bytes: keys sorted, no spaces, ASCII (what every digest here is taken over)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("ascii")


def rules_document() -> dict[str, Any]:
    """What the rules version is the digest of: the SHA-256 of each clause catalogue file
    (``catalogue_<rulebook>.toml`` of ``referee.specs``, read through the installed package) and the model's default
    readings of every rulebook (``{"combat": {"negative_armor": "mirror", ...}, "play": {...}}``)."""
    specs = resources.files("referee.specs")
    catalogue = {f"catalogue_{name}.toml": hashlib.sha256(specs.joinpath(f"catalogue_{name}.toml").read_bytes())
                 .hexdigest() for name in sorted(rulebooks.RULEBOOKS)}
    ruleset = {name: book.rules_to_json(book.rules_from_options({})) for name, book in rulebooks.RULEBOOKS.items()}
    return {"catalogue": catalogue, "ruleset": ruleset}


def rules_version() -> str:
    """The rules version: the first 12 hex digits of the SHA-256 of :func:`rules_document` written as canonical JSON
    (keys sorted, separators ``,`` and ``:`` without spaces, ASCII). It changes exactly when a clause catalogue file
    (``specs/catalogue_combat.toml``, ``specs/catalogue_play.toml``: the clauses and their summaries) or a default
    reading of the model changes, so one release name means one set of rules."""
    return hashlib.sha256(_canonical(rules_document())).hexdigest()[:12]


def declaration_of(kinds: list[str] | None, features: list[str] | None, without: list[str] | None,
                   only: str | None, ruleset: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An export's declaration as ``release.json`` records it: the kinds and features it was limited to (None: all),
    the features it left out, its ``--only`` template prefix and the readings it fixed (``ruleset``: option to value,
    from ``referee.vectors.readings.declared_readings``), lists sorted."""
    return {"kinds": None if kinds is None else sorted(set(kinds)),
            "features": None if features is None else sorted(set(features)),
            "without": sorted(set(without or ())), "only": only,
            "ruleset": dict(sorted((o, v) for options in ruleset.values() for o, v in options.items()))}


def profile_digest(declaration: dict[str, Any]) -> str | None:
    """The first 8 hex digits of the SHA-256 of the declaration as canonical JSON; None when it declares nothing
    (every kind and feature, nothing left out, no ``--only``, no readings)."""
    empty = {"kinds": None, "features": None, "without": [], "only": None, "ruleset": {}}
    if declaration == empty:
        return None
    return hashlib.sha256(_canonical(declaration)).hexdigest()[:8]


def release_name(declaration: dict[str, Any]) -> str:
    """``referee-2_rules-<rules version>``, plus ``_profile-<8 hex>`` when the export declared a profile."""
    profile = profile_digest(declaration)
    return f"{PROTOCOL.replace('/', '-')}_rules-{rules_version()}" + (f"_profile-{profile}" if profile else "")


def _off(features: frozenset[str]) -> tuple[set[str], set[str]]:
    fields, events = rulebooks.profile_off(features)
    return set(fields), set(events)


def compared_of(declaration: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, dict[str, list[str]]]]:
    """``release.json``'s ``compared`` (the unit fields and event keys the declared features leave out of the
    comparison, ``referee.rulebooks.profile_off``) and ``features`` (for every feature, what leaving it out too
    would add to ``compared``: nothing for a feature left out already)."""
    kept = rulebooks.resolve_features(declaration["features"], declaration["without"])
    everything = frozenset(rulebooks.all_features())
    kept = everything if kept is None else kept
    fields, events = _off(kept)
    effects = {}
    for name in sorted(everything):
        more_fields, more_events = _off(kept - {name})
        effects[name] = {"fields_off": sorted(more_fields - fields), "events_off": sorted(more_events - events)}
    return {"fields_off": sorted(fields), "events_off": sorted(events)}, effects


def file_digests(folder: Path, manifest: dict[str, Any]) -> dict[str, str]:
    """The SHA-256 (lower-case hex) of the exact bytes of ``manifest.json`` and of every vector file it lists."""
    paths = ["manifest.json", *(entry["path"] for entry in manifest["vectors"])]
    return {path: hashlib.sha256((folder / path).read_bytes()).hexdigest() for path in sorted(paths)}


def write_release(folder: Path, manifest: dict[str, Any], declaration: dict[str, Any]) -> dict[str, Any]:
    """Write ``folder/release.json`` for the export just written there (``manifest``); return it."""
    compared, effects = compared_of(declaration)
    release = {"format": RELEASE_FORMAT, "name": release_name(declaration), "protocol": PROTOCOL,
               "rules": rules_version(), "referee": __version__, "declaration": declaration, "compared": compared,
               "features": effects, "files": file_digests(folder, manifest)}
    (folder / RELEASE_FILE).write_text(json.dumps(release, indent=1) + "\n")
    return release


def check_release_destination(folder: Path) -> None:
    """Refuse (a :class:`VectorFileError`) to export into a folder whose ``release.json`` is not a vector release's
    (an export there with a release.json is re-exported in place)."""
    path = folder / RELEASE_FILE
    if not os.path.lexists(path):
        return
    try:
        ours = read_json(path).get("format") == RELEASE_FORMAT
    except (VectorFileError, AttributeError):
        ours = False
    if not ours:
        raise VectorFileError(f"{path}: exists and is not a referee vectors release; not overwriting it")


def other_releases(parent: Path, name: str) -> list[str]:
    """The release folders beside ``name`` in ``parent`` (a native runner pointed at ``parent`` needs exactly one)."""
    return sorted(p.name for p in parent.iterdir() if p.name != name and (p / RELEASE_FILE).is_file())


def find_release(folder: Path) -> Path:
    """The release folder ``folder`` names: itself when it holds ``release.json``, else its one sub-folder that does;
    anything else is a :class:`VectorFileError` naming it (as every native runner refuses it)."""
    if os.path.lexists(folder / RELEASE_FILE):
        return folder
    if not folder.is_dir():
        raise VectorFileError(f"{folder}: not a folder (name a vector release folder, or the folder holding one)")
    found = sorted(p for p in folder.iterdir() if p.is_dir() and (p / RELEASE_FILE).is_file())
    if len(found) != 1:
        which = f" ({', '.join(p.name for p in found)})" if found else ""
        raise VectorFileError(f"{folder}: holds no {RELEASE_FILE}, and {len(found)} sub-folders holding one{which}, "
                              "not exactly one (write one with `referee vectors export DIR --release`)")
    return found[0]


def read_release(folder: Path) -> dict[str, Any]:
    """``folder/release.json``, checked: a JSON object of :data:`RELEASE_FORMAT` whose ``files`` map paths to hex
    digests; a :class:`VectorFileError` naming the file otherwise."""
    path = folder / RELEASE_FILE
    release = read_json(path)
    if not isinstance(release, dict) or release.get("format") != RELEASE_FORMAT:
        shown = release.get("format") if isinstance(release, dict) else None
        raise VectorFileError(f"{path}: format {shown!r:.60}, expected {RELEASE_FORMAT!r}: not a referee vectors "
                              "release (export one with `referee vectors export DIR --release`)")
    files = release.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise VectorFileError(f"{path}: \"files\" must be an object of paths to SHA-256 digests")
    return release


def _files_on_disk(folder: Path) -> set[str]:
    """Every file below ``folder`` but ``release.json``, as a relative POSIX path."""
    out = set()
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in names:
            out.add((Path(root) / name).relative_to(folder).as_posix())
    return out - {RELEASE_FILE}


def _digest_problem(folder: Path, path: str, digest: str) -> str | None:
    """What is wrong with one file ``release.json`` lists (None: its bytes have the digest listed)."""
    from .suite import sha256_of

    try:
        target = inside(folder, path, str(folder / RELEASE_FILE))
    except VectorFileError as error:
        return str(error)
    if not os.path.lexists(target):
        return f"{path}: listed in {RELEASE_FILE}, not in the folder"
    if sha256_of(target) != digest:
        return f"{path}: its SHA-256 is not {RELEASE_FILE}'s (the file changed since the export)"
    return None


def _unlisted_vectors(folder: Path, files: dict[str, str]) -> list[str]:
    """The vectors ``manifest.json`` lists that ``release.json`` does not (or why the manifest cannot be read)."""
    try:
        manifest = read_json(folder / "manifest.json")
    except VectorFileError as error:
        return [str(error)]
    entries = manifest.get("vectors") if isinstance(manifest, dict) else None
    if not isinstance(entries, list):
        return [f"{folder / 'manifest.json'}: \"vectors\" must be a list of entries"]
    paths = [e.get("path") if isinstance(e, dict) else None for e in entries]
    return [f"{p}: a vector manifest.json lists and {RELEASE_FILE} does not" for p in paths if p not in files]


def check_release(folder: Path) -> list[str]:
    """What keeps a release folder from being the release its ``release.json`` describes (empty: nothing): another
    protocol, a listed file missing or whose SHA-256 differs, a file the release does not list, ``manifest.json``
    unlisted, and a vector the manifest lists that the release does not. A ``release.json`` that cannot be read, or
    is not a release's, is a :class:`VectorFileError`."""
    release = read_release(folder)
    files: dict[str, str] = release["files"]
    problems = []
    if release.get("protocol") != PROTOCOL:
        problems.append(f"{RELEASE_FILE}: protocol {release.get('protocol')!r:.60}, expected {PROTOCOL!r}")
    if "manifest.json" not in files:
        problems.append(f"manifest.json: not listed in {RELEASE_FILE}")
    problems += [p for path, digest in sorted(files.items()) if (p := _digest_problem(folder, path, digest))]
    problems += [f"{path}: a file {RELEASE_FILE} does not list" for path in sorted(_files_on_disk(folder) - set(files))]
    if os.path.isfile(folder / "manifest.json"):
        problems += _unlisted_vectors(folder, files)
    return problems
