"""``referee init``: write an engine kit (a skeleton engine, its protocol types, a native vector runner, a
``referee.toml``, a CI workflow, a README) for a language (``referee.kits.init``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

EXIT_USAGE = 2
#: What to type after ``referee init``, by language: build, then the first check.
NEXT_STEPS = {
    "python": "pip install -e '.[test]' && referee check",
    "typescript": "npm install && npm run build && referee check",
    "rust": "cargo build --release && referee check",
}


def register(app: typer.Typer) -> None:
    @app.command("init")
    def init_command(
        folder: Path = typer.Argument(Path("."), help="the folder to write the kit into (created; default: here)"),
        language: str = typer.Option(..., "--language", help="python | typescript | rust"),
        name: Optional[str] = typer.Option(None, "--name", help="the engine's name (default: the folder's name)"),
        force: bool = typer.Option(False, "--force", help="overwrite files the folder already holds"),
    ) -> None:
        """Write an engine kit: a skeleton that speaks the protocol and refuses every action kind by name, its
        protocol types, a native vector runner, referee.toml, a CI workflow and a README."""
        from ..kits.init import KitError, engine_name, write_kit

        try:
            written = write_kit(language, folder, name, force)
        except (KitError, OSError) as error:
            typer.echo(f"referee init: {error}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        typer.echo(f"referee init: wrote a {language} engine kit for `{engine_name(folder, name)}` into {folder} "
                   f"({len(written)} files)")
        typer.echo(f"  next: cd {folder} && {NEXT_STEPS[language]}")
        typer.echo("  then: implement the first action kind the check names, declare it in referee.toml's `kinds`, "
                   "and run referee check again")
