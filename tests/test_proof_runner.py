"""The proof runner itself: each verdict it can give, decided on small test-only theorems.

The theorems here live in a registry of their own (``theorem(..., registry=REGISTRY)``),
never in ``THEOREMS``, so ``referee prove`` does not see their deliberately false claims.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model import arith
from referee.model.arith import max_, min_
from referee.proofs import core, runner
from referee.proofs.core import Mutant, Obligation, Vars, all_of, theorem

REGISTRY: dict[str, core.Theorem] = {}

# Theorem bodies call ``arith.max_`` through its module, so the mutant patched there is seen.

MAX_IS_MIN = Mutant("max_is_min", "referee.model.arith:max_", min_, "max_ returns the smaller value")


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def clamped_value_is_never_negative(v: Vars) -> Obligation:
    """max(x, 0) is never below 0."""
    x = v.int("x")
    return Obligation(assume=True, claim=arith.max_(x, 0) >= 0)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def clamped_value_is_positive(v: Vars) -> Obligation:
    """max(x, 0) is above 0 (false: x <= 0 gives 0)."""
    x = v.int("x")
    return Obligation(assume=True, claim=arith.max_(x, 0) > 0)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def contradictory_assumptions_prove_anything(v: Vars) -> Obligation:
    """Under x > 0 and x < 0, x equals 7 (vacuous)."""
    x = v.int("x")
    return Obligation(assume=all_of(x > 0, x < 0), claim=arith.max_(x, 0) == 7)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def adding_zero_changes_nothing(v: Vars) -> Obligation:
    """x + 0 is x (true, but blind to the max_ mutant)."""
    x = v.int("x")
    return Obligation(assume=True, claim=x + 0 == x)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], rlimit=1, registry=REGISTRY)
def cubes_never_sum_to_a_cube(v: Vars) -> Obligation:
    """No positive x, y, z have x^3 + y^3 = z^3 (asked under a tiny rlimit)."""
    x, y, z = v.int("x"), v.int("y"), v.int("z")
    return Obligation(assume=all_of(x > 0, y > 0, z > 0), claim=x * x * x + y * y * y != arith.max_(z, 0) * z * z)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def encoding_disagrees_with_model(v: Vars) -> Obligation:
    """An encoding that claims x > 0 where the model claims nothing (a deliberate encoding defect)."""
    x = v.int("x")
    return Obligation(assume=arith.max_(x, 0) >= 0, claim=(x > 0) if v.symbolic else True)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY, lemmas=[clamped_value_is_positive])
def uses_a_false_lemma(v: Vars) -> Obligation:
    """max(x, 0) >= 0, leaning on a lemma that is not proved."""
    x = v.int("x")
    return Obligation(assume=v.lemma(clamped_value_is_positive, x=x), claim=arith.max_(x, 0) >= 0)


def test_registry_of_tests_stays_out_of_the_suite() -> None:
    runner.discover()
    assert not set(REGISTRY) & set(core.THEOREMS)


def test_proved_theorem_is_proved_satisfiable_and_kills_its_mutant() -> None:
    thm = REGISTRY["clamped_value_is_never_negative"]
    proof = core.prove(thm)
    assert proof.status == "proved"
    assert proof.rlimit_used is not None and 0 < proof.rlimit_used <= thm.rlimit
    assert core.check_vacuity(thm).status == "satisfiable"
    mutant = core.check_mutant(thm, MAX_IS_MIN)
    assert mutant.status == "killed"
    assert mutant.counterexample is not None and mutant.counterexample["x"] < 0


def test_false_theorem_has_a_replayed_counterexample() -> None:
    verdict = core.prove(REGISTRY["clamped_value_is_positive"])
    assert verdict.status == "counterexample"
    assert verdict.counterexample is not None and verdict.counterexample["x"] <= 0
    assumed, claimed = core.replay(REGISTRY["clamped_value_is_positive"], verdict.counterexample)
    assert assumed and not claimed


def test_vacuous_theorem_is_detected() -> None:
    thm = REGISTRY["contradictory_assumptions_prove_anything"]
    assert core.prove(thm).status == "proved"  # proves anything ...
    assert core.check_vacuity(thm).status == "vacuous"  # ... which is why vacuity is asked


def test_surviving_mutant_is_detected() -> None:
    assert core.check_mutant(REGISTRY["adding_zero_changes_nothing"], MAX_IS_MIN).status == "survived"


def test_unknown_under_a_tiny_rlimit_is_never_proved() -> None:
    verdict = core.prove(REGISTRY["cubes_never_sum_to_a_cube"])
    assert verdict.status == "unknown"
    assert [a.seed for a in verdict.attempts] == list(core.RETRY_SEEDS)
    assert "rlimit 1" in verdict.detail


def test_counterexample_that_does_not_replay_is_an_encoding_defect() -> None:
    verdict = core.prove(REGISTRY["encoding_disagrees_with_model"])
    assert verdict.status == "encoding-defect"
    assert "does not reproduce" in verdict.detail


def test_rlimit_override_applies_to_the_check() -> None:
    verdict = core.prove(REGISTRY["clamped_value_is_never_negative"], rlimit=1_000_000)
    assert verdict.rlimit == 1_000_000


def test_rlimit_count_is_per_check_not_cumulative() -> None:
    thm = REGISTRY["clamped_value_is_never_negative"]
    first, second = core.prove(thm), core.prove(thm)
    assert first.rlimit_used == second.rlimit_used


def test_mutant_is_undone_after_the_check() -> None:
    core.check_mutant(REGISTRY["clamped_value_is_never_negative"], MAX_IS_MIN)
    assert arith.max_ is max_ and arith.max_(3, 5) == 5


def test_undeclared_lemma_is_an_error() -> None:
    local: dict[str, core.Theorem] = {}

    @theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=local)
    def sneaks_in_a_lemma(v: Vars) -> Obligation:
        """max(x, 0) >= 0 with an undeclared lemma."""
        x = v.int("x")
        return Obligation(assume=v.lemma(clamped_value_is_positive, x=x), claim=arith.max_(x, 0) >= 0)

    verdict = core.prove(local["sneaks_in_a_lemma"])
    assert verdict.status == "error" and "does not declare" in verdict.detail


@pytest.fixture(scope="module")
def suite() -> runner.SuiteResult:
    return runner.run(list(REGISTRY.values()), jobs=2)


def test_runner_answers_every_question_in_its_own_process(suite: runner.SuiteResult) -> None:
    results = {r.name: r for r in suite.theorems}
    assert results["clamped_value_is_never_negative"].ok
    assert results["clamped_value_is_positive"].status == "counterexample"
    assert results["contradictory_assumptions_prove_anything"].vacuity.status == "vacuous"
    assert results["adding_zero_changes_nothing"].mutants[0].status == "survived"
    assert results["cubes_never_sum_to_a_cube"].status == "unknown"
    assert results["encoding_disagrees_with_model"].status == "encoding-defect"
    assert not suite.ok


def test_runner_says_why_each_theorem_fails(suite: runner.SuiteResult) -> None:
    problems = "\n".join(suite.problems())
    assert "clamped_value_is_positive: proof counterexample" in problems
    assert "contradictory_assumptions_prove_anything: vacuity check vacuous" in problems
    assert "adding_zero_changes_nothing: mutant max_is_min survived" in problems
    assert "cubes_never_sum_to_a_cube: proof unknown" in problems
    assert "uses_a_false_lemma: uses lemma clamped_value_is_positive, which is not proved" in problems
    assert "clamped_value_is_never_negative" not in problems


def test_selection_by_name_or_clause_pulls_in_lemmas() -> None:
    chosen = runner.select(REGISTRY.values(), "uses_a_false")
    assert [t.name for t in chosen] == ["clamped_value_is_positive", "uses_a_false_lemma"]
    assert len(runner.select(REGISTRY.values(), "combat:500.2b")) == len(REGISTRY)
    assert runner.select(REGISTRY.values(), "no_such_theorem") == []


def test_json_record_shape(suite: runner.SuiteResult) -> None:
    record = runner.theorem_record(next(r for r in suite.theorems if r.name == "clamped_value_is_positive"))
    json.dumps(record)
    assert {"name", "clauses", "status", "seconds", "vacuity", "mutants", "statement", "bound"} <= set(record)
    assert record["clauses"] == ["combat:500.2b"]
    assert record["status"] == "counterexample" and record["counterexample"]["x"] <= 0
    assert record["mutants"][0]["name"] == "max_is_min" and "status" in record["mutants"][0]


def _cli(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(runner, "discover", lambda package="referee.proofs": REGISTRY)
    result = CliRunner().invoke(app, ["prove", "--no-crosshair", "--no-record", "--jobs", "2", *args])
    return result.exit_code, result.stdout


def test_cli_json_and_junit(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    junit = tmp_path / "proofs.xml"
    code, out = _cli(monkeypatch, "-k", "clamped_value", "--json", "--junit", str(junit))
    assert code == 1
    document = json.loads(out)
    by_name = {t["name"]: t for t in document["theorems"]}
    assert by_name["clamped_value_is_never_negative"]["status"] == "proved"
    assert by_name["clamped_value_is_positive"]["status"] == "counterexample"
    assert document["ok"] is False and document["crosshair"] is None
    cases = ET.parse(junit).getroot().findall(".//testcase")
    assert sorted(c.get("name") for c in cases) == sorted(by_name)
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    assert failed == {"clamped_value_is_positive"}


def test_cli_exits_zero_only_when_everything_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _cli(monkeypatch, "-k", "clamped_value_is_never_negative")
    assert code == 0 and "OK" in out and "1 proved" in out
    code, out = _cli(monkeypatch, "-k", "adding_zero")
    assert code == 1 and "mutant max_is_min survived" in out


def test_cli_unknown_is_named_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _cli(monkeypatch, "-k", "cubes")
    assert code == 1 and "cubes_never_sum_to_a_cube: proof unknown" in out


def test_cli_empty_selection_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "discover", lambda package="referee.proofs": REGISTRY)
    result = CliRunner().invoke(app, ["prove", "--no-crosshair", "-k", "no_such_theorem"])
    assert result.exit_code == 2
    assert "no theorem matches" in result.output
