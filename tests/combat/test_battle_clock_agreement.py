"""The battle clock against the Everlasting timetable (500.9a): the paired check of ``revival_theorems``.

``everlasting_tries_ten_seconds_after_death_then_each_later_tick`` proves the timetable
(the first try 10 s after the death, each retry the first tick strictly after the one
before); this test holds the clock's :func:`~referee.model.combat.battle.advance` to it: a
unit whose half is full until a slot frees at ``free_ms`` revives at the first try not
before that, which is exactly 10 s after the death if the slot was free by then.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.model.combat import battle as clock
from referee.model.combat.damage import DamageInstance
from referee.model.combat.retaliation import resolve_hit
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers


def expected_revival_ms(died_ms: int, free_ms: int) -> int:
    """The timetable, from the rule text: 10 s on if free by then, else the first tick after the slot freed.

    A slot freed at exactly a try's time is freed by an action, and what is due at a time
    fires before an action at that time (``battle`` module), so that try still fails.
    """
    due = died_ms + 10_000
    if free_ms < due:
        return due
    return (free_ms // clock.TICK_MS + 1) * clock.TICK_MS


def run_clock(died_ms: int, free_ms: int) -> int:
    dead = Unit("a", alive=False, vitality=0, everlasting=True)
    board = Board((dead, Unit("f", vitality=1), Unit("x", side=1)))  # f stands in a's cell: the half is full
    battle = clock.Battle(board, died_ms, (clock.PendingRevival("a", died_ms, died_ms + 10_000, "x"),), True, 1, 1)
    battle, early = clock.advance(battle, free_ms - died_ms)
    revived = [e.amount for e in early.events() if e.name == "everlasting_revival"]
    battle, _ = clock.act(battle, lambda b: resolve_hit(b, DamageInstance("f", 100, "x")))
    battle, log = clock.advance(battle, 20_000)
    revived += [e.amount for e in log.events() if e.name == "everlasting_revival"]
    assert len(revived) == 1 and battle.board.unit("a").alive
    return revived[0]


@covers("combat:500.9a", "combat:500.4d")
@settings(max_examples=300, deadline=None)
@given(died=st.integers(0, 5_000), wait=st.integers(0, 12_000))
def test_500_9a_the_clock_revives_at_the_first_try_of_the_timetable_with_a_free_slot(died, wait):
    assert run_clock(died, died + wait) == expected_revival_ms(died, died + wait)


@covers("combat:500.9a")
def test_500_9a_the_boundaries_of_the_timetable():
    assert run_clock(1_250, 11_249) == 11_250  # free a millisecond before the first try
    assert run_clock(1_250, 11_250) == 11_300  # freed at the try itself: the next tick
    assert run_clock(1_250, 11_300) == 11_400  # freed at a retry's tick: the tick after
    assert run_clock(0, 10_000) == 10_100
