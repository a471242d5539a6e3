"""Ctrl-C and SIGTERM, from the first instruction to the last.

Three phases, each with its own handler for ``SIGINT`` and ``SIGTERM``:

* **starting** (``referee.cli.entry``, installed by the console entry point's first statements, before
  the heavy imports): nothing has run, so a signal writes one line and ends the process with
  ``128 + signal``: never a ``KeyboardInterrupt`` traceback out of an import.
* **running** (:func:`install_run_handlers`): the signal is *recorded* (:func:`received`) and an
  :class:`Interrupted` (a ``KeyboardInterrupt``) is raised where the program is, so the verb stops
  and prints what it has: the seed, the counts, what was found and the replay command. A SIGTERM
  also kills every engine's process group at once. The record is what makes a signal impossible
  to lose: an exception raised inside a garbage-collection callback or a ``__del__`` is printed as
  "Exception ignored" and dropped by Python, and an engine's bare ``except:`` swallows it; the
  record survives both, and :func:`raise_if_received` at each stage boundary (each batch of
  ``check``, the end of the run) raises it again. The process's final status is ``128 + signal``
  whatever the verb returned (:func:`final_status`), so a lost interrupt can never end in a pass.
* a **second** signal while the first is being handled ends the process at once.

Under ``--workers`` (``referee.check.workers``) each worker process runs its share with the **worker** phase's
handlers (:func:`install_worker_handlers`): the first signal stops the worker's run as the running phase stops a
single process (recorded, raised, a SIGTERM kills its engines), without a word; a repeat changes nothing (a signal
sent to the whole process group reaches the worker, and the parent forwards it too). The parent alone speaks: it
forwards the signal to every worker, collects their partial reports and prints one. :data:`END_NOW` from the parent
ends a worker at once (its engines killed): the parent's second signal, its watchdog, a worker past its grace.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

#: The signals handled (SIGHUP too, where it exists: a closed terminal).
HANDLED = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
#: After a SIGTERM the process ends within this many seconds, report or not.
TERM_GRACE = 10.0

_received: list[int] = []
_reported: list[bool] = [False]
#: The command line being run, as a shell would take it back (``record_command``): what a rerun types.
_command: list[str] = []
_REAL_EXIT = os._exit
#: The ``--workers`` worker processes of this process (the parent's), ended with it when it ends at once.
_workers: list[int] = []
#: The parent's "end now" to a worker (where the signal exists).
END_NOW = getattr(signal, "SIGUSR1", None)


class Interrupted(KeyboardInterrupt):
    """Raised by the running phase's handler (and again at a stage boundary); ``signum`` is the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def install_run_handlers() -> None:
    """The running phase: record the signal, then raise :class:`Interrupted` where the program is."""
    if not _on_main_thread():
        return
    for signum in HANDLED:
        signal.signal(signum, _while_running)
    sys.unraisablehook = _quiet_when_recorded(sys.unraisablehook)


def _quiet_when_recorded(previous: Any) -> Any:
    """Python prints an exception raised where it cannot propagate (a finaliser, a garbage-collection
    callback) as "Exception ignored" with a traceback. Once a signal is recorded, none is printed: an
    :class:`Interrupted` there is not lost (it is recorded, and raised again at the next stage boundary), and
    any other is the interrupt's own wake: an object whose constructor it cut short failing in its finaliser
    (z3's ``Context.__del__`` reads an ``owner`` its ``__init__`` never set)."""
    if getattr(previous, "_referee_quiet", False):
        return previous

    def hook(unraisable: Any) -> None:
        if _received:
            return
        previous(unraisable)

    hook._referee_quiet = True  # type: ignore[attr-defined]
    return hook


def _while_running(signum: int, frame: Any) -> None:
    if _received:  # a second signal: the first is being handled, and this one says "now"
        os.write(2, f"referee: stopped by a second signal ({signal_name(signum)})\n".encode())
        kill_engines()
        end_workers()
        _REAL_EXIT(128 + _received[0])
    _received.append(signum)
    if signum != signal.SIGINT:
        kill_engines()
        os.write(2, f"referee: stopped by {signal_name(signum)}; engine processes killed\n".encode())
        _watchdog(signum)
    raise Interrupted(signum)


def kill_engines() -> None:
    """Kill the process group of every live subprocess engine of this process (also a ``--workers`` worker's way out)."""
    engines = sys.modules.get("referee.engines.transports")
    if engines is not None:
        engines.kill_all()


def _watchdog(signum: int) -> None:
    """After a SIGTERM the report has ``TERM_GRACE`` seconds; then the process ends regardless."""

    def end() -> None:
        os.write(2, f"referee: the report did not finish within {TERM_GRACE:g} s of {signal_name(signum)}\n".encode())
        kill_engines()
        end_workers()
        _REAL_EXIT(128 + signum)

    timer = threading.Timer(TERM_GRACE, end)
    timer.daemon = True
    timer.start()


def install_worker_handlers() -> None:
    """A ``--workers`` worker's phase (its first act): the first signal stops its run quietly, a repeat changes
    nothing, :data:`END_NOW` ends it at once; what the parent recorded or watched before the fork is not the worker's."""
    _received.clear()
    _workers.clear()
    for signum in HANDLED:
        signal.signal(signum, _while_working)
    if END_NOW is not None:
        signal.signal(END_NOW, _end_worker_now)


def _while_working(signum: int, frame: Any) -> None:
    if _received:  # the run is stopping already: the parent's forward of a signal the whole group received
        return
    _received.append(signum)
    if signum != signal.SIGINT:
        kill_engines()
    raise Interrupted(signum)


def _end_worker_now(signum: int, frame: Any) -> None:
    """The parent's "end now": the worker's engines killed, then the worker, with no word (the report is the
    parent's). The real ``os._exit``: an in-process engine's call replaces it for its length."""
    kill_engines()
    _REAL_EXIT(128 + (_received[0] if _received else signal.SIGTERM))


def watch_worker(pid: int) -> None:
    """A ``--workers`` worker of this process: ended with it when it ends at once (:func:`end_workers`)."""
    _workers.append(pid)


def forget_workers() -> None:
    """The workers of the run are reaped: nothing to end any more."""
    _workers.clear()


def end_workers() -> None:
    """Send every watched worker :data:`END_NOW` (a signal handler's way: no waiting)."""
    for pid in _workers:
        try:
            os.kill(pid, END_NOW if END_NOW is not None else signal.SIGTERM)
        except OSError:  # it has ended already
            pass


def received() -> int | None:
    """The first signal received while running, or None."""
    return _received[0] if _received else None


def stopped_by() -> str:
    """What stopped the run, in words: "Ctrl-C" (SIGINT, or no signal recorded: a ``KeyboardInterrupt`` raised in
    the process itself), else the signal's name ("SIGTERM")."""
    signum = received()
    return "Ctrl-C" if signum is None or signum == signal.SIGINT else signal_name(signum)


def raise_if_received() -> None:
    """At a stage boundary: raise the recorded signal again (its first exception may have been lost)."""
    if _received:
        raise Interrupted(_received[0])


def record_command(command: str) -> None:
    """The console command's line (``referee ...``), for the rerun a verb prints when a signal stops it."""
    _command[:] = [command]


def command_line(default: str) -> str:
    """The command line recorded by :func:`record_command`, else ``default`` (a verb run without the console
    entry, as in tests)."""
    return _command[0] if _command else default


def mark_reported() -> None:
    """The verb printed its own report of the interruption (seed, counts, replay command)."""
    _reported[0] = True


def final_status(code: int | None, command: str) -> int:
    """The process's exit status: ``128 + signal`` once a signal was received, whatever the verb returned."""
    signum = received()
    if signum is None:
        return 0 if code is None else code
    if not _reported[0]:
        message = f"referee: interrupted by {signal_name(signum)} before the end: nothing more was found; rerun: {command}\n"
        os.write(2, message.encode("utf-8", "backslashreplace"))
    return 128 + signum


def reset() -> None:
    """Forget a recorded signal (tests that run verbs in one process)."""
    _received.clear()
    _reported[0] = False
