"""The sweep of the rule texts and the register's stance on every entry (issue #44).

The sweep (``specs/sweep_record/``) must have read every clause of both rulebooks once, and every entry it found
must be in the register, and every entry must be found by some clause. Every register entry says whether engines may differ
and whether it shows; where both hold it names an option (built, or owed until it is), and where either fails it
says why none is needed. An owed option is not a field of either ruleset (else it is built and must be named so).
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from referee.model.combat.ruleset import Ruleset
from referee.model.play.rules import PlayRules
from referee.specs import catalogue as cat
from referee.specs.register import RegisterError, load_register, load_register_file
from referee.specs.sweep import SweepError, load_sweep, load_sweep_file

ROOT = Path(__file__).resolve().parent.parent


def test_the_sweep_read_every_catalogued_clause_of_both_rulebooks_once():
    read = [record.clause for record in load_sweep()]
    assert len(read) == len(set(read))
    assert set(read) == set(cat.load_catalogue()), (
        f"not read: {sorted(map(str, set(cat.load_catalogue()) - set(read)))}; "
        f"not catalogued: {sorted(map(str, set(read) - set(cat.load_catalogue())))}")


def test_every_entry_the_sweep_found_is_in_the_register():
    """A record names each entry its clause's words bear on; the entry itself lists the clauses it decides (500.1-5,
    the pipeline's Armor step, bears on INT-001, which decides 500.2a-d)."""
    register = {entry.id for entry in load_register()}
    for record in load_sweep():
        unknown = [found for found in record.found if found not in register]
        assert not unknown, f"{record.file}: {record.clause} found {unknown}, not in specs/interpretations/"


def test_every_register_entry_is_found_by_the_sweep_of_one_of_its_clauses():
    found = {entry for record in load_sweep() for entry in record.found}
    missing = [entry.id for entry in load_register() if entry.id not in found]
    assert not missing, f"register entries no clause of the sweep found: {missing}"


def _ruleset_fields() -> set[str]:
    return {f.name for f in fields(Ruleset)} | {f.name for f in fields(PlayRules)}


def test_every_entry_engines_may_differ_on_that_shows_names_an_option_built_or_owed():
    for entry in load_register():
        if entry.differ and entry.observable:
            assert (entry.option is None) != (entry.owed_option is None), entry.id
        else:
            assert entry.no_option, entry.id


def test_an_owed_option_is_not_yet_a_field_of_either_ruleset():
    """Once built, the entry says ``option = ...`` (and tests/test_catalogue.py holds its default to the field's)."""
    built = _ruleset_fields()
    for entry in load_register():
        if entry.owed_option:
            assert entry.owed_option not in built, f"{entry.id}: {entry.owed_option} is built: say option = ..."


def test_owed_options_have_distinct_names():
    owed = [entry.owed_option for entry in load_register() if entry.owed_option]
    assert len(owed) == len(set(owed))


ENTRY = """[[entry]]
id = "INT-900"
clauses = ["combat:500.2d"]
question = "Q?"
readings = ["a: one", "b: two"]
default = "a"
why = "because"
differ = true
observable = true
owed_option = "x"
owed_values = ["a", "b"]
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("differ = true\n", ""), "missing field(s) differ"),
        (("differ = true", 'differ = "yes"'), "'differ' must be true or false"),
        (('owed_option = "x"\nowed_values = ["a", "b"]\n', ""), "name the 'option', or the 'owed_option'"),
        (('owed_values = ["a", "b"]', 'owed_values = ["a"]'), "'owed_values' must list"),
        (("observable = true", "observable = false"), "'no_option' must say why"),
        (('owed_option = "x"', 'owed_option = "x"\nno_option = "n"'), "'no_option' is for an entry"),
        (('owed_option = "x"', 'owed_option = "x"\noption = "negative_armor"'), "'owed_option' is for an entry whose"),
    ],
)
def test_an_entry_whose_stance_is_incomplete_is_refused_naming_the_field(tmp_path, change, message):
    path = tmp_path / "combat.toml"
    path.write_text(ENTRY.replace(*change), encoding="utf-8")
    with pytest.raises(RegisterError, match=re.escape(message)) as error:
        load_register_file(path)
    assert "combat.toml" in str(error.value) and "INT-900" in str(error.value)


def test_an_entry_with_no_option_needed_loads_with_its_reason(tmp_path):
    path = tmp_path / "combat.toml"
    path.write_text(ENTRY.replace("observable = true", "observable = false").replace(
        'owed_option = "x"\nowed_values = ["a", "b"]\n', 'no_option = "the protocol carries neither"\n'))
    [entry] = load_register_file(path)
    assert (entry.observable, entry.no_option, entry.owed_option) == (False, "the protocol carries neither", None)


RECORD = """[[clause]]
id = "combat:500.2c"
words = "rounded up"
found = []
note = "clear"
"""


@pytest.mark.parametrize(("change", "message"), [
    (('found = []', 'found = "INT-001"'), "'found' must be a list"),
    (('note = "clear"\n', ""), "missing: note"),
    (('"combat:500.2c"', '"500.2c"'), "must name its rulebook"),
    (("[[clause]]", "[clause"), "not valid TOML"),
])
def test_a_malformed_sweep_record_is_refused_naming_the_file_and_the_record(tmp_path, change, message):
    path = tmp_path / "combat.toml"
    path.write_text(RECORD.replace(*change), encoding="utf-8")
    with pytest.raises(SweepError, match=re.escape(message)) as error:
        load_sweep_file(path)
    assert "combat.toml" in str(error.value)


def test_a_clause_read_twice_is_refused(tmp_path):
    (tmp_path / "a.toml").write_text(RECORD, encoding="utf-8")
    (tmp_path / "b.toml").write_text(RECORD, encoding="utf-8")
    with pytest.raises(SweepError, match="already recorded in a.toml"):
        load_sweep(tmp_path)
