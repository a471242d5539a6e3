"""The sweep of the rule texts for readings engines may take differently: which clauses were read, what was found.

Data, one TOML file per rulebook in ``specs/sweep_record/``, one ``[[clause]]`` per catalogued clause::

    [[clause]]
    id = "combat:500.2c"                 # the clause, as the catalogue names it
    words = "..."                        # the words read most closely (quoted from the seed)
    found = ["INT-001"]                  # the register entries the reading found; [] when none
    note = "..."                         # what was read, and why it does (or does not) admit two readings

:func:`load_sweep` reads and validates both files; a malformed record raises :class:`SweepError` naming the
file and the record. ``tests/test_register_sweep.py`` holds the sweep to the catalogue (every clause of both
rulebooks read once) and to the register (every entry found exists and names the clause).
``docs/generated/sweep.md`` is generated from it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from referee.model.clauses import ClauseId, ClauseIdError, parse_clause_id

#: Where the sweep's record lives.
SWEEP_DIR = Path(__file__).resolve().parent / "sweep_record"

FIELDS = ("id", "words", "found", "note")


class SweepError(ValueError):
    """A sweep file or record that is malformed; the message names the place."""


@dataclass(frozen=True)
class SweptClause:
    """One clause as the sweep read it."""

    clause: ClauseId
    words: str
    found: tuple[str, ...]
    note: str
    file: str


def _text(record: dict, where: str, name: str) -> str:
    value = record[name]
    if not isinstance(value, str) or not value.strip():
        raise SweepError(f"{where}: field {name!r} must be a non-empty string, got {value!r}")
    return " ".join(value.split())


def parse_record(record: object, where: str, file: str) -> SweptClause:
    """Validate one ``[[clause]]`` table."""
    if not isinstance(record, dict):
        raise SweepError(f"{where}: a record must be a table, got {type(record).__name__}")
    if set(record) != set(FIELDS):
        missing, unknown = sorted(set(FIELDS) - set(record)), sorted(set(record) - set(FIELDS))
        raise SweepError(f"{where}: fields must be exactly {', '.join(FIELDS)} (missing: {', '.join(missing) or '-'}; "
                         f"unknown: {', '.join(unknown) or '-'})")
    try:
        clause = parse_clause_id(_text(record, where, "id"))
    except ClauseIdError as error:
        raise SweepError(f"{where}: {error}") from None
    found = record["found"]
    if not isinstance(found, list) or not all(isinstance(f, str) and f.strip() for f in found):
        raise SweepError(f"{where} ({clause}): field 'found' must be a list of register ids ([] when none)")
    return SweptClause(clause, _text(record, where, "words"), tuple(found), _text(record, where, "note"), file)


def load_sweep_file(path: Path) -> list[SweptClause]:
    """The records of one sweep file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise SweepError(f"{path.name}: not valid TOML: {error}") from None
    if set(data) - {"clause"} or not isinstance(data.get("clause", []), list):
        raise SweepError(f"{path.name}: records go in [[clause]] tables, and nothing else")
    return [parse_record(item, f"{path.name}: record #{n}", path.name) for n, item in enumerate(data.get("clause", []), 1)]


def load_sweep(folder: Path | None = None) -> list[SweptClause]:
    """Every record of every rulebook's sweep; a clause read twice is refused naming both files."""
    folder = SWEEP_DIR if folder is None else folder
    records: list[SweptClause] = []
    seen: dict[ClauseId, str] = {}
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        for record in load_sweep_file(path):
            if record.clause in seen:
                raise SweepError(f"{path.name}: clause {record.clause} is already recorded in {seen[record.clause]}")
            seen[record.clause] = path.name
            records.append(record)
    return records
