"""``referee exhaust``: a tier's every scenario, counted, divided by first action, or run through an engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..engines.transports import DEFAULT_ENGINE_BUDGET


def register(app: typer.Typer) -> None:
    app.command("exhaust")(exhaust_command)


def exhaust_command(
    tier: Optional[str] = typer.Option(None, "--tier", help="tiny | small | standard (docs/exhaust.md gives each "
                                       "scope; default: tiny)"),
    divide: bool = typer.Option(False, "--divide", help="the counts per first action, as perft's divide"),
    clauses: bool = typer.Option(False, "--clauses", help="also count per clause (runs the model with its trail: slower)"),
    python: Optional[str] = typer.Option(None, "--python", help="run the tier through an in-process engine: package.module:function"),
    engine: Optional[str] = typer.Option(None, "--engine", help='run the tier through a JSON-lines engine: "CMD ARGS"'),
    in_process: Optional[bool] = typer.Option(None, "--in-process", help="call the --python engine in this process"),
    kinds: Optional[str] = typer.Option(None, "--kinds", help="only families whose actions are of these kinds"),
    features: Optional[str] = typer.Option(None, "--features", help="only scenarios using these features alone"),
    without: Optional[str] = typer.Option(None, "--without", help="features the engine does not implement: left out"),
    ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help="a reading the engine implements, name=value "
                                                "(repeatable): fixed in every scenario of the tier"),
    compare_mode: Optional[str] = typer.Option(None, "--compare", help="full | state | fields (default: full)"),
    fields: Optional[str] = typer.Option(None, "--fields", help="unit fields for --compare fields"),
    events: Optional[str] = typer.Option(None, "--events", help="all | none | name,name"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="seconds per scenario (> 0; default: 5)"),
    batch: Optional[int] = typer.Option(None, "--batch", help="scenarios per batch (default: 64)"),
    export: Optional[Path] = typer.Option(None, "--export", help="write the tier as conformance vectors to DIR"),
    json_out: bool = typer.Option(False, "--json", help="print the counts or the run as JSON"),
) -> None:
    """Every scenario of a tier, with no randomness: published counts, a divide, an engine's verdict.

    The engine's declaration (``referee.toml``) is read as ``check`` reads it: its engine runs the tier (a
    declaration without one: the counts), under its kinds, features and readings; ``[exhaust]`` holds run
    settings (``tier``, ``batch``, ``timeout``)."""
    given = dict(tier=tier, python=python, engine=engine, in_process=in_process, kinds=kinds, features=features,
                 without=without, ruleset=ruleset, compare=compare_mode, fields=fields, events=events,
                 timeout=timeout, batch=batch)
    try:
        _exhaust(_settings(given), divide, clauses, export, json_out)
    except ValueError as error:
        typer.echo(f"referee exhaust: {error}", err=True)
        raise typer.Exit(2)


def _exhaust(settings: Any, divide: bool, clauses: bool, export: Path | None, json_out: bool) -> None:
    """Count the tier, export it, or run it through the engine (whose verdict is the exit code)."""
    from ..vectors import exhaust

    found = _scope(settings)
    if export is not None:
        _export(export, found)
    if settings["python"] or settings["engine"]:
        report = _run_engine(found, settings)
        _print_run(report, json_out, divide)
        raise typer.Exit(report.exit_code)
    if export is None:
        _print_counts(found, *exhaust.count(found, clauses), json_out, divide)


def _settings(given: dict[str, Any]) -> Any:
    """The flags ``given``, else the declaration and ``[exhaust]`` of ``referee.toml``, else the defaults."""
    from ..check.config import load_config
    from ..check.options import EXHAUST, resolve

    settings = resolve(EXHAUST, given, load_config(verb=EXHAUST))
    if settings["batch"] < 1:
        raise ValueError(f"--batch {settings['batch']}: expected a whole number >= 1")
    return settings


def _scope(settings: Any) -> Any:
    """The tier inside the profile, under the declared readings; a usage error names an unknown tier, kind,
    feature, ruleset option or value."""
    from ..vectors import exhaust
    from ..rulebooks import ACTION_KINDS, resolve_features

    kind_words = settings["kinds"]
    if kind_words is not None and not kind_words:
        from ..check.plan import NO_KINDS

        raise ValueError(NO_KINDS)
    unknown = sorted(set(kind_words or ()) - set(ACTION_KINDS))
    if unknown:
        raise ValueError(f"unknown action kind(s) {', '.join(unknown)} (known: {', '.join(ACTION_KINDS)})")
    chosen = resolve_features(settings["features"], settings["without"])
    readings = _readings(settings)
    return exhaust.scope(settings["tier"], frozenset(kind_words) if kind_words else None, chosen, readings)


def _readings(settings: Any) -> Any:
    """The declared readings: ``--ruleset`` pairs, else the settings file's ``ruleset`` table (its errors name
    the file), validated as ``check`` validates them."""
    from ..vectors.readings import declared_readings

    try:
        return declared_readings(settings["ruleset"])
    except ValueError as error:
        if settings.sources["ruleset"] != "file":
            raise
        raise ValueError(f"{settings.config_source}: ruleset: {error}") from None


def _comparison(settings: Any, features: Any) -> Any:
    """What is compared (``compare``, ``fields``, ``events``), under the profile's features."""
    from ..check.compare import Comparison

    return Comparison.from_options(settings["compare"], settings.text("fields"), settings["events"], None,
                                   "strict").under_profile(features)


def _run_engine(found: Any, settings: Any) -> Any:
    """The tier through the engine (started and closed here), with progress on stderr."""
    from ..vectors import exhaust
    from ..engines.transports import EngineStartError, check_timeout, make_engine

    check_timeout(settings["timeout"])
    comparison = _comparison(settings, found.features)
    try:
        the_engine = make_engine(settings["python"], settings["engine"], settings["timeout"], settings["batch"],
                                 engine_budget=DEFAULT_ENGINE_BUDGET, in_process=bool(settings["in_process"]))
    except EngineStartError as error:
        raise ValueError(str(error)) from None
    with the_engine:
        the_engine.start()
        return exhaust.check(the_engine, found, comparison, settings["batch"], progress=_progress)


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r  {done}/{total} scenarios", end="" if done < total else "\n", file=sys.stderr, flush=True)


def _export(folder: Path, found: Any) -> None:
    """The tier as conformance vectors (``referee vectors run`` replays them), with its receipt."""
    from ..vectors.exhaust import export_vectors

    manifest = export_vectors(folder, found)
    typer.echo(f"referee exhaust: wrote {manifest['exhaust']['scenarios']} vectors of tier {found.tier} to {folder} "
               f"(manifest sha256 {manifest['exhaust']['sha256'][:16]}...){_readings_note(found)}")


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
               f"{len(total.outcomes)} distinct final outcomes{_readings_note(found)}")
    for name, n in sorted(total.categories.items()):
        typer.echo(f"  {name:<24} {n}")
    for name, n in sorted(total.clauses.items()):
        typer.echo(f"  {name:<24} {n}")
    if divide:
        for key, counts in lines.items():
            typer.echo(f"{counts.scenarios:>6} {divide_digest(counts)} {key}")


def _readings_note(found: Any) -> str:
    """What the count line adds for declared readings: which were fixed, and what that left out."""
    from ..vectors.readings import readings_text

    if not found.ruleset:
        return ""
    return (f"; readings fixed: {readings_text(found.ruleset)} ({found.varied_out} scenario(s) of families varying "
            "them left out: only the declared value runs)")


def _scope_json(found: Any) -> dict[str, Any]:
    readings = {"ruleset": found.ruleset} if found.ruleset else {}
    return {**readings, "candidates": found.enumerated.candidates, "symmetric_duplicates": found.enumerated.reduced,
            "left_out": dict(found.left_out),
            "families": {k: {"candidates": c, "scenarios": s} for k, (c, s) in found.enumerated.by_family.items()}}


def _print_run(report: Any, json_out: bool, divide: bool) -> None:
    if json_out:
        typer.echo(json.dumps(report.to_json(), indent=1))
        return
    typer.echo(report.text(divide))
