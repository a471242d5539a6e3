"""The protocol's contract (referee/2): held against its snapshot, owned by features, cited from the code.

``specs/protocol/contract.json`` is the contract of the current version. Any difference from what
the declarations give now is a change engines would meet: it needs a new version
(``referee.wire.PROTOCOL``) and its entries in ``referee/changelog.py`` before the snapshot is
rewritten (``python -m referee.contract --write``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.changelog import CHANGELOG, older_version_message
from referee.cli.app import app
from referee.check.compare import Comparison
from referee.contract import SNAPSHOT, contract
from referee.emitters import emitters, event_clauses
from referee.model.events import EVENT_NAMES, EVENTS
from referee.protocol import ProtocolError, decode_observation, observation_schema
from referee.rulebooks.combat.codec import UNIT_FIELDS
from referee.rulebooks.combat.features import CORE, FEATURES
from referee.wire import OLDER_PROTOCOLS, PROTOCOL

ROOT = Path(__file__).resolve().parents[2]
COMBAT_EVENTS = [name for name, spec in EVENTS.items() if spec.rulebook == "combat"]


def _diff(old: dict, new: dict, where: str = "") -> list[str]:
    """The paths where two JSON values differ (the first few)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in dict.fromkeys([*old, *new]):
            out += _diff(old.get(key), new.get(key), f"{where}.{key}" if where else str(key))
        return out
    return [] if old == new else [f"{where}: {json.dumps(old)[:80]} -> {json.dumps(new)[:80]}"]


def test_the_contract_is_the_snapshot_of_its_version():
    snapshot = json.loads((ROOT / SNAPSHOT).read_text(encoding="utf-8"))
    now = contract()
    changed = _diff(snapshot, now)
    citations_only = all(".clauses:" in line for line in changed)
    assert not changed, (
        f"the protocol contract changed under {PROTOCOL} ({len(changed)} differences, first: {changed[:5]}). " + (
            "Only the clauses cited for what the model emits changed (nothing an engine sends or receives): "
            "review them, run `referee docs` and rewrite the snapshot with `python -m referee.contract --write`."
            if citations_only else
            "A change to what an engine must send or may receive needs a new version: bump PROTOCOL in "
            "referee/wire.py, write each change (old -> new) in referee/changelog.py, run `referee docs`, then "
            "rewrite the snapshot with `python -m referee.contract --write`."))
    assert snapshot["protocol"] == PROTOCOL


def test_every_unit_field_has_one_owner_and_every_combat_event_detail_one():
    owners = [n for f in (CORE, *FEATURES.values()) for n in f.fields]
    assert sorted(owners) == sorted(UNIT_FIELDS), "each unit field belongs to exactly one feature"
    keys = [k for f in (CORE, *FEATURES.values()) for k in f.events]
    assert len(keys) == len(set(keys))
    for name in COMBAT_EVENTS:
        words = EVENTS[name].detail or (None,)
        for word in words:
            owning = [k for k in keys if k == name or k == f"{name}:{word}"]
            assert len(owning) == 1, f"{name} (detail {word}): owned by {owning}"
    assert all(k.split(":")[0] in COMBAT_EVENTS for k in keys)


def test_the_core_is_the_damage_pipeline_alone():
    assert set(CORE.fields) == {"uid", "side", "row", "col", "alive", "vitality", "max_vitality"}
    assert set(CORE.events) == {"damage_taken", "vitality_lost", "death"}


def test_every_combat_event_is_emitted_by_tagged_model_code():
    found = emitters()
    for name in COMBAT_EVENTS:
        assert found.get(name), f"no model function emits {name}"
        untagged = [function for function, ids in found[name] if not ids]
        assert not untagged, f"{name} is emitted by {untagged}, which name no clause (combat.implements)"


def test_ignore_charge_spent_cites_the_charge_clause_not_the_cap():
    assert event_clauses()["ignore_charge_spent"] == ("combat:500.1-4",)
    assert "500.1-4" in contract()["events"]["ignore_charge_spent"]["clauses"][0]


def test_no_clause_is_typed_in_an_event_declaration():
    number = re.compile(r"\b[1-8]\d\d\.\d+(-\d+|[a-z])?\b")
    for name in COMBAT_EVENTS:
        spec = EVENTS[name]
        for text in (spec.summary, spec.emitted_when, spec.unit, spec.amount, spec.other, spec.detail_meaning):
            assert not number.search(text or ""), f"{name}: a typed clause in {text!r} (the table cites the code's)"


def test_an_engine_answering_referee_1_is_told_what_changed():
    with pytest.raises(ProtocolError) as error:
        decode_observation({"protocol": "referee/1", "board": [], "events": []})
    message = str(error.value)
    assert message.startswith("observation.protocol: the engine speaks 'referee/1', this referee 'referee/2'")
    for subject in ("insurance_prevented: other", "shield_damaged: other", "shield_broken: other", "defy_death: other",
                    "vessel_batch", "everlasting_scheduled", "stagger", "phasebreak_check", "unit field charge"):
        assert subject in message
    assert "docs/protocol-changelog.md" in message
    assert OLDER_PROTOCOLS == ("referee/1",) and message == "observation.protocol: " + older_version_message(
        "referee/1", PROTOCOL)


def test_another_unknown_version_is_the_plain_error():
    with pytest.raises(ProtocolError, match=r"expected 'referee/2', got \"referee/9\""):
        decode_observation({"protocol": "referee/9", "board": [], "events": []})


def test_the_changelog_covers_the_current_version_and_its_page_lists_it():
    assert PROTOCOL in CHANGELOG and CHANGELOG[PROTOCOL]
    page = (ROOT / "docs" / "protocol-changelog.md").read_text(encoding="utf-8")
    for change in CHANGELOG[PROTOCOL]:
        assert change.subject.replace("|", "\\|") in page


def test_every_unit_field_has_a_description_in_the_schema():
    unit = observation_schema()["$defs"]["unit"]["properties"]
    assert set(unit) == set(UNIT_FIELDS)
    missing = [name for name, prop in unit.items() if not prop.get("description")]
    assert not missing


def test_each_event_schema_cites_its_emitters_clauses():
    branches = observation_schema()["$defs"]["event"]["allOf"]
    described = {b["then"]["title"]: b["then"]["description"] for b in branches}
    assert described["ignore_charge_spent"].endswith("(combat:500.1-4)")


def test_events_minus_a_name_leaves_that_one_out():
    how = Comparison.from_options(events="-vessel_batch")
    assert how.events == frozenset(EVENT_NAMES) - {"vessel_batch"}
    with pytest.raises(ValueError, match="not both"):
        Comparison.from_options(events="-vessel_batch,death")
    with pytest.raises(ValueError, match="unknown event name"):
        Comparison.from_options(events="-nope")


def test_referee_features_lists_fields_events_and_clauses_of_each():
    result = CliRunner().invoke(app, ["features", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert rows["core"]["always_on"] and rows["core"]["events"] == ["damage_taken", "vitality_lost", "death"]
    assert rows["charge"]["fields"] == ["charge"] and rows["armor_change"]["fields"] == ["armor_change"]
    assert rows["vessel_batch"]["events"] == ["vessel_batch"]
    assert all(row["clauses"] for row in rows.values())


def test_every_clause_a_field_description_cites_is_in_the_catalogue():
    import tomllib

    from referee.rulebooks.combat.field_notes import FIELD_DESCRIPTIONS

    catalogue = tomllib.loads((ROOT / "specs" / "catalogue_combat.toml").read_text(encoding="utf-8"))
    known = {clause["id"] for clause in catalogue["clause"]}
    cited = {m.group(0) for text in FIELD_DESCRIPTIONS.values()
             for m in re.finditer(r"\b[1-8]\d\d\.\d+(-\d+|[a-z])?\b", text)}
    assert cited and cited <= known, sorted(cited - known)
