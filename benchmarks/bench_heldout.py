"""Do ``--keep-going`` groups count bugs on engines the grouping was never tuned on? (``docs/grouping.md``)

Run: ``python benchmarks/bench_heldout.py --set python|js|devset [--sizes 3,5] [--combinations 10] [--examples N]``

An engine set is a folder with an engine, a ``profile.toml`` (its kinds and the features it leaves out) and a
``BUGS.md`` whose table names each seeded bug (`` `name` `` in its first column) and the clause it breaks. A bug is
switched on by name through an environment variable. ``python`` and ``js`` are the held-out engines
(``tests/heldout/``: measure them only at the end of a change, and count the consultation in its README);
``devset`` is an engine to work against (``tests/devset/``).

For each size, ``--combinations`` random sets of that many bugs are checked with ``referee check --keep-going``
(``--examples`` scenarios, one seed per combination, a fresh state folder each). Each group's shrunk representative
(and each representative a merge kept) is run through every bug of the set alone. Printed per combination:
the groups, each with its key and the bugs that reproduce it. Per size, in how many combinations:

- **equal**: as many groups as bugs, and every bug shown by a group of its own (a matching: each group is then one
  bug's, so no group joins two bugs), as ``bench_groups.py`` counts the project's own mutants;
- **found**: every bug shown by some group;
- **shared**: some group's representative is reproduced by two bugs or more (a minimal scenario may show two bugs:
  every cost a listeners bug meets is a cost a Shield-spending bug meets too; the report says so per group).

``--alone`` runs each bug alone instead and prints the clause ``check`` names for it beside the clause ``BUGS.md``
says it breaks. The run ends with the seconds spent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]  # the engine sets are modules of tests/

from bench_groups import matching  # noqa: E402


@dataclass(frozen=True)
class EngineSet:
    folder: str
    engine: tuple[str, ...]
    variable: str

    def profile(self) -> list[str]:
        """``--kinds`` and ``--without`` from the set's ``profile.toml``."""
        data = tomllib.loads((ROOT / self.folder / "profile.toml").read_text())
        args = ["--kinds", ",".join(data["kinds"])]
        return args + (["--without", ",".join(data["without"])] if data.get("without") else [])

    def bugs(self) -> dict[str, str]:
        """Each bug's name -> the rule ``BUGS.md`` says it breaks: the column of its first table headed "rule"."""
        lines = [line for line in (ROOT / self.folder / "BUGS.md").read_text().splitlines() if line.startswith("|")]
        header = [cell.strip() for cell in lines[0].strip("|").split("|")]
        at = next(n for n, cell in enumerate(header) if cell.startswith("rule"))
        rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
        named = [(re.fullmatch(r"`([a-z0-9_]+)`", row[0]), row) for row in rows if len(row) > at]
        return {match.group(1): row[at] for match, row in named if match}


SETS = {
    "python": EngineSet("tests/heldout/python_engine", ("--python", "tests.heldout.python_engine.engine:run"),
                        "HELDOUT_BUGS"),
    "js": EngineSet("tests/heldout/js_engine", ("--engine", "node tests/heldout/js_engine/engine.js"), "HELDOUT_BUGS"),
    "devset": EngineSet("tests/devset", ("--python", "tests.devset.engine:run"), "DEVSET_BUGS"),
}


def check(engines: EngineSet, bugs: tuple[str, ...], args: list[str]) -> dict[str, Any]:
    """``referee check --json`` with ``bugs`` switched on, in a fresh state folder."""
    env = {**os.environ, engines.variable: ",".join(bugs)}
    with tempfile.TemporaryDirectory() as state:
        done = subprocess.run(["referee", "check", *engines.engine, *engines.profile(), *args, "--json",
                               "--state-dir", state, "--database", ""],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"referee check printed no report: {done.stderr[-2000:]}") from None


def diverging(engines: EngineSet, bug: str, scenarios: list[dict[str, Any]]) -> list[bool]:
    """Whether ``bug`` alone makes the engine diverge on each scenario, judged as ``referee check`` judges (the
    set's profile), the engine made once for all of them."""
    from referee.check.harness import CheckOptions, judge
    from referee.engines.transports import PythonEngine, SubprocessEngine
    from referee.rulebooks import resolve_features

    data = tomllib.loads((ROOT / engines.folder / "profile.toml").read_text())
    comparison = CheckOptions(features=resolve_features(None, data.get("without") or None)).comparison
    sent = [{**scenario, "id": f"r{n}"} for n, scenario in enumerate(scenarios)]
    os.environ[engines.variable] = bug  # a Python engine reads it at call time, a program when it starts
    flag, spec = engines.engine
    engine = PythonEngine(spec) if flag == "--python" else SubprocessEngine(spec, cwd=str(ROOT))
    try:
        answers = engine.run_batch(sent)
    finally:
        engine.close()
        os.environ.pop(engines.variable, None)
    return [judge(s, a, comparison)[0] == "mismatch" for s, a in zip(sent, answers)]


def owners(engines: EngineSet, bugs: tuple[str, ...], groups: list[dict[str, Any]]) -> list[list[str]]:
    """For each group, the bugs of the set that alone reproduce its representative or one merged into it."""
    scenarios = [[group["scenario"], *(m["scenario"] for m in group.get("merged_with") or [])] for group in groups]
    flat = [s for each in scenarios for s in each]
    shown = {bug: diverging(engines, bug, flat) if flat else [] for bug in bugs}
    found, start = [], 0
    for each in scenarios:
        found.append([bug for bug in bugs if any(shown[bug][start:start + len(each)])])
        start += len(each)
    return found


def combination_row(engines: EngineSet, bugs: tuple[str, ...], examples: int, seed: int) -> dict[str, Any]:
    report = check(engines, bugs, ["--keep-going", "-n", str(examples), "--seed", str(seed)])
    if report.get("status") not in ("mismatch", "pass"):  # an engine fault stops a run: no groups to measure
        return {"bugs": bugs, "groups": [], "equal": False, "found": False, "shared": 0, "status": report.get("status")}
    groups = report.get("groups") or []
    shown = owners(engines, bugs, groups)
    candidates: dict[str, set[str]] = {}
    for group, names in zip(groups, shown):
        for name in names:
            candidates.setdefault(name, set()).add(group["key"])
    shared = sum(1 for names in shown if len(names) > 1)
    found = {name for names in shown for name in names}
    equal = len(groups) == len(bugs) and matching(candidates) is not None
    return {"bugs": bugs, "groups": [(g["key"], names) for g, names in zip(groups, shown)], "equal": equal,
            "found": found == set(bugs), "shared": shared, "status": report.get("status")}


def measure(engines: EngineSet, size: int, count: int, examples: int, seed: int) -> None:
    rng, names = random.Random(seed + size), sorted(engines.bugs())
    rows = []
    for n in range(count):
        bugs = tuple(sorted(rng.sample(names, size)))
        row = combination_row(engines, bugs, examples, seed + n)
        rows.append(row)
        said = ("" if row["equal"] else "  (not equal)") if row["status"] in ("mismatch", "pass") else \
            f"  (not measured: the run ended in {row['status']})"
        print(f"  {size} bugs {', '.join(bugs)}: {len(row['groups'])} groups{said}", flush=True)
        for key, shown in row["groups"]:
            print(f"      {key}: {', '.join(shown) or 'no single bug'}", flush=True)
    faults = sum(r["status"] not in ("mismatch", "pass") for r in rows)
    print(f"{size} bugs: groups equal bugs in {sum(r['equal'] for r in rows)}/{count} ({faults} ended in an engine fault), "
          f"every bug found in "
          f"{sum(r['found'] for r in rows)}/{count}, a representative two bugs share in "
          f"{sum(bool(r['shared']) for r in rows)}/{count}; groups per combination {[len(r['groups']) for r in rows]}",
          flush=True)


def alone(engines: EngineSet, examples: int, seed: int) -> None:
    """Each bug alone: the clause ``check`` names for it beside the one it breaks."""
    for name, rule in sorted(engines.bugs().items()):
        report = check(engines, (name,), ["-n", str(examples), "--seed", str(seed)])
        print(f"  {name}: breaks {rule}; check names {report.get('clause_at_fault')} ({report.get('status')})",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), required=True)
    parser.add_argument("--sizes", default="3,5")
    parser.add_argument("--combinations", type=int, default=10)
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--alone", action="store_true", help="each bug alone, with the clause check names")
    args = parser.parse_args()
    engines, start = SETS[args.set], time.perf_counter()
    if args.alone:
        alone(engines, args.examples, args.seed)
    else:
        for size in (int(s) for s in args.sizes.split(",")):
            measure(engines, size, args.combinations, args.examples, args.seed)
    print(f"{time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
