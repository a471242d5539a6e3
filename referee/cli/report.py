"""``referee report merge A.json B.json ... [--html OUT] [--out MERGED.json]``: many check reports as one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

#: Exit statuses, as ``referee check``'s for the merged verdict; 2: reports that cannot be merged.
EXIT_USAGE = 2


def register(app: typer.Typer) -> None:
    report_app = typer.Typer(help="Reports of check runs: merge a CI matrix's JSON reports into one.",
                             no_args_is_help=True)
    app.add_typer(report_app, name="report")
    report_app.command("merge")(merge_command)


def merge_command(
    reports: list[Path] = typer.Argument(..., help="JSON reports written by `referee check --json` (two or more)"),
    html: Optional[Path] = typer.Option(None, "--html", help="also write the merged report as an HTML page"),
    out: Optional[Path] = typer.Option(None, "--out", help="write the merged JSON report there (default: stdout)"),
) -> None:
    """Merge check reports: groups by their key (one group per bug), counts, scenarios and coverage added,
    the earliest first failure, and the worst verdict (any failed run fails the merge)."""
    from ..report.merge import ReportError, check_alike, check_distinct, load_report, merge

    try:
        if len(reports) < 2:
            raise ReportError("give two or more reports to merge")
        loaded = [load_report(path) for path in reports]
        check_alike(reports, loaded)
        check_distinct(reports, loaded)
    except ReportError as error:
        typer.echo(f"referee report merge: {error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    merged = merge(loaded)
    text = json.dumps(merged, indent=2) + "\n"
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    else:
        typer.echo(text, nl=False)
    if html is not None:
        from ..report.html import write_html

        write_html(html, merged)  # the merged JSON itself: its model (referee.report.model) keeps every seed
    _summary(merged, reports, html, out)
    raise typer.Exit(_exit_code(merged["status"]))


def _summary(merged: dict, reports: list[Path], html: Path | None, out: Path | None) -> None:
    typer.echo(f"referee report merge: {merged['status'].upper()}: {len(reports)} reports, {merged['scenarios_run']} "
               f"scenarios (seeds {', '.join(str(s) for s in merged['seeds'])}), {merged['distinct_divergences']} "
               f"distinct divergence(s)" + (f"; JSON: {out}" if out else "") + (f"; HTML: {html}" if html else ""),
               err=True)


def _exit_code(status: str) -> int:
    """As ``referee check``'s: 0 pass, 3 an engine fault, 4 a model error, 130 an interrupted run among them,
    1 any other failure (a divergence)."""
    from .check import EXIT_DIVERGENCE, EXIT_ENGINE_FAULT, EXIT_INTERRUPTED, EXIT_MODEL, EXIT_PASS

    return {"pass": EXIT_PASS, "fault": EXIT_ENGINE_FAULT, "nondeterministic": EXIT_ENGINE_FAULT,
            "model-error": EXIT_MODEL, "interrupted": EXIT_INTERRUPTED}.get(status, EXIT_DIVERGENCE)
