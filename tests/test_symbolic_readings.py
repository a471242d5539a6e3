"""Readings as symbols (issue #40): one symbolic run over an unfixed option equals each reading's own run.

For every option the model now merges, the model is run once with the option a
:class:`~referee.model.readings.SymbolicReading` and once per reading, on the same symbolic
inputs, inside one ``with symbolic()`` (so the fresh integers of ``least_such_that`` never
share a name across runs). Z3 then proves that the merged outputs, with the reading's
variable replaced by each reading's value, equal that reading's outputs, under the side
conditions of both runs: boards field by field, outcomes and return values item by item, and
event logs as the sequences of the events that hold. Each proof also checks that its
assumptions are satisfiable, so no claim holds vacuously.

The options still read with a Python branch (a fork of the query) are held too: a symbolic
reading there raises :class:`~referee.model.arith.SymbolicBranchError` naming the option.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Callable

import pytest
import z3

from referee.model.arith import SymbolicBranchError, and_, symbolic
from referee.model.combat import (
    armor, attribution, bloodletting, damage, redirect, retaliation, revival, shield,
)
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.model.readings import READING_PREFIX, SymbolicReading, readings_in
from referee.proofs.combat.retaliation_theorems import well_formed
from referee.proofs.core import Vars
from referee.query.space import ENUM_OPTIONS

#: Every option with readings, by name, the default first (the query's own table, from the Ruleset's declaration).
READINGS = ENUM_OPTIONS


def symbolic_reading(option: str) -> SymbolicReading:
    """The option as the query makes it: a Bool ``reading.<option>`` (true: its second reading), an Int index for an
    option of three readings or more (``referee.model.readings.reading_variable``)."""
    make = z3.Bool if len(READINGS[option]) == 2 else z3.Int
    return SymbolicReading(option, READINGS[option], make(READING_PREFIX + option))


# --------------------------------------------------------------------------------------
# Agreement of two runs' outputs, as one Z3 formula
# --------------------------------------------------------------------------------------


def as_term(value: Any) -> Any:
    """A Z3 term for a Python int or bool, or the term itself."""
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


def held_positions(log: EventLog) -> list[tuple[Any, Any]]:
    """Each entry's guard and its position among the events that hold (the count of held ones before it)."""
    positions, count = [], z3.IntVal(0)
    for entry in log.entries:
        guard = as_term(entry.when)
        positions.append((guard, count))
        count = count + z3.If(guard, 1, 0)
    return positions + [(None, count)]


def event_key(event: Any) -> tuple[Any, ...]:
    return event.name, event.unit, event.other, event.detail


def same_log(a: EventLog, b: EventLog) -> Any:
    """The two logs hold the same events in the same order.

    Equal counts of held events, and each held event of ``a`` is matched by a held event of ``b`` of the same
    name, unit, other and detail, at the same position among the held ones, with an equal amount: positions
    of held events are ``0 .. count - 1`` in each log, so the match is one to one and the sequences are equal.
    """
    at_a, at_b = held_positions(a), held_positions(b)
    claims = [at_a[-1][1] == at_b[-1][1]]
    for (guard_a, pos_a), entry_a in zip(at_a, a.entries):
        matches = [z3.And(guard_b, pos_b == pos_a, as_term(entry_b.event.amount) == as_term(entry_a.event.amount))
                   for (guard_b, pos_b), entry_b in zip(at_b, b.entries)
                   if event_key(entry_b.event) == event_key(entry_a.event)]
        claims.append(z3.Implies(guard_a, z3.Or(False, *matches)))
    return z3.And(*claims)


def same(a: Any, b: Any) -> Any:
    """A Z3 Boolean: two outputs of the model are equal (logs, boards, records, tuples, values)."""
    if isinstance(a, EventLog):
        return same_log(a, b)
    if isinstance(a, Board):
        return same(a.units, b.units)
    if is_dataclass(a):
        assert type(a) is type(b)
        return same(tuple(getattr(a, f.name) for f in fields(a)), tuple(getattr(b, f.name) for f in fields(b)))
    if isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b), f"shapes differ: {a!r} / {b!r}"
        return z3.And(True, *[same(x, y) for x, y in zip(a, b)])
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return z3.BoolVal(a == b)
    return as_term(a) == as_term(b)


# --------------------------------------------------------------------------------------
# The check: merged run == each reading's run
# --------------------------------------------------------------------------------------


def assert_merges(option: str, run: Callable[[Vars, Ruleset], tuple[Any, Any]], **fixed: str) -> None:
    """``run(v, ruleset) -> (assumption, outputs)`` merged over ``option`` equals it under each reading.

    ``fixed`` gives other options their reading. The merged run must not fork (no
    SymbolicBranchError), its outputs must mention the reading's variable (so the merge is real),
    and Z3 must prove agreement with each reading, under satisfiable assumptions.
    """
    reading = symbolic_reading(option)
    v = Vars()
    with symbolic() as context:
        assume, merged = run(v, Ruleset(**fixed, **{option: reading}))
        merged_sides = list(context.side_conditions)
        assert str(reading.term) in variables_in((merged, merged_sides)), f"{option}: the merged run ignores it"
        for index, value in enumerate(READINGS[option]):
            start = len(context.side_conditions)
            _, alone = run(v, Ruleset(**fixed, **{option: value}))
            assert str(reading.term) not in variables_in(alone)
            prove_agreement(merged, alone, (reading.term, z3.BoolVal(index == 1)), merged_sides,
                            context.side_conditions[start:], assume, f"{option}={value}")


def prove_agreement(merged: Any, alone: Any, substitution: tuple[Any, Any], merged_sides: list[Any],
                    own_sides: list[Any], assume: Any, label: str) -> None:
    """Z3 proves the merged outputs, the reading substituted, equal to the reading's own (assumptions satisfiable).

    In a Z3 context of its own: in the main context Z3's speed on a query depends on what the process asked before
    (in a long test worker this 2 s check once ran past its 60 s; ``referee.rulebooks.combat.vectors`` does the same)."""
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set(timeout=60_000)
    facts = [*[z3.substitute(as_term(c), substitution) for c in merged_sides], *own_sides, as_term(assume)]
    solver.add(*[as_term(f).translate(ctx) for f in facts])
    assert solver.check() == z3.sat, f"{label}: the assumptions are unsatisfiable (a vacuous check)"
    solver.add(z3.Not(z3.substitute(same(merged, alone), substitution)).translate(ctx))
    verdict = solver.check()
    assert verdict == z3.unsat, f"{label}: the merged run differs ({verdict}): {solver.model() if verdict == z3.sat else ''}"


def variables_in(outputs: Any) -> set[str]:
    """The names of the Z3 variables the outputs mention (each shared subterm visited once: the terms are DAGs)."""
    seen, found, todo = set(), set(), terms_in(outputs)
    while todo:
        term = todo.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            found.add(str(term))
        todo.extend(term.children())
    return found


def terms_in(outputs: Any) -> list[Any]:
    """Every Z3 term in the outputs (guards, amounts, fields)."""
    if isinstance(outputs, EventLog):
        return [t for entry in outputs.entries for t in terms_in((entry.when, entry.event.amount))]
    if isinstance(outputs, Board):
        return terms_in(outputs.units)
    if is_dataclass(outputs):
        return terms_in(tuple(getattr(outputs, f.name) for f in fields(outputs)))
    if isinstance(outputs, (tuple, list)):
        return [t for item in outputs for t in terms_in(item)]
    return [outputs] if isinstance(outputs, z3.ExprRef) else []


def unit(v: Vars, uid: str, side: int, col: int, symbols: tuple[str, ...] = (), **values: Any) -> Unit:
    """A unit with 20 of 20 Vitality, ``values`` set and the fields named in ``symbols`` variables ``uid.field``.

    Only the fields an option's merge touches are symbolic: a whole symbolic board makes each proof take
    minutes, and the claim is the same on every input.
    """
    defaults = {f.name: f.default for f in fields(Unit)}
    made = {name: (v.bool if isinstance(defaults[name], bool) else v.int)(f"{uid}.{name}") for name in symbols}
    return Unit(uid, side=side, row=0, col=col, **{"vitality": 20, "max_vitality": 20, **values, **made})


def hit_on(v: Vars, target: str, source: str = "a", kind: str = "hit", **extra: Any) -> DamageInstance:
    """An instance of a symbolic amount from ``source`` at ``target``."""
    return DamageInstance(target=target, amount=v.int("amount"), source=source, kind=kind, **extra)


def pipeline(board_of: Callable[[Vars], Board], instance_of: Callable[[Vars], DamageInstance],
             step: Callable = damage.resolve_damage) -> Callable:
    """A run of one instance through ``step`` (the pipeline, or a whole hit) on a well-formed board."""

    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        board, instance = board_of(v), instance_of(v)
        return and_(well_formed(board), instance.amount >= 0, instance.amount <= 60), step(board, instance, rules)

    return run


def boss_and_attacker(*symbols: str) -> Callable[[Vars], Board]:
    """A boss ``b`` with the Reflect rune and an attacker ``a`` on the other half, ``symbols`` of ``a`` variables."""
    return lambda v: Board((unit(v, "b", 1, 0, is_boss=True, reflect=True, vitality=100, max_vitality=100),
                            unit(v, "a", 0, 1, symbols)))


# --------------------------------------------------------------------------------------
# The options that merge: one run, every reading
# --------------------------------------------------------------------------------------


def test_negative_armor_merges():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        d, a = v.int("damage"), v.int("armor")
        return and_(d >= 0, d <= 30, a < 0, a >= -60), armor.compute_surviving_after_negative_armor(d, a, rules)

    assert_merges("negative_armor", run)


@pytest.mark.parametrize("printed", [True, False], ids=["printed_multiplier", "symbolic_multiplier"])
def test_shield_multiplier_rounding_merges(printed: bool):
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        pool, m = v.int("shield"), 3 if printed else v.int("multiplier")
        return and_(pool >= 0, pool <= 40, m >= 1, m <= 4), shield.compute_damage_to_break(pool, m, rules)

    assert_merges("shield_multiplier_rounding", run)


def test_redirect_cap_moves_merges():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        remaining, cap = v.int("remaining"), v.int("cap")
        return remaining >= 0, redirect.compute_redirected(remaining, cap, rules)

    assert_merges("redirect_cap_moves", run)


def test_bloodletting_defied_to_zero_merges():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        payer = unit(v, "p", 0, 0, ("is_tool", "is_hub"))
        return True, bloodletting.is_failed_payment(payer, v.bool("attempted"), v.int("paid"), rules)

    assert_merges("bloodletting_defied_to_zero", run)


def test_riposte_roll_on_refused_merges():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        attacker = unit(v, "a", 0, 1, ("alive", "entrapped", "dormant"))
        return True, retaliation.needs_riposte_roll(unit(v, "r", 1, 0, riposte=2), attacker, v.bool("event"), rules)

    assert_merges("riposte_roll_on_refused", run)


def test_reflect_lanes_merges_on_a_tick_into_a_reflect_boss():
    tick = pipeline(boss_and_attacker("vitality"), lambda v: hit_on(v, "b", kind="burn"), retaliation.resolve_hit)
    assert_merges("reflect_lanes", tick)


def test_reflect_entry_merges_when_no_interceptor_is_named():
    reflect = pipeline(boss_and_attacker("ignore_charges"), lambda v: hit_on(v, "a", source="b", kind="reflect"))
    assert_merges("reflect_entry", reflect)


def test_reflect_subrogation_merges():
    reflect = pipeline(boss_and_attacker("subrogated"), lambda v: hit_on(v, "a", source="b", kind="reflect"))
    assert_merges("reflect_subrogation", reflect)


def test_lethal_redirect_test_merges():
    board = lambda v: Board((unit(v, "r", 1, 0, ("vitality", "shield"), intercept_by="i"), unit(v, "i", 1, 1),
                             unit(v, "a", 0, 2)))  # fmt: skip
    assert_merges("lethal_redirect_test", pipeline(board, lambda v: hit_on(v, "r")))


def test_stagger_lanes_merges_on_a_tick_into_a_boss():
    board = lambda v: Board((unit(v, "b", 1, 0, ("shield",), is_boss=True), unit(v, "a", 0, 1)))
    assert_merges("stagger_lanes", pipeline(board, lambda v: hit_on(v, "b", kind="venom")))


def test_damage_event_test_merges():
    board = lambda v: Board((unit(v, "r", 1, 0, ("shield", "defy_death", "insurance")), unit(v, "a", 0, 1)))
    assert_merges("damage_event_test", pipeline(board, lambda v: hit_on(v, "r")))


def shared_tick_credit(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
    """Credit and Feast for a tick two appliers share, of symbolic size (500.5b, 500.5c)."""
    credited, lost, log = v.int("credited"), v.int("lost"), EventLog()
    tick = DamageInstance(target="r", amount=credited, source="a", kind="burn", appliers=(("a", 1), ("c", 2)))
    attribution.process_credit(tick, "r", credited, lost, log, rules)
    return and_(lost >= 0, lost <= credited, credited <= 8), log


def test_tick_share_rounding_merges():
    assert_merges("tick_share_rounding", shared_tick_credit)


@pytest.mark.parametrize("rounding", READINGS["tick_share_rounding"])
def test_tick_feast_shares_merges(rounding: str):
    assert_merges("tick_feast_shares", shared_tick_credit, tick_share_rounding=rounding)


def test_zero_maximum_revival_merges_for_the_check_and_the_floored_maximum():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        dead = unit(v, "u", 0, 0, ("max_vitality", "vessels", "everlasting"), alive=False, vitality=0)
        return True, (revival.is_revivable(dead, rules), revival.floor_revivable_maximum(dead, rules))

    assert_merges("zero_maximum_revival", run)


def test_zero_maximum_revival_merges_through_a_death():
    def run(v: Vars, rules: Ruleset) -> tuple[Any, Any]:
        from referee.model.combat.vitality import process_death

        dying = unit(v, "u", 0, 0, ("max_vitality", "vessels", "everlasting"), vitality=0)
        board, log = Board((dying, unit(v, "k", 1, 1))), EventLog()
        after = process_death(board, "u", v.bool("dies"), "k", log, rules)
        return and_(dying.max_vitality >= 0, dying.vessels >= 0), (after, log)

    assert_merges("zero_maximum_revival", run)


# --------------------------------------------------------------------------------------
# A symbolic reading is never read as a value: a Python branch on it forks, naming the option
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", sorted(READINGS))
@pytest.mark.parametrize("use", ["if", "bool", "hash", "str", "format"])
def test_a_python_use_of_a_symbolic_reading_raises_naming_the_option(option: str, use: str):
    reading = symbolic_reading(option)
    uses = {"if": lambda: bool(reading == READINGS[option][0]), "bool": lambda: bool(reading),
            "hash": lambda: hash(reading), "str": lambda: str(reading), "format": lambda: f"{reading}"}
    with symbolic(), pytest.raises(SymbolicBranchError) as raised:
        uses[use]()
    assert readings_in(raised.value.term) == [option]


def test_an_interceptor_with_a_symbolic_reflect_entry_forks_the_query():
    """Whether the Reflect is moved whole to an interceptor is structure (a unit chosen or not): the model forks."""
    v = Vars()
    with symbolic(), pytest.raises(SymbolicBranchError) as raised:
        board = Board((unit(v, "a", 0, 0, intercept_by="i"), unit(v, "i", 0, 1), unit(v, "b", 1, 0, is_boss=True)))
        damage.resolve_damage(board, hit_on(v, "a", source="b", kind="reflect"),
                              Ruleset(reflect_entry=symbolic_reading("reflect_entry")))
    assert readings_in(raised.value.term) == ["reflect_entry"]


def test_the_everlasting_slot_order_forks_the_query():
    """The slot a revival takes is structure (another engineer's slice merges what it can): the model forks."""
    v = Vars()
    with symbolic(), pytest.raises(SymbolicBranchError) as raised:
        board = Board((unit(v, "u", 0, 0, ("alive",)),))
        revival.get_everlasting_slot(board, board.unit("u"), 2, 2,
                                     Ruleset(everlasting_slot_order=symbolic_reading("everlasting_slot_order")))
    assert readings_in(raised.value.term) == ["everlasting_slot_order"]


def test_the_fast_twin_never_runs_inside_a_symbolic_run():
    """fast.py reads options with Python branches: it must never meet a symbolic ruleset, and inside ``symbolic()``
    it is off even for a concrete board, so a symbolic reading reaches the single-source model only."""
    from referee.model.combat import fast

    board = Board((Unit("r", side=1, vitality=50, max_vitality=50, armor=-30), Unit("a", side=0, vitality=50,
                                                                                    max_vitality=50)))
    rules = Ruleset(negative_armor=symbolic_reading("negative_armor"))
    with symbolic():
        assert not fast.is_concrete_run(10)
        _, _, outcome = damage.resolve_damage(board, DamageInstance(target="r", amount=10, source="a"), rules)
    assert readings_in(outcome.vitality_lost == outcome.vitality_lost) == ["negative_armor"]
    with pytest.raises(SymbolicBranchError):  # outside symbolic() the fast twin refuses the option, never misreads it
        damage.resolve_damage(board, DamageInstance(target="r", amount=10, source="a"), rules)
