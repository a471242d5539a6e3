"""``referee check``: differential testing of an engine against the model."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Optional

import typer


from .engines import DEFAULT_ENGINE_BUDGET


def parse_rules(options: list[str] | None) -> dict[str, object]:
    """``--ruleset name=value`` pairs to each rulebook's readings (by the rulebook that owns the name)."""
    from .rulebooks import rules_from_options

    pairs: dict[str, object] = {}
    for item in options or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--ruleset {item!r}: expected name=value")
        pairs[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return rules_from_options(pairs)


def write_junit(path: str, reports: list, suite: str = "referee check") -> None:
    """JUnit XML: one test case per report (per action kind or per run)."""
    from xml.sax.saxutils import escape, quoteattr

    from .junit import xml_text

    failures = sum(1 for r in reports if not r.ok)
    seconds = sum(r.seconds for r in reports)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f"<testsuites><testsuite name={quoteattr(suite)} tests=\"{len(reports)}\" failures=\"{failures}\" "
        f'time="{seconds:.3f}">',
    ]
    for r in reports:
        name = quoteattr(xml_text(f"{r.engine} [{', '.join(r.kinds)}]", 1000))
        lines.append(f'<testcase classname="referee.check" name={name} time="{r.seconds:.3f}">')
        if not r.ok:
            lines.append(f"<failure message={quoteattr(r.status)}>{escape(xml_text(r.text()))}</failure>")
        lines.append("</testcase>")
    lines.append("</testsuite></testsuites>")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")


def register(app: typer.Typer) -> None:
    @app.command("check")
    def check_command(
        python: Optional[str] = typer.Option(None, "--python", help="an in-process engine: package.module:function"),
        engine: Optional[str] = typer.Option(None, "--engine", help='a JSON-lines engine program: "CMD ARGS"'),
        examples: int = typer.Option(500, "--examples", "-n", help="scenarios to check"),
        seed: Optional[int] = typer.Option(None, "--seed", help="random seed (printed when not given)"),
        kinds: Optional[str] = typer.Option(None, "--kinds", help="action kinds to draw, comma-separated (default: all)"),
        compare_mode: str = typer.Option("full", "--compare", help="full | state | fields"),
        fields: Optional[str] = typer.Option(None, "--fields", help="unit fields for --compare fields: a,b,c"),
        events: Optional[str] = typer.Option(None, "--events", help="all | none | name,name (compare only these events)"),
        ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help="a ruleset option name=value (repeatable)"),
        max_actions: int = typer.Option(2, "--max-actions", help="actions per scenario (1..N)"),
        timeout: float = typer.Option(5.0, "--timeout", help="seconds per scenario before the engine counts as hung (> 0)"),
        batch: int = typer.Option(32, "--batch", help="scenarios per batch sent to a JSON-lines engine"),
        engine_budget: float = typer.Option(
            DEFAULT_ENGINE_BUDGET, "--engine-budget", help="seconds the whole run may wait on the engine, in all"
        ),
        in_process: bool = typer.Option(
            False, "--in-process", help="call the --python engine in this process (faster; os._exit in it ends the run)"
        ),
        json_out: bool = typer.Option(False, "--json", help="print the report as JSON"),
        trail: bool = typer.Option(False, "--trail", help="print the model's whole clause trail up to the divergence "
                                   "(by default: the explain steps around it; --json always has both)"),
        junit: Optional[str] = typer.Option(None, "--junit", help="write a JUnit XML report to FILE"),
        database: str = typer.Option(".referee/examples", "--database", help="Hypothesis example database directory ('' for none)"),
        backend: str = typer.Option("hypothesis", "--backend", help="hypothesis | crosshair (Python engines)"),
        replay_file: Optional[str] = typer.Option(None, "--replay", help="run one stored scenario (JSON file) instead"),
    ) -> None:
        """Check an engine against the model on generated scenarios; shrink and explain the first mismatch."""
        from .compare import Comparison
        from .engines import EngineStartError, install_termination_handler, make_engine
        from .harness import CheckOptions, check, replay

        if backend != "hypothesis" and not python:
            typer.echo("referee check: --backend crosshair needs a --python engine", err=True)
            raise typer.Exit(2)
        try:
            comparison = Comparison.from_options(compare_mode, fields, events)
            chosen_rules = parse_rules(ruleset)
            chosen_kinds = tuple(k.strip() for k in kinds.split(",")) if kinds else None
            # CrossHair runs the engine symbolically: it must be called in this process.
            the_engine = make_engine(python, engine, timeout, batch, engine_budget=engine_budget,
                                     in_process=in_process or backend != "hypothesis")
        except ValueError as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        install_termination_handler()
        command = _command_words(python, engine, examples, kinds, compare_mode, fields, events, ruleset, max_actions,
                                 timeout=timeout, batch=batch, in_process=in_process)
        options = CheckOptions(
            examples=examples,
            seed=seed,
            kinds=chosen_kinds,
            max_actions=max_actions,
            comparison=comparison,
            rules=chosen_rules,
            database=database or None,
            backend=backend,
            command=command,
        )
        try:
            with the_engine:
                if replay_file:
                    try:
                        scenario = json.loads(Path(replay_file).read_text())
                    except (OSError, ValueError) as error:
                        typer.echo(f"referee check: --replay {replay_file}: {error}", err=True)
                        raise typer.Exit(2)
                    report = replay(the_engine, scenario, options)
                else:
                    report = check(the_engine, options)
        except (ValueError, EngineStartError) as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        report.show_trail = trail
        if junit:
            write_junit(junit, [report])
        if json_out:
            typer.echo(json.dumps(report.to_json(), indent=2))
        else:
            typer.echo(report.text())
        raise typer.Exit(exit_code(report))


#: Exit codes of ``referee check``: pass, divergence, usage error, engine fault, model defect.
EXIT_PASS, EXIT_DIVERGENCE, EXIT_USAGE, EXIT_ENGINE_FAULT, EXIT_MODEL = 0, 1, 2, 3, 4


def exit_code(report) -> int:
    """0 pass; 1 the engine disagrees with the model; 2 an invalid input scenario (``--replay``);
    3 an engine fault (a non-deterministic engine is one); 4 the model could not run a scenario."""
    if report.ok:
        return EXIT_PASS
    if report.status in ("fault", "nondeterministic"):
        return EXIT_ENGINE_FAULT
    if report.status == "model-error":
        return EXIT_USAGE if report.error.startswith("invalid scenario") else EXIT_MODEL
    return EXIT_DIVERGENCE


def _command_words(python, engine, examples, kinds, compare_mode, fields, events, ruleset, max_actions,
                   timeout: float = 5.0, batch: int = 32, in_process: bool = False) -> str:
    words = ["referee", "check"]
    if python:
        words += ["--python", python]
    if engine:
        words += ["--engine", engine]
    if timeout != 5.0:
        words += ["--timeout", f"{timeout:g}"]
    if batch != 32:
        words += ["--batch", str(batch)]
    if in_process:
        words += ["--in-process"]
    words += ["--examples", str(examples)]
    if kinds:
        words += ["--kinds", kinds]
    if compare_mode != "full":
        words += ["--compare", compare_mode]
    if fields:
        words += ["--fields", fields]
    if events:
        words += ["--events", events]
    for item in ruleset or []:
        words += ["--ruleset", item]
    if max_actions != 2:
        words += ["--max-actions", str(max_actions)]
    return shlex.join(words)

