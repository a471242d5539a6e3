"""``referee vectors export DIR [--release]``, ``referee vectors run DIR --engine CMD``, ``check-receipt`` and
``check-release``."""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path
from typing import Any

import typer


def register(app: typer.Typer) -> None:
    from ..check.options import EXPORT, RUN, typer_command

    vectors_app = typer.Typer(help="Conformance vectors: export them, or replay them through an engine.", no_args_is_help=True)
    app.add_typer(vectors_app, name="vectors")
    export_folder = inspect.Parameter("folder", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str, default=typer.Argument(
        ..., metavar="FOLDER", help="the folder to write (manifest.json and one file per vector)"))
    run_folder = inspect.Parameter("folder", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Path, default=typer.Argument(
        ..., metavar="FOLDER", help="a folder written by `referee vectors export`"))
    vectors_app.command("export")(typer_command(EXPORT, export_command, [export_folder]))
    vectors_app.command("run")(typer_command(RUN, run_command, [run_folder]))
    vectors_app.command("check-receipt")(check_receipt_command)
    vectors_app.command("check-release")(check_release_command)


def _usage_exit(verb: str, message: str) -> typer.Exit:
    typer.echo(f"referee {verb}: {message}", err=True)
    return typer.Exit(2)


def export_command(given: dict, folder: str) -> None:
    """Find a vector for every branch of every modeled clause (Z3), add the boundary cases, write them."""
    from ..check.config import ConfigError, load_config
    from ..check.options import EXPORT, resolve
    from ..check.plan import selection
    from ..vectors.files import VectorFileError, previous_paths, remove_stale
    from ..vectors.readings import declared_readings
    from ..vectors.suite import VECTORS_FORMAT, Selection, export, generate

    try:  # before minutes of generation: a destination, a setting or a reading that cannot be used is a usage error
        settings = resolve(EXPORT, given, load_config(verb=EXPORT))
        kinds, features = selection(settings)
        chosen = Selection(frozenset(kinds) if kinds else None, features)
        readings = declared_readings(settings["ruleset"])
        declaration = _release_declaration(settings, readings) if settings["release"] else None
        folder = _export_destination(folder, declaration)
    except (VectorFileError, ConfigError, ValueError) as error:
        raise _usage_exit(EXPORT, str(error)) from None
    say = (lambda text: None) if settings["quiet"] else (lambda text: typer.echo(text, err=True))
    generated = generate(progress=say, only=settings["only"], profile=chosen if chosen != Selection() else None)
    old = previous_paths(folder, VECTORS_FORMAT)
    manifest = export(folder, generated, chosen, readings)
    _say_exported(folder, manifest, readings)
    stale = remove_stale(folder, old, {e["path"] for e in manifest["vectors"]})
    if stale:
        typer.echo(f"  removed {len(stale)} vectors of the previous export that the new manifest does not list")
    unknown = _print_branches(manifest)
    if declaration is not None:
        _write_release(folder, manifest, declaration)
    if unknown:
        typer.echo("unknown branches (no answer within the resource limit):", err=True)
        for branch in unknown:
            typer.echo(f"  {branch}", err=True)
        raise typer.Exit(1)


def _release_declaration(settings: Any, readings: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What an export declared, as ``release.json`` records it (and its name's profile part digests)."""
    from ..vectors.release import declaration_of

    return declaration_of(settings["kinds"], settings["features"], settings["without"], settings["only"], readings)


def _export_destination(folder: str, declaration: dict[str, Any] | None) -> Path:
    """Where the export goes, checked: ``folder``, or with ``--release`` its sub-folder named for the rules and the
    declaration (re-exported in place when it holds a release already)."""
    from ..vectors.files import VectorFileError, check_destination
    from ..vectors.release import check_release_destination, release_name
    from ..vectors.suite import VECTORS_FORMAT

    if declaration is None:
        return check_destination(folder, VECTORS_FORMAT)
    if str(folder).strip() == "":
        raise VectorFileError("the destination folder is empty: name one (for example vectors/)")
    target = check_destination(Path(folder) / release_name(declaration), VECTORS_FORMAT)
    check_release_destination(target)
    return target


def _write_release(folder: Path, manifest: dict[str, Any], declaration: dict[str, Any]) -> None:
    """Write ``release.json``; print the release folder's path (the last line of the output), after a note when
    the parent folder holds other releases (a native runner pointed at it needs exactly one)."""
    from ..vectors.release import other_releases, write_release

    release = write_release(folder, manifest, declaration)
    others = other_releases(folder.parent, folder.name)
    if others:
        typer.echo(f"referee vectors export: note: {folder.parent} holds other releases too ({', '.join(others)}): "
                   "point a native runner at the release folder itself", err=True)
    typer.echo(f"  release {release['name']}: {len(release['files'])} files hashed in release.json")
    typer.echo(str(folder))


def _say_exported(folder: str, manifest: dict, readings: dict[str, dict[str, Any]]) -> None:
    fixed = ", ".join(f"{option}={value}" for options in readings.values() for option, value in options.items())
    typer.echo(f"wrote {len(manifest['vectors'])} vectors to {folder} covering {len(manifest['clauses'])} clauses"
               + (f" under the readings {fixed} (the others: each vector's own)" if fixed else ""))
    if manifest["left_out"]["vectors"]:
        typer.echo(f"  left out {manifest['left_out']['vectors']} vectors outside the selection: "
                   + "; ".join(f"{n} {reason}" for reason, n in manifest["left_out"]["by_reason"].items()))


def run_command(given: dict, folder: Path) -> None:
    """Replay exported vectors through an engine and report per clause."""
    from ..check.options import RUN

    if not os.path.lexists(folder / "manifest.json"):  # there but unreadable (a FIFO, a folder): read_manifest says why
        raise _usage_exit(RUN, f"{folder}/manifest.json not found (run `referee vectors export` first)")
    settings, comparison, chosen, engine_name, run = _run_vectors(given, folder)
    code = _report(run, folder, engine_name, comparison, chosen, bool(settings["json"]), settings["junit"])
    _write_receipt(settings["receipt"], engine_name, chosen, run)
    raise typer.Exit(code)


def _write_receipt(path: str | None, engine_name: str, chosen: Any, run: Any) -> None:
    """``--receipt FILE``, after the report: one that cannot be written is a warning, never the report's loss."""
    from ..vectors.suite import write_receipt
    from .outputs import write_or_warn

    warning = write_or_warn("--receipt", path, lambda to: write_receipt(Path(to), engine_name, chosen, run))
    if warning:
        _warn(f"{warning}; no receipt records this run (`referee vectors check-receipt` has nothing to hold the "
              "folder to)")


def _warn(text: str) -> None:
    """One warning after the report (the exit code stays the verdict's)."""
    typer.echo(f"referee vectors run: warning: {text}", err=True)


def _run_vectors(given: dict, folder: Path):
    """Resolve the settings, make the engine and replay the selected vectors through it (exit 2 on a usage error;
    a signal before the first vector: nothing was checked)."""
    from ..check.config import ConfigError, load_config
    from ..engines.transports import EngineStartError
    from ..check.options import RUN, resolve

    try:
        from ..check.plan import comparison as comparison_of, engine_spec
        from ..vectors.expected import read_expected_failures, settle
        from ..vectors.suite import check_suite, replay, run_selection

        settings = resolve(RUN, given, load_config(verb=RUN))
        if settings["max_restarts"] < 0:
            raise ValueError(f"--max-restarts {settings['max_restarts']}: expected a whole number >= 0")
        _check_outputs(settings)
        chosen = run_selection(settings)
        comparison = comparison_of(settings).under_profile(chosen.features)
        the_engine = engine_spec(settings).make()
        notes = check_suite(folder, settings["ruleset"])  # before the engine starts: the suite is of its readings
        expected = read_expected_failures(settings["expected_failures"], folder)  # and every listed path is in it
        if not settings["json"]:
            for note in notes:
                typer.echo(f"referee vectors run: note: {note}", err=True)
        with the_engine:
            the_engine.start()
            run = replay(folder, the_engine, comparison, chosen, settings["max_restarts"])
    except (ValueError, EngineStartError, ConfigError) as error:
        raise _usage_exit(RUN, str(error)) from None
    except KeyboardInterrupt:  # before the first vector (the replay itself reports what ran)
        from ..check import interrupts

        interrupts.mark_reported()
        typer.echo(f"referee vectors run: interrupted ({interrupts.stopped_by()}) before any vector ran: nothing was "
                   f"checked; rerun: {interrupts.command_line(f'referee vectors run {folder}')}", err=True)
        raise typer.Exit(_interrupted_status()) from None
    run.notes = notes
    run.expected = settle(run, expected) if expected is not None else None
    return settings, comparison, chosen, the_engine.name, run


def _check_outputs(settings: Any) -> None:
    """``--junit`` and ``--receipt`` checked writable before the engine starts (a ValueError naming the path)."""
    from .outputs import first_problem

    problem = first_problem([("--junit", settings["junit"]), ("--receipt", settings["receipt"])])
    if problem:
        raise ValueError(problem)


def check_receipt_command(
    receipt: Path = typer.Argument(..., help="a receipt written by `referee vectors run --receipt`"),
    folder: Path = typer.Argument(..., help="the vectors folder it is a receipt for"),
) -> None:
    """Check that a receipt shows every vector of a folder run (or skipped with a written reason) on these bytes."""
    from ..vectors.files import VectorFileError, read_json
    from ..vectors.suite import check_receipt

    try:
        data = read_json(receipt)
        if not isinstance(data, dict) or not str(data.get("format", "")).startswith("referee-vectors-receipt/"):
            raise VectorFileError(f"{receipt}: not a referee vectors receipt")
        problems = check_receipt(data, folder)
    except VectorFileError as error:
        typer.echo(f"referee vectors check-receipt: {error}", err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(_verdict("check-receipt", problems, f"{receipt} against {folder}"))


def check_release_command(
    folder: Path = typer.Argument(..., help="a release folder written by `referee vectors export DIR --release`, or "
                                            "the folder holding exactly one"),
) -> None:
    """Check a release folder against its release.json: every listed file there with its SHA-256, nothing unlisted."""
    from ..vectors.files import VectorFileError
    from ..vectors.release import check_release, find_release

    try:
        release = find_release(folder)
        problems = check_release(release)
    except VectorFileError as error:
        typer.echo(f"referee vectors check-release: {error}", err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(_verdict("check-release", problems, str(release)))


def _verdict(verb: str, problems: list[str], what: str, shown: int = 50) -> int:
    """Print a check's problems (the first ``shown``, and how many more) and its verdict line; its exit code (0 ok,
    1 a problem)."""
    for problem in problems[:shown]:
        typer.echo(f"  {problem}")
    if len(problems) > shown:
        typer.echo(f"  ... and {len(problems) - shown} more")
    typer.echo(f"referee vectors {verb}: {'FAIL' if problems else 'ok'}: {len(problems)} problems ({what})")
    return 1 if problems else 0


def _print_branches(manifest: dict[str, Any]) -> list[str]:
    """Each rulebook's vectors and branch coverage, as ``vectors export`` prints them; the unknown branches."""
    unknown: list[str] = []
    for name, book in manifest["rulebooks"].items():
        branches = book["branches"]
        if branches is None:
            typer.echo(f"  {name}: {book['vectors']} vectors ({book['method'].split(',')[0]})")
            continue
        typer.echo(
            f"  {name}: {book['vectors']} vectors; branches: {len(branches['covered'])} covered, "
            + (f"{len(branches['left_out'])} left out by the selection, " if branches.get("left_out") else "")
            + (f"{len(branches['not_taken_under_readings'])} taken by no vector under the declared readings, "
               if branches.get("not_taken_under_readings") else "")
            + f"{len(branches['unreachable'])} unreachable (proved by Z3), {len(branches['unknown'])} unknown, "
            + (f"{len(branches['outside_profile'])} taken only outside the profile, "
               if branches.get("outside_profile") else "")
            + f"of {branches['total']}"
        )
        if branches.get("outside_profile"):
            typer.echo(f"    the profile makes {len(branches['outside_profile'])} branches unreachable "
                       f"({len(branches['templates_outside_profile'])} board shapes left out); "
                       f"manifest.json lists them under rulebooks.{name}.branches.outside_profile")
        unknown += branches["unknown"]
    return unknown


#: ``vectors run`` stopped by Ctrl-C: what ran is reported, never a verdict of pass (another signal: 128 + it).
EXIT_INTERRUPTED = 130


def _interrupted_status() -> int:
    from ..check import interrupts

    signum = interrupts.received()
    return EXIT_INTERRUPTED if signum is None else 128 + signum


def _report(run: Any, folder: Path, engine: str, comparison: Any, selection: Any, json_out: bool,
            junit: str | None) -> int:
    """Print a run's results (text or JSON), write its JUnit file; its exit code."""
    from ..vectors.suite import clause_table

    table = clause_table(run.results, run.manifest)
    ran = run.ran()
    if not ran and not run.interrupted:
        typer.echo(f"referee vectors run: no vector ran ({len(run.skipped)} skipped"
                   + (f"; {run.stopped}" if run.stopped else "") + "): nothing was checked", err=True)
        return 2
    if json_out:
        typer.echo(json.dumps({**_identity(engine, folder), **_json_report(run, comparison, selection, table)},
                              indent=2))
    else:
        _print_report(run, folder, engine, comparison, table, selection.features)
    from .outputs import write_or_warn

    warning = write_or_warn("--junit", junit, lambda path: _write_junit(path, {}, table, run.results))
    if warning:
        _warn(f"{warning} (the report above is the run's; the exit code its verdict's)")
    if run.interrupted:
        _say_interrupted(run, folder, err=json_out)
    return _exit_code(run)


def _say_interrupted(run: Any, folder: Path, err: bool) -> None:
    """The last line of an interrupted run: what stopped it, the counts, what was found, how to run it again."""
    from ..check import interrupts

    ran = run.ran()
    bad = [r for r in ran if r.status in ("mismatch", "fault")]
    found = sorted({c for r in bad for c in r.failed_clauses})
    faults = sum(r.status == "fault" for r in bad)
    said = (f"{len(bad) - faults} mismatches" + (f" (at {', '.join(found[:10])})" if found else "")
            + f", {faults} engine faults") if bad else "nothing"
    interrupts.mark_reported()
    typer.echo(f"referee vectors run: INTERRUPTED ({interrupts.stopped_by()}): {len(ran)} vectors ran, "
               f"{sum(r.status == 'pass' for r in ran)} passed, {len(bad)} failed, {len(run.results) - len(ran)} not run; "
               f"found: {said}; rerun: {interrupts.command_line(f'referee vectors run {folder}')}", err=err)


def _exit_code(run: Any) -> int:
    """128 + the signal (130: Ctrl-C): interrupted; 1: some vector diverges, or an expected failure passes now (stale);
    3: no divergence, but the engine faulted or vectors did not run. A known failure (listed by
    ``--expected-failures``) counts as a pass."""
    if run.interrupted:  # before any verdict: what ran is reported, the run is not one
        return _interrupted_status()
    if any(r.status in ("mismatch", "stale") for r in run.results):
        return 1
    return 3 if any(r.status in ("fault", "not run") for r in run.results) else 0


def _identity(engine: str, folder: Path) -> dict[str, Any]:
    """Whose run this is (the ``--json`` report's head, which ``referee report conformance`` checks against the
    check report's): the protocol, this referee's version, the engine, and the release's name when the folder is
    one."""
    from .. import __version__
    from ..protocol import PROTOCOL

    release = None
    if (folder / "release.json").is_file():
        try:
            release = json.loads((folder / "release.json").read_text(encoding="utf-8")).get("name")
        except (OSError, ValueError, AttributeError):
            release = None
    return {"protocol": PROTOCOL, "referee": __version__, "engine": engine, "release": release}


def _json_report(run: Any, comparison: Any, selection: Any, table: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` report: ``failed`` holds every result that is not a plain pass (a ``known`` or ``stale`` one
    with its ``outcome``); ``expected_failures`` what the list came to (None: no list)."""
    failed = [r for r in run.results if r.status in ("mismatch", "fault", "known", "stale")]
    return {
        "compared": comparison.to_json(),
        "vectors": len(run.ran()),
        "not_run": sum(r.status == "not run" for r in run.results),
        "stopped": run.stopped,
        "interrupted": run.interrupted,
        "restarts": run.restarts,
        "selection": selection.to_json(),
        "skipped": len(run.skipped),
        "skipped_by_reason": _by_reason(run.skipped),
        "notes": run.notes,
        "failed": [{"path": r.path, "status": r.status, "detail": r.detail, "clauses": r.clauses,
                    "failed_clauses": r.failed_clauses, "explain": r.explain,
                    **({"outcome": r.outcome} if r.outcome else {})} for r in failed],
        "clauses": table,
        "expected_failures": None if run.expected is None else run.expected.to_json(),
    }


def _print_report(run: Any, folder: Path, engine: str, comparison: Any, table: dict[str, Any],
                  features: frozenset[str] | None = None) -> None:
    from ..check.outcome import describe_steps
    from ..rulebooks import features_compared
    from ..vectors.suite import row_text

    ran, failed = run.ran(), [r for r in run.results if r.status in ("mismatch", "fault")]
    not_run = len(run.results) - len(ran)
    known = sum(r.status == "known" for r in ran)
    typer.echo(f"referee vectors run: {sum(r.status == 'pass' for r in ran)}/{len(ran)} vectors pass"
               + (f", {known} known failures" if known else "")
               + f" ({engine}; compared: {comparison.describe()}; features: {features_compared(features)})")
    if run.stopped:
        typer.echo(f"  STOPPED: {run.stopped}; {not_run} vectors not run (counted nowhere in the table)")
    if run.skipped:
        typer.echo(f"  skipped {len(run.skipped)} vectors outside the selection: "
                   + "; ".join(f"{n} {reason}" for reason, n in _by_reason(run.skipped).items()))
    for clause, row in table.items():
        typer.echo(row_text(clause, row))
    for n, r in enumerate(failed[:20]):
        at = f" [at fault: {r.failed_clauses[0]}]" if r.failed_clauses else ""
        typer.echo(f"  {r.status}: {r.path}{at}: {r.detail}")
        if r.explain and n < 5:
            for line in describe_steps(r.explain):
                typer.echo("  " + line)
            typer.echo(f"      the whole explanation: referee explain {folder / r.path}")
    if len(failed) > 20:
        typer.echo(f"  ... and {len(failed) - 20} more")
    if run.expected is not None:
        _print_expected(run.expected)


def _print_expected(settled: Any) -> None:
    """What ``--expected-failures`` came to: the counts, each known failure, each stale entry (``FILE:LINE: PATH
    passes now: remove it``) and each listed vector that did not run."""
    typer.echo(f"  expected failures ({settled.file}): {len(settled.known)} known, {len(settled.stale)} stale, "
               f"{len(settled.not_run)} not run")
    for line, r in settled.known[:20]:
        at = f" [at fault: {r.failed_clauses[0]}]" if r.failed_clauses else ""
        typer.echo(f"  known ({r.outcome}): {r.path}{at}: {r.detail}")
    if len(settled.known) > 20:
        typer.echo(f"  ... and {len(settled.known) - 20} more known")
    for message in settled.stale_messages():
        typer.echo(f"  stale: {message}")
    for line, path, why in settled.not_run:
        typer.echo(f"  not run: {settled.file}:{line}: {path} ({why})")


def _fail_message(bad: int, ran: int) -> str:
    return f"{bad} of {ran} vectors fail here"


def _by_reason(skipped: list[tuple]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, reason, *_ in skipped:
        counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def _run_cases(results: list) -> list[str]:
    """The failing JUnit cases of the run as a whole: ``engine faults`` (when the engine faulted) and ``expected
    failures`` (when a vector ``--expected-failures`` lists passes now)."""
    from xml.sax.saxutils import escape, quoteattr

    from ..report.junit import xml_text

    faults = [r for r in results if r.status == "fault"]
    stale = [r for r in results if r.status == "stale"]
    cases = []
    if faults:
        text = "\n".join(f"{r.status}: {r.path}: {r.detail}" for r in faults)
        cases.append('<testcase classname="referee.vectors" name="engine faults">'
                     f"<failure message={quoteattr(f'{len(faults)} vectors: engine fault')}>{escape(xml_text(text))}"
                     "</failure></testcase>")
    if stale:
        text = "\n".join(f"stale: {r.path}: passes now: remove it from the expected failures" for r in stale)
        cases.append('<testcase classname="referee.vectors" name="expected failures">'
                     f"<failure message={quoteattr(f'{len(stale)} vectors: stale expected failures')}>"
                     f"{escape(xml_text(text))}</failure></testcase>")
    return cases


def _write_junit(path: str, per_clause: dict[str, list], table: dict[str, Any] | None = None,
                 results: list | None = None) -> None:
    """One test case per clause (``FAIL``: a failure; ``not covered``/``not run``/``known``: skipped) and, when the
    engine faulted, one ``engine faults`` case listing them; when expected failures pass now, one failing
    ``expected failures`` case. ``per_clause`` (clause: its results) stands for ``table``
    and ``results`` when they are not given."""
    from xml.sax.saxutils import escape, quoteattr

    from ..report.junit import xml_text
    from ..vectors.suite import clause_row

    results = results if results is not None else list({id(r): r for rs in per_clause.values() for r in rs}.values())
    table = table if table is not None else {c: clause_row(c, rs, set()) for c, rs in per_clause.items()}
    extra = _run_cases(results)
    failures = sum(row["status"] == "FAIL" for row in table.values()) + len(extra)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<testsuites><testsuite name="referee vectors" tests="{len(table) + len(extra)}" failures="{failures}">']
    for clause, row in sorted(table.items()):
        lines.append(f'<testcase classname="referee.vectors" name={quoteattr(clause)}>')
        bad = [r for r in results if r.fails(clause)]
        if bad:
            text = "\n".join(f"{r.status}: {r.path}: {r.detail}" for r in bad)
            lines.append(f"<failure message={quoteattr(_fail_message(len(bad), row['vectors']))}>"
                         f"{escape(xml_text(text))}</failure>")
        elif row["status"] in ("not covered", "not run", "known"):
            lines.append(f"<skipped message={quoteattr(row['status'])}/>")
        lines.append("</testcase>")
    lines += extra
    lines.append("</testsuite></testsuites>")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")
