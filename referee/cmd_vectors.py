"""``referee vectors export DIR`` and ``referee vectors run DIR --engine CMD``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .engines import DEFAULT_ENGINE_BUDGET


def register(app: typer.Typer) -> None:
    vectors_app = typer.Typer(help="Conformance vectors: export them, or replay them through an engine.", no_args_is_help=True)
    app.add_typer(vectors_app, name="vectors")

    @vectors_app.command("export")
    def export_command(
        folder: str = typer.Argument(..., help="the folder to write (manifest.json and one file per vector)"),
        only: Optional[str] = typer.Option(None, "--only", help="only templates whose name starts with this (e.g. cost/)"),
        kinds: Optional[str] = typer.Option(None, "--kinds", help="write only vectors whose actions are of these kinds"),
        features: Optional[str] = typer.Option(None, "--features", help="write only vectors using no other features"),
        without: Optional[str] = typer.Option(None, "--without", help="leave out vectors using these features"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="no per-template progress"),
    ) -> None:
        """Find a vector for every branch of every modeled clause (Z3), add the boundary cases, write them."""
        from .config import ConfigError, load_config
        from .rulebooks import resolve_features
        from .vector_files import VectorFileError, check_destination, previous_paths, remove_stale
        from .vectors import VECTORS_FORMAT, Selection, export, generate

        try:  # before minutes of generation: a destination that cannot take the vectors is a usage error
            folder = check_destination(folder, VECTORS_FORMAT)
            config = load_config()
            kind_words = config.words("kinds", kinds)
            selection = Selection(frozenset(kind_words) if kind_words else None,
                                  resolve_features(config.words("features", features), config.words("without", without)))
        except (VectorFileError, ConfigError, ValueError) as error:
            typer.echo(f"referee vectors export: {error}", err=True)
            raise typer.Exit(2)
        say = (lambda text: None) if quiet else (lambda text: typer.echo(text, err=True))
        generated = generate(progress=say, only=only)
        old = previous_paths(folder, VECTORS_FORMAT)
        manifest = export(folder, generated, selection)
        typer.echo(f"wrote {len(manifest['vectors'])} vectors to {folder} covering {len(manifest['clauses'])} clauses")
        if manifest["left_out"]["vectors"]:
            typer.echo(f"  left out {manifest['left_out']['vectors']} vectors outside the selection: "
                       + "; ".join(f"{n} {reason}" for reason, n in manifest["left_out"]["by_reason"].items()))
        stale = remove_stale(folder, old, {e["path"] for e in manifest["vectors"]})
        if stale:
            typer.echo(f"  removed {len(stale)} vectors of the previous export that the new manifest does not list")
        unknown = []
        for name, book in manifest["rulebooks"].items():
            branches = book["branches"]
            if branches is None:
                typer.echo(f"  {name}: {book['vectors']} vectors ({book['method'].split(',')[0]})")
                continue
            typer.echo(
                f"  {name}: {book['vectors']} vectors; branches: {len(branches['covered'])} covered, "
                + (f"{len(branches['left_out'])} left out by the selection, " if branches.get("left_out") else "")
                + f"{len(branches['unreachable'])} unreachable (proved by Z3), {len(branches['unknown'])} unknown, "
                f"of {branches['total']}"
            )
            unknown += branches["unknown"]
        if unknown:
            typer.echo("unknown branches (no answer within the resource limit):", err=True)
            for branch in unknown:
                typer.echo(f"  {branch}", err=True)
            raise typer.Exit(1)

    @vectors_app.command("run")
    def run_command(
        folder: Path = typer.Argument(..., help="a folder written by `referee vectors export`"),
        python: Optional[str] = typer.Option(None, "--python", help="an in-process engine: package.module:function"),
        engine: Optional[str] = typer.Option(None, "--engine", help='a JSON-lines engine program: "CMD ARGS"'),
        compare_mode: str = typer.Option("full", "--compare", help="full | state | fields"),
        fields: Optional[str] = typer.Option(None, "--fields", help="unit fields for --compare fields"),
        events: Optional[str] = typer.Option(None, "--events", help="all | none | name,name"),
        kinds: Optional[str] = typer.Option(None, "--kinds", help="run only vectors whose actions are of these kinds"),
        features: Optional[str] = typer.Option(None, "--features", help="run only vectors using no other features"),
        without: Optional[str] = typer.Option(None, "--without", help="skip vectors using these features"),
        receipt: Optional[str] = typer.Option(None, "--receipt", help="write which vectors ran, with their results, to FILE"),
        event_fields: Optional[str] = typer.Option(
            None, "--event-fields", help="compare only these event fields: name,unit,amount,other,detail (name required)"
        ),
        event_order: str = typer.Option("strict", "--event-order", help="strict | per-unit | multiset"),
        timeout: float = typer.Option(5.0, "--timeout", help="seconds per scenario (> 0)"),
        batch: int = typer.Option(64, "--batch", help="scenarios per batch for a JSON-lines engine"),
        engine_budget: float = typer.Option(DEFAULT_ENGINE_BUDGET, "--engine-budget", help="seconds the whole run may wait on the engine"),
        in_process: bool = typer.Option(False, "--in-process", help="call the --python engine in this process"),
        json_out: bool = typer.Option(False, "--json", help="print the results as JSON"),
        junit: Optional[str] = typer.Option(None, "--junit", help="write JUnit XML (one test case per clause)"),
    ) -> None:
        """Replay exported vectors through an engine and report per clause."""
        from .compare import Comparison
        from .engines import EngineStartError, install_termination_handler, make_engine
        from .config import ConfigError, load_config
        from .rulebooks import resolve_features
        from .vectors import Selection, run_vectors, write_receipt

        if not (folder / "manifest.json").is_file():
            typer.echo(f"referee vectors run: {folder}/manifest.json not found (run `referee vectors export` first)", err=True)
            raise typer.Exit(2)
        try:
            config = load_config()
            python, engine = (python, engine) if (python or engine) else (config.get("python"), config.get("engine"))
            kind_words = config.words("kinds", kinds)
            selection = Selection(frozenset(kind_words) if kind_words else None,
                                  resolve_features(config.words("features", features), config.words("without", without)))
            skipped: list[tuple[str, str]] = []
            comparison = Comparison.from_options(compare_mode, fields, events, event_fields,
                                                 event_order).under_profile(selection.features)
            the_engine = make_engine(python, engine, timeout, batch, engine_budget=engine_budget, in_process=in_process)
            install_termination_handler()
            with the_engine:
                the_engine.start()
                results = run_vectors(folder, the_engine, comparison, selection, skipped)
        except (ValueError, EngineStartError, ConfigError) as error:
            typer.echo(f"referee vectors run: {error}", err=True)
            raise typer.Exit(2)
        per_clause: dict[str, list] = {}
        for result in results:
            for clause in result.clauses or ["(none)"]:
                per_clause.setdefault(clause, []).append(result)
        failed = [r for r in results if r.status != "pass"]
        if receipt:
            write_receipt(Path(receipt), the_engine.name, selection, results, skipped)
        if not results:
            typer.echo(f"referee vectors run: no vector in the selection ({len(skipped)} skipped): nothing was checked",
                       err=True)
            raise typer.Exit(2)
        if json_out:
            typer.echo(json.dumps({
                "compared": comparison.to_json(),
                "vectors": len(results),
                "selection": selection.to_json(),
                "skipped": len(skipped),
                "skipped_by_reason": _by_reason(skipped),
                "failed": [{"path": r.path, "status": r.status, "detail": r.detail, "clauses": r.clauses,
                            "failed_clauses": r.failed_clauses, "explain": r.explain} for r in failed],
                "clauses": {c: {"vectors": len(rs), "failed": sum(r.fails(c) for r in rs)}
                            for c, rs in sorted(per_clause.items())},
            }, indent=2))
        else:
            typer.echo(f"referee vectors run: {len(results) - len(failed)}/{len(results)} vectors pass "
                       f"({the_engine.name}; compared: {comparison.describe()})")
            if skipped:
                typer.echo(f"  skipped {len(skipped)} vectors outside the selection: "
                           + "; ".join(f"{n} {reason}" for reason, n in _by_reason(skipped).items()))
            for clause, rs in sorted(per_clause.items()):
                bad = sum(r.fails(clause) for r in rs)
                typer.echo(f"  {'FAIL' if bad else 'ok  '} {clause:<18} {len(rs) - bad}/{len(rs)}")
            from .at_fault import describe_steps

            for n, r in enumerate(failed[:20]):
                typer.echo(f"  {r.status}: {r.path}: {r.detail}")
                if r.explain and n < 5:
                    for line in describe_steps(r.explain):
                        typer.echo("  " + line)
                    typer.echo(f"      the whole explanation: referee explain {folder / r.path}")
            if len(failed) > 20:
                typer.echo(f"  ... and {len(failed) - 20} more")
        if junit:
            _write_junit(junit, per_clause)
        # 1: some vector diverges; 3: no divergence, but the engine faulted (crash, hang, ...).
        raise typer.Exit(0 if not failed else 1 if any(r.status == "mismatch" for r in failed) else 3)


def _by_reason(skipped: list[tuple[str, str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, reason in skipped:
        counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def _write_junit(path: str, per_clause: dict[str, list]) -> None:
    from xml.sax.saxutils import escape, quoteattr

    from .junit import xml_text

    failures = sum(1 for clause, rs in per_clause.items() if any(r.fails(clause) for r in rs))
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<testsuites><testsuite name="referee vectors" tests="{len(per_clause)}" failures="{failures}">']
    for clause, rs in sorted(per_clause.items()):
        lines.append(f'<testcase classname="referee.vectors" name={quoteattr(clause)}>')
        bad = [r for r in rs if r.fails(clause)]
        if bad:
            text = "\n".join(f"{r.status}: {r.path}: {r.detail}" for r in bad)
            lines.append(f"<failure message={quoteattr(f'{len(bad)} of {len(rs)} vectors fail')}>{escape(xml_text(text))}</failure>")
        lines.append("</testcase>")
    lines.append("</testsuite></testsuites>")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")
