"""``referee clauses``: the clause catalogue with each clause's traced status; ``referee docs``.

``referee clauses`` lists every clause with five status columns computed from the code
(see :mod:`referee.specs.catalogue` for exactly how); ``referee clauses show ID`` follows one
clause to its model code, theorems, tests, doc places and register entries. ``referee docs``
regenerates the derived pages in ``docs/`` (``--check`` only reports stale ones).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from referee.model.clauses import RULEBOOKS, ClauseIdError

MARK = {True: "✓", False: "·", None: "?"}
#: Column headings for the five statuses (the legend under the table spells them out).
SHORT = {"modeled": "mod", "encoded": "enc", "proved": "prv", "tested": "tst", "documented": "doc"}
STATUS_HELP = "one of: modeled, encoded, proved, tested, documented"
PROOFS_HELP = "a recorded proof run (default: .referee/proofs.json in the repository, as `referee prove` records it)"
STATE_DIR_HELP = ("the folder `referee prove --state-dir` recorded its run in (default: $REFEREE_STATE_DIR when set, "
                  "else .referee/ at the repository root)")


def _fail(message: str, code: int = 2) -> None:
    Console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def _load(proofs: Path | None, state_dir: Path | None = None) -> Any:
    from referee.specs.catalogue import CatalogueError, trace
    from referee.specs.register import RegisterError

    if proofs is not None and not proofs.is_file():
        _fail(f"proof results file not found: {proofs}")
    try:
        return trace(proofs, state_dir=state_dir)
    except (CatalogueError, RegisterError) as error:
        _fail(str(error))


def _check_choice(value: str | None, choices: tuple[str, ...], option: str) -> None:
    if value is not None and value not in choices:
        _fail(f"{option}: {value!r} is not one of {', '.join(choices)}")


def _report_problems(result: Any, console: Console) -> None:
    for error in result.import_errors:
        console.print(f"[red]import error:[/] {escape(error)}", highlight=False)
    for item in result.unknown:
        clause = f" {item.clause!r}" if item.clause else ""
        console.print(f"[red]untraceable {item.kind}[/] {escape(f'{item.name}{clause}: {item.problem}')}", highlight=False)


def _summary(result: Any) -> str:
    counts = result.counts()
    parts = []
    for name in ("modeled", "encoded", "proved", "tested", "documented"):
        value = counts[name]
        parts.append(f"{name} {'unknown' if value is None else value}")
    return f"{counts['clauses']} clauses: " + ", ".join(parts)


def _register_cell(ids: list[str]) -> str:
    """At most two entry ids, then a count (``clauses show`` lists them all)."""
    return " ".join(ids) if len(ids) <= 2 else f"{ids[0]} {ids[1]} +{len(ids) - 2}"


def list_clauses(
    as_json: bool = typer.Option(False, "--json", help="one JSON record per clause"),
    rulebook: str | None = typer.Option(None, "--rulebook", help="combat or play"),
    status: str | None = typer.Option(None, "--status", help=f"only clauses that have this status ({STATUS_HELP})"),
    missing: str | None = typer.Option(None, "--missing", help=f"only clauses that lack this status ({STATUS_HELP})"),
    proofs: Path | None = typer.Option(None, "--proofs", help=PROOFS_HELP),
    state_dir: Path | None = typer.Option(None, "--state-dir", help=STATE_DIR_HELP),
) -> None:
    """List the clauses of both rulebooks and what traces to each."""
    from referee.specs.catalogue import STATUSES

    _check_choice(rulebook, RULEBOOKS, "--rulebook")
    _check_choice(status, STATUSES, "--status")
    _check_choice(missing, STATUSES, "--missing")
    result = _load(proofs, state_dir)
    rows = [
        row
        for row in result.clauses
        if (rulebook is None or row.id.rulebook == rulebook)
        and (status is None or row.status(status) is True)
        and (missing is None or row.status(missing) is not True)
    ]
    if as_json:
        _print_rows_json(result, rows)
    else:
        _print_rows_table(result, rows)


def _print_rows_json(result: Any, rows: list) -> None:
    json.dump([row.to_json() for row in rows], sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    _report_problems(result, Console(stderr=True))
    if result.stale:
        Console(stderr=True).print(f"[yellow]warning:[/] {escape(result.stale)}", highlight=False)


def _print_rows_table(result: Any, rows: list) -> None:
    """The catalogue as a table: a row per clause, a mark per status, the register entries; then the notes."""
    from referee.specs.catalogue import STATUSES

    console = Console()
    table = Table(title="Clause catalogue", show_lines=False)
    table.add_column("clause", no_wrap=True, min_width=15)
    table.add_column("title", no_wrap=True, overflow="ellipsis")
    for name in STATUSES:
        table.add_column(SHORT[name], justify="center", no_wrap=True, min_width=3)
    table.add_column("register", min_width=8)
    register_width = max([8, *(len(_register_cell([e.id for e in row.interpretations])) for row in rows)])
    title_width = max(console.width - 56 - register_width, 12)
    for row in rows:
        title = row.clause.title
        table.add_row(
            str(row.id),
            escape(title if len(title) <= title_width else title[: title_width - 1] + "…"),
            *(MARK[row.status(name)] for name in STATUSES),
            _register_cell([entry.id for entry in row.interpretations]),
        )
    console.print(table)
    console.print(f"shown {len(rows)}; {_summary(result)}", highlight=False)
    legend = ", ".join(f"{short} {name}" for name, short in SHORT.items())
    console.print(f"{legend}.  ✓ has it   · lacks it   ? unknown", style="dim", highlight=False)
    for note in result.notes:
        stale = note == result.stale
        console.print(f"{'warning' if stale else 'note'}: {escape(note)}", style="yellow" if stale else "dim", highlight=False)
    _report_problems(result, Console(stderr=True))


def show_clause(
    clause: str = typer.Argument(..., help="a clause id, e.g. combat:500.1-7 (or 500.1-7 when unambiguous)"),
    as_json: bool = typer.Option(False, "--json", help="the clause's record as JSON"),
    proofs: Path | None = typer.Option(None, "--proofs", help=PROOFS_HELP),
    state_dir: Path | None = typer.Option(None, "--state-dir", help=STATE_DIR_HELP),
) -> None:
    """Follow one clause to its model code, theorems, tests, doc places and register entries."""
    from referee.specs.catalogue import load_catalogue, resolve_clause_id

    try:
        clause_id = resolve_clause_id(clause, load_catalogue())
    except ClauseIdError as error:
        _fail(str(error))
    result = _load(proofs, state_dir)
    row = result.by_id()[clause_id]
    if as_json:
        _print_clause_json(row)
    else:
        _print_clause(row, result)


def _print_clause_json(row: Any) -> None:
    record = row.to_json()
    record["places"] = {
        "model": {ref.name: ref.where for ref in row.model},
        "theorems": {ref.name: ref.where for ref in row.theorems},
    }
    json.dump(record, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _print_clause(row: Any, result: Any) -> None:
    """One clause for people: its title and text, its statuses, then each place that traces to it."""
    from referee.specs.catalogue import STATUSES

    console = Console(highlight=False)
    console.print(f"[bold]{row.id}[/]  {escape(row.clause.title)}")
    console.print(escape(f"section: {row.clause.section}    source: {', '.join(row.clause.sources)}"), style="dim")
    console.print(escape(row.clause.summary))
    console.print("  ".join(f"{name} {MARK[row.status(name)]}" for name in STATUSES))
    listing = _lister(console)
    listing("model", [f"{ref.name}  ({ref.where})" for ref in row.model], "")
    listing("theorems", _theorem_lines(row), "")
    tests = None if row.tests is None else [f"{ref.name}" + (f"  ({ref.note})" if ref.note else "") for ref in row.tests]
    listing("tests", tests, "tests/ not present")
    listing("docs", None if row.docs is None else [ref.name for ref in row.docs], "docs/ not present")
    listing(
        "interpretation register",
        [f"{entry.id}: {entry.question}  (default: {entry.default})" for entry in row.interpretations],
        "",
    )
    for note in result.notes:
        console.print(f"\nnote: {escape(note)}", style="dim")


def _lister(console: Console):
    """Print a heading and its lines (``None``: the place is absent, said as ``absent``)."""

    def listing(heading: str, lines: list[str] | None, absent: str) -> None:
        console.print(f"\n[bold]{heading}[/]")
        if lines is None:
            console.print(f"  ({absent})", style="dim")
        elif not lines:
            console.print("  (none)", style="dim")
        for line in lines or []:
            console.print(f"  {escape(line)}")

    return listing


def _theorem_lines(row: Any) -> list[str]:
    """Each theorem of the clause, its recorded result and its statement."""
    from referee.proofs.core import THEOREMS

    lines = []
    for ref in row.theorems:
        recorded = "" if row.proof_results is None else f"  [{row.proof_results.get(ref.name, 'not run')}]"
        lines.append(f"{ref.name}{recorded}  ({ref.where})\n    {THEOREMS[ref.name].statement}")
    return lines


def docs(
    check: bool = typer.Option(False, "--check", help="only report generated pages that are out of date (exit 1 if any)"),
) -> None:
    """Regenerate the derived pages: docs/generated/coverage.md, docs/generated/theorems.md, docs/interpretations.md."""
    from referee.report import docgen
    from referee.specs.catalogue import CatalogueError
    from referee.specs.register import RegisterError

    try:
        stale = docgen.stale_pages() if check else docgen.write_pages()
    except (CatalogueError, RegisterError, docgen.DocgenError) as error:
        _fail(str(error))
    console = Console(highlight=False)
    if check:
        for path in stale:
            console.print(f"out of date: {path}  (run `referee docs` to regenerate)")
        if stale:
            raise typer.Exit(1)
        console.print("generated docs are up to date")
    else:
        for path in stale:
            console.print(f"wrote {path}")
        if not stale:
            console.print("generated docs were already up to date")


def register(app: typer.Typer) -> None:
    clauses_app = typer.Typer(
        help="The clause catalogue: every clause and what traces to it.",
        invoke_without_command=True,
        no_args_is_help=False,
    )

    @clauses_app.callback(invoke_without_command=True)
    def clauses(
        ctx: typer.Context,
        as_json: bool = typer.Option(False, "--json", help="one JSON record per clause"),
        rulebook: str | None = typer.Option(None, "--rulebook", help="combat or play"),
        status: str | None = typer.Option(None, "--status", help=f"only clauses that have this status ({STATUS_HELP})"),
        missing: str | None = typer.Option(None, "--missing", help=f"only clauses that lack it ({STATUS_HELP})"),
        proofs: Path | None = typer.Option(None, "--proofs", help=PROOFS_HELP),
        state_dir: Path | None = typer.Option(None, "--state-dir", help=STATE_DIR_HELP),
    ) -> None:
        """List every clause with its status: modeled, encoded, proved, tested, documented."""
        if ctx.invoked_subcommand is None:
            list_clauses(as_json, rulebook, status, missing, proofs, state_dir)

    clauses_app.command("show")(show_clause)
    app.add_typer(clauses_app, name="clauses")
    app.command("docs")(docs)
