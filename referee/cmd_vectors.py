"""``referee vectors export DIR`` and ``referee vectors run DIR --engine CMD``."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    from .options import EXPORT, RUN, typer_command

    vectors_app = typer.Typer(help="Conformance vectors: export them, or replay them through an engine.", no_args_is_help=True)
    app.add_typer(vectors_app, name="vectors")
    export_folder = inspect.Parameter("folder", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str, default=typer.Argument(
        ..., metavar="FOLDER", help="the folder to write (manifest.json and one file per vector)"))
    run_folder = inspect.Parameter("folder", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Path, default=typer.Argument(
        ..., metavar="FOLDER", help="a folder written by `referee vectors export`"))
    vectors_app.command("export")(typer_command(EXPORT, export_command, [export_folder]))
    vectors_app.command("run")(typer_command(RUN, run_command, [run_folder]))


def _usage_exit(verb: str, message: str) -> typer.Exit:
    typer.echo(f"referee {verb}: {message}", err=True)
    return typer.Exit(2)


def export_command(given: dict, folder: str) -> None:
    """Find a vector for every branch of every modeled clause (Z3), add the boundary cases, write them."""
    from .config import ConfigError, load_config
    from .options import EXPORT, resolve
    from .plan import selection
    from .vector_files import VectorFileError, check_destination, previous_paths, remove_stale
    from .vectors import VECTORS_FORMAT, Selection, export, generate

    try:  # before minutes of generation: a destination that cannot take the vectors is a usage error
        folder = check_destination(folder, VECTORS_FORMAT)
        settings = resolve(EXPORT, given, load_config(verb=EXPORT))
        kinds, features = selection(settings)
        chosen = Selection(frozenset(kinds) if kinds else None, features)
    except (VectorFileError, ConfigError, ValueError) as error:
        raise _usage_exit(EXPORT, str(error)) from None
    say = (lambda text: None) if settings["quiet"] else (lambda text: typer.echo(text, err=True))
    generated = generate(progress=say, only=settings["only"])
    old = previous_paths(folder, VECTORS_FORMAT)
    manifest = export(folder, generated, chosen)
    _say_exported(folder, manifest)
    stale = remove_stale(folder, old, {e["path"] for e in manifest["vectors"]})
    if stale:
        typer.echo(f"  removed {len(stale)} vectors of the previous export that the new manifest does not list")
    unknown = _say_rulebooks(manifest)
    if unknown:
        typer.echo("unknown branches (no answer within the resource limit):", err=True)
        for branch in unknown:
            typer.echo(f"  {branch}", err=True)
        raise typer.Exit(1)


def _say_exported(folder: str, manifest: dict) -> None:
    typer.echo(f"wrote {len(manifest['vectors'])} vectors to {folder} covering {len(manifest['clauses'])} clauses")
    if manifest["left_out"]["vectors"]:
        typer.echo(f"  left out {manifest['left_out']['vectors']} vectors outside the selection: "
                   + "; ".join(f"{n} {reason}" for reason, n in manifest["left_out"]["by_reason"].items()))


def _say_rulebooks(manifest: dict) -> list[str]:
    """One line per rulebook (its vectors and branches); the branches no solver answered."""
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
    return unknown


def run_command(given: dict, folder: Path) -> None:
    """Replay exported vectors through an engine and report per clause."""
    from .options import RUN

    if not (folder / "manifest.json").is_file():
        raise _usage_exit(RUN, f"{folder}/manifest.json not found (run `referee vectors export` first)")
    settings, comparison, chosen, engine_name, results, skipped = _run_vectors(given, folder)
    per_clause: dict[str, list] = {}
    for result in results:
        for clause in result.clauses or ["(none)"]:
            per_clause.setdefault(clause, []).append(result)
    failed = [r for r in results if r.status != "pass"]
    if settings["receipt"]:
        from .vectors import write_receipt

        write_receipt(Path(settings["receipt"]), engine_name, chosen, results, skipped)
    if not results:
        raise _usage_exit(RUN, f"no vector in the selection ({len(skipped)} skipped): nothing was checked")
    if settings["json"]:
        typer.echo(json.dumps(_run_json(comparison, chosen, results, skipped, failed, per_clause), indent=2))
    else:
        _say_run(folder, engine_name, comparison, results, skipped, failed, per_clause)
    if settings["junit"]:
        _write_junit(settings["junit"], per_clause)
    # 1: some vector diverges; 3: no divergence, but the engine faulted (crash, hang, ...).
    raise typer.Exit(0 if not failed else 1 if any(r.status == "mismatch" for r in failed) else 3)


def _run_vectors(given: dict, folder: Path):
    """Resolve the settings, make the engine and run the selected vectors through it (exit 2 on a usage error)."""
    from .config import ConfigError, load_config
    from .engines import EngineStartError, install_termination_handler
    from .options import RUN, resolve
    from .plan import comparison as comparison_of, engine_spec, selection
    from .vectors import Selection, run_vectors

    try:
        settings = resolve(RUN, given, load_config(verb=RUN))
        kinds, features = selection(settings)
        chosen = Selection(frozenset(kinds) if kinds else None, features)
        skipped: list[tuple[str, str]] = []
        comparison = comparison_of(settings)
        the_engine = engine_spec(settings).make()
        install_termination_handler()
        with the_engine:
            the_engine.start()
            results = run_vectors(folder, the_engine, comparison, chosen, skipped)
    except (ValueError, EngineStartError, ConfigError) as error:
        raise _usage_exit(RUN, str(error)) from None
    return settings, comparison, chosen, the_engine.name, results, skipped


def _run_json(comparison, chosen, results, skipped, failed, per_clause) -> dict:
    return {
        "compared": comparison.to_json(),
        "vectors": len(results),
        "selection": chosen.to_json(),
        "skipped": len(skipped),
        "skipped_by_reason": _by_reason(skipped),
        "failed": [{"path": r.path, "status": r.status, "detail": r.detail, "clauses": r.clauses,
                    "failed_clauses": r.failed_clauses, "explain": r.explain} for r in failed],
        "clauses": {c: {"vectors": len(rs), "failed": sum(r.fails(c) for r in rs)}
                    for c, rs in sorted(per_clause.items())},
    }


def _say_run(folder, engine_name, comparison, results, skipped, failed, per_clause) -> None:
    """The human report of a vectors run: the count, the skipped, one line per clause, the first failures."""
    typer.echo(f"referee vectors run: {len(results) - len(failed)}/{len(results)} vectors pass "
               f"({engine_name}; compared: {comparison.describe()})")
    if skipped:
        typer.echo(f"  skipped {len(skipped)} vectors outside the selection: "
                   + "; ".join(f"{n} {reason}" for reason, n in _by_reason(skipped).items()))
    for clause, rs in sorted(per_clause.items()):
        bad = sum(r.fails(clause) for r in rs)
        typer.echo(f"  {'FAIL' if bad else 'ok  '} {clause:<18} {len(rs) - bad}/{len(rs)}")
    _say_failed(folder, failed)


def _say_failed(folder: Path, failed: list) -> None:
    from .at_fault import describe_steps

    for n, r in enumerate(failed[:20]):
        typer.echo(f"  {r.status}: {r.path}: {r.detail}")
        if r.explain and n < 5:
            for line in describe_steps(r.explain):
                typer.echo("  " + line)
            typer.echo(f"      the whole explanation: referee explain {folder / r.path}")
    if len(failed) > 20:
        typer.echo(f"  ... and {len(failed) - 20} more")


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
