"""``referee exhaust``: the tiers are fixed lists of scenarios, their counts a contract, and ``tiny`` kills every
seeded mutant of both rulebooks, deterministically."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.vectors import exhaust
from referee import rulebooks
from referee.check.compare import Comparison
from referee.examples import mutants
from referee.check.harness import expect
from referee.scope import Family, canonical_key, enumerate_scope, fixed

SNAPSHOTS = Path(__file__).resolve().parents[1] / "specs" / "exhaust"


@pytest.fixture(scope="module")
def tiny() -> exhaust.Scope:
    return exhaust.scope("tiny")


@pytest.fixture(scope="module")
def tiny_expected(tiny) -> dict:
    """The model's observation of every tiny scenario, computed once for every engine run of this module."""
    return {s["id"]: expect(s) for _, s in exhaust.with_ids(tiny)}


def test_a_tier_is_the_same_list_of_scenarios_every_time(tiny):
    again = exhaust.scope("tiny")
    assert [s for _, s in again.scenarios] == [s for _, s in tiny.scenarios]
    assert len(tiny.scenarios) > 5000


def test_every_scenario_of_the_tiny_tier_is_a_valid_scenario_the_model_runs(tiny, tiny_expected):
    errors = [f"{sid}: {o[1]}" for sid, o in tiny_expected.items() if isinstance(o, tuple)]
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("smaller, larger", [("tiny", "small"), ("small", "standard")])
def test_each_smaller_tier_is_inside_the_larger_ones(smaller, larger):
    keys = {canonical_key(s) for _, s in exhaust.scope(larger).scenarios}
    assert {canonical_key(s) for _, s in exhaust.scope(smaller).scenarios} <= keys


def test_the_tiny_families_are_inside_the_small_ones_for_costs_and_culls():
    kinds = frozenset({"cost", "cull"})
    small = {canonical_key(s) for _, s in exhaust.scope("small", kinds).scenarios}
    assert {canonical_key(s) for _, s in exhaust.scope("tiny", kinds).scenarios} <= small


def test_the_tiny_counts_match_the_published_snapshot(tiny):
    published = json.loads((SNAPSHOTS / "tiny.json").read_text())
    total, _ = exhaust.count(tiny, clauses=False)
    assert total.model_errors == []
    assert {"scenarios": total.scenarios, "distinct_outcomes": len(total.outcomes),
            "categories": dict(sorted(total.categories.items()))} == {
        k: published[k] for k in ("scenarios", "distinct_outcomes", "categories")}, (
        "the tiny tier's counts changed: if the model change is intended, regenerate specs/exhaust/*.json "
        "(referee exhaust --tier T --clauses --json) and docs (referee docs), and say why in review")
    assert tiny.enumerated.candidates == published["candidates"]


@pytest.mark.slow
@pytest.mark.parametrize("tier", exhaust.TIERS)
def test_every_tier_matches_its_snapshot_clause_by_clause(tier):
    published = json.loads((SNAPSHOTS / f"{tier}.json").read_text())
    total, _ = exhaust.count(exhaust.scope(tier), clauses=True)
    assert total.to_json() | {"model_errors": []} == {k: published[k] for k in total.to_json()} | {"model_errors": []}


# --------------------------------------------------------------------------------------
# Symmetry
# --------------------------------------------------------------------------------------


def _mirrored(scenario: dict) -> dict:
    """The same scenario with the two sides swapped and every unit renamed."""
    names = {u["uid"]: f"m{u['uid']}" for u in scenario["board"]}
    board = [{**u, "uid": names[u["uid"]], "side": 1 - u["side"],
              **{k: names[u[k]] for k in ("redirect_to", "intercept_by") if u[k] is not None}}
             for u in scenario["board"]]
    actions = json.loads(json.dumps(scenario["actions"]), object_hook=lambda d: {
        k: (names.get(v, v) if isinstance(v, str) else [names.get(x, x) if isinstance(x, str) else x for x in v]
            if isinstance(v, list) else v) for k, v in d.items()})
    return {**scenario, "board": board, "actions": actions}


def test_a_mirrored_renamed_scenario_is_one_symmetry_class():
    one = exhaust.scope("tiny", frozenset({"hit"})).scenarios[5][1]
    assert canonical_key(one) == canonical_key(_mirrored(one))


def test_symmetry_is_sound_mirrored_scenarios_have_mirrored_outcomes(tiny):
    """The reduction keeps one scenario per class: that is sound only if the model answers every member alike."""
    checked = 0
    for _, scenario in tiny.scenarios[::37]:
        if scenario.get("rulebook") == "play":
            continue
        ours, theirs = expect(scenario), expect(_mirrored(scenario))
        names = [e.name for e in ours.events]
        assert names == [e.name for e in theirs.events], scenario
        assert [e.amount for e in ours.events] == [e.amount for e in theirs.events], scenario
        assert {u.uid: (u.vitality, u.alive) for u in ours.state.units} == \
            {u.uid[1:]: (u.vitality, u.alive) for u in theirs.state.units}, scenario
        checked += 1
    assert checked > 100


def test_cells_that_keep_reading_order_are_one_class_and_the_reduction_is_counted():
    def build(a):
        (r, c) = a["cell"]
        board = [{"uid": "a", "side": 0, "row": r, "col": c}, {"uid": "b", "side": 0, "row": 1, "col": 3}]
        return {"board": board, "actions": [{"kind": "cull", "target": "a"}]}

    family = Family("t", "combat", "cull", (fixed("cell", "cells", ((0, 0), (0, 1), (1, 2), (1, 4))),), build)
    found = enumerate_scope([family])
    # (0,0), (0,1) and (1,2) all read before b's (1,3): one class; (1,4) reads after it: another
    assert found.candidates == 4 and len(found.scenarios) == 2 and found.reduced == 2


# --------------------------------------------------------------------------------------
# Engines
# --------------------------------------------------------------------------------------


class _InProcess:
    """A module's ``run`` as an engine (no worker: the model's expectations are shared across mutants)."""

    def __init__(self, module, name):
        self.module, self.name, self.batch_size = module, name, 64

    def submit(self, scenarios):
        return None

    def run_batch(self, scenarios):
        out = []
        for scenario in scenarios:
            try:
                out.append(self.module.run(scenario))
            except Exception as error:  # noqa: BLE001 - an engine's exception is its answer (a fault)
                out.append(error)
        return out


def test_the_clean_example_engines_pass_the_tiny_tier(tiny, tiny_expected):
    from referee.examples import engine

    report = exhaust.check(_InProcess(engine, "clean"), tiny, Comparison(), expectations=tiny_expected)
    assert (report.status, report.scenarios, report.faults) == ("pass", len(tiny.scenarios), [])


@pytest.mark.parametrize("name", [m.name for m in (*mutants.MUTANTS, *mutants.LATE_MUTANTS)])
def test_the_tiny_tier_kills_every_seeded_mutant(name, tiny, tiny_expected):
    report = _run_mutant(name, tiny, tiny_expected)
    assert report.status == "mismatch", f"{name} survives the tiny tier"
    assert report.first_line is not None


def _run_mutant(name, tiny, expected):
    """The mutant over the tiny scenarios of its own rulebook (what the whole tier runs, less what cannot reach it:
    the command line runs it all, test_the_cli_... shows one)."""

    class Run:
        run = staticmethod(getattr(mutants, name))

    rulebook = "play" if mutants.BY_NAME[name].source != "engine.py" else "combat"
    return exhaust.check(_InProcess(Run, name), tiny, Comparison(), stop_at_first=True, expectations=expected,
                         only=lambda s: s.get("rulebook", "combat") == rulebook)


def _referee(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "import sys; from referee.cli.app import main; sys.argv[0] = 'referee'; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=600)


def test_the_cli_exits_1_for_a_mutant_and_0_for_the_clean_engine_with_a_divide_line(tmp_path):
    bad = _referee("exhaust", "--tier", "tiny", "--kinds", "cull", "--python", "referee.examples.mutants:cull_destroys_tools",
                   "--in-process", "--divide", cwd=tmp_path)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "first diverging divide line: cull/guards" in bad.stdout
    engine = f"{sys.executable} -m referee.examples.engine"  # over JSON lines: a batch sent ahead, then collected
    good = _referee("exhaust", "--tier", "tiny", "--kinds", "cull", "--engine", engine, cwd=tmp_path)
    culls = len(exhaust.scope("tiny", frozenset({"cull"})).scenarios)  # every one of them, through the pipe
    assert good.returncode == 0 and f"PASS: {culls} scenarios" in good.stdout, good.stdout + good.stderr


def test_an_unknown_tier_is_a_usage_error(tmp_path):
    result = _referee("exhaust", "--tier", "huge", cwd=tmp_path)
    assert result.returncode == 2 and "unknown tier 'huge'" in result.stderr and "Traceback" not in result.stderr


def test_a_tier_exported_as_vectors_is_replayed_by_vectors_run(tmp_path):
    out = tmp_path / "tier"
    exported = _referee("exhaust", "--tier", "tiny", "--kinds", "armor_debuff", "--export", str(out), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["exhaust"]["scenarios"] == len(manifest["vectors"]) == 32
    assert len(manifest["exhaust"]["files"]) == 32 and len(manifest["exhaust"]["sha256"]) == 64
    passed = _referee("vectors", "run", str(out), "--python", "referee.examples.engine:run", "--in-process", cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = _referee("vectors", "run", str(out), "--python", "referee.examples.mutants:armor_floored_at_zero",
                      "--in-process", cwd=tmp_path)
    assert failed.returncode == 1, failed.stdout


@pytest.mark.slow
def test_the_small_tier_passes_the_example_engine_over_json_lines(tmp_path):
    result = _referee("exhaust", "--tier", "small", "--engine", f"{sys.executable} -m referee.examples.engine",
                      cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "PASS" in result.stdout


def test_every_family_builds_only_scenarios_of_its_rulebook():
    for family in exhaust.families("tiny"):
        for scenario in list(family.candidates())[:50]:
            book = rulebooks.of_scenario(scenario)
            assert book.name == family.rulebook and {a["kind"] for a in scenario["actions"]} <= set(book.kinds)


def test_kinds_select_scenarios_by_every_action_they_hold():
    only_hits = exhaust.scope("tiny", frozenset({"hit"}))
    assert only_hits.scenarios and all({a["kind"] for a in s["actions"]} == {"hit"} for _, s in only_hits.scenarios)
    assert {f for f, _ in only_hits.scenarios} >= {"hit/answers", "damage/tools_hubs_bosses", "damage/redirect"}
