"""``referee explain``: a scenario resolved step by step, each step citing its clause (400.8)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from referee.actions import ACTION_KINDS
from referee.cli.app import app
from referee.explain import EXPLAINERS, PLAY_EXPLAINERS, explain_actions, explain_steps
from referee.check.strategies import scenarios
from referee.specs.trace import covers

runner = CliRunner()


def explain(tmp_path, scenario) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(scenario if isinstance(scenario, str) else json.dumps(scenario), encoding="utf-8")
    result = runner.invoke(app, ["explain", str(path)])
    return result.exit_code, result.stdout, result.stderr


@covers("combat:400.8-7")
def test_explain_cites_each_step_of_a_hit_with_its_numbers(tmp_path):
    code, out, _ = explain(tmp_path, {
        "board": [{"uid": "a", "armor": 81, "insurance": 1}, {"uid": "e", "side": 1}],
        "damage": {"target": "a", "amount": 87, "source": "e"},
    })
    assert code == 0
    assert "[combat:500.1-5] Armor 81" in out and "87 x 20/29 = 60" in out and "87 -> 60" in out  # exact, not a float's 61
    assert "[combat:500.1-6] flat reduction 16" in out and "60 -> 44" in out
    assert "[combat:500.1-9] 1 plain Insurance point(s) of 1 absorb 25 (up to 25 each, spent whole, 500.1a)" in out
    assert "44 -> 19" in out
    assert "[combat:500.1-13] a loses 19 Vitality (100 -> 81)." in out
    assert "damage_taken unit=a amount=19 other=e detail=hit" in out


def test_explain_indents_the_interceptors_own_instance(tmp_path):
    code, out, _ = explain(tmp_path, {
        "board": [{"uid": "a", "vitality": 20, "intercept_by": "c"}, {"uid": "c", "col": 1}, {"uid": "e", "side": 1}],
        "damage": {"target": "a", "amount": 50, "source": "e", "kind": "hit"},
    })
    assert code == 0
    assert "[combat:500.1f]" in out and "    [combat:500.1-13] c loses 50 Vitality (100 -> 50)." in out


def test_explain_accepts_a_protocol_scenario(tmp_path):
    code, out, _ = explain(tmp_path, {
        "protocol": "referee/2",
        "board": [{"uid": "a", "rune_tick_reduction": 5}, {"uid": "e", "side": 1}],
        "actions": [{"kind": "damage", "target": "a", "amount": 4, "source": "e", "damage_kind": "burn"}],
    })
    assert code == 0 and "never enters the pipeline" in out and "tick_prevented" in out


def test_invalid_scenarios_get_a_clear_error_and_exit_2(tmp_path):
    code, _, err = explain(tmp_path, "{not json")
    assert code == 2 and "not valid JSON" in err
    code, _, err = explain(tmp_path, {"board": [{"uid": "a"}], "damage": {"target": "zz", "amount": 3}})
    assert code == 2 and "zz" in err
    code, _, err = explain(tmp_path, {"board": [{"uid": "a", "armour": 3}], "damage": {"target": "a", "amount": 3}})
    assert code == 2 and "armour" in err


# --------------------------------------------------------------------------------------
# The waterfall, what answers a hit, and every action kind (issue 11)
# --------------------------------------------------------------------------------------

ENEMY = {"uid": "e", "side": 1}


def scenario(board, *actions, **extra):
    return {"protocol": "referee/2", "board": board, "actions": list(actions), **extra}


@covers("combat:500.1-5", "combat:500.2c")
def test_explain_shows_the_exact_armor_value_before_rounding(tmp_path):
    code, out, _ = explain(tmp_path, {"board": [{"uid": "a", "armor": 100}, ENEMY],
                                      "damage": {"target": "a", "amount": 31, "source": "e"}})
    assert code == 0
    assert "31 x 20/30 = 20 2/3, rounded up against the defender (500.2c): 31 -> 21." in out
    steps = explain_steps({"board": [{"uid": "a", "armor": 100}, ENEMY], "damage": {"target": "a", "amount": 31, "source": "e"}})
    armor = next(s for s in steps if s.step == "armor_percentage")
    assert armor.to_json()["quantities"] == {"before": 31, "exact": "62/3", "after": 21, "armor": 100}
    code, out, _ = explain(tmp_path, {"board": [{"uid": "a", "armor": 83}, ENEMY],
                                      "damage": {"target": "a", "amount": 31, "source": "e"}})
    assert "31 x 20/(sqrt(83)+20) = ~21.2982, rounded up against the defender (500.2c): 31 -> 22." in out  # irrational: shown to 4 decimals, never a float


@covers("combat:500.1-8", "combat:500.6f", "combat:500.1b")
def test_explain_credits_a_subrogated_payback_to_the_insured_unit_not_to_nobody(tmp_path):
    code, out, _ = explain(tmp_path, {"board": [{"uid": "a", "subrogated": 1}, ENEMY],
                                      "damage": {"target": "a", "amount": 40, "source": "e"}})
    assert code == 0
    lines = out.splitlines()
    payback = next(i for i, l in enumerate(lines) if "[combat:500.7g]" in l)
    assert "e loses 25 Vitality" in lines[payback] and "skips the pipeline (500.8a)" in lines[payback]
    assert "[combat:500.6f] a, the retaliating unit, is credited the 25 Vitality it took; it feeds a's Feast." in lines[payback + 1]
    nobody = next(l for l in lines if "[combat:500.1b]" in l)
    assert "the 25 damage Insurance absorbed is credited to nobody" in nobody


@covers("combat:500.7f", "combat:500.7a")
def test_explain_names_only_the_answers_that_are_present(tmp_path):
    plain = scenario([{"uid": "a"}, ENEMY], {"kind": "hit", "target": "a", "amount": 10, "source": "e"})
    code, out, _ = explain(tmp_path, plain)
    assert code == 0 and "Retort" not in out and "500.7f" not in out and "Thorns" not in out and "Reflect" not in out
    thorny = scenario([{"uid": "a", "thorns": 3, "retort": 2, "shield": 50}, ENEMY],
                      {"kind": "hit", "target": "a", "amount": 10, "source": "e"})
    code, out, _ = explain(tmp_path, thorny)
    assert "[combat:500.7d] Thorns on a does not fire" in out  # Shield swallowed it whole
    assert "[combat:500.7f] Retort on a does not answer: it answers only damage that landed on Vitality" in out


@covers("combat:500.7h", "combat:500.7i", "combat:500.7j", "combat:500.7k")
def test_explain_gives_a_reflect_its_own_waterfall(tmp_path):
    code, out, _ = explain(tmp_path, REFLECT_SCENARIO)
    assert code == 0
    assert "[combat:500.7h] boss's Reflect sends back 5% of the 59 that landed: 2 19/20, rounded down but never below 1: 2" in out
    assert "      [combat:500.1] boss's reflect of 2 at a." in out  # one level deeper
    assert "      [combat:500.1-5] a Reflect skips the attacker's Armor (500.7j)" in out
    assert "      [combat:500.1-9]" in out and "credited to nobody" in out


@covers("combat:800.4b", "combat:800.4g", "combat:800.4f")
def test_explain_walks_a_bloodletting_activation(tmp_path):
    code, out, _ = explain(tmp_path, BLOODLETTING_SCENARIO)
    assert code == 0 and "not explained" not in out
    assert "[combat:800.4l]" in out and "12 -> 10" in out
    assert "d (row 0, col 0) skipped: dead" in out
    assert "[combat:800.4g] the price 10 is clamped to the 5 Vitality p has" in out
    assert "skips the whole pipeline (500.8a): Shield 3 is never met and never spent." in out
    assert "    [combat:500.1-13] e loses 30 Vitality (100 -> 70)." in out


@covers("combat:500.8a", "combat:500.8f", "combat:500.2e")
def test_explain_walks_a_cost_and_an_armor_debuff(tmp_path):
    code, out, _ = explain(tmp_path, scenario(
        [{"uid": "p", "vitality": 8, "shield": 1, "defy_death": True}],
        {"kind": "cost", "payer": "p", "amount": 30, "cost_kind": "interest"},
        {"kind": "armor_debuff", "target": "p", "debuff": "crush", "amount": 7},
    ))
    assert code == 0 and "not explained" not in out
    assert "skips the whole pipeline (500.8a): Shield 1 is never met and never spent." in out
    assert "a defy-death rune does not answer Interest: it pays through" in out
    assert "[combat:500.8g] Interest also debits maximum Vitality by 8 (100 -> 92)" in out
    assert "[combat:500.2e] Crush 7 lowers p's Armor, past 0 if need be: 0 -> -7." in out


@covers("play:358.5", "play:350.1", "play:399")
def test_explain_walks_play_scenarios_without_crashing(tmp_path):
    code, out, err = explain(tmp_path, PLAY_SCENARIO)
    assert code == 0, err
    assert "[play:354] c moves from hand to the chain." in out and "[play:350.1] c is played (350.1)." in out
    assert "[play:357.2] exhaust this: not paid (impossible: 414.4)." in out
    assert "[play:358.5] check 358.2 failed (because of 414.4)" in out
    assert "c: zone hand -> chain" in out


@covers("combat:400.8-3", "combat:400.8c", "combat:400.8b")
def test_explain_answers_the_worked_example_no_vitality_is_restored(tmp_path):
    code, out, err = explain(tmp_path, WORKED_EXAMPLE)
    assert code == 0, err
    assert "[combat:400.8-5] t is dead: it receives nothing; it was killed by this activation" in out
    assert "6 x 0 = 0; a count of 0 resolves to 0, it is not floored to 1 (400.8c)" in out
    assert "[combat:400.8] answer: no Vitality is restored; died: t." in out


def test_explain_json_emits_the_same_steps_as_data(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(REFLECT_SCENARIO))
    result = runner.invoke(app, ["explain", "--json", str(path)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    steps = data["actions"][0]["steps"]
    text = runner.invoke(app, ["explain", str(path)]).stdout
    assert all(f"[{s['clause']}] {s['text']}" in text for s in steps)
    reflect = next(s for s in steps if s["step"] == "reflect")
    assert reflect["clause"] == "combat:500.7h" and reflect["quantities"] == {"landed": 59, "exact": "59/20", "amount": 2}
    assert [e["name"] for e in data["actions"][0]["events"]][:2] == ["damage_taken", "credit"]


def test_explain_accepts_a_vector_file_and_a_replay_file(tmp_path):
    vector = {"scenario": BLOODLETTING_SCENARIO, "expected": {"protocol": "referee/2", "board": [], "events": []},
              "clauses": ["combat:800.4b"], "branch": "x", "source": "boundary"}
    code, out, _ = explain(tmp_path, vector)
    assert code == 0 and out.startswith("a conformance vector") and "[combat:800.4b]" in out
    code, out, _ = explain(tmp_path, {**REFLECT_SCENARIO, "id": "replay"})
    assert code == 0 and "[combat:500.7h]" in out


def test_every_action_kind_has_an_explainer():
    assert set(ACTION_KINDS) <= set(EXPLAINERS) | set(PLAY_EXPLAINERS)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios(kinds=tuple(ACTION_KINDS), max_actions=3))
def test_explain_never_drifts_from_the_model_on_generated_scenarios(data):
    from referee.model.combat.retaliation import ScenarioError

    try:
        explained = explain_actions(data)  # raises ExplainError when its board or events differ from the model's run
    except ScenarioError:
        return
    assert all(a.steps for a in explained)
    assert not any("not explained" in s.text for a in explained for s in a.steps)


REFLECT_SCENARIO = scenario(
    [{"uid": "a", "armor": 10, "insurance": 1},
     {"uid": "boss", "side": 1, "is_boss": True, "reflect": True, "armor": 25, "vitality": 1000, "max_vitality": 1000}],
    {"kind": "hit", "target": "boss", "amount": 80, "source": "a"},
)
BLOODLETTING_SCENARIO = scenario(
    [{"uid": "d", "alive": False, "vitality": 0}, {"uid": "p", "col": 1, "vitality": 5, "shield": 3},
     {"uid": "c", "row": 1, "bloodletting_reduction": 2}, {"uid": "e", "side": 1, "retort": 2}],
    {"kind": "bloodletting", "caster": "c", "cost": 12, "hits": [{"target": "e", "amount": 30}]},
)
PLAY_SCENARIO = {
    "protocol": "referee/2", "rulebook": "play",
    "state": {"pool": {"energy": 2, "power": {}},
              "objects": [{"oid": "c", "kind": "spell"}, {"oid": "u1", "zone": "board"}]},
    "actions": [
        {"kind": "play_card", "card": "c", "cost": {"energy": 2}, "plan": [{"step": "pay_resources"}]},
        {"kind": "activate", "source": "u1", "plan": [{"step": "pay_cost", "index": 0}],
         "ability": {"cost": {"nonstandard": [{"kind": "exhaust_this"}]}, "effect": {"kind": "buff_might", "amount": 2}}},
        {"kind": "activate", "source": "u1", "plan": [{"step": "pay_cost", "index": 0}],
         "ability": {"cost": {"nonstandard": [{"kind": "exhaust_this"}]}, "effect": {"kind": "buff_might", "amount": 2}}},
    ],
}
WORKED_EXAMPLE = {
    "board": [{"uid": "c"}, {"uid": "a", "col": 1, "vitality": 50}, {"uid": "t", "side": 1, "vitality": 20}],
    "ability": {
        "caster": "c", "targets": ["t"], "name": "the worked example",
        "numbers": {"power": 30, "burn_amount": 4, "heal_amount": 6},
        "lines": [
            {"effect": "damage", "amount": "{power}", "kind": "keyword", "lane": "hit"},
            {"effect": "burn", "amount": "{burn_amount}", "kind": "rider", "lane": "after_hit"},
            {"effect": "restore", "amount": "{heal_amount}", "kind": "rider", "lane": "after_hit", "to": "allies",
             "per": "burning_enemy"},
        ],
    },
}


def test_steps_around_event_finds_the_step_behind_a_model_event():
    from referee.explain import steps_around_event

    actions = explain_actions(REFLECT_SCENARIO)
    names = [e.name for e in actions[0].events]
    reflect, prevented = names.index("reflect"), names.index("insurance_prevented")
    around = steps_around_event(REFLECT_SCENARIO, reflect)
    assert [s.clause for s in around] == ["combat:500.6c", "combat:500.7h"]  # the loss's listeners, then the Reflect
    around = steps_around_event(REFLECT_SCENARIO, prevented)
    assert around[-1].clause == "combat:500.1-9" and around[-1].depth == 1
    two = scenario([{"uid": "a", "shield": 5}, ENEMY], {"kind": "damage", "target": "a", "amount": 3, "source": "e"},
                   {"kind": "hit", "target": "a", "amount": 20, "source": "e"})
    first_of_second = len(explain_actions(two)[0].events)
    assert steps_around_event(two, first_of_second)[-1].step == "shield"


def test_an_ability_action_may_carry_the_ability_as_json():
    from referee.model.combat.ruleset import DEFAULT
    from referee.rulebooks.combat.codec import board_from_json

    board = board_from_json("board", WORKED_EXAMPLE["board"])
    spec = {k: v for k, v in WORKED_EXAMPLE["ability"].items() if k not in ("caster", "targets")}
    action = {"kind": "ability", "caster": "c", "targets": ["t"], "ability": spec}
    _, _, steps = EXPLAINERS["ability"](board, action, DEFAULT)
    assert steps[-1].text == "answer: no Vitality is restored; died: t."


def test_invalid_ability_short_forms_get_a_clear_error_and_exit_2(tmp_path):
    bad_lane = json.loads(json.dumps(WORKED_EXAMPLE))
    bad_lane["ability"]["lines"][1]["lane"] = "later"
    code, _, err = explain(tmp_path, bad_lane)
    assert code == 2 and "scenario.ability.lines[1]" in err and "lane 'later'" in err
    missing = json.loads(json.dumps(WORKED_EXAMPLE))
    missing["ability"]["targets"] = ["nobody"]
    code, _, err = explain(tmp_path, missing)
    assert code == 2 and "scenario.ability.targets" in err and "nobody" in err
    unknown = json.loads(json.dumps(WORKED_EXAMPLE))
    del unknown["ability"]["numbers"]["power"]
    code, _, err = explain(tmp_path, unknown)
    assert code == 2 and "{power}" in err


@covers("combat:500.6h", "combat:500.6f")
def test_explain_a_retaliation_cost_cites_its_own_clauses(tmp_path):
    code, out, _ = explain(tmp_path, scenario(
        [{"uid": "p"}, {"uid": "q", "col": 1}, {"uid": "r", "side": 1}],
        {"kind": "cost", "payer": "p", "amount": 4, "cost_kind": "retaliation", "beneficiary": "q"},
        {"kind": "cost", "payer": "p", "amount": 4, "cost_kind": "retaliation", "beneficiary": "r"},
    ))
    assert code == 0
    assert "[combat:500.6h] p is refused as a payer outright (ally): nothing is paid." in out
    assert "[combat:500.6f] r, the retaliating unit, is credited the 4 Vitality it took; it feeds its Feast." in out
