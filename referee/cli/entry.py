"""The ``referee`` console command's entry point: signals are handled before anything else runs.

Importing the command line (Typer, Rich, Hypothesis, Z3 through the verbs) takes the first seconds
of every run; a Ctrl-C there used to print a ``KeyboardInterrupt`` traceback out of an import. The
first statements of this module, run before any other of referee's imports, install the *starting*
phase's handlers with the interpreter's built-in ``_signal`` (no file to look up, nothing to wait for
on a loaded machine): a signal ends the process with one line and ``128 + signal``. ``main`` then
imports the command line, whose verbs install the running phase's handlers
(``referee.check.interrupts``).
"""

from __future__ import annotations

import os
import _signal

#: Names for the one line a signal while starting writes (``signal.Signals`` would import ``enum``).
_NAMES = {getattr(_signal, name): name for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(_signal, name)}


def _while_starting(signum: int, frame: object) -> None:
    """A signal before the run began: nothing was run, so one line and the signal's status, no traceback."""
    os.write(2, f"referee: stopped by {_NAMES.get(signum, signum)} while starting; nothing was run\n".encode())
    os._exit(128 + signum)


def _install_starting_handlers() -> None:
    for signum in _NAMES:
        _signal.signal(signum, _while_starting)


_install_starting_handlers()


def main() -> None:
    from referee.cli.app import main as run

    run()
