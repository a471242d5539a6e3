"""``referee query`` over the battle clock: advance (500.4d, 500.9a) and end_combat (500.9a).

The query run threads a battle between the actions (``model/combat/battle_guarded.py``): a
board action's Everlasting deaths become revivals due 10 s on, under their own condition,
``advance`` fires those due by then in order, ``end_combat`` lapses the rest. These tests hold
that run to ``referee.actions`` (the concrete clock's ``while``) on random values, hold the
``impossible`` answers against random scenarios of the same space, and check the clock's
fields and its fixed reading.
"""

from __future__ import annotations

import random

import pytest

from referee.query import run_query
from referee.query.evaluate import evaluate, namespace
from referee.query.run import make_query
from referee.query.space import concrete_ruleset, run_actions as query_actions
from referee.query.types import QueryError
from referee.rulebooks.combat.run import decode_action, run_actions
from referee.specs.trace import covers

from test_query_soundness import random_values, replay_found_keep_impossible, sample_against_impossible

CLOCK_ACTIONS = (
    ("hit", "advance"),
    ("cull", "advance", "advance"),
    ("advance", "cull", "advance"),
    ("cull", "end_combat", "advance"),
    ("tick:appliers=source+ally", "cull:target=source", "advance", "hit"),
    ("cull:target=source,source=target", "cull", "advance", "end_combat"),
    ("end_combat", "cull", "advance"),
)
#: Steps of time at the clock's boundaries: 10 s exactly and one off, and more.
STEPS = (0, 1, 4_999, 5_000, 9_999, 10_000, 10_001, 10_100, 10_299, 15_000, 20_000, -7, 10_000_001)


def clock_values(rng: random.Random, names: list[str], units: tuple[str, ...]) -> dict:
    """Random values (test_query_soundness's), Everlasting often on, steps of time at the boundaries."""
    from referee.model.combat.legal import NON_NEGATIVE_FIELDS

    values = random_values(rng, names)
    for name in names:
        if name.endswith(".ms"):
            values[name] = rng.choice(STEPS) if rng.random() < 0.8 else rng.randrange(0, 30_000)
        elif name.endswith(".amount") and rng.random() < 0.5:
            values[name] = 1_000  # a killing hit or tick, so deaths (and revivals) are common
        elif name.endswith(".everlasting"):
            values[name] = rng.random() < 0.7
        elif name.endswith(".vessels"):
            values[name] = 0 if rng.random() < 0.8 else values[name]
    for unit in units:
        for name in NON_NEGATIVE_FIELDS:
            if f"{unit}.{name}" in values:
                values[f"{unit}.{name}"] = abs(values[f"{unit}.{name}"])
    return values


def names_of(layout, query) -> list[str]:
    from referee.proofs.core import Vars

    probe = Vars({})
    query_actions(probe, layout, query.specs, concrete_ruleset(query.fixed, 1), False)
    return sorted(probe.created) + ["ruleset.defy_death_leaves"]


def both_clocks(query, layout, values: dict):
    """The query's runner on concrete ``values`` and ``referee.actions`` on the same board and actions: the query's
    main run, ``referee.actions``' board and events; None when the board before is not legal."""
    from referee.model.combat.legal import is_legal_unit
    from referee.proofs.core import Vars

    ruleset = concrete_ruleset(query.fixed, values["ruleset.defy_death_leaves"])
    main = query_actions(Vars(values), layout, query.specs, ruleset, False)["main"]
    if not all(is_legal_unit(u) for u in main.before.units):
        return None
    decoded = tuple(decode_action(f"actions[{i}]", a, main.before) for i, a in enumerate(main.json_actions))
    board, log = run_actions(main.before, decoded, ruleset)
    return main, board, list(log.events())


@covers("combat:500.9a", "combat:500.4d")
@pytest.mark.parametrize("actions", CLOCK_ACTIONS, ids=lambda a: "+".join(a))
def test_500_9a_the_query_runner_agrees_with_referee_actions_on_the_battle_clock(actions) -> None:
    """The query's battle and ``referee.actions``'s (the concrete ``while``) agree: boards and events, on random values."""
    rng = random.Random(509)
    query = make_query("True", actions=actions, units=3)
    checked = revived = 0
    for layout in query.layouts():
        names = names_of(layout, query)
        for _ in range(40):
            values = clock_values(rng, names, layout.units)
            paired = both_clocks(query, layout, values)
            if paired is None:
                continue
            main, board, events = paired
            own = [g.event for lg in main.logs for g in lg.entries]
            assert board == main.states[-1], (actions, values)
            assert events == own, (actions, values)
            revived += any(e.name.startswith("everlasting_") for e in own)  # scheduled, revived, lapsed
            checked += 1
    assert checked >= 30 and revived >= 3, (checked, revived)


# --------------------------------------------------------------------------------------
# The soundness cross-check over the clock: a death, time, a second death, the end
# --------------------------------------------------------------------------------------

SPACE = {"actions": ("cull", "advance", "cull:target=source,source=target", "end_combat"), "units": 2,
         "ruleset": "defaults"}
UNITS = ("target", "source")


def atom(rng: random.Random) -> str:
    unit = rng.choice(UNITS)
    kind = rng.randrange(6)
    if kind == 0:
        return f"second.ms {rng.choice(['<', '>=', '=='])} {rng.choice([0, 9_999, 10_000, 10_001, 20_000])}"
    if kind == 1:
        return f"{'not ' if rng.random() < 0.5 else ''}after[{rng.randrange(4)}].{unit}.alive"
    if kind == 2:
        return rng.choice(["second.revived == 1", "second.revived == 2", "second.pending > 0", "fourth.lapsed == 1",
                           "fourth.lapsed == 2", "fourth.now > 10000", "second.start > 0"])
    if kind == 3:
        return f"{'not ' if rng.random() < 0.3 else ''}{unit}.everlasting"
    if kind == 4:
        return f"{unit}.vessels {rng.choice(['==', '>'])} 0"
    return f'event("{rng.choice(["everlasting_revival", "everlasting_lapsed", "everlasting_scheduled", "death"])}"' \
           f'{", unit=" + repr(unit) if rng.random() < 0.6 else ""})'


def clock_cross_check(rng: random.Random, conditions: int, per_layout: int) -> None:
    """Random clock conditions over SPACE: each found replays, each impossible survives random scenarios."""
    texts = [" and ".join(atom(rng) for _ in range(rng.randrange(1, 4))) for _ in range(conditions)]
    # two the model answers impossible, so the random scenarios always have something to contradict
    texts += ['event("everlasting_revival", unit="target") and second.ms < 10000',
              'after[3].target.alive and not after[0].target.alive and not event("everlasting_revival")']
    impossible = replay_found_keep_impossible(texts, SPACE)
    query = make_query("True", **SPACE)

    def draws(layout):
        names = names_of(layout, query)
        return (clock_values(rng, names, layout.units) for _ in range(per_layout))

    sampled = sample_against_impossible(
        query, impossible, draws, lambda values: concrete_ruleset(query.fixed, values["ruleset.defy_death_leaves"]))
    print(f"clock query soundness: {len(texts)} conditions ({len(impossible)} impossible: "
          f"{[q.text for q in impossible]}), {sampled} scenarios")
    assert sampled >= per_layout and 0 < len(impossible) < len(texts)


@covers("combat:500.9a", "combat:500.4d")
def test_500_9a_query_random_clock_conditions_found_replay_and_impossible_survive_random_scenarios() -> None:
    clock_cross_check(random.Random(9001), conditions=6, per_layout=600)


@pytest.mark.slow
def test_500_9a_query_clock_cross_check_long_campaign() -> None:
    clock_cross_check(random.Random(90011), conditions=40, per_layout=3000)


# --------------------------------------------------------------------------------------
# The clock's records, its stated space and its one reading
# --------------------------------------------------------------------------------------


@covers("combat:500.4d", "combat:500.9a")
def test_500_4d_an_everlasting_death_at_a_later_time_is_due_ten_seconds_after_it() -> None:
    """A death 5 s in is due at 15 s, not at 10 s: the death's own time is symbolic and carried."""
    actions = ("advance", "cull", "advance")
    back = "first.ms == 5000 and not after[1].target.alive and after[2].target.alive and third.now == {t}"
    early = run_query(back.format(t=14_999), actions=actions, units=2, ruleset="defaults")
    assert early.status == "impossible", early.detail
    due = run_query(back.format(t=15_000), actions=actions, units=2, ruleset="defaults")
    assert due.status == "found", due.detail
    assert [a.get("ms") for a in due.scenario["actions"]] == [5_000, None, 10_000]
    revival = [e for e in due.observation["events"] if e["name"] == "everlasting_revival"]
    assert [(e["unit"], e["amount"]) for e in revival] == [("target", 15_000)]


@covers("combat:500.9a")
def test_500_9a_end_combat_lapses_what_is_due_and_counts_it() -> None:
    """``end_combat`` lapses a pending revival (``fourth.lapsed``); no revival fires after it."""
    found = run_query('fourth.lapsed == 2 and event("everlasting_lapsed", unit="source")', **SPACE)
    assert found.status == "found", found.detail
    late = run_query('event("everlasting_revival")', actions=("cull", "end_combat", "advance"), units=2,
                     ruleset="defaults")
    assert late.status == "impossible", late.detail
    assert "combat ends" in late.space and "death_cell_first" in late.space


def test_a_clock_query_searches_both_slot_readings_and_refuses_a_reading_order_search_after_advance() -> None:
    """A clock query fixes no reading of ``everlasting_slot_order`` (INT-404) and accepts ``reading_order``; an
    action that reads the reading order after an ``advance`` searches ``death_cell_first`` (said in the space line)
    and refuses ``reading_order`` by name."""
    query = make_query("True", actions=("hit", "advance"), units=2)
    assert query.fixed == {}
    assert "every ruleset reading" in query.space() and "reading_order" in query.space()
    order = make_query("True", actions=("hit", "advance"), units=2, ruleset={"everlasting_slot_order": "reading_order"})
    assert order.fixed == {"everlasting_slot_order": "reading_order"}
    with pytest.raises(QueryError, match="ability after advance"):
        make_query("True", actions=("advance", "ability:lines=damage>allies"), units=2,
                   ruleset={"everlasting_slot_order": "reading_order"})
    later = make_query("True", actions=("advance", "ability:lines=damage>allies"), units=2)
    assert later.fixed == {"everlasting_slot_order": "death_cell_first"}
    assert "everlasting_slot_order=death_cell_first" in later.space()
    fixed = make_query("True", actions=("advance", "ability:lines=damage>allies"), units=2,
                       ruleset={"everlasting_slot_order": "death_cell_first"})
    assert fixed.fixed == {"everlasting_slot_order": "death_cell_first"}
    with pytest.raises(QueryError, match="slot=value"):
        make_query("True", actions=("advance:ms=3",), units=2)


@covers("combat:500.9a", "combat:500.4d")
def test_500_9a_the_symbolic_clock_run_agrees_with_the_concrete_run_on_random_values() -> None:
    """Single-source: pinned to a random scenario's values, the one symbolic run has exactly the concrete clock."""
    import z3

    from referee.proofs.core import Vars
    from referee.query.solve import cells_of

    rng = random.Random(4242)
    query = make_query("True", actions=("cull", "advance", "cull:target=source,source=target", "advance", ), units=3,
                       ruleset="defaults")
    checked = fired = 0
    for layout in query.layouts():
        cell = next(iter(cells_of(layout, query.specs, query.fixed, False)))
        sym = namespace(cell.runs, layout.units)
        guards = [(g.when, g.event) for log in cell.runs["main"].logs for g in log.entries]
        for _ in range(15):
            values = clock_values(rng, sorted(cell.variables.created), layout.units)
            runs = query_actions(Vars(values), layout, query.specs, concrete_ruleset(cell.chosen, 1), False)
            concrete = namespace(runs, layout.units)
            solver = z3.Solver()
            solver.add(*cell.side_conditions)
            solver.add(*[term == values[name] for name, term in cell.variables.created.items()])
            if solver.check() != z3.sat:  # outside the legal domain the side conditions assume
                continue
            model = solver.model()
            for record in ("second", "fourth"):
                for name in ("ms", "start", "now", "revived", "pending"):
                    got = model.eval(_as_z3(sym[record][name]), model_completion=True).as_long()
                    assert got == concrete[record][name], (record, name, values)
            for uid in layout.units:
                for name in ("alive", "vitality", "incarnation"):
                    got = model.eval(_as_z3(getattr(sym[f"{uid}_after"], name)), model_completion=True)
                    want = getattr(concrete[f"{uid}_after"], name)
                    assert (z3.is_true(got) if isinstance(want, bool) else got.as_long()) == want, (uid, name, values)
            happened = [e for when, e in guards if z3.is_true(model.eval(_as_z3(when), model_completion=True))]
            own = [g.event for log in runs["main"].logs for g in log.entries]
            assert [(e.name, e.unit) for e in happened] == [(e.name, e.unit) for e in own], values
            fired += concrete["fourth"]["revived"] + concrete["second"]["revived"]
            checked += 1
    assert checked >= 20 and fired >= 3, (checked, fired)


def _as_z3(value):
    import z3

    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


@covers("combat:500.9a")
@pytest.mark.parametrize("condition,actions", [
    ("second.ms == 10000 and second.revived == 1", ("cull", "advance")),
    ('third.lapsed == 1 and not event("everlasting_revival")', ("cull", "advance", "end_combat")),
], ids=("advance", "end_combat"))
def test_500_9a_a_clock_witness_replays_on_the_example_engine(condition, actions) -> None:
    """A found witness over the clock is a protocol scenario (advance, end_combat) the example engine answers identically."""
    from referee.engines.transports import PythonEngine
    from referee.query.replay import replay_on_engine

    answer = run_query(condition, actions=actions, units=2, ruleset="defaults")
    assert answer.status == "found", (answer.status, answer.detail)
    assert [a["kind"] for a in answer.scenario["actions"]] == list(actions)
    report = replay_on_engine(answer, PythonEngine("referee.examples.engine:run"))
    assert report["agrees"], report["divergences"]


# --------------------------------------------------------------------------------------
# The impossible answers against the harness's own strategy for time (clock.draw_advance)
# --------------------------------------------------------------------------------------

_IMPOSSIBLE: list = []


def clock_impossible() -> list:
    """The designed impossible clock questions over SPACE, asked once per run."""
    if not _IMPOSSIBLE:
        texts = ['event("everlasting_revival", unit="target") and second.ms < 10000',
                 'after[3].target.alive and not after[0].target.alive and not event("everlasting_revival")',
                 'second.revived == 2', 'fourth.lapsed == 1 and second.revived == 1 and target.everlasting '
                 'and source.everlasting and source.vessels == 0 and not after[2].source.alive']
        _IMPOSSIBLE.extend(replay_found_keep_impossible(texts, SPACE))
    return _IMPOSSIBLE


@covers("combat:500.9a", "combat:500.4d")
def test_500_9a_clock_impossible_answers_survive_the_harness_strategy_for_time() -> None:
    """Each step of time drawn by the harness's own ``draw_advance`` (10 s and one off, later ticks) contradicts none."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    from referee.model.combat.legal import is_legal_unit
    from referee.proofs.core import Vars
    from referee.rulebooks.combat.kinds.clock import draw_advance

    impossible = clock_impossible()
    assert len(impossible) >= 3, [q.text for q in impossible]
    query = make_query("True", **SPACE)
    layouts = query.layouts()
    names = {id(layout): names_of(layout, query) for layout in layouts}
    seen = []

    @settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data) -> None:
        layout = layouts[data.draw(st.integers(0, len(layouts) - 1))]
        values = clock_values(random.Random(data.draw(st.integers(0, 2**32))), names[id(layout)], layout.units)
        values["a1.ms"] = draw_advance(data.draw, [])["ms"]
        runs = query_actions(Vars(values), layout, query.specs, concrete_ruleset(query.fixed, 1), False)
        if not all(is_legal_unit(u) for u in runs["main"].before.units):
            return
        seen.append(values["a1.ms"])
        ns = namespace(runs, layout.units)
        for q in impossible:
            assert evaluate(q.condition, ns) is False, f"{q.text!r} answered impossible, but holds in {values}"

    check()
    assert len(seen) >= 150 and {9_999, 10_000, 10_001} <= set(seen), sorted(set(seen))[:20]
