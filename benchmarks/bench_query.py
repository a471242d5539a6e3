"""Query time over every ruleset reading (issue #40): a fixed set of questions, each in a fresh process.

A script, not a test: it prints measurements; the targets are printed as met or missed.

    python benchmarks/bench_query.py [--budget 120] [--only word,word] [--jobs 1] [--json FILE]
                                     [--baseline REF]

Each question of ``EVERY_READING`` (the README's example, every gallery question of
``tests/query_gallery.py`` with its ``--ruleset defaults`` taken away, and the issue's own
examples) is asked with no ruleset fixed, so every reading the model reads is searched, in a
fresh Python process (no cell cache carried from one question to the next), under ``--budget``
seconds. Printed for each: the verdict, the cells built, the cells solved (``-`` when the
answer does not say), the query's CPU and wall seconds (the child's import time left out: it is
the same before and after). ``DEFAULT_TWINS`` asks some of them again at ``--ruleset defaults``,
for the ratio every reading / one reading.

``--baseline REF`` also runs every question on the code of git commit ``REF`` (e.g. ``c002665``,
before readings became symbols), exported with ``git archive`` into a temporary folder (removed
at the end; the repository's worktrees, index and refs are not touched), its package directories
linked into its ``referee/`` so that ``PYTHONPATH`` imports that tree, and prints baseline / new
per question and for the median. A baseline that stopped at the budget makes its ratio a lower
bound (``>=``).

``--only a,b`` keeps the questions whose id contains one of the words; ``--jobs N`` runs N
questions at once (default 1: the machine has 2 cores, and parallel runs slow each other);
``--json FILE`` writes the raw figures. Exit status: 0 when every question ran, no verdict
differs from the expected one and every target measured is met; 1 otherwise.

The old gallery mode, every gallery question as the gallery asks it, in one process (cells built
for one question reused by the next, as in one test run):
``python benchmarks/bench_query.py --gallery [--cold] [--skip-slow] [--only a,b]`` (``--cold`` clears
the cell cache before each question; ``--skip-slow`` leaves out the --runslow questions).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from query_gallery import GALLERY  # noqa: E402

#: The package directories of ``pyproject.toml`` that live outside ``referee/`` (name -> folder).
PACKAGE_DIRS = {"model": "model", "proofs": "proofs", "specs": "specs", "examples": "examples"}
DEFAULT_BUDGET = 120.0
#: What a parent waits past the budget before it stops a child (a witness is replayed and shrunk after the search).
CHILD_GRACE = 120.0
#: The issue's targets on the shared 2-core machine.
TARGET_MEDIAN = 10.0
TARGET_FOUND = 5.0
TARGET_TWIN_RATIO = 10.0


@dataclass(frozen=True)
class BenchQuestion:
    """One question of the benchmark: ``options`` are ``referee.query.run_query``'s keyword arguments."""

    id: str
    condition: str
    options: dict[str, Any] = field(default_factory=dict)
    expected: str | None = None  # found | impossible; None: not established
    origin: str = "gallery"


def every_reading_options(options: dict[str, Any]) -> dict[str, Any]:
    """A gallery question's options with ``"ruleset": "defaults"`` taken away: every reading is searched."""
    return {k: v for k, v in options.items() if not (k == "ruleset" and v == "defaults")}


def gallery_questions() -> tuple[BenchQuestion, ...]:
    """Every gallery question over every reading.

    The expected verdict is the gallery's, which for a question the gallery asks at ``--ruleset defaults``
    is that reading's: another reading may find what the default cannot, and the benchmark then prints
    that the verdict differs, for a person to check against the witness's reading.
    """
    return tuple(BenchQuestion(q.id, q.condition, every_reading_options(q.options), q.expected)
                 for q in GALLERY if q.options.get("ruleset") in (None, "defaults"))


#: The README's example (``referee query "target.shield > 0 and outcome.died" --kind burn``).
README_QUESTIONS = (
    BenchQuestion("readme-shielded-dies-to-burn", "target.shield > 0 and outcome.died", {"kind": "burn"}, "found",
                  "README.md"),
)

#: The issue's measured examples. Shield and the redirect: on two units there is no receiver, so what Shield
#: absorbs and what moves (nothing) can never exceed what the cap let through, whatever the redirect cap says.
#: Negative Armor: the mirror formula (INT-001's default) at most doubles a hit; only ``reciprocal`` does more
#: (``--ruleset defaults --ruleset negative_armor=mirror``: impossible; ``=reciprocal``: found).
ISSUE_QUESTIONS = (
    BenchQuestion("shield-redirect-cap-one-hit",
                  "target.redirect_cap > 0 and outcome.shield_absorbed + outcome.redirected > outcome.after_cap",
                  {"units": 2, "relations": ("enemy",)}, "impossible", "issue #40"),
)  # issue #40's negative-Armor question is the gallery's negative-armor-more-than-doubles

#: The fixed set: every question searches every ruleset reading.
EVERY_READING: tuple[BenchQuestion, ...] = README_QUESTIONS + gallery_questions() + ISSUE_QUESTIONS

#: Two-unit one-hit ``impossible`` questions asked again at ``--ruleset defaults``: the ratio every reading / one.
TWINNED = ("shield-redirect-cap-one-hit", "reflect-sets-off-thorns")


def default_twin(question: BenchQuestion) -> BenchQuestion:
    """The same question at ``--ruleset defaults`` (one reading)."""
    return replace(question, id=f"{question.id}@defaults", options={**question.options, "ruleset": "defaults"})


DEFAULT_TWINS: dict[str, BenchQuestion] = {
    q.id: default_twin(q) for q in EVERY_READING if q.id in TWINNED
}


def build_question(question: BenchQuestion) -> None:
    """Parse and type the question as ``run_query`` would, without solving (a QueryError if it is malformed)."""
    from referee.query.parser import parse_condition
    from referee.query.play import check_play_actions, play_schema
    from referee.query.run import make_query

    options = dict(question.options)
    actions = tuple(options.pop("actions", ("hit",)))
    if any(a.partition(":")[0] in ("play_card", "activate") for a in actions):
        kind, _, _ = check_play_actions(actions, options.get("ruleset"))
        parse_condition(question.condition, play_schema(kind))
        return
    objective = options.pop("maximize", None)
    make_query(question.condition, actions=actions, objective=objective, **options)


# --------------------------------------------------------------------------------------
# One question in a fresh process
# --------------------------------------------------------------------------------------

#: The measuring code, run in a fresh process (argv: the tree to import, or "" for the installed package; the
#: question as JSON; the budget); prints one JSON line.
PROBE = r"""
import json, os, sys, time
root, question, budget = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
import referee
if root:
    assert os.path.realpath(referee.__file__).startswith(os.path.realpath(root)), referee.__file__
from referee.query import QueryError, run_query
options = {k: tuple(v) if isinstance(v, list) else v for k, v in question["options"].items()}
load = os.getloadavg()[0]
cpu, wall = time.process_time(), time.perf_counter()
try:
    answer = run_query(question["condition"], budget=budget, **options)
except QueryError as error:
    print(json.dumps({"status": "error", "detail": f"QueryError: {error}"}))
    sys.exit(0)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
progress = answer.progress or {}
solved = getattr(answer, "cells_solved", None)
print(json.dumps({"status": answer.status, "cells": answer.cells or progress.get("cells_built"),
                  "cells_solved": progress.get("cells_decided") if solved is None else solved,
                  "cell": answer.cell, "cpu": cpu, "wall": wall, "load": load}))
"""


def probe_env(tree: Path | None) -> dict[str, str]:
    """The child's environment: ``PYTHONPATH`` is ``tree`` (None: the installed package, as it stands)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return {**env, "PYTHONDONTWRITEBYTECODE": "1"}


def run_child(question: BenchQuestion, budget: float, tree: Path | None) -> dict[str, Any]:
    """Ask ``question`` in a fresh process; its figures, or ``status: error`` saying why it gave none."""
    spec = json.dumps({"condition": question.condition, "options": question.options})
    argv = [sys.executable, "-c", PROBE, "" if tree is None else str(tree), spec, str(budget)]
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, env=probe_env(tree), cwd=tree or ROOT, capture_output=True, text=True,
                              timeout=budget + CHILD_GRACE)
    except subprocess.TimeoutExpired:
        return {"status": "error", "detail": f"stopped after {budget + CHILD_GRACE:.0f} s (budget + grace)"}
    figures = last_json_line(done.stdout)
    if done.returncode != 0 or figures is None:
        return {"status": "error", "detail": f"exit {done.returncode}: {done.stderr.strip()[-600:]}"}
    return {**figures, "process_wall": time.perf_counter() - started}


def last_json_line(text: str) -> dict[str, Any] | None:
    """The last line of ``text`` as a JSON object, or None."""
    lines = text.strip().splitlines()
    try:
        value = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


# --------------------------------------------------------------------------------------
# The baseline tree
# --------------------------------------------------------------------------------------


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def export_tree(ref: str, under: Path) -> tuple[str, Path]:
    """Commit ``ref``'s files written under ``under`` with ``git archive`` (no git state changes): (commit, root)."""
    try:
        commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"--baseline {ref}: not a commit of {ROOT}") from None
    root = under / commit[:12]
    root.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    link_packages(root)
    return commit, root


def link_packages(root: Path) -> None:
    """Make ``root`` importable by ``PYTHONPATH``: the package directories linked into ``referee/``."""
    for name, folder in PACKAGE_DIRS.items():
        link = root / "referee" / name
        if not link.exists():
            link.symlink_to(root / folder, target_is_directory=True)


# --------------------------------------------------------------------------------------
# Running the set
# --------------------------------------------------------------------------------------


@dataclass
class Run:
    """One question's figures on the new code and, with ``--baseline``, on the baseline's."""

    question: BenchQuestion
    new: dict[str, Any]
    baseline: dict[str, Any] | None = None
    twin_of: str | None = None  # the every-reading question this default-reading run is the twin of


def select(questions: tuple[BenchQuestion, ...], only: list[str] | None) -> list[BenchQuestion]:
    """The questions whose id contains one of ``only``'s words (all of them without ``--only``)."""
    return [q for q in questions if only is None or any(word in q.id for word in only)]


def planned(questions: list[BenchQuestion]) -> list[tuple[BenchQuestion, str | None]]:
    """The runs: each question, then the default-reading twin of each twinned one (with the id it twins)."""
    twins = [(DEFAULT_TWINS[q.id], q.id) for q in questions if q.id in DEFAULT_TWINS]
    return [(q, None) for q in questions] + twins


def measure(question: BenchQuestion, twin_of: str | None, budget: float, baseline: Path | None) -> Run:
    """One question on the new code and, if given, on the baseline tree."""
    new = run_child(question, budget, None)
    old = None if baseline is None else run_child(question, budget, baseline)
    return Run(question, new, old, twin_of)


def measure_all(plan: list[tuple[BenchQuestion, str | None]], args: argparse.Namespace,
                baseline: Path | None) -> list[Run]:
    """Every planned run, ``--jobs`` at a time, each line printed when its run ends; the runs in plan order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(measure, q, twin, args.budget, baseline): i for i, (q, twin) in enumerate(plan)}
        runs: dict[int, Run] = {}
        for future in concurrent.futures.as_completed(futures):
            runs[futures[future]] = run = future.result()
            print(run_line(run), flush=True)
    return [runs[i] for i in range(len(plan))]


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------

DECIDED = ("found", "impossible")


def figure(value: Any, digits: int = 1) -> str:
    """A number as printed in the table; ``-`` when the answer does not carry it."""
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def speedup(new: dict[str, Any], old: dict[str, Any]) -> str:
    """baseline wall / new wall as ``12.3x``: ``>=`` when the baseline stopped undecided, ``n/a`` when new did."""
    if "wall" not in new or "wall" not in old or not new["wall"]:
        return "n/a"
    if new["status"] not in DECIDED:
        return "n/a"
    bound = "" if old["status"] in DECIDED else ">="
    return f"{bound}{old['wall'] / new['wall']:.1f}x"


def mismatch(run: Run) -> str:
    """A note when a decided verdict differs from the expected one (empty otherwise)."""
    status, expected = run.new["status"], run.question.expected
    if expected is None or status not in DECIDED or status == expected:
        return ""
    return f"  (expected {expected})"


def run_line(run: Run) -> str:
    """The table row of one run."""
    n = run.new
    line = (f"{run.question.id:<48} {n['status']:<10} {figure(n.get('cells')):>6} {figure(n.get('cells_solved')):>6} "
            f"{figure(n.get('cpu')):>7} {figure(n.get('wall')):>7}")
    if run.baseline is not None:
        b = run.baseline
        line += f" | {b['status']:<10} {figure(b.get('cells')):>6} {figure(b.get('wall')):>7} {speedup(n, b):>8}"
    line += mismatch(run)
    return line + (f"  [{n['detail']}]" if n["status"] == "error" else "")


def header(baseline: bool) -> str:
    line = f"{'question':<48} {'verdict':<10} {'cells':>6} {'solved':>6} {'cpu s':>7} {'wall s':>7}"
    return line + (f" | {'baseline':<10} {'cells':>6} {'wall s':>7} {'ratio':>8}" if baseline else "")


# --------------------------------------------------------------------------------------
# The summary and the targets
# --------------------------------------------------------------------------------------


def met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def count_line(main: list[Run], budget: float) -> tuple[str, bool]:
    """Decided, unknown and failed runs; the target is 0 unknown (and no question failing to run)."""
    statuses = [r.new["status"] for r in main]
    found, impossible, unknown = statuses.count("found"), statuses.count("impossible"), statuses.count("unknown")
    errors = len(statuses) - found - impossible - unknown
    ok = unknown == 0 and errors == 0
    return (f"{found + impossible} decided ({found} found, {impossible} impossible), {unknown} unknown, {errors} "
            f"failed to run, at a {budget:.0f} s budget (target 0 unknown: {met(ok)})"), ok


def median_lines(main: list[Run]) -> tuple[list[str], bool]:
    """The median and the worst wall time; the target is a median of at most ``TARGET_MEDIAN``."""
    timed = [(r.new["wall"], r.question.id) for r in main if "wall" in r.new]
    if not timed:
        return ["no question gave a time"], False
    median, worst = statistics.median(t for t, _ in timed), max(timed)
    ok = median <= TARGET_MEDIAN
    return [f"median wall {median:.1f} s (target <= {TARGET_MEDIAN:.0f} s: {met(ok)}), worst {worst[0]:.1f} s "
            f"({worst[1]})"], ok


def found_lines(main: list[Run]) -> tuple[list[str], bool]:
    """Every ``found``'s time; the target is each at most ``TARGET_FOUND``."""
    found = [(r.new["wall"], r.question.id) for r in main if r.new["status"] == "found"]
    ok = all(t <= TARGET_FOUND for t, _ in found)
    times = ", ".join(f"{i} {t:.1f} s" for t, i in found) or "none"
    return [f"found (target <= {TARGET_FOUND:.0f} s each: {met(ok)}): {times}"], ok


def twin_lines(runs: list[Run]) -> tuple[list[str], bool]:
    """Every reading / the default reading, for each twinned question; the target is at most ``TARGET_TWIN_RATIO``."""
    by_id = {r.question.id: r for r in runs if r.twin_of is None}
    lines, all_ok = [], True
    for twin in (r for r in runs if r.twin_of is not None):
        every = by_id[twin.twin_of].new
        decided = every["status"] in DECIDED and twin.new["status"] in DECIDED
        ratio = every["wall"] / twin.new["wall"] if decided and twin.new["wall"] else None
        ok = ratio is not None and ratio <= TARGET_TWIN_RATIO
        all_ok = all_ok and ok
        shown = "n/a (not both decided)" if ratio is None else f"{ratio:.1f}x"
        lines.append(f"every reading / default reading, {twin.twin_of}: {figure(every.get('wall'))} s "
                     f"({every['status']}) / {figure(twin.new.get('wall'))} s ({twin.new['status']}) = {shown} "
                     f"(target <= {TARGET_TWIN_RATIO:.0f}x: {met(ok)})")
    return lines, all_ok


def baseline_lines(main: list[Run]) -> list[str]:
    """The ratio of the medians, baseline / new, with what bounds it."""
    pairs = [(r.baseline["wall"], r.new["wall"]) for r in main
             if r.baseline is not None and "wall" in r.baseline and "wall" in r.new]
    if not pairs:
        return []
    old, new = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    stopped_old = sum(1 for r in main if r.baseline is not None and r.baseline["status"] not in DECIDED)
    stopped_new = sum(1 for r in main if r.new["status"] not in DECIDED)
    if stopped_new:
        note = f" (not a bound: {stopped_new} new runs stopped undecided too)"
    elif stopped_old:
        note = f" (a lower bound: {stopped_old} baseline runs stopped undecided at the budget)"
    else:
        note = ""
    return [f"median wall, baseline / new: {old:.1f} s / {new:.1f} s = {old / new:.1f}x{note}" if new else
            "median wall, baseline / new: n/a (new median 0 s)"]


def summary(runs: list[Run], budget: float) -> tuple[list[str], bool]:
    """The summary lines and whether every target measured is met, every question ran and none gave a wrong verdict."""
    main = [r for r in runs if r.twin_of is None]
    counts, counts_ok = count_line(main, budget)
    lines, ok = [f"{len(main)} of the set's {len(EVERY_READING)} questions over every reading: {counts}"], counts_ok
    for part in (median_lines(main), found_lines(main), twin_lines(runs)):
        lines += part[0]
        ok = ok and part[1]
    wrong = [f"{r.question.id}: {r.new['status']}, expected {r.question.expected}" for r in main if mismatch(r)]
    lines += [f"verdict differs: {w}" for w in wrong] + baseline_lines(main)
    lines.append("not measured here: each verdict against the union of the per-reading verdicts")
    ok = ok and not wrong
    whole = len(main) == len(EVERY_READING)
    scope = "the whole set" if whole else f"{len(main)} of {len(EVERY_READING)} questions only"
    lines.append(f"targets: {'all met' if ok else 'NOT all met'} (over {scope})")
    return lines, ok


# --------------------------------------------------------------------------------------
# The gallery mode (in one process, as the gallery asks each question)
# --------------------------------------------------------------------------------------


def run_gallery(only: list[str] | None, cold: bool, skip_slow: bool) -> None:
    """Every gallery question as the gallery asks it, in this process; the median and the worst time."""
    from referee.query import run_query, solve

    times = []
    for question in GALLERY:
        if (question.slow and skip_slow) or (only is not None and not any(word in question.id for word in only)):
            continue
        if cold:
            solve._CELLS.clear()
        started = time.perf_counter()
        answer = run_query(question.condition, **question.options)
        seconds = time.perf_counter() - started
        times.append((seconds, question.id))
        mark = "" if answer.status == question.expected else f"  (expected {question.expected})"
        print(f"{seconds:7.2f} s  {answer.status:<10} {question.id}{mark}", flush=True)
    if not times:
        raise SystemExit("no gallery question matches --only")
    worst = max(times)
    values = [t for t, _ in times]
    print(f"\n{len(values)} questions ({'cold' if cold else 'warm'} cell cache): median {statistics.median(values):.2f} s, "
          f"worst {worst[0]:.2f} s ({worst[1]}), total {sum(values):.1f} s")


# --------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------


def positive(text: str) -> float:
    """``--budget``: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the budget must be above 0 s")
    return value


def jobs(text: str) -> int:
    """``--jobs``: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: --jobs takes a whole number of at least 1")
    return int(text)


def words(text: str) -> list[str]:
    """``--only a,b``: the words, none empty."""
    chosen = [w.strip() for w in text.split(",") if w.strip()]
    if not chosen:
        raise argparse.ArgumentTypeError(f"{text!r}: --only takes words joined by commas")
    return chosen


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=positive, default=DEFAULT_BUDGET, help="seconds per question (then: unknown)")
    parser.add_argument("--only", type=words, default=None, help="the questions whose id contains one of these words")
    parser.add_argument("--jobs", type=jobs, default=1, help="questions run at once (default 1)")
    parser.add_argument("--json", type=Path, default=None, dest="json_file", help="write the raw figures here")
    parser.add_argument("--baseline", default=None, metavar="REF", help="also run each question on commit REF")
    parser.add_argument("--gallery", action="store_true", help="the old mode: the gallery as asked, in one process")
    parser.add_argument("--cold", action="store_true", help="--gallery: clear the cell cache before each question")
    parser.add_argument("--skip-slow", action="store_true", help="--gallery: leave out the --runslow questions")
    args = parser.parse_args(argv)
    if not args.gallery and (args.cold or args.skip_slow):
        parser.error("--cold and --skip-slow belong to --gallery")
    if args.gallery and (args.baseline or args.json_file or args.jobs != 1):
        parser.error("--gallery runs in this process: no --baseline, --json or --jobs")
    return args


def write_json(path: Path, runs: list[Run], args: argparse.Namespace, commit: str | None) -> None:
    """The raw figures of every run."""
    data = {"budget": args.budget, "baseline": commit, "load_at_start": os.getloadavg()[0],
            "runs": [{"id": r.question.id, "condition": r.question.condition, "options": r.question.options,
                      "expected": r.question.expected, "origin": r.question.origin, "twin_of": r.twin_of,
                      "new": r.new, "baseline": r.baseline} for r in runs]}
    path.write_text(json.dumps(data, indent=2) + "\n")


def run_set(args: argparse.Namespace, baseline: Path | None, commit: str | None) -> bool:
    """The set (``--only``'s part of it): the table, the summary; whether the targets are met."""
    questions = select(EVERY_READING, args.only)
    if not questions:
        raise SystemExit(f"--only {','.join(args.only)}: no question of the set matches")
    print(f"{len(questions)} questions over every reading, budget {args.budget:.0f} s each, jobs {args.jobs}, "
          f"load average {os.getloadavg()[0]:.1f}" + (f", baseline {commit[:12]}" if commit else ""))
    print(header(baseline is not None), flush=True)
    runs = measure_all(planned(questions), args, baseline)
    lines, ok = summary(runs, args.budget)
    print("\n" + "\n".join(lines))
    if args.json_file is not None:
        write_json(args.json_file, runs, args, commit)
    return ok


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.gallery:
        run_gallery(args.only, args.cold, args.skip_slow)
        return 0
    if args.baseline is None:
        return 0 if run_set(args, None, None) else 1
    with tempfile.TemporaryDirectory(prefix="bench-query-") as tmp:
        commit, tree = export_tree(args.baseline, Path(tmp))
        return 0 if run_set(args, tree, commit) else 1


if __name__ == "__main__":
    sys.exit(main())
