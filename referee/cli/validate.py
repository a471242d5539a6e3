"""``referee validate TRACE``: a match an engine logged, checked against the model action by action."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("validate")
    def validate_command(
        trace: Path = typer.Argument(..., help="a match log in the referee-trace/1 format (JSON lines; referee schema trace)"),
        keep_going: bool = typer.Option(False, "--keep-going", help="go on past a divergence (resynchronising to the "
                                        "engine's logged units) and list every distinct divergence"),
        json_out: bool = typer.Option(False, "--json", help="print the report as JSON"),
    ) -> None:
        """Replay a logged match through the model and compare what the log holds: events, units, or the final board,
        under the engine's referee.toml (its features, readings and known divergences, as `check` reads them).
        Exit 0 pass, 1 a divergence, 2 a trace or referee.toml that cannot be read (a header's protocol other than
        this referee's too), 5 nothing validated (no action line in the file)."""
        from ..check.validate import profile_from_config, report_json, report_text, validate

        if not trace.is_file():
            typer.echo(f"referee validate: {trace}: not a regular file", err=True)
            raise typer.Exit(2)
        try:
            profile = profile_from_config()
        except ValueError as error:  # a bad referee.toml, feature name or known file: named, exit 2
            typer.echo(f"referee validate: {error}", err=True)
            raise typer.Exit(2)
        with trace.open(encoding="utf-8") as lines:
            report = validate(lines, str(trace), keep_going, progress=_progress, profile=profile)
        typer.echo(json.dumps(report_json(report), indent=1) if json_out else report_text(report),
                   err=bool(report.error) and not json_out)
        raise typer.Exit(report.exit_code)


def _progress(actions: int) -> None:
    if actions and sys.stderr.isatty():
        print(f"\r  {actions} actions", end="", file=sys.stderr, flush=True)
