"""The ``referee`` command line.

Each verb lives in its own module (listed in ``VERB_MODULES``) exposing ``register(app)``;
this module only assembles them.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys

import typer
import typer.core
import typer.rich_utils

app = typer.Typer(
    name="referee",
    help="A formally-checked reference model of the rules, and the tools to check engines against it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Verb modules, in the order their commands are listed.
VERB_MODULES = (
    "referee.cli.clauses", "referee.cli.prove", "referee.cli.explain", "referee.cli.check", "referee.cli.exhaust",
    "referee.cli.validate", "referee.cli.features", "referee.cli.vectors", "referee.cli.schema", "referee.cli.query",
    "referee.cli.report", "referee.cli.init",
)


def _register_verbs() -> None:
    for name in VERB_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                continue  # verb not built yet
            raise
        module.register(app)


_register_verbs()


def _flag_type_shown(original):
    """Typer prints ``<bool>`` beside every flag (``--json <bool>``), as if it took a value: not for flags."""

    def display_type_rich(self, ctx):
        return None if getattr(self, "is_flag", False) else original(self, ctx)

    return display_type_rich


typer.core.TyperOption.display_type_rich = _flag_type_shown(typer.core.TyperOption.display_type_rich)

#: Off a TTY, the width Rich prints at (long enough that no line of a report wraps); help stays at HELP_WIDTH.
PIPED_WIDTH, HELP_WIDTH = 4000, 100


def no_wrap_off_tty(stream=None, environ=None) -> bool:
    """Piped (CI, ``| grep``), Rich would wrap every line at 80 columns and split pytest node ids
    and paths mid-word; give it a width no line reaches, unless ``COLUMNS`` says otherwise."""
    stream = sys.stdout if stream is None else stream
    environ = os.environ if environ is None else environ
    if stream.isatty() or "COLUMNS" in environ:
        return False
    environ["COLUMNS"] = str(PIPED_WIDTH)
    typer.rich_utils.MAX_WIDTH = typer.rich_utils.MAX_WIDTH or HELP_WIDTH
    return True


def main() -> None:
    """The console command. Signals are recorded from here on (``referee.check.interrupts``); whatever a verb
    raises that it did not handle is a message and a documented exit status, never a traceback, and
    never a status that reads as a verdict."""
    from ..check import interrupts

    interrupts.install_run_handlers()
    no_wrap_off_tty()
    tolerant_output()
    command = shlex.join(["referee", *sys.argv[1:]])
    interrupts.record_command(command)
    try:
        app()
        code = 0
    except SystemExit as done:
        code = exit_status(done.code)
    except KeyboardInterrupt:
        code = 130
    except Exception as error:  # the one top-level error path of every verb
        code = unforeseen_error(error, sys.argv[1:2])
    sys.exit(interrupts.final_status(code, command))


#: Exit statuses of an error no verb handled: a problem with an input (a file, a value, an engine that
#: cannot start) is a usage error; anything else is referee's own defect. Neither is a verdict.
EXIT_USAGE, EXIT_INTERNAL = 2, 4
#: Exceptions that mean "an input is wrong", not "referee is wrong".
INPUT_ERRORS = (ValueError, OSError, RecursionError)


def exit_status(code: object) -> int:
    """``SystemExit.code`` as a status: None is 0, a message is printed and is 1 (``sys.exit("...")``)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def unforeseen_error(error: Exception, verb: list[str]) -> int:
    """One line naming the verb and the error; 2 for a bad input, 4 for referee's own defect."""
    from ..engines.transports import EngineStartError

    name = f"referee {verb[0]}" if verb else "referee"
    text = " ".join(str(error).split())[:2000]
    if isinstance(error, (*INPUT_ERRORS, EngineStartError)):
        print(f"{name}: {text or type(error).__name__}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{name}: internal error ({type(error).__name__}: {text}); please report it", file=sys.stderr)
    return EXIT_INTERNAL


def tolerant_output() -> None:
    """Text an engine wrote can hold what the terminal's encoding cannot (a lone surrogate, ``\\ud800``):
    it is printed escaped, never lost to a UnicodeEncodeError along with the report."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass
