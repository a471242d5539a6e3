"""Query time over the gallery of designer questions (tests/query_gallery.py): median and worst.

Run: ``python benchmarks/bench_query.py`` (each question in a fresh process state would be
slower: cells built for one question are reused by the next, as in one test run; ``--cold``
clears the cell cache before each question; ``--skip-slow`` leaves out the --runslow questions;
``--only a,b`` keeps the questions whose id contains one of the words, e.g. ``--only everlasting,revival``).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from query_gallery import GALLERY  # noqa: E402

from referee.query import run_query  # noqa: E402
from referee.query import solve  # noqa: E402


def main() -> None:
    cold = "--cold" in sys.argv
    times = []
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    for question in GALLERY:
        if question.slow and "--skip-slow" in sys.argv:
            continue
        if only is not None and not any(word in question.id for word in only):
            continue
        if cold:
            solve._CELLS.clear()
        started = time.perf_counter()
        answer = run_query(question.condition, **question.options)
        seconds = time.perf_counter() - started
        times.append((seconds, question.id))
        mark = "" if answer.status == question.expected else f"  (expected {question.expected})"
        print(f"{seconds:7.2f} s  {answer.status:<10} {question.id}{mark}")
    values = [t for t, _ in times]
    worst = max(times)
    print(f"\n{len(values)} questions ({'cold' if cold else 'warm'} cell cache): median {statistics.median(values):.2f} s, "
          f"worst {worst[0]:.2f} s ({worst[1]}), total {sum(values):.1f} s")


if __name__ == "__main__":
    main()
