"""Seeded generation (``referee.seeded``): the same strategies, drawn from one seed per batch.

What must hold: the same seed gives the same scenarios; every strategy the generators use is
interpreted over its own support (so the space is Hypothesis generation's); every scenario is
valid and keeps the feature profile; ``referee check`` uses it by default, keeps the old
generator selectable and names it in the replay command.
"""

from __future__ import annotations

from hypothesis import strategies as st
from typer.testing import CliRunner

import pytest

from referee.cli.app import app
from referee.engines.transports import PythonEngine
from referee.check.harness import CheckOptions, check
from referee.protocol import decode_scenario
from referee.rulebooks import default_kinds
from referee.rulebooks.combat.features import FEATURES, features_used
from referee.rulebooks.combat.kinds import KINDS
from referee.seeded import UnsupportedStrategy, draw_seeded
from referee.check.strategies import scenarios

ALL_KINDS = tuple(default_kinds())


def test_the_same_seed_draws_the_same_scenarios_and_another_seed_others():
    strategy = scenarios()
    first = draw_seeded(strategy, 20261130, 40)
    assert draw_seeded(strategy, 20261130, 40) == first
    assert draw_seeded(strategy, 20261130, 10) == first[:10]  # a shorter batch is a prefix: a stored seed replays
    assert draw_seeded(strategy, 20261131, 40) != first


def test_each_strategy_is_drawn_over_its_whole_support_and_nothing_else():
    cases = [
        (st.integers(3, 6), {3, 4, 5, 6}),
        (st.booleans(), {False, True}),
        (st.sampled_from(("a", "b", "c")), {"a", "b", "c"}),
        (st.just(7), {7}),
        (st.one_of(st.just(0), st.integers(8, 9)), {0, 8, 9}),
        (st.lists(st.just(1), max_size=2).map(len), {0, 1, 2}),
        (st.tuples(st.just("x"), st.integers(0, 1)), {("x", 0), ("x", 1)}),
        (st.permutations((1, 2, 3)).map(tuple), {(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)}),
        (st.integers(0, 9).filter(lambda n: n % 5 == 0), {0, 5}),
        (st.composite(lambda draw: draw(st.integers(1, 2)) * 10)(), {10, 20}),
    ]
    for strategy, support in cases:
        seen = {v if not isinstance(v, list) else tuple(v) for v in draw_seeded(strategy, 1, 400)}
        assert seen == support, f"{strategy!r}: drew {sorted(map(repr, seen))}"


def test_a_strategy_it_does_not_interpret_is_refused_by_name():
    with pytest.raises(UnsupportedStrategy, match="text"):
        draw_seeded(st.text(), 1, 1)
    with pytest.raises(UnsupportedStrategy, match="bounded"):
        draw_seeded(st.integers(min_value=0), 1, 1)


def test_every_seeded_scenario_of_every_kind_is_valid_and_keeps_its_feature_profile():
    off = frozenset({"shield", "redirect", "boss"})
    for swarm in (False, True):
        for scenario in draw_seeded(scenarios(kinds=ALL_KINDS, max_actions=3, swarm=swarm), 5, 150):
            decode_scenario(scenario)
        for scenario in draw_seeded(scenarios(kinds=tuple(KINDS), features=frozenset(FEATURES) - off, swarm=swarm), 6, 150):
            assert features_used(scenario) & off == set()


def test_seeded_draws_reach_every_action_kind_of_the_default_mix():
    drawn = draw_seeded(scenarios(kinds=ALL_KINDS), 7, 600)
    kinds = {action["kind"] for scenario in drawn for action in scenario["actions"]}
    assert kinds == set(ALL_KINDS)


def test_check_runs_either_generator_and_counts_whole_batches_only(in_tmp):
    engine = PythonEngine("referee.examples.engine:run")
    for generation in ("seeded", "hypothesis"):
        report = check(engine, CheckOptions(examples=45, seed=3, database=None, generation=generation))
        assert report.status == "pass" and report.scenarios_run == 45, (generation, report.text())
    with pytest.raises(ValueError, match="unknown generation"):
        check(engine, CheckOptions(examples=5, seed=3, database=None, generation="uniform"))


def test_the_cli_names_a_non_default_generator_in_the_replay_command_and_refuses_an_unknown_one(in_tmp):
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process",
                                      "--examples", "5", "--generation", "uniform"])
    assert result.exit_code == 2 and "--generation 'uniform'" in result.output
    spec = "referee.examples.mutants:floor_instead_of_ceil"
    result = CliRunner().invoke(app, ["check", "--python", spec, "--in-process", "--kinds", "damage", "--examples",
                                      "3000", "--seed", "4", "--generation", "hypothesis", "--database", ""])
    assert result.exit_code == 1, result.output
    assert "--generation hypothesis" in result.output.split("replay:")[-1]
