"""The ``referee`` command line.

Each verb lives in its own module (listed in ``VERB_MODULES``) exposing ``register(app)``;
this module only assembles them.
"""

from __future__ import annotations

import importlib
import os
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
    "referee.cmd_clauses", "referee.cmd_prove", "referee.cmd_explain", "referee.cmd_check", "referee.cmd_features",
    "referee.cmd_vectors", "referee.cmd_schema", "referee.cmd_query",
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
    no_wrap_off_tty()
    app()
