"""Legal states (model/combat/legal.py) held at every door: the loader, explain, check --replay, the generator,
the query space; and the legality theorems proved, not vacuous, each mutant killed (issue 20)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import referee.proofs.combat.legality_theorems  # noqa: F401  (registers the theorems)
from referee.cli.app import app
from referee.model.combat.legal import board_violation
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.rulebooks.combat.run import decode_scenario, run_actions
from referee.seeded import draw_seeded
from referee.specs.trace import covers
from referee.check.strategies import scenarios
from referee.wire import PROTOCOL

LEGALITY = sorted((t for t in THEOREMS.values() if t.module.endswith("legality_theorems")), key=lambda t: t.name)
#: Minutes of solver time on two busy cores: run with --runslow (none since the damage theorem was split by lane).
SLOW: tuple[str, ...] = ()
#: One legality theorem per action kind of the combat rulebook at least (the play rulebook's kinds, which act on
#: a play state, have theorems of their own: tests/play/test_play_legal_states.py).
KINDS_COVERED = {"ability": "ability_keeps_the_board_legal_damage", "damage": "damage_keeps_the_board_legal_hit", "hit": "hit_answers_keep_the_board_legal",
                 "tick": "tick_keeps_the_board_legal", "cost": "cost_keeps_the_board_legal",
                 "cull": "cull_keeps_the_board_legal", "recover": "recovery_keeps_the_board_legal",
                 "armor_debuff": "armor_debuff_keeps_the_board_legal",
                 "bloodletting": "bloodletting_keeps_the_board_legal", "advance": "advance_keeps_the_board_legal",
                 "end_combat": "end_combat_keeps_the_board_legal"}


def _scenario(**target: object) -> dict:
    board = [{"uid": "a", "side": 0, **target}, {"uid": "b", "side": 1}]
    return {"protocol": PROTOCOL, "board": board, "actions": [{"kind": "hit", "target": "a", "amount": 5, "source": "b"}]}


@pytest.mark.parametrize(("target", "field"), [({"cap": -1, "has_cap": True}, "scenario.board[0].cap"),
                                                ({"row": 9}, "scenario.board[0].row"),
                                                ({"col": -1}, "scenario.board[0].col")])
@pytest.mark.parametrize("command", [["explain"], ["check", "--python", "referee.examples.engine:run", "--replay"]])
def test_an_illegal_scenario_exits_2_naming_the_field(tmp_path, target, field, command):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_scenario(**target)))
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert field in result.output and "'a'" in result.output


@covers("combat:500.1c")
def test_an_overtime_tick_naming_a_source_is_refused():
    scenario = _scenario()
    scenario["actions"][0]["damage_kind"] = "overtime"
    with pytest.raises(ValueError, match=r"500\.1c"):
        decode_scenario(scenario)


def test_a_hit_from_a_unit_dead_on_the_board_is_refused():
    scenario = _scenario()
    scenario["board"][1].update(alive=False, vitality=0)
    with pytest.raises(ValueError, match=r"400\.8b"):
        decode_scenario(scenario)


def _draw_legal(batches: int) -> int:
    """Draw ``batches`` x 100 scenarios; each combat one decodes (board and actions legal) and ends legal."""
    drawn = 0
    for seed in range(batches):
        for scenario in draw_seeded(scenarios(), 100 + seed, 100):
            if scenario.get("rulebook", "combat") != "combat":
                continue
            decoded = decode_scenario(scenario)
            after, _ = run_actions(decoded.state, decoded.actions, decoded.rules)
            assert board_violation(after) is None, scenario
            drawn += 1
    return drawn


def test_the_generator_draws_only_legal_scenarios():
    assert _draw_legal(4) > 250


@pytest.mark.slow
def test_the_generator_draws_only_legal_scenarios_over_a_large_sample():
    assert _draw_legal(100) > 8000


@covers("combat:500.4a", "combat:500.8g", "combat:500.9c", "combat:500.1c")
@pytest.mark.parametrize(("condition", "action"), [
    ("target_after.alive and target_after.vitality == 0", ["--action", "cost:payer=target,cost_kind=interest"]),
    ('event("thorns")', ["--kind", "overtime"]),
])
def test_the_issues_two_queries_are_impossible_over_legal_states(condition, action):
    result = CliRunner().invoke(app, ["query", condition, *action, "--units", "2", "--ruleset", "defaults"])
    assert result.output.startswith("impossible:"), result.output


def test_every_listed_kind_has_its_legality_theorem_registered():
    from referee.actions import kinds_of

    assert set(KINDS_COVERED) == set(kinds_of("combat"))
    assert set(KINDS_COVERED.values()) <= {t.name for t in LEGALITY}
    from referee.model.combat.ability_text import EFFECTS
    from referee.model.combat.damage import DAMAGE_KINDS

    assert {f"damage_keeps_the_board_legal_{lane}" for lane in DAMAGE_KINDS} <= {t.name for t in LEGALITY}
    assert {f"ability_keeps_the_board_legal_{effect}" for effect in EFFECTS} <= {t.name for t in LEGALITY}


@pytest.mark.parametrize("thm", [pytest.param(t, marks=pytest.mark.slow) if t.name in SLOW else t for t in LEGALITY],
                         ids=lambda t: t.name)
def test_legality_theorem_is_proved_not_vacuous_and_kills_its_mutants(thm):
    assert prove(thm).status == "proved"
    assert check_vacuity(thm).status == "satisfiable"
    for mutant in thm.mutants:
        assert check_mutant(thm, mutant).status == "killed", mutant.name


def test_whole_domain_widens_the_space_and_the_witness_says_it_is_not_legal():
    """--whole-domain finds what the legal space calls impossible, and says the loader refuses the witness."""
    condition, action = "target_after.alive and target_after.cap < 0", "cost:payer=target,cost_kind=interest"
    words = ["query", condition, "--action", action, "--units", "2", "--ruleset", "defaults"]
    legal = CliRunner().invoke(app, words)
    assert legal.output.startswith("impossible:") and "legal states only" in legal.output
    wide = CliRunner().invoke(app, [*words, "--whole-domain"])
    assert wide.exit_code == 0 and "; the whole encoded domain" in wide.output
    assert "not a legal state" in wide.output and "must be >= 0" in wide.output


@covers("combat:500.9m")
def test_explain_cites_500_9m_for_an_everlasting_revivals_batch(tmp_path):
    path = tmp_path / "revival.json"
    path.write_text(json.dumps({"protocol": PROTOCOL, "board": [{"uid": "a", "everlasting": True},
                                                                {"uid": "x", "side": 1, "col": 3}],
                                "actions": [{"kind": "cull", "target": "a", "source": "x"},
                                            {"kind": "advance", "ms": 10000}]}))
    result = CliRunner().invoke(app, ["explain", str(path)])
    assert result.exit_code == 0, result.output
    batch = [line for line in result.output.splitlines() if "Vessel Point batch" in line and "revival of a" in line]
    assert len(batch) == 1 and "[combat:500.9m]" in batch[0] and "1 event(s)" in batch[0]


@covers("combat:500.6d")
def test_explain_a_defied_thorns_payer_after_the_thorns_step_with_the_right_amounts(tmp_path):
    """Thorns 200 into an attacker at 50 with a defy-death rune: it pays 49, the rune prevents 151 (issue 20)."""
    path = tmp_path / "defy.json"
    path.write_text(json.dumps({"protocol": PROTOCOL, "board": [
        {"uid": "t", "thorns": 200}, {"uid": "s", "side": 1, "vitality": 50, "defy_death": True}],
        "actions": [{"kind": "hit", "target": "t", "amount": 5, "source": "s"}]}))
    lines = CliRunner().invoke(app, ["explain", str(path)]).output.splitlines()
    thorns = next(i for i, line in enumerate(lines) if "Thorns on t answers" in line)
    defy = next(i for i, line in enumerate(lines) if "defy-death rune saves s" in line)
    assert thorns < defy and "s loses 49 Vitality" in lines[thorns]
    assert "of the 200 asked it prevents 151, so s pays 49" in lines[defy]


@covers("combat:500.7g")
def test_explain_a_defied_subrogated_payback_has_its_defy_step_and_the_right_amounts(tmp_path):
    """Subrogated points absorb 100 from an attacker at 100 with a defy-death rune: it pays 99, the rune prevents 1."""
    path = tmp_path / "payback.json"
    path.write_text(json.dumps({"protocol": PROTOCOL, "board": [
        {"uid": "t", "subrogated": 4}, {"uid": "s", "side": 1, "vitality": 100, "defy_death": True}],
        "actions": [{"kind": "hit", "target": "t", "amount": 100, "source": "s"}]}))
    out = CliRunner().invoke(app, ["explain", str(path)]).output
    assert "s loses 99 Vitality, of the 100 the Subrogated points absorbed" in out
    assert "[combat:500.6d] the payback would be lethal" in out and "it prevents 1, so s pays 99" in out


@pytest.mark.parametrize(("change", "field"), [({"cap": -1}, "board[1].cap"), ({"col": 9}, "board[1].col")])
def test_vectors_run_refuses_an_illegal_vector_naming_file_and_field(tmp_path, change, field):
    """``vectors run`` decodes every vector's scenario as ``check --replay`` does: exit 2, the file and the field."""
    from referee.examples.engine import run as clean_engine
    from referee.vectors.suite import VECTORS_FORMAT

    scenario = _scenario()
    folder = tmp_path / "vectors"
    (folder / "combat" / "hit").mkdir(parents=True)
    vector = {"scenario": scenario, "expected": clean_engine(scenario), "clauses": ["combat:500.1-7"]}
    scenario["board"][1].update(change)
    (folder / "combat" / "hit" / "0001.json").write_text(json.dumps(vector))
    (folder / "manifest.json").write_text(json.dumps({"format": VECTORS_FORMAT, "vectors": [
        {"path": "combat/hit/0001.json", "clauses": ["combat:500.1-7"]}]}))
    result = CliRunner().invoke(app, ["vectors", "run", str(folder), "--python", "referee.examples.engine:run",
                                      "--in-process"])
    assert result.exit_code == 2, result.output
    assert "0001.json" in result.output and field in result.output and "'b'" in result.output


#: Interest from full Vitality with a revival ahead (a Vessel; Everlasting, then the 10 s it waits).
_ZERO_MAXIMUM_BOARDS = {
    "vessel": ([{"uid": "a", "vessels": 1}], []),
    "everlasting": ([{"uid": "a", "everlasting": True}], [{"kind": "advance", "ms": 10000}]),
}


@pytest.mark.parametrize("reading", ["stays_dead", "returns_at_one"])
@pytest.mark.parametrize("revival", list(_ZERO_MAXIMUM_BOARDS))
def test_int_120_each_reading_ends_legal_and_the_example_engine_agrees(tmp_path, reading, revival):
    """Under both readings of zero_maximum_revival the final board is legal (never alive at 0), the revival
    happens exactly under returns_at_one (at 1 of 1), and the example engine passes check --replay."""
    units, later = _ZERO_MAXIMUM_BOARDS[revival]
    scenario = {"protocol": PROTOCOL, "ruleset": {"zero_maximum_revival": reading},
                "board": [*units, {"uid": "b", "side": 1, "col": 1}],
                "actions": [{"kind": "cost", "payer": "a", "amount": 100, "cost_kind": "interest"}, *later]}
    decoded = decode_scenario(scenario)
    final = run_actions(decoded.state, decoded.actions, decoded.rules)[0]
    assert board_violation(final) is None
    a = final.unit("a")
    assert (a.alive, a.vitality, a.max_vitality) == ((True, 1, 1) if reading == "returns_at_one" else (False, 0, 0))
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--replay", str(path)])
    assert result.exit_code == 0 and "PASS" in result.output, result.output
