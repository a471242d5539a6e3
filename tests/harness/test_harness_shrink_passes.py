"""The shrink passes that make a report small: simpler kinds, wrappers dropped, Armor and damage moved together."""

from __future__ import annotations

from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.check.grouping.keyed_shrink import _shrink
from referee.check.harness import CheckOptions, compact_scenario, judge
from referee.rulebooks.combat.shrink import _joint_armor_moves, _towards_zero, candidates
from referee.check.shrink import describe_sizes, size
from referee.specs.trace import covers


def _wrapped_hit(amount: int, armor: int) -> dict:
    """A Bloodletting of cost 0 wrapping one hit of ``amount`` into ``armor`` (the shape reports showed)."""
    board = [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 100, "max_vitality": 100},
             {"uid": "b", "side": 1, "row": 0, "col": 1, "vitality": 300, "max_vitality": 300, "armor": armor}]
    hit = {"target": "b", "amount": amount, "damage_kind": "hit", "allows_dormant": False,
           "riposte_rolls": [False, False, False]}
    return {"protocol": "referee/2", "board": board,
            "actions": [{"kind": "bloodletting", "caster": "a", "cost": 0, "hits": [hit]}]}


def _shrunk(name: str, scenario: dict) -> tuple[dict, int]:
    engine = PythonEngine(mutants.load(name).run)
    with engine:
        verdict, divergences = judge({**scenario, "id": "x"}, engine.function({**scenario, "id": "x"}),
                                     CheckOptions().comparison)
        assert verdict == "mismatch"
        small, _, calls = _shrink(engine, scenario, divergences, CheckOptions(shrink_budget=1500))
    return small, calls


def test_a_bloodletting_is_replaced_by_its_hits_and_a_hit_by_a_damage():
    scenario = _wrapped_hit(975, 1600)
    kinds = [[a["kind"] for a in c["actions"]] for c in candidates(scenario)]
    assert ["hit"] in kinds
    hit = next(c for c in candidates(scenario) if [a["kind"] for a in c["actions"]] == ["hit"])
    assert hit["actions"][0]["source"] == "a" and hit["actions"][0]["amount"] == 975
    assert ["damage"] in [[a["kind"] for a in c["actions"]] for c in candidates(hit)]


@covers("combat:500.2c")
def test_975_into_1600_armor_in_a_bloodletting_shrinks_to_a_small_single_damage():
    """A Bloodletting of cost 0 wrapping one hit, 975 into 1,600 Armor (exactly on the curve: 975 * 20 / 60 = 325):
    the shrink drops the wrapper for a single ``damage`` and moves both numbers down together."""
    small, calls = _shrunk("strict_armor_boundary", _wrapped_hit(975, 1600))
    assert [a["kind"] for a in small["actions"]] == ["damage"], compact_scenario(small)
    action = small["actions"][0]
    target = next(u for u in small["board"] if u["uid"] == action["target"])
    assert action["amount"] <= 60 and target["armor"] <= 100, compact_scenario(small)
    before, after = size(_wrapped_hit(975, 1600)), size(small)
    assert after[1] < before[1]
    assert describe_sizes(before, after, calls).startswith("shrunk from 1 action, ")


def test_joint_moves_keep_the_damage_past_both_armor_steps():
    """From 975 into 1,600 (r = 40): 325 after the percentage, 5 past the flat 320; onto 5*5 = 25 Armor the
    same 5 past the flat needs 20*d/25 - 5 = 5, d = 12.5, rounded up 13: "13 into 45" territory."""
    moves = _joint_armor_moves(1600, 975)
    assert (25, 13) in moves and all(a <= 1600 and d >= 0 for a, d in moves)
    assert moves[0] == (1, 6) and moves.index((1, 6)) < moves.index((25, 13))  # smallest first: 6 past 1 Armor


def test_numbers_move_by_halves_then_quarters_eighths_down_to_one():
    assert _towards_zero(975) == [0, 487, 732, 854, 915, 945, 960, 968, 972, 974]
    assert _towards_zero(-8) == [0, -4, -6, -7]
    assert _towards_zero(1) == [0]


def test_a_compact_report_leaves_out_action_fields_at_their_default():
    scenario = _wrapped_hit(10, 0)
    scenario["actions"] = [{"kind": "damage", "target": "b", "amount": 3, "source": None, "damage_kind": "hit",
                            "allows_dormant": False, "riposte_rolls": []}]
    assert compact_scenario(scenario)["actions"] == [{"kind": "damage", "target": "b", "amount": 3}]
