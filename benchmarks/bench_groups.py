"""Do ``--keep-going`` groups count bugs? The example engine's mutants applied several at once.

Run: ``python benchmarks/bench_groups.py [--sizes 3,5] [--combinations 10] [--examples N] [--seed S]``

For each size, ``--combinations`` random sets of that many combat mutants (each editing its own line
of ``examples/engine.py``, applied together by ``referee.examples.mutants.load_together``; mutants
that need a ruleset option are left out of the pool) are checked with ``--keep-going`` over the union
of their action kinds. Each group's shrunk scenario is run through every mutant of the set alone: a
bug is *found* when some scenario of the report makes it diverge (a group's representative, or the
representative a group merged into it kept: ``Group.merged_with``), and the groups *equal the bugs* when
there are as many groups as bugs and each bug has a group of its own whose representative shows it (a matching). Printed: per
combination, the bugs, the groups (each key, and the bugs that reproduce it), whether the cap was
reached; per size, in how many combinations groups equal bugs and every bug was found (target: at
least 9 of 10 each).

``--merges`` also audits every merge: each group that settles on another key, where the drift guard lets it, is
printed with the bugs that alone give its representative its key and the settled scenario the settled key; a merge
whose two sets share no bug is a drift (two bugs made one group), and the totals say how many merges were made and
how many drifted.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from referee.check.compare import Comparison
from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.check.harness import CheckOptions, check, judge


def pool() -> list[mutants.Mutant]:
    """The combat mutants that can join a set: the combat engine's, needing no ruleset option."""
    return [m for m in mutants.MUTANTS if m.source == "engine.py" and not m.ruleset]


def combination(rng: random.Random, size: int) -> tuple[str, ...]:
    """``size`` mutants that load together (each edits a line none of the others edits)."""
    candidates = pool()
    while True:
        names = tuple(m.name for m in rng.sample(candidates, size))
        try:
            mutants.load_together(names)
        except ValueError:
            continue
        return names


def matching(candidates: dict[str, set[str]]) -> dict[str, str] | None:
    """Each bug to a group of its own among those it alone reproduces (None: no such matching)."""
    chosen: dict[str, str] = {}

    def place(bug: str, seen: set[str]) -> bool:
        for key in sorted(candidates.get(bug, ())):
            if key in seen:
                continue
            seen.add(key)
            holder = next((b for b, k in chosen.items() if k == key), None)
            if holder is None or place(holder, seen):
                chosen[bug] = key
                return True
        return False

    return chosen if all(place(bug, set()) for bug in candidates) else None


def run_combination(names: tuple[str, ...], examples: int, seed: int) -> dict[str, Any]:
    """One ``--keep-going`` run of the mutants together; what its groups say about the bugs."""
    chosen = [mutants.BY_NAME[n] for n in names]
    kinds = tuple(dict.fromkeys(k for m in chosen for k in m.kinds))
    options = CheckOptions(examples=examples, seed=seed, kinds=kinds, max_actions=max(m.max_actions for m in chosen),
                           database=None, keep_going=True, state_dir=None)
    start = time.perf_counter()
    report = check(PythonEngine(mutants.load_together(names).run), options)
    seconds = time.perf_counter() - start
    reproduces: dict[str, set[str]] = {name: set() for name in names}
    merged: dict[str, set[str]] = {name: set() for name in names}
    for name in names:
        alone = mutants.load_together((name,)).run
        for group in report.groups:
            for scenario, into in [(group.scenario, reproduces), *((m["scenario"], merged) for m in group.merged_with)]:
                sent = {**scenario, "id": "g"}
                if judge(sent, alone(dict(sent)), Comparison())[0] == "mismatch":
                    into[name].add(group.key)
    found = {name for name in names if reproduces[name] or merged[name]}
    equal = len(report.groups) == len(names) and matching(reproduces) is not None
    return {"names": names, "report": report, "reproduces": reproduces, "merged": merged, "found": found,
            "equal": equal, "seconds": seconds}


def describe(result: dict[str, Any]) -> list[str]:
    report = result["report"]
    lines = [f"  {', '.join(result['names'])}: {len(report.groups)} groups for {len(result['names'])} bugs, "
             f"{len(result['found'])} found; groups equal bugs: {result['equal']}; {report.scenarios_run} scenarios, "
             f"{result['seconds']:.1f} s" + (f"; CAP REACHED after {report.cap['after']} scenarios" if report.cap else "")]
    for group in report.groups:
        bugs = [n for n, keys in result["reproduces"].items() if group.key in keys]
        inside = [n for n, keys in result["merged"].items() if group.key in keys and n not in bugs]
        lines.append(f"      {group.key} ({group.count}): {', '.join(bugs) or 'no single bug'}"
                     + (f"; merged into it: {', '.join(inside)}" if inside else ""))
    return lines


def audit_merges(names: list[tuple[str, ...]], tally: dict[str, int]) -> None:
    """Wrap the harness' settling step so that each merge it allows is checked against the mutants alone."""
    from referee.check.grouping import keyed_shrink, settle as settling

    settle = settling._settled_key

    def audited(campaign: Any, group: Any) -> str:
        target = settle(campaign, group)  # guarded already: another key only where the merge is made
        if target != group.key:
            smaller, divergences, _ = keyed_shrink._shrink(campaign.engine, group.scenario, group.divergences,
                                                           campaign.options)
            own, settled = keyed_by(names[-1], group.scenario, group.key), keyed_by(names[-1], smaller, target)
            tally["merges"] += 1
            tally["drifts"] += not own & settled
            print(f"      merge {group.key} -> {target}: {sorted(own)} / {sorted(settled)}"
                  + ("" if own & settled else "  DRIFT"), flush=True)
        return target

    settling._settled_key = audited


def keyed_by(names: tuple[str, ...], scenario: dict[str, Any], key: str) -> set[str]:
    """The mutants of the set that, alone, give ``scenario`` the group key ``key``."""
    from referee.check.grouping.api import group_key_of
    from referee.check.judging import _public

    sent = {**_public(scenario), "id": "g"}
    found = set()
    for name in names:
        verdict, divergences = judge(sent, mutants.load_together((name,)).run(dict(sent)), Comparison())
        if verdict == "mismatch" and group_key_of(_public(scenario), divergences) == key:
            found.add(name)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3,5")
    parser.add_argument("--combinations", type=int, default=10)
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--merges", action="store_true", help="audit every merge against the mutants alone")
    args = parser.parse_args()
    current: list[tuple[str, ...]] = []
    tally = {"merges": 0, "drifts": 0}
    if args.merges:
        audit_merges(current, tally)
    for size in map(int, args.sizes.split(",")):
        rng = random.Random(args.seed * 100 + size)
        results = []
        for n in range(args.combinations):
            current.append(combination(rng, size))
            results.append(run_combination(current[-1], args.examples, args.seed + n))
            print("\n".join(describe(results[-1])), flush=True)
        equal = sum(r["equal"] for r in results)
        all_found = sum(len(r["found"]) == size for r in results)
        print(f"size {size}: groups equal bugs in {equal} of {len(results)}; every bug found in {all_found} of "
              f"{len(results)}", flush=True)
    if args.merges:
        print(f"merges: {tally['merges']}, of which {tally['drifts']} drifted (their bugs and the settled one's differ)")


if __name__ == "__main__":
    main()
