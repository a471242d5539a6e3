"""The question set and the helpers of ``benchmarks/bench_query.py`` (the benchmark never runs in the tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark  # tests/ is on sys.path (rootdir conftest)

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    return load_benchmark("bench_query")


bench = _bench()


def test_the_set_has_at_least_20_questions_each_once_none_fixing_a_ruleset():
    ids = [q.id for q in bench.EVERY_READING]
    assert len(ids) >= 20 and len(set(ids)) == len(ids)
    assert [q.id for q in bench.EVERY_READING if "ruleset" in q.options] == []


@pytest.mark.parametrize("question", bench.EVERY_READING + tuple(bench.DEFAULT_TWINS.values()), ids=lambda q: q.id)
def test_each_question_parses_and_types(question):
    bench.build_question(question)


def test_a_malformed_question_is_refused_by_the_build():
    from referee.query import QueryError

    with pytest.raises(QueryError):
        bench.build_question(bench.BenchQuestion("bad", "target.no_such_field > 0", {"units": 2}))


def test_the_set_holds_every_gallery_question_and_the_hard_ones():
    from query_gallery import GALLERY, WORKED

    by_id = {q.id: q for q in bench.EVERY_READING}
    assert {q.id for q in GALLERY} <= set(by_id)
    reflect = by_id["reflect-sets-off-thorns"].options, by_id["reflect-sets-off-thorns-everywhere"].options
    assert reflect[0]["units"] == 2 and "units" not in reflect[1]  # two units, and the default four
    assert by_id["bloodletting-cost-split"].options["units"] == 3
    assert by_id["worked-example-restores-nothing"].options["actions"] == (WORKED,) and "damage(" in WORKED
    assert by_id["everlasting-back-within-9s"].options["actions"] == ("hit", "advance")
    assert by_id["readme-shielded-dies-to-burn"].condition in (ROOT / "README.md").read_text()
    assert {"shield-redirect-cap-one-hit", "negative-armor-more-than-doubles"} <= set(by_id)


def test_each_twin_is_its_question_at_the_default_reading():
    by_id = {q.id: q for q in bench.EVERY_READING}
    assert set(bench.DEFAULT_TWINS) == {"shield-redirect-cap-one-hit", "reflect-sets-off-thorns"}
    for name, twin in bench.DEFAULT_TWINS.items():
        question = by_id[name]
        assert question.options["units"] == 2 and question.expected == "impossible"
        assert twin.condition == question.condition and twin.options == {**question.options, "ruleset": "defaults"}


def test_the_negative_armor_question_needs_the_reciprocal_reading():
    from referee.query import run_query

    question = {q.id: q for q in bench.EVERY_READING}["negative-armor-more-than-doubles"]
    asked = {reading: run_query(question.condition, ruleset={**_defaults(), "negative_armor": reading}, budget=60,
                                **question.options).status for reading in ("mirror", "reciprocal")}
    assert asked == {"mirror": "impossible", "reciprocal": "found"}


def _defaults():
    from referee.model.combat.ruleset import DEFAULT

    return DEFAULT.to_json()


def test_the_command_line():
    args = bench.parse(["--only", "reflect,negative-armor", "--budget", "30"])
    assert (args.only, args.budget, args.jobs, args.baseline, args.json_file, args.gallery) == (
        ["reflect", "negative-armor"], 30.0, 1, None, None, False)
    assert [q.id for q in bench.select(bench.EVERY_READING, args.only)] == [
        "reflect-sets-off-thorns", "reflect-sets-off-thorns-everywhere", "negative-armor-more-than-doubles"]
    assert bench.parse([]).budget == bench.DEFAULT_BUDGET == 120.0
    gallery = bench.parse(["--gallery", "--cold", "--skip-slow"])
    assert (gallery.gallery, gallery.cold, gallery.skip_slow) == (True, True, True)


@pytest.mark.parametrize("argv", [["--budget", "0"], ["--budget", "soon"], ["--only", ","], ["--jobs", "0"],
                                  ["--cold"], ["--gallery", "--baseline", "c002665"]])
def test_a_bad_command_line_is_a_usage_error(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.parse(argv)
    assert stopped.value.code == 2 and argv[0] in capsys.readouterr().err


def test_the_plan_adds_the_twin_after_the_set():
    chosen = bench.select(bench.EVERY_READING, ["shield-redirect", "readme"])
    assert [(q.id, twin) for q, twin in bench.planned(chosen)] == [
        ("readme-shielded-dies-to-burn", None), ("shield-redirect-cap-one-hit", None),
        ("shield-redirect-cap-one-hit@defaults", "shield-redirect-cap-one-hit")]


def test_a_baseline_stopped_at_the_budget_gives_a_lower_bound():
    decided, stopped = {"status": "impossible", "wall": 2.0}, {"status": "unknown", "wall": 30.0}
    assert bench.speedup(decided, {"status": "impossible", "wall": 5.0}) == "2.5x"
    assert bench.speedup(decided, stopped) == ">=15.0x"
    assert bench.speedup(stopped, stopped) == "n/a"
    assert bench.speedup({"status": "error"}, decided) == "n/a"


def _run(name, status, wall, twin_of=None):
    question = {q.id: q for q in bench.EVERY_READING}.get(name) or bench.DEFAULT_TWINS[twin_of]
    return bench.Run(question, {"status": status, "wall": wall, "cpu": wall}, None, twin_of)


def test_the_summary_says_which_target_is_missed():
    runs = [_run("shield-redirect-cap-one-hit", "impossible", 12.0), _run("readme-shielded-dies-to-burn", "found", 6.0),
            _run("shield-redirect-cap-one-hit@defaults", "impossible", 1.0, "shield-redirect-cap-one-hit")]
    lines, ok = bench.summary(runs, 120.0)
    text = "\n".join(lines)
    assert not ok
    assert "median wall 9.0 s (target <= 10 s: met)" in text
    assert "found (target <= 5 s each: MISSED): readme-shielded-dies-to-burn 6.0 s" in text
    assert "= 12.0x (target <= 10x: MISSED)" in text
    assert "over 2 of " in text


def test_an_unknown_or_a_wrong_verdict_fails_the_summary():
    fast = [_run("readme-shielded-dies-to-burn", "found", 1.0)]
    assert bench.summary(fast, 120.0)[1] is True
    assert bench.summary([_run("readme-shielded-dies-to-burn", "unknown", 120.0)], 120.0)[1] is False
    lines, ok = bench.summary([_run("readme-shielded-dies-to-burn", "impossible", 1.0)], 120.0)
    assert not ok and "verdict differs: readme-shielded-dies-to-burn: impossible, expected found" in lines


def test_a_child_reports_a_bad_question_as_an_error_not_a_time():
    got = bench.run_child(bench.BenchQuestion("bad", "target.no_such_field > 0", {"units": 2}), 5.0, None)
    assert got["status"] == "error" and "QueryError" in got["detail"] and "wall" not in got


def test_a_linked_tree_imports_its_own_packages(tmp_path):
    for folder in ("referee", *bench.PACKAGE_DIRS.values()):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text(f"WHERE = {folder!r}\n")
    bench.link_packages(tmp_path)
    code = "import referee.model, referee.specs; print(referee.model.WHERE, referee.specs.WHERE)"
    done = subprocess.run([sys.executable, "-c", code], env=bench.probe_env(tmp_path), capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.stdout.split() == ["model", "specs"], done.stderr
