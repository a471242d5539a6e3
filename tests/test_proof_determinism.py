"""Proof verdicts that do not depend on the run (issue 21).

Every check is written out as SMT-LIB and decided from that text alone, in a new Z3
context, by a solver that counts work and never time (``proofs/smt.py``). These tests hold
the three halves of that claim: the text is the same whatever the hash seed and the order
the checks are built in; the same text is decided with the same rlimit used quiet and beside
a busy loop; and a bounded sample of checks keeps the margin (worst rlimit at most a
quarter of the limit) under perturbation. The full versions run with ``--runslow``.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys

import pytest

from referee.proofs import core, runner, smt

#: Building this theorem's texts takes ~14 s of the ~24 s for all 431 (the fast twin's merged
#: branches); the default run leaves it to the ``--runslow`` version.
SLOW_TO_BUILD = ("fast_gates_agree_with_the_pipeline",)

_BUILD = """
import json, sys
from referee.proofs import runner
theorems = list(runner.discover().values())
tasks = [t for t in runner.tasks_for(theorems) if t.theorem not in sys.argv[2].split(",")]
if sys.argv[1] == "reversed":
    tasks.reverse()
print(json.dumps(runner.query_digests(theorems, tasks)))
"""


def _digests_in_subprocesses(skip: tuple[str, ...]) -> list[dict[str, str]]:
    """Every check's digest built in two processes at once: hash seeds 1 and 2, forward and reversed."""
    started = []
    for seed, order in (("1", "forward"), ("2", "reversed")):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, "-c", _BUILD, order, ",".join(skip)]
        started.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    found = []
    for process in started:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err[-2000:]
        found.append(json.loads(out))
    return found


def _assert_identical(first: dict[str, str], second: dict[str, str]) -> None:
    assert first.keys() == second.keys()
    differ = sorted(name for name in first if first[name] != second[name])
    assert not differ, f"{len(differ)} check texts differ between hash seeds / build orders: {differ[:10]}"
    errors = sorted(name for name, digest in first.items() if digest.startswith("error"))
    assert not errors, errors


def test_every_check_text_is_the_same_whatever_the_hash_seed_and_order() -> None:
    first, second = _digests_in_subprocesses(SLOW_TO_BUILD)
    assert len(first) >= 400  # the suite's checks, less the one slow-to-build theorem's
    _assert_identical(first, second)


@pytest.mark.slow
def test_every_check_text_including_the_slowest_is_the_same() -> None:
    _assert_identical(*_digests_in_subprocesses(()))


def _decide(name: str, kind: str, mutant: str | None = None) -> tuple[str, int | None]:
    thm = runner.discover()[name]
    chosen = next((m for m in thm.mutants if m.name == mutant), None)
    found = smt.decide(core.encode_check(thm, kind, chosen), thm.rlimit, seed=0)
    return found.answer, found.rlimit_used


#: Checks whose rlimit used followed the load before issue 21 (kept to about a second each; the
#: check that once ran out, ``tick_shares_sum_exactly_to_the_tick``'s proof, was measured the same
#: way at load 9 to 18: docs/proofs.md).
SAMPLE = (
    ("each_tick_share_is_within_one_of_its_exact_proportion", "proof", None),
    ("more_armor_never_means_more_damage", "proof", None),
    ("surviving_damage_rounds_up", "vacuity", None),
)


def test_the_same_text_uses_the_same_rlimit_quiet_and_beside_a_busy_loop() -> None:
    quiet = [_decide(*check) for check in SAMPLE]
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = [_decide(*check) for check in SAMPLE]
    finally:
        busy.kill()
        busy.wait()
    assert quiet == loaded
    assert all(answer in ("sat", "unsat") and used for answer, used in quiet)


#: The checks nearest their limit in the last ``--stability 5`` run (docs/proofs.md), all inside the margin.
NEAREST: tuple[str, ...] = (
    "ability_keeps_the_board_legal_damage mutant runes_lose_the_amount",  # 20.0% at worst
    "armor_matters_only_through_what_it_lets_through mutant flat_reduction_after_the_cap",  # 17.2%
)
#: Outside the margin in the last ``--stability 5`` run: none. A check that falls outside is named
#: here (and in docs/proofs.md) until an encoding brings it back; no limit is ever raised.
OUTSIDE: tuple[str, ...] = ()
#: How many of the other checks the default run samples, a different share each day.
ROTATING = 3
_GOOD_ANSWER = {"proof": "unsat", "vacuity": "sat", "mutant": "sat"}


def _margin_sample(today: datetime.date) -> list[runner.Task]:
    tasks = runner.tasks_for(list(runner.discover().values()))
    nearest = [t for t in tasks if str(t) in NEAREST]
    rest = sorted((t for t in tasks if str(t) not in NEAREST + OUTSIDE), key=str)
    start = (today.toordinal() * ROTATING) % len(rest)
    return nearest + [rest[(start + i) % len(rest)] for i in range(ROTATING)]


def test_the_sample_keeps_the_margin_under_a_perturbation() -> None:
    sample = _margin_sample(datetime.date.today())
    assert {str(t) for t in sample} >= set(NEAREST)  # every named check still exists
    assert {str(t) for t in runner.tasks_for(list(runner.discover().values()))} >= set(OUTSIDE)
    theorems = runner.discover()
    for task in sample:
        thm = theorems[task.theorem]
        mutant = next((m for m in thm.mutants if m.name == task.mutant), None)
        query = core.encode_check(thm, task.kind, mutant)
        runs = [smt.decide(query, thm.rlimit, seed=0), smt.decide(smt.perturb(query, shuffle_seed=1), thm.rlimit, 1)]
        for found in runs:
            assert found.answer == _GOOD_ANSWER[task.kind], f"{task}: {found.answer}"
            assert found.rlimit_used is not None and found.rlimit_used <= runner.DEFAULT_MARGIN * thm.rlimit, (
                f"{task} used {found.rlimit_used:,} of {thm.rlimit:,} (seed {found.seed}), above the margin"
            )


@pytest.mark.slow
def test_the_whole_suite_is_stable_and_within_the_margin() -> None:
    suite = runner.run(list(runner.discover().values()), jobs=2, stability=5)
    categories = [v.extra.get("category") for t in suite.theorems for _, _, v in t.checks()]
    assert categories.count("stable") == len(categories), suite.problems()
    assert suite.ok, suite.problems()
