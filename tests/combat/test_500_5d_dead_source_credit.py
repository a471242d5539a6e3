"""INT-355 as a ruleset option: what does a dead source receive for the damage it deals (a self-destruct's blast)?

500.5d: "A self-destruct keeps kill credit for its source even though the source is already dead when the blast
resolves." ``dead_source_credit = full`` (the default): the blast is an ordinary damage instance whose source is dead;
it is credited, feeds its Feast and names the killer, as a living source does. ``kill_only``: a dead source is credited
the kill (the death's killer) but no damage and no Feast. A Burn or Venom tick of a dead applier is INT-356's question,
not this option's. The board below: ``s`` and ``a`` on side 0 (Vitality 30), ``e`` on side 1 (Vitality 8), nobody
with Armor, Shield or Insurance. ``s`` self-destructs first: it pays its entire Vitality, 30, and dies (500.8h, 500.4a);
then its blast, a hit of 10, lands on ``e``. Each expectation is worked by hand.
"""

from __future__ import annotations

import json

import pytest

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "dead_source_credit"
READINGS = ("full", "kill_only")
SELF_DESTRUCT = {"kind": "cost", "payer": "s", "amount": 0, "cost_kind": "self_destruct", "beneficiary": None}


def _unit(uid: str, side: int, col: int, vitality: int = 30) -> dict:
    return {"uid": uid, "side": side, "row": 0, "col": col, "vitality": vitality, "max_vitality": 30}


def _scenario(reading: str, blast: dict) -> dict:
    board = [_unit("s", 0, 0), _unit("a", 0, 1), _unit("e", 1, 0, vitality=8)]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board, "actions": [SELF_DESTRUCT, blast]}


def _blast(source: str = "s", amount: int = 10, kind: str = "hit") -> dict:
    return {"kind": "damage", "source": source, "target": "e", "amount": amount, "damage_kind": kind}


def _after_the_self_destruct(scenario: dict) -> list[tuple[str, str, int, str | None]]:
    decoded = decode_scenario(scenario)
    _, events = rulebooks.get(decoded.rulebook).run(decoded)
    names = [(e.name, e.unit, e.amount, e.other) for e in events if e.name in ("credit", "feast", "death")]
    assert names[0] == ("death", "s", 0, None)  # the self-destruct: nobody is its killer
    return names[1:]


@covers("combat:500.5d", "combat:500.5a", "combat:500.8h")
def test_full_the_dead_source_is_credited_fed_and_named_the_killer():
    """The blast of 10 on ``e`` (Vitality 8): it loses its 8, all it has (500.1-13), and dies. Credit 8, Feast 8,
    the killer ``s``, dead as it is (500.5d)."""
    assert _after_the_self_destruct(_scenario("full", _blast())) == [
        ("credit", "s", 8, "e"), ("feast", "s", 8, "e"), ("death", "e", 0, "s")]


@covers("combat:500.5d", "combat:500.8h")
def test_kill_only_the_dead_source_keeps_the_kill_alone():
    """The same blast: no credit, no Feast; the death still names ``s`` its killer (500.5d's kill credit)."""
    assert _after_the_self_destruct(_scenario("kill_only", _blast())) == [("death", "e", 0, "s")]


@covers("combat:500.5d")
@pytest.mark.parametrize(("reading", "events"), [("full", [("credit", "s", 5, "e"), ("feast", "s", 5, "e")]),
                                                 ("kill_only", [])])
def test_a_blast_that_does_not_kill(reading, events):
    """A blast of 5: ``e`` loses 5 (8 -> 3) and lives; credit 5 and Feast 5, or nothing under kill_only."""
    assert _after_the_self_destruct(_scenario(reading, _blast(amount=5))) == events


@covers("combat:500.5a")
@pytest.mark.parametrize("reading", READINGS)
def test_a_living_source_is_credited_under_either_reading(reading):
    """``a``, alive, hits ``e`` for 5: credit 5, Feast 5."""
    assert _after_the_self_destruct(_scenario(reading, _blast(source="a", amount=5))) == [
        ("credit", "a", 5, "e"), ("feast", "a", 5, "e")]


@covers("combat:500.5a", "combat:500.1i")
@pytest.mark.parametrize("reading", READINGS)
def test_a_burn_tick_of_the_dead_unit_is_not_this_option_s(reading):
    """A Burn tick of 5 that ``s`` applied before it died: Burn ignores Armor (500.1d), ``e`` loses 5; it stays
    credited to ``s`` (INT-356's default) whatever this option reads."""
    assert _after_the_self_destruct(_scenario(reading, _blast(amount=5, kind="burn"))) == [
        ("credit", "s", 5, "e"), ("feast", "s", 5, "e")]


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for blast in (_blast(), _blast(amount=5), _blast(source="a", amount=5), _blast(amount=5, kind="burn")):
        scenario = _scenario(reading, blast)
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
