"""``referee query`` over the chapter-500 kinds: recover (500.3), cull (500.4a), tick (500.5b, 500.5c, 500.7e).

Each kind is one :class:`~referee.query.kinds.QueryKind`; these tests hold its runner to
``referee.actions`` (the JSON form, decoded by the harness) on random values, and hold its
``impossible`` answers against random scenarios of the same space.
"""

from __future__ import annotations

import random

import pytest

from referee.query import run_query
from referee.query.run import make_query
from referee.query.space import concrete_ruleset, run_actions as query_actions
from referee.rulebooks.combat.run import decode_action, run_actions
from referee.specs.trace import covers

from test_query_soundness import random_values, replay_found_keep_impossible, sample_against_impossible

CHAPTER_500_ACTIONS = (
    ("recover",),
    ("recover:lane=shield,target=source",),
    ("cull",),
    ("cull:source=none",),
    ("tick",),
    ("tick:appliers=source+ally+source,damage_kind=venom",),
    ("tick:appliers=ally+source", "recover", "cull:target=source,source=target"),
    ("hit", "cull", "recover:lane=repair"),
)


def _non_negative(values: dict, units: tuple[str, ...]) -> dict:
    from referee.model.combat.legal import NON_NEGATIVE_FIELDS

    for unit in units:
        for name in NON_NEGATIVE_FIELDS:
            if f"{unit}.{name}" in values:
                values[f"{unit}.{name}"] = abs(values[f"{unit}.{name}"])
    return values


@covers("combat:500.3a", "combat:500.4a", "combat:500.5b", "combat:500.5c")
@pytest.mark.parametrize("actions", CHAPTER_500_ACTIONS, ids=lambda a: "+".join(a))
def test_500_the_query_runner_agrees_with_referee_actions_on_random_recover_cull_tick(actions) -> None:
    """A recover/cull/tick witness replays: the query's runner and ``referee.actions`` agree, on random values."""
    from referee.model.combat.legal import is_legal_unit
    from referee.proofs.core import Vars

    rng = random.Random(500)
    query = make_query("True", actions=actions, units=3)
    checked = 0
    for layout in query.layouts():
        probe = Vars({})
        query_actions(probe, layout, query.specs, concrete_ruleset({}, 1), False)
        for _ in range(10):
            values = _non_negative(random_values(rng, sorted(probe.created) + ["ruleset.defy_death_leaves"]),
                                   layout.units)
            ruleset = concrete_ruleset({}, values["ruleset.defy_death_leaves"])
            main = query_actions(Vars(values), layout, query.specs, ruleset, False)["main"]
            if not all(is_legal_unit(u) for u in main.before.units):
                continue
            decoded = tuple(decode_action(f"actions[{i}]", a, main.before) for i, a in enumerate(main.json_actions))
            board, log = run_actions(main.before, decoded, ruleset)
            assert board == main.states[-1], (actions, values)
            assert list(log.events()) == [g.event for lg in main.logs for g in lg.entries], (actions, values)
            checked += 1
    assert checked >= 10


# --------------------------------------------------------------------------------------
# The soundness cross-check over tick, recover and cull in one query
# --------------------------------------------------------------------------------------

SPACE = {"actions": ("tick:appliers=source+ally,damage_kind=burn", "recover:lane=heal", "cull:target=source"),
         "units": 3, "ruleset": "defaults"}
UNITS = ("target", "source", "ally")
INTS = ("vitality", "shield", "maim", "vessels", "burn")
BOOLS = ("alive", "dormant", "entrapped", "is_tool", "everlasting")
EVENTS = ("culled", "death", "recovery_refused", "vitality_restored", "thorns", "credit", "feast", "maim_consumed")


def atom(rng: random.Random) -> str:
    from referee.query.types import unit_fields

    ints = list(INTS)
    assert set(INTS) <= set(unit_fields())
    unit = rng.choice(UNITS)
    kind = rng.randrange(5)
    if kind == 0:
        field = rng.choice(ints)
        return f"{unit}_after.{field} {rng.choice(['<', '>', '=='])} {unit}.{field}"
    if kind == 1:
        return f"{'not ' if rng.random() < 0.5 else ''}{rng.choice([unit, unit + '_after'])}.{rng.choice(BOOLS)}"
    if kind == 2:
        return rng.choice(["first.outcome.vitality_lost > 0", "second.amount > 3", "third.culled", "not third.culled",
                           f"first.applied{rng.randrange(2)} > 1", "first.amount < 0"])
    if kind == 3:
        return f"{unit}.{rng.choice(ints)} {rng.choice(['<', '>='])} {rng.randrange(0, 30)}"
    return f'event("{rng.choice(EVENTS)}"{", unit=" + repr(unit) if rng.random() < 0.5 else ""})'


@covers("combat:500.3a", "combat:500.4a", "combat:500.5b")
def test_500_query_random_recover_cull_tick_conditions_found_replay_and_impossible_survive_random_scenarios() -> None:
    """Random conditions over tick, recover and cull: each found replays, each impossible survives random scenarios."""
    from referee.proofs.core import Vars
    from referee.query.types import EVENT_NAMES

    rng = random.Random(5005)
    assert set(EVENTS) <= set(EVENT_NAMES)
    conditions = [" and ".join(atom(rng) for _ in range(rng.randrange(1, 4))) for _ in range(4)]
    # two the model answers impossible, so the random scenarios always have something to contradict
    conditions += ["source.is_tool and third.culled", 'third.culled and not event("culled", unit="source")']
    impossible = replay_found_keep_impossible(conditions, SPACE)
    query = make_query("True", **SPACE)

    def draws(layout):
        probe = Vars({})
        query_actions(probe, layout, query.specs, concrete_ruleset({}, 1), False)
        return (_non_negative(random_values(rng, sorted(probe.created)), layout.units) for _ in range(400))

    sampled = sample_against_impossible(query, impossible, draws, lambda values: concrete_ruleset(query.fixed, 1))
    print(f"chapter-500 query soundness: {len(conditions)} conditions ({len(impossible)} impossible: "
          f"{[q.text for q in impossible]}), {sampled} scenarios")
    assert sampled >= 400 and 0 < len(impossible) < len(conditions)


@covers("combat:500.3a", "combat:500.4a", "combat:500.7e")
@pytest.mark.parametrize("condition,actions", [
    ("target_after.vitality > target.vitality and target.maim > 0", ("recover:lane=heal",)),
    ("first.culled and target_after.alive", ("cull",)),
    ('count("thorns") == 2', ("tick:appliers=source+ally",)),
], ids=("recover", "cull", "tick"))
def test_500_a_recover_cull_tick_witness_replays_on_the_example_engine(condition, actions) -> None:
    """A found witness of each chapter-500 kind is a protocol scenario the example engine answers identically."""
    from referee.engines.transports import PythonEngine
    from referee.query.replay import replay_on_engine

    answer = run_query(condition, actions=actions, units=3, ruleset="defaults")
    assert answer.status == "found", (answer.status, answer.detail)
    assert [a["kind"] for a in answer.scenario["actions"]] == [a.split(":")[0] for a in actions]
    report = replay_on_engine(answer, PythonEngine("referee.examples.engine:run"))
    assert report["agrees"], report["divergences"]
