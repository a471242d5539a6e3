"""500.9l Reliquary end to end: the ``ability`` and ``bloodletting`` actions are the caster's activation, which
clears the Speed a revival granted (and spends the charge) before anything else of it happens (INT-410).

The model, the example engine, the draw (a caster holding Reliquary Speed, or a Reliquary rune and a Vessel
for a revival in the middle of the activation), the mutant ``activation_keeps_reliquary_speed`` and a vector.
"""

from __future__ import annotations

from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.examples.engine import run as clean_engine
from referee.check.harness import CheckOptions, check, model_observation
from referee.model.combat.abilities import resolve_ability
from referee.model.combat.ability_text import Ability, Amount, Line
from referee.model.combat.bloodletting import activate_with_bloodletting
from referee.model.combat.damage import DamageInstance
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers

#: The budget of the kill; ``check`` took 8 scenarios (seed 7, no shrinking, kinds ability and bloodletting),
#: measured 2026-12-01.
BUDGET = 600


def _scenario(board: list[dict], actions: list[dict]) -> dict:
    return {"protocol": "referee/2", "board": board, "actions": actions}


def _events(observation: dict, name: str) -> list[dict]:
    return [e for e in observation["events"] if e["name"] == name]


_HIT = {"kind": "ability", "caster": "c", "targets": ["t"],
        "ability": {"name": "", "numbers": {}, "lines": [{"effect": "damage", "amount": 5, "lane": "hit", "kind": "keyword"}]}}


@covers("combat:500.9l", "combat:500.9d")
def test_500_9l_an_ability_is_the_next_activation_it_clears_reliquary_speed_and_spends_the_charge():
    board = Board((Unit("c", reliquary_speed=12, charge=40), Unit("t", side=1)))
    ability = Ability((Line("damage", Amount(5), "keyword", "hit"),))
    after, log = resolve_ability(board, "c", ability, ("t",))
    assert (after.unit("c").reliquary_speed, after.unit("c").charge) == (0, 0)
    assert log.events()[0].name == "reliquary_cleared" and log.events()[0].amount == 12


@covers("combat:500.9l")
def test_500_9l_a_bloodletting_activation_clears_it_too_and_a_caster_without_speed_reports_nothing():
    board = Board((Unit("c", reliquary_speed=7), Unit("d", col=1, reliquary_speed=3), Unit("t", side=1)))
    after, log, _ = activate_with_bloodletting(board, "c", 4, (DamageInstance("t", 5, "c"),))
    assert after.unit("c").reliquary_speed == 0 and after.unit("d").reliquary_speed == 3  # only the caster activates
    assert [e.amount for e in log.events() if e.name == "reliquary_cleared"] == [7]
    _, quiet, _ = activate_with_bloodletting(Board((Unit("c"), Unit("t", side=1))), "c", 4, ())
    assert "reliquary_cleared" not in [e.name for e in quiet.events()]


@covers("combat:500.9l", "combat:800.4j", "combat:500.4d")
def test_500_9l_a_revival_in_the_middle_of_the_activation_grants_speed_that_stands_for_the_next_one():
    """The caster pays its own lethal Bloodletting, its Vessel revives it with Reliquary Speed: the activation
    that began before the grant does not clear it (INT-410); the next one does."""
    board = [{"uid": "c", "vitality": 10, "vessels": 1, "reliquary": 15}, {"uid": "t", "side": 1, "col": 1}]
    blood = {"kind": "bloodletting", "caster": "c", "cost": 10, "hits": [{"target": "t", "amount": 5}]}
    once = clean_engine(_scenario(board, [blood]))
    assert once["board"][0]["alive"] and once["board"][0]["reliquary_speed"] == 15
    assert _events(once, "reliquary_cleared") == []
    twice = clean_engine(_scenario(board, [blood, _HIT]))
    assert twice["board"][0]["reliquary_speed"] == 0
    assert [(e["unit"], e["amount"]) for e in _events(twice, "reliquary_cleared")] == [("c", 15)]
    for actions in ([blood], [blood, _HIT]):
        model = model_observation(_scenario(board, actions))
        assert [e.to_json() for e in model.events] == clean_engine(_scenario(board, actions))["events"]


@covers("combat:500.9l")
def test_500_9l_the_clean_engine_passes_on_activations_drawn_with_reliquary_speed(in_tmp):
    report = check(PythonEngine(clean_engine), CheckOptions(examples=150, seed=3, database=None,
                                                            kinds=("ability", "bloodletting"), max_actions=2))
    assert report.status == "pass", report.text()


@covers("combat:500.9l")
def test_500_9l_an_activation_that_keeps_reliquary_speed_is_killed(in_tmp):
    mutant = mutants.BY_NAME["activation_keeps_reliquary_speed"]
    assert mutant.clause == "combat:500.9l" and set(mutant.kinds) == {"ability", "bloodletting"}
    report = check(PythonEngine(mutants.load(mutant.name).run),
                   CheckOptions(examples=BUDGET, seed=7, database=None, kinds=mutant.kinds, shrink=False))
    assert report.status == "mismatch", f"survived {report.scenarios_run} scenarios"
    assert report.scenarios_run <= BUDGET


@covers("combat:500.9l")
def test_500_9l_without_the_reliquary_feature_no_drawn_unit_holds_reliquary_speed():
    from hypothesis import given, settings

    from referee.rulebooks.combat.features import FEATURES
    from referee.rulebooks.combat.generate import draw_scenario
    from hypothesis import strategies as st

    allowed = frozenset(FEATURES) - {"reliquary"}
    seen = []

    @settings(max_examples=60, derandomize=True, database=None)
    @given(st.data())
    def run(data):
        scenario = data.draw(st.composite(lambda draw: draw_scenario(draw, ("ability",), features=allowed))())
        seen.extend(u["reliquary_speed"] + u["reliquary"] for u in scenario["board"])

    run()
    assert seen and not any(seen)
