"""The interpretation register: the readings the model chose where the rules are silent.

Entries are data, one TOML file per chapter in ``specs/interpretations/``, each entry an
``[[entry]]`` table::

    [[entry]]
    id = "INT-001"                      # INT-nnn for combat, PLAY-nnn for play
    clauses = ["combat:500.2a", "combat:500.2d"]
    question = "How does negative Armor amplify?"
    readings = ["mirror: ...", "reciprocal: ..."]
    default = "mirror"
    why = "..."
    option = "negative_armor"           # the Ruleset field that selects the reading, when there is one
    differ = true                       # could two careful engine authors reasonably read it differently?
    observable = true                   # would the difference show in what the protocol has an engine report?
    owed_option = "name"                # differ and observable, no option yet: the option owed, and
    owed_values = ["a", "b"]            #   its readings (the default first)
    no_option = "..."                   # not (differ and observable): why no option is needed

Every entry says ``differ`` and ``observable``. Where both hold it names its ``option``, or, until the
option is built, the ``owed_option`` and its ``owed_values`` (the register never hides a plausible
difference behind a fixed reading); where either fails it says in ``no_option`` why an option would add
nothing. An entry with an option may say ``differ = false`` only with a ``no_option`` reason as well.

When ``option`` is given it names the field that selects the reading, in
``referee.model.combat.ruleset.Ruleset`` for ``INT-nnn`` entries and ``referee.model.play.rules.PlayRules``
for ``PLAY-nnn`` entries, and ``default`` starts with that field's default value (``"mirror"``,
or ``"mirror: ..."``); the field's comment cites the entry id. ``tests/test_catalogue.py`` holds the two against each other.

:func:`load_register` reads and validates every file; a malformed entry raises
:class:`RegisterError` naming the file and the entry. ``docs/interpretations.md`` is generated
from the register (``referee docs``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from referee.model.clauses import ClauseId, ClauseIdError, parse_clause_id

#: Where the register lives.
REGISTER_DIR = Path(__file__).resolve().parent / "interpretations"

REQUIRED_FIELDS = ("id", "clauses", "question", "readings", "default", "why", "differ", "observable")
OPTIONAL_FIELDS = ("option", "owed_option", "owed_values", "no_option")
_ENTRY_ID = re.compile(r"^(INT|PLAY)-\d{3}$")


class RegisterError(ValueError):
    """A register file or entry that is malformed; the message names the place."""


@dataclass(frozen=True)
class Entry:
    """One interpretation: the question, the readings, the chosen default and why."""

    id: str
    clauses: tuple[ClauseId, ...]
    question: str
    readings: tuple[str, ...]
    default: str
    why: str
    option: str | None
    file: str
    differ: bool = True
    observable: bool = True
    owed_option: str | None = None
    owed_values: tuple[str, ...] = ()
    no_option: str | None = None

    @property
    def rulebook(self) -> str:
        return "play" if self.id.startswith("PLAY-") else "combat"


def _text(value: object, where: str, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RegisterError(f"{where}: field {name!r} must be a non-empty string, got {value!r}")
    return " ".join(value.split())


def parse_entry(data: object, where: str, file: str) -> Entry:
    """Validate one ``[[entry]]`` table."""
    if not isinstance(data, dict):
        raise RegisterError(f"{where}: an entry must be a table, got {type(data).__name__}")
    if isinstance(data.get("id"), str):
        where = f"{where} ({data['id']})"
    missing = [name for name in REQUIRED_FIELDS if name not in data]
    if missing:
        raise RegisterError(f"{where}: missing field(s) {', '.join(missing)} (required: {', '.join(REQUIRED_FIELDS)})")
    unknown = sorted(set(data) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
    if unknown:
        allowed = ", ".join(REQUIRED_FIELDS + OPTIONAL_FIELDS)
        raise RegisterError(f"{where}: unknown field(s) {', '.join(unknown)} (allowed: {allowed})")
    entry_id = _text(data["id"], where, "id")
    if not _ENTRY_ID.match(entry_id):
        raise RegisterError(f"{where}: id must look like INT-001 (combat) or PLAY-001 (play)")
    clauses = data["clauses"]
    if not isinstance(clauses, list) or not clauses:
        raise RegisterError(f"{where}: field 'clauses' must be a non-empty list of clause ids")
    ids: list[ClauseId] = []
    for clause in clauses:
        if not isinstance(clause, str):
            raise RegisterError(f"{where}: clause {clause!r} must be a string such as 'combat:500.2d'")
        try:
            ids.append(parse_clause_id(clause))
        except ClauseIdError as error:
            raise RegisterError(f"{where}: {error}") from None
    readings = data["readings"]
    if not isinstance(readings, list) or not readings:
        raise RegisterError(f"{where}: field 'readings' must be a non-empty list of strings")
    option = data.get("option")
    if option is not None:
        option = _text(option, where, "option")
    stance = parse_stance(data, where, option)
    return Entry(
        id=entry_id,
        clauses=tuple(ids),
        question=_text(data["question"], where, "question"),
        readings=tuple(_text(r, where, "readings") for r in readings),
        default=_text(data["default"], where, "default"),
        why=_text(data["why"], where, "why"),
        option=option,
        file=file,
        **stance,
    )


def _flag(data: dict, where: str, name: str) -> bool:
    value = data[name]
    if not isinstance(value, bool):
        raise RegisterError(f"{where}: field {name!r} must be true or false, got {value!r}")
    return value


def parse_stance(data: dict, where: str, option: str | None) -> dict:
    """Whether engines may differ on the entry and whether it shows, and what follows: the option (built or owed)
    where both hold, the reason there is none where either fails."""
    differ, observable = _flag(data, where, "differ"), _flag(data, where, "observable")
    owed = data.get("owed_option")
    reason = data.get("no_option")
    if differ and observable:
        if option is None and owed is None:
            raise RegisterError(f"{where}: engines may differ and it shows: name the 'option', or the 'owed_option' "
                                f"and its 'owed_values' until it is built")
        if reason is not None:
            raise RegisterError(f"{where}: 'no_option' is for an entry engines cannot differ on or that does not show")
    elif reason is None:
        raise RegisterError(f"{where}: field 'no_option' must say why no option is needed (differ = {str(differ).lower()}, "
                            f"observable = {str(observable).lower()})")
    if owed is not None and option is not None:
        raise RegisterError(f"{where}: 'owed_option' is for an entry whose option is not built; it has option {option!r}")
    values = _owed_values(data, where, owed)
    return {"differ": differ, "observable": observable, "owed_option": None if owed is None else _text(owed, where, "owed_option"),
            "owed_values": values, "no_option": None if reason is None else _text(reason, where, "no_option")}


def _owed_values(data: dict, where: str, owed: object) -> tuple[str, ...]:
    values = data.get("owed_values")
    if owed is None:
        if values is not None:
            raise RegisterError(f"{where}: 'owed_values' without an 'owed_option'")
        return ()
    if not isinstance(values, list) or len(values) < 2 or not all(isinstance(v, str) and v.strip() for v in values):
        raise RegisterError(f"{where}: 'owed_values' must list the owed option's readings (two or more, the default first)")
    return tuple(values)


def load_register_file(path: Path) -> list[Entry]:
    """The entries of one register file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RegisterError(f"{path.name}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - {"entry"})
    if unknown:
        raise RegisterError(f"{path.name}: unknown top-level key(s) {', '.join(unknown)} (entries go in [[entry]] tables)")
    entries = data.get("entry", [])
    if not isinstance(entries, list):
        raise RegisterError(f"{path.name}: 'entry' must be an array of tables ([[entry]])")
    return [parse_entry(item, f"{path.name}: entry #{n}", path.name) for n, item in enumerate(entries, 1)]


def load_register(folder: Path | None = None) -> list[Entry]:
    """Every register entry, sorted by id; ids must be unique across files."""
    folder = REGISTER_DIR if folder is None else folder
    entries: list[Entry] = []
    seen: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        for entry in load_register_file(path):
            if entry.id in seen:
                raise RegisterError(f"{path.name}: entry {entry.id} is already defined in {seen[entry.id]}")
            seen[entry.id] = path.name
            entries.append(entry)
    return sorted(entries, key=lambda e: (e.id.split("-")[0] != "INT", e.id))
