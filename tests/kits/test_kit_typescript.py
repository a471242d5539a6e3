"""The TypeScript engine kit (``referee/kits/typescript``), written by ``write_kit`` and built with npm and tsc.

Its skeleton answers over JSON lines, refusing every action kind by name; its native vector runner
(``src/vectors.ts``, run by ``npm test``) passes the example engine's answers, fails one changed answer naming the
vector and its primary clause, and agrees with ``referee vectors run`` vector by vector, with and without that bug.
The engine is a *replay engine* (``tests/kits/typescript/replay_engine.ts``, swapped in for ``src/engine.ts``) that
answers from a file of the example engine's answers; ``replay_answers.py`` is the same for ``vectors run``.

Needs node and npm (and the npm registry, for typescript): skipped without them, failed without them when CI is set.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from referee.kits.init import write_kit

HERE = Path(__file__).parent / "typescript"
REFEREE = str(Path(sys.executable).with_name("referee"))
#: The exports the two releases are made of: combat damage (the Burn templates only: the whole `--kinds damage`
#: search takes 40-50 s, these 4 s) and the play rulebook's hand-written vectors (8 s).
COMBAT_EXPORT = ["--kinds", "damage", "--only", "damage/burn"]
PLAY_EXPORT = ["--kinds", "play_card,activate"]
NPM_TIMEOUT = 600
STAND_IN_NAME = "referee-2_rules-000000000000"


def _require_node() -> None:
    """Skip (fail when CI is set) unless node and npm are on PATH."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if not missing:
        return
    message = f"{' and '.join(missing)} not on PATH: the TypeScript kit cannot be built"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: this test must run there)")
    pytest.skip(message)


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = NPM_TIMEOUT,
         stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``args`` run in ``cwd`` with the environment plus ``env``, its output captured as text."""
    return subprocess.run(args, cwd=cwd, env={**os.environ, **(env or {})}, input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def _checked(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``args`` run in ``cwd``; an assertion naming the command and its output when it fails."""
    done = _run(args, cwd, env)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


# -- the release folder -------------------------------------------------------------------------------------------


def _release_folder(parent: Path) -> Path:
    """The one folder below ``parent`` holding a ``release.json``."""
    found = [p.parent for p in parent.glob("*/release.json")]
    assert len(found) == 1, f"{parent}: expected one release folder, found {found}"
    return found[0]


def _export_has_release() -> bool:
    """Whether ``referee vectors export`` takes ``--release`` (the lead's addition)."""
    return "--release" in _run([REFEREE, "vectors", "export", "--help"], Path.cwd(), {"COLUMNS": "200"}).stdout


def write_stand_in_release(folder: Path, kinds: list[str]) -> None:
    """Writes ``folder/release.json`` over a plain export, as ``--release`` would (until ``--release`` exists):
    the SHA-256 of the manifest and of every vector, nothing left out of the comparison, no feature list."""
    manifest_bytes = (folder / "manifest.json").read_bytes()
    files = {"manifest.json": hashlib.sha256(manifest_bytes).hexdigest()}
    for entry in json.loads(manifest_bytes)["vectors"]:
        files[entry["path"]] = hashlib.sha256((folder / entry["path"]).read_bytes()).hexdigest()
    release = {"format": "referee-vectors-release/1", "name": folder.name, "protocol": "referee/2",
               "rules": "000000000000", "referee": "0.1.0",
               "declaration": {"kinds": kinds, "features": None, "without": [], "ruleset": {}},
               "compared": {"fields_off": [], "events_off": []}, "features": {}, "files": files}
    (folder / "release.json").write_text(json.dumps(release, indent=1) + "\n")


def export_release(parent: Path, options: list[str]) -> Path:
    """A release folder of the vectors ``vectors export OPTIONS`` writes, below ``parent``: by ``--release`` when
    the command has it, else a plain export and :func:`write_stand_in_release`."""
    parent.mkdir()
    if _export_has_release():
        _checked([REFEREE, "vectors", "export", str(parent), *options, "-q", "--release"], parent.parent)
        return _release_folder(parent)
    folder = parent / STAND_IN_NAME
    _checked([REFEREE, "vectors", "export", str(folder), *options, "-q"], parent.parent)
    write_stand_in_release(folder, options[options.index("--kinds") + 1].split(","))
    return folder


def example_answers(folder: Path) -> dict[str, dict]:
    """``{"v<index>": the example engine's answer}`` for every vector of the release ``folder``."""
    from referee.examples.engine import run

    entries = json.loads((folder / "manifest.json").read_text())["vectors"]
    scenarios = [json.loads((folder / e["path"]).read_text())["scenario"] for e in entries]
    return {f"v{i}": run({**scenario, "id": f"v{i}"}) for i, scenario in enumerate(scenarios)}


def _manifest(folder: Path) -> list[dict]:
    """The manifest entries of the release ``folder``."""
    return json.loads((folder / "manifest.json").read_text())["vectors"]


def _combat_vector(folder: Path) -> int:
    """The index of a combat vector of the release ``folder`` (not the first one)."""
    return next(i for i, e in enumerate(_manifest(folder)) if e["rulebook"] == "combat" and i > 0)


def _seeded_bug(answers: dict[str, dict], folder: Path) -> tuple[dict[str, dict], int, str]:
    """``answers`` with one combat answer's first unit given one more Vitality: (answers, vector index, uid)."""
    index = _combat_vector(folder)
    seeded = copy.deepcopy(answers)
    unit = seeded[f"v{index}"]["board"][0]
    unit["vitality"] += 1
    return seeded, index, unit["uid"]


# -- fixtures -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the module's kits, release and answers."""
    _require_node()
    return tmp_path_factory.mktemp("kit-typescript")


@pytest.fixture(scope="module")
def skeleton(work: Path) -> Path:
    """The kit as ``referee init`` writes it, installed and built."""
    folder = work / "engine"
    write_kit("typescript", folder, name="ts-engine")
    _checked(["npm", "install", "--no-audit", "--no-fund"], folder)
    _checked(["npm", "run", "build"], folder)
    return folder


@pytest.fixture(scope="module")
def replay(work: Path, skeleton: Path) -> Path:
    """The kit with the replay engine in place of ``src/engine.ts`` (sharing the skeleton's node_modules), built."""
    folder = work / "replay"
    write_kit("typescript", folder, name="ts-engine")
    (folder / "node_modules").symlink_to(skeleton / "node_modules", target_is_directory=True)
    shutil.copyfile(HERE / "replay_engine.ts", folder / "src" / "engine.ts")
    _checked(["npm", "run", "build"], folder)
    return folder


@pytest.fixture(scope="module")
def release(work: Path) -> Path:
    """The combat release folder (below ``work/vectors``, as ``referee vectors export vectors --release`` writes it)."""
    return export_release(work / "vectors", COMBAT_EXPORT)


@pytest.fixture(scope="module")
def answers(release: Path) -> dict[str, dict]:
    """The example engine's answer to every vector of the combat release."""
    return example_answers(release)


@pytest.fixture(scope="module")
def play_release(work: Path) -> Path:
    """The play rulebook's release folder (below ``work/play-vectors``)."""
    return export_release(work / "play-vectors", PLAY_EXPORT)


def _answers_file(folder: Path, name: str, answers: dict[str, dict]) -> Path:
    """``answers`` written to ``folder/name``."""
    path = folder / name
    path.write_text(json.dumps(answers))
    return path


def native_run(kit: Path, release: Path, answers: Path, extra: dict[str, str] | None = None,
               npm: bool = False) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """The native runner over ``release`` with the replay engine's ``answers``: ``npm test`` (build included) or
    ``node --test`` on the built kit; the process and the verdicts it wrote (``{}`` when it wrote none)."""
    verdicts = answers.with_suffix(".verdicts.json")
    verdicts.unlink(missing_ok=True)
    env = {"REFEREE_VECTORS": str(release.parent), "REFEREE_ANSWERS": str(answers), "REFEREE_VERDICTS": str(verdicts),
           **(extra or {})}
    command = ["npm", "test"] if npm else ["node", "--test", "dist/test/"]
    done = _run(command, kit, env)
    return done, json.loads(verdicts.read_text())["results"] if verdicts.exists() else {}


def reference_statuses(release: Path, answers: Path, extra: list[str] | None = None) -> dict[str, str]:
    """``referee vectors run`` over ``release`` with the Python replay engine's ``answers``: each vector's status
    in the receipt (``pass``, ``mismatch``, ``fault``; ``skipped`` for the vectors it skipped)."""
    receipt = answers.with_suffix(".receipt.json")
    done = _run([REFEREE, "vectors", "run", str(release), "--python", "replay_answers:run", "--receipt", str(receipt),
                 *(extra or [])], answers.parent, {"REFEREE_ANSWERS": str(answers), "PYTHONPATH": str(HERE)})
    assert receipt.exists(), f"vectors run wrote no receipt (exit {done.returncode})\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    data = json.loads(receipt.read_text())
    statuses = {r["path"]: r["status"] for r in data["results"]}
    return {**statuses, **{s["path"]: "skipped" for s in data.get("skipped", [])}}


#: A native verdict as the reference names it.
AS_REFERENCE = {"pass": "pass", "fail": "mismatch", "fault": "fault", "skipped": "skipped"}


# -- the kit's files ------------------------------------------------------------------------------------------------


def test_written_kit_declares_the_engine_and_its_commands(tmp_path: Path) -> None:
    """The rendered files name the engine; referee.toml declares nothing implemented; CI runs the native tests."""
    folder = tmp_path / "engine"
    write_kit("typescript", folder, name="ts-engine")
    package = json.loads((folder / "package.json").read_text())
    assert package["name"] == "ts-engine"
    assert package["devDependencies"]["typescript"].startswith("5.")
    assert package["scripts"]["build"] == "tsc"
    config = tomllib.loads((folder / "referee.toml").read_text())
    assert config == {"protocol": "referee/2", "name": "ts-engine", "engine": "node dist/src/main.js", "kinds": []}
    workflow = (folder / ".github" / "workflows" / "referee.yml").read_text()
    for step in ("referee check", "referee vectors export vectors --release", "npm test", "REFEREE_VECTORS: vectors"):
        assert step in workflow, step
    assert "generated by `referee init` from `referee schema`" in (folder / "src" / "protocol.ts").read_text()
    ignored = set((folder / ".gitignore").read_text().split())
    assert {"/node_modules/", "/dist/", "/vectors/"} <= ignored  # anchored: src/vectors/ is the runner's source


# -- the skeleton ---------------------------------------------------------------------------------------------------


def test_skeleton_refuses_each_scenario_naming_its_kind(skeleton: Path, release: Path) -> None:
    """Over JSON lines, one answer a line: the `unsupported` answer naming the scenario's first action kind."""
    entry = next(e for e in _manifest(release) if e["kinds"] == ["damage"])
    damage = json.loads((release / entry["path"]).read_text())["scenario"]
    hit = {**damage, "actions": [{"kind": "hit", "target": damage["board"][0]["uid"], "amount": 5}]}
    lines = json.dumps({**damage, "id": "s1"}) + "\n\n" + json.dumps(hit) + "\n"
    done = _run(["node", "dist/src/main.js"], skeleton, stdin=lines, timeout=30)
    assert done.returncode == 0, done.stderr
    first, second = [json.loads(line) for line in done.stdout.splitlines()]
    assert first == {"protocol": "referee/2", "id": "s1",
                     "unsupported": {"kind": "damage", "reason": "not implemented yet"}}
    assert second == {"protocol": "referee/2", "unsupported": {"kind": "hit", "reason": "not implemented yet"}}


def test_skeleton_passes_referee_check_under_its_empty_profile_as_written(skeleton: Path) -> None:
    """`referee check` in the built kit, reading its own referee.toml (kinds = []): the probe passes, every kind
    refused by name, nothing compared."""
    import shutil

    referee = shutil.which("referee")
    assert referee, "the referee command is installed with the package"
    done = _run([referee, "check"], skeleton, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS (empty profile: kinds = [], nothing compared with the model)" in done.stdout
    assert "refuses:  damage, hit," in done.stdout and "implement `damage`" in done.stdout


def test_skeleton_stops_at_a_line_that_is_not_json(skeleton: Path) -> None:
    """A line that is not JSON: a message on stderr naming it, exit status 1, no answer."""
    done = _run(["node", "dist/src/main.js"], skeleton, stdin="this is not json\n", timeout=30)
    assert done.returncode == 1
    assert "not a JSON line" in done.stderr and "this is not json" in done.stderr
    assert done.stdout == ""


def test_skeletons_own_vector_run_fails_with_a_fault_per_vector(skeleton: Path, release: Path) -> None:
    """The skeleton's `npm test` fails: every vector is a fault (the engine refuses its kind by name)."""
    done = _run(["node", "--test", "dist/test/"], skeleton, {"REFEREE_VECTORS": str(release.parent)})
    total = len(_manifest(release))
    assert done.returncode != 0
    assert f"FAIL — 0 passed, 0 failed, {total} faults, 0 known, 0 stale, 0 skipped of {total}" in done.stdout
    assert "the engine refuses action kind `damage` by name: not implemented yet" in done.stdout


# -- the native runner, held to `referee vectors run` ------------------------------------------------------------


def test_native_run_passes_the_example_engines_answers(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """`npm test` passes every vector, and `referee vectors run` gives each vector the same verdict."""
    path = _answers_file(work, "clean.json", answers)
    done, verdicts = native_run(replay, release, path, npm=True)
    total = len(answers)
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"referee vectors (native): PASS — {total} passed, 0 failed, 0 faults, 0 known, 0 stale, 0 skipped of {total}" in done.stdout
    assert set(verdicts.values()) == {"pass"} and len(verdicts) == total
    assert {p: AS_REFERENCE[s] for p, s in verdicts.items()} == reference_statuses(release, path)


def test_native_run_fails_a_seeded_bug_naming_its_vector(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """One unit's Vitality + 1 in one answer: `npm test` fails naming the vector, its primary clause and the field;
    every vector's verdict is the one `referee vectors run` gives it."""
    seeded, index, uid = _seeded_bug(answers, release)
    path = _answers_file(work, "seeded.json", seeded)
    done, verdicts = native_run(replay, release, path, npm=True)
    entry = _manifest(release)[index]
    vitality = seeded[f"v{index}"]["board"][0]["vitality"]
    assert done.returncode != 0
    assert f"{entry['path']} ({entry['primary']}): board.{uid}.vitality: expected {vitality - 1}, got {vitality}" in done.stdout
    assert f"FAIL — {len(answers) - 1} passed, 1 failed, 0 faults" in done.stdout
    assert [p for p, s in verdicts.items() if s != "pass"] == [entry["path"]]
    assert {p: AS_REFERENCE[s] for p, s in verdicts.items()} == reference_statuses(release, path)


def test_features_filter_skips_as_vectors_run_does(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """REFEREE_FEATURES runs the vectors `vectors run --features` runs, and skips the others."""
    path = _answers_file(work, "features.json", answers)
    features = ",".join(min((e["features"] for e in _manifest(release)), key=len))  # the fewest: some vectors use more
    done, verdicts = native_run(replay, release, path, {"REFEREE_FEATURES": features})
    assert done.returncode == 0, done.stdout[-3000:]
    assert "skipped" in verdicts.values() and "pass" in verdicts.values()
    assert {p: AS_REFERENCE[s] for p, s in verdicts.items()} == reference_statuses(release, path, ["--features", features])


# -- the runner's own rules -----------------------------------------------------------------------------------------


def test_expected_failures_are_known_then_stale(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """A listed vector that fails is `known` (the run passes); once it passes it is `stale` (the run fails)."""
    seeded, index, _ = _seeded_bug(answers, release)
    entry = _manifest(release)[index]
    listing = work / "expected-failures.txt"
    listing.write_text(f"# known bugs\n\n{entry['path']}  # vitality off by one\n")
    extra = {"REFEREE_EXPECTED_FAILURES": str(listing)}
    known, verdicts = native_run(replay, release, _answers_file(work, "known.json", seeded), extra)
    assert known.returncode == 0, known.stdout[-3000:]
    assert verdicts[entry["path"]] == "known" and "1 known, 0 stale" in known.stdout
    stale, verdicts = native_run(replay, release, _answers_file(work, "stale.json", answers), extra)
    assert stale.returncode != 0
    assert verdicts[entry["path"]] == "stale"
    assert f"remove it from {listing}: it passes now" in stale.stdout


def test_an_expected_failure_the_folder_lacks_names_its_line(replay: Path, release: Path, answers: dict,
                                                            work: Path) -> None:
    """A listed path that is no vector of the folder: the run fails naming the file and the line."""
    listing = work / "unknown-failures.txt"
    listing.write_text("# none\ncombat/damage/no-such/0001.json\n")
    done, _ = native_run(replay, release, _answers_file(work, "unknown.json", answers),
                         {"REFEREE_EXPECTED_FAILURES": str(listing)})
    assert done.returncode != 0
    assert f"{listing}:2: combat/damage/no-such/0001.json is not a vector of" in done.stdout


def test_receipt_refuses_a_changed_vector(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """A vector file whose bytes differ from release.json's SHA-256: the run fails naming it, before any vector."""
    copy_parent = work / "tampered"
    tampered = copy_parent / release.name
    shutil.copytree(release, tampered)
    victim = _manifest(release)[1]["path"]
    with (tampered / victim).open("a") as handle:
        handle.write(" ")
    done, verdicts = native_run(replay, tampered, _answers_file(work, "tampered.json", answers))
    assert done.returncode != 0
    assert f"files: {victim} has SHA-256" in done.stdout
    assert verdicts == {}


def test_nothing_ran_is_a_failure(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """A selection that skips every vector fails the run."""
    done, verdicts = native_run(replay, release, _answers_file(work, "none.json", answers),
                                {"REFEREE_KINDS": "no_such_kind"})
    assert done.returncode != 0
    assert "no vector ran" in done.stdout
    assert set(verdicts.values()) == {"skipped"}


def test_events_are_normalized_and_fields_typed(replay: Path, release: Path, answers: dict, work: Path) -> None:
    """Events that leave out their default fields pass; a Boolean field answered as 1 fails (JSON types differ)."""
    short = copy.deepcopy(answers)
    for answer in short.values():
        answer["events"] = [{k: v for k, v in e.items() if v is not None and (k, v) != ("amount", 0)}
                            for e in answer["events"]]
    done, _ = native_run(replay, release, _answers_file(work, "short.json", short))
    assert done.returncode == 0, done.stdout[-3000:]
    typed, index = copy.deepcopy(answers), _combat_vector(release)
    unit = typed[f"v{index}"]["board"][0]
    unit["alive"] = int(unit["alive"])
    done, verdicts = native_run(replay, release, _answers_file(work, "typed.json", typed))
    assert done.returncode != 0
    assert f"board.{unit['uid']}.alive: expected {'true' if unit['alive'] else 'false'}, got {unit['alive']}" in done.stdout
    assert verdicts[_manifest(release)[index]["path"]] == "fail"


def test_play_state_is_compared_as_vectors_run_does(replay: Path, play_release: Path, work: Path) -> None:
    """Play vectors: the example engine's answers pass; one answer's Energy + 1 fails naming `state.pool.energy`;
    each vector's verdict is the one `referee vectors run` gives it, with and without that bug."""
    answers = example_answers(play_release)
    clean = _answers_file(work, "play.json", answers)
    done, verdicts = native_run(replay, play_release, clean)
    assert done.returncode == 0, done.stdout[-3000:]
    assert {p: AS_REFERENCE[s] for p, s in verdicts.items()} == reference_statuses(play_release, clean)
    seeded, index = copy.deepcopy(answers), len(answers) // 2
    seeded[f"v{index}"]["state"]["pool"]["energy"] += 1
    path = _answers_file(work, "play-seeded.json", seeded)
    done, verdicts = native_run(replay, play_release, path)
    entry = _manifest(play_release)[index]
    assert f"{entry['path']} ({entry['primary']}): state.pool.energy: expected" in done.stdout
    assert [p for p, s in verdicts.items() if s != "pass"] == [entry["path"]]
    assert {p: AS_REFERENCE[s] for p, s in verdicts.items()} == reference_statuses(play_release, path)
