"""The helpers of ``benchmarks/bench_chapter500.py`` (the benchmark itself never runs in the test suite)."""

from __future__ import annotations

import subprocess
import sys

from benchmark_scripts import load_benchmark  # tests/ is on sys.path (rootdir conftest)


def _bench():
    return load_benchmark("bench_chapter500")


def test_the_commit_before_chapter_500_is_the_oldest_issue_14_merge_and_nothing_else():
    bench = _bench()
    log = [("c3", "merge issue-14: action kinds recover"), ("c2", "merge issue-12: query"),
           ("c1", "merge issue-14b: death (500.4), revival"), ("c0", "Merge branch 'issue-140'")]
    assert bench.pick_before(log) == "c1"
    assert bench.pick_before([("c9", "merge issue-12: query"), ("c8", "issue-14 notes, no merge word")]) is None


def test_ratio_and_the_arguments():
    bench = _bench()
    assert bench.ratio(3.0, 2.0) == "1.50x" and bench.ratio(1.0, 0.0) == "n/a"
    args = bench.parse(["--before", "abc", "-k", "reliquary", "--examples", "20", "--skip-prove"])
    assert (args.before, args.after, args.jobs, args.pattern, args.examples, args.skip_prove, args.skip_harness) == (
        "abc", "HEAD", 2, "reliquary", 20, True, False)


def test_a_linked_tree_imports_its_own_packages(tmp_path):
    bench = _bench()
    for folder in ("referee", *bench.PACKAGE_DIRS.values()):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text(f"WHERE = {folder!r}\n")
    bench.link_packages(tmp_path)
    bench.link_packages(tmp_path)  # twice is harmless
    code = "import referee.model, referee.examples; print(referee.model.WHERE, referee.examples.WHERE)"
    done = subprocess.run([sys.executable, "-S", "-c", code], env={"PYTHONPATH": str(tmp_path)}, capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.stdout.split() == ["model", "examples"], done.stderr
