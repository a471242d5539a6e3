"""``referee query``: Z3 answers designers' questions with scenarios that replay through the model."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from referee.actions import ACTION_KINDS

from referee.rulebooks.combat.run import run_actions
from referee.cli.app import app
from referee.protocol import decode_scenario
from referee.query import QueryError, parse_condition, run_query
from referee.specs.trace import covers

SMALL = {"units": 2, "relations": ("enemy",)}


@covers("combat:500.1h", "combat:500.1-10")
def test_500_1h_a_shielded_unit_can_die_to_one_burn_tick_and_the_witness_is_minimal() -> None:
    answer = run_query("target.shield > 0 and outcome.died", kind="burn", **SMALL)
    assert answer.status == "found"
    scenario = decode_scenario(answer.scenario)
    target = scenario.board.unit("target")
    assert target.shield > 0 and target.armor == 0 and target.vessels == 0 and target.insurance == 0
    after, log = run_actions(scenario.board, scenario.actions, scenario.ruleset)
    assert not after.unit("target").alive
    assert "death" in [e.name for e in log.events()]


@covers("combat:500.1-1")
def test_500_1_1_a_tool_never_dies_to_damage_and_the_space_is_stated() -> None:
    answer = run_query("target.is_tool and outcome.died", action="damage", **SMALL)
    assert answer.status == "impossible"
    assert answer.space.startswith("over boards of up to 2 units") and "every ruleset reading" in answer.space


@covers("combat:500.9b")
def test_500_9b_vitality_can_rise_through_a_hit_that_spends_a_vessel() -> None:
    answer = run_query("target_after.vitality > target.vitality", action="damage", **SMALL)
    assert answer.status == "found"
    assert "vessel_revival" in [e["name"] for e in answer.observation["events"]]


def test_a_tiny_resource_limit_is_unknown_never_an_answer() -> None:
    answer = run_query("target.is_tool and outcome.died", action="damage", rlimit=1, **SMALL)
    assert answer.status == "unknown"


@covers("combat:500.1-7")
def test_500_1_7_the_split_question_has_two_scenarios_from_one_board() -> None:
    answer = run_query("first.amount + second.amount == single.amount and after.target.vitality < single_after.target.vitality",
                       actions=("damage", "damage"), split=True, **SMALL)
    assert answer.status == "found"
    main, single = answer.scenarios["main"], answer.scenarios["single"]
    assert main["board"] == single["board"] and len(main["actions"]) == 2 and len(single["actions"]) == 1
    assert main["actions"][0]["amount"] + main["actions"][1]["amount"] == single["actions"][0]["amount"]


@covers("combat:500.1-10")
def test_500_1_10_maximize_reports_the_best_value_and_proves_it() -> None:
    answer = run_query("first.amount == 30 and target.shield == 10 and target.armor == 0 and target.insurance == 0 "
                       "and target.subrogated == 0", action="damage", ruleset={"shield_multiplier_rounding": "ceil"},
                       maximize="target.vitality - target_after.vitality", **SMALL)
    assert answer.status == "found"
    assert answer.objective["value"] == 29 and answer.objective["proved"]


@pytest.mark.parametrize(
    ("condition", "named"),
    [
        ("target.shield > 0 and bogus", "bogus"),
        ("event('nope')", "nope"),
        ("target.shield ** 2 > 1", "target.shield ** 2"),
        ("__import__('os')", "__import__"),
        ("target.shield >", "not an expression"),
        ("target.nothing > 1", "known: side, is_tool"),
        ("not amount", "'amount' is an Int, but 'not' needs a Bool"),
        ("amount and 1", "'amount' is an Int"),
        ("source - 1", "'source' is a unit record"),
        ("25 < outcome", "outcome record"),
        ("target.shield > 'x'", "a string"),
        ("event", "is a function"),
        ("1", "must be true or false"),
        ("'death'", "must be true or false"),
        ("outcome", "must be true or false"),
        ("not " * 1200 + "True", "nests more than"),
        ("-" * 3000 + "1", "nests more than"),
        ("'ab' * 1000000000 == 'b'", "needs Int operands"),
        ("amount * 1000000000000 * 1000000000000 * 1000000000000 * 1000000000000 * 1000000000000 * 1000000000000 > 0",
         "arithmetic too large"),
        ("after[3].target.alive", "out of range"),
    ],
)
def test_invalid_condition_is_rejected_naming_the_fragment(condition: str, named: str) -> None:
    with pytest.raises(QueryError, match=named.replace("*", r"\*").replace("(", r"\(").replace("[", r"\[")):
        parse_condition(condition)


def test_the_query_runner_agrees_with_referee_actions_on_random_scenarios() -> None:
    """``referee.query.space.run_one`` mirrors each kind of ``referee.actions``; this holds the copy."""
    from referee.proofs.core import Vars
    from referee.query.run import make_query
    from referee.query.space import concrete_ruleset, run_actions as query_actions

    from test_query_soundness import random_values

    rng = random.Random(7)
    checked = 0
    for actions in (("damage",), ("hit",), ("cost:cost_kind=interest",), ("cost:cost_kind=self_destruct",),
                    ("armor_debuff",), ("bloodletting",), ("hit", "cost")):
        query = make_query("True", actions=actions, units=4)
        for layout in query.layouts()[:4]:
            probe = Vars({})
            query_actions(probe, layout, query.specs, concrete_ruleset({}, 1), False)
            for _ in range(15):
                values = random_values(rng, sorted(probe.created) + ["ruleset.defy_death_leaves"])
                values = {k: (abs(v) if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in values.items()}
                pinned = {f"{uid}.{name}": value for uid, name, value in layout.pins}
                values.update(pinned)
                for uid, name, value in layout.pins:
                    if name == "alive" and not value:
                        values[f"{uid}.vitality"] = 0
                ruleset = concrete_ruleset({}, values["ruleset.defy_death_leaves"])
                runs = query_actions(Vars(values), layout, query.specs, ruleset, False)
                main = runs["main"]
                try:
                    board, log = run_actions(main.before, tuple(decode(main, i) for i in range(len(main.json_actions))), ruleset)
                except Exception:  # noqa: BLE001 - a scenario the model itself refuses (a missing roll): both refuse
                    continue
                assert board == main.states[-1]
                assert list(log.events()) == [g.event for lg in main.logs for g in lg.entries]
                checked += 1
    assert checked > 100


def decode(run, i):
    from referee.rulebooks.combat.run import decode_action

    return decode_action(f"actions[{i}]", run.json_actions[i], run.before)


def test_cli_exit_codes_say_found_impossible_and_bad_query() -> None:
    runner = CliRunner()
    found = runner.invoke(app, ["query", "target.shield > 0 and outcome.died", "--kind", "burn", "--units", "2",
                                "--source", "enemy", "--json"])
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["status"] == "found"
    impossible = runner.invoke(app, ["query", "target.is_tool and outcome.died", "--action", "damage", "--units", "2",
                                     "--source", "enemy"])
    assert impossible.exit_code == 1 and "space: over boards of up to 2 units" in impossible.output
    assert "actions [damage]" in " ".join(impossible.output.split())
    bad = runner.invoke(app, ["query", "nonsense_name > 1", "--json"])
    assert bad.exit_code == 2 and json.loads(bad.stdout)["status"] == "error"
    assert runner.invoke(app, ["query", "outcome.died", "--kind", "laser"]).exit_code == 2
    assert runner.invoke(app, ["query", "outcome.died", "--ruleset", "negative_armor=sideways"]).exit_code == 2


def test_cli_replays_the_witness_through_an_engine() -> None:
    result = CliRunner().invoke(app, ["query", 'event("riposte_missed")', "--units", "2", "--source", "enemy",
                                      "--python", "referee.examples.engine:run"])
    assert result.exit_code == 0, result.output
    assert "agrees with the model" in result.output


def test_every_action_kind_of_the_combat_rulebook_can_be_queried() -> None:
    from referee.query.space import KIND_SLOTS

    # recover, cull, tick and the battle clock's advance and end_combat are QueryKinds (referee/query/kinds.py);
    # advance and end_combat run on the query's battle (model/combat/battle_guarded.py).
    assert set(KIND_SLOTS) == {k for k, v in ACTION_KINDS.items() if v.rulebook == "combat"}


WORKED = ("ability:lines=damage({power})@hit!keyword/burn({burn_amount})@after_hit"
          "/restore({heal_amount})@after_hit>allies*burning_enemy")
ABILITY_ACTIONS = (
    (WORKED,),
    ("ability:targets=target+receiver,lines=cull({c})>enemies/crush@after_hit/maim*enemy?target_alive/venom!passive",),
    ("ability:caster=ally,targets=source,lines=bloodletting({cost})/damage({power})@hit/restore>caster?caster_damaged",),
    ("ability:targets=,lines=restore>allies/burn>enemies*ally/damage@hit>enemies?enemy_burning",),
    ("ability",),
    ("hit", WORKED),
)


@covers("combat:400.8-1", "combat:400.8-7")
@pytest.mark.parametrize("actions", ABILITY_ACTIONS, ids=lambda a: a[-1].split(",")[0][:40])
def test_400_8_the_query_runner_agrees_with_referee_actions_on_random_abilities(actions) -> None:
    """An ability witness replays: the query's runner and ``referee.actions`` (the JSON form) agree, on random values."""
    from referee.proofs.core import Vars
    from referee.query.run import make_query
    from referee.query.space import concrete_ruleset, run_actions as query_actions

    from test_query_soundness import random_values

    rng = random.Random(88)
    query = make_query("True", actions=actions, units=5)
    layouts = query.layouts()
    checked = 0
    for layout in rng.sample(layouts, min(6, len(layouts))):
        probe = Vars({})
        query_actions(probe, layout, query.specs, concrete_ruleset({}, 1), False)
        for _ in range(12):
            values = random_values(rng, sorted(probe.created) + ["ruleset.defy_death_leaves"])
            values = {k: (abs(v) if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in values.items()}
            ruleset = concrete_ruleset({}, values["ruleset.defy_death_leaves"])
            main = query_actions(Vars(values), layout, query.specs, ruleset, False)["main"]
            try:
                board, log = run_actions(main.before, tuple(decode(main, i) for i in range(len(main.json_actions))), ruleset)
            except Exception:  # noqa: BLE001 - a scenario the model itself refuses (a missing roll): both refuse
                continue
            assert board == main.states[-1]
            assert list(log.events()) == [g.event for lg in main.logs for g in lg.entries]
            checked += 1
    assert checked >= 20


@covers("combat:400.8-5", "combat:400.8b")
def test_400_8_the_symbolic_ability_run_agrees_with_the_concrete_run_on_random_values() -> None:
    """Single-source: pinned to a random scenario's values, the one symbolic run has exactly the concrete outcome."""
    import z3

    from referee.proofs.core import Vars
    from referee.query.evaluate import namespace
    from referee.query.run import make_query
    from referee.query.solve import cells_of
    from referee.query.space import concrete_ruleset, run_actions as query_actions

    from test_query_soundness import random_values

    rng = random.Random(400)
    query = make_query("True", actions=(ABILITY_ACTIONS[1][0],), units=4, ruleset="defaults")
    checked = 0
    for layout in query.layouts():
        cell = next(iter(cells_of(layout, query.specs, query.fixed, False)))
        sym = namespace(cell.runs, layout.units)
        for _ in range(12):
            values = random_values(rng, sorted(cell.variables.created))
            values = {k: (abs(v) if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in values.items()}
            values["ruleset.defy_death_leaves"] = 1
            runs = query_actions(Vars(values), layout, query.specs, concrete_ruleset(cell.chosen, 1), False)
            concrete = namespace(runs, layout.units)
            solver = z3.Solver()
            solver.add(*cell.side_conditions)
            solver.add(*[term == values[name] for name, term in cell.variables.created.items()])
            assert solver.check() == z3.sat
            model = solver.model()
            for uid in layout.units:
                for name in ("alive", "vitality", "burn", "venom", "maim", "armor"):
                    got = model.eval(getattr(sym[f"{uid}_after"], name), model_completion=True)
                    want = getattr(concrete[f"{uid}_after"], name)
                    assert (z3.is_true(got) if isinstance(want, bool) else got.as_long()) == want, (uid, name, values)
            for k in range(4):
                for name in ("amount", "total", "reached", "resolved"):
                    got = model.eval(_as_z3(sym["first"][f"line{k}"][name]), model_completion=True)
                    want = concrete["first"][f"line{k}"][name]
                    assert (z3.is_true(got) if isinstance(want, bool) else got.as_long()) == want, (k, name, values)
            checked += 1
    assert checked == 24


def _as_z3(value):
    import z3

    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


@covers("combat:400.8a")
def test_400_8a_a_second_burning_enemy_is_counted_and_the_witness_is_minimal() -> None:
    from query_gallery import GALLERY
    from test_query_gallery import ask  # the gallery's question, asked once per run

    answer = ask(next(q for q in GALLERY if q.id == "worked-example-second-enemy-burning"))
    assert answer.status == "found", answer.detail
    decoded = decode_scenario(answer.scenario)
    burning = [u.uid for u in decoded.board.units if u.burn > 0]
    assert burning == ["receiver"]
    assert all(u.armor == 0 and u.shield == 0 and u.insurance == 0 for u in decoded.board.units)
    action = answer.scenario["actions"][0]
    assert action["ability"]["numbers"]["heal_amount"] >= 1 and action["kind"] == "ability"
    after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
    assert not after.unit("target").alive and "vitality_restored" in [e.name for e in log.events()]


@pytest.mark.parametrize(("action", "named"), [
    ("ability:lines=laser", "effect 'laser' is not one of"),
    ("ability:lines=burn@sideways", "lane 'sideways'"),
    ("ability:lines=burn(12)", "expected effect"),
    ("ability:caster=nobody", "caster='nobody' is not one of"),
    ("ability:targets=target+target", "distinct roles"),
    ("ability:lines=burn/burn/burn/burn/burn/burn/burn", "at most 6 lines"),
    ("ability:mana=3", "slots: caster, targets, lines"),
])
def test_400_8_a_bad_ability_action_is_a_clean_error(action: str, named: str) -> None:
    with pytest.raises(QueryError, match=named.replace("(", r"\(").replace(")", r"\)")):
        run_query("True", actions=(action,), units=3)


def test_400_8_an_ability_naming_a_unit_off_the_board_asks_for_more_units() -> None:
    with pytest.raises(QueryError, match="interceptor is not on a board of 3 units"):
        run_query("True", actions=("ability:targets=interceptor",), units=3)


@covers("combat:400.8-5", "combat:400.8-7")
def test_400_8_cli_ability_actions_state_the_space_and_replay_through_an_engine() -> None:
    runner = CliRunner()
    impossible = runner.invoke(app, ["query", "target.untargetable and target_after.burn > target.burn",
                                     "--action", "ability:lines=burn>enemies", "--units", "3", "--json"])
    assert impossible.exit_code == 1, impossible.output
    answer = json.loads(impossible.stdout)
    assert answer["status"] == "impossible" and "the printed lines burn>enemies" in answer["space"]
    found = runner.invoke(app, ["query", "target_after.vitality > target.vitality", "--action", "ability",
                                "--units", "2", "--python", "referee.examples.engine:run"])
    assert found.exit_code == 0, found.output
    assert '"kind": "ability"' in found.output and "agrees with the model" in found.output
