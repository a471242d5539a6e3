"""``referee check --workers N``: N processes on disjoint streams, one report.

Worker ``i`` runs ``referee.check.harness.check`` with the run's seed and ``worker = i``, so its scenarios are drawn
from seeds no other worker draws (``referee.check.streams``), on ``--examples / N`` scenarios (rounded up), sharing
the example database (a folder or a ``redis://`` URL: a failure one worker stores, every later run replays).
Their reports merge into one (:func:`merge_reports`): scenarios and seconds of work added, the run's wall
time, ``--keep-going`` groups merged by key (counts added), ``--stats`` counts added, the first failure the
earliest any worker met (in its own scenarios and seconds), and the verdict the worst any worker reached.

The pool is forked while the running phase's signal handlers are installed (``referee.check.interrupts``). A worker
puts its own in place as it starts (:func:`_worker_started`): a SIGTERM or SIGHUP kills the worker's engines and ends
it at once, without a word (the parent, which the signal reached too, reports the run), and the pool is closed and
joined at the end, never terminated, so that a run nobody signalled never sends its idle workers a SIGTERM. Before,
``Pool.__exit__`` terminated the pool, and an idle worker took that SIGTERM for a user's: "stopped by SIGTERM" and a
traceback on a run that passed or met an engine fault.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

#: Verdicts from worst to best: the merged report takes the first any worker reached.
SEVERITY = ("fault", "model-error", "nondeterministic", "mismatch", "stale-known", "interrupted", "pass")


def _worker_started() -> None:
    """A pool worker's first act: its own handlers for SIGTERM and SIGHUP (a signal to the run ends the worker quietly,
    its engines killed); Ctrl-C (SIGINT) keeps the running phase's, so the worker reports what it found."""
    import signal

    from . import interrupts

    for signum in interrupts.HANDLED:
        if signum != signal.SIGINT:
            signal.signal(signum, _end_worker)


def _end_worker(signum: int, frame: Any) -> None:
    """A worker told to end: its engines' process groups killed, then the worker's process, with no report or traceback
    (the run's report is the parent's)."""
    import os

    from . import interrupts

    interrupts.kill_engines()
    os._exit(128 + signum)


def _run_worker(job: tuple[Callable[[], Any], Any]) -> Any:
    from .harness import check

    make, options = job
    engine = make()
    with engine:
        return check(engine, options)


def check_workers(make: Callable[[], Any], options: Any, workers: int) -> Any:
    """Run ``workers`` processes (each engine made by ``make``, a picklable factory) and merge their reports."""
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    share = math.ceil(options.examples / workers)
    jobs = [(make, replace(options, seed=seed, worker=i, examples=share, progress=None)) for i in range(workers)]
    start = time.perf_counter()
    reports = _pool_map(jobs, workers)
    merged = merge_reports(reports)
    merged.seconds, merged.examples_requested = time.perf_counter() - start, options.examples
    return merged


def _pool_map(jobs: list[Any], workers: int) -> list[Any]:
    """Every job's report, from a pool of ``workers`` processes closed and joined at the end (terminated only when
    the run is stopped: a signal, an error)."""
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_started)
    try:
        reports = pool.map(_run_worker, jobs, chunksize=1)
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()
    return reports


def merge_reports(reports: list[Any]) -> Any:
    """One report of several workers' (see the module docstring); the worst worker's is the base."""
    from .harness import new_run_id

    base = min(reports, key=lambda r: SEVERITY.index(r.status) if r.status in SEVERITY else 0)
    merged = replace(base, groups=_merged_groups(reports), stats=_summed_stats(reports))
    merged.scenarios_run = sum(r.scenarios_run for r in reports)
    failures = [(r.first_failure_seconds, r.first_failure_after) for r in reports if r.first_failure_after is not None]
    merged.first_failure_seconds, merged.first_failure_after = min(failures) if failures else (None, None)
    stale = [e for e in base.stale_known if all(e in r.stale_known for r in reports)]
    merged.stale_known = stale
    caps = [r.cap for r in reports if r.cap is not None]
    merged.cap = caps[0] if caps else None
    merged.workers = len(reports)
    merged.run_id = new_run_id()  # one run, its own id (the workers' reports are never written)
    merged.stored_replayed = max(r.stored_replayed for r in reports)  # every worker replays the shared database
    return merged


def _merged_groups(reports: list[Any]) -> list[Any]:
    """Groups of every worker merged by key: the first worker's representative, the counts added."""
    from .fault_keys import joined

    by_key: dict[str, Any] = {}
    for report in reports:
        for group in report.groups:
            if group.key not in by_key:
                by_key[group.key] = group
                continue
            head = by_key[group.key]
            head.count += group.count
            head.symptoms = tuple(dict.fromkeys([*head.symptoms, *group.symptoms]))
            head.merged_with = joined(head.merged_with, group.merged_with)
    return list(by_key.values())


def _summed_stats(reports: list[Any]) -> Any:
    """The workers' ``--stats`` counts added (None without ``--stats``)."""
    stats = [r.stats for r in reports if r.stats is not None]
    if not stats:
        return None
    from .stats import Stats

    total = Stats(selection=stats[0].selection)
    for part in stats:
        total.scenarios += part.scenarios
        total.features.update(part.features)
        total.events.update(part.events)
        total.clauses.update(part.clauses)
        total.rulebooks |= part.rulebooks
    return total
