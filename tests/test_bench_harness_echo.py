"""The harness's ceiling row (issue #38): the echo engine answers with the model's own observations, looked up.

The benchmark itself never runs here; these tests hold what its figures rest on: the echo engine's answers are the
model's (``referee check`` passes it), a second pass over the same seed looks every answer up (no miss), the
JSON-lines engine answers from the table it is given (a tampered entry is a divergence), and the rows come out.
"""

from __future__ import annotations

import os
import shlex
import sys

from benchmark_scripts import ROOT, load_benchmark

from referee.check.harness import CheckOptions, check
from referee.engines.transports import PythonEngine, SubprocessEngine

echo_engine = load_benchmark("echo_engine")


def _options(seed: int = 5) -> CheckOptions:
    return CheckOptions(examples=64, seed=seed, database=None, shrink=False, state_dir=None)


def test_the_echo_engine_passes_and_a_second_pass_looks_every_answer_up() -> None:
    echo = echo_engine.EchoEngine(learn=True)
    first = check(PythonEngine(echo.run), _options())
    assert first.status == "pass" and echo.misses == first.scenarios_run >= 64, (first.status, echo.misses)
    echo.learn, echo.misses = False, 0
    second = check(PythonEngine(echo.run), _options())
    assert second.status == "pass" and second.scenarios_run == first.scenarios_run and echo.misses == 0


def _tampered(table: dict) -> dict:
    """The table with one combat answer's first unit given one more Vitality."""
    key = next(k for k, answer in table.items() if answer.get("board"))
    wrong = dict(table[key])
    wrong["board"] = [dict(wrong["board"][0], vitality=wrong["board"][0]["vitality"] + 1), *wrong["board"][1:]]
    return {**table, key: wrong}


def test_the_json_lines_echo_answers_from_its_table(tmp_path) -> None:
    echo = echo_engine.EchoEngine(learn=True)
    check(PythonEngine(echo.run), _options())
    command = shlex.join([sys.executable, str(ROOT / "benchmarks" / "echo_engine.py")])
    for table, status in ((echo.table, "pass"), (_tampered(echo.table), "mismatch")):
        answers = tmp_path / f"{status}.jsonl"
        echo_engine.write_table(table, str(answers))
        env = {**os.environ, echo_engine.ANSWERS_VARIABLE: str(answers)}
        with SubprocessEngine(command, batch_size=32, env=env) as engine:
            report = check(engine, _options())
        assert report.status == status, (status, report.status)


def test_the_ceiling_rows_come_out_with_no_miss() -> None:
    rows = load_benchmark("bench_harness").echo_rows(64)
    assert [label.split(",")[0] for label, _, _ in rows] == ["echo engine (the model's answers)", "echo engine"]
    assert all(rate > 0 for _, rate, _ in rows) and "(pass, 0 misses)" in rows[0][2], rows
    assert rows[1][2].startswith("  (pass)"), rows
