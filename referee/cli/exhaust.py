"""``referee exhaust``: a tier's every scenario, counted, divided by first action, or run through an engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..engines.transports import DEFAULT_ENGINE_BUDGET


def register(app: typer.Typer) -> None:
    @app.command("exhaust")
    def exhaust_command(
        tier: str = typer.Option("tiny", "--tier", help="tiny | small | standard (docs/exhaust.md gives each scope)"),
        divide: bool = typer.Option(False, "--divide", help="the counts per first action, as perft's divide"),
        clauses: bool = typer.Option(False, "--clauses", help="also count per clause (runs the model with its trail: slower)"),
        python: Optional[str] = typer.Option(None, "--python", help="run the tier through an in-process engine: package.module:function"),
        engine: Optional[str] = typer.Option(None, "--engine", help='run the tier through a JSON-lines engine: "CMD ARGS"'),
        in_process: bool = typer.Option(False, "--in-process", help="call the --python engine in this process"),
        kinds: Optional[str] = typer.Option(None, "--kinds", help="only families whose actions are of these kinds"),
        features: Optional[str] = typer.Option(None, "--features", help="only scenarios using these features alone"),
        without: Optional[str] = typer.Option(None, "--without", help="features the engine does not implement: left out"),
        compare_mode: str = typer.Option("full", "--compare", help="full | state | fields"),
        fields: Optional[str] = typer.Option(None, "--fields", help="unit fields for --compare fields"),
        events: Optional[str] = typer.Option(None, "--events", help="all | none | name,name"),
        timeout: float = typer.Option(5.0, "--timeout", help="seconds per scenario (> 0)"),
        batch: int = typer.Option(64, "--batch", help="scenarios per batch"),
        export: Optional[Path] = typer.Option(None, "--export", help="write the tier as conformance vectors to DIR"),
        json_out: bool = typer.Option(False, "--json", help="print the counts or the run as JSON"),
    ) -> None:
        """Every scenario of a tier, with no randomness: published counts, a divide, an engine's verdict."""
        from ..vectors import exhaust

        try:
            found = _scope(tier, kinds, features, without)
            if export is not None:
                _export(export, found)
            if python or engine:
                comparison = _comparison(compare_mode, fields, events)
                report = _run_engine(found, python, engine, in_process, timeout, batch, comparison)
                _print_run(report, json_out, divide)
                raise typer.Exit(report.exit_code)
            if export is None:
                _print_counts(found, *exhaust.count(found, clauses), json_out, divide)
        except ValueError as error:
            typer.echo(f"referee exhaust: {error}", err=True)
            raise typer.Exit(2)


def _words(text: str | None) -> frozenset[str] | None:
    return None if text is None else frozenset(w.strip() for w in text.split(",") if w.strip())


def _scope(tier: str, kinds: str | None, features: str | None, without: str | None) -> Any:
    """The tier inside the profile; a usage error names an unknown tier, kind or feature."""
    from ..vectors import exhaust
    from ..check.config import load_config
    from ..rulebooks import ACTION_KINDS, resolve_features

    config = load_config()
    kind_words = config.words("kinds", kinds)
    unknown = sorted(set(kind_words or ()) - set(ACTION_KINDS))
    if unknown:
        raise ValueError(f"unknown action kind(s) {', '.join(unknown)} (known: {', '.join(ACTION_KINDS)})")
    chosen = resolve_features(config.words("features", features), config.words("without", without))
    return exhaust.scope(tier, frozenset(kind_words) if kind_words else None, chosen)


def _comparison(mode: str, fields: str | None, events: str | None) -> Any:
    from ..check.compare import Comparison

    return Comparison.from_options(mode, fields, events, None, "strict")


def _run_engine(found: Any, python: str | None, command: str | None, in_process: bool, timeout: float,
                batch: int, comparison: Any) -> Any:
    """The tier through the engine (started and closed here), with progress on stderr."""
    from ..vectors import exhaust
    from ..engines.transports import EngineStartError, make_engine

    try:
        the_engine = make_engine(python, command, timeout, batch, engine_budget=DEFAULT_ENGINE_BUDGET,
                                 in_process=in_process)
    except EngineStartError as error:
        raise ValueError(str(error)) from None
    with the_engine:
        the_engine.start()
        return exhaust.check(the_engine, found, comparison, batch, progress=_progress)


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r  {done}/{total} scenarios", end="" if done < total else "\n", file=sys.stderr, flush=True)


def _export(folder: Path, found: Any) -> None:
    """The tier as conformance vectors (``referee vectors run`` replays them), with its receipt."""
    from ..vectors.exhaust import export_vectors

    manifest = export_vectors(folder, found)
    typer.echo(f"referee exhaust: wrote {manifest['exhaust']['scenarios']} vectors of tier {found.tier} to {folder} "
               f"(manifest sha256 {manifest['exhaust']['sha256'][:16]}...)")


def _print_counts(found: Any, total: Any, lines: dict[str, Any], json_out: bool, divide: bool) -> None:
    from ..vectors.exhaust import divide_digest

    if json_out:
        body = {"tier": found.tier, **_scope_json(found), **total.to_json()}
        if divide:
            body["divide"] = {k: {"scenarios": c.scenarios, "digest": divide_digest(c)} for k, c in lines.items()}
        typer.echo(json.dumps(body, indent=1))
        return
    typer.echo(f"referee exhaust --tier {found.tier}: {total.scenarios} scenarios "
               f"({found.enumerated.candidates} candidates, {found.enumerated.reduced} equal up to symmetry), "
               f"{len(total.outcomes)} distinct final outcomes")
    for name, n in sorted(total.categories.items()):
        typer.echo(f"  {name:<24} {n}")
    for name, n in sorted(total.clauses.items()):
        typer.echo(f"  {name:<24} {n}")
    if divide:
        for key, counts in lines.items():
            typer.echo(f"{counts.scenarios:>6} {divide_digest(counts)} {key}")


def _scope_json(found: Any) -> dict[str, Any]:
    return {"candidates": found.enumerated.candidates, "symmetric_duplicates": found.enumerated.reduced,
            "left_out": dict(found.left_out),
            "families": {k: {"candidates": c, "scenarios": s} for k, (c, s) in found.enumerated.by_family.items()}}


def _print_run(report: Any, json_out: bool, divide: bool) -> None:
    if json_out:
        typer.echo(json.dumps(report.to_json(), indent=1))
        return
    typer.echo(report.text(divide))
