"""The battle clock's actions (500.4d, 500.9a): ``advance`` time, and ``end_combat``.

A scenario is a timeline: it starts at 0 ms, every other action happens at the current
time, and ``{"kind": "advance", "ms": 10000}`` moves time on, firing what falls due on the
way, in time order (what is due at a time fires before an action at that time). What falls
due is an Everlasting revival: a death at ``t`` tries at ``t + 10000`` ms exactly; a try
that finds no free slot on the unit's own board half retries at the first tick (100 ms,
INT-406) strictly after it (``everlasting_delayed``), while combat runs (500.9a). A half is
``rows`` x ``cols`` slots (INT-403; 2 x 4 unless the ``advance`` says otherwise); a slot is
free when no other living unit stands in it; the cell of death is tried first (INT-404,
option ``everlasting_slot_order``). ``end_combat`` stops combat: a revival still due lapses
(``everlasting_lapsed``) and never happens. A scenario without either means what it always
meant. Burn and Venom ticks are not run by the clock (the seeds give no tick rate): a
scenario states each as a ``tick`` or ``damage`` action at its time.

The model entries are :func:`~referee.model.combat.battle.advance` and
:func:`~referee.model.combat.battle.end_combat`, run by :mod:`..run` on the scenario's
:class:`~referee.model.combat.battle.Battle` (``extra["battle"]``); ``run`` on a board
alone is the same action with nothing pending.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from referee.model.combat import battle as clock
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.combat.vitality import EVERLASTING_DELAY_MS
from referee.model.events import EventLog

from ....rulebook import ActionKind, Field, check_field_range, decode_plain_fields

#: The largest half a scenario may state (rows x cols), and the largest step of time.
MAX_ROWS, MAX_COLS, MAX_MS = 8, 8, 10_000_000

ADVANCE_FIELDS = (
    Field("ms", "integer", "how many milliseconds time moves on (>= 0; a tick is 100 ms)", minimum=0, maximum=MAX_MS),
    Field("rows", "integer", f"rows of slots on each board half, for the revival slot search (1..{MAX_ROWS})",
          clock.DEFAULT_ROWS, minimum=1, maximum=MAX_ROWS),
    Field("cols", "integer", f"columns of slots on each board half (1..{MAX_COLS})", clock.DEFAULT_COLS,
          minimum=1, maximum=MAX_COLS),
)


def decode_advance(path: str, data: Any, board: Any) -> dict[str, Any]:
    """The generic field check, then the ranges: time never runs backwards, a half has at least one slot."""
    action = decode_plain_fields(path, KINDS[0], data, board)
    for f in ADVANCE_FIELDS:
        check_field_range(f"{path}.{f.name}", f, action[f.name])
    return action


def run_advance_battle(battle: clock.Battle, action: dict[str, Any], ruleset: Ruleset) -> tuple[clock.Battle, EventLog]:
    """The model: the half's geometry as stated, then time moves on, firing what falls due (500.9a)."""
    battle = replace(battle, rows=action["rows"], cols=action["cols"])
    return clock.advance(battle, action["ms"], ruleset)


def run_end_battle(battle: clock.Battle, action: dict[str, Any], ruleset: Ruleset) -> tuple[clock.Battle, EventLog]:
    """The model: combat ends; what is still due lapses (500.9a)."""
    return clock.end_combat(battle)


def _on_board(battle_run: Any) -> Any:
    def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
        battle, log = battle_run(clock.start_battle(board), action, ruleset)
        return battle.board, log

    return run


_MS_SHAPE = st.sampled_from(("due", "due", "due", "due-1", "due+1", "tick", "tick-1", "small", "plain"))
_TICKS = st.integers(1, 5)
_SMALL_MS = st.integers(0, 250)
_PLAIN_MS = st.integers(0, 30_000)
#: "held": one row as long as a side's living units hold it from its first cell, a half full at once (INT-404).
_GEOMETRY = st.sampled_from(((2, 4), "held", "held", (1, 1), (1, 2), (2, 2), (1, 3)))


def held_row(units: list[dict[str, Any]]) -> tuple[int, int]:
    """The one-row half a side's living units fill from its first cell, the longest over both sides (at least 1 x 1)."""
    held = {(u["side"], u["row"], u["col"]) for u in units if u["alive"] and u["vitality"] > 0}
    runs = [next(c for c in range(MAX_COLS + 1) if (side, 0, c) not in held) for side in (0, 1)]
    return 1, min(max(max(runs), 1), MAX_COLS)


def draw_advance(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """Time on to the boundaries of the timetable: 10 s exactly and one off, and later ticks and one off; a half
    often just as large as the units already hold, so that a revival due then finds it full (500.9a)."""
    shape = draw(_MS_SHAPE)
    due = EVERLASTING_DELAY_MS
    ms = {"due": due, "due-1": due - 1, "due+1": due + 1, "tick": due + clock.TICK_MS * draw(_TICKS),
          "tick-1": due + clock.TICK_MS * draw(_TICKS) - 1, "small": draw(_SMALL_MS)}.get(shape)
    if ms is None:
        ms = draw(_PLAIN_MS)
    geometry = draw(_GEOMETRY)
    rows, cols = held_row(units) if geometry == "held" else geometry
    return {"kind": "advance", "ms": ms, "rows": rows, "cols": cols}


def draw_end(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    return {"kind": "end_combat"}


def _kill(target: str, source: str = "x") -> dict[str, Any]:
    return {"kind": "cull", "target": target, "source": source}


_X = {"uid": "x", "side": 1, "col": 3}
_READING_ORDER = {"everlasting_slot_order": "reading_order"}

#: Hand-written timelines: the clock's branches are structure (who is due, which slot), not arithmetic.
BOUNDARY_CASES: list[tuple[Any, ...]] = [
    ("advance-everlasting-not-before-ten-seconds", [{"uid": "a", "everlasting": True}, _X],
     [_kill("a"), {"kind": "advance", "ms": 9_999}]),
    ("advance-everlasting-exactly-ten-seconds", [{"uid": "a", "everlasting": True}, _X],
     [_kill("a"), {"kind": "advance", "ms": 10_000}]),
    ("advance-everlasting-off-the-tick-grid", [{"uid": "a", "everlasting": True}, _X],
     [{"kind": "advance", "ms": 1_234}, _kill("a"), {"kind": "advance", "ms": 10_000}]),
    # Under the default reading the cell of death is always free again (nothing else moves in), so a full
    # half needs the reading-order search (INT-404): a stands outside the 1 x 1 half whose one slot f holds.
    ("advance-full-half-retries-on-later-ticks",
     [{"uid": "a", "everlasting": True, "row": 1}, {"uid": "f"}, _X],
     [{"kind": "advance", "ms": 1_250}, _kill("a"), {"kind": "advance", "ms": 10_250, "rows": 1, "cols": 1}],
     _READING_ORDER),
    ("advance-slot-freed-between-ticks",
     [{"uid": "a", "everlasting": True, "row": 1}, {"uid": "f"}, _X],
     [_kill("a"), {"kind": "advance", "ms": 10_050, "rows": 1, "cols": 1}, _kill("f"),
      {"kind": "advance", "ms": 49, "rows": 1, "cols": 1}, {"kind": "advance", "ms": 1, "rows": 1, "cols": 1}],
     _READING_ORDER),
    ("advance-revival-rebuilds-the-body", [{"uid": "a", "everlasting": True, "armor": 20, "armor_change": -30,
                                            "prismbroken": True, "maim": 3, "defy_death_spent": True}, _X],
     [_kill("a"), {"kind": "advance", "ms": 10_000}]),
    ("end-combat-lapses-the-revival", [{"uid": "a", "everlasting": True}, _X],
     [_kill("a"), {"kind": "end_combat"}, {"kind": "advance", "ms": 20_000}]),
]


KINDS = (
    ActionKind(
        name="advance",
        summary="Time moves on by ms milliseconds (500.9a): every Everlasting try due on the way fires, in time "
        "order: a death at t tries at t + 10000 exactly, and a try on a full half retries at each later "
        "100 ms tick. rows and cols give the half's slots.",
        chapters=("combat:500.9", "combat:500.4"),
        fields=ADVANCE_FIELDS,
        run=_on_board(run_advance_battle),
        draw=draw_advance,
        unit_fields=("alive", "vitality", "max_vitality", "everlasting"),
        rulebook="combat",
        extra={"decode": decode_advance, "battle": run_advance_battle, "boundary_cases": BOUNDARY_CASES},
    ),
    ActionKind(
        name="end_combat",
        summary="Combat ends (500.9a): an Everlasting revival still due lapses and never happens.",
        chapters=("combat:500.9",),
        fields=(),
        run=_on_board(run_end_battle),
        draw=draw_end,
        unit_fields=("everlasting",),
        rulebook="combat",
        extra={"battle": run_end_battle},
    ),
)
