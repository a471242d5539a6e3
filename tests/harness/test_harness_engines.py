"""Engine faults: a crash, a hang, garbage, a schema violation or a missing field is an
engine fault reported with its scenario, never a harness traceback, and the run goes on
(a batch still gets its other answers) or stops cleanly (``referee check``)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.check.compare import Comparison
from referee.engines.transports import EngineFault, PythonEngine, SubprocessEngine, check_answer
from referee.check.harness import CheckOptions, check
from referee.protocol import PROTOCOL

FULL = Comparison()


def scenario(i: int) -> dict:
    return {
        "protocol": PROTOCOL,
        "id": f"s{i}",
        "board": [{"uid": "a", "armor": 81}, {"uid": "b", "side": 1}],
        "actions": [{"kind": "damage", "target": "a", "amount": 87 + i, "source": "b"}],
    }


def judged(answers, scenarios):
    return [check_answer(a, s, fields_needed=None, events_needed=True) for a, s in zip(answers, scenarios)]


EXPECTED_KIND = {"crash": "crash", "hang": "hang", "garbage": "garbage", "schema": "schema", "missing": "missing", "noid": "missing"}


@pytest.mark.parametrize("mode", sorted(EXPECTED_KIND))
def test_subprocess_fault_is_reported_with_its_scenario_and_the_batch_goes_on(mode, faulty_cmd):
    batch = [scenario(i) for i in range(3)]  # the restarted engine misbehaves again on its 2nd: give it one
    with SubprocessEngine(faulty_cmd(mode, 2), timeout=1.5, batch_size=3) as engine:
        results = judged(engine.run_batch(batch), batch)
        assert isinstance(results[1], EngineFault), results[1]
        assert results[1].kind == EXPECTED_KIND[mode]
        assert results[1].scenario["id"] == "s1"
        for i in (0, 2):  # the engine was restarted for the rest of the batch
            assert not isinstance(results[i], EngineFault), results[i]
        if mode == "crash":
            assert "status 3" in results[1].message and "deliberate crash" in results[1].detail
        if mode == "missing":
            assert "observation.board[0].shield: missing" in results[1].message
        if mode == "schema":
            assert "observation.board[0].vitality: expected integer" in results[1].message


@pytest.mark.parametrize("mode", ["crash", "garbage", "schema"])
def test_a_batch_sent_ahead_is_collected_the_same_fault_and_all(mode, faulty_cmd):
    """``submit`` sends the batch before the model runs; ``run_batch`` then reads the same answers and faults."""
    batch = [scenario(i) for i in range(3)]
    with SubprocessEngine(faulty_cmd(mode, 2), timeout=1.5, batch_size=3) as engine:
        engine.submit(batch)
        ahead = judged(engine.run_batch(batch), batch)
    with SubprocessEngine(faulty_cmd(mode, 2), timeout=1.5, batch_size=3) as engine:
        plain = judged(engine.run_batch(batch), batch)
    assert [isinstance(r, EngineFault) for r in ahead] == [False, True, False], ahead
    assert ahead[1].kind == EXPECTED_KIND[mode] and ahead[1].scenario["id"] == "s1"
    assert (ahead[0], ahead[2]) == (plain[0], plain[2])  # the same observations, read in the same order
    assert ahead[0] != ahead[2]  # (the scenarios differ: a mix-up would show)


def test_a_batch_sent_ahead_and_never_collected_is_not_read_as_the_next(engine_cmd):
    """An interrupted batch's answers are dropped with its engine: the next batch gets its own answers."""
    stale, batch = [scenario(i) for i in range(3)], [scenario(i) for i in range(10, 12)]
    with SubprocessEngine(engine_cmd(), timeout=5, batch_size=3) as engine:
        engine.submit(stale)
        engine.submit(batch)
        answers = engine.run_batch(batch)
    assert [a["id"] for a in answers] == ["s10", "s11"], answers


@pytest.mark.parametrize("mode", ["raise", "crash", "hang", "schema", "missing"])
def test_python_engine_fault_is_reported(mode, faulty):
    engine = PythonEngine(faulty.make(mode, 1), timeout=0.5)
    fault = judged(engine.run_batch([scenario(0)]), [scenario(0)])[0]
    assert isinstance(fault, EngineFault)
    assert fault.kind == {"raise": "crash", "crash": "crash"}.get(mode, mode)
    assert fault.scenario["id"] == "s0"


def test_engine_that_cannot_start_is_a_usage_error(in_tmp):
    result = CliRunner().invoke(app, ["check", "--engine", "/nonexistent/engine --flag", "--examples", "3"])
    assert result.exit_code == 2
    assert "cannot start" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("mode", ["crash", "hang", "garbage", "schema", "missing"])
def test_check_stops_cleanly_on_a_fault(mode, faulty_cmd, in_tmp):
    args = ["check", "--engine", faulty_cmd(mode, 3), "--examples", "20", "--seed", "1", "--timeout", "1.5",
            "--batch", "4", "--database", "", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output  # 3: an engine fault
    report = json.loads(result.output)
    assert report["status"] == "fault"
    assert report["fault"]["kind"] == EXPECTED_KIND[mode]
    assert report["scenario"]["protocol"] == PROTOCOL and report["scenario"]["actions"]
    assert report["fault"]["scenario"] == report["scenario"]
    assert "--seed 1" in report["replay"]


def test_python_check_reports_a_raising_engine_as_a_fault(faulty, in_tmp):
    report = check(PythonEngine(faulty.make("raise", 2)), CheckOptions(examples=10, seed=3, database=None))
    assert report.status == "fault" and report.fault.kind == "crash"
    assert "deliberate engine bug" in report.text()


def test_a_batch_sent_ahead_shortens_the_thread_switch_until_it_is_collected(engine_cmd):
    """The writer and reader threads get the interpreter every millisecond while the engine answers, and
    the interval the process had comes back with the answers, a fault or not."""
    import sys

    from referee.engines.transports import THREAD_SWITCH_SECONDS

    before = sys.getswitchinterval()
    batch = [scenario(i) for i in range(2)]
    with SubprocessEngine(engine_cmd(), timeout=5, batch_size=2) as engine:
        engine.submit(batch)
        assert sys.getswitchinterval() == min(before, THREAD_SWITCH_SECONDS)
        answers = engine.run_batch(batch)
        assert sys.getswitchinterval() == before
        assert [a["id"] for a in answers] == ["s0", "s1"]
        engine.run_batch(batch)  # not sent ahead: the interval is left alone
        assert sys.getswitchinterval() == before
