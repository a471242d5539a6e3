"""A found bug is never lost, a report is never lost, a secret is never printed.

A Redis URL's password is shown as ``***`` in every line, report and file ``referee check`` writes (the replay
command, ``--json``, ``--html``, ``--junit``, the state folder, the errors); a server that wants a password, or
refuses it, says so; ``REFEREE_DATABASE`` names the database off the command line. Every output path is checked
before the first scenario, the report is printed before any file is written, and a failure whose failure file
could not be written says so instead of pointing to a replay file that does not exist.

Unwritable paths are made portably (CI runs as root, which ignores permission bits): a path under a regular file.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from harness_tools import RedisServer, free_port, require_module, require_program
from referee.cli.app import app

RUNNER = CliRunner()
SECRET = "s3cret-Pa55"
MUTANT = "referee.examples.mutants:floor_instead_of_ceil"
ENGINE = "referee.examples.engine:run"
#: The mutant's bug, found after 67 scenarios of seed 3 (test_harness_redis_campaign).
FOUND = ["--seed", "3", "--examples", "300"]


def _check(*args: str):
    return RUNNER.invoke(app, ["check", "--in-process", *args])


@pytest.fixture
def locked_redis(tmp_path: Path):
    """A throwaway Redis server that wants the password ``SECRET``."""
    program = require_program("redis-server", "redis-server")
    require_module("redis", "redis")
    server = RedisServer(program, tmp_path)
    server.client().config_set("requirepass", SECRET)
    try:
        yield server
    finally:
        server.stop()


def _url(server: RedisServer, password: str | None = SECRET) -> str:
    return f"redis://:{password}@127.0.0.1:{server.port}/0" if password else server.url


def _authenticated(server: RedisServer):
    import redis

    return redis.Redis(host="127.0.0.1", port=server.port, password=SECRET)


def _every_file_under(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}


# --------------------------------------------------------------------------------------
# The password
# --------------------------------------------------------------------------------------


def test_a_redis_password_is_in_no_line_report_or_file_of_a_run(locked_redis, in_tmp):
    work = in_tmp / "work"
    url = _url(locked_redis)
    found = _check("--python", MUTANT, *FOUND, "--database", url, "--state-dir", str(work / "state"),
                   "--json", "--html", str(work / "run.html"), "--junit", str(work / "junit.xml"))
    assert found.exit_code == 1, found.output
    report = json.loads(found.stdout)
    assert report["status"] == "mismatch"
    assert _authenticated(locked_redis).keys(b"referee-example:*"), "the failure is stored in the server"
    assert "redis://:***@127.0.0.1" in report["replay"] and "--replay" in report["replay"]
    # the same command in text: the failure comes back from the server, replayed first
    again = _check("--python", MUTANT, *FOUND, "--database", url, "--state-dir", str(work / "state"))
    assert again.exit_code == 1 and "stored failure" in again.output, again.output
    files = _every_file_under(work)
    assert any(path.suffix == ".json" for path in files) and work / "run.html" in files and work / "junit.xml" in files
    for text in (found.output, again.output, *files.values()):
        assert SECRET not in (text if isinstance(text, str) else text.decode("utf-8", "replace"))


def test_a_server_that_wants_a_password_or_refuses_it_says_so_without_printing_it(locked_redis, in_tmp):
    wanted = _check("--python", ENGINE, "--examples", "1", "--database", _url(locked_redis, None))
    refused = _check("--python", ENGINE, "--examples", "1", "--database", _url(locked_redis, "wrong-" + SECRET))
    assert (wanted.exit_code, refused.exit_code) == (2, 2), wanted.output + refused.output
    assert "the Redis server wants a password" in wanted.output and "does not answer" not in wanted.output
    assert "the Redis server refused the password" in refused.output and "does not answer" not in refused.output
    assert SECRET not in refused.output and "redis://:***@127.0.0.1" in refused.output


def test_a_server_that_does_not_answer_is_named_without_its_password(in_tmp):
    require_module("redis", "redis")
    url = f"redis://:{SECRET}@127.0.0.1:{free_port()}/0"  # nothing listens there
    result = _check("--python", ENGINE, "--examples", "1", "--database", url)
    assert result.exit_code == 2, result.output
    assert "--database redis://:***@127.0.0.1" in result.output and "does not answer" in result.output
    assert SECRET not in result.output and "Traceback" not in result.output


def test_shown_masks_every_form_of_password_and_leaves_the_rest():
    from referee.check.databases import hidden, shown

    assert shown("redis://user:pw@host:6379/2") == "redis://user:***@host:6379/2"
    assert shown("rediss://:p%40ss@host/0") == "rediss://:***@host/0"
    assert shown("unix://:pw@/tmp/r.sock?db=1") == "unix://:***@/tmp/r.sock?db=1"
    assert shown("unix:///tmp/r.sock?db=1&password=pw") == "unix:///tmp/r.sock?db=1&password=***"
    assert shown("redis://host:6379/0") == "redis://host:6379/0" and shown(".referee/examples") == ".referee/examples"
    url = "redis://:p%40ss@h/0"
    assert hidden(f"AUTH p@ss failed for {url}", url) == "AUTH *** failed for redis://:***@h/0"


def test_the_database_number_must_be_a_number(in_tmp):
    require_module("redis", "redis")
    result = _check("--python", ENGINE, "--examples", "1", "--database", f"redis://127.0.0.1:{free_port()}/notanumber")
    assert result.exit_code == 2, result.output
    assert "the database number 'notanumber'" in result.output and "does not answer" not in result.output


# --------------------------------------------------------------------------------------
# REFEREE_DATABASE
# --------------------------------------------------------------------------------------


def test_referee_database_names_the_database_and_the_replay_reads_it_again(in_tmp, monkeypatch):
    monkeypatch.setenv("REFEREE_DATABASE", str(in_tmp / "shared"))
    result = _check("--python", MUTANT, *FOUND, "--json")
    assert result.exit_code == 1, result.output
    assert list((in_tmp / "shared").rglob("*")), "the failure is stored in the database the variable names"
    assert "--database" not in json.loads(result.stdout)["replay"]
    # a state folder of its own: the default one's failure store would replay the first run's failure before
    # Hypothesis runs, and nothing new would reach the database
    flag = _check("--python", MUTANT, *FOUND, "--database", str(in_tmp / "flag"),
                  "--state-dir", str(in_tmp / "flag-state"), "--json")
    assert flag.exit_code == 1 and list((in_tmp / "flag").rglob("*")), "--database wins over the variable"
    assert f"--database {in_tmp / 'flag'}" in json.loads(flag.stdout)["replay"]


def test_a_password_in_referee_database_is_not_printed(locked_redis, in_tmp, monkeypatch):
    monkeypatch.setenv("REFEREE_DATABASE", _url(locked_redis, "wrong-" + SECRET))
    result = _check("--python", ENGINE, "--examples", "1")
    assert result.exit_code == 2 and "refused the password" in result.output, result.output
    assert SECRET not in result.output


# --------------------------------------------------------------------------------------
# Small refusals
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", ["0", "-1"])
def test_max_divergences_below_one_is_refused(count, in_tmp):
    result = _check("--python", ENGINE, "--examples", "1", "--keep-going", "--max-divergences", count)
    assert result.exit_code == 2, result.output
    assert f"--max-divergences {count}: expected a whole number >= 1" in result.output


def test_a_replay_file_whose_actions_is_a_number_names_the_field(in_tmp):
    (in_tmp / "bad.json").write_text(json.dumps({"protocol": "referee/2", "board": [], "actions": 5}))
    result = _check("--python", ENGINE, "--replay", "bad.json")
    explained = RUNNER.invoke(app, ["explain", "bad.json"])
    assert result.exit_code == 2, result.output
    assert "bad.json" in result.output and "scenario.actions: expected array" in result.output
    assert "scenario.actions: expected array" in explained.output, "the field explain names"
    assert "could not run" not in result.output


# --------------------------------------------------------------------------------------
# Output paths: checked before the run, written after the report
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag, path, said", [
    ("--html", "a-file/run.html", "cannot write: a-file is a file, not a folder"),
    ("--junit", "a-folder", "cannot write: it is a folder, not a file"),
    ("--state-dir", "a-file", "cannot write: it is a file, not a folder"),
    ("--state-dir", "a-file/state", "cannot write: a-file is a file, not a folder"),
])
def test_an_output_that_cannot_be_written_is_refused_before_the_first_scenario(flag, path, said, in_tmp):
    (in_tmp / "a-file").write_text("a regular file")
    (in_tmp / "a-folder").mkdir()
    result = _check("--python", ENGINE, "--examples", "5", flag, path)
    assert result.exit_code == 2, result.output
    assert f"{flag} {path}: " in result.output and said in result.output
    assert "referee check: PASS" not in result.output, "refused before the run"


def test_a_file_that_fails_at_the_end_is_a_warning_after_the_report(in_tmp, monkeypatch):
    from referee.report import files

    def full(path, *args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "_write_text", full)
    result = _check("--python", ENGINE, "--examples", "3", "--html", "run.html", "--junit", "junit.xml")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("referee check: PASS")
    assert "warning: --html run.html: cannot write: No space left on device" in result.stderr
    assert "warning: --junit junit.xml: cannot write: No space left on device" in result.stderr


def _sabotaging_engine(folder: Path, state: Path) -> str:
    """An engine (the mutant) that, on its first call, turns the state folder's failures/ and examples/ into
    files: what a state folder that stops taking writes during the run looks like, as root too."""
    (folder / "sabotage_engine.py").write_text(textwrap.dedent(f"""
        import shutil
        from pathlib import Path
        from referee.examples.mutants import floor_instead_of_ceil

        def run(scenario):
            for name in ("failures", "examples"):
                inside = Path({str(state)!r}) / name
                if inside.is_dir():
                    shutil.rmtree(inside)
                if not inside.exists():
                    inside.parent.mkdir(parents=True, exist_ok=True)
                    inside.write_text("not a folder")
            return floor_instead_of_ceil(scenario)
    """))
    return "sabotage_engine:run"


def test_a_failure_whose_state_folder_stopped_taking_writes_says_nothing_was_kept(in_tmp):
    state = in_tmp / "state"
    engine = _sabotaging_engine(in_tmp, state)
    result = _check("--python", engine, "--path", str(in_tmp), *FOUND, "--state-dir", str(state))
    assert result.exit_code == 1, result.output
    assert "referee check: FAIL" in result.stdout
    warning = result.stderr
    assert "neither the failure file nor the example database's entry was written" in warning
    assert f"{state / 'failures'} is a file" in warning and f"{state / 'examples'} is a file" in warning
    assert "`referee explain` and `--replay` have no file to read" in warning
    assert "--seed 3" in warning, "the command that still replays it"
    assert "<replay file>" not in result.output and "the full JSON is in the replay file" not in result.output
    assert "no replay file was written" in result.stdout


# --------------------------------------------------------------------------------------
# vectors run: --junit and --receipt
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written boundary cases only, exported (no Z3 search)."""
    from referee.rulebooks.combat.vectors import boundary_vectors
    from referee.vectors import suite
    from referee.vectors.suite import Generated

    out = tmp_path_factory.mktemp("vectors")
    found = boundary_vectors()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(suite, "generate", lambda progress=None, only=None, profile=None: Generated(list(found), {}))
        result = RUNNER.invoke(app, ["vectors", "export", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("flag", ["--junit", "--receipt"])
def test_vectors_run_refuses_an_unwritable_output_before_the_engine_starts(flag, vectors, tmp_path):
    (tmp_path / "a-file").write_text("a regular file")
    path = str(tmp_path / "a-file" / "out")
    result = RUNNER.invoke(app, ["vectors", "run", str(vectors), "--python", ENGINE, "--in-process", flag, path])
    assert result.exit_code == 2, result.output
    assert f"{flag} {path}: cannot write: " in result.output and "is a file, not a folder" in result.output
    assert "vectors pass" not in result.output


def test_vectors_run_prints_its_report_before_a_receipt_that_fails(vectors, tmp_path, monkeypatch):
    from referee.vectors import suite

    def full(path, *args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(suite, "write_receipt", full)
    receipt = str(tmp_path / "receipt.json")
    result = RUNNER.invoke(app, ["vectors", "run", str(vectors), "--python", ENGINE, "--in-process", "--kinds",
                                 "damage", "--receipt", receipt])
    assert result.exit_code == 0, result.output
    assert "vectors pass" in result.stdout
    assert f"warning: --receipt {receipt}: cannot write: No space left on device" in result.stderr
