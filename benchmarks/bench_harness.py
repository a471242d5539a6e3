"""Benchmarks of the differential harness: throughput, and how fast each mutant dies.

Run: ``python benchmarks/bench_harness.py [--examples N] [--kill-budget N] [--skip-kill] [--only NAME,...]
[--generation seeded|hypothesis] [--against REV] [--swarm both|off|on]``

Printed figures:

* scenarios checked per second, in-process (``--python --in-process``), in a worker
  process (``--python``, batched) and over JSON lines (``--engine``, with batching), and the harness's own ceiling,
  the echo engine (``echo_engine.py``: the model's answers looked up, no engine cost) in-process and over JSON
  lines, against plain Hypothesis drawing the same scenarios
  for a no-op engine (the target: the harness within 2x of that baseline), and against the
  same benchmark run on ``--against REV``'s code (default ``baseline.BASELINE_REVISION``, the
  code before issue 10's throughput work), in a subprocess in the same run: a ratio, since the
  machine is shared and noisy (target: 1,000 scenarios/s in-process and over JSON lines); beside each
  seeded figure, the CPU time a scenario took in this process (the harness's own work, and the engine's
  when it runs in-process), which a loaded machine moves far less than the rate;
* for every seeded mutant, the scenarios and seconds until ``referee check`` killed it
  (the target: every mutant in under 30 s), with the clause it breaks: with every feature on
  and with swarm testing (``--swarm``: each scenario draws a random subset of the features),
  side by side (``--swarm off|on`` prints one column only); ``--generation`` chooses the
  generator the table runs with (``seeded``, the default of ``referee check``).

Each run uses a fixed seed and no example database, so the figures are reproducible; each engine is
first checked on ``WARM_UP`` scenarios of another seed, untimed, so that a rate is the rate of a
campaign, not of a process's first second (``--against REV`` runs REV's own benchmark, which may
not warm up: its figure then carries those one-off costs, a fraction of a second of its run).
Where the time goes: ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st

from referee.engines.transports import PythonEngine, SubprocessEngine, python_command, python_worker
from referee.examples.mutants import MUTANTS, load
from referee.check.harness import CheckOptions, check
from referee.check.strategies import scenarios

SEED = 20261130


def baseline(examples: int, batch: int = 1) -> float:
    """Scenarios per second: plain Hypothesis drawing the same scenarios for a no-op engine.

    Same strategy, batch shape, phases, seed handling and settings as ``referee check``
    (``referee.check.harness.check``), so the difference is the harness: engine calls, the
    model, decoding and comparison.
    """
    count = 0

    def noop(batch_scenarios: list) -> None:
        nonlocal count
        count += len(batch_scenarios)

    noop._hypothesis_internal_use_seed = SEED  # as check() does
    test = settings(
        max_examples=max(1, examples // batch),
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
    )(given(st.lists(scenarios(), min_size=batch, max_size=batch))(noop))
    start = time.perf_counter()
    test()
    return count / (time.perf_counter() - start)


def seeded_baseline(examples: int, batch: int = 32) -> float:
    """Scenarios per second: seeded generation (``referee.seeded``) drawing the same scenarios for a no-op engine."""
    from referee.seeded import draw_seeded

    strategy, count, seed = scenarios(), 0, SEED
    start = time.perf_counter()
    while count < examples:
        count += len(draw_seeded(strategy, seed, batch))
        seed += 1
    return count / (time.perf_counter() - start)


#: CPU microseconds a scenario of the last :func:`throughput` run, in this process (the harness, and an in-process
#: engine): unlike the rate, it barely moves with the load other processes put on the machine.
LAST_CPU: dict[str, float] = {}


#: Scenarios an engine is checked on, at another seed, before its timed run: the one-off costs of a process and
#: of an engine (imports, an engine's start, Hypothesis' first scan of the code's constants, the memos' first
#: fill), which a campaign of thousands pays once, stay out of a rate of 1,000 scenarios.
WARM_UP = 96


def throughput(engine, examples: int, generation: str = "seeded") -> tuple[float, str]:
    # The figures before this one left ~100,000 objects (plain Hypothesis' runs above all) that every
    # full collection would scan again: measured, 1,028/s in a fresh process against 894/s after the
    # baselines. A campaign's own process holds none of them; frozen, the collector skips them too.
    gc.collect()
    gc.freeze()
    check(engine, CheckOptions(examples=WARM_UP, seed=SEED + 1, database=None, shrink=False, generation=generation))
    options = CheckOptions(examples=examples, seed=SEED, database=None, shrink=False, generation=generation)
    cpu = time.process_time()
    report = check(engine, options)
    LAST_CPU["harness"] = (time.process_time() - cpu) / max(report.scenarios_run, 1) * 1e6
    return report.scenarios_run / report.seconds, report.status


def _cpu_note() -> str:
    return f"  [{LAST_CPU['harness']:.0f} us CPU a scenario in this process]"


def _rulebook_kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Every action kind of the rulebook the mutant's kinds belong to (combat or play)."""
    from referee.actions import ACTION_KINDS, kinds_of

    return kinds_of(ACTION_KINDS[kinds[0]].rulebook)


def _mutant_rules(mutant) -> dict:
    """The readings a mutant is checked under (its rulebook's defaults unless it names some)."""
    from referee.model.combat.ruleset import Ruleset

    return {"combat": Ruleset.from_json(dict(mutant.ruleset))} if getattr(mutant, "ruleset", None) else {}


def _kill(mutant, budget: int, all_kinds: bool, swarm: bool, generation: str = "seeded") -> tuple:
    """One mutant, one way of drawing: (killed, scenarios to the first failure, seconds, status)."""
    engine = PythonEngine(load(mutant.name).run)
    engine.name = f"mutant {mutant.name}"
    options = CheckOptions(
        examples=budget,
        seed=SEED,
        database=None,
        kinds=_rulebook_kinds(mutant.kinds) if all_kinds else mutant.kinds,
        shrink=False,
        swarm=swarm,
        max_actions=getattr(mutant, "max_actions", 2),  # the clock mutants need an advance before the death
        rules=_mutant_rules(mutant),
        generation=generation,
        state_dir=None,
    )
    report = check(engine, options)
    killed = report.status != "pass"
    return (killed, report.first_failure_after if killed else None,
            report.first_failure_seconds if killed else report.seconds, report.status, report.scenarios_run)


def _cell(result: tuple) -> str:
    killed, after, seconds, status, run = result
    return f"{after:>6} ({seconds:6.2f} s)" if killed else f"  >{run:<5}(SURVIVED)"


def kill_table(budget: int, only: set[str] | None = None, all_kinds: bool = False,
               modes: tuple[bool, ...] = (False, True), generation: str = "seeded") -> list[tuple]:
    """Scenarios to kill each mutant, with every feature on (swarm off) and with swarm testing, side by side.

    A row: (name, clause, killed, scenarios, seconds, status) for the first mode, then the same four figures
    for each further mode.
    """
    rows = []
    heads = {False: "all features", True: "swarm"}
    print(f"  {'mutant':<38} {'clause':<18} " + " ".join(f"{heads[m]:>20}" for m in modes), flush=True)
    for mutant in MUTANTS:
        if only and mutant.name not in only:
            continue
        results = [_kill(mutant, budget, all_kinds, swarm, generation) for swarm in modes]
        rows.append((mutant.name, mutant.clause, *results[0][:4], *(x for r in results[1:] for x in r[:4])))
        print(f"  {mutant.name:<38} {mutant.clause:<18} " + " ".join(f"{_cell(r):>20}" for r in results), flush=True)
    return rows


def _summary(rows: list[tuple], modes: tuple[bool, ...]) -> list[str]:
    """Per mode: mutants killed, and the median and the total of scenarios to kill over the killed ones."""
    import statistics

    lines = []
    for n, swarm in enumerate(modes):
        killed = [r for r in rows if r[2 + 4 * n]]
        counts = [r[3 + 4 * n] for r in killed]
        lines.append(f"  {'swarm' if swarm else 'all features'}: killed {len(killed)}/{len(rows)}; scenarios to kill "
                     f"median {statistics.median(counts) if counts else 0:g}, total {sum(counts)}")
    return lines


#: The lines of the throughput table, and the pattern of the same figure in the baseline revision's output.
BEFORE = {
    "noop1": r"no-op engine, plain Hypothesis, batch 1:",
    "noop32": r"no-op engine, plain Hypothesis, batch 32:",
    "inproc": r"in-process \(--python --in-process\), (?:batch 1|seeded):",
    "worker": r"worker process \(--python\), batch 32(?:, seeded)?:",
    "jsonl32": r"JSON lines \(--engine\), batch 32(?:, seeded)?:",
    "jsonl1": r"JSON lines \(--engine\), batch 1(?:, seeded)?:",
    # a revision with both generators prints these rows too (before them, the rows above were Hypothesis')
    "inproc_hypothesis": r"in-process, --generation hypothesis:",
    "jsonl32_hypothesis": r"JSON lines, batch 32, --generation hypothesis:",
}


def throughput_table(n: int, against: str | None) -> None:
    """Every throughput figure, each beside the same figure on the baseline revision (measured first, in this run)."""
    before: dict[str, float | None] = {}
    if against != "":
        from baseline import BASELINE_REVISION, figure, run_benchmark

        revision = against or BASELINE_REVISION
        try:  # a revision whose benchmark measures a baseline itself is told not to (its tree is no repository)
            output = run_benchmark(revision, "bench_harness.py", ["--examples", str(n), "--skip-kill", "--against", ""])
        except RuntimeError:  # older than --against
            output = run_benchmark(revision, "bench_harness.py", ["--examples", str(n), "--skip-kill"])
        before = {key: figure(output, pattern) for key, pattern in BEFORE.items()}
        print(f"at {revision}, the same benchmark on that revision's code (a subprocess, this run):")
        print("  " + output.strip().replace("\n", "\n  "))
    print(f"throughput ({n} scenarios, seed {SEED}, every action kind, full comparison):")

    def show(key: str | None, label: str, rate: float, note: str = "") -> None:
        was = (before.get(f"{key}_hypothesis") or before.get(key)) if key and label.endswith("hypothesis:") else (
            before.get(key) if key else None)
        ratio = f"  {rate / was:5.2f}x before ({was:7.1f}/s)" if was else ""
        print(f"  {label:<52} {rate:8.1f} scenarios/s{ratio}{note}")

    base1, base32 = baseline(n), baseline(n, 32)
    show("noop1", "no-op engine, plain Hypothesis, batch 1:", base1)
    show("noop32", "no-op engine, plain Hypothesis, batch 32:", base32)
    seeded = seeded_baseline(n)
    show(None, "no-op engine, seeded generation, batch 32:", seeded, f"  ({seeded / base32:.1f}x plain Hypothesis)")
    rate, status = throughput(PythonEngine("referee.examples.engine:run"), n)
    show("inproc", "in-process (--python --in-process), seeded:", rate, f"  ({rate / base1:.2f}x no-op Hypothesis, {status})"
         + _cpu_note())
    old, status = throughput(PythonEngine("referee.examples.engine:run"), n, "hypothesis")
    show("inproc", "in-process, --generation hypothesis:", old, f"  ({old / base1:.2f}x no-op Hypothesis, {status})")
    with python_worker("referee.examples.engine:run", batch_size=32) as engine:
        worker, status = throughput(engine, n)
    show("worker", "worker process (--python), batch 32, seeded:", worker, f"  ({status})" + _cpu_note())
    with SubprocessEngine(python_command("referee.examples.engine"), batch_size=32) as engine:
        jsonl, status = throughput(engine, n)
    show("jsonl32", "JSON lines (--engine), batch 32, seeded:", jsonl, f"  ({jsonl / base32:.2f}x no-op Hypothesis, {status})"
         + _cpu_note())
    with SubprocessEngine(python_command("referee.examples.engine"), batch_size=32) as engine:
        jsonl_old, status = throughput(engine, n, "hypothesis")
    show("jsonl32", "JSON lines, batch 32, --generation hypothesis:", jsonl_old, f"  ({status})")
    with SubprocessEngine(python_command("referee.examples.engine"), batch_size=1) as engine:
        rate1, status = throughput(engine, max(n // 4, 50))
    show("jsonl1", "JSON lines (--engine), batch 1, seeded:", rate1, f"  ({status})" + _cpu_note())
    for label, rate, note in echo_rows(n):
        show(None, label, rate, note)
    workers_row(n)


def echo_rows(n: int) -> list[tuple[str, float, str]]:
    """The harness's own ceiling: ``referee check`` against the echo engine (``echo_engine.py``: the model's answers
    looked up, no engine cost), in-process and over JSON lines, on the scenarios of the runs above (recorded by a
    first, untimed pass). A row with misses answered some scenarios by running the model: no ceiling, and it says so."""
    import os
    import shlex
    from pathlib import Path

    from echo_engine import ANSWERS_VARIABLE, EchoEngine, write_table

    echo = EchoEngine(learn=True)
    throughput(PythonEngine(echo.run), n)  # untimed: records the model's answer to every scenario drawn
    echo.learn, echo.misses = False, 0
    rate, status = throughput(PythonEngine(echo.run), n)
    rows = [("echo engine (the model's answers), in-process:", rate, f"  ({status}, {echo.misses} misses)" + _cpu_note())]
    with tempfile.TemporaryDirectory() as folder:
        answers = os.path.join(folder, "answers.jsonl")
        write_table(echo.table, answers)
        command = shlex.join([sys.executable, str(Path(__file__).resolve().with_name("echo_engine.py"))])
        with SubprocessEngine(command, batch_size=32, env={**os.environ, ANSWERS_VARIABLE: answers}) as engine:
            rate, status = throughput(engine, n)
    rows.append(("echo engine, JSON lines (--engine), batch 32:", rate, f"  ({status})" + _cpu_note()))
    return rows


#: ``--workers``' row checks at least this many scenarios, best of ``WORKER_ROUNDS`` alternated rounds (as
#: ``bench_workers.py`` does): a worker's start (the fork, its first batch) is a fixed cost a short run does not
#: amortise, and one round on a shared machine drifts by more than the ratio measured.
WORKER_SCENARIOS, WORKER_ROUNDS = 8000, 3


def workers_row(n: int, workers: int = 2) -> None:
    """``--workers 2`` against one worker on the same scenarios (``bench_workers.py``): both ratios."""
    from bench_workers import many, one

    count = max(WORKER_SCENARIOS, n) // workers * workers
    one(WARM_UP * workers, workers)  # untimed, as every engine above is warmed up (a forked worker inherits it)
    rounds = [(one(count, workers), many(count, workers)) for _ in range(WORKER_ROUNDS)]
    rate1, rate_n = max(a[0] for a, _ in rounds), max(b[0] for _, b in rounds)
    cpu1, cpu_n = min(a[1] for a, _ in rounds), min(b[1] for _, b in rounds)
    print(f"  {f'--workers {workers}, same {count} scenarios as one worker:':<52} {rate_n:8.1f} scenarios/s  "
          f"{rate_n / rate1:.2f}x one worker's {rate1:.1f}/s (best of {WORKER_ROUNDS}; target >= 1.8x; wall clock, see "
          f"bench_workers.py for the machine's load), CPU a scenario {cpu_n / cpu1:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--kill-budget", type=int, default=3000)
    parser.add_argument("--skip-kill", action="store_true")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--all-kinds", action="store_true", help="draw every action kind of its rulebook for every mutant")
    parser.add_argument("--only", default="", help="mutant names, comma-separated")
    parser.add_argument("--generation", default="seeded", help="the generator the kill table uses: seeded | hypothesis")
    parser.add_argument("--against", default=None, help="a git revision to measure first, for a ratio ('' for none)")
    parser.add_argument("--swarm", choices=("both", "off", "on"), default="both",
                        help="the kill table's columns: every feature on (off), swarm testing (on), or both side by side")
    args = parser.parse_args(argv)

    if not args.skip_throughput:
        throughput_table(args.examples, args.against)

    if not args.skip_kill:
        only = set(filter(None, args.only.split(","))) or None
        scope = "every action kind" if args.all_kinds else "the mutant's action kinds"
        modes = {"both": (False, True), "off": (False,), "on": (True,)}[args.swarm]
        print(f"\nmutant kill table (budget {args.kill_budget} scenarios, seed {SEED}, {scope}, {args.generation} generation, scenarios to the first "
              "failure; swarm: each scenario draws a random subset of the features):")
        rows = kill_table(args.kill_budget, only, args.all_kinds, modes, args.generation)
        print("\n".join(_summary(rows, modes)))
        survivors = [r[0] for r in rows if not r[2]]
        slow = [r[0] for r in rows if r[2] and r[4] >= 30]
        print(f"  killed {len(rows) - len(survivors)}/{len(rows)} (first column); slowest "
              f"{max((r[4] for r in rows), default=0):.2f} s")
        if survivors:
            print(f"  SURVIVED: {', '.join(survivors)}")
        if slow:
            print(f"  over 30 s: {', '.join(slow)}")
        return 1 if survivors else 0
    return 0


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        import os

        os.chdir(folder)  # failure files land in a scratch directory
        sys.exit(main())
