"""What chapter 500 cost: the proof suite's time and the harness's throughput, before and after, in one run.

A script, not a test: it prints measurements and asserts nothing about time.

    python benchmarks/bench_chapter500.py [--before REV] [--after REV] [--jobs 2] [-k PATTERN]
                                          [--examples 1000] [--seed 20261201] [--skip-prove] [--skip-harness]

``--before`` defaults to the commit just before chapter 500 landed: the first parent of the oldest
merge of an ``issue-14`` branch on the first-parent history of ``--after`` (default ``HEAD``; found with
``git log``). Each revision is checked out into a temporary ``git worktree`` (removed at the end), and
every measurement runs in a subprocess whose ``PYTHONPATH`` is that tree (the package directories of
``pyproject.toml`` linked into its ``referee/``), so both sides run the same measuring code on their
own sources. Printed, for each side and as the ratio after / before:

* the proof suite: wall time with ``--jobs N`` (``referee prove --jobs N``), theorems, checks, proved;
* the harness: scenarios per second checking the clean example engine in-process (fixed seed, no
  example database, no shrinking), over each side's own combat kinds, and over the kinds both have
  (the same scenarios' cost, without the new kinds' share).

The load average is printed with each figure: the machine is shared, so compare the ratio, not the
absolute times, and run it niced (``nice -n 10``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The package directories of ``pyproject.toml`` that live outside ``referee/`` (name -> folder).
PACKAGE_DIRS = {"model": "model", "proofs": "proofs", "specs": "specs", "examples": "examples"}
#: The merges that brought chapter 500 in.
CHAPTER_500_MERGE = re.compile(r"\bmerge\b.*\bissue-14[a-z]?\b", re.IGNORECASE)

#: The measuring code, run inside each tree (argv: root, what, then JSON options); prints one JSON line.
PROBE = r"""
import json, os, sys, time
root, what, opts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
import referee
assert os.path.realpath(referee.__file__).startswith(os.path.realpath(root)), referee.__file__
load = os.getloadavg()[0]
if what == "kinds":
    from referee.actions import kinds_of
    print(json.dumps({"kinds": list(kinds_of("combat"))}))
elif what == "prove":
    from referee.proofs import runner
    theorems = runner.select(runner.discover().values(), opts.get("pattern"))
    checks = []
    start = time.perf_counter()
    suite = runner.run(theorems, jobs=opts["jobs"], on_verdict=lambda task, verdict: checks.append(verdict.status))
    wall = time.perf_counter() - start
    statuses = [r.status for r in suite.theorems]
    print(json.dumps({"wall": wall, "theorems": len(theorems), "checks": len(checks), "ok": bool(suite.ok),
                      "proved": statuses.count("proved"), "load": load,
                      "not_proved": [f"{r.name}: {r.status}" for r in suite.theorems if r.status != "proved"]}))
elif what == "harness":
    from referee.engines.transports import PythonEngine
    from referee.examples.engine import run
    from referee.check.harness import CheckOptions, check
    options = CheckOptions(examples=opts["examples"], seed=opts["seed"], database=None, shrink=False,
                           kinds=tuple(opts["kinds"]))
    report = check(PythonEngine(run), options)
    print(json.dumps({"scenarios": report.scenarios_run, "seconds": report.seconds, "status": report.status,
                      "load": load}))
"""


@dataclass(frozen=True)
class Side:
    """One revision checked out for measuring."""

    label: str
    rev: str
    commit: str
    root: Path


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def pick_before(first_parent_merges: list[tuple[str, str]]) -> str | None:
    """The oldest chapter-500 merge among ``(commit, subject)`` pairs, newest first (``git log`` order)."""
    matching = [commit for commit, subject in first_parent_merges if CHAPTER_500_MERGE.search(subject)]
    return matching[-1] if matching else None


def find_before(repo: Path, after: str) -> str:
    """The first parent of the oldest chapter-500 merge on ``after``'s first-parent history."""
    lines = git(repo, "log", "--first-parent", "--merges", "--format=%H%x09%s", after).splitlines()
    merge = pick_before([tuple(line.split("\t", 1)) for line in lines if "\t" in line])  # type: ignore[misc]
    if merge is None:
        raise SystemExit(f"no merge of an issue-14 branch on the first-parent history of {after}: pass --before")
    return git(repo, "rev-parse", f"{merge}^1")


def link_packages(root: Path) -> None:
    """Make ``root`` importable by ``PYTHONPATH``: the package directories linked into ``referee/``."""
    for name, folder in PACKAGE_DIRS.items():
        link = root / "referee" / name
        if not link.exists():
            link.symlink_to(root / folder, target_is_directory=True)


def ratio(after: float, before: float) -> str:
    """``after / before`` as ``1.23x``, or ``n/a`` when there is nothing to divide by."""
    return f"{after / before:.2f}x" if before else "n/a"


def probe(side: Side, what: str, **opts: Any) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(side.root), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(side.root), what, json.dumps(opts)], env=env,
                          cwd=side.root, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{side.label} ({side.commit[:10]}): {what} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def checkout(repo: Path, label: str, rev: str, under: Path) -> Side:
    commit = git(repo, "rev-parse", rev)
    root = under / label
    git(repo, "worktree", "add", "--detach", str(root), commit)
    link_packages(root)
    return Side(label, rev, commit, root)


def measure(sides: list[Side], args: argparse.Namespace) -> None:
    for side in sides:
        print(f"{side.label:>6}: {side.commit[:10]} {git(side.root, 'log', '-1', '--format=%s')[:90]}")
    if not args.skip_prove:
        proofs = {}
        for side in sides:
            proofs[side.label] = got = probe(side, "prove", jobs=args.jobs, pattern=args.pattern)
            print(f"\nproof suite ({side.label}, --jobs {args.jobs}{f', -k {args.pattern}' if args.pattern else ''}): "
                  f"{got['wall']:.1f} s wall, {got['theorems']} theorems ({got['proved']} proved), "
                  f"{got['checks']} checks, all passing: {got['ok']}, load {got['load']:.1f}", flush=True)
            for line in got.get("not_proved", []):
                print(f"  not proved: {line}")
        b, a = proofs["before"], proofs["after"]
        timed = b["theorems"] and a["theorems"]
        print(f"proof suite after / before: time {ratio(a['wall'], b['wall']) if timed else 'n/a'}, theorems "
              f"{ratio(a['theorems'], b['theorems'])}, checks {ratio(a['checks'], b['checks'])}")
    if not args.skip_harness:
        kinds = {side.label: probe(side, "kinds")["kinds"] for side in sides}
        common = [k for k in kinds["before"] if k in kinds["after"]]
        print(f"\nharness kinds before: {','.join(kinds['before'])}\nharness kinds after:  {','.join(kinds['after'])}")
        for name, chosen in (("own kinds", kinds), ("common kinds", {s.label: common for s in sides})):
            rates = {}
            for side in sides:
                got = probe(side, "harness", examples=args.examples, seed=args.seed, kinds=chosen[side.label])
                rates[side.label] = got["scenarios"] / got["seconds"] if got["seconds"] else 0.0
                print(f"harness ({name}, {side.label}): {got['scenarios']} scenarios in {got['seconds']:.1f} s = "
                      f"{rates[side.label]:.0f}/s, {got['status']}, load {got['load']:.1f}", flush=True)
            print(f"harness ({name}) throughput after / before: {ratio(rates['after'], rates['before'])}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=None, help="the revision before chapter 500 (default: found with git log)")
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("-k", dest="pattern", default=None, help="only the theorems matching (as referee prove -k)")
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--skip-prove", action="store_true")
    parser.add_argument("--skip-harness", action="store_true")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    before = args.before or find_before(args.repo, args.after)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-ch500-") as tmp:
        sides: list[Side] = []
        try:
            for label, rev in (("before", before), ("after", args.after)):
                sides.append(checkout(args.repo, label, rev, Path(tmp)))
            measure(sides, args)
        finally:
            for side in sides:
                subprocess.run(["git", "-C", str(args.repo), "worktree", "remove", "--force", str(side.root)],
                               capture_output=True)
    print(f"\n(benchmark wall time {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
