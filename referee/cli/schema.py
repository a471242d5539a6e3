"""``referee schema``: print or write the protocol's JSON Schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

NAMES = ("scenario", "observation", "trace")


def schema_text(name: str) -> str:
    """A published schema's text: the protocol's (scenario, observation) or a trace line's (``referee validate``)."""
    if name == "trace":
        import json

        from ..check.validate import trace_schema

        return json.dumps(trace_schema(), indent=2, sort_keys=False) + "\n"
    from ..protocol import schema_text as protocol_schema_text

    return protocol_schema_text(name)


def write_schemas(folder: Path) -> list[Path]:
    """Write ``<name>.schema.json`` for every schema into ``folder``."""
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
        name: Optional[str] = typer.Argument(None, help="scenario | observation | trace (default: all, to --out)"),
        out: Optional[Path] = typer.Option(None, "--out", help="write <name>.schema.json files into this folder"),
    ) -> None:
        """Print the JSON Schema of a scenario, an observation or a trace line (protocol referee/2), or write them all."""
        if out is not None:
            for path in write_schemas(out):
                typer.echo(f"wrote {path}")
            return
        if name is None:
            typer.echo("referee schema: name one of scenario, observation, trace (or give --out DIR)", err=True)
            raise typer.Exit(2)
        if name not in NAMES:
            typer.echo(f"referee schema: unknown schema {name!r} (known: {', '.join(NAMES)})", err=True)
            raise typer.Exit(2)
        typer.echo(schema_text(name), nl=False)
