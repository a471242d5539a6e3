"""PLAY-020 (356.4.c): a component discount on every optional additional cost paid, or once in all.

Ezreal, Prodigy reads "optional additional costs you pay cost [1] or [A] less". The ruleset option
``component_discount_scope`` names the two readings: ``each_component`` (the default) discounts each optional
additional cost paid as it is added; ``once`` lets the discount lower the first paid component it reaches (356.2:
the model adds the additional costs in the order listed) and no other.

The case, worked by hand: a spell [2] with two optional additional costs, [A] then [1], both chosen, under
Ezreal's "[1] or [A] less" (``either_discount = energy_first``: the discount takes Energy where the component has
Energy, else Power).
- each_component: [A] - [A] = 0 and [1] - [1] = 0, so the total is [2] + 0 + 0 = [2];
- once: the first paid component, [A], takes the discount (0); [1] is added whole: [2] + 0 + [1] = [3].
Declining the first optional cost leaves the discount to the second under ``once``: [2] + [1] - [1] = [2].
"""

from __future__ import annotations

import pytest

from referee.examples import play_engine
from referee.model.play.cost import CostComponent, Modifiers, ResourceCost, compute_total_cost
from referee.model.play.examples import EZREAL_PRODIGY
from referee.model.play.rules import PlayRules
from referee.rulebooks.play.run import decode_scenario, run
from referee.rulebooks.play.vectors import EZREAL, SPELL_IN_HAND, TWO_OPTIONAL, play, scenario
from referee.specs.trace import covers

SPELL = CostComponent(ResourceCost.of(2))
OPTIONAL_POWER = CostComponent(ResourceCost.of(0, any_power=1), optional=True)
OPTIONAL_ENERGY = CostComponent(ResourceCost.of(1), optional=True)


def total(scope: str, pay_optional: tuple[bool, bool]) -> ResourceCost:
    rules = PlayRules(component_discount_scope=scope)
    return compute_total_cost(SPELL, (OPTIONAL_POWER, OPTIONAL_ENERGY), pay_optional,
                              Modifiers(discounts=(EZREAL_PRODIGY,)), rules).resources


@covers("play:356.4.c")
def test_each_component_discounts_every_optional_cost_paid():
    assert total("each_component", (True, True)) == ResourceCost.of(2)


@covers("play:356.4.c")
def test_once_discounts_only_the_first_optional_cost_paid():
    assert total("once", (True, True)) == ResourceCost.of(3)


@covers("play:356.4.c", "play:355.1.a")
def test_once_leaves_the_discount_to_the_next_cost_when_the_first_is_declined():
    assert total("once", (False, True)) == ResourceCost.of(2)
    assert total("each_component", (False, True)) == ResourceCost.of(2)


@pytest.mark.parametrize(("scope", "energy", "event", "owed"), [
    ("each_component", 2, "played", 2),  # [2] owed, [2] in the pool
    ("once", 2, "play_cancelled", 3),  # [3] owed, [2] in the pool: 358.2
    ("once", 3, "played", 3),
])
def test_the_rulebook_and_the_example_engine_charge_the_reading(scope, energy, event, owed):
    data = scenario([SPELL_IN_HAND], [play(cost={"energy": 2}, additional=TWO_OPTIONAL, pay_optional=[True, True],
                                           modifiers={"discounts": [EZREAL]})], energy=energy,
                    rules={"component_discount_scope": scope})
    state, events = run(decode_scenario(data))
    assert [e.name for e in events] == [event]
    assert [e["name"] for e in play_engine.run_play(data)["events"]] == [event]
    if event == "played":
        assert state.pool.energy == energy - owed
