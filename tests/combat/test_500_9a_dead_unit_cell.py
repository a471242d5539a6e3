"""INT-403 as a ruleset option: does a dead unit hold its last cell against an Everlasting revival (500.9a)?

500.9a: Everlasting "searches the dying unit's own board half for a free slot, and retries on later ticks while none
is open". ``dead_unit_cell = freed`` (the default): a slot is free when no other *living* unit stands in it; a dead
unit keeps its last cell as a record only. ``held``: a dead unit keeps holding its cell until it revives or the battle
ends, so the search passes over it as over a living unit's. Phylactery (500.9b) searches for nothing and is not
concerned. Each board below has a half of 1 row x 2 columns (the ``advance`` action's ``rows`` and ``cols``), a unit
``d`` lying dead on side 0 from the start (no revival of its own), the Everlasting unit ``x`` culled at 0 ms by the
enemy ``k``, and time moved on 10,000 ms: ``x``'s first try is then (500.4d, 500.9a). The expectations are derived by
hand from those words.
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

OPTION = "dead_unit_cell"
READINGS = ("freed", "held")


def _unit(uid: str, side: int, row: int, col: int, **fields: object) -> dict:
    return {"uid": uid, "side": side, "row": row, "col": col, "vitality": 10, "max_vitality": 10, **fields}


def _scenario(reading: str, x_cell: tuple[int, int], *, order: str = "death_cell_first", filler: bool = False) -> dict:
    """``d`` dead at (0,0,0); ``x`` (Everlasting) at ``x_cell`` on side 0; a living ``f`` at (0,0,1) when ``filler``."""
    board = [_unit("d", 0, 0, 0, alive=False, vitality=0), _unit("x", 0, *x_cell, everlasting=True),
             _unit("k", 1, 0, 0)]
    if filler:
        board.append(_unit("f", 0, 0, 1))
    actions = [{"kind": "cull", "target": "x", "source": "k"}, {"kind": "advance", "ms": 10_000, "rows": 1, "cols": 2}]
    ruleset = {OPTION: reading, "everlasting_slot_order": order}
    return {"protocol": PROTOCOL, "ruleset": ruleset, "board": board, "actions": actions}


def _run(scenario: dict) -> tuple[dict, list]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    x = state.unit("x")
    clock = [(e.name, e.amount, e.other, e.detail) for e in events
             if e.name in ("everlasting_revival", "everlasting_delayed")]
    return {"alive": x.alive, "cell": x.position}, clock


@covers("combat:500.9a")
def test_freed_a_reading_order_revival_takes_the_cell_a_dead_unit_lies_in():
    """reading_order, ``x`` at (0,0,1): the half's cells in reading order are (0,0,0), (0,0,1); ``d`` is dead, so
    under freed (0,0,0) is free and comes first: ``x`` returns there at 10,000 ms, with its killer ``k``."""
    x, clock = _run(_scenario("freed", (0, 1), order="reading_order"))
    assert x == {"alive": True, "cell": (0, 0, 0)} and clock == [("everlasting_revival", 10_000, "k", "0,0,0")]


@covers("combat:500.9a")
def test_held_a_reading_order_revival_passes_over_the_dead_unit_s_cell():
    """The same board under held: ``d`` holds (0,0,0) though dead, so the first free cell is (0,0,1), ``x``'s own
    (its own cell is never held against it)."""
    x, clock = _run(_scenario("held", (0, 1), order="reading_order"))
    assert x == {"alive": True, "cell": (0, 0, 1)} and clock == [("everlasting_revival", 10_000, "k", "0,0,1")]


@covers("combat:500.9a")
def test_freed_a_half_whose_one_open_cell_a_dead_unit_lies_in_is_not_full():
    """reading_order, ``x`` at (0,1,0) (row 1, outside the 1-row half), ``f`` alive at (0,0,1): of the half's two
    cells only (0,0,0) is not a living unit's, and ``d`` is dead there: free under freed, so ``x`` revives in it."""
    x, clock = _run(_scenario("freed", (1, 0), order="reading_order", filler=True))
    assert x == {"alive": True, "cell": (0, 0, 0)} and clock == [("everlasting_revival", 10_000, "k", "0,0,0")]


@covers("combat:500.9a")
def test_held_a_dead_unit_s_cell_fills_the_half_and_the_try_waits():
    """The same board under held: (0,0,0) is ``d``'s and (0,0,1) is ``f``'s, so the half is full; the try at 10,000 ms
    finds no slot and retries on the first tick strictly after it, 10,100 ms (500.9a), which the advance does not reach:
    ``x`` stays dead where it fell."""
    x, clock = _run(_scenario("held", (1, 0), order="reading_order", filler=True))
    assert x == {"alive": False, "cell": (0, 1, 0)} and clock == [("everlasting_delayed", 10_100, None, None)]


@covers("combat:500.9a")
@pytest.mark.parametrize(("reading", "cell"), [("freed", (0, 0, 0)), ("held", (0, 0, 1))])
def test_under_death_cell_first_a_cell_of_death_a_dead_unit_lies_in_is_free_only_when_freed(reading, cell):
    """The default slot order, ``x`` alive at (0,0,0), the cell ``d`` lies dead in (a dead unit holds no cell on the
    scenario's board, so the two may share it): under freed ``x``'s cell of death is free and it returns there
    (INT-404); under held ``d`` holds it, and the first free slot in reading order is (0,0,1)."""
    x, clock = _run(_scenario(reading, (0, 0)))
    assert x == {"alive": True, "cell": cell}
    assert clock == [("everlasting_revival", 10_000, "k", ",".join(map(str, cell)))]


@covers("combat:500.9a")
@pytest.mark.parametrize("reading", READINGS)
def test_a_dead_unit_elsewhere_leaves_the_cell_of_death_free_under_either_reading(reading):
    """The default slot order, ``x`` at (0,0,1): nobody else is in its cell of death, so it returns there (INT-404)."""
    x, clock = _run(_scenario(reading, (0, 1)))
    assert x == {"alive": True, "cell": (0, 0, 1)} and clock == [("everlasting_revival", 10_000, "k", "0,0,1")]


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize(("x_cell", "order", "filler"), [((0, 1), "reading_order", False),
                                                         ((1, 0), "reading_order", True),
                                                         ((0, 0), "death_cell_first", False)])
def test_the_example_engine_reads_the_option_as_the_model_does(reading, x_cell, order, filler):
    scenario = _scenario(reading, x_cell, order=order, filler=filler)
    assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)
