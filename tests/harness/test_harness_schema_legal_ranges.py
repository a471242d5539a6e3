"""``referee schema`` states the legal range of every unit field from ``referee.model.combat.legal``, and the
scenario schema accepts what the loader accepts: drawn scenarios moved onto the edges of every range agree,
but for the comparisons the schema cannot state (said in its ``$comment``) and the actions' own conditions."""

from __future__ import annotations

import random

import jsonschema

from referee.model.combat import legal
from referee.model.combat.state import Board, Unit
from referee.protocol import decode_scenario, scenario_schema
from referee.seeded import draw_seeded
from referee.check.strategies import scenarios
from referee.wire import ProtocolError

#: Loader verdicts the schema cannot reach: comparisons between fields, links, cells, the actions' conditions.
LOADER_ONLY = ("must be <= max_vitality", "cannot name itself", "is an enemy", "not on the board", "already holds",
               "overtime tick", "dead unit deals", "no unit with uid")


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
            unit[name] = rng.choice((low - 1, low, low + 1, *(() if high is None else (high, high + 1))))
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
