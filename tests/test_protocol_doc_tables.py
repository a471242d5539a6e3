"""``docs/protocol.md``'s ruleset table and a Subrogation payback's refusal order, held to the model.

The tables are generated regions (``referee docs``); these tests read the page as a person does and hold it to
the declarations themselves (the dataclass fields, a model run), not to the renderer that wrote it.
"""

from __future__ import annotations

import itertools
import re
import typing
from dataclasses import fields
from pathlib import Path

import pytest

from referee.model.combat.ruleset import Ruleset
from referee.model.play.rules import PlayRules
from referee.rulebooks import RULEBOOKS
from referee.specs.register import load_register

PROTOCOL = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def region_rows(name: str) -> list[list[str]]:
    """The cells of each body row of the table in the generated region ``name`` (header and rule dropped)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    key = re.escape(name)
    found = re.search(rf"<!-- begin generated: {key} .*?-->\n(.*?)<!-- end generated: {key} -->", text, re.S)
    assert found, f"docs/protocol.md has no generated region {name!r}"
    lines = [line for line in found.group(1).splitlines() if line.startswith("|")][2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def _code(cell: str) -> list[str]:
    return re.findall(r"`([^`]*)`", cell)


def test_the_ruleset_table_lists_every_option_of_both_rulebooks_with_its_default():
    rows = {_code(row[0])[0]: row for row in region_rows("ruleset")}
    declared = {f.name: f.default for cls in (Ruleset, PlayRules) for f in fields(cls)}
    assert set(rows) == set(declared)  # zero_maximum_revival was once left out
    for name, default in declared.items():
        assert _code(rows[name][2]) == [str(default)], rows[name]


@pytest.mark.parametrize("cls", [Ruleset, PlayRules])
def test_the_ruleset_table_gives_every_other_reading(cls):
    rows = {_code(row[0])[0]: row for row in region_rows("ruleset")}
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        readings = typing.get_args(hints[f.name])
        if readings:
            assert _code(rows[f.name][3]) == [r for r in readings if r != f.default], rows[f.name]
        else:  # defy_death_leaves: an integer
            assert rows[f.name][3] == "any integer >= 1"


def test_every_ruleset_option_names_its_register_entry():
    by_option = {entry.option: entry.id for entry in load_register() if entry.option}
    rows = region_rows("ruleset")
    assert rows and all(row[4] == by_option[_code(row[0])[0]] for row in rows), rows


def _payback(source: dict) -> list[tuple]:
    """A Burn tick the enemy ``b`` applied on ``a``'s Subrogated Insurance: the payback's events (``b`` pays)."""
    board = [{"uid": "a", "subrogated": 2}, {"uid": "b", "side": 1, "col": 1, "is_tool": True, **source}]
    tick = {"kind": "tick", "target": "a", "amount": 5, "appliers": [{"unit": "b", "applied": 5}]}
    _, events, _ = RULEBOOKS["combat"].observe({"protocol": "referee/2", "board": board, "actions": [tick]})
    return [(e.name, e.detail) for e in events if e.unit == "b" and e.name in ("cost_refused", "subrogation")]


STATES = {"dead": {"alive": False, "vitality": 0}, "entrapped": {"entrapped": True}, "dormant": {"dormant": True}}


def test_the_payback_refusal_table_is_the_order_the_model_refuses_a_source_in():
    """Each combination of reasons, the source a Tool too (a dead Tool: ``dead`` first): the first in the page's
    order is the one reported, and a Tool with none of them is not refused."""
    (row,) = region_rows("payback-refusals")
    order = _code(row[2])
    assert row[0] == "`cost_refused`" and sorted(order) == sorted(STATES)
    for size in range(1, len(order) + 1):
        for held in itertools.combinations(order, size):
            source = {key: value for reason in held for key, value in STATES[reason].items()}
            assert _payback(source) == [("cost_refused", held[0])], held
    assert _payback({}) == []  # a living Tool pays a price of 0: no refusal, no payback event
