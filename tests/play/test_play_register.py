"""The play interpretation register (specs/interpretations/play.toml) and the play guide (docs/play.md) against the code."""

from __future__ import annotations

import inspect
import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

import referee.proofs.play.action_theorems  # noqa: F401  (registers the theorems)
import referee.proofs.play.cost_theorems  # noqa: F401
import referee.proofs.play.order  # noqa: F401
import referee.proofs.play.process_theorems  # noqa: F401
from referee.model.clauses import parse_clause_id
from referee.model.play.rules import PlayRules
from referee.proofs.core import THEOREMS

ROOT = Path(__file__).resolve().parents[2]
REGISTER = ROOT / "specs" / "interpretations" / "play.toml"
GUIDE = ROOT / "docs" / "play.md"
PLAY_IDS = (
    "164.2.a", "164.2.b", "202", "203", "203.1", "203.3", "350.1", "354", "355.1.a", "355.2",
    "356.2", "356.3", "356.4", "356.4.c", "356.6", "356.7", "357.1", "357.1.a", "357.2", "358.2",
    "358.5", "359.2.c", "399", "403.1.a", "414.1.b", "414.4", "414.5", "416.3", "444.2.a",
)  # fmt: skip


def entries() -> list[dict]:
    return tomllib.loads(REGISTER.read_text())["entry"]


def test_register_entries_are_complete_and_numbered_in_order():
    ids = [e["id"] for e in entries()]
    assert ids == [f"PLAY-{n:03d}" for n in range(1, len(ids) + 1)]
    for e in entries():
        for key in ("clauses", "question", "readings", "default", "why"):
            assert e.get(key), (e["id"], key)
        for clause in e["clauses"]:
            parsed = parse_clause_id(clause)
            assert parsed.rulebook == "play" and parsed.number in PLAY_IDS, (e["id"], clause)


def test_every_play_option_cites_an_entry_that_names_it_and_states_its_default():
    """Each ``PlayRules`` field's comment cites its entry (``#: PLAY-003 (...)``), and the entry names the option."""
    source = inspect.getsource(PlayRules)
    cited = dict((field, entry) for entry, field in re.findall(r"#: (PLAY-\d{3}) .*\n\s+(\w+):", source))
    register = {e["id"]: e for e in entries()}
    for f in fields(PlayRules):
        entry = register[cited[f.name]]
        assert f"PlayRules.{f.name}" in entry["why"], entry["id"]
        assert entry["default"].startswith(str(f.default)), entry["id"]
        assert entry.get("option") == f.name, f"{entry['id']} must name its selectable option {f.name!r}"


def test_every_register_entry_cited_in_code_exists_and_every_entry_is_cited():
    cited = set()
    for folder in ("model/play", "proofs/play"):
        for path in (ROOT / folder).glob("*.py"):
            cited |= set(re.findall(r"PLAY-\d{3}", path.read_text()))
    ids = {e["id"] for e in entries()}
    assert cited <= ids, cited - ids
    assert ids <= cited | set(re.findall(r"PLAY-\d{3}", GUIDE.read_text())), ids - cited


@pytest.mark.parametrize("number", PLAY_IDS)
def test_guide_documents_every_play_rule(number):
    assert f"play:{number}" in GUIDE.read_text() or f"`{number}`" in GUIDE.read_text()


def test_guide_names_every_play_theorem():
    text = GUIDE.read_text()
    for thm in THEOREMS.values():
        if thm.module.startswith("referee.proofs.play"):
            assert f"`{thm.name}`" in text, thm.name
