"""``referee prove``: run the proof suite and the CrossHair contract checks.

Every theorem is proved, checked for vacuity and run against each of its mutants, each
question in a fresh process (``referee.proofs.runner``). The exit code is 0 only when
every theorem is proved, none is vacuous, every mutant is killed, nothing is unknown and
CrossHair found no counterexample; the output says which check failed and how to rerun it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from referee.check import interrupts
from referee.report.junit import write_junit
from referee.proofs import runner
from referee.proofs.core import Verdict
from referee.specs.proof_record import code_stamp, record_path, write_record

#: Exit codes.
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

_STATUS_STYLE = {
    "proved": "green",
    "satisfiable": "green",
    "killed": "green",
    "confirmed": "green",
    "not confirmed": "yellow",
    "unknown": "yellow",
}


def _style(status: str) -> str:
    return f"[{_STATUS_STYLE.get(status, 'red')}]{status}[/]"


_RECORD_HELP = ("Also save the JSON document here. Default: proofs.json in the state dir (where `referee clauses` "
                "reads 'proved') for a complete run; a -k run is saved only where --record says.")
_STATE_DIR_HELP = ("Where the run is recorded (default: $REFEREE_STATE_DIR when set, else .referee/ at the "
                   "repository root, whatever the current directory; ./.referee/ for a plain install).")
_PATTERN_HELP = "Only theorems whose name or a clause id contains this text (e.g. 500.2 or rounds_up)."
_CACHE = typer.Option(
    None, "--cache", help="The proof cache file (default: proof-cache.json in the state dir). Give a path in the "
    "repository to commit one."
)
_CACHE_MODE = typer.Option(
    "reuse", "--cache-mode", help="reuse: decide only checks whose key is new, store the answers. ci: the same, "
    "listing every check reused or missing, writing nothing, and failing on a missing entry. full: decide every "
    "check again, fail where an answer differs from the cached one, store the answers."
)
_STABILITY = typer.Option(
    0, "--stability", min=0, help="Decide every check again under K perturbations (shuffled assertions, renamed "
    "symbols, solver seeds) and report each check's verdicts and rlimit used (min/median/max)."
)
_RULESET_HELP = (
    "prove under these readings only: a ruleset option name=value (repeatable; every other option at its default, "
    "as an engine is checked). Without it, the engine's declaration (referee.toml's ruleset) when there is one, "
    "else every reading at once."
)
_MARGIN = typer.Option(
    runner.DEFAULT_MARGIN, "--margin", min=0.0, max=1.0, help="A check counts only when its worst rlimit used is "
    "at most this share of its limit."
)


def prove_command(
    json_output: bool = typer.Option(False, "--json", help="Print one JSON document (a record per theorem)."),
    junit: Path | None = typer.Option(None, "--junit", help="Also write JUnit XML (one testcase per theorem) here."),
    jobs: int = typer.Option(min(4, os.cpu_count() or 1), "--jobs", "-j", min=1, help="Questions decided at once (one process each)."),
    pattern: str | None = typer.Option(None, "-k", help=_PATTERN_HELP),
    rlimit: int | None = typer.Option(None, "--rlimit", min=1, help="Z3 resource limit per check, overriding each theorem's own."),
    timeout: float = typer.Option(runner.DEFAULT_TASK_TIMEOUT, "--timeout", min=1, help="Wall-clock safety net per check, in seconds."),
    no_crosshair: bool = typer.Option(False, "--no-crosshair", help="Skip the CrossHair contract checks."),
    record: Path | None = typer.Option(None, "--record", help=_RECORD_HELP),
    no_record: bool = typer.Option(False, "--no-record", help="Do not save the run."),
    state_dir: Path | None = typer.Option(None, "--state-dir", help=_STATE_DIR_HELP),
    cache: Path | None = _CACHE,
    no_cache: bool = typer.Option(False, "--no-cache", help="Decide every check; read and write no cache."),
    cache_mode: str = _CACHE_MODE,
    stability: int = _STABILITY,
    margin: float = _MARGIN,
    ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help=_RULESET_HELP),
) -> None:
    """Prove every theorem (with vacuity and mutant checks) and check the helpers' contracts."""
    err = Console(stderr=True)
    theorems = _selected(pattern, err)
    pinned = _readings(ruleset, err)
    plan = None if no_cache else _cache_plan(cache, state_dir, cache_mode, err)
    options = dict(jobs=jobs, rlimit=rlimit, timeout=timeout, plan=plan, stability=stability, margin=margin,
                   pinned=pinned)
    suite, report = _prove_and_check_contracts(theorems, options, not no_crosshair, err, quiet=json_output)
    if plan is not None and cache_mode != "ci":
        _save_cache(plan, err)
    problems = _all_problems(suite, report, cache_mode)
    if junit is not None:
        _write_junit(junit, suite)
    document = {**_json_document(suite, report, problems, pattern), "code": code_stamp(),
                "readings": pinned or "every reading"}
    if not no_record:  # a run under an engine's readings is partial: it never replaces the every-reading record
        _keep_record(document, record, pattern if not pinned else "--ruleset", state_dir, err)
    if json_output:
        print(json.dumps(document, indent=2))
    else:
        _print_human(_stdout(), suite, report, problems, pattern, jobs, listing=cache_mode == "ci")
    raise typer.Exit(EXIT_FAILED if problems else EXIT_OK)


def _readings(given: list[str] | None, err: Console) -> dict[str, Any]:
    """The readings to prove under: ``--ruleset``'s, else the engine's declaration (``referee.toml``), each over
    every other option's default, exactly as an engine is checked; neither: every reading (``{}``). A bad option,
    reading or file is a usage error naming it."""
    from referee.check.config import ConfigError, load_config
    from referee.check.options import PROVE
    from referee.model.combat.ruleset import Ruleset
    from referee.model.play.rules import PlayRules
    from referee.proofs.readings import OWNERS, defaults

    from .query import parse_fixed_ruleset

    try:
        pairs = given or load_config(verb=PROVE).ruleset_pairs(None)
        if not pairs:
            return {}
        pinned = {**defaults(), **parse_fixed_ruleset(pairs)}
        Ruleset(**{k: v for k, v in pinned.items() if k in OWNERS[Ruleset]}).validate()
        PlayRules(**{k: v for k, v in pinned.items() if k in OWNERS[PlayRules]}).validate()
    except (ConfigError, ValueError, TypeError) as error:
        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        raise typer.Exit(EXIT_USAGE) from None
    return pinned


def _stdout() -> Console:
    """The terminal's own width, or a wide one when the output is piped (a log keeps whole lines)."""
    return Console() if sys.stdout.isatty() else Console(width=200, soft_wrap=True)


def _selected(pattern: str | None, err: Console) -> list[Any]:
    """The theorems ``-k`` selects (every module's import errors said first); none is a usage error."""
    theorems = runner.select(runner.discover().values(), pattern)
    for module, error in runner.IMPORT_ERRORS:
        err.print(f"[red]error:[/] theorem module {module} failed to import: {error}", highlight=False)
    if not theorems:
        err.print(f"[red]error:[/] no theorem matches -k {pattern!r} (by name or clause id); nothing to prove")
        raise typer.Exit(EXIT_USAGE)
    return theorems


def _keep_record(document: dict[str, Any], record: Path | None, pattern: str | None, state_dir: Path | None,
                 err: Console) -> None:
    """Stamp the run with the code it proved and save it: where ``--record`` says, else (a complete run only) in
    the state dir, where `referee clauses` reads 'proved'."""
    if record is None and pattern is None:
        record = record_path(state_dir)  # a partial run must not replace the record of a complete one
    if record is not None:
        _save_record(record, document, err)


def _prove_and_check_contracts(
    theorems: list[Any], options: dict[str, Any], crosshair: bool, err: Console, quiet: bool
) -> tuple[runner.SuiteResult, Any]:
    """Run the proof suite with CrossHair alongside (or its confirmed report reused from the cache)."""
    from referee.proofs import contracts

    plan: runner.CachePlan | None = options["plan"]
    reused = _cached_crosshair(plan) if crosshair and plan is not None and plan.reuse else None
    running = contracts.start_crosshair() if crosshair and reused is None else None
    try:
        suite = _run_with_progress(theorems, options, err, quiet=quiet)
        report = reused if running is None else contracts.finish_crosshair(running)
    except BaseException:  # a signal (or an error) stops the run: CrossHair must not outlive it
        if running is not None:
            running.process.kill()
            running.process.wait()
        raise
    if plan is not None:
        _remember_crosshair(plan, report, reused)
    return suite, report


def _all_problems(suite: runner.SuiteResult, report: Any, cache_mode: str) -> list[str]:
    """Every reason the run fails: imports, checks, margin, stability, cache (ci mode), CrossHair."""
    problems = [f"{module}: import failed: {error}" for module, error in runner.IMPORT_ERRORS]
    problems += suite.problems()
    if cache_mode == "ci" and suite.cache is not None:
        problems += [f"{task}: not in the proof cache (decided in this run)" for task in suite.cache.decided]
    if report is not None and not report.ok:
        problems += _crosshair_problems(report)
    return problems


def _save_record(path: Path, document: dict[str, Any], err: Console) -> None:
    """Save the run for `referee clauses` (atomically); a path that cannot be written is reported, not fatal."""
    try:
        write_record(path, document)
    except OSError as error:
        err.print(f"[yellow]warning:[/] could not record the run in {path}: {error}", highlight=False)


def _cache_plan(path: Path | None, state_dir: Path | None, mode: str, err: Console) -> runner.CachePlan:
    """Load the proof cache (``--cache`` or the state dir's); a bad file or mode is a usage error, named."""
    from referee.proofs.cache import CACHE_NAME, CacheError, ProofCache, code_stamp
    from referee.specs.proof_record import state_dir as default_state_dir

    if mode not in ("reuse", "ci", "full"):
        err.print(f"[red]error:[/] --cache-mode must be reuse, ci or full, not {mode!r}", highlight=False)
        raise typer.Exit(EXIT_USAGE)
    target = path if path is not None else default_state_dir(state_dir) / CACHE_NAME
    try:
        cache = ProofCache.load(target)
    except CacheError as error:
        err.print(f"[red]error:[/] {error}", highlight=False, soft_wrap=True)  # a path is never cut
        raise typer.Exit(EXIT_USAGE) from error
    return runner.CachePlan(cache, code_stamp(), reuse=mode != "full")


def _cached_crosshair(plan: runner.CachePlan) -> Any:
    """The cached CrossHair report when its inputs are unchanged and it confirmed every helper, else ``None``."""
    from referee.proofs import contracts

    slot = plan.cache.crosshair
    if slot.get("key") != contracts.report_key() or "report" not in slot:
        return None
    report = contracts.report_from_record(slot["report"])
    report.reused = True
    return report if contracts.fully_confirmed(report) else None


def _remember_crosshair(plan: runner.CachePlan, report: Any, reused: Any) -> None:
    from referee.proofs import contracts

    if report is not None and reused is None and contracts.fully_confirmed(report):
        plan.cache.crosshair = {"key": contracts.report_key(), "report": contracts.report_record(report)}


def _save_cache(plan: runner.CachePlan, err: Console) -> None:
    try:
        plan.cache.save()
    except OSError as error:
        err.print(f"[yellow]warning:[/] could not save the proof cache {plan.cache.path}: {error}", highlight=False)


def _run_with_progress(theorems: list[Any], options: dict[str, Any], err: Console, quiet: bool) -> runner.SuiteResult:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    total = len(runner.tasks_for(theorems))
    progress = Progress(
        TextColumn("proving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )
    remaining = {thm.name: len(runner.tasks_for([thm])) for thm in theorems}
    announce = not quiet and not err.is_terminal

    def on_verdict(task: runner.Task, verdict: Verdict) -> None:
        interrupts.raise_if_received()  # a stage boundary: a signal whose exception was lost stops the run here
        progress.update(bar, advance=1, description=f"{task} {verdict.status}")
        remaining[task.theorem] -= 1
        if announce and remaining[task.theorem] == 0:
            err.print(f"done: {task.theorem}", highlight=False)

    with progress:
        bar = progress.add_task("", total=total)
        return runner.run(theorems, on_verdict=on_verdict, **options)


def _rerun(name: str) -> str:
    return f"referee prove -k {name} --no-crosshair"


def _print_human(
    out: Console,
    suite: runner.SuiteResult,
    report: Any,
    problems: list[str],
    pattern: str | None,
    jobs: int,
    listing: bool = False,
) -> None:
    out.print(_theorem_table(suite))
    bounded = [r for r in suite.theorems if r.theorem.bound]
    for result in bounded:
        out.print(f"bound: {result.name}: {result.theorem.bound}", highlight=False)
    if report is not None:
        _print_crosshair(out, report)
    for result in suite.theorems:
        _print_counterexamples(out, result)
    summary = _summary(suite, report, pattern, jobs)
    if listing and suite.cache is not None:
        _print_cache_listing(out, suite.cache)
    if suite.stability:
        _print_stability(out, suite)
    out.print(summary + "; " + _margin_and_cache_summary(suite), highlight=False)
    if problems:
        out.print(f"[red]FAILED[/] ({len(problems)} problem{'s' if len(problems) != 1 else ''}):")
        for problem in problems:
            out.print(f"  {problem}", highlight=False, markup=False)
        failing = sorted({r.name for r in suite.theorems if not r.ok})
        for name in failing:
            out.print(f"  rerun: {_rerun(name)}", highlight=False, markup=False)
    else:
        out.print("[green]OK[/]")


def _theorem_table(suite: runner.SuiteResult) -> Table:
    """One row per theorem: its clauses, proof status and time, vacuity, mutants killed."""
    table = Table(title="Proof suite", title_justify="left")
    for column, justify in [
        ("theorem", "left"),
        ("clauses", "left"),
        ("status", "left"),
        ("holds under", "left"),
        ("reads", "right"),
        ("seconds", "right"),
        ("vacuity", "left"),
        ("mutants killed", "right"),
    ]:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for result in suite.theorems:
        mutants = f"{result.killed}/{len(result.mutants)}"
        table.add_row(
            result.name + (" [dim](bounded)[/]" if result.theorem.bound else ""),
            ", ".join(str(c) for c in result.theorem.clauses),
            _style(result.status),
            result.holds_under,
            str(len(result.reads)),
            f"{result.seconds:.2f}",
            _style(result.vacuity.status),
            mutants if result.killed == len(result.mutants) else f"[red]{mutants}[/]",
        )
    return table


def _summary(suite: runner.SuiteResult, report: Any, pattern: str | None, jobs: int) -> str:
    """The summary line's head: the verdicts, the checks and the time, CrossHair's count."""
    killed = sum(r.killed for r in suite.theorems)
    mutants = sum(len(r.mutants) for r in suite.theorems)
    satisfiable = sum(r.vacuity.status == "satisfiable" for r in suite.theorems)
    checks = sum(len(r.checks()) for r in suite.theorems)
    summary = (
        f"{len(suite.theorems)} theorem{'s' if len(suite.theorems) != 1 else ''}: {suite.count('proved')} proved, "
        f"{suite.count('counterexample')} counterexample, {suite.count('unknown')} unknown, "
        f"{len(suite.theorems) - suite.count('proved') - suite.count('counterexample') - suite.count('unknown')} other; "
        f"vacuity {satisfiable}/{len(suite.theorems)} satisfiable; mutants {killed}/{mutants} killed; "
        f"{checks} checks in {suite.seconds:.1f} s with --jobs {jobs}"
        + (f" (selected by -k {pattern})" if pattern else "")
        + "; " + _readings_summary(suite)
    )
    if report is not None:
        summary += f"; CrossHair confirmed {len(report.confirmed())}/{len(report.results)} helpers"
        summary += " (reused)" if report.reused else ""
    return summary


def _readings_summary(suite: runner.SuiteResult) -> str:
    """Under which readings the run proved: every reading (how many theorems read an option, how many are
    claimed with exceptions), or the declared ones (how many theorems are not claimed under them)."""
    pinned = next((r.pinned for r in suite.theorems), {})
    if pinned:
        named = ", ".join(f"{k}={v}" for k, v in sorted(pinned.items()) if k in _non_default(pinned))
        unclaimed = sum(not r.claimed for r in suite.theorems)
        return f"under the declared readings ({named or 'every option at its default'}), {unclaimed} not claimed there"
    reading = sum(bool(r.reads) for r in suite.theorems)
    excepted = sum(bool(r.theorem.unless) for r in suite.theorems)
    return f"over every reading: {reading} read a ruleset option, {excepted} proved except under named readings"


def _non_default(pinned: dict[str, Any]) -> set[str]:
    from referee.proofs.readings import defaults

    return {k for k, v in pinned.items() if defaults().get(k) != v}


def _margin_and_cache_summary(suite: runner.SuiteResult) -> str:
    """The summary line's tail: the worst margin, the checks outside it, the cache's reuse."""
    worst = suite.worst_margin()
    text = "worst margin " + (f"{worst[0]:.1%} of the rlimit ({worst[1]})" if worst else "n/a")
    text += f", {len(suite.outside_margin())} check(s) above the {suite.margin:.0%} margin"
    if suite.cache is None:
        return text + "; cache off"
    use = suite.cache
    return text + f"; cache: {len(use.reused)} reused, {len(use.decided)} decided, {use.stored} stored"


def _print_cache_listing(out: Console, use: runner.CacheUse) -> None:
    """Every check with its cache key, reused or missing (--cache-mode ci)."""
    reused = set(use.reused)
    for task, key in sorted(use.keys.items()):
        out.print(f"cache {'reused' if task in reused else 'missing'} {key[:16]} {task}", highlight=False, markup=False)


def _stability_rows(suite: runner.SuiteResult) -> list[dict[str, Any]]:
    """One row per check: its category, answers and min/median/max rlimit used over the runs."""
    import statistics

    rows = []
    for result in suite.theorems:
        for label, _, verdict in result.checks():
            runs = verdict.extra.get("stability") or []
            used = [r["rlimit_used"] if r["answer"] != "unknown" else verdict.rlimit for r in runs]
            used = [u for u in used if u is not None]
            if not used:
                continue
            rows.append(
                {
                    "check": f"{result.name} {label}",
                    "category": verdict.extra.get("category"),
                    "answers": [r["answer"] for r in runs],
                    "min": min(used),
                    "median": int(statistics.median(used)),
                    "max": max(used),
                    "rlimit": verdict.rlimit,
                    "worst_share": round(max(used) / verdict.rlimit, 4) if verdict.rlimit else None,
                }
            )
    return rows


def _print_stability(out: Console, suite: runner.SuiteResult, shown: int = 15) -> None:
    """Category counts, then the checks not stable or nearest their limit."""
    rows = _stability_rows(suite)
    counts = {c: sum(r["category"] == c for r in rows) for c in ("stable", "unstable", "brittle")}
    out.print(
        f"stability over {suite.stability} perturbation(s) plus the original, {len(rows)} checks: "
        + ", ".join(f"{n} {c}" for c, n in counts.items()),
        highlight=False,
    )
    table = Table(title="Checks not stable, or nearest their limit", title_justify="left")
    for column in ("check", "category", "min", "median", "max", "max/limit"):
        table.add_column(column, justify="left" if column in ("check", "category") else "right")
    worst = sorted(rows, key=lambda r: (r["category"] == "stable", -(r["worst_share"] or 0)))
    for row in worst[:shown]:
        table.add_row(row["check"], _style_category(row["category"]), f"{row['min']:,}", f"{row['median']:,}",
                      f"{row['max']:,}", f"{row['worst_share']:.1%}")
    out.print(table)


def _style_category(category: str) -> str:
    return f"[{'green' if category == 'stable' else 'red'}]{category}[/]"


def _print_counterexamples(out: Console, result: runner.TheoremResult) -> None:
    verdict = result.proof
    if verdict.status in ("counterexample", "encoding-defect") and verdict.counterexample is not None:
        label = "counterexample (replayed through the model)" if verdict.status == "counterexample" else (
            "encoding defect: Z3's counterexample does NOT replay through the model"
        )
        values = ", ".join(f"{k}={v}" for k, v in sorted(verdict.counterexample.items()))
        out.print(f"{result.name}: {label}: {values}", highlight=False, markup=False)
    for mutant in result.mutants:
        if mutant.status == "survived":
            out.print(
                f"{result.name}: mutant {mutant.name} survived ({mutant.description}); the theorem does not see this bug",
                highlight=False,
                markup=False,
            )
    _print_exceptions(out, result)


def _print_exceptions(out: Console, result: runner.TheoremResult) -> None:
    """Each reading the theorem is not claimed under, with the counterexample that confirms it (replayed)."""
    for region, verdict in result.exceptions:
        if verdict.status != "confirmed" or verdict.counterexample is None:
            continue
        inputs = {k: v for k, v in verdict.counterexample.items() if not k.startswith("reading.")}
        values = ", ".join(f"{k}={v}" for k, v in sorted(inputs.items()))
        out.print(f"{result.name}: not claimed under {region}: a counterexample there (replayed through the model "
                  f"under {region}, every other option at its default): {values}", highlight=False, markup=False)


def _print_crosshair(out: Console, report: Any) -> None:
    table = Table(title="CrossHair contracts (model/arith.py helpers)", title_justify="left")
    table.add_column("helper")
    table.add_column("status")
    table.add_column("conditions", justify="right")
    for result in report.results:
        table.add_row(result.helper, _style(result.status), str(len(result.conditions)))
    out.print(table)
    note = "confirmed = CrossHair reports 'Confirmed over all paths' for every condition"
    if getattr(report, "reused", False):
        out.print(f"{note}; reused from the proof cache (same contracts, helpers and versions)", highlight=False)
    else:
        out.print(f"{note}; CrossHair ran alongside the proofs, collected after {report.seconds:.1f} s", highlight=False)
    if report.error:
        out.print(f"[red]CrossHair did not complete:[/] {report.error}")


def _crosshair_problems(report: Any) -> list[str]:
    found = [f"crosshair: {report.error}"] if report.error else []
    found += [f"crosshair: {r.helper} counterexample: {r.detail}" for r in report.results if r.status == "counterexample"]
    return found


def _json_document(suite: runner.SuiteResult, report: Any, problems: list[str], pattern: str | None) -> dict[str, Any]:
    document: dict[str, Any] = {
        "theorems": [runner.theorem_record(r) for r in suite.theorems],
        "summary": {
            "theorems": len(suite.theorems),
            "proved": suite.count("proved"),
            "counterexample": suite.count("counterexample"),
            "unknown": suite.count("unknown"),
            "seconds": round(suite.seconds, 3),
            "jobs": suite.jobs,
            "rlimit": suite.rlimit,
            "pattern": pattern,
        },
        "crosshair": None,
        "margin": _margin_record(suite),
        "cache": _cache_record(suite.cache),
        "stability": {"perturbations": suite.stability, "checks": _stability_rows(suite)} if suite.stability else None,
        "ok": not problems,
        "problems": problems,
    }
    if report is not None:
        document["crosshair"] = {
            "seconds": round(report.seconds, 3),
            "command": report.command,
            "reused": report.reused,
            "error": report.error,
            "confirmed": report.confirmed(),
            "helpers": [
                {
                    "helper": r.helper,
                    "function": r.function,
                    "status": r.status,
                    "conditions": [{"line": c.line, "severity": c.severity, "message": c.message} for c in r.conditions],
                }
                for r in report.results
            ],
        }
    return document


def _margin_record(suite: runner.SuiteResult) -> dict[str, Any]:
    worst = suite.worst_margin()
    return {
        "ratio": suite.margin,
        "worst_share": None if worst is None else round(worst[0], 4),
        "worst_check": None if worst is None else worst[1],
        "outside": suite.outside_margin(),
    }


def _cache_record(use: runner.CacheUse | None) -> dict[str, Any] | None:
    if use is None:
        return None
    return {
        "reused": len(use.reused),
        "decided": len(use.decided),
        "stored": use.stored,
        "disagreements": use.disagreements,
        "decided_checks": use.decided,
    }


def _write_junit(path: Path, suite: runner.SuiteResult) -> None:
    cases = []
    for result in suite.theorems:
        problems = result.problems()
        output = f"{result.theorem.statement}\nclauses: {', '.join(str(c) for c in result.theorem.clauses)}"
        if result.theorem.bound:
            output += f"\nbound: {result.theorem.bound}"
        failure = None
        if problems:
            failure = "\n".join(problems) + f"\nrerun: {_rerun(result.name)}"
            if result.proof.counterexample and result.status != "proved":
                failure += f"\ncounterexample: {json.dumps(result.proof.counterexample, sort_keys=True)}"
        cases.append(
            {
                "name": result.name,
                "classname": result.theorem.module or "referee.proofs",
                "seconds": result.total_seconds,
                "failure": failure,
                "output": output,
            }
        )
    write_junit(path, "referee prove", cases, suite.seconds)


def register(app: typer.Typer) -> None:
    """Add ``prove`` to the ``referee`` command line."""
    app.command("prove")(prove_command)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(typer.run(prove_command))
