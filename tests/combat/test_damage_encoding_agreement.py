"""The Z3 encoding of the damage pipeline agrees with the model, and is functional.

The encoding is the model run on symbols (``with symbolic():``), so the two are one source;
what this test holds is that the symbolic run means what the concrete run does. For random
concrete scenarios: fix every input of the encoding to the scenario's values, ask Z3 for the
outputs (every unit field of the new board, every event's guard and amount, every outcome
field), require them to equal the model's, and require that no other outputs are possible
(the side conditions of ``least_such_that`` pin exactly one value).
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any

import pytest
import z3
from damage_strategies import scenarios
from hypothesis import given, settings

from referee.model.arith import symbolic
from referee.model.combat.damage import OUTCOME_FIELDS, DamageInstance, DamageOutcome, quiet_outcome, resolve_damage
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.proofs.core import Vars
from referee.specs.trace import covers
from referee.proofs.combat.symbolic import symbolic_unit

STRUCTURE = ("uid", "side", "row", "col", "redirect_to", "intercept_by")


def structure_of(board: Board, instance: DamageInstance, ruleset: Ruleset) -> tuple[Any, ...]:
    units = tuple(tuple(getattr(u, f) for f in STRUCTURE) for u in board.units)
    return units, instance.target, instance.source, instance.kind, ruleset


@lru_cache(maxsize=None)
def encoding(structure: tuple[Any, ...]) -> tuple[Vars, list[Any], Board, list[Any], DamageOutcome]:
    """The symbolic run of resolve_damage for one board structure, instance kind and ruleset."""
    units, target, source, kind, ruleset = structure
    v = Vars()
    with symbolic() as context:
        board = Board(
            tuple(
                symbolic_unit(v, uid, side=side, row=row, col=col, redirect_to=redirect_to, intercept_by=intercept_by)
                for uid, side, row, col, redirect_to, intercept_by in units
            )
        )
        instance = DamageInstance(target, v.int("amount"), source, kind, allows_dormant=v.bool("allows_dormant"))
        after, log, outcome = resolve_damage(board, instance, ruleset)
    return v, context.side_conditions, after, log.entries, outcome


def inputs_of(board: Board, instance: DamageInstance) -> dict[str, Any]:
    values: dict[str, Any] = {"amount": instance.amount, "allows_dormant": instance.allows_dormant}
    for u in board.units:
        for f in fields(Unit):
            if f.name not in STRUCTURE:
                values[f"{u.uid}.{f.name}"] = getattr(u, f.name)
    return values


def paired_outputs(sym: tuple[Board, list[Any], DamageOutcome], con: tuple[Board, Any, DamageOutcome]):
    """(symbolic term, concrete value) pairs, and the symbolic event entries to match."""
    s_board, s_entries, s_out = sym
    c_board, _, c_out = con
    pairs = []
    for s_unit, c_unit in zip(s_board.units, c_board.units, strict=True):
        for f in fields(Unit):
            if f.name not in STRUCTURE:
                pairs.append((getattr(s_unit, f.name), getattr(c_unit, f.name), f"{c_unit.uid}.{f.name}"))
    pairs.extend(outcome_pairs(s_out, c_out, "outcome"))
    return pairs


def outcome_pairs(s: DamageOutcome | None, c: DamageOutcome | None, where: str):
    if s is None:
        assert c is None, where
        return []
    if c is None:  # the concrete run skipped an instance of no damage: all of it must be quiet
        c = quiet_outcome(s.target)
    pairs = []
    for name in OUTCOME_FIELDS:
        sv, cv = getattr(s, name), getattr(c, name)
        if isinstance(cv, DamageOutcome) or cv is None or isinstance(sv, DamageOutcome):
            pairs.extend(outcome_pairs(sv, cv, f"{where}.{name}"))
        elif name == "target":
            assert sv == cv, where
        else:
            pairs.append((sv, cv, f"{where}.{name}"))
    return pairs


def as_term(value: Any) -> Any:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


def evaluate(model: z3.ModelRef, value: Any) -> Any:
    result = model.eval(as_term(value), model_completion=True)
    return result.as_long() if z3.is_int_value(result) else z3.is_true(result)


@settings(max_examples=25, deadline=None)
@given(scenarios())
@covers("combat:500.1-5", "combat:500.1-10", "combat:500.1-13", "combat:500.1f", "combat:500.1g")
def test_the_encoding_of_resolve_damage_is_functional_and_equals_the_model(scenario):
    check_agreement(*scenario)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(scenarios())
def test_the_encoding_agrees_with_the_model_long_campaign(scenario):
    check_agreement(*scenario)


def check_agreement(board: Board, instance: DamageInstance, ruleset: Ruleset) -> None:
    """Pin the encoding's inputs to a scenario; its outputs must be the model's, and the only ones."""
    v, side, s_board, s_entries, s_out = encoding(structure_of(board, instance, ruleset))
    concrete = resolve_damage(board, instance, ruleset)
    inputs = inputs_of(board, instance)
    fixed = [(term, as_term(inputs[name])) for name, term in v.created.items()]

    def pin(value: Any) -> Any:
        """The term with the scenario's inputs substituted: only least_such_that's fresh integers remain."""
        return z3.simplify(z3.substitute(as_term(value), *fixed)) if z3.is_expr(as_term(value)) else value

    solver = z3.Solver()
    solver.set("timeout", 20_000)
    solver.add(*[pin(condition) for condition in side])
    assert solver.check() == z3.sat, "the encoding has no output for these inputs"
    model = solver.model()

    pairs = [(pin(term), expected, where) for term, expected, where in paired_outputs((s_board, s_entries, s_out), concrete)]
    for term, expected, where in pairs:
        assert evaluate(model, term) == expected, where
    entries = [(pin(g.when), pin(g.event.amount), g.event) for g in s_entries]
    sequence = [
        (event.name, event.unit, evaluate(model, amount), event.other, event.detail)
        for when, amount, event in entries
        if evaluate(model, when)
    ]
    assert sequence == [(e.name, e.unit, e.amount, e.other, e.detail) for e in concrete[1].events()]

    # Functional: under these inputs no other output is possible.
    outputs = [term for term, _, _ in pairs] + [when for when, _, _ in entries] + [amount for _, amount, _ in entries]
    differs = [as_term(t) != evaluate(model, t) for t in outputs if z3.is_expr(as_term(t)) and not z3.is_const(t)]
    if differs:
        solver.add(z3.Or(*differs))
        assert solver.check() == z3.unsat, "the encoding allows a second output for the same inputs"
