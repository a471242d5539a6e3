"""The proof cache (issue 21): answers reused by the hash of the question, never a verdict unchecked.

Small test-only theorems in a registry of their own (as in test_proof_runner.py), so each
run takes a second or two.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model import arith
from referee.model.arith import ite, min_
from referee.proofs import core, runner
from referee.proofs.cache import ProofCache, cache_key
from referee.proofs.core import Mutant, Obligation, Vars, all_of, theorem

REGISTRY: dict[str, core.Theorem] = {}
MAX_IS_MIN = Mutant("max_is_min", "referee.model.arith:max_", min_, "max_ returns the smaller value")


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def cached_max_is_never_negative(v: Vars) -> Obligation:
    """max(x, 0) is never below 0."""
    return Obligation(assume=True, claim=arith.max_(v.int("x"), 0) >= 0)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def cached_max_is_positive(v: Vars) -> Obligation:
    """max(x, 0) is above 0 (false: x <= 0 gives 0)."""
    return Obligation(assume=True, claim=arith.max_(v.int("x"), 0) > 0)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], registry=REGISTRY)
def cached_sum_is_ordered(v: Vars) -> Obligation:
    """Adding a positive y to x gives more than x (blind to the max_ mutant: it survives)."""
    x, y = v.int("x"), v.int("y")
    return Obligation(assume=all_of(y > 0), claim=x + y > x)


@theorem("combat:500.2b", mutants=[MAX_IS_MIN], rlimit=1, registry=REGISTRY)
def cached_cubes_stay_unknown(v: Vars) -> Obligation:
    """No positive x, y, z have x^3 + y^3 = z^3 (under a tiny rlimit: unknown)."""
    x, y, z = v.int("x"), v.int("y"), v.int("z")
    return Obligation(assume=all_of(x > 0, y > 0, z > 0), claim=x * x * x + y * y * y != arith.max_(z, 0) * z * z)


THEOREMS = list(REGISTRY.values())
CHECKS = len(runner.tasks_for(THEOREMS))


def _run(cache: ProofCache, code: str = "stamp", reuse: bool = True) -> runner.SuiteResult:
    return runner.run(THEOREMS, jobs=2, plan=runner.CachePlan(cache, code, reuse))


def _statuses(suite: runner.SuiteResult) -> dict[str, str]:
    return {f"{t.name} {label.replace('vacuity check', 'vacuity')}": v.status for t in suite.theorems for label, _, v in t.checks()}


def test_a_second_run_reuses_every_answer_but_unknown(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "cache.json")
    first = _run(cache)
    assert first.cache is not None and len(first.cache.decided) == CHECKS and not first.cache.reused
    unknown = [check for check, status in _statuses(first).items() if status == "unknown"]
    assert len(unknown) == 3 and all(c.startswith("cached_cubes_stay_unknown") for c in unknown)
    assert first.cache.stored == CHECKS - 3  # unknown is never stored
    cache.save()
    again = _run(ProofCache.load(tmp_path / "cache.json"))
    assert again.cache is not None
    assert sorted(again.cache.decided) == sorted(unknown)  # decided again, every time
    assert len(again.cache.reused) == CHECKS - 3
    assert _statuses(again) == _statuses(first)


def test_with_the_code_changed_the_texts_are_built_and_looked_up_by_content(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "cache.json")
    _run(cache, code="before")
    again = _run(cache, code="after")  # the index is void: every text is built, then found by its key
    assert again.cache is not None and len(again.cache.reused) == CHECKS - 3
    assert all(v.extra.get("digest") for t in again.theorems for _, _, v in t.checks() if v.status != "error")


def test_editing_one_model_function_re_decides_only_the_checks_whose_text_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = ProofCache(tmp_path / "cache.json")
    _run(cache, code="before")
    monkeypatch.setattr(arith, "max_", lambda a, b: ite(a < b, b, a))  # the same function, written otherwise
    edited = _run(cache, code="edited")
    assert edited.cache is not None
    # The proofs and vacuity checks that call max_ changed text; the mutants replace max_ by
    # min_ (unchanged text), and cached_sum_is_ordered never calls it.
    assert sorted(edited.cache.decided) == [
        "cached_cubes_stay_unknown mutant max_is_min",  # unknown (rlimit 1): never cached
        "cached_cubes_stay_unknown proof",
        "cached_cubes_stay_unknown vacuity",
        "cached_max_is_never_negative proof",
        "cached_max_is_positive proof",
    ]
    assert _statuses(edited)["cached_max_is_positive proof"] == "counterexample"


def test_a_cached_counterexample_is_replayed_before_it_is_shown(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "cache.json")
    first = _run(cache)
    key = first.cache.keys["cached_max_is_positive proof"]  # type: ignore[union-attr]
    cache.entries[key]["values"] = {"x": 5}  # a witness the model does not reproduce
    again = _run(cache)
    verdict = next(t for t in again.theorems if t.name == "cached_max_is_positive").proof
    assert verdict.extra.get("reused") and verdict.status == "encoding-defect"


def test_full_mode_decides_everything_and_names_a_cached_answer_that_differs(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "cache.json")
    first = _run(cache)
    key = first.cache.keys["cached_max_is_never_negative proof"]  # type: ignore[union-attr]
    cache.entries[key].update(answer="sat", values={"x": -1})
    full = _run(cache, reuse=False)
    assert full.cache is not None and not full.cache.reused and len(full.cache.decided) == CHECKS
    assert full.cache.disagreements == ["cached_max_is_never_negative proof"]
    assert "the cached answer differs from a fresh one" in "\n".join(full.problems())
    assert cache.entries[key]["answer"] == "unsat"  # the fresh answer replaces it


def test_the_key_is_the_text_the_z3_version_the_limit_and_the_kind() -> None:
    keys = {cache_key("d" * 64, "proof", 10), cache_key("d" * 64, "mutant", 10), cache_key("d" * 64, "proof", 11)}
    keys.add(cache_key("e" * 64, "proof", 10))
    assert len(keys) == 4


def _cli(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(runner, "discover", lambda package="referee.proofs": REGISTRY)
    result = CliRunner().invoke(app, ["prove", "--no-crosshair", "--no-record", "--jobs", "2", *args])
    return result.exit_code, result.output


def test_cli_says_how_many_it_reused_and_ci_mode_lists_every_entry(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "committed-cache.json"
    code, out = _cli(monkeypatch, "-k", "cached_max_is_never", "--cache", str(path))
    assert code == 0 and "cache: 0 reused, 3 decided, 3 stored" in out
    code, out = _cli(monkeypatch, "-k", "cached_max_is_never", "--cache", str(path))
    assert code == 0 and "cache: 3 reused, 0 decided, 0 stored" in out
    code, out = _cli(monkeypatch, "-k", "cached_sum", "--cache", str(path), "--cache-mode", "ci")
    assert code == 1 and out.count("cache missing ") == 3 and "not in the proof cache" in out
    code, out = _cli(monkeypatch, "-k", "cached_max_is_never", "--cache", str(path), "--cache-mode", "ci")
    assert code == 0 and out.count("cache reused ") == 3
    saved = json.loads(path.read_text())
    assert saved["format"] == 1 and len(saved["entries"]) == 3  # ci mode wrote nothing


def test_cli_refuses_a_bad_cache_file_by_name(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "cache.json"
    path.write_text('{"format": 99}')
    code, out = _cli(monkeypatch, "-k", "cached_max_is_never", "--cache", str(path))
    assert code == 2 and "cache.json" in out and "format" in out
