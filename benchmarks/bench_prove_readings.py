"""The proof suite over every reading: the theorems x options matrix, and its cost against an older revision.

A script, not a test: it prints measurements and asserts nothing about time.

    python benchmarks/bench_prove_readings.py [--baseline REF] [--repeat 3] [--jobs 2] [--no-matrix]

It runs ``referee prove --json`` cold (no cache) and prints, for every theorem that reads a ruleset
option, which options its obligation reads (its cone of influence) and under which readings it holds,
then the counts. ``--baseline REF`` times the same commands on the code of commit ``REF`` (exported
with ``git archive``, imported through ``PYTHONPATH``), in turn with today's (A B A B ...), cold and warm
(a proof cache of each run's own, filled by the first warm run), and prints the medians and the ratio
new / baseline of each pair: the machine is shared, so only a ratio measured in one run means anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import export  # noqa: E402

PROVE = ["-c", "from referee.cli.entry import main; main()", "prove", "--no-crosshair", "--no-record"]


def prove(tree: str | None, args: list[str], jobs: int) -> tuple[float, str]:
    """Wall seconds and standard output of one ``referee prove`` on ``tree``'s code (None: today's)."""
    env = {**os.environ, **({"PYTHONPATH": tree} if tree else {})}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *PROVE, "-j", str(jobs), *args], capture_output=True, text=True, env=env,
                          cwd=tree or os.getcwd(), timeout=1800)
    return time.perf_counter() - start, done.stdout


def matrix_lines(document: dict) -> list[str]:
    """One row per theorem that reads an option: an x under each option it reads, then where it holds."""
    reading = [t for t in document["theorems"] if t["reads"]]
    options = sorted({o for t in reading for o in t["reads"]})
    short = {o: "".join(w[0] for w in o.split("_")) for o in options}
    lines = ["options: " + ", ".join(f"{short[o]} = {o}" for o in options), "",
             f"{'theorem':<62} " + " ".join(f"{short[o]:>4}" for o in options) + "  holds under"]
    for t in sorted(reading, key=lambda t: t["name"]):
        marks = " ".join(f"{'x' if o in t['reads'] else '.':>4}" for o in options)
        lines.append(f"{t['name'][:62]:<62} {marks}  {t['holds_under']} ({t['status']})")
    return lines


def count_lines(document: dict) -> list[str]:
    """The matrix in numbers: depending, proved over every reading, excepted, unknown; mutants under readings."""
    theorems = document["theorems"]
    depends = [t for t in theorems if t["reads"]]
    excepted = [t for t in theorems if t["unless"]]
    gated = [m for t in theorems for m in t["mutants"] if m["under"]]
    per_option: dict[str, int] = {}
    for t in depends:
        for option in t["reads"]:
            per_option[option] = per_option.get(option, 0) + 1
    return [
        f"theorems: {len(theorems)}; reading at least one option: {len(depends)}; reading none: {len(theorems) - len(depends)}",
        f"proved over every reading: {sum(t['status'] == 'proved' and not t['unless'] for t in theorems)}; "
        f"proved except under named readings: {sum(t['status'] == 'proved' for t in excepted)}; "
        f"unknown: {sum(t['status'] == 'unknown' for t in theorems)}; other: "
        f"{sum(t['status'] not in ('proved', 'unknown') for t in theorems)}",
        f"exceptions confirmed: {sum(e['status'] == 'confirmed' for t in theorems for e in t['exceptions'])} of "
        f"{sum(len(t['exceptions']) for t in theorems)}; mutants under another reading killed: "
        f"{sum(m['status'] == 'killed' for m in gated)} of {len(gated)}; vacuity checks at a reading satisfiable: "
        f"{sum(v['status'] == 'satisfiable' for t in theorems for v in t['vacuity_at'])} of "
        f"{sum(len(t['vacuity_at']) for t in theorems)}",
        "theorems reading each option: " + ", ".join(f"{o} {n}" for o, n in sorted(per_option.items())),
    ]


def timed_pairs(baseline: str, repeat: int, jobs: int) -> list[str]:
    """Cold and warm ``prove`` on today's code and on ``baseline``'s, in turn, ``repeat`` times: medians, ratio."""
    with export(baseline) as tree, tempfile.TemporaryDirectory() as caches:
        runs: dict[str, list[float]] = {"new cold": [], "old cold": [], "new warm": [], "old warm": []}
        for label, where in (("new", None), ("old", tree)):  # fill each cache once
            prove(where, ["--cache", f"{caches}/{label}.json"], jobs)
        for _ in range(repeat):
            for label, where in (("new", None), ("old", tree)):
                runs[f"{label} cold"].append(prove(where, ["--no-cache"], jobs)[0])
                runs[f"{label} warm"].append(prove(where, ["--cache", f"{caches}/{label}.json"], jobs)[0])
    lines = []
    for mode in ("cold", "warm"):
        new, old = runs[f"new {mode}"], runs[f"old {mode}"]
        ratios = [n / o for n, o in zip(new, old)]
        lines.append(f"{mode}: today {statistics.median(new):.1f} s, {baseline} {statistics.median(old):.1f} s, "
                     f"ratio today/{baseline} median {statistics.median(ratios):.2f}x (pairs: "
                     + ", ".join(f"{r:.2f}" for r in ratios) + ")")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=None, help="a commit to time beside today's code")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-matrix", action="store_true")
    args = parser.parse_args()
    seconds, output = prove(None, ["--no-cache", "--json"], args.jobs)
    document = json.loads(output)
    print(f"cold referee prove --json, --jobs {args.jobs}: {seconds:.1f} s; load average {os.getloadavg()[0]:.1f}")
    if not args.no_matrix:
        print("\n".join(["", *matrix_lines(document), ""]))
    print("\n".join(count_lines(document)))
    if args.baseline:
        print("\n".join(["", *timed_pairs(args.baseline, args.repeat, args.jobs)]))


if __name__ == "__main__":
    main()
