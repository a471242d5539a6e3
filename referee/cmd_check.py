"""``referee check``: differential testing of an engine against the model."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Optional

import typer


from . import interrupts
from .engines import DEFAULT_ENGINE_BUDGET


def parse_rules(options: list[str] | None) -> dict[str, object]:
    """``--ruleset name=value`` pairs to each rulebook's readings (by the rulebook that owns the name);
    the one parser of every command's ``--ruleset`` (``referee.rulebooks.parse_rule_words``)."""
    from .rulebooks import parse_rule_words

    return parse_rule_words(options)


def write_junit(path: str, reports: list, suite: str = "referee check") -> None:
    """JUnit XML: one test case per report (per action kind or per run)."""
    from xml.sax.saxutils import escape, quoteattr

    from .junit import xml_text

    cases = [(r, g) for r in reports for g in (r.groups or [None])]
    failures = sum(1 for r, g in cases if (g is None and not r.ok) or (g is not None and g.known is None))
    seconds = sum(r.seconds for r in reports)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f"<testsuites><testsuite name={quoteattr(suite)} tests=\"{len(cases)}\" failures=\"{failures}\" "
        f'time="{seconds:.3f}">',
    ]
    for r, group in cases:
        if group is not None:  # --keep-going: one test case per distinct divergence
            name = quoteattr(xml_text(f"{r.engine} [{group.key}]", 1000))
            lines.append(f'<testcase classname="referee.check" name={name} time="0">')
            if group.known is not None:
                lines.append(f"<skipped message={quoteattr(xml_text('known: ' + group.known.reason, 1000))}/>")
            else:
                detail = group.divergences[0].describe() if group.divergences else group.key
                body = f"{detail}\nscenario: {json.dumps(group.scenario)}\nreplay: {group.replay}"
                lines.append(f"<failure message={quoteattr(xml_text(detail, 1000))}>{escape(xml_text(body))}</failure>")
            lines.append("</testcase>")
            continue
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
        path: Optional[list[str]] = typer.Option(
            None, "--path", help="a folder to import the --python module from (repeatable; the current directory is always searched)"
        ),
        examples: Optional[int] = typer.Option(None, "--examples", "-n", help="scenarios to check [default: 500]"),
        seed: Optional[int] = typer.Option(None, "--seed", help="random seed (printed when not given)"),
        kinds: Optional[str] = typer.Option(None, "--kinds", help="action kinds to draw, comma-separated (default: all)"),
        features: Optional[str] = typer.Option(
            None, "--features", help="only these features may be drawn, comma-separated (default: all; see referee features)"
        ),
        without: Optional[str] = typer.Option(
            None, "--without", help="features the engine does not implement: never drawn, comma-separated"
        ),
        swarm: bool = typer.Option(False, "--swarm", help="swarm testing: each scenario draws a random subset of the features"),
        stats: bool = typer.Option(False, "--stats", help="count per feature, event and clause the scenarios exercising it"),
        keep_going: bool = typer.Option(
            False, "--keep-going", help="go on after a divergence: report every distinct one, each shrunk"
        ),
        max_divergences: int = typer.Option(20, "--max-divergences", help="with --keep-going: stop after this many"),
        workers: int = typer.Option(1, "--workers", help="processes on disjoint scenario streams, one merged report"),
        known: Optional[str] = typer.Option(
            None, "--known", help="known divergences (TOML [[known]]; default: referee-known.toml, or the config's known)"
        ),
        strict_known: bool = typer.Option(False, "--strict-known", help="a known divergence that matched nothing fails"),
        compare_mode: str = typer.Option("full", "--compare", help="full | state | fields"),
        fields: Optional[str] = typer.Option(None, "--fields", help="unit fields for --compare fields: a,b,c"),
        events: Optional[str] = typer.Option(None, "--events", help="all | none | name,name (compare only these events)"),
        event_fields: Optional[str] = typer.Option(
            None, "--event-fields", help="compare only these event fields: name,unit,amount,other,detail (name required)"
        ),
        event_order: str = typer.Option("strict", "--event-order", help="strict | per-unit | multiset"),
        ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help="a ruleset option name=value (repeatable)"),
        max_actions: int = typer.Option(2, "--max-actions", help="actions per scenario (1..N)"),
        timeout: Optional[float] = typer.Option(
            None, "--timeout", help="seconds per scenario before the engine counts as hung (> 0) [default: 5]"
        ),
        batch: Optional[int] = typer.Option(None, "--batch", help="scenarios per batch sent to a JSON-lines engine [default: 32]"),
        engine_budget: float = typer.Option(
            DEFAULT_ENGINE_BUDGET, "--engine-budget", help="seconds the whole run may wait on the engine, in all"
        ),
        in_process: bool = typer.Option(
            False, "--in-process", help="call the --python engine in this process (faster; its os._exit is caught as a crash, but a signal killing the process ends the run)"
        ),
        json_out: bool = typer.Option(False, "--json", help="print the report as JSON"),
        trail: bool = typer.Option(False, "--trail", help="print the model's whole clause trail up to the divergence "
                                   "(by default: the explain steps around it; --json always has both)"),
        junit: Optional[str] = typer.Option(None, "--junit", help="write a JUnit XML report to FILE"),
        html: Optional[str] = typer.Option(
            None, "--html", help="write the run as one self-contained web page to FILE (verdict, groups, coverage)"
        ),
        database: Optional[str] = typer.Option(
            None, "--database", help="Hypothesis example database: a directory, or redis://HOST:PORT/DB shared by a campaign's "
            "workers ('' for none; default: STATE_DIR/examples)"
        ),
        state_dir: str = typer.Option(
            ".referee", "--state-dir", help="the folder everything written goes to: examples/, failures/, hypothesis/ ('' for none: "
            "failing scenarios go to the system's temporary folder)"
        ),
        backend: str = typer.Option("hypothesis", "--backend", help="hypothesis | crosshair (Python engines)"),
        generation: str = typer.Option(
            "seeded", "--generation", help="seeded (Hypothesis draws one seed per batch; fast) | hypothesis (every "
            "choice drawn by Hypothesis; the generator before 2026-12); docs/performance.md"
        ),
        replay_file: Optional[str] = typer.Option(None, "--replay", help="run one stored scenario (JSON file) instead"),
        require_coverage: bool = typer.Option(
            False, "--require-coverage", help="fail (exit 5) when a clause reachable under the --kinds/--features "
            "profile was never exercised, naming it (config: require_coverage)"),
    ) -> None:
        """Check an engine against the model on generated scenarios; shrink and explain the first mismatch."""
        from .compare import Comparison
        from .config import ConfigError, load_config
        from .engines import EngineStartError, make_engine
        from .harness import GENERATIONS, CheckOptions, check, interrupted_report, replay
        from .rulebooks import resolve_features

        try:
            config = load_config()
        except ConfigError as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        python, engine = (python, engine) if (python or engine) else (config.get("python"), config.get("engine"))
        examples, timeout, batch = config.get("examples", examples), config.get("timeout", timeout), config.get("batch", batch)
        examples = 500 if examples is None else examples
        timeout = 5.0 if timeout is None else float(timeout)
        batch = 32 if batch is None else batch
        seed = config.get("seed", seed)
        ruleset = config.ruleset_pairs(ruleset)
        try:
            known_entries = _known_entries(known, config)
        except ValueError as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        keep_going = keep_going or bool(config.get("keep_going")) or bool(known_entries)
        require_coverage = require_coverage or bool(config.get("require_coverage"))

        problem = usage_problem(examples=examples, batch=batch, max_actions=max_actions, backend=backend)
        if workers < 1:
            problem = f"--workers {workers}: expected a whole number >= 1"
        if problem:
            typer.echo(f"referee check: {problem}", err=True)
            raise typer.Exit(2)
        if generation not in GENERATIONS:
            typer.echo(f"referee check: --generation {generation!r}: expected one of {', '.join(GENERATIONS)}", err=True)
            raise typer.Exit(2)
        if backend != "hypothesis" and not python:
            typer.echo("referee check: --backend crosshair needs a --python engine", err=True)
            raise typer.Exit(2)
        try:
            comparison = Comparison.from_options(compare_mode, fields, events, event_fields, event_order)
            chosen_rules = parse_rules(ruleset)
            kind_words = config.words("kinds", kinds)
            chosen_kinds = tuple(kind_words) if kind_words else None
            chosen_features = resolve_features(config.words("features", features), config.words("without", without))
            # CrossHair runs the engine symbolically: it must be called in this process.
            the_engine = make_engine(python, engine, timeout, batch, engine_budget=engine_budget,
                                     in_process=in_process or backend != "hypothesis", paths=path or ())
            if config.get("name"):
                from .engines import identity_of

                the_engine.identity = identity_of(the_engine, config.get("name"))
        except ValueError as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        database, kept_state = state_locations(database, state_dir)
        hypothesis_home(kept_state)
        command = _command_words(python, engine, examples, ",".join(chosen_kinds) if chosen_kinds else None, compare_mode,
                                 fields, events, ruleset, max_actions, timeout=timeout, batch=batch, in_process=in_process,
                                 features=features, without=",".join(config.words("without", without) or []) or None,
                                 swarm=swarm, event_words=comparison.cli_words(),
                                 stored=_stored_words(database, state_dir, path), keep_going=keep_going,
                                 max_divergences=max_divergences, generation=generation)
        progress = _progress_bar(json_out)
        options = CheckOptions(
            examples=examples,
            seed=seed,
            kinds=chosen_kinds,
            max_actions=max_actions,
            comparison=comparison,
            rules=chosen_rules,
            database=database or None,
            backend=backend,
            generation=generation,
            command=command,
            features=chosen_features,
            swarm=swarm,
            stats=stats or require_coverage,  # the clauses a run exercised, counted as --stats counts them
            keep_going=keep_going,
            max_divergences=max_divergences,
            known=known_entries,
            strict_known=strict_known,
            progress=progress.update if progress else None,
            state_dir=kept_state,
        )
        if options.seed is None:  # chosen here, so that a run stopped at any point still prints it
            import random

            options.seed = random.SystemRandom().randrange(2**32)
        try:
            with the_engine:
                if replay_file:
                    try:
                        scenario = read_replay(replay_file)
                    except ValueError as error:
                        typer.echo(f"referee check: --replay {error}", err=True)
                        raise typer.Exit(2)
                    report = replay(the_engine, scenario, options)
                elif workers > 1:
                    report = _check_workers(python, engine, timeout, batch, engine_budget, in_process, path,
                                            _with_command(options, f"{command} --workers {workers}"), workers)
                else:
                    with progress or _nothing():
                        report = check(the_engine, options)
        except (ValueError, EngineStartError) as error:
            typer.echo(f"referee check: {error}", err=True)
            raise typer.Exit(2)
        except KeyboardInterrupt:  # a signal outside the run's own handling (starting or closing the engine)
            report = interrupted_report(the_engine, options)
        report.show_trail = trail
        if junit:
            write_junit(junit, [report])
        if html:
            from .html_report import write_html

            try:
                write_html(html, report)
            except OSError as error:
                typer.echo(f"referee check: --html {html}: cannot write: {error}", err=True)
                raise typer.Exit(2)
        if json_out:
            typer.echo(json.dumps(report.to_json(), indent=2))
        else:
            typer.echo(report.text())
        code = exit_code(report)
        if require_coverage and code == EXIT_PASS and not replay_file:
            code = _require_coverage(report, chosen_kinds, chosen_features, max_actions, kept_state, json_out)
        if report.status == "interrupted" or interrupts.received() is not None:
            interrupts.mark_reported()  # the seed, the counts and the replay command are printed
        raise typer.Exit(code)


def _require_coverage(report, kinds, features, max_actions: int, state_dir: str | None, json_out: bool) -> int:
    """``--require-coverage``: exit 5 naming every clause reachable under the profile the run never exercised."""
    from .require_coverage import EXIT_NOT_COVERED, describe, unexercised

    missing = unexercised(report, kinds, features, max_actions, state_dir)
    if not missing:
        return EXIT_PASS
    typer.echo(describe(missing, report.stats.scenarios if report.stats else 0), err=json_out)
    return EXIT_NOT_COVERED


def _check_workers(python, engine, timeout, batch, engine_budget, in_process, path, options, workers: int):
    """``--workers N``: the engine made again in each worker process (``referee.workers``)."""
    from functools import partial

    from .engines import make_engine
    from .workers import check_workers

    make = partial(make_engine, python, engine, timeout, batch, engine_budget=engine_budget, in_process=in_process,
                   paths=tuple(path or ()))
    return check_workers(make, options, workers)


def _with_command(options, command: str):
    from dataclasses import replace

    return replace(options, command=command)


def _known_entries(path: str | None, config) -> list:
    """The known divergences: ``--known FILE``, else ``referee-known.toml`` here, else the config's ``known``."""
    from .groups import load_known, parse_known

    if path is not None:
        return load_known(Path(path))
    if Path("referee-known.toml").is_file():
        return load_known(Path("referee-known.toml"))
    if config.get("known") is not None:
        return parse_known(config.get("known"), f"{config.source}")
    return []


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _ProgressBar:
    """A Rich progress bar on stderr (scenarios, rate, elapsed, failures found), only on a terminal."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("referee check"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]:.0f}/s"), TimeElapsedColumn(),
                            TextColumn("failures: {task.fields[failures]}"), console=Console(stderr=True),
                            transient=True)
        self.task = None
        self.failures = 0

    def __enter__(self) -> "_ProgressBar":
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)

    def update(self, done: int, total: int, failed: int) -> None:
        if self.task is None:
            self.task = self.bar.add_task("check", total=total, rate=0.0, failures=0)
        self.failures += failed
        elapsed = self.bar.tasks[0].elapsed or 1e-9
        self.bar.update(self.task, completed=min(done, total), rate=done / elapsed, failures=self.failures)


def _progress_bar(json_out: bool) -> _ProgressBar | None:
    """A progress bar when stderr is a terminal and the output is for people; nothing when piped or --json."""
    return _ProgressBar() if sys.stderr.isatty() and not json_out else None


def read_replay(path: str) -> dict:
    """The scenario of a ``--replay`` file: a replay file (``.json`` or its one-line ``.jsonl``), a bare
    scenario or a conformance vector (its ``scenario``); a ValueError naming the file otherwise
    (unreadable, not JSON, nested too deep, not an object)."""
    from .vector_files import read_json

    data = read_json(Path(path))
    if isinstance(data, dict) and "protocol" not in data and isinstance(data.get("scenario"), dict):
        data = data["scenario"]  # a vector: {scenario, expected, clauses}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a scenario (a JSON object), got a JSON {type(data).__name__}")
    return data


BACKENDS = ("hypothesis", "crosshair")


def usage_problem(*, examples: int, batch: int, max_actions: int, backend: str) -> str | None:
    """What is wrong with the numeric and named options of ``check`` (a usage error, exit 2), or None."""
    for name, value in (("--examples", examples), ("--batch", batch), ("--max-actions", max_actions)):
        if value < 1:
            return f"{name} {value}: expected a whole number >= 1"
    if backend not in BACKENDS:
        return f"--backend {backend!r}: expected one of {', '.join(BACKENDS)}"
    return None


#: Exit codes of ``referee check``: pass, divergence, usage error, engine fault, model defect.
EXIT_PASS, EXIT_DIVERGENCE, EXIT_USAGE, EXIT_ENGINE_FAULT, EXIT_MODEL = 0, 1, 2, 3, 4
#: Ctrl-C: the report so far is printed, with the seed and the command that replays the run.
EXIT_INTERRUPTED = 130


def exit_code(report) -> int:
    """0 pass; 1 the engine disagrees with the model; 2 an invalid input scenario (``--replay``);
    3 an engine fault (a non-deterministic engine is one); 4 the model could not run a scenario."""
    if report.ok:
        return EXIT_PASS
    if report.status == "interrupted":
        return EXIT_INTERRUPTED
    if report.status == "stale-known":
        return EXIT_DIVERGENCE
    if report.status in ("fault", "nondeterministic"):
        return EXIT_ENGINE_FAULT
    if report.status == "model-error":
        return EXIT_USAGE if report.error.startswith("invalid scenario") else EXIT_MODEL
    return EXIT_DIVERGENCE


def hypothesis_home(state_dir: str | None) -> None:
    """Hypothesis' own files (its constants cache) go to ``STATE_DIR/hypothesis``, or to the system's temporary
    folder without a state dir: by default Hypothesis writes ``.hypothesis/`` into the current directory."""
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(Path(state_dir) / "hypothesis" if state_dir else Path(tempfile.gettempdir()) / "referee-hypothesis")


def state_locations(database: str | None, state_dir: str) -> tuple[str, str | None]:
    """The example database and the state folder for failures. ``--database`` defaults to
    ``STATE_DIR/examples``; ``--state-dir ''``, or ``--database ''`` with the default state dir,
    writes nothing into the current directory (failing scenarios go to the temporary folder)."""
    if database is None:
        database = str(Path(state_dir) / "examples") if state_dir else ""
    if not state_dir or (database == "" and state_dir == ".referee"):
        return database, None
    return database, state_dir


def _stored_words(database: str | None, state_dir: str, paths: list[str] | None) -> list[str]:
    """``--state-dir``, ``--database`` and ``--path`` as given (kept by the replay command)."""
    words = []
    for folder in paths or []:
        words += ["--path", folder]
    if state_dir != ".referee":
        words += ["--state-dir", state_dir]
    if database is not None and database != str(Path(state_dir) / "examples"):
        words += ["--database", database]
    return words


def _command_words(python, engine, examples, kinds, compare_mode, fields, events, ruleset, max_actions,
                   timeout: float = 5.0, batch: int = 32, in_process: bool = False, features: str | None = None,
                   without: str | None = None, swarm: bool = False, event_words: list[str] | None = None,
                   stored: list[str] | None = None, keep_going: bool = False, max_divergences: int = 20,
                   generation: str = "seeded") -> str:
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
    if features:
        words += ["--features", features]
    if without:
        words += ["--without", without]
    if swarm:
        words += ["--swarm"]
    if generation != "seeded":
        words += ["--generation", generation]
    if keep_going:  # the seed alone reproduces the first divergence only; the groups need the run that went on
        words += ["--keep-going"] + (["--max-divergences", str(max_divergences)] if max_divergences != 20 else [])
    if compare_mode != "full":
        words += ["--compare", compare_mode]
    if fields:
        words += ["--fields", fields]
    if events:
        words += ["--events", events]
    words += event_words or []
    for item in ruleset or []:
        words += ["--ruleset", item]
    if max_actions != 2:
        words += ["--max-actions", str(max_actions)]
    return shlex.join(words + list(stored or []))

