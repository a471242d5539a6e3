"""``referee schema``: print or write the protocol's JSON Schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

NAMES = ("scenario", "observation")


def write_schemas(folder: Path) -> list[Path]:
    """Write ``<name>.schema.json`` for every schema into ``folder``."""
    from .protocol import schema_text

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in NAMES:
        path = folder / f"{name}.schema.json"
        path.write_text(schema_text(name))
        written.append(path)
    return written


def register(app: typer.Typer) -> None:
    @app.command("schema")
    def schema_command(
        name: Optional[str] = typer.Argument(None, help="scenario | observation (default: both, to --out)"),
        out: Optional[Path] = typer.Option(None, "--out", help="write <name>.schema.json files into this folder"),
    ) -> None:
        """Print the JSON Schema of a scenario or an observation (protocol referee/2), or write both."""
        from .protocol import schema_text

        if out is not None:
            for path in write_schemas(out):
                typer.echo(f"wrote {path}")
            return
        if name is None:
            typer.echo("referee schema: name one of scenario, observation (or give --out DIR)", err=True)
            raise typer.Exit(2)
        if name not in NAMES:
            typer.echo(f"referee schema: unknown schema {name!r} (known: {', '.join(NAMES)})", err=True)
            raise typer.Exit(2)
        typer.echo(schema_text(name), nl=False)
