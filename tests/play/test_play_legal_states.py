"""Legal play states (model/play/legal.py) held at the door and by the generator, and kept by both play action
kinds: a legality theorem per kind, proved, not vacuous, each mutant killed (issue 20)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import referee.proofs.play.legality_theorems  # noqa: F401  (registers the theorems)
from referee.actions import kinds_of
from referee.check.strategies import scenarios
from referee.cli.app import app
from referee.model.play.legal import is_legal_play_state, play_state_violation
from referee.model.play.state import BOARD, HAND, GameObject, PlayState, Pool
from referee.proofs.core import THEOREMS, check_mutant, check_vacuity, prove
from referee.rulebooks.play.run import decode_scenario, run_play
from referee.seeded import draw_seeded
from referee.specs.trace import covers
from referee.wire import PROTOCOL

#: The legality theorem of each action kind of the play rulebook.
KINDS_COVERED = {"play_card": "play_card_keeps_the_state_legal", "activate": "activate_keeps_the_state_legal"}


def _scenario(**unit: object) -> dict:
    state = {"pool": {"energy": 1}, "objects": [{"oid": "u", "kind": "unit", "zone": "board", **unit}]}
    return {"protocol": PROTOCOL, "rulebook": "play", "state": state,
            "actions": [{"kind": "activate", "source": "u", "ability": {"cost": {"nonstandard": ["exhaust_this"]},
                                                                        "effect": {"kind": "add_energy", "amount": 1}},
                         "plan": []}]}


@covers("play:355.2", "play:359.2.c")
@pytest.mark.parametrize(("unit", "field"), [({"location": 3}, "scenario.state.objects[0].location"),
                                             ({"location": 7, "zone": "board"}, "scenario.state.objects[0].location")])
@pytest.mark.parametrize("command", [["explain"], ["check", "--python", "referee.examples.engine:run", "--replay"]])
def test_a_unit_off_the_boards_locations_exits_2_naming_the_field_and_clause(tmp_path, unit, field, command):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_scenario(**unit)))
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert field in result.output and "355.2" in result.output, result.output


@covers("play:355.2")
def test_a_location_is_read_only_on_the_board():
    """In the hand a location is not read (PLAY-010): the same number is legal there."""
    in_hand = PlayState(Pool(1), (GameObject("u", zone=HAND, location=7),))
    on_board = PlayState(Pool(1), (GameObject("u", zone=BOARD, location=7),))
    assert play_state_violation(in_hand) is None and is_legal_play_state(in_hand) is True
    assert play_state_violation(on_board).where == "objects[0].location"


@covers("play:357.1")
def test_a_negative_pool_is_named_by_its_domain():
    state = PlayState(Pool(0, (0, 0, -1, 0, 0, 0)), ())
    broken = play_state_violation(state)
    assert (broken.where, broken.clause) == ("pool.power.mind", "357.1")


def _draw_legal(batches: int) -> int:
    """Draw ``batches`` x 100 scenarios; each play one decodes (its state legal) and ends legal."""
    drawn = 0
    for seed in range(batches):
        for scenario in draw_seeded(scenarios(kinds=tuple(KINDS_COVERED), max_actions=3), 300 + seed, 100):
            decoded = decode_scenario(scenario)
            after, _ = run_play(decoded.state, decoded.actions, decoded.rules)
            assert play_state_violation(after) is None, scenario
            drawn += 1
    return drawn


def test_the_generator_draws_only_legal_play_scenarios_and_the_model_keeps_them_legal():
    assert _draw_legal(6) == 600


@pytest.mark.slow
def test_the_generator_draws_only_legal_play_scenarios_over_a_large_sample():
    assert _draw_legal(100) == 10_000


def test_every_play_kind_has_its_legality_theorem_registered():
    assert set(KINDS_COVERED) == set(kinds_of("play"))
    assert set(KINDS_COVERED.values()) <= set(THEOREMS)


@pytest.mark.parametrize("name", sorted(KINDS_COVERED.values()))
def test_play_legality_theorem_is_proved_not_vacuous_and_kills_its_mutants(name):
    thm = THEOREMS[name]
    assert prove(thm).status == "proved"
    assert check_vacuity(thm).status == "satisfiable"
    assert thm.mutants
    for mutant in thm.mutants:
        assert check_mutant(thm, mutant).status == "killed", mutant.name


def _rune_step_on(oid: str) -> dict:
    """A play whose payment uses a Basic Rune's ability on ``oid`` (a rune ``r`` and a unit ``u`` are on the board)."""
    state = {"pool": {}, "objects": [{"oid": "c", "kind": "spell"}, {"oid": "r", "kind": "rune", "domain": "fury",
                                                                      "zone": "board"},
                                     {"oid": "u", "kind": "unit", "zone": "board"}]}
    plan = [{"step": "use_rune", "rune": oid, "ability": "exhaust"}, {"step": "pay_resources"}]
    return {"protocol": PROTOCOL, "rulebook": "play", "state": state,
            "actions": [{"kind": "play_card", "card": "c", "cost": {"energy": 1}, "plan": plan}]}


@covers("play:164.2.a", "play:164.2.b")
@pytest.mark.parametrize("command", [["explain"], ["check", "--python", "referee.examples.engine:run", "--replay"]])
def test_a_use_rune_step_on_a_unit_exits_2_naming_the_step_and_the_clause(tmp_path, command):
    """Only a Basic Rune has the abilities a use_rune step uses: a unit named there is refused, never exhausted for [1]."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_rune_step_on("u")))
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert "scenario.actions[0].plan[0].rune" in result.output and "164.2" in result.output, result.output


def test_a_use_rune_step_on_a_rune_pays_the_energy_it_adds():
    decoded = decode_scenario(_rune_step_on("r"))
    state, events = run_play(decoded.state, decoded.actions, decoded.rules)
    assert state.get("r").exhausted and state.get("c").zone != "hand", events
