"""Vectors folders under fuzzing (issue 25): damaged manifests and vector files through ``vectors run`` and
``vectors check-receipt``, bounded in time.

Each trial copies a small exported folder, damages it one to three ways (``vector_fuzz.py``: missing files,
keys given twice, a wrong format or protocol, a vector listed twice, truncated JSON, FIFOs, symlinks, sparse
files over the size limit, bytes that are not UTF-8, hostile values in ``scenario``, ``expected`` and the
manifest's entries) and runs both verbs on it. What must hold for every trial:

* no traceback (no exception escapes the verb) and no hang (each call is bounded by an alarm);
* ``vectors run`` ends in 2 (a usage error) for a folder it cannot use, the message naming a file of the
  folder, or in a verdict over what ran; 0 only when every vector the manifest lists ran and passed;
* ``vectors check-receipt`` never says ok (0) for a folder whose bytes are not those of its receipt.

The default run throws 150 damaged folders (fixed seed); ``--runslow`` throws 2,000.
"""

from __future__ import annotations

import json
import random
import re
import signal
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from vector_fuzz import copy_folder, damage, snapshot

RUNNER = CliRunner()
ENGINE = ["--python", "referee.examples.engine:run", "--in-process"]
#: Exit statuses of ``vectors run``: pass, a mismatch, a usage error, faults or vectors not run.
RUN_STATUSES = (0, 1, 2, 3)


class Hung(BaseException):
    """A call that did not end within its bound (a BaseException: the CLI runner must not swallow it)."""


def bounded(args: list[str], seconds: int = 30):
    def hung(signum, frame):
        raise Hung(f"referee {' '.join(args)} did not end within {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        return RUNNER.invoke(app, args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder of four exported vectors (hand-written boundary cases: no Z3 search) and its receipt."""
    from referee.rulebooks.combat.vectors import boundary_vectors
    from referee.vectors.suite import Generated, export

    root = tmp_path_factory.mktemp("fuzzbase")
    chosen = boundary_vectors()[:4]
    export(root / "v", Generated(list(chosen), {}))
    receipt = root / "receipt.json"
    result = bounded(["vectors", "run", str(root / "v"), *ENGINE, "--receipt", str(receipt)])
    assert result.exit_code == 0 and "4/4 vectors pass" in result.output, result.output
    assert bounded(["vectors", "check-receipt", str(receipt), str(root / "v")]).exit_code == 0
    return root / "v", receipt


def _listed(folder: Path) -> int | None:
    """How many vectors the (damaged) manifest lists, when it can be read as a list."""
    path = folder / "manifest.json"
    try:
        if path.is_symlink() or not path.is_file():
            return None
        entries = json.loads(path.read_text()).get("vectors")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return len(entries) if isinstance(entries, list) else None


def _judge_run(result, folder: Path) -> str | None:
    """What is wrong with ``vectors run``'s answer on a damaged folder (None: nothing)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"traceback: {type(result.exception).__name__}: {str(result.exception)[:300]}"
    code, said = result.exit_code, result.output
    if code not in RUN_STATUSES:
        return f"exit {code}, not a status of vectors run"
    if code == 2 and str(folder) not in said:
        return f"a usage error that names no file of the folder: {said.strip()[-300:]!r}"
    if code == 0:
        passed = re.search(r"(\d+)/(\d+) vectors pass", said)
        if not passed or passed.group(1) != passed.group(2) or int(passed.group(2)) != _listed(folder) \
                or "skipped" in said:
            return f"exit 0, but not every listed vector ran and passed: {said.strip()[:300]!r}"
    return None


def _judge_receipt(result, changed: bool) -> str | None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"check-receipt traceback: {type(result.exception).__name__}: {str(result.exception)[:300]}"
    if result.exit_code not in (0, 1, 2):
        return f"check-receipt exit {result.exit_code}"
    if changed and result.exit_code == 0:
        return f"check-receipt ok on changed bytes: {result.output.strip()[-300:]!r}"
    return None


def fuzz(base: tuple[Path, Path], work: Path, trials: int, seed: int) -> tuple[list[str], dict[int, int], float]:
    """``trials`` damaged folders through both verbs: the problems found, the exit statuses seen, the seconds."""
    folder, receipt = base
    rng = random.Random(seed)
    outside = work / "outside.json"
    outside.write_text('{"scenario": {}, "expected": {}}')
    problems, statuses = [], {}
    started = time.perf_counter()
    for trial in range(trials):
        copy = copy_folder(folder, work / f"t{trial}")
        before = snapshot(copy)
        done = damage(copy, rng, outside)
        changed = snapshot(copy) != before
        try:
            ran = bounded(["vectors", "run", str(copy), *ENGINE])
            checked = bounded(["vectors", "check-receipt", str(receipt), str(copy)])
        except Hung as error:
            problems.append(f"trial {trial} ({', '.join(done)}): {error}")
            continue
        statuses[ran.exit_code] = statuses.get(ran.exit_code, 0) + 1
        for problem in (_judge_run(ran, copy), _judge_receipt(checked, changed)):
            if problem:
                problems.append(f"trial {trial} ({', '.join(done)}): {problem}")
    return problems, statuses, time.perf_counter() - started


def _run(base, tmp_path, trials: int, seed: int, capsys) -> None:
    problems, statuses, seconds = fuzz(base, tmp_path, trials, seed)
    with capsys.disabled():
        print(f"\nvector-folder fuzz: {trials} damaged folders in {seconds:.1f} s; vectors run exit statuses "
              f"{dict(sorted(statuses.items()))}; {len(problems)} problems")
    assert not problems, "\n".join(problems[:30])
    assert statuses.get(2, 0) > trials // 3  # the damage reaches the checks, not only the engine


def test_150_damaged_vector_folders_never_crash_hang_or_pass(base, tmp_path, capsys):
    _run(base, tmp_path, 150, 25, capsys)


@pytest.mark.slow
def test_2000_damaged_vector_folders_never_crash_hang_or_pass(base, tmp_path, capsys):
    _run(base, tmp_path, 2000, 2026, capsys)


# -- what the fuzzing found, each held by a test of its own --------------------------------------


@pytest.mark.parametrize("special", ["dev-zero", "fifo"])
@pytest.mark.parametrize("which", ["vector", "manifest"])
def test_check_receipt_never_reads_a_special_file(base, tmp_path, which, special):
    """``check-receipt`` hashed a file by reading it whole: a vector or manifest linked to ``/dev/zero`` was read
    until memory ran out, a FIFO blocked for ever. Now refused unread, and the receipt fails on it."""
    folder, receipt = base
    copy = copy_folder(folder, tmp_path / "v")
    target = copy / "manifest.json" if which == "manifest" else sorted(copy.rglob("0*.json"))[0]
    target.unlink()
    if special == "fifo":
        import os

        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    result = bounded(["vectors", "check-receipt", str(receipt), str(copy)], seconds=20)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2), result.output
    if which == "vector":
        said = "SHA-256" if special == "fifo" else "leaves the vectors folder (through a symbolic link)"
        assert result.exit_code == 1 and said in result.output and target.name in result.output, result.output
    else:
        assert "not a regular file" in result.output


def test_a_folder_where_a_file_is_expected_is_named_not_its_descriptor(tmp_path):
    """Reading a folder as a file raised ``IsADirectoryError: [Errno 21] Is a directory: 14`` (the descriptor, not
    the path) out of ``read_input_bytes``, a traceback through ``check-receipt``."""
    from referee.input_files import InputFileError, read_input_bytes

    with pytest.raises(InputFileError, match=r"adir: is a directory, not a regular file"):
        read_input_bytes(tmp_path / "adir" if (tmp_path / "adir").mkdir() is None else None)


@pytest.mark.parametrize("special", ["fifo", "directory"])
def test_a_manifest_that_is_not_a_file_is_named_for_what_it_is_not_not_found(base, tmp_path, special):
    folder, _ = base
    copy = copy_folder(folder, tmp_path / "v")
    (copy / "manifest.json").unlink()
    if special == "fifo":
        import os

        os.mkfifo(copy / "manifest.json")
    else:
        (copy / "manifest.json").mkdir()
    result = bounded(["vectors", "run", str(copy), *ENGINE], seconds=20)
    assert result.exit_code == 2 and "not found" not in result.output, result.output
    assert f"{copy / 'manifest.json'}: is a " in result.output and "not a regular file" in result.output
