"""The ``referee`` command line.

Each verb lives in its own module (``referee/cmd_<verb>.py``) exposing ``register(app)``;
this module only assembles them.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="referee",
    help="A formally-checked reference model of the rules, and the tools to check engines against it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Verb modules, in the order their commands are listed.
VERB_MODULES = (
    "cmd_clauses", "cmd_prove", "cmd_explain", "cmd_check", "cmd_features", "cmd_vectors", "cmd_schema", "cmd_query",
)


def _register_verbs() -> None:
    for name in VERB_MODULES:
        try:
            module = importlib.import_module(f"referee.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"referee.{name}":
                continue  # verb not built yet
            raise
        module.register(app)


_register_verbs()


def main() -> None:
    app()
