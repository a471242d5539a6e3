"""Independent streams (``referee.check.streams``): each scenario's seed a hash of (run seed, worker, batch, index).

What must hold: batches of one run never overlap, two run seeds (or two workers) share nothing, the
first batch depends on the seed, the same seed draws the same scenarios, and ``referee check`` sends
exactly that stream (Hypothesis' integers only number the batches). The 100,000-scenario measurement
is the slow test below and ``benchmarks/bench_streams.py``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from referee.engines.transports import PythonEngine
from referee.examples.engine import run as clean_engine
from referee.check.harness import CheckOptions, check
from referee.check.strategies import scenarios
from referee.check.streams import Stream, draw_batch, scenario_seed


def _lines(seed: int, batches: int, worker: int = 0, kinds: tuple[str, ...] | None = None) -> list[str]:
    strategy = scenarios(kinds=kinds) if kinds else scenarios()
    return [json.dumps(s, sort_keys=True) for b in range(batches) for s in draw_batch(strategy, seed, worker, b, 32)]


def _sent(seed: int, examples: int, worker: int = 0) -> list[str]:
    """What ``referee check`` sent the engine in a run of ``seed``."""
    sent: list[str] = []

    def recording(scenario):
        sent.append(json.dumps({k: v for k, v in scenario.items() if k != "id"}, sort_keys=True))
        return clean_engine(scenario)

    report = check(PythonEngine(recording), CheckOptions(examples=examples, seed=seed, database=None, shrink=False,
                                                         state_dir=None, worker=worker))
    assert report.status == "pass", report.text()
    return sent


def test_neighbouring_positions_get_unrelated_seeds():
    grid = [(s, w, b, k) for s in (0, 1, 2, 2**64 + 1) for w in range(3) for b in range(4) for k in range(32)]
    seeds = [scenario_seed(*where) for where in grid]
    assert len(set(seeds)) == len(grid)
    assert all(0 <= seed < 2**64 for seed in seeds)
    assert scenario_seed(1, 0, 0, 1) == scenario_seed(1, 0, 0, 1)  # a function of its four numbers only


def test_two_seeds_share_no_scenario_and_no_batch_repeats_another():
    one, two = _lines(1, 40), _lines(2, 40)  # 1,280 scenarios each, the default mix
    assert len(set(one)) == len(one) and len(set(two)) == len(two)
    assert not set(one) & set(two)
    assert _lines(1, 2) == one[:64]  # the same seed, the same scenarios


def test_the_first_batch_depends_on_the_seed_and_on_the_worker():
    firsts = {tuple(_lines(seed, 1)) for seed in range(1, 9)}
    assert len(firsts) == 8
    assert _lines(1, 1, worker=1) != _lines(1, 1, worker=0)


def test_check_sends_the_stream_of_its_seed_and_worker(in_tmp):
    first = _sent(1, 128)
    assert first == _sent(1, 128)  # reproducible by seed
    assert first == _lines(1, 4)  # batch b of the run is draw_batch(.., b, ..): Hypothesis only numbers them
    assert not set(first) & set(_sent(2, 128))
    assert not set(first) & set(_sent(1, 128, worker=1))


def test_an_integer_met_again_is_the_same_batch_and_a_stored_seed_is_its_own_scenario():
    stream = Stream(scenarios(), 5, 0, 4, replays=[12345])
    a, b = stream.group(0), stream.group(2**40)
    assert stream.group(0) == a and a != b  # Hypothesis replays a failing example: the same scenarios
    assert [s["_seed"] for s in b] == [scenario_seed(5, 0, 1, k) for k in range(4)]
    replayed = stream.group(12345)
    assert len(replayed) == 1 and replayed[0]["_seed"] == 12345
    assert stream.group(7)[0]["_seed"] == scenario_seed(5, 0, 2, 0)  # a replay takes no batch number


def _smallest_corner(line: str) -> bool:
    """A one-unit board and one action: the corner of the space where two seeds can draw the same scenario
    (measured: seeds 1 and 2 share one of 100,000, a lone Cull of a unit at every default)."""
    scenario = json.loads(line)
    return len(scenario["board"]) == 1 and len(scenario["actions"]) == 1


@pytest.mark.slow
def test_a_hundred_thousand_scenarios_of_one_seed_are_distinct_and_share_only_the_smallest_corner():
    one, two = _lines(1, 3125), _lines(2, 3125)  # 100,000 each
    assert len(set(one)) >= 0.999 * len(one)
    repeated = [line for line, n in Counter(one).items() if n > 1]
    assert all(_smallest_corner(line) for line in set(one) & set(two)) and all(map(_smallest_corner, repeated))
