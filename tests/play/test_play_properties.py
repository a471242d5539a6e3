"""Hypothesis properties of the play model, and agreement of the symbolic encoding with the concrete model."""

from __future__ import annotations

import functools

import pytest
import z3
from hypothesis import HealthCheck, event, given, seed, settings
from hypothesis import strategies as st

from referee.model.arith import symbolic
from referee.model.play import process
from referee.model.play.cost import CostComponent, Discount, Modifiers, NonStandardCost, ResourceCost
from referee.model.play.payment import PayCost, PayResources, UseRune
from referee.model.play.process import CardText, Choices, get_cancellation
from referee.model.play.state import BOARD, DOMAINS, HAND, TRASH, GameObject, PlayState, Pool
from referee.proofs.core import THEOREMS, Vars
from referee.proofs.play.scenario import CAST
from referee.specs.trace import covers

import referee.proofs.play.action_theorems  # noqa: F401  (registers the theorems)
import referee.proofs.play.cost_theorems  # noqa: F401
import referee.proofs.play.order  # noqa: F401
import referee.proofs.play.process_theorems  # noqa: F401

small = st.integers(min_value=0, max_value=3)


@st.composite
def resource_costs(draw, limit=2):
    amount = st.integers(min_value=0, max_value=limit)
    power = tuple(draw(amount) if draw(st.booleans()) else 0 for _ in DOMAINS)
    return ResourceCost(draw(amount), power, draw(amount))


usually = st.sampled_from((True,) * 9 + (False,))

#: Zone draws lean towards where the cast usually is, so that legal plays are common.
USUAL_ZONE = {"card": HAND, "rune_a": BOARD, "rune_b": BOARD, "ally": BOARD, "foe": BOARD, "hand_unit": HAND, "trash_card": TRASH}


@st.composite
def states(draw):
    objects = tuple(
        GameObject(
            oid,
            kind,
            controller,
            domain,
            USUAL_ZONE[oid] if draw(usually) else draw(st.integers(0, 5)),
            draw(st.integers(0, 2)),
            draw(st.sampled_from((False, False, True))),
        )
        for oid, kind, controller, domain in CAST
    )
    rich = draw(st.booleans())  # half the time the pool is generous, so that legal plays are common
    pool = Pool(draw(st.integers(4 if rich else 0, 8)), tuple(draw(st.integers(3 if rich else 0, 4)) for _ in DOMAINS))
    return PlayState(pool, objects, 0, 3)


NONSTANDARD = ("kill_friendly_unit", "discard_unit", "exhaust_friendly_unit", "recycle_from_trash")
TARGETS = {
    "kill_friendly_unit": ("ally", "foe", "hand_unit"),
    "discard_unit": ("hand_unit", "ally", "trash_card"),
    "exhaust_friendly_unit": ("ally", "foe", "rune_a"),
    "recycle_from_trash": ("trash_card", "hand_unit", "ally"),
}


@st.composite
def cards(draw):
    additional = tuple(
        CostComponent(
            draw(resource_costs()),
            tuple(NonStandardCost(k) for k in draw(st.lists(st.sampled_from(NONSTANDARD), max_size=2))),
            draw(st.booleans()),
        )
        for _ in range(draw(st.integers(0, 2)))
    )
    text = CardText(CostComponent(draw(resource_costs(3))), additional)
    targets = st.sampled_from(("total", "additional", "optional_additional"))
    discounts = tuple(
        Discount(draw(small), draw(small), draw(st.booleans()), draw(targets)) for _ in range(draw(st.integers(0, 2)))
    )
    modifiers = Modifiers(tuple(draw(st.lists(resource_costs(1), max_size=1))), discounts)
    choices = Choices(tuple(draw(st.booleans()) for _ in additional), draw(st.one_of(st.integers(0, 2), st.integers(-1, 3))))
    return text, modifiers, choices


@st.composite
def plans(draw, text: CardText):
    """A plan that usually pays each non-standard cost once, on a plausible target, plus runes and resources."""
    kinds = [c.kind for component in text.additional for c in component.nonstandard]
    runes = st.sampled_from(("rune_a", "rune_b"))
    steps = [UseRune(draw(runes), draw(st.sampled_from(("exhaust", "recycle")))) for _ in range(draw(st.integers(0, 3)))]
    for index, kind in enumerate(kinds):
        if draw(usually):  # now and then a cost is left unpaid
            steps.append(PayCost(index, (draw(st.sampled_from(TARGETS[kind])),)))
    if not draw(usually):  # now and then a cost that does not exist, or one paid twice
        steps.append(PayCost(draw(st.integers(0, len(kinds))), ("ally",)))
    if draw(usually):  # now and then the player declines to pay (444.2.a)
        steps.append(PayResources(tuple(draw(st.permutations(DOMAINS)))))
    return tuple(draw(st.permutations(steps)))


@st.composite
def scenarios(draw):
    state, (text, modifiers, choices) = draw(states()), draw(cards())
    return state, text, modifiers, choices, draw(plans(text))


def spent(before: Pool, added: Pool, after: Pool) -> tuple[int, int]:
    return before.energy + added.energy - after.energy, sum(before.power) + sum(added.power) - sum(after.power)


@covers("play:358.5", "play:358.2", "play:357.1", "play:356.6")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_property_play_is_undone_exactly_or_spends_exactly_its_cost(scenario):
    state, text, modifiers, choices, plan = scenario
    result = process.process_play(state, "card", text, choices, plan, modifiers)
    total = result.total.resources
    cancellation = get_cancellation(result)
    event("played" if cancellation is None else f"undone at {cancellation.check} {cancellation.causes}")
    assert total.energy >= 0 and total.any_power >= 0 and min(total.power) >= 0
    if not result.legal:
        assert result.state is state
        assert get_cancellation(result) is not None
    else:
        assert spent(state.pool, result.payment.added, result.state.pool) == (total.energy, total.total_power)
        assert result.state.pool.energy >= 0 and min(result.state.pool.power) >= 0
        assert result.state.get("card").exhausted


def test_scenario_strategy_reaches_legal_plays_and_every_kind_of_cancellation():
    """The property above is only as good as its scenarios: they must often be legal and fail every check."""
    outcomes = []

    @seed(20261130)
    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(scenarios())
    def collect(scenario):
        state, text, modifiers, choices, plan = scenario
        cancellation = get_cancellation(process.process_play(state, "card", text, choices, plan, modifiers))
        outcomes.append(("legal", ()) if cancellation is None else (cancellation.check, cancellation.causes))

    collect()
    checks = {check for check, _ in outcomes}
    causes = {cause for _, found in outcomes for cause in found}
    assert sum(check == "legal" for check, _ in outcomes) >= len(outcomes) // 10
    assert {"legal", "354", "355.2", "358.2"} <= checks
    assert {"357.1", "357.2", "444.2.a", "414.4", "416.3", "203.3"} <= causes


@covers("play:202", "play:203", "play:203.3", "play:164.2.a", "play:164.2.b")
@settings(max_examples=300, deadline=None)
@given(states(), st.sampled_from(("exhaust", "recycle")), st.sampled_from(("rune_a", "rune_b", "ally", "foe")))
def test_property_rune_ability_adds_only_when_its_cost_is_paid(state, name, source):
    result = process.process_activate(state, source, process.get_basic_rune_ability(name), (PayCost(0),))
    grew = result.state.pool.energy + sum(result.state.pool.power) - state.pool.energy - sum(state.pool.power)
    assert grew == (1 if result.legal else 0)
    if not result.legal:
        assert result.state is state


# --------------------------------------------------------------------------------------
# Encoding agreement: each theorem's symbolic obligation, evaluated on concrete values,
# equals the same theorem run concretely on those values (the replay path).
# --------------------------------------------------------------------------------------

PLAY_THEOREMS = sorted((t for t in THEOREMS.values() if t.module.startswith("referee.proofs.play")), key=lambda t: t.name)


@functools.lru_cache(maxsize=None)
def encoded(name: str):
    variables = Vars()
    with symbolic():
        obligation = THEOREMS[name].build(variables)
    return variables.created, obligation


def evaluate(term, created: dict, values: dict) -> bool:
    if isinstance(term, bool):
        return term
    pairs = []
    for key, var in created.items():
        value = values[key]
        pairs.append((var, z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)))
    result = z3.simplify(z3.substitute(term, *pairs))
    assert z3.is_true(result) or z3.is_false(result), result
    return z3.is_true(result)


@covers("play:356.4.c", "play:357.2", "play:358.5", "play:414.4", "play:416.3", "play:203")
@pytest.mark.parametrize("thm", PLAY_THEOREMS, ids=lambda t: t.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_encoding_agrees_with_the_model_on_concrete_inputs(thm, data):
    created, obligation = encoded(thm.name)
    values = {}
    for key, var in created.items():
        if z3.is_bool(var):
            values[key] = data.draw(st.booleans(), label=key)
        elif key.endswith(".zone"):
            values[key] = data.draw(st.integers(-1, 6), label=key)
        else:
            values[key] = data.draw(st.integers(0, 4), label=key)
    concrete = thm.build(Vars(values))
    assert evaluate(obligation.assume, created, values) == bool(concrete.assume)
    assert evaluate(obligation.claim, created, values) == bool(concrete.claim)


def _fields(result) -> list:
    """Every number and flag of a play result, in a fixed order."""
    s, t = result.state, result.total.resources
    out = [result.legal, s.pool.energy, *s.pool.power, t.energy, t.any_power, *t.power]
    for o in s.objects:
        out += [o.zone, o.location, o.exhausted, o.might_bonus]
    return out


@functools.lru_cache(maxsize=None)
def encoded_plays():
    from referee.proofs.play.scenario import PLANS, symbolic_card, symbolic_choices, symbolic_state

    def build(v):
        text, modifiers = symbolic_card(v)
        return [process.process_play(symbolic_state(v), "card", text, symbolic_choices(v), plan, modifiers) for plan in PLANS.values()]

    variables = Vars()
    with symbolic():
        results = build(variables)
    return variables.created, results, build


def model_of(created: dict, values: dict):
    """A Z3 model that gives each variable its concrete value."""
    solver = z3.Solver()
    solver.add(*(var == (z3.BoolVal(values[k]) if z3.is_bool(var) else z3.IntVal(values[k])) for k, var in created.items()))
    assert solver.check() == z3.sat
    return solver.model()


def evaluate_value(term, model):
    if isinstance(term, (bool, int)):
        return term
    result = model.eval(term, model_completion=True)
    return z3.is_true(result) if z3.is_bool(result) else result.as_long()


@covers("play:354", "play:356.2", "play:357.1", "play:358.5", "play:359.2.c")
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_symbolic_play_agrees_with_the_concrete_play_field_by_field(data):
    created, symbolic_results, build = encoded_plays()
    values = {}
    for key, var in created.items():
        if z3.is_bool(var):
            values[key] = data.draw(st.booleans(), label=key)
        elif key.endswith(".zone"):
            values[key] = data.draw(st.integers(0, 5), label=key)
        else:
            values[key] = data.draw(st.integers(0, 3), label=key)
    model = model_of(created, values)
    for symbolic_result, concrete_result in zip(symbolic_results, build(Vars(values))):
        expected = _fields(concrete_result)
        assert [evaluate_value(t, model) for t in _fields(symbolic_result)] == expected
