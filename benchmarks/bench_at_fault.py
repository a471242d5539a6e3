"""The clause each seeded mutant's report names at fault: the table (mutant -> clause named).

Run: ``python benchmarks/bench_at_fault.py [--only NAME,...]``

Each mutant of ``examples/mutants.py`` is checked as ``tests/harness/test_harness_at_fault.py`` checks it
(seed 7, 3,000 scenarios, its declared kinds, longest scenario and ruleset, the default generation and
shrinker); printed, one line a mutant: its clause, the clause of the step at fault, and whether the step at
fault (``at fault``), only the step before it (``before``) or neither (``MISS``) names the mutant's clause;
then the totals.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "harness"))

from test_harness_at_fault import _report, names_clause  # noqa: E402

from referee.examples.mutants import MUTANTS  # noqa: E402


def row(name: str, clause: str) -> tuple[str, str]:
    report = _report(name)
    if report.status != "mismatch" or not report.explain:
        return "MISS", f"({report.status}, {report.scenarios_run} scenarios)"
    at = report.explain[-1]
    verdict = "at fault" if names_clause(at, clause) else "before" if any(
        names_clause(s, clause) for s in report.explain) else "MISS"
    return verdict, f"{at['clause']} ({at['step']})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only.split(",")]
    counts = {"at fault": 0, "before": 0, "MISS": 0}
    import os

    os.chdir(tempfile.mkdtemp(prefix="bench-at-fault-"))
    for mutant in chosen:
        verdict, named = row(mutant.name, mutant.clause)
        counts[verdict] += 1
        print(f"{mutant.name:48} {mutant.clause:18} -> {named:40} {verdict}", flush=True)
    print(f"{counts['at fault']} of {len(chosen)} named at fault, {counts['before']} in the step before, "
          f"{counts['MISS']} missed")


if __name__ == "__main__":
    main()
