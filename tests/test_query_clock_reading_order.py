"""``referee query`` over the battle clock under both of INT-404's slot readings (issue #40).

``everlasting_slot_order=reading_order`` is accepted and searched by default. On the query's
boards (at most 5 units, each in a cell of its own of the 2 x 4 half) no Everlasting try is ever
delayed under either reading: a delay needs every slot of the half held by another living unit.
Under ``reading_order`` a revival may return to another cell: the symbolic clock keeps it in its
cell of death, the concrete replay moves it, and no condition reads the difference
(``model/combat/battle_guarded.py``). These tests hold the verdicts, the witnesses' replays and
the symbolic run to the concrete clock (``referee.actions``).
"""

from __future__ import annotations

import random

import pytest

from referee.model.combat.ruleset import DEFAULT
from referee.query import run_query
from referee.query.run import make_query
from referee.query.types import QueryError
from referee.rulebooks.combat.run import decode_scenario, run_actions
from referee.specs.trace import covers

READING_ORDER = {"everlasting_slot_order": "reading_order"}
DEATH_CELL_FIRST = {"everlasting_slot_order": "death_cell_first"}
#: Two Everlasting allies culled, the later-placed one first, then 10 s: under reading_order they swap cells.
SWAP_ACTIONS = ("cull:target=ally,source=target", "cull:target=source,source=target", "advance")
SWAP = ("not after[1].ally.alive and not after[1].source.alive and after[2].ally.alive and after[2].source.alive "
        "and third.revived == 2")
DELAYED = 'event("everlasting_delayed")'


def positions(units: list[dict]) -> dict[str, tuple[int, int, int]]:
    return {u["uid"]: (u["side"], u["row"], u["col"]) for u in units}


DELAY_ACTIONS = ("cull", "advance", "cull:target=source,source=target", "advance")


@covers("combat:500.9a")
@pytest.mark.parametrize("ruleset", [READING_ORDER, None], ids=("reading_order", "every_reading"))
def test_500_9a_a_delay_is_found_on_a_full_half_and_replays_through_the_concrete_clock(ruleset) -> None:
    """Can an Everlasting try be delayed? Found, on a full half: the recipient outside side 0's eight slots and
    bystanders in the rest; ``found`` means referee.actions (the concrete ``while``) agrees on boards and events."""
    answer = run_query(DELAYED, actions=("cull", "advance"), units=2, ruleset=ruleset)
    assert answer.status == "found", (answer.status, answer.detail)
    assert answer.scenario["ruleset"]["everlasting_slot_order"] == "reading_order"
    board = positions(answer.scenario["board"])
    assert board["target"] == (0, 2, 0), board
    assert {(0, r, c) for r in range(2) for c in range(4)} <= set(board.values()), board
    assert any(e["name"] == "everlasting_delayed" for e in answer.observation["events"])
    assert "full half" in answer.space and "bystanders" in answer.space and "full half" in answer.cell


@covers("combat:500.9a")
def test_500_9a_under_death_cell_first_no_try_waits_and_the_space_says_why() -> None:
    answer = run_query(DELAYED, actions=DELAY_ACTIONS, units=3, ruleset=DEATH_CELL_FIRST)
    assert answer.status == "impossible", (answer.status, answer.detail)
    assert "no full half (everlasting_slot_order=death_cell_first never delays a try)" in answer.space, answer.space


@covers("combat:500.9a")
def test_500_9a_the_delay_is_possible_exactly_under_reading_order() -> None:
    answer = run_query(DELAYED, actions=("cull", "advance"), units=2, by_reading=True)
    assert answer.status == "found", (answer.status, answer.detail)
    assert answer.by_reading["possible_when"] == [READING_ORDER] and answer.by_reading["complete"], answer.by_reading


@covers("combat:500.9a")
@pytest.mark.parametrize("times", [1, 2, 7])
def test_500_9a_a_run_of_delayed_tries_counts_one_event_a_tick(times) -> None:
    """One advance over a full half: a try at death + 10 s and one at every tick after it up to the new time, each
    delayed; the symbolic run counts them as one entry of ``times`` events, the replay emits each."""
    answer = run_query(f'count("everlasting_delayed") == {times} and second.pending == 1', actions=("cull", "advance"),
                       units=2, ruleset=READING_ORDER)
    assert answer.status == "found", (answer.status, answer.detail)
    delays = [e["amount"] for e in answer.observation["events"] if e["name"] == "everlasting_delayed"]
    assert len(delays) == times and all(b - a == 100 for a, b in zip(delays, delays[1:])), delays


@covers("combat:500.9a")
def test_500_9a_a_waiting_revival_returns_at_the_first_tick_after_a_slot_frees() -> None:
    """A source allied to the recipient stands, with its ally, in two of side 0's slots: culling one frees a slot, and
    the waiting recipient returns at the next tick (found); with no slot freed it never returns (impossible)."""
    actions = ("cull", "advance", "cull:target=ally,source=source", "advance")
    back = ('event("everlasting_delayed", action=1) and not after[2].ally.alive and fourth.revived == 1 '
            "and fourth.ms < 100 and after[3].target.alive")
    found = run_query(back, actions=actions, units=3, ruleset=READING_ORDER)
    assert found.status == "found", (found.status, found.detail)
    assert "full half" in found.cell and "source ally" in found.cell, found.cell
    never = run_query('event("everlasting_delayed", action=1) and third.revived == 1', actions=("cull", "advance", "advance"),
                      units=3, ruleset=READING_ORDER)
    assert never.status == "impossible", (never.status, never.detail)


def test_500_9a_a_delay_witness_replays_on_the_example_engine() -> None:
    from referee.engines.transports import PythonEngine
    from referee.query.replay import replay_on_engine

    answer = run_query('count("everlasting_delayed") == 3', actions=("cull", "advance"), units=2, ruleset=READING_ORDER)
    assert answer.status == "found", (answer.status, answer.detail)
    report = replay_on_engine(answer, PythonEngine("referee.examples.engine:run"))
    assert report["agrees"], report["divergences"]


@covers("combat:500.9a")
def test_500_9a_the_concrete_clock_delays_only_on_a_half_fuller_than_a_query_board() -> None:
    """The boundary the space line states, on the concrete clock: an Everlasting unit outside the 2 x 4 half whose
    eight slots eight living units hold is delayed under reading_order, and returns to its own cell under
    death_cell_first; with one slot free it revives (so a query board of at most 5 units never delays)."""
    def scenario(fillers: int, reading: dict) -> list[str]:
        units = [{"uid": f"f{k}", "side": 0, "row": k // 4, "col": k % 4} for k in range(fillers)]
        units += [{"uid": "a", "side": 0, "row": 2, "col": 0, "everlasting": True}, {"uid": "x", "side": 1}]
        decoded = decode_scenario({"id": "s", "board": units, "ruleset": {**DEFAULT.to_json(), **reading},
                                   "actions": [{"kind": "cull", "target": "a", "source": "x"},
                                               {"kind": "advance", "ms": 10_000}]})
        _, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
        return [e.name for e in log.events() if e.name in ("everlasting_delayed", "everlasting_revival")]

    assert scenario(8, READING_ORDER) == ["everlasting_delayed"]
    assert scenario(8, DEATH_CELL_FIRST) == ["everlasting_revival"]
    assert scenario(7, READING_ORDER) == ["everlasting_revival"]


@covers("combat:500.9a")
def test_500_9a_a_reading_order_witness_moving_a_revived_unit_replays_through_referee_actions() -> None:
    """Under reading_order the ally culled first takes the source's free cell, and the source the ally's: the
    witness is ``found`` only when ``referee.actions`` agrees with the query's run on its boards and events."""
    answer = run_query(SWAP, actions=SWAP_ACTIONS, units=3, ruleset=READING_ORDER)
    assert answer.status == "found", (answer.status, answer.detail)
    assert answer.scenario["ruleset"]["everlasting_slot_order"] == "reading_order"
    before, after = positions(answer.scenario["board"]), positions(answer.observation["board"])
    assert after["ally"] == before["source"] and after["source"] == before["ally"], (before, after)


@covers("combat:500.9a", "combat:500.4d")
@pytest.mark.parametrize("condition,actions", [
    (DELAYED, ("cull", "advance")),
    (SWAP, SWAP_ACTIONS),
    ("not after[0].target.alive and after[1].target.alive and second.ms <= 9000", ("cull", "advance")),
    ('fourth.lapsed == 1 and event("everlasting_revival", unit="target")', ("cull", "advance", "cull", "end_combat")),
], ids=("delayed", "swap", "back-within-9s", "revived-then-lapsed"))
def test_500_9a_a_clock_question_over_every_reading_agrees_with_the_union_of_the_readings(condition, actions) -> None:
    """Without --ruleset a clock question is searched (no usage error) and found exactly when one reading finds it."""
    every = run_query(condition, actions=actions, units=3)
    each = [run_query(condition, actions=actions, units=3, ruleset=r).status for r in (READING_ORDER, DEATH_CELL_FIRST)]
    assert every.status in ("found", "impossible") and set(each) <= {"found", "impossible"}, (every.detail, each)
    assert every.status == ("found" if "found" in each else "impossible"), (every.status, each)


@pytest.mark.parametrize("actions", [("advance", "ability:lines=damage>allies"), ("cull", "advance", "bloodletting")],
                         ids=("ability", "bloodletting"))
def test_an_action_reading_the_reading_order_after_advance_searches_death_cell_first_or_is_refused_by_name(actions) -> None:
    kind = actions[-1].partition(":")[0]
    with pytest.raises(QueryError, match=f"{kind} after advance.*death_cell_first"):
        make_query("True", actions=actions, units=2, ruleset=READING_ORDER)
    assert make_query("True", actions=actions, units=2).fixed == DEATH_CELL_FIRST
    assert make_query("True", actions=actions, units=2, ruleset=DEATH_CELL_FIRST).fixed == DEATH_CELL_FIRST
    assert make_query("True", actions=(actions[-1], "advance"), units=2).fixed == {}


# --------------------------------------------------------------------------------------
# The two runs under reading_order, on random values
# --------------------------------------------------------------------------------------

RANDOM_ACTIONS = ("cull:target=ally,source=target", "cull:target=source,source=target", "advance", "cull")


def living_values(rng: random.Random, names: list[str], units: tuple[str, ...]) -> dict:
    """test_query_clock's random clock values, every unit alive and cullable first, so that revivals are common."""
    from test_query_clock import clock_values

    values = clock_values(rng, names, units)
    for unit in units:
        values.update({f"{unit}.alive": True, f"{unit}.is_tool": False, f"{unit}.is_hub": False})
        values[f"{unit}.vitality"] = max(values.get(f"{unit}.vitality", 1), 1)
    return values


def default_readings(values: dict, cell) -> dict:
    """The values with each option the symbolic run merged (a ``reading.`` variable, INT-403's dead_unit_cell on the
    clock) pinned to its default, the reading the concrete run's ruleset (``concrete_ruleset``) gives it."""
    import z3

    from referee.model.readings import READING_PREFIX

    for name, term in cell.variables.created.items():
        if name.startswith(READING_PREFIX):
            values[name] = False if z3.is_bool(term) else 0
    return values


@covers("combat:500.9a")
def test_500_9a_under_reading_order_the_query_runner_agrees_with_referee_actions_cells_and_all() -> None:
    """Concretely the query's clock is the concrete clock under reading_order: boards (cells too) and events, in order."""
    from test_query_clock import both_clocks, names_of

    rng = random.Random(404)
    query = make_query("True", actions=RANDOM_ACTIONS, units=3, ruleset=READING_ORDER)
    checked = moved = 0
    for layout in query.layouts():
        names = names_of(layout, query)
        for _ in range(40):
            paired = both_clocks(query, layout, living_values(rng, names, layout.units))
            if paired is None:
                continue
            main, board, events = paired
            assert board == main.states[-1], main.json_actions
            assert events == [g.event for lg in main.logs for g in lg.entries], main.json_actions
            moved += any(u.position != main.before.unit(u.uid).position for u in board.units)
            checked += 1
    assert checked >= 30 and moved >= 3, (checked, moved)


@covers("combat:500.9a")
def test_500_9a_under_reading_order_the_symbolic_clock_agrees_with_the_concrete_one_on_what_conditions_read() -> None:
    """Pinned to random values, the one symbolic run has the concrete run's records, unit fields and event counts;
    only the cells (and so the order of the ally channel's events) may differ, which no condition reads."""
    from collections import Counter

    import z3

    from referee.proofs.core import Vars
    from referee.query.evaluate import namespace
    from referee.query.solve import cells_of
    from referee.query.space import concrete_ruleset, run_actions as query_actions

    from test_query_clock import _as_z3

    rng = random.Random(4040)
    query = make_query("True", actions=RANDOM_ACTIONS, units=3, ruleset=READING_ORDER)
    checked = fired = 0
    for layout in query.layouts():
        cell = next(iter(cells_of(layout, query.specs, query.fixed, False)))
        sym = namespace(cell.runs, layout.units)
        guards = [(g.when, g.event) for log in cell.runs["main"].logs for g in log.entries]
        for _ in range(15):
            values = default_readings(living_values(rng, sorted(cell.variables.created), layout.units), cell)
            runs = query_actions(Vars(values), layout, query.specs, concrete_ruleset(cell.chosen, 1), False)
            concrete = namespace(runs, layout.units)
            solver = z3.Solver()
            solver.add(*cell.side_conditions)
            solver.add(*[term == values[name] for name, term in cell.variables.created.items()])
            if solver.check() != z3.sat:  # outside the legal domain the side conditions assume
                continue
            model = solver.model()
            for name in ("ms", "start", "now", "revived", "pending"):
                assert model.eval(_as_z3(sym["third"][name]), model_completion=True).as_long() == \
                    concrete["third"][name], (name, values)
            for uid in layout.units:
                for name in ("alive", "vitality", "incarnation"):
                    got = model.eval(_as_z3(getattr(sym[f"{uid}_after"], name)), model_completion=True)
                    want = getattr(concrete[f"{uid}_after"], name)
                    assert (z3.is_true(got) if isinstance(want, bool) else got.as_long()) == want, (uid, name, values)
            happened = [e for when, e in guards if z3.is_true(model.eval(_as_z3(when), model_completion=True))]
            own = [g.event for log in runs["main"].logs for g in log.entries]
            amount = lambda e: None if e.amount is None else model.eval(_as_z3(e.amount), model_completion=True).as_long()
            assert Counter((e.name, e.unit, e.other, amount(e)) for e in happened) == \
                Counter((e.name, e.unit, e.other, e.amount) for e in own), values
            fired += concrete["third"]["revived"]
            checked += 1
    assert checked >= 15 and fired >= 3, (checked, fired)


# --------------------------------------------------------------------------------------
# Full halves: the two runs on random values, delays included
# --------------------------------------------------------------------------------------

WAKE_ACTIONS = ("cull", "advance", "cull:target=ally,source=source", "advance")


def full_half_layouts(query) -> list:
    layouts = [layout for layout in query.layouts() if layout.full_half]
    assert len(layouts) == 2, layouts  # the source enemy and ally, each on a full half
    return layouts


@covers("combat:500.9a")
def test_500_9a_on_a_full_half_the_query_runner_agrees_with_referee_actions_delays_and_all() -> None:
    """Concretely, on full halves, the query's clock is the concrete clock: boards and events, each delay included."""
    from test_query_clock import both_clocks, names_of

    rng = random.Random(4041)
    query = make_query("True", actions=WAKE_ACTIONS, units=3, ruleset=READING_ORDER)
    checked = delayed = woken = 0
    for layout in full_half_layouts(query):
        names = names_of(layout, query)
        for _ in range(30):
            paired = both_clocks(query, layout, living_values(rng, names, layout.units))
            if paired is None:
                continue
            main, board, events = paired
            assert board == main.states[-1], main.json_actions
            assert events == [g.event for lg in main.logs for g in lg.entries], main.json_actions
            waited = any(e.name == "everlasting_delayed" for e in events)
            delayed += waited
            woken += waited and any(e.name == "everlasting_revival" for e in events)
            checked += 1
    assert checked >= 30 and delayed >= 8 and woken >= 2, (checked, delayed, woken)


@covers("combat:500.9a")
def test_500_9a_on_a_full_half_the_symbolic_clock_counts_each_delay() -> None:
    """Pinned to random values, the one symbolic run has the concrete run's records, unit fields and event counts on a
    full half: a run of delayed tries is one entry of ``times`` events, each counted."""
    from collections import Counter

    import z3

    from referee.proofs.core import Vars
    from referee.query.evaluate import namespace
    from referee.query.solve import cells_of
    from referee.query.space import concrete_ruleset, run_actions as query_actions

    from test_query_clock import _as_z3

    rng = random.Random(4042)
    query = make_query("True", actions=WAKE_ACTIONS, units=3, ruleset=READING_ORDER)
    checked = delays = 0
    for layout in full_half_layouts(query):
        cell = next(iter(cells_of(layout, query.specs, query.fixed, False)))
        sym = namespace(cell.runs, layout.units)
        entries = [g for log in cell.runs["main"].logs for g in log.entries]
        for _ in range(15):
            values = default_readings(living_values(rng, sorted(cell.variables.created), layout.units), cell)
            runs = query_actions(Vars(values), layout, query.specs, concrete_ruleset(cell.chosen, 1), False)
            concrete = namespace(runs, layout.units)
            solver = z3.Solver()
            solver.add(*cell.side_conditions)
            solver.add(*[term == values[name] for name, term in cell.variables.created.items()])
            if solver.check() != z3.sat:
                continue
            model = solver.model()
            value = lambda term: model.eval(_as_z3(term), model_completion=True)  # noqa: E731
            for name in ("ms", "now", "revived", "pending"):
                assert value(sym["fourth"][name]).as_long() == concrete["fourth"][name], (name, values)
                assert value(sym["second"][name]).as_long() == concrete["second"][name], (name, values)
            for uid in layout.units:
                got, want = value(getattr(sym[f"{uid}_after"], "alive")), concrete[f"{uid}_after"].alive
                assert z3.is_true(got) == want, (uid, values)
            happened = Counter()
            for g in entries:
                if z3.is_true(value(g.when)):
                    happened[(g.event.name, g.event.unit, g.event.other)] += value(g.times()).as_long()
            own = Counter((e.name, e.unit, e.other) for log in runs["main"].logs for e in (g.event for g in log.entries))
            assert happened == own, values
            delays += own[("everlasting_delayed", "target", None)]
            checked += 1
    assert checked >= 12 and delays >= 8, (checked, delays)
