"""``referee report``: reports of runs.

``referee report merge A.json B.json ... [--html OUT] [--out MERGED.json]``: many check reports as one.
``referee report conformance --check C.json --vectors V.json [--declaration referee.toml] --out DIR``: an engine's
conformance per feature and per clause, as JSON, a page and a shields.io badge (``referee.report.conformance``).
``referee report matrix A.json B.json ... --out matrix.html``: many engines' conformance on one page
(``referee.report.matrix``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

#: Exit statuses, as ``referee check``'s for the merged verdict; 2: reports that cannot be merged.
EXIT_USAGE = 2


def register(app: typer.Typer) -> None:
    report_app = typer.Typer(help="Reports of runs: merge a CI matrix's check reports into one; publish an engine's "
                             "conformance; compare engines' conformance.", no_args_is_help=True)
    app.add_typer(report_app, name="report")
    report_app.command("merge")(merge_command)
    report_app.command("conformance")(conformance_command)
    report_app.command("matrix")(matrix_command)


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


def conformance_command(
    check: Path = typer.Option(..., "--check", help="the report of `referee check --json`"),
    vectors: Path = typer.Option(..., "--vectors", help="the report of `referee vectors run --json`"),
    out: Path = typer.Option(..., "--out", help="the folder to write conformance.json, conformance.html and "
                                                "badge.json"),
    declaration: Optional[Path] = typer.Option(None, "--declaration", help="the engine's referee.toml (or pyproject."
                                               "toml): its name, version, profile and readings (default: the check's "
                                               "profile, the check's engine as its name)"),
    engine_version: Optional[str] = typer.Option(None, "--engine-version", help="the engine's version (default: the "
                                                 "declaration's version)"),
) -> None:
    """An engine's conformance per feature and per clause, from its check and vectors run reports: every clause of
    the catalogue pass, fail, known, not covered, left out or not run; a page and a shields.io badge."""
    from ..report.conformance import ConformanceError, build, load_inputs, summary_line, write

    def make():
        if out.exists() and not out.is_dir():
            raise ConformanceError(f"{out}: --out must be a folder, and this is a file")
        doc = build(load_inputs(check, vectors, declaration), engine_version)
        return summary_line(doc), write(doc, out)

    _written("conformance", out, make)


def matrix_command(
    documents: list[Path] = typer.Argument(..., help="conformance.json files of `referee report conformance`"),
    out: Path = typer.Option(..., "--out", help="the page to write (matrix.json is written beside it)"),
) -> None:
    """Many engines' conformance on one page: a row per clause, a column per engine (in the order given), each cell
    its status, and how many of the engines pass it; matrix.json beside the page."""
    from ..report.conformance import ConformanceError
    from ..report.matrix import build, check_comparable, json_twin, load_conformance, summary_line, write

    def make():
        if out.suffix == ".json":
            raise ConformanceError(f"{out}: --out names the page; its JSON twin is written beside it as "
                                   f"{json_twin(out.with_suffix('.html')).name}")
        loaded = [load_conformance(path) for path in documents]
        check_comparable(documents, loaded)
        matrix = build(documents, loaded)
        return summary_line(matrix), write(matrix, out)

    _written("matrix", out, make)


def _written(verb: str, out: Path, make) -> None:
    """Run ``make`` (its summary line and the files it wrote) and print both; a bad input (``ConformanceError``)
    or an unwritable ``out`` is a usage error (exit 2) naming it."""
    from ..report.conformance import ConformanceError

    try:
        summary, written = make()
    except ConformanceError as error:
        typer.echo(f"referee report {verb}: {error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except OSError as error:
        typer.echo(f"referee report {verb}: {out}: cannot write: {error.strerror or error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"referee report {verb}: {summary}")
    typer.echo(f"  wrote {', '.join(str(p) for p in written)}")
