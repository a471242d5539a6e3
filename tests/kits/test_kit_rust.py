"""The Rust engine kit (``referee/kits/rust``), as ``referee init --language rust`` writes it.

The kit is written with :func:`referee.kits.init.write_kit` and built offline against Debian's crates
(``librust-serde-dev``, ``librust-serde-json-dev``, ``librust-sha2-dev``: a source replacement to
``/usr/share/cargo/registry`` given on cargo's command line, never in a file the kit ships). Then:

* the skeleton answers a ``damage`` scenario over JSON lines with the ``unsupported`` answer naming
  ``damage``, and ``referee check`` passes it under the kit's empty profile;
* with ``tests/kits/rust/replay_engine.rs`` copied over ``src/engine.rs`` (answers recorded from the
  example engine), ``cargo test`` passes a release folder; with one unit's Vitality off by one in one
  answer it fails, naming that vector and its primary clause;
* the runner's other rules hold: an expected failure is ``known`` and a passing one ``stale``, a vector
  changed after the export fails the run, a selection that runs nothing fails;
* the native runner's verdicts (``REFEREE_VERDICTS``) equal ``referee vectors run``'s receipt, vector by
  vector, for the same answers (``tests/kits/replay_engine.py``): with and without the seeded bug, and
  under each feature filter (``REFEREE_FEATURES`` / ``--features``, ``REFEREE_EXCLUDE_FEATURES`` /
  ``--exclude-features``).

The release folder is the session's damage release (``tests/damage_release.py``: ``referee vectors export DIR
--kinds damage -q --release``, exported once and shared with the other kits' and the conformance report's tests).

Without cargo or the Debian crates the module skips, unless ``CI`` is set: then it fails.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from damage_release import damage_release

from referee.examples.engine import run as example_engine
from referee.kits.init import write_kit

HERE = Path(__file__).resolve().parent
REPLAY_ENGINE_RS = HERE / "rust" / "replay_engine.rs"
REFEREE = str(Path(sys.executable).with_name("referee"))
NAME = "rs-engine"
DEBIAN_REGISTRY = Path("/usr/share/cargo/registry")
#: The crates the kit needs, and how Debian's registry names a folder of a version that fits (``serde_json-1.0.87``).
CRATES = {"serde": "serde-1.", "serde_derive": "serde_derive-1.", "serde_json": "serde_json-1.", "sha2": "sha2-0.10."}
#: cargo's options for an offline build against Debian's crates.
OFFLINE = ("--offline", "--config", 'source.crates-io.replace-with="debian"',
           "--config", f'source.debian.directory="{DEBIAN_REGISTRY}"')
SUMMARY = "referee vectors (native): "
#: ``referee vectors run``'s receipt status -> the native runner's verdict word.
REFERENCE_STATUS = {"pass": "pass", "mismatch": "fail", "fault": "fault"}


@dataclass(frozen=True)
class SeededBug:
    """The one answer changed: a unit's Vitality one more than the example engine's."""

    path: str
    primary: str
    uid: str
    vitality: int


@dataclass(frozen=True)
class Bench:
    """The built kit, the release folder and the recorded answers the tests share."""

    cargo: str
    kit: Path
    skeleton: Path
    release: Path
    vectors: Path
    answers: Path
    bug_answers: Path
    bug: SeededBug


def in_ci() -> bool:
    """Whether this run is CI's (``CI`` set), where a missing toolchain fails instead of skipping."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def toolchain() -> str:
    """cargo's path; skips (fails in CI) when cargo or a Debian crate the kit needs is missing."""
    rustup_cargo = Path.home() / ".cargo" / "bin" / "cargo"
    cargo = shutil.which("cargo") or (str(rustup_cargo) if rustup_cargo.is_file() else None)
    present = [p.name for p in DEBIAN_REGISTRY.iterdir()] if DEBIAN_REGISTRY.is_dir() else []
    missing = [crate for crate, prefix in CRATES.items() if not any(n.startswith(prefix) for n in present)]
    if cargo and not missing:
        return cargo
    reason = (f"the Rust kit needs cargo ({cargo or 'not found'}) and Debian's crates in {DEBIAN_REGISTRY} "
              f"(missing: {', '.join(missing) or 'none'}; apt-get install librust-serde-dev "
              "librust-serde-derive-dev librust-serde-json-dev librust-sha2-dev)")
    if in_ci():
        pytest.fail(reason)
    pytest.skip(reason)


def run(command: list[str], cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    """``command`` in ``cwd`` with ``env`` added to this process's environment; output captured as text."""
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "CARGO_TERM_COLOR": "never", **env})


def cargo(bench_cargo: str, verb: str, kit: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``cargo VERB --release`` offline in the kit, against Debian's crates."""
    return run([bench_cargo, verb, "--release", *OFFLINE, *args], kit, **env)


def succeeded(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """``done``, after asserting it exited 0 (the message shows its output's tail)."""
    assert done.returncode == 0, f"{done.args}: exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def release_folder(parent: Path) -> Path:
    """The one folder below ``parent`` holding ``release.json``."""
    found = sorted(p.parent for p in parent.glob("*/release.json"))
    assert len(found) == 1, f"{parent}: expected one release folder, found {found}"
    return found[0]


def build_kit(cargo_path: str, kit: Path, skeleton: Path) -> None:
    """Writes and builds the kit; keeps the skeleton's program at ``skeleton``; then puts the replay engine
    in place of ``src/engine.rs`` and builds the tests."""
    write_kit("rust", kit, name=NAME)
    succeeded(cargo(cargo_path, "build", kit))
    program = kit / tomllib.loads((kit / "referee.toml").read_text())["engine"]
    skeleton.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(program, skeleton)
    shutil.copyfile(REPLAY_ENGINE_RS, kit / "src" / "engine.rs")
    succeeded(cargo(cargo_path, "test", kit, "--no-run", "--lib", "--test", "vectors"))


def record_answers(vectors: Path, out: Path) -> dict:
    """The example engine's answer to every vector's scenario (id ``v<index>``), written to ``out``."""
    manifest = json.loads((vectors / "manifest.json").read_text())
    answers = {}
    for index, entry in enumerate(manifest["vectors"]):
        scenario = json.loads((vectors / entry["path"]).read_text())["scenario"]
        answers[f"v{index}"] = example_engine({**scenario, "id": f"v{index}"})
    out.write_text(json.dumps(answers))
    return answers


def seed_bug(vectors: Path, answers: dict, out: Path) -> SeededBug:
    """``answers`` with the first vector's first unit's Vitality one more, written to ``out``."""
    entry = json.loads((vectors / "manifest.json").read_text())["vectors"][0]
    changed = json.loads(json.dumps(answers))
    unit = changed["v0"]["board"][0]
    unit["vitality"] += 1
    out.write_text(json.dumps(changed))
    return SeededBug(entry["path"], entry["primary"], unit["uid"], unit["vitality"])


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Bench:
    """The kit built (its skeleton kept aside, the replay engine in place), a release folder of the
    ``damage`` vectors and the example engine's answers to them, with and without the seeded bug."""
    cargo_path = toolchain()
    root = tmp_path_factory.mktemp("rust-kit")
    build_kit(cargo_path, root / "engine", root / "skeleton" / NAME)
    vectors = damage_release(root / "release")
    answers = record_answers(vectors, root / "answers.json")
    bug = seed_bug(vectors, answers, root / "answers-bug.json")
    return Bench(cargo_path, root / "engine", root / "skeleton" / NAME, root / "release", vectors,
                 root / "answers.json", root / "answers-bug.json", bug)


def native(bench: Bench, answers: Path, **env: str) -> subprocess.CompletedProcess:
    """``cargo test`` of the kit (the replay engine answering from ``answers``) over the release folder."""
    settings = {"REFEREE_VECTORS": str(bench.release), "REFEREE_ANSWERS": str(answers), **env}
    return cargo(bench.cargo, "test", bench.kit, "--test", "vectors", "--", "--nocapture", **settings)


def summary(done: subprocess.CompletedProcess) -> str:
    """The native runner's summary line in ``done``'s output."""
    lines = [line for line in done.stdout.splitlines() if line.startswith(SUMMARY)]
    assert lines, f"no summary line\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return lines[-1]


def a_damage_scenario(bench: Bench) -> dict:
    """The first vector's scenario (a ``damage`` action), with an id."""
    entry = json.loads((bench.vectors / "manifest.json").read_text())["vectors"][0]
    return {**json.loads((bench.vectors / entry["path"]).read_text())["scenario"], "id": "s1"}


def read_line(process: subprocess.Popen, timeout: float = 30) -> str:
    """One line of ``process``'s stdout, failing if none comes within ``timeout`` seconds."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, f"no answer line within {timeout} s (is each answer flushed?)"
    return process.stdout.readline()


# -- (a) the skeleton -------------------------------------------------------------------------------


def test_the_skeleton_refuses_damage_by_name_over_json_lines(bench):
    process = subprocess.Popen([str(bench.skeleton)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        process.stdin.write(json.dumps(a_damage_scenario(bench)) + "\n")
        process.stdin.flush()
        answer = json.loads(read_line(process))
    finally:
        process.kill()
        process.wait()
    assert answer == {"protocol": "referee/2", "id": "s1",
                      "unsupported": {"kind": "damage", "reason": "not implemented yet"}}


def test_the_skeleton_says_which_line_is_not_json_and_exits_1(bench):
    lines = json.dumps(a_damage_scenario(bench)) + "\n\n{not json\n"
    done = subprocess.run([str(bench.skeleton)], input=lines, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == 1 and '"unsupported"' in done.stdout
    assert "stdin line 3: not JSON" in done.stderr


def test_referee_check_passes_the_skeleton_under_the_kits_empty_profile(bench):
    done = run([REFEREE, "check", "--engine", str(bench.skeleton)], bench.kit, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "damage" in done.stdout


# -- (b) the native runner through cargo test -------------------------------------------------------


def test_the_runners_own_unit_tests_pass(bench):
    done = succeeded(cargo(bench.cargo, "test", bench.kit, "--lib"))
    assert "test result: ok. 0 passed" not in done.stdout and "test result: ok." in done.stdout


def test_cargo_test_passes_the_release_folder_with_the_example_engines_answers(bench):
    done = native(bench, bench.answers)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    manifest = json.loads((bench.vectors / "manifest.json").read_text())
    total = len(manifest["vectors"])
    assert summary(done) == f"{SUMMARY}PASS — {total} passed, 0 failed, 0 faults, 0 known, 0 stale, 0 skipped of {total}"


def test_cargo_test_fails_the_seeded_bug_naming_its_vector_and_primary_clause(bench):
    done = native(bench, bench.bug_answers)
    bug = bench.bug
    assert done.returncode != 0
    assert summary(done).startswith(f"{SUMMARY}FAIL — ") and ", 1 failed, 0 faults," in summary(done)
    line = (f"FAIL   {bug.path} ({bug.primary}): board.{bug.uid}.vitality: "
            f"expected {bug.vitality - 1}, got {bug.vitality}")
    assert line in done.stdout.splitlines(), done.stdout[-4000:]


def test_an_expected_failure_is_known_and_a_passing_one_is_stale(bench, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text(f"# the seeded bug\n{bench.bug.path}  # vitality off by one\n\n")
    known = native(bench, bench.bug_answers, REFEREE_EXPECTED_FAILURES=str(listed))
    stale = native(bench, bench.answers, REFEREE_EXPECTED_FAILURES=str(listed))
    assert known.returncode == 0, known.stdout[-4000:]
    assert ", 0 failed, 0 faults, 1 known, 0 stale," in summary(known)
    assert stale.returncode != 0
    assert f"STALE  {bench.bug.path} ({bench.bug.primary}): remove it from {listed}: it passes now" in stale.stdout


def test_a_vector_changed_after_the_export_fails_the_run_naming_it(bench, tmp_path):
    copy = tmp_path / "release"
    shutil.copytree(bench.release, copy)
    vector = release_folder(copy) / bench.bug.path
    vector.write_text(vector.read_text().replace('"vitality": ', '"vitality":  ', 1))
    done = native(bench, bench.answers, REFEREE_VECTORS=str(copy))
    assert done.returncode != 0
    assert f"{bench.bug.path} has SHA-256" in done.stdout + done.stderr


def test_a_selection_that_runs_nothing_fails(bench):
    done = native(bench, bench.answers, REFEREE_KINDS="hit")
    assert done.returncode != 0
    assert summary(done).startswith(f"{SUMMARY}FAIL — 0 passed,")


# -- (c) held to referee vectors run, vector by vector ----------------------------------------------


def reference_verdicts(bench: Bench, answers: Path, receipt: Path, *options: str) -> dict[str, str]:
    """``referee vectors run`` over the release folder with the Python replay engine (``tests/kits/
    replay_engine.py``): path -> verdict, a vector outside the selection ``skipped``."""
    done = run([REFEREE, "vectors", "run", str(bench.vectors), "--python", "replay_engine:run",
                "--receipt", str(receipt), *options], receipt.parent, timeout=300,
               REFEREE_ANSWERS=str(answers), PYTHONPATH=str(HERE))
    assert receipt.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    written = json.loads(receipt.read_text())
    verdicts = {r["path"]: REFERENCE_STATUS.get(r["status"], r["status"]) for r in written["results"]}
    return {**verdicts, **{r["path"]: "skipped" for r in written["skipped"]}}


def native_verdicts(bench: Bench, answers: Path, verdicts: Path, **env: str) -> dict[str, str]:
    """The native runner's verdicts (``REFEREE_VERDICTS``) for the same answers: path -> verdict."""
    native(bench, answers, REFEREE_VERDICTS=str(verdicts), **env)
    written = json.loads(verdicts.read_text())
    assert written["format"] == "referee-native-verdicts/1"
    return written["results"]


@pytest.mark.parametrize("seeded", [False, True], ids=["example-answers", "seeded-bug"])
def test_the_native_verdicts_equal_referee_vectors_run_vector_by_vector(bench, tmp_path, seeded):
    answers = bench.bug_answers if seeded else bench.answers
    ours = native_verdicts(bench, answers, tmp_path / "verdicts.json")
    reference = reference_verdicts(bench, answers, tmp_path / "receipt.json")
    assert ours == reference
    failing = sorted(path for path, verdict in ours.items() if verdict != "pass")
    assert failing == ([bench.bug.path] if seeded else [])


def answers_off_outside(bench: Bench, features: set[str], out: Path) -> str:
    """The example answers with ``shield_multiplier`` (a unit field of a feature outside ``features``)
    changed in the first vector using only ``features``, written to ``out``; returns that vector's path."""
    entries = json.loads((bench.vectors / "manifest.json").read_text())["vectors"]
    index = next(i for i, e in enumerate(entries) if set(e["features"]) <= features)
    answers = json.loads(bench.answers.read_text())
    answers[f"v{index}"]["board"][0]["shield_multiplier"] += 1
    out.write_text(json.dumps(answers))
    return entries[index]["path"]


@pytest.mark.parametrize(("variable", "option"), [("REFEREE_FEATURES", "--features"),
                                                  ("REFEREE_EXCLUDE_FEATURES", "--exclude-features")])
def test_the_feature_filters_select_and_compare_as_referee_vectors_run(bench, tmp_path, variable, option):
    answers = tmp_path / "answers.json"
    changed = answers_off_outside(bench, {"armor", "shield"}, answers)
    ours = native_verdicts(bench, answers, tmp_path / "verdicts.json", **{variable: "armor,shield"})
    assert ours == reference_verdicts(bench, answers, tmp_path / "receipt.json", option, "armor,shield")
    assert "skipped" in ours.values() and "pass" in ours.values()
    # Only armor and shield: shield_multiplier is left out of the comparison. Without them: a filter only.
    assert ours[changed] == ("pass" if variable == "REFEREE_FEATURES" else "skipped")
