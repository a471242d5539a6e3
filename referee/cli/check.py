"""``referee check``: differential testing of an engine against the model."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import typer

from ..check.plan import state_locations  # noqa: F401  (its one definition; callers import it from here)

from ..check import interrupts
from ..vectors import require_coverage  # noqa: F401  (--stats is handed its reachable set)


def parse_rules(options: list[str] | None) -> dict[str, object]:
    """``--ruleset name=value`` pairs to each rulebook's readings (by the rulebook that owns the name);
    the one parser of every command's ``--ruleset`` (``referee.rulebooks.parse_rule_words``)."""
    from ..rulebooks import parse_rule_words

    return parse_rule_words(options)


def register(app: typer.Typer) -> None:
    from ..check.options import CHECK, typer_command

    app.command("check")(typer_command(CHECK, check_command))


def _usage_exit(message: str, verb: str = "check") -> typer.Exit:
    """Print a usage error (exit 2); the exception to raise."""
    typer.echo(f"referee {verb}: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


def check_command(given: dict) -> None:
    """Check an engine against the model on generated scenarios; shrink and explain the first mismatch."""
    from ..check.options import CHECK

    settings = settings_of(CHECK, given)
    if settings["kinds"] is not None and not settings["kinds"]:
        raise typer.Exit(_probe(settings))
    engine_spec, options = _plan(settings)
    _check_outputs(settings, options)
    the_engine = _make(engine_spec)
    hypothesis_home(options.state_dir)
    progress = _progress_bar(bool(settings["json"]))
    options.progress = progress.update if progress else None
    if options.seed is None:  # chosen here, so that a run stopped at any point still prints it
        import random

        options.seed = random.SystemRandom().randrange(2**32)
    report = _run(the_engine, engine_spec, options, settings["replay"], progress)
    report.show_trail = bool(settings["trail"])
    _write_reports(report, settings, options)
    code = exit_code(report)
    if settings["require_coverage"] and code == EXIT_PASS and not settings["replay"]:
        code = _require_coverage(report, options, bool(settings["json"]))
    if report.status == "interrupted" or interrupts.received() is not None:
        interrupts.mark_reported()  # the seed, the counts and the replay command are printed
    raise typer.Exit(code)


def _probe(settings) -> int:
    """``kinds = []``, an engine that implements no action kind yet: the probe of ``referee.check.probe`` (exit 0
    when every answer follows the protocol, 3 on an engine fault)."""
    from ..check.plan import engine_spec
    from ..check.probe import describe, run_probe

    spec = engine_spec(settings)
    the_engine = _make(spec)
    report = run_probe(the_engine, spec.name or getattr(the_engine, "name", None) or spec.engine or spec.python)
    if settings["json"]:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo(describe(report))
    return EXIT_PASS if report.ok else EXIT_ENGINE_FAULT


def _require_coverage(report, options, json_out: bool) -> int:
    """``--require-coverage``: exit 5 naming every clause reachable under the profile the run never exercised."""
    from ..vectors.require_coverage import EXIT_NOT_COVERED, describe, unexercised

    missing = unexercised(report, options.kinds, options.features, options.max_actions, options.state_dir)
    if not missing:
        return EXIT_PASS
    typer.echo(describe(missing, report.stats.scenarios if report.stats else 0), err=json_out)
    return EXIT_NOT_COVERED


def settings_of(verb: str, given: dict):
    """The settings of ``verb``: the flags ``given``, else the config file, else the defaults (the database: else
    ``REFEREE_DATABASE``); exit 2 on a bad file."""
    from ..check.config import load_config
    from ..check.databases import with_environment
    from ..check.options import resolve

    try:
        return with_environment(resolve(verb, given, load_config(verb=verb)))
    except ValueError as error:  # a ConfigError, or a flag's value that names nothing
        raise _usage_exit(str(error), verb) from None


def _plan(settings):
    """The engine and the options of the run, every value checked (exit 2 on a bad one)."""
    from ..check.harness import GENERATIONS
    from ..check.plan import check_plan

    values = settings.values
    problem = usage_problem(examples=values["examples"], batch=values["batch"], max_actions=values["max_actions"],
                            backend=values["backend"], max_divergences=values["max_divergences"])
    if problem is None and values["generation"] not in GENERATIONS:
        problem = f"--generation {values['generation']!r}: expected one of {', '.join(GENERATIONS)}"
    if problem is None and values["workers"] < 1:
        problem = f"--workers {values['workers']}: expected a whole number >= 1"
    if problem is None and values["backend"] != "hypothesis" and not values["python"]:
        problem = "--backend crosshair needs a --python engine"
    if problem:
        raise _usage_exit(problem)
    try:
        return check_plan(settings, Path.cwd())
    except ValueError as error:
        raise _usage_exit(str(error)) from None


def _make(engine_spec):
    """The engine (not started); exit 2 on a bad choice."""
    try:
        return engine_spec.make()
    except ValueError as error:
        raise _usage_exit(str(error)) from None


def _run(the_engine, engine_spec, options, replay_file: str | None, progress):
    """Run the check (or replay one stored scenario; or spread over --workers processes, each making the engine
    again: ``referee.check.workers``); its report. Exit 2 on a usage error found while running."""
    from ..engines.transports import EngineStartError
    from ..check.harness import check, interrupted_report, replay

    try:
        with the_engine:
            if replay_file:
                return replay(the_engine, _replay_scenario(replay_file), options)
            if options.workers > 1:
                from ..check.workers import check_workers

                return check_workers(engine_spec.make, options, options.workers)
            with progress or _nothing():
                return check(the_engine, options)
    except (ValueError, EngineStartError) as error:
        raise _usage_exit(str(error)) from None
    except KeyboardInterrupt:  # a signal outside the run's own handling (starting or closing the engine)
        return interrupted_report(the_engine, options)


def _replay_scenario(replay_file: str) -> dict:
    """The scenario of ``--replay FILE``, decoded as the protocol reads it: a file that is no scenario (its
    ``actions`` a number) is a usage error naming the file and the field, as ``referee explain`` names it,
    never a run the model "could not run"."""
    from ..protocol import ProtocolError, decode_scenario

    try:
        scenario = read_replay(replay_file)
        decode_scenario({**scenario, "id": "replay"})
    except ProtocolError as error:
        raise _usage_exit(f"--replay {replay_file}: invalid scenario: {error}") from None
    except ValueError as error:
        raise _usage_exit(f"--replay {error}") from None
    return scenario


def _check_outputs(settings, options) -> None:
    """Every file the run will write (``--junit``, ``--html``, the state folder), checked writable before the
    first scenario: a usage error naming the path (exit 2)."""
    from .outputs import first_problem

    problem = first_problem([("--junit", settings["junit"]), ("--html", settings["html"])], options.state_dir)
    if problem:
        raise _usage_exit(problem)


def _write_reports(report, settings, options) -> None:
    """The report on standard output (JSON or text), then the JUnit and HTML files asked for: a file that cannot
    be written is one warning after the report, never its loss (the exit code stays the verdict's)."""
    if settings["json"]:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo(report.text())
    for warning in _write_files(report, settings):
        typer.echo(f"referee check: warning: {warning} (the report above is the run's; the exit code its verdict's)",
                   err=True)
    unkept = _unkept_failure(report, options, bool(settings["replay"]))
    if unkept:
        typer.echo(unkept, err=True)


def _write_files(report, settings) -> list[str]:
    """Write the ``--junit`` and ``--html`` files asked for, both from the one report model; the warning of each
    that could not be built or written (never an exception: the verdict is already printed)."""
    from ..report.files import write_report_files

    return write_report_files(report, html=settings["html"], junit=settings["junit"])


def _unkept_failure(report, options, replaying: bool) -> str | None:
    """The warning of a failure whose failure file could not be written (a state folder read-only, full, a file):
    what was not written (the failure file; the example database's entry too when it is a folder that cannot be
    written either), and the command that still replays it."""
    from ..check.harness import failures_dir
    from .outputs import folder_problem

    if replaying or report.scenario is None or not report.replay or "--replay " in report.replay:
        return None
    folder = failures_dir(options)
    why = folder_problem("the failures folder", folder) or f"the failures folder {folder}: the write failed"
    database = _database_problem(options.database)
    lost = "neither the failure file nor the example database's entry was" if database else "the failure file was not"
    after = ("" if database else " (the example database keeps it)" if options.database
             else " (and no example database keeps it: --database '')")
    return (f"referee check: warning: {lost} written ({why}{'; ' + database if database else ''}): "
            f"`referee explain` and `--replay` have no file to read{after}; the failure is replayed by its seed alone: "
            f"{report.replay}")


def _database_problem(database: str | None) -> str | None:
    """Why a folder example database cannot be written, or None (a Redis server's writes are its own, and a
    server that failed mid-run says so itself: ``referee.check.databases.DegradingDatabase``)."""
    from ..check.databases import is_redis
    from .outputs import folder_problem

    if not database or is_redis(database):
        return None
    return folder_problem("the example database", Path(database))


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
    from ..vectors.files import read_json

    data = read_json(Path(path))
    if isinstance(data, dict) and "protocol" not in data and isinstance(data.get("scenario"), dict):
        data = data["scenario"]  # a vector: {scenario, expected, clauses}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a scenario (a JSON object), got a JSON {type(data).__name__}")
    return data


BACKENDS = ("hypothesis", "crosshair")


def usage_problem(*, examples: int, batch: int, max_actions: int, backend: str, max_divergences: int = 1) -> str | None:
    """What is wrong with the numeric and named options of ``check`` (a usage error, exit 2), or None."""
    for name, value in (("--examples", examples), ("--batch", batch), ("--max-actions", max_actions),
                        ("--max-divergences", max_divergences)):
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
