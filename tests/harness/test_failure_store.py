"""A found bug is never lost: the write-ahead failure store of ``referee check`` (``referee.check.failure_store``).

Each test holds one reproduction: a signal just after the divergence was found (the example database kept only
Hypothesis' batch integer, and the next run did not replay it), an engine fault stored as a batch integer (the next
run read it as a scenario seed and passed), and foreign entries under the run's Redis key (they were replayed in
place of the stored failure, and 200,000 integers spent the run's budget). Signals come from the engine itself, at
its N-th call, never from a timer; the console command runs in a child process, as a user's terminal runs it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


REFEREE = str(Path(sys.executable).with_name("referee"))

#: ``floor_instead_of_ceil`` that sends its parent (referee) a signal at its N-th call (``SIG_AT``, ``SIG_NAME``).
#: Seed 1 diverges at scenario 115; calls 129-150 are the failing batch run again before the report.
SIGNALLING = """
import os, signal
from referee.examples.mutants import load

_mutant = load("floor_instead_of_ceil").run
_calls = [0]

def run(scenario):
    _calls[0] += 1
    if _calls[0] == int(os.environ.get("SIG_AT", "0")):
        os.kill(os.getppid(), getattr(signal, os.environ["SIG_NAME"]))
    return _mutant(scenario)
"""

#: An engine that raises on one scenario in ``RARE`` (by a hash of the scenario: deterministic), and that also
#: signals its parent at its N-th call when ``SIG_AT`` says so.
RARE_FAULT = """
import hashlib, json, os, signal
from referee.examples.engine import run as clean

RARE = int(os.environ.get("RARE", "300"))
_calls = [0]

def run(scenario):
    _calls[0] += 1
    if _calls[0] == int(os.environ.get("SIG_AT", "0")):
        os.kill(os.getppid(), getattr(signal, os.environ["SIG_NAME"]))
    public = {k: v for k, v in scenario.items() if k != "id"}
    if int(hashlib.sha256(json.dumps(public, sort_keys=True).encode()).hexdigest(), 16) % RARE == 0:
        raise RuntimeError("deliberate rare engine fault")
    return clean(scenario)
"""


def _engine(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(textwrap.dedent(body))
    return f"{name}:run"


def referee(folder: Path, args: list[str], **env: str) -> tuple[int, str, str]:
    """``referee ARGS`` in ``folder`` (its engines importable): exit code, stdout, stderr."""
    done = subprocess.run([REFEREE, *args], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(folder), **env})
    return done.returncode, done.stdout, done.stderr


def check_json(folder: Path, args: list[str], **env: str) -> tuple[int, dict]:
    code, out, err = referee(folder, ["check", *args, "--json"], **env)
    try:
        return code, json.loads(out)
    except json.JSONDecodeError:
        raise AssertionError(f"exit {code}\n{out[-3000:]}\n{err[-3000:]}") from None


def stored(state: Path) -> list[dict]:
    """The failure store's records under a state folder."""
    return [json.loads(p.read_text()) for p in sorted((state / "failures" / "store").glob("*/*.json"))]


# -- 1. a signal just after the divergence ---------------------------------------------------


def _signalled_then_rerun(tmp_path: Path, signame: str, at: int) -> tuple[dict, dict]:
    """The signalling mutant stopped at call ``at`` (seed 1), then the plain mutant run again (seed 9, its own
    stream never reaches the bug early): the store's records in between, and the second run's report."""
    engine = _engine(tmp_path, "signalling", SIGNALLING)
    state = str(tmp_path / "state")
    code, out, err = referee(tmp_path, ["check", "--python", engine, "-n", "500", "--seed", "1", "--state-dir", state,
                                        "--name", "E"], SIG_AT=str(at), SIG_NAME=signame)
    assert code == 128 + getattr(signal, signame) and "INTERRUPTED" in out, (code, out[-2000:], err[-2000:])
    assert "first failure after 115 scenarios" in out, out[-2000:]
    code, again = check_json(tmp_path, ["--python", engine, "-n", "64", "--seed", "9", "--state-dir", state,
                                        "--name", "E"])
    assert code == 1 and again["status"] == "mismatch", again
    return stored(tmp_path / "state"), again


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("at", [130, 140, 150])
def test_a_signal_just_after_the_divergence_never_loses_it(tmp_path, signame, at):
    records, again = _signalled_then_rerun(tmp_path, signame, at)
    assert again["stored_failures"] == {"replayed_first": 1, "failure_is_stored": True}, again["stored_failures"]
    assert again["first_failure_after"] == 1, again["first_failure_after"]
    # the same bug: Armor's mitigation rounded down (500.2c); the store holds it, shrunk, until the engine passes it
    assert "combat:500.2c" in again["clauses"], again["clauses"]
    assert [(r["verdict"], r["scenario"]) for r in records] == [("mismatch", again["scenario"])], records


def test_the_interrupted_report_shows_the_scenario_found_and_its_replay_file(tmp_path):
    engine = _engine(tmp_path, "signalling", SIGNALLING)
    code, out, _ = referee(tmp_path, ["check", "--python", engine, "-n", "500", "--seed", "1", "--state-dir", "st"],
                           SIG_AT="140", SIG_NAME="SIGTERM")
    assert code == 143 and "INTERRUPTED (SIGTERM)" in out, out[-2000:]
    assert "first divergence:" in out and "--replay st/failures/" in out, out[-3000:]


# -- 2. an engine fault is stored as its scenario ----------------------------------------------


def test_a_rare_fault_is_replayed_first_and_stays_until_an_engine_passes_it(tmp_path):
    engine = _engine(tmp_path, "rare", RARE_FAULT)
    base = ["--python", engine, "--in-process", "--state-dir", "state", "--name", "rare"]
    code, first = check_json(tmp_path, [*base, "-n", "640", "--seed", "3"])
    assert code == 3 and first["status"] == "fault", first
    for seed in ("11", "12"):  # another seed, twice: the fault is replayed first both times (it stays)
        code, again = check_json(tmp_path, [*base, "-n", "96", "--seed", seed])
        assert code == 3 and again["status"] == "fault", again
        assert again["scenario"] == first["scenario"] and again["first_failure_after"] == 1, again
        assert again["stored_failures"]["failure_is_stored"] is True
    assert [(r["verdict"], r["scenario"]) for r in stored(tmp_path / "state")] == [("fault", first["scenario"])]
    # an engine that passes it (the clean engine under the same name): it leaves the store, and the run says so
    clean = ["--python", "referee.examples.engine:run", "--in-process", "--state-dir", "state", "--name", "rare"]
    code, fixed = check_json(tmp_path, [*clean, "-n", "32", "--seed", "5"])
    assert code == 0 and fixed["stored_failures"]["replayed_first"] == 1, fixed
    # the budget, the stored entry on top, and at most a few of Hypothesis' own stored entries
    assert 32 + 1 <= fixed["scenarios_run"] <= 32 + 1 + 8, fixed["scenarios_run"]
    assert stored(tmp_path / "state") == []


def test_the_same_command_twice_replays_a_stored_fault_and_fails_again(tmp_path):
    """With ``faulty_engine.py garbage 2``, the second run of the same command replayed the stored fault's batch
    integer as a scenario seed, checked 1 scenario and printed PASS with ``-n 4``."""
    faulty = Path(__file__).with_name("faulty_engine.py")
    command = f"{sys.executable} {faulty} garbage 2"
    args = ["--engine", command, "-n", "4", "--seed", "1", "--state-dir", "state", "--timeout", "5"]
    codes = [check_json(tmp_path, args)[0] for _ in range(2)]
    assert codes == [3, 3], codes


def test_an_entry_outside_the_profile_is_kept_not_run_and_said(tmp_path):
    engine = _engine(tmp_path, "rare", RARE_FAULT)
    base = ["--python", engine, "--in-process", "--state-dir", "state", "--name", "rare"]
    assert check_json(tmp_path, [*base, "-n", "640", "--seed", "3"])[0] == 3
    kinds = {a["kind"] for a in stored(tmp_path / "state")[0]["scenario"]["actions"]}
    other = sorted({"damage", "cost", "recover", "tick"} - kinds)[:1]
    code, out, err = referee(tmp_path, ["check", *base, "-n", "32", "--seed", "5", "--kinds", *other], RARE="100000")
    assert code == 0, (out[-2000:], err[-2000:])
    assert "0 stored failures" in out.splitlines()[0] and "1 kept, outside this run's profile, not run" in out, out
    assert len(stored(tmp_path / "state")) == 1


def test_an_entry_stored_under_other_readings_is_kept_not_run_and_said(tmp_path):
    """Before, a failure found under one reading was replayed first by a run declaring another, and reported beside
    that run's replay line as if the new reading had failed (two engine authors were misled by it)."""
    engine = _engine(tmp_path, "rare", RARE_FAULT)
    base = ["--python", engine, "--in-process", "--state-dir", "state", "--name", "rare"]
    assert check_json(tmp_path, [*base, "-n", "640", "--seed", "3"])[0] == 3
    assert stored(tmp_path / "state")[0]["scenario"]["ruleset"]["negative_armor"] == "mirror"
    code, out, err = referee(tmp_path, ["check", *base, "-n", "32", "--seed", "5", "--ruleset",
                                        "negative_armor=reciprocal"], RARE="100000")
    assert code == 0, (out[-2000:], err[-2000:])
    assert ("1 kept, stored under other readings (negative_armor: stored mirror, this run reciprocal), not run"
            in out), out
    assert len(stored(tmp_path / "state")) == 1, "kept: the next run under its readings replays it"
    code, again = check_json(tmp_path, [*base, "-n", "32", "--seed", "5"])
    assert code == 3 and again["status"] == "fault", "under its own readings it is replayed, and fails again"


# -- 3. foreign entries under the run's Redis key ----------------------------------------------


MUTANT = "referee.examples.mutants:floor_instead_of_ceil"


def _example_key(client) -> bytes:
    keys = [k for k in client.keys(b"referee-example:*") if not k.endswith((b".secondary", b".pareto"))]
    assert len(keys) == 1, keys
    return keys[0]


def test_foreign_entries_under_the_redis_key_never_hide_the_stored_failure(redis_server, tmp_path):
    from hypothesis.database import choices_to_bytes

    base = ["--python", MUTANT, "--in-process", "--database", redis_server.url]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert check_json(tmp_path / "a", [*base, "-n", "300", "--seed", "3"])[0] == 1
    client = redis_server.client()
    key = _example_key(client)
    client.sadd(key, choices_to_bytes(("x",)), choices_to_bytes((1.5,)))
    code, again = check_json(tmp_path / "b", [*base, "-n", "32", "--seed", "5"])  # another machine: its own folder
    assert code == 1 and again["stored_failures"] == {"replayed_first": 1, "failure_is_stored": True}, again
    members = client.smembers(key)
    assert choices_to_bytes(("x",)) in members and choices_to_bytes((1.5,)) in members  # never deleted


def test_many_integer_entries_never_spend_the_budget(redis_server, tmp_path):
    """200,000 integers under the key: the run (the store emptied) still reaches its own stream's bug."""
    from hypothesis.database import choices_to_bytes

    base = ["--python", MUTANT, "--in-process", "--database", redis_server.url, "--state-dir", "state"]
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    code, found = check_json(tmp_path / "a", [*base, "-n", "600", "--seed", "1"])
    assert code == 1 and found["first_failure_after"] == 115, found["first_failure_after"]
    client = redis_server.client()
    key = _example_key(client)
    client.delete(*client.keys(b"referee-failure-store:*"), key)  # no stored failure left: only the integers
    chooser = random.Random(0)
    for at in range(0, 200_000, 10_000):
        client.sadd(key, *(choices_to_bytes((chooser.randrange(2**64),)) for _ in range(10_000)))
    code, again = check_json(tmp_path / "b", [*base, "-n", "600", "--seed", "1"])
    assert code == 1 and again["status"] == "mismatch", again["status"]
    assert again["first_failure_after"] <= 115 + 8, again["first_failure_after"]  # at most a few replayed first
    assert "combat:500.2c" in again["clauses"]
    assert client.scard(key) >= 200_000 - 8


# -- 4. no found bug is lost: signals at random calls -----------------------------------------


def _no_bug_lost(tmp_path: Path, trial: int) -> None:
    """A seeded bug or a rare fault, a run of random seed and length, a SIGINT or SIGTERM at a random call: if the
    run found its bug before the signal, the next run (another seed) replays it first and reports the same bug."""
    chooser = random.Random(trial)
    folder = tmp_path / f"t{trial}"
    folder.mkdir()
    kind = chooser.choice(["mutant", "fault"])
    engine = _engine(folder, kind, SIGNALLING if kind == "mutant" else RARE_FAULT)
    signame, at, seed = chooser.choice(["SIGINT", "SIGTERM"]), chooser.randrange(1, 700), chooser.randrange(1000)
    base = ["--python", engine, "--state-dir", "state", "--name", kind]
    code, out, err = referee(folder, ["check", *base, "-n", "600", "--seed", str(seed)], SIG_AT=str(at),
                             SIG_NAME=signame, RARE="120")
    found = "first failure after" in out
    if not found:
        assert stored(folder / "state") == [], (out[-2000:], err[-2000:])
        return
    code, again = check_json(folder, [*base, "-n", "32", "--seed", str(seed + 1)], SIG_AT="0", SIG_NAME=signame,
                             RARE="120")
    assert again["stored_failures"]["failure_is_stored"] is True and again["first_failure_after"] == 1, \
        (trial, kind, signame, at, seed, out[-2000:], again)
    assert again["status"] == ("mismatch" if kind == "mutant" else "fault"), again["status"]
    if kind == "mutant":
        assert "combat:500.2c" in again["clauses"]
    assert stored(folder / "state"), trial


@pytest.mark.parametrize("trial", range(3))
def test_no_found_bug_is_lost_to_a_signal_at_a_random_call(tmp_path, trial):
    _no_bug_lost(tmp_path, trial)


@pytest.mark.slow
@pytest.mark.parametrize("trial", range(3, 40))
def test_no_found_bug_is_lost_to_a_signal_at_a_random_call_long(tmp_path, trial):
    _no_bug_lost(tmp_path, trial)
