"""INT-413 as a ruleset option: does an Everlasting revival a full board delayed still carry the killer (500.9k)?

500.9k: "Both causes carry the killer: ... Everlasting holds the killer's identity for the 10 seconds the unit is
down. Either way, if the killer is gone or is no longer a legal target, the clause falls back to the listener's own
Focus roll." 500.9a: the revival "retries on later ticks while none is open". ``delayed_revival_killer = kept`` (the
default): the pending revival holds the killer through every retry. ``dropped``: the identity is held for the 10
seconds only, so a revival later than its first try carries no killer, and a listener aimed at the killer falls back
to its Focus roll (its channel's other null, ``revival_focus``), as for a death with no killer (INT-405).

The board: side 0's half is 1 x 1 (the ``advance`` action's ``rows`` and ``cols``) under
``everlasting_slot_order = reading_order``, so its one slot is (0,0,0); ``f`` stands in it; the Everlasting ``x`` stands
at (0,1,0) and the listener ``l`` (an ally's revival, aimed at the killer) at (0,1,1), both outside the half; ``k``, the
killer, on side 1. ``k`` culls ``x`` at 0 ms. The expectations are derived by hand from those words.
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

OPTION = "delayed_revival_killer"
READINGS = ("kept", "dropped")
REVIVAL = ("everlasting_revival", "everlasting_delayed", "revival_ally", "revival_focus")


def _unit(uid: str, side: int, row: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": row, "col": col, "vitality": 10, "max_vitality": 10, **fields}


def _scenario(reading: str, *, full: bool = True) -> dict:
    """``x`` culled by ``k`` at 0 ms; with ``full``, ``f`` holds the one slot until ``k`` culls it at 10,000 ms."""
    board = [_unit("x", 0, 1, 0, everlasting=True),
             _unit("l", 0, 1, 1, hears_ally_revival=True, revival_aims_killer=True), _unit("k", 1, 0, 0)]
    if full:
        board.append(_unit("f", 0, 0, 0))
    clock = {"kind": "advance", "rows": 1, "cols": 1}
    actions = [{"kind": "cull", "target": "x", "source": "k"}, {**clock, "ms": 10_000}]
    if full:
        actions += [{"kind": "cull", "target": "f", "source": "k"}, {**clock, "ms": 100}]
    ruleset = {OPTION: reading, "everlasting_slot_order": "reading_order"}
    return {"protocol": PROTOCOL, "ruleset": ruleset, "board": board, "actions": actions}


def _run(scenario: dict) -> list:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    assert state.unit("x").alive and state.unit("x").position == (0, 0, 0)
    return [(e.name, e.unit, e.amount, e.other, e.detail) for e in events if e.name in REVIVAL]


@covers("combat:500.9k", "combat:500.9a", "combat:500.9j")
def test_kept_a_revival_delayed_a_tick_still_carries_its_killer():
    """The first try, at 0 + 10,000 ms (500.4d), finds the half full (``f``): delayed to the next tick, 10,100 ms. ``k``
    culls ``f`` at 10,000 ms; at 10,100 ms the retry takes (0,0,0). Under kept the pending revival still holds ``k``:
    everlasting_revival's other is ``k``, and ``l``'s listener aims at ``k``, alive and a legal target (500.9k)."""
    assert _run(_scenario("kept")) == [
        ("everlasting_delayed", "x", 10_100, None, None),
        ("everlasting_revival", "x", 10_100, "k", "0,0,0"),
        ("revival_ally", "l", 0, "k", "everlasting"),
    ]


@covers("combat:500.9k", "combat:500.9a", "combat:500.9j")
def test_dropped_a_revival_delayed_a_tick_carries_no_killer_and_the_listener_falls_back():
    """The same battle under dropped: the revival comes at 10,100 ms, 100 ms after the 10 seconds the identity is held
    for, so it carries none: everlasting_revival's other is null, and ``l``'s listener aimed at the killer falls back to
    its own Focus roll (the channel's other null, then revival_focus naming no killer) (500.9k)."""
    assert _run(_scenario("dropped")) == [
        ("everlasting_delayed", "x", 10_100, None, None),
        ("everlasting_revival", "x", 10_100, None, "0,0,0"),
        ("revival_ally", "l", 0, None, "everlasting"),
        ("revival_focus", "l", 0, None, "everlasting"),
    ]


@covers("combat:500.9k", "combat:500.9a")
@pytest.mark.parametrize("reading", READINGS)
def test_a_revival_on_time_carries_its_killer_under_either_reading(reading):
    """Without ``f`` the slot is open at the first try, 10,000 ms, exactly 10 s after the death: within the 10 seconds
    the identity is held for under either reading, so the revival carries ``k`` and ``l`` aims at it."""
    assert _run(_scenario(reading, full=False)) == [
        ("everlasting_revival", "x", 10_000, "k", "0,0,0"),
        ("revival_ally", "l", 0, "k", "everlasting"),
    ]


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("full", [True, False])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, full):
    scenario = _scenario(reading, full=full)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)


def test_a_query_honours_the_declared_reading_on_the_symbolic_clock():
    """On a full half (the query's reading-order space), the target culled by ``source`` waits, and returns only once
    ``source`` culls its ally: a delayed revival. Under kept it can carry ``source``; under dropped it never does."""
    from referee.query.run import run_query

    question = ('event("everlasting_delayed", action=1) and fourth.revived == 1 and '
                'event("everlasting_revival", action=3, unit="target", other="source")')
    actions = ("cull", "advance", "cull:target=ally,source=source", "advance")
    status = {reading: run_query(question, actions=actions, units=3, ruleset={
        "everlasting_slot_order": "reading_order", OPTION: reading}).status for reading in READINGS}
    assert status == {"kept": "found", "dropped": "impossible"}, status
