"""The Python engine kit (``referee/kits/python/``), written by ``referee.kits.init.write_kit`` and run as an author
would: the skeleton over JSON lines, the kit's own ``pytest tests/test_vectors.py`` over a vector release, and
that native runner held to ``referee vectors run`` vector by vector.

The kit's engine is given "the example engine's behaviour" by a replay engine (``tests/kits/replay_engine.py``:
answers recorded from ``referee.examples.engine`` by scenario id, file named by ``REFEREE_ANSWERS``); the seeded
bug is one answer changed (a unit's Vitality + 1, a play pool's Energy + 1).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from damage_release import damage_release

from referee.kits.init import write_kit

REPO = Path(__file__).resolve().parents[2]
REPLAY_ENGINE = Path(__file__).with_name("replay_engine.py")
#: The reference's statuses (a receipt's ``results[].status``) in the native runner's words.
REFERENCE_WORDS = {"pass": "pass", "mismatch": "fail", "fault": "fault", "not run": "not run"}


def referee_command() -> list[str]:
    """The ``referee`` console command of this interpreter."""
    beside = Path(sys.executable).with_name("referee")
    return [str(beside)] if beside.exists() else [shutil.which("referee") or "referee"]


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without the native runner's settings, plus ``extra``; wide help, no bytecode."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("REFEREE_") or k == "REFEREE_STATE_DIR"}
    return {**env, "COLUMNS": "200", "PYTHONDONTWRITEBYTECODE": "1", **extra}


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``command`` in ``cwd``, its output captured as text."""
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------------------
# The release folders and the example engine's answers
# --------------------------------------------------------------------------------------


def export_release(folder: Path, kinds: list[str]) -> Path:
    """A release folder of the vectors of ``kinds``, as ``referee vectors export DIR --release`` writes it."""
    folder.mkdir(parents=True)
    done = run([*referee_command(), "vectors", "export", "out", "--kinds", ",".join(kinds), "--release", "-q"],
               folder, clean_env())
    assert done.returncode == 0, done.stdout + done.stderr
    found = sorted((folder / "out").glob("*/release.json"))
    assert len(found) == 1, found
    return found[0].parent


def example_answers(release: Path) -> dict[str, dict]:
    """The example engine's answer to every vector of ``release``, by scenario id (``v<index>``)."""
    from referee.examples.engine import run as example_engine

    manifest = json.loads((release / "manifest.json").read_text())
    answers = {}
    for index, entry in enumerate(manifest["vectors"]):
        scenario = json.loads((release / entry["path"]).read_text())["scenario"]
        answers[f"v{index}"] = example_engine({**scenario, "id": f"v{index}"})
    return answers


class Material:
    """A release folder, the example engine's answers to it, and a seeded bug: one answer changed."""

    def __init__(self, release: Path, answers: dict, seed_bug) -> None:
        """Write the answers and the seeded answers beside the release's parent (``seed_bug(manifest, answers)``
        changes one answer in place and returns its vector's index and the divergence it makes)."""
        self.release = release
        self.manifest = json.loads((release / "manifest.json").read_text())
        self.answers = release.parent.parent / "answers.json"
        self.answers.write_text(json.dumps(answers))
        buggy = copy.deepcopy(answers)
        index, self.bug_detail = seed_bug(self.manifest, buggy)
        self.bug_path = self.manifest["vectors"][index]["path"]
        self.bug_primary = self.manifest["vectors"][index]["primary"]
        self.buggy = release.parent.parent / "answers-seeded.json"
        self.buggy.write_text(json.dumps(buggy))


def vitality_plus_one(manifest: dict, answers: dict) -> tuple[int, str]:
    """Seed the bug in the first vector not tagged ``shield``: its first unit's Vitality + 1."""
    index = next(i for i, e in enumerate(manifest["vectors"]) if "shield" not in e["features"])
    target = answers[f"v{index}"]["board"][0]
    target["vitality"] += 1
    return index, f"board.{target['uid']}.vitality: expected {target['vitality'] - 1}, got {target['vitality']}"


def energy_plus_one(manifest: dict, answers: dict) -> tuple[int, str]:
    """Seed the bug in the first play vector: its final pool's Energy + 1."""
    pool = answers["v0"]["state"]["pool"]
    pool["energy"] += 1
    return 0, f"state.pool.energy: expected {pool['energy'] - 1}, got {pool['energy']}"


@pytest.fixture(scope="module")
def damage(tmp_path_factory) -> Material:
    """The combat ``damage`` vectors (an export of about 30 s), once for the module."""
    release = damage_release(tmp_path_factory.mktemp("damage") / "export")
    return Material(release, example_answers(release), vitality_plus_one)


@pytest.fixture(scope="module")
def play(tmp_path_factory) -> Material:
    """The play rulebook's vectors (``play_card``, ``activate``), once for the module."""
    release = export_release(tmp_path_factory.mktemp("play") / "export", ["play_card", "activate"])
    return Material(release, example_answers(release), energy_plus_one)


# --------------------------------------------------------------------------------------
# The kit, as written, and with a replay engine
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory) -> Path:
    """The kit as ``referee init`` writes it, for the engine ``py-engine``."""
    folder = tmp_path_factory.mktemp("skeleton") / "engine"
    write_kit("python", folder, name="py-engine")
    return folder


@pytest.fixture(scope="module")
def replaying(tmp_path_factory) -> Path:
    """The kit with its ``engine/core.py`` replaced by the replay engine (``answer`` = its ``run``)."""
    folder = tmp_path_factory.mktemp("replaying") / "engine"
    write_kit("python", folder, name="py-engine")
    (folder / "engine" / "core.py").write_text(REPLAY_ENGINE.read_text() + "\n\nanswer = run\n")
    return folder


def run_kit_vectors(kit: Path, release: Path, answers: Path, verdicts: Path | None = None,
                    **settings: str) -> subprocess.CompletedProcess:
    """The kit's own ``pytest tests/test_vectors.py`` over ``release`` (plugins not autoloaded: only pytest)."""
    env = clean_env(REFEREE_VECTORS=str(release), REFEREE_ANSWERS=str(answers), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
                    **({"REFEREE_VERDICTS": str(verdicts)} if verdicts else {}), **settings)
    return run([sys.executable, "-m", "pytest", "tests/test_vectors.py", "-q", "-p", "no:cacheprovider"], kit, env)


def native_verdicts(kit: Path, release: Path, answers: Path, out: Path, **settings: str) -> dict[str, str]:
    """Each vector's verdict from the kit's native run (``REFEREE_VERDICTS``)."""
    done = run_kit_vectors(kit, release, answers, out, **settings)
    assert out.is_file(), done.stdout + done.stderr
    body = json.loads(out.read_text())
    assert body["format"] == "referee-native-verdicts/1"
    return body["results"]


def reference_verdicts(release: Path, answers: Path, receipt: Path, *options: str) -> dict[str, str]:
    """Each vector's verdict from ``referee vectors run --python tests.kits.replay_engine:run``, in native words."""
    done = run([*referee_command(), "vectors", "run", str(release), "--python", "tests.kits.replay_engine:run",
                "--receipt", str(receipt), *options], receipt.parent,
               clean_env(REFEREE_ANSWERS=str(answers), PYTHONPATH=os.pathsep.join(
                   [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])))
    assert receipt.is_file(), done.stdout + done.stderr
    body = json.loads(receipt.read_text())
    verdicts = {r["path"]: REFERENCE_WORDS[r["status"]] for r in body["results"]}
    verdicts.update({s["path"]: "skipped" for s in body["skipped"]})
    return verdicts


# --------------------------------------------------------------------------------------
# (a) the skeleton
# --------------------------------------------------------------------------------------


def test_the_kit_renders_its_templates_for_the_engine(skeleton):
    written = {p.relative_to(skeleton).as_posix() for p in skeleton.rglob("*") if p.is_file()}
    assert written == {".github/workflows/referee.yml", ".gitignore", "README.md", "pyproject.toml", "referee.toml",
                       "engine/__init__.py", "engine/__main__.py", "engine/core.py", "engine/vectors.py",
                       "tests/test_vectors.py"}
    declared = tomllib.loads((skeleton / "referee.toml").read_text())
    assert declared == {"protocol": "referee/2", "name": "py-engine", "python": "engine.core:answer", "kinds": []}
    project = tomllib.loads((skeleton / "pyproject.toml").read_text())["project"]
    assert (project["name"], project["dependencies"], project["optional-dependencies"]["test"]) == \
        ("py-engine", [], ["pytest>=7"])
    assert len((skeleton / "README.md").read_text().splitlines()) == 5
    workflow = (skeleton / ".github/workflows/referee.yml").read_text()
    for step in ('pip install -e ".[test]" "${REFEREE_SPEC:-referee}"', "referee check",
                 "referee vectors export vectors --release", "REFEREE_VECTORS=vectors pytest tests/test_vectors.py"):
        assert step in workflow


DAMAGE_SCENARIO = {"protocol": "referee/2", "id": "s1",
                   "board": [{"uid": "a", "side": 0, "row": 0, "col": 0, "vitality": 40, "max_vitality": 40},
                             {"uid": "b", "side": 1, "row": 0, "col": 0, "vitality": 40, "max_vitality": 40}],
                   "actions": [{"kind": "damage", "source": "b", "target": "a", "amount": 10}]}


def test_the_skeleton_refuses_a_damage_scenario_by_name_over_json_lines(skeleton):
    cull = {**DAMAGE_SCENARIO, "id": "s2", "actions": [{"kind": "cull", "target": "a"}]}
    lines = "\n".join(json.dumps(s) for s in (DAMAGE_SCENARIO, cull)) + "\n"
    done = subprocess.run([sys.executable, "-m", "engine"], cwd=skeleton, input=lines, capture_output=True,
                          text=True, timeout=60, env=clean_env())
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers == [
        {"protocol": "referee/2", "id": "s1", "unsupported": {"kind": "damage", "reason": "not implemented yet"}},
        {"protocol": "referee/2", "id": "s2", "unsupported": {"kind": "cull", "reason": "not implemented yet"}}]


def test_the_skeleton_answers_until_a_line_that_is_not_json_then_exits_1(skeleton):
    done = subprocess.run([sys.executable, "-m", "engine"], cwd=skeleton, capture_output=True, text=True,
                          input=json.dumps(DAMAGE_SCENARIO) + "\n\n{not json\n", timeout=60, env=clean_env())
    assert done.returncode == 1
    assert json.loads(done.stdout)["unsupported"]["kind"] == "damage"
    assert "engine: stdin line 3 is not JSON" in done.stderr and "Traceback" not in done.stderr


def test_referee_check_reads_the_kits_declaration_and_lists_every_kind_refused(skeleton):
    done = run([*referee_command(), "check"], skeleton, clean_env(PYTHONPATH=str(skeleton)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "py-engine" in done.stdout and "refuses:  damage, hit" in done.stdout


def test_the_skeletons_native_run_faults_on_every_kind_it_refuses(skeleton, play):
    done = run_kit_vectors(skeleton, play.release, play.answers)
    assert done.returncode == 1
    assert "refuses action kind `play_card` by name: not implemented yet" in done.stdout
    assert f"FAIL — 0 passed, 0 failed, {len(play.manifest['vectors'])} faults" in done.stdout


# --------------------------------------------------------------------------------------
# (b) the kit's own native run, with the example engine's behaviour and with a seeded bug
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("rulebook", ["damage", "play"])
def test_the_kits_native_run_passes_on_the_example_engines_answers(replaying, rulebook, request):
    material: Material = request.getfixturevalue(rulebook)
    done = run_kit_vectors(replaying, material.release, material.answers)
    total = len(material.manifest["vectors"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert (f"referee vectors (native): PASS — {total} passed, 0 failed, 0 faults, 0 known, 0 stale, "
            f"0 skipped of {total}") in done.stdout
    assert f"  {material.bug_primary} " in done.stdout  # the per-clause table is printed on a pass too


@pytest.mark.parametrize("rulebook", ["damage", "play"])
def test_the_kits_native_run_fails_on_the_seeded_bug_naming_the_vector_and_its_clause(replaying, rulebook, request):
    material: Material = request.getfixturevalue(rulebook)
    done = run_kit_vectors(replaying, material.release, material.buggy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"FAIL  {material.bug_path} [{material.bug_primary}]: {material.bug_detail}" in done.stdout
    assert "referee vectors (native): FAIL — " in done.stdout and ", 1 failed, 0 faults" in done.stdout


def test_the_kits_native_run_refuses_a_folder_that_is_not_a_release(replaying, damage, tmp_path):
    done = run_kit_vectors(replaying, tmp_path, damage.answers)
    assert done.returncode == 1
    assert f"referee vectors (native): refused: {tmp_path}: holds no release.json" in done.stdout


# --------------------------------------------------------------------------------------
# (c) the native runner held to `referee vectors run`, vector by vector
# --------------------------------------------------------------------------------------


CASES = [  # (rulebook, seeded bug?, native settings, the reference's options)
    ("damage", False, {}, []),
    ("damage", True, {}, []),
    ("damage", True, {"REFEREE_EXCLUDE_FEATURES": "shield"}, ["--exclude-features", "shield"]),
    ("damage", True, {"REFEREE_FEATURES": "armor,negative_armor,shield"},
     ["--features", "armor,negative_armor,shield"]),
    ("play", False, {}, []),
    ("play", True, {"REFEREE_KINDS": "play_card"}, ["--kinds", "play_card"]),
]


@pytest.mark.parametrize("rulebook, seeded, settings, options", CASES,
                         ids=["damage", "damage-seeded", "damage-seeded-exclude-shield", "damage-seeded-features",
                              "play", "play-seeded-kinds"])
def test_the_native_runner_agrees_with_vectors_run_vector_by_vector(replaying, rulebook, seeded, settings, options,
                                                                     request, tmp_path):
    material: Material = request.getfixturevalue(rulebook)
    answers = material.buggy if seeded else material.answers
    native = native_verdicts(replaying, material.release, answers, tmp_path / "verdicts.json", **settings)
    reference = reference_verdicts(material.release, answers, tmp_path / "receipt.json", *options)
    assert native == reference
    assert len(native) == len(material.manifest["vectors"])
    if not settings or native[material.bug_path] != "skipped":  # a filter may leave the seeded vector out
        assert native[material.bug_path] == ("fail" if seeded else "pass")
    assert any(v == "skipped" for v in native.values()) == bool(settings)
