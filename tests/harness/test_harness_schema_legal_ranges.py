"""``referee schema`` states the legal range of every unit field from ``referee.model.combat.legal``, and the
scenario schema accepts what the loader accepts: drawn scenarios moved onto the edges of every range agree,
but for the comparisons the schema cannot state (said in its ``$comment``) and the actions' own conditions.
Every integer of a scenario, whatever its field or rulebook, is within the protocol's range, +-(2^53 - 1)
(``referee.wire.INTEGER_LIMIT``): the schema states it on every integer and the loader refuses one outside,
naming it."""

from __future__ import annotations

import random

import jsonschema
import pytest

from referee import rulebooks
from referee.model.combat import legal
from referee.model.combat.state import Board, Unit
from referee.protocol import decode_scenario, scenario_schema
from referee.seeded import draw_seeded
from referee.check.strategies import scenarios
from referee.wire import INTEGER_LIMIT, ProtocolError

#: Loader verdicts the schema cannot reach: comparisons between fields, links, cells, the actions' conditions.
LOADER_ONLY = ("must be <= max_vitality", "cannot name itself", "is an enemy", "not on the board", "already holds",
               "overtime tick", "dead unit deals", "no unit with uid", "one of the board's locations")


def test_every_range_is_what_the_conditions_say_of_that_field():
    """The minimum is legal and one below it is not (the maximum likewise), on an otherwise plain unit: a dead
    one for Vitality and its maximum (whose ranges taken alone are a dead unit's), a living one otherwise."""
    for name, (low, high) in legal.FIELD_RANGES.items():
        base = {"uid": "u", "alive": False, "vitality": 0} if name in ("vitality", "max_vitality") else {"uid": "u"}
        edges = [(low, True), (low - 1, False)] + ([(high, True), (high + 1, False)] if high is not None else [])
        for value, ok in edges:
            broken = legal.board_violation(Board((Unit.of({**base, name: value}),)))
            assert (broken is None) == ok, (name, value, broken)


def test_the_schema_and_the_loader_agree_near_every_edge():
    validator = jsonschema.Draft202012Validator(scenario_schema())
    rng = random.Random(20)
    fields = (*legal.FIELD_RANGES, "alive", *legal.ROLES)
    compared = disagreed = 0
    for scenario in draw_seeded(scenarios(), 20, 120):
        if scenario.get("rulebook", "combat") != "combat":
            continue
        unit = rng.choice(scenario["board"])
        name = rng.choice(fields)
        if name in legal.FIELD_RANGES:
            low, high = legal.FIELD_RANGES[name]
            high = INTEGER_LIMIT if high is None else high  # no maximum of its own: the protocol's
            unit[name] = rng.choice((low - 1, low, low + 1, high, high + 1))
        else:
            unit[name] = not unit.get(name, name == "alive")
        by_schema = validator.is_valid(scenario)
        try:
            decode_scenario(scenario)
            by_loader, why = True, ""
        except ProtocolError as error:
            by_loader, why = False, str(error)
        if by_schema and not by_loader and any(text in why for text in LOADER_ONLY):
            disagreed += 1
            continue
        assert by_schema == by_loader, (name, unit.get(name), why, list(validator.iter_errors(scenario))[:1])
        compared += 1
    assert compared > 100


#: Every action kind of every rulebook, so that the drawn scenarios hold every integer field there is.
ALL_KINDS = tuple(rulebooks.ACTION_KINDS)
#: The protocol's edges: the last integers inside its range and the first outside.
EDGES = (INTEGER_LIMIT, INTEGER_LIMIT + 1, -INTEGER_LIMIT, -INTEGER_LIMIT - 1)


def integer_leaves(value, path=()):
    """The place (keys and indexes) of every integer in a JSON value, a boolean not being one."""
    if type(value) is int:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from integer_leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from integer_leaves(item, (*path, index))


def put(data, place, value) -> str:
    """Set the value at ``place`` in ``data``; the field path the loader names it by."""
    for step in place[:-1]:
        data = data[step]
    data[place[-1]] = value
    return "scenario" + "".join(f"[{step}]" if type(step) is int else f".{step}" for step in place)


def verdicts(validator, scenario):
    """The schema's verdict, the loader's, the loader's error (None when it accepts)."""
    try:
        decode_scenario(scenario)
        error = None
    except ProtocolError as refused:
        error = refused
    return validator.is_valid(scenario), error is None, error


def test_every_integer_at_the_protocols_edges_is_judged_alike_by_the_schema_and_the_loader():
    """Each drawn scenario of every kind of both rulebooks has one integer moved to an edge of the protocol's
    range: outside it, the schema and the loader both refuse, the loader naming that very field; at the edge,
    they agree (but for the loader's checks the schema cannot state)."""
    validator = jsonschema.Draft202012Validator(scenario_schema())
    rng = random.Random(53)
    outside = inside = 0
    seen_books: set[str] = set()
    for scenario in draw_seeded(scenarios(kinds=ALL_KINDS, max_actions=3), 53, 400):
        places = list(integer_leaves(scenario))
        place, value = rng.choice(places), rng.choice(EDGES)
        where = put(scenario, place, value)
        by_schema, by_loader, error = verdicts(validator, scenario)
        seen_books.add(scenario.get("rulebook", "combat"))
        if abs(value) > INTEGER_LIMIT:
            assert not by_schema and not by_loader, (where, value, by_schema)
            assert error.path == where and "integer range" in str(error), (where, str(error))
            outside += 1
        elif by_schema and not by_loader and any(text in str(error) for text in LOADER_ONLY):
            continue
        else:
            assert by_schema == by_loader, (where, value, str(error), list(validator.iter_errors(scenario))[:1])
            inside += 1
    assert outside > 150 and inside > 100 and seen_books == set(rulebooks.RULEBOOKS)


@pytest.mark.parametrize("value, accepted", [(2**53 - 1, True), (2**53, False), (-(2**53 - 1), True),
                                             (-(2**53), False), (10**300, False)])
def test_an_unbounded_integer_field_takes_exactly_the_protocols_range(value, accepted):
    """Armor has no range of its own (a negative Armor amplifies, 500.2d): the protocol's is its range."""
    validator = jsonschema.Draft202012Validator(scenario_schema())
    scenario = {"protocol": "referee/2", "board": [{"uid": "a", "armor": value}, {"uid": "b", "side": 1}],
                "actions": [{"kind": "damage", "target": "a", "amount": 5, "source": "b"}]}
    by_schema, by_loader, error = verdicts(validator, scenario)
    assert by_schema == by_loader == accepted, (by_schema, by_loader, error)
    assert accepted or error.path == "scenario.board[0].armor"
