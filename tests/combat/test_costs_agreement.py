"""Encoding agreement: the symbolic run of the cost, Bloodletting and retaliation code, with concrete
values substituted and simplified, gives exactly the concrete run's board and events.

The encodings are single-source (the model run on Z3 terms), so this holds the two modes of
one code path together: an ``ite`` that picks the wrong branch, an event guarded by the
wrong condition, or a Python branch that only the concrete run takes would all show here.
The payer choice is structure decided by symbolic flags (an index chosen with ``ite``); it is
checked the same way, and its encoding is shown to name exactly one payer or none.
"""

from __future__ import annotations

import functools
from typing import Any

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.model.combat import bloodletting, costs, retaliation
from referee.model.arith import symbolic
from referee.model.events import EventLog
from referee.model.combat.state import UNIT_FIELDS, Board, Unit
from referee.proofs.core import Vars
from referee.specs.trace import covers
from referee.proofs.combat.symbolic import symbolic_unit

CHANNEL = {"bloodletting": "bloodletting_paid", "interest": "cost_paid", "self_destruct": "cost_paid", "retaliation": "thorns"}


class Values:
    """Concrete values for the variables of a symbolic run, ready to substitute."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.pairs = []
        for name, value in values.items():
            if isinstance(value, bool):
                self.pairs.append((z3.Bool(name), z3.BoolVal(value)))
            else:
                self.pairs.append((z3.Int(name), z3.IntVal(value)))

    def __call__(self, term: Any) -> Any:
        """A term with every variable replaced by its value, simplified to a Python value."""
        if not z3.is_expr(term):
            return term
        result = z3.simplify(z3.substitute(term, *self.pairs))
        if z3.is_int_value(result):
            return result.as_long()
        if z3.is_true(result) or z3.is_false(result):
            return z3.is_true(result)
        raise AssertionError(f"term did not simplify to a value: {result}")


def concrete_board(board: Board, evaluate: Values) -> Board:
    return Board(tuple(Unit(**{f: evaluate(getattr(u, f)) for f in UNIT_FIELDS}) for u in board.units))


def concrete_events(log: EventLog, evaluate: Values) -> list[tuple[Any, ...]]:
    return [(g.event.name, g.event.unit, evaluate(g.event.amount), g.event.other, g.event.detail)
            for g in log.entries if evaluate(g.when)]  # fmt: skip


def plain_events(log: EventLog) -> list[tuple[Any, ...]]:
    return [(e.name, e.unit, e.amount, e.other, e.detail) for e in log.events()]


@st.composite
def unit_values(draw: Any, uid: str) -> dict[str, Any]:
    alive = draw(st.booleans())
    vitality = draw(st.integers(1, 60)) if alive else 0
    values = {
        f"{uid}.alive": alive, f"{uid}.vitality": vitality, f"{uid}.max_vitality": vitality + draw(st.integers(0, 9)),
        f"{uid}.entrapped": draw(st.integers(0, 4)) == 0, f"{uid}.dormant": draw(st.integers(0, 4)) == 0,
        f"{uid}.is_tool": draw(st.integers(0, 6)) == 0, f"{uid}.is_hub": False, f"{uid}.is_boss": draw(st.integers(0, 5)) == 0,
        f"{uid}.shield": draw(st.integers(0, 30)), f"{uid}.defy_death": draw(st.booleans()),
        f"{uid}.adrenaline": draw(st.integers(0, 2)), f"{uid}.vessels": draw(st.integers(0, 1)),
        f"{uid}.everlasting": draw(st.booleans()), f"{uid}.deathrattle": draw(st.booleans()),
        f"{uid}.bloodletting_reduction": draw(st.integers(0, 5)),
    }  # fmt: skip
    return values


@functools.cache
def symbolic_cost(kind: str) -> tuple[Vars, Board, EventLog]:
    """The cost's encoding, built once per kind."""
    v, log = Vars(), EventLog()
    with symbolic():
        after = _cost(v, kind, log)
    return v, after, log


@functools.cache
def symbolic_bleed() -> tuple[Vars, Board, Any, EventLog]:
    v, log = Vars(), EventLog()
    with symbolic():
        after, outcome = _bleed(v, log)
    return v, after, outcome, log


@functools.cache
def symbolic_payer_indices() -> tuple[Vars, dict[str, Any]]:
    v = Vars()
    with symbolic():
        board = _grid(v)
        indices = {u.uid: bloodletting.compute_payer_index(bloodletting.compute_reading_order(board, u.side), u)
                   for u in board.units}  # fmt: skip
    return v, indices


def _cost(v: Vars, kind: str, log: EventLog) -> Board:
    board = Board((symbolic_unit(v, "p", side=0), symbolic_unit(v, "q", side=1)))
    after, _ = costs.pay_vitality_cost(board, "p", v.int("amount"), kind, log, channel=CHANNEL[kind], beneficiary="q")
    return after


def _complete(v: Vars, values: dict[str, Any]) -> dict[str, Any]:
    """Every variable the symbolic run created, with the drawn value or the field's default."""
    out = {}
    for name, term in v.created.items():
        out[name] = values.get(name, False if term.sort() == z3.BoolSort() else 0)
    return out


@covers("combat:500.8a", "combat:500.8b", "combat:500.8f", "combat:500.8g", "combat:500.8h")
@settings(max_examples=30, deadline=None)
@given(unit_values("p"), unit_values("q"), st.integers(-3, 80), st.sampled_from(costs.COST_KINDS))
def test_cost_encoding_agrees_with_the_model(p, q, amount, kind):
    symbolic_vars, after, log = symbolic_cost(kind)
    values = _complete(symbolic_vars, {**p, **q, "amount": amount})
    concrete_log = EventLog()
    expected = _cost(Vars(values), kind, concrete_log)
    evaluate = Values(values)
    assert concrete_board(after, evaluate) == expected
    assert concrete_events(log, evaluate) == plain_events(concrete_log)


def _bleed(v: Vars, log: EventLog) -> tuple[Board, Any]:
    free = dict(alive=True, entrapped=False, is_boss=False)
    board = Board((symbolic_unit(v, "p", side=0, row=0, col=0, **free), symbolic_unit(v, "c", side=0, row=1, col=0, **free),
                   symbolic_unit(v, "q", side=1, **free)))  # fmt: skip
    return bloodletting.process_bloodletting(board, "c", v.int("printed"), log)


@covers("combat:800.4d", "combat:800.4g", "combat:800.4l", "combat:800.4m")
@settings(max_examples=30, deadline=None)
@given(unit_values("p"), unit_values("c"), st.integers(-3, 80))
def test_bloodletting_step_encoding_agrees_with_the_model(p, c, printed):
    free = {k: v for k, v in {**p, **c}.items() if not k.endswith((".alive", ".entrapped", ".is_boss"))}
    for uid in ("p", "c"):
        free[f"{uid}.vitality"] = max(free[f"{uid}.vitality"], 1)
    symbolic_vars, after, outcome, log = symbolic_bleed()
    values = _complete(symbolic_vars, {**free, "printed": printed})
    concrete_log = EventLog()
    expected, expected_outcome = _bleed(Vars(values), concrete_log)
    evaluate = Values(values)
    assert concrete_board(after, evaluate) == expected
    assert concrete_events(log, evaluate) == plain_events(concrete_log)
    for name in ("cost", "paid", "skipped", "aborted", "failed"):
        assert evaluate(getattr(outcome, name)) == getattr(expected_outcome, name)


#: The flags the payer choice reads (800.4c, 800.4d).
FLAGS = (".alive", ".entrapped", ".is_boss", ".is_tool", ".is_hub")


def _grid(v: Vars) -> Board:
    return Board(tuple(symbolic_unit(v, f"u{s}{r}{col}", side=s, row=r, col=col) for s in (0, 1) for r in range(2) for col in range(3)))


@covers("combat:800.4b", "combat:800.4c", "combat:800.4e")
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_payer_index_encoding_agrees_with_the_model(data):
    symbolic_vars, indices = symbolic_payer_indices()
    values = {}
    for name, term in symbolic_vars.created.items():
        if term.sort() == z3.BoolSort():
            values[name] = data.draw(st.booleans(), label=name) if name.endswith(FLAGS) else False
        else:
            values[name] = 10
    concrete = _grid(Vars(values))
    evaluate = Values({k: v for k, v in values.items() if k.endswith(FLAGS)})
    for caster in concrete.units:
        index = evaluate(indices[caster.uid])
        order = bloodletting.compute_reading_order(concrete, caster.side)
        chosen = None if index == bloodletting.NO_PAYER else order[index].uid
        assert chosen == bloodletting.choose_bloodletting_payer(concrete, caster.uid)


@covers("combat:800.4e")
def test_payer_index_encoding_is_functional_one_payer_or_none():
    """For every assignment of the flags, the encoded index is one position of the caster's half or none."""
    v = Vars()
    with symbolic():
        board = _grid(v)
        caster = board.units[4]
        order = bloodletting.compute_reading_order(board, caster.side)
        index = bloodletting.compute_payer_index(order, caster)
    solver = z3.Solver()
    solver.add(z3.Not(z3.Or(index == bloodletting.NO_PAYER, *[index == i for i in range(len(order))])))
    assert solver.check() == z3.unsat


@covers("combat:500.7e", "combat:500.7b")
def test_riposte_roll_cursor_encoding_picks_the_roll_the_concrete_run_picks():
    rolls = (z3.Bool("r0"), z3.Bool("r1"), z3.Bool("r2"))
    needs = (z3.Bool("n0"), z3.Bool("n1"), z3.Bool("n2"))
    with symbolic():
        cursor = retaliation.RollCursor(rolls)
        taken = [cursor.take(n, "test") for n in needs]
    for bits in range(64):
        values = {f"r{i}": bool(bits >> i & 1) for i in range(3)} | {f"n{i}": bool(bits >> (i + 3) & 1) for i in range(3)}
        concrete = retaliation.RollCursor(tuple(values[f"r{i}"] for i in range(3)))
        expected = [concrete.take(values[f"n{i}"], "test") for i in range(3)]
        evaluate = Values(values)
        assert [evaluate(t) for t in taken] == expected


def _bleed_any_payer(v: Vars, log: EventLog) -> tuple[Board, Any]:
    """Two units on the caster's half, every eligibility flag a variable: the payer's index is a condition."""
    board = Board((symbolic_unit(v, "p", side=0, row=0, col=0), symbolic_unit(v, "c", side=0, row=1, col=0),
                   symbolic_unit(v, "q", side=1)))  # fmt: skip
    return bloodletting.process_bloodletting(board, "c", v.int("printed"), log)


class ModelValues(Values):
    """The same values, read through one Z3 model (``model.eval``): ~50x faster than substituting each term."""

    def __init__(self, values: dict[str, Any]) -> None:
        super().__init__(values)
        solver = z3.Solver()
        solver.add(*[var == value for var, value in self.pairs])
        assert solver.check() == z3.sat
        self.model = solver.model()

    def __call__(self, term: Any) -> Any:
        if not z3.is_expr(term):
            return term
        result = self.model.eval(term, model_completion=True)
        return result.as_long() if z3.is_int_value(result) else z3.is_true(result)


@functools.cache
def symbolic_bleed_any_payer() -> tuple[Vars, Board, Any, EventLog]:
    v, log = Vars(), EventLog()
    with symbolic():
        after, outcome = _bleed_any_payer(v, log)
    return v, after, outcome, log


@covers("combat:800.4b", "combat:800.4c", "combat:800.4d", "combat:800.4e", "combat:800.4k", "combat:800.4m")
@settings(max_examples=60, deadline=None)
@given(unit_values("p"), unit_values("c"), st.integers(-3, 80))
def test_bloodletting_step_with_a_symbolic_payer_agrees_with_the_model(p, c, printed):
    """The guarded payment of each candidate (``process_payment_by_index``) gives the concrete run's payer's."""
    symbolic_vars, after, outcome, log = symbolic_bleed_any_payer()
    values = _complete(symbolic_vars, {**p, **c, "printed": printed})
    concrete_log = EventLog()
    expected, expected_outcome = _bleed_any_payer(Vars(values), concrete_log)
    evaluate = ModelValues(values)
    assert concrete_board(after, evaluate) == expected
    assert concrete_events(log, evaluate) == plain_events(concrete_log)
    for name in ("cost", "paid", "skipped", "aborted", "failed"):
        assert evaluate(getattr(outcome, name)) == getattr(expected_outcome, name)
