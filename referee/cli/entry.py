"""The ``referee`` console command's entry point: signals are handled before anything heavy is imported.

Importing the command line (Typer, Rich, Hypothesis, Z3 through the verbs) takes the first seconds
of every run; a Ctrl-C there used to print a ``KeyboardInterrupt`` traceback out of an import. This
module imports nothing but the standard library's ``signal`` (``referee.check.interrupts``) before it
installs the handlers, then imports the command line.
"""

from __future__ import annotations


def main() -> None:
    from referee.check.interrupts import install_early

    install_early()
    from referee.cli.app import main as run

    run()
