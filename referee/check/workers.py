"""``referee check --workers N``: N processes on disjoint streams, one report.

Worker ``i`` runs ``referee.check.harness.check`` with the run's seed and ``worker = i``, so its scenarios are drawn
from seeds no other worker draws (``referee.check.streams``), on ``--examples / N`` scenarios (rounded up), sharing
the example database (a folder or a ``redis://`` URL) and the failure store (``referee.check.failure_store``: each
worker writes the failures it meets there at once, under distinct names, so nothing waits for the merge; worker 0
replays the store first, and every later run does).
Their reports merge into one (:func:`merge_reports`): scenarios and seconds of work added, the run's wall
time, ``--keep-going`` groups merged by key (counts added), ``--stats`` counts added, the first failure the
earliest any worker met (in its own scenarios and seconds), and the verdict the worst any worker reached.

Each worker is a process of its own, forked with the signals held (:func:`_start_workers`), that sends its one
report back on a pipe and ends. It runs with the worker phase's handlers (``referee.check.interrupts.install_worker_handlers``): a
signal stops its run as it stops a single process, at once and without a word, and the run's partial report (its
scenarios checked, any failure found) comes back. A signal to the parent (alone, or to the whole process group) stops
the run the same way: the parent forwards it to every worker still running, gives them ``REPORT_GRACE`` seconds to
send their reports, ends any that did not (its count then said to be unknown, never taken for 0), and returns one
interrupted report of them all (:func:`merge_interrupted`). A run nobody signalled never signals its workers: each
ends once its report is sent. Before, the workers were a ``multiprocessing.Pool`` that the signal terminated: a
worker's counts were lost ("checked: 0 scenarios"), each worker took the pool's SIGTERM for a user's, and a terminate
racing a worker's queue lock hung the parent until the 10 s watchdog ended it without a report.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from . import interrupts

#: Verdicts from worst to best: the merged report takes the first any worker reached.
SEVERITY = ("fault", "model-error", "nondeterministic", "mismatch", "stale-known", "interrupted", "pass")


#: Seconds the workers have, after the signal that stops the run, to send their partial reports (the parent's one
#: report then comes within the usual two seconds).
REPORT_GRACE = 1.5
#: Seconds an ended worker has to die of its "end now" before it is killed.
END_GRACE = 0.3


@dataclass
class _Worker:
    """One worker process, the pipe end its report comes back on, and what came back (``lost``: why nothing did)."""

    index: int
    process: Any
    conn: Any
    report: Any = None
    error: BaseException | None = None
    lost: str = ""
    #: The signal that stopped the worker's run, if one did.
    signum: int | None = None

    @property
    def waiting(self) -> bool:
        return self.report is None and self.error is None and not self.lost


def _worker_main(job: tuple[Callable[[], Any], Any], conn: Any, parent: int) -> None:
    """A worker process: the worker phase's handlers, its share of the run, its report (or error) sent back."""
    interrupts.install_worker_handlers()
    _end_with_parent(parent)
    try:
        message: tuple[Any, ...] = ("report", _run_worker(job), interrupts.received())
    except BaseException as error:  # sent to the parent, which raises it (a usage error: an engine that cannot start)
        message = ("error", error)
    with _signals_held():  # a signal after the run ended cannot cut the report short
        _send(conn, message)


def _end_with_parent(parent: int) -> None:
    """On Linux, the worker is sent the parent's "end now" when the parent dies (killed with SIGKILL, it cannot send
    it): a worker never outlives its run, checking on and holding its engines."""
    if not sys.platform.startswith("linux") or interrupts.END_NOW is None:
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(interrupts.END_NOW))  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request
        os.kill(os.getpid(), interrupts.END_NOW)


def _run_worker(job: tuple[Callable[[], Any], Any]) -> Any:
    """The worker's report: its share checked (the signals let in once its handlers are in place), or, stopped
    before its run began, an interrupted one of nothing; a signal while its engine closes leaves the report as is."""
    from .harness import check, interrupted_report

    make, options = job
    engine, report = make(), None
    try:
        with engine:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, interrupts.HANDLED)
            report = check(engine, options)
    except KeyboardInterrupt:
        report = report if report is not None else interrupted_report(engine, options)
    return report


def _send(conn: Any, message: tuple[Any, ...]) -> None:
    """Send the report; one that cannot be pickled goes as an error naming it; a parent gone is nobody to tell."""
    try:
        conn.send(message)
    except OSError:
        return
    except Exception as error:
        try:
            conn.send(("error", RuntimeError(f"--workers: a worker's {message[0]} could not be sent back: {error!r}")))
        except Exception:
            return


class _signals_held:
    """Hold the handled signals for the length of a block (a fork, a pipe read or write): they come after it."""

    def __enter__(self) -> None:
        self.previous = signal.pthread_sigmask(signal.SIG_BLOCK, interrupts.HANDLED)

    def __exit__(self, *exc: object) -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, self.previous)


def check_workers(make: Callable[[], Any], options: Any, workers: int) -> Any:
    """Run ``workers`` processes (each engine made by ``make``, a picklable factory) and merge their reports; a
    signal stops them all, and the report is the interrupted one of what they had checked."""
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    share = math.ceil(options.examples / workers)
    jobs = [(make, replace(options, seed=seed, worker=i, examples=share, progress=None)) for i in range(workers)]
    start = time.perf_counter()
    running: list[_Worker] = []
    try:
        _start_workers(jobs, running)
        _collect(running)
        merged = merge_reports([w.report for w in running])
    except KeyboardInterrupt:
        _stop_workers(running, interrupts.received() or signal.SIGINT)
        merged = merge_interrupted(make, replace(options, seed=seed), running, workers)
    finally:
        _reap_held(running)
    merged.seconds, merged.examples_requested = time.perf_counter() - start, options.examples
    return merged


def _start_workers(jobs: list[Any], running: list[_Worker]) -> None:
    """Fork one worker per job, each with the signals held until its own handlers are in place (a signal in
    between is the worker's, not a copy of the parent's handler's); ``running`` grows as they start."""
    context = multiprocessing.get_context("fork")
    for index, job in enumerate(jobs):
        receiving, sending = context.Pipe(duplex=False)
        process = context.Process(target=_worker_main, args=(job, sending, os.getpid()), daemon=True)
        with _signals_held():
            process.start()
            interrupts.watch_worker(process.pid)
            running.append(_Worker(index, process, receiving))
            sending.close()  # the worker's end only: its end of file is the parent's sign that it ended


def _collect(running: list[_Worker]) -> None:
    """Wait for every worker's report (a signal is raised where the parent waits); a worker's error is raised."""
    while any(w.waiting for w in running):
        _receive(running, 0.5)
        _take_up_a_workers_signal(running)
        interrupts.raise_if_received()
        for worker in running:
            if worker.error is not None:
                raise worker.error
            if worker.lost:
                raise RuntimeError(f"--workers: worker {worker.index + 1} of {len(running)} {worker.lost}")


def _take_up_a_workers_signal(running: list[_Worker]) -> None:
    """A signal sent to one worker alone stops the run as one sent to the parent: the parent sends it to itself (held,
    so that the same signal sent to the whole group too is handled once), and its own handler names it."""
    stopped = [w.signum for w in running if w.signum is not None]
    if not stopped:
        return
    with _signals_held():
        if interrupts.received() is None:
            os.kill(os.getpid(), stopped[0])


def _receive(running: list[_Worker], timeout: float) -> None:
    """Read what the workers sent within ``timeout`` seconds: a report, an error, or the end of a pipe."""
    from multiprocessing.connection import wait

    waiting = {w.conn: w for w in running if w.waiting}
    for conn in wait(list(waiting), max(timeout, 0.0)):
        with _signals_held():  # what was read is kept before a signal can cut in
            _take(waiting[conn])


def _take(worker: _Worker) -> None:
    """What one worker sent: its report, its error, or nothing (its pipe's end: it ended without a word)."""
    try:
        kind, value, *signum = worker.conn.recv()
    except (EOFError, OSError):
        worker.process.join(END_GRACE)
        worker.lost = f"ended (exit status {worker.process.exitcode}) without a report"
        return
    if kind == "report":
        worker.report, worker.signum = value, signum[0] if signum else None
    else:
        worker.error = value


def _stop_workers(running: list[_Worker], signum: int) -> None:
    """The run is stopped: the signal forwarded to every worker still running, ``REPORT_GRACE`` seconds for their
    reports, then those that sent none are ended (their counts unknown)."""
    for worker in running:
        if worker.waiting:
            _signal(worker, signum)
    deadline = time.monotonic() + REPORT_GRACE
    while any(w.waiting for w in running) and time.monotonic() < deadline:
        _receive(running, deadline - time.monotonic())
    for worker in running:
        if worker.waiting:
            worker.lost = (f"sent no report within {REPORT_GRACE:g} s of {interrupts.signal_name(signum)} "
                           "and was ended")
            _end(worker)


def _signal(worker: _Worker, signum: int) -> None:
    try:
        os.kill(worker.process.pid, signum)
    except OSError:  # it has ended already: its pipe says what it sent
        pass


def _end(worker: _Worker) -> None:
    """End a worker now: its "end now" (its engines killed with it), then, still alive, killed."""
    if worker.process.is_alive() and interrupts.END_NOW is not None:
        _signal(worker, interrupts.END_NOW)
        worker.process.join(END_GRACE)
    if worker.process.is_alive():
        worker.process.kill()


def _reap_held(running: list[_Worker]) -> None:
    """:func:`_reap`, the signals held: one that comes as the workers are reaped is recorded, not raised through the
    report (the process still ends with its status: ``interrupts.final_status``)."""
    try:
        with _signals_held():
            _reap(running)
    except KeyboardInterrupt:
        pass


def _reap(running: list[_Worker]) -> None:
    """Every worker ended and waited for (one that sent its report ends by itself; one that did not is ended)."""
    for worker in running:
        if worker.waiting or worker.error is not None:
            _end(worker)
        worker.process.join(END_GRACE)
        if worker.process.is_alive():
            _end(worker)
            worker.process.join()
        worker.conn.close()
    interrupts.forget_workers()


def merge_interrupted(make: Callable[[], Any], options: Any, running: list[_Worker], workers: int) -> Any:
    """The one report of a run a signal stopped: every worker's partial report merged (its counts added, a failure
    one found shown first), as interrupted; a worker that sent none named, its count unknown (not counted as 0)."""
    from .harness import interrupted_report

    known = sorted((w.report for w in running if w.report is not None), key=lambda r: r.scenario is None)
    merged = merge_reports([*known, interrupted_report(make(), options)])
    merged.workers = workers
    lost = [f"worker {w.index + 1} of {workers} {w.lost or 'failed: ' + str(w.error)}"
            for w in running if w.report is None]
    if lost:
        unknown = (f"{'; '.join(lost)}: its scenarios are not in the count above (unknown)" if len(lost) == 1 else
                   f"{'; '.join(lost)}: their scenarios are not in the count above (unknown)")
        merged.error = "; ".join(part for part in (merged.error, unknown) if part)
    return merged


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
    merged.stored_replayed = max(r.stored_replayed for r in reports)  # worker 0 replays the failure store
    merged.stored_kept = {name: why for r in reports for name, why in r.stored_kept.items()}
    merged.store = next((r.store for r in reports if r.store), "")
    return merged


def _merged_groups(reports: list[Any]) -> list[Any]:
    """Groups of every worker merged by key: the first worker's representative, the counts added."""
    from .grouping.keys import joined

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
