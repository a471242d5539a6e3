"""Theorems over every reading (issue #43): one obligation for every ruleset reading, the readings it reads,
the readings it is not claimed under (each confirmed by a replayed counterexample, never stale), an engine's
own readings, and mutants that only an every-reading proof can see.

The theorems here live in a registry of their own, so their deliberate failures stay out of the suite.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model.arith import is_symbolic, ite
from referee.model.combat import shield
from referee.proofs import core, runner
from referee.proofs.core import Mutant, Obligation, Vars, theorem
from referee.proofs.readings import parse_region

REGISTRY: dict[str, core.Theorem] = {}


def _ceil_break(pool, multiplier, ruleset=None):
    """Bug: the break point read as ``pool // multiplier``, whatever the reading."""
    return pool / multiplier if is_symbolic(pool, multiplier) else pool // multiplier


CEIL_BUG = Mutant("break_at_floor", "referee.model.combat.shield:compute_damage_to_break", _ceil_break,
                  "the break point is floored under every reading")


def _break_claim(v: Vars) -> Obligation:
    pool, m = v.int("pool"), v.int("m")
    ceiling = ite(pool % m == 0, pool / m, pool / m + 1)
    return Obligation(assume=core.all_of(pool >= 1, m >= 1, pool <= 50, m <= 5),
                      claim=shield.compute_damage_to_break(pool, m) == ceiling)


@theorem("combat:500.1-10", mutants=[CEIL_BUG], registry=REGISTRY)
def break_point_is_the_ceiling(v: Vars) -> Obligation:
    """The break point of a multiplied Shield pool is the ceiling of pool over multiplier (true under ceil only)."""
    return _break_claim(v)


@theorem("combat:500.1-10", mutants=[CEIL_BUG], registry=REGISTRY, unless=["shield_multiplier_rounding=floor"])
def break_point_is_the_ceiling_unless_floor(v: Vars) -> Obligation:
    """The same claim, stated with its exception."""
    return _break_claim(v)


@theorem("combat:500.1-10", mutants=[CEIL_BUG], registry=REGISTRY, unless=["negative_armor=reciprocal"])
def break_point_with_a_stale_exception(v: Vars) -> Obligation:
    """Holds where it claims, but its exception names a reading it holds under too."""
    pool, m = v.int("pool"), v.int("m")
    return Obligation(assume=core.all_of(pool >= 1, m >= 1, pool <= 50, m <= 5),
                      claim=shield.compute_damage_to_break(pool, m) >= 0)


def test_a_theorem_false_under_one_reading_gets_a_counterexample_replayed_under_it() -> None:
    verdict = core.prove(REGISTRY["break_point_is_the_ceiling"])
    assert verdict.status == "counterexample"
    assert verdict.counterexample["reading.shield_multiplier_rounding"] is True  # the floor reading
    assert verdict.extra["reads"] == ["shield_multiplier_rounding"]
    assert core.replay(REGISTRY["break_point_is_the_ceiling"], verdict.counterexample) == (True, False)


def test_under_the_default_reading_alone_it_is_proved() -> None:
    verdict = core.check(REGISTRY["break_point_is_the_ceiling"], "proof", pinned={"shield_multiplier_rounding": "ceil"})
    assert verdict.status == "proved"
    assert verdict.extra["reads"] == []


def test_the_exception_makes_it_proved_and_is_confirmed_by_a_replayed_counterexample() -> None:
    thm = REGISTRY["break_point_is_the_ceiling_unless_floor"]
    result = runner.run([thm], jobs=1)
    (only,) = result.theorems
    assert only.status == "proved" and only.ok, only.problems()
    assert only.holds_under == "every reading except shield_multiplier_rounding=floor"
    ((region, verdict),) = only.exceptions
    assert (region, verdict.status) == ("shield_multiplier_rounding=floor", "confirmed")
    assert verdict.counterexample is not None


def test_a_stale_exception_fails_the_suite() -> None:
    result = runner.run([REGISTRY["break_point_with_a_stale_exception"]], jobs=1)
    (only,) = result.theorems
    assert not only.ok
    assert any("exception negative_armor=reciprocal stale" in p for p in only.problems())


def test_under_fixed_readings_a_theorem_excepted_there_is_not_claimed_and_the_run_says_why() -> None:
    thm = REGISTRY["break_point_is_the_ceiling_unless_floor"]
    floor = runner.run([thm], jobs=1, pinned={"shield_multiplier_rounding": "floor"}).theorems[0]
    assert floor.status == "not claimed" and floor.ok
    assert [v.status for _, v in floor.exceptions] == ["confirmed"]
    ceil = runner.run([thm], jobs=1, pinned={"shield_multiplier_rounding": "ceil"}).theorems[0]
    assert ceil.status == "proved" and ceil.exceptions == []


@pytest.mark.parametrize("text, named", [
    ("negative_armor=sideways", "negative_armor"),
    ("no_such_option=1", "no_such_option"),
    ("negative_armor", "negative_armor"),
])  # fmt: skip
def test_a_bad_region_is_refused_by_name(text: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        parse_region(text)


def test_every_exception_in_the_suite_names_registered_readings() -> None:
    for thm in runner.discover().values():
        for region in thm.unless:
            assert region and all(atom[0] for atom in region), thm.name


@pytest.mark.parametrize("name, mutant", [
    ("interest_keeps_the_board_legal_under_either_zero_maximum_reading", "zero_maximum_revived_unfloored"),
    ("fast_ignore_charge_agrees_with_the_pipeline", "fast_ignore_below_armor"),
])  # fmt: skip
def test_a_mutant_under_another_reading_is_seen_only_by_the_every_reading_proof(name: str, mutant: str) -> None:
    thm = runner.discover()[name]
    bug = next(m for m in thm.mutants if m.name == mutant)
    assert bug.under is not None
    assert core.check_mutant(thm, bug).status == "killed"
    at_defaults = dataclasses.replace(bug, under=None)
    assert core.check_mutant(thm, at_defaults).status == "survived"  # the default-only proof misses it


def _prove(*args: str) -> Any:
    return CliRunner().invoke(app, ["prove", "--no-crosshair", "--no-record", "--no-cache", *args])


def test_prove_under_an_engines_readings_on_the_command_line() -> None:
    done = _prove("-k", "interest_lowers_max_vitality", "--ruleset", "zero_maximum_revival=returns_at_one")
    assert done.exit_code == 0, done.output
    assert "not claimed under zero_maximum_revival=returns_at_one" in done.output
    assert "1 not claimed there" in done.output


def test_prove_reads_the_engines_declaration(tmp_path, monkeypatch) -> None:
    (tmp_path / "referee.toml").write_text('engine = "python -m referee.examples.engine"\n'
                                           '[ruleset]\nzero_maximum_revival = "returns_at_one"\n')
    monkeypatch.chdir(tmp_path)
    done = _prove("-k", "interest_lowers_max_vitality")
    assert done.exit_code == 0, done.output
    assert "under the declared readings (zero_maximum_revival=returns_at_one)" in done.output


def test_prove_refuses_an_unknown_reading_by_name() -> None:
    done = _prove("-k", "interest_lowers_max_vitality", "--ruleset", "zero_maximum_revival=sometimes")
    assert done.exit_code == 2
    assert "zero_maximum_revival" in done.output and "sometimes" in done.output


def test_a_failing_theorem_names_every_reading_it_fails_under_each_replayed() -> None:
    result = runner.run([REGISTRY["break_point_is_the_ceiling"]], jobs=1).theorems[0]
    assert result.status == "counterexample"
    assert result.proof.detail.startswith("fails under shield_multiplier_rounding=floor")
    assert "possibly more" not in result.proof.detail  # every other reading was proved
    ((region, witness),) = [(r["region"], r["counterexample"]) for r in result.proof.extra["fails_under"]]
    assert region == "shield_multiplier_rounding=floor"
    assert core.replay(REGISTRY["break_point_is_the_ceiling"], witness) == (True, False)


def test_corners_that_cover_an_option_merge_into_one_region() -> None:
    from referee.proofs.failing import merged

    corners = [((("damage_event_test", "=", r), ("tick_share_rounding", "=", t)), {})
               for r in ("reached_vitality", "after_shield") for t in ("remainder_to_first",)]
    corners.append(((("damage_event_test", "=", "after_shield"), ("tick_share_rounding", "=", "largest_remainder")), {}))
    regions = [r for r, _ in merged(corners)]
    assert regions == [(("tick_share_rounding", "=", "remainder_to_first"),),
                       (("damage_event_test", "=", "after_shield"), ("tick_share_rounding", "=", "largest_remainder"))]
    leaves = [((("defy_death_leaves", "=", 1),), {}), ((("defy_death_leaves", ">=", 2),), {})]
    assert [r for r, _ in merged(leaves)] == [()]


_ORIGINAL_BREAK = shield.compute_damage_to_break


def _floor_break_bug(pool, multiplier, ruleset=None):
    """Bug: the break point is one more than the model's (a function, so it can be gated to a reading)."""
    return _ORIGINAL_BREAK(pool, multiplier, *(() if ruleset is None else (ruleset,))) + 1


GATEABLE = Mutant("break_one_more", "referee.model.combat.shield:compute_damage_to_break", _floor_break_bug, "one more")


@theorem("combat:500.1-10", mutants=[GATEABLE], registry=REGISTRY)
def break_point_is_at_most_the_pool(v: Vars) -> Obligation:
    """A multiplied Shield pool breaks at no more than the pool, under every rounding reading."""
    pool, m = v.int("pool"), v.int("m")
    return Obligation(assume=core.all_of(pool >= 1, m >= 1, pool <= 50, m <= 5),
                      claim=shield.compute_damage_to_break(pool, m) <= pool)


@theorem("combat:500.1-10", mutants=[GATEABLE], registry=REGISTRY)
def a_ceiling_break_is_possible(v: Vars) -> Obligation:
    """Assumes a break point of 1 for a pool of 2 at multiplier 3: true under ceil only, vacuous under floor."""
    pool, m = v.int("pool"), v.int("m")
    return Obligation(assume=core.all_of(pool == 2, m == 3, shield.compute_damage_to_break(pool, m) == 1),
                      claim=shield.compute_damage_to_break(pool, m) <= pool)


def test_a_theorem_reading_an_option_gets_a_mutant_gated_to_another_reading_which_it_refutes() -> None:
    result = runner.run([REGISTRY["break_point_is_at_most_the_pool"]], jobs=1).theorems[0]
    assert result.ok, result.problems()
    assert result.reads == ["shield_multiplier_rounding"]
    gated = [m for m in result.mutants if "@" in m.name]
    assert [(m.name, m.status) for m in gated] == [("break_one_more@shield_multiplier_rounding=floor", "killed")]
    gated_bug = GATEABLE.at_reading("shield_multiplier_rounding", "floor")
    at_defaults = core.check_mutant(REGISTRY["break_point_is_at_most_the_pool"], dataclasses.replace(gated_bug, under=None))
    assert at_defaults.status == "survived"  # gated away from the defaults: the default-only proof misses it


def test_assumptions_that_read_an_option_must_be_satisfiable_under_each_of_its_readings() -> None:
    result = runner.run([REGISTRY["a_ceiling_break_is_possible"]], jobs=1).theorems[0]
    assert result.vacuity.status == "satisfiable"  # under some reading (ceil)
    at = dict((reading, verdict.status) for reading, verdict in result.vacuity_at)
    assert at == {"shield_multiplier_rounding=ceil": "satisfiable", "shield_multiplier_rounding=floor": "vacuous"}
    assert any("vacuity check at shield_multiplier_rounding=floor vacuous" in p for p in result.problems())


def test_a_theorem_that_reads_an_option_but_refutes_no_mutant_under_another_reading_fails() -> None:
    thm = REGISTRY["break_point_is_at_most_the_pool"]
    table = Mutant("a_table", "referee.model.combat.costs:DEFY_DEATH_ANSWERS", {}, "a table cannot be gated")
    bare = dataclasses.replace(thm, mutants=(table,))
    result = runner.run([bare], jobs=1).theorems[0]
    assert any("refutes no mutant under a reading other than the default" in p for p in result.problems())


def test_an_unknown_over_every_reading_says_what_was_decided() -> None:
    """At a limit too small for the every-reading proof, the report adds the verdict at the default readings."""
    thm = REGISTRY["break_point_is_at_most_the_pool"]
    result = runner.run([thm], jobs=1, rlimit=1).theorems[0]
    assert result.proof.status == "unknown"
    assert "at the default readings: " in result.proof.detail


def test_a_warm_run_reuses_every_new_check_and_gives_the_same_verdicts(tmp_path) -> None:
    """The checks a verdict calls for (a reading mutant, a vacuity check at each reading) are indexed and reused."""
    from referee.proofs.cache import ProofCache

    cache = ProofCache(tmp_path / "cache.json")
    theorems = [REGISTRY["break_point_is_at_most_the_pool"], REGISTRY["a_ceiling_break_is_possible"],
                REGISTRY["break_point_is_the_ceiling_unless_floor"]]
    cold = runner.run(theorems, jobs=1, plan=runner.CachePlan(cache, "code-1"))
    warm = runner.run(theorems, jobs=1, plan=runner.CachePlan(cache, "code-1"))
    assert warm.cache.decided == [] and len(warm.cache.reused) == len(cold.cache.decided)
    summary = lambda suite: [(r.name, r.status, r.reads, [(c, v.status) for c, _, v in r.checks()])  # noqa: E731
                             for r in suite.theorems]
    assert summary(warm) == summary(cold)


def test_a_theorems_own_gated_mutant_is_counted_once() -> None:
    thm = runner.discover()["tick_shares_sum_exactly_to_the_tick"]
    result = runner.run(runner.select(runner.discover().values(), thm.name), jobs=2).theorems
    mine = next(r for r in result if r.name == thm.name)
    names = [m.name for m in mine.mutants]
    assert len(names) == len(set(names)) == len(thm.mutants)


def _redirected(remaining: Any, cap: Any, ruleset: Any) -> Any:
    """The ally redirect's reading written with a plain Python ``if`` on the reading (as the fast twin is)."""
    from referee.model.arith import max_, min_

    if ruleset.redirect_cap_moves == "up_to_cap":
        return min_(remaining, cap)
    return max_(remaining - cap, 0)


def _redirect_claim(v: Vars, claim: Any) -> Obligation:
    remaining, cap = v.int("remaining"), v.int("cap")
    moved = _redirected(remaining, cap, v.ruleset())
    return Obligation(assume=core.all_of(remaining >= 0, cap >= 0), claim=claim(moved, remaining, cap))


@theorem("combat:500.1-11", mutants=[CEIL_BUG], registry=REGISTRY)
def redirect_moves_at_most_what_remains(v: Vars) -> Obligation:
    """The ally redirect never moves more than remains, under either reading of its cap."""
    return _redirect_claim(v, lambda moved, remaining, cap: moved <= remaining)


@theorem("combat:500.1-11", mutants=[CEIL_BUG], registry=REGISTRY)
def redirect_moves_at_most_the_cap(v: Vars) -> Obligation:
    """The ally redirect never moves more than its cap (true under up_to_cap only)."""
    return _redirect_claim(v, lambda moved, remaining, cap: moved <= cap)


def test_a_python_branch_on_a_reading_forks_the_run_and_joins_the_readings() -> None:
    held = core.prove(REGISTRY["redirect_moves_at_most_what_remains"])
    assert held.status == "proved" and held.extra["reads"] == ["redirect_cap_moves"]
    broken = core.prove(REGISTRY["redirect_moves_at_most_the_cap"])
    assert broken.status == "counterexample"
    assert broken.counterexample["reading.redirect_cap_moves"] is True  # excess_over_cap
    assert core.replay(REGISTRY["redirect_moves_at_most_the_cap"], broken.counterexample) == (True, False)


def test_a_theorem_that_reads_no_option_is_encoded_as_before() -> None:
    """No reading variable and no domain assertion enter a text that reads no option: its digest, and a proof
    cache entry for it, stay those of the suite before it was proved over every reading."""
    for name in ("zero_count_resolves_to_zero", "more_survivors_still_cover_the_damage"):
        query = core.encode_check(runner.discover()[name], "proof")
        assert query.reads == () and "reading." not in query.text and "(assert true)" not in query.text
    proved = core.encode_check(runner.discover()["armor_leaves_nothing_of_nothing"], "proof", pinned={"negative_armor": "mirror"})
    assert proved.reads == () and "reading." not in proved.text
