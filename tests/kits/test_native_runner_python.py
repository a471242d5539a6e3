"""The Python kit's native vector runner (``referee/kits/python/engine/vectors.py``), on small hand-made releases.

The runner is loaded from the kit's folder by path, as the kit ships it (it never imports ``referee``). Each
release here is written by :func:`write_release`: a manifest, one file per vector and ``release.json`` with
every file's SHA-256, as ``referee vectors export --release`` writes them.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

import referee.kits

RUNNER_PATH = Path(referee.kits.__file__).parent / "python" / "engine" / "vectors.py"


def load_runner():
    """The kit's ``engine/vectors.py`` as a module of its own (registered, so its dataclasses resolve)."""
    spec = importlib.util.spec_from_file_location("kit_python_engine_vectors", RUNNER_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


runner = load_runner()

FEATURES = {"shield": {"fields_off": ["shield"], "events_off": ["shield_damaged", "shield_broken"]},
            "armor": {"fields_off": ["armor"], "events_off": []}}


def unit(uid: str, **fields) -> dict:
    """A combat unit as a vector writes it."""
    return {"uid": uid, "side": 0, "row": 0, "col": 0, "alive": True, "vitality": 40, "shield": 0, "armor": 0,
            **fields}


def event(name: str, unit_id: str, amount: int = 0, other=None, detail=None) -> dict:
    """An event with its five fields."""
    return {"name": name, "unit": unit_id, "amount": amount, "other": other, "detail": detail}


def combat_vector(path: str, primary: str, board: list, events: list, features=(), kinds=("damage",)) -> dict:
    """A combat vector: its manifest fields, its scenario and its expected observation."""
    return {"path": path, "primary": primary, "kinds": list(kinds), "features": list(features),
            "scenario": {"protocol": "referee/2", "board": board, "actions": [{"kind": kinds[0]}]},
            "expected": {"protocol": "referee/2", "board": board, "events": events}}


def two_vectors() -> list[dict]:
    """Two combat vectors: a plain hit, and one through a Shield."""
    return [
        combat_vector("combat/damage/500.1-13/0001.json", "combat:500.1-13", [unit("a", vitality=30), unit("b")],
                      [event("damage_taken", "a", 10, "b"), event("vitality_lost", "a", 10)]),
        combat_vector("combat/damage/500.1-10/0001.json", "combat:500.1-10", [unit("a", shield=5), unit("b")],
                      [event("shield_damaged", "a", 5, "b")], features=["shield"]),
    ]


def write_release(folder: Path, vectors: list[dict], **release) -> Path:
    """A release folder of ``vectors`` under ``folder``; ``release`` overrides fields of ``release.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for item in vectors:
        (folder / item["path"]).parent.mkdir(parents=True, exist_ok=True)
        (folder / item["path"]).write_text(json.dumps({"scenario": item["scenario"], "expected": item["expected"]}))
        entries.append({"path": item["path"], "rulebook": item["path"].split("/")[0], "primary": item["primary"],
                        "clauses": [item["primary"]], "kinds": item["kinds"], "features": item["features"]})
    (folder / "manifest.json").write_text(json.dumps({"format": "referee-vectors/1", "vectors": entries}))
    names = ["manifest.json", *(item["path"] for item in vectors)]
    body = {"format": "referee-vectors-release/1", "name": folder.name, "protocol": "referee/2",
            "rules": "000000000000", "referee": "0.1.0", "compared": {"fields_off": [], "events_off": []},
            "features": FEATURES,
            "files": {n: hashlib.sha256((folder / n).read_bytes()).hexdigest() for n in names}, **release}
    (folder / "release.json").write_text(json.dumps(body, indent=1))
    return folder


def replay(vectors: list[dict], change=None):
    """An engine answering each vector's expected observation (``change(index, answer)`` may alter it)."""
    def engine(scenario: dict) -> dict:
        index = int(scenario["id"][1:])
        answer = {**copy.deepcopy(vectors[index]["expected"]), "id": scenario["id"]}
        if change is not None:
            change(index, answer)
        return answer
    return engine


def statuses(report) -> dict[str, str]:
    """Each vector's verdict by path."""
    return {r.path: r.status for r in report.results}


@pytest.fixture
def vectors() -> list[dict]:
    """The two vectors of the default release."""
    return two_vectors()


@pytest.fixture
def release(tmp_path: Path, vectors: list[dict]) -> Path:
    """A release of :func:`two_vectors`, inside a ``vectors/`` folder as ``export --release`` writes it."""
    return write_release(tmp_path / "vectors" / "referee-2_rules-000000000000", vectors)


# --------------------------------------------------------------------------------------
# The receipt and the folder
# --------------------------------------------------------------------------------------


def test_a_faithful_engine_passes_and_the_verdicts_file_records_each_vector(release, vectors, tmp_path):
    verdicts = tmp_path / "out" / "verdicts.json"
    report = runner.run_release(release, replay(vectors), {"REFEREE_VERDICTS": str(verdicts)})
    assert report.passed
    assert report.summary() == ("referee vectors (native): PASS — 2 passed, 0 failed, 0 faults, 0 known, "
                                "0 stale, 0 skipped of 2")
    assert json.loads(verdicts.read_text()) == {"format": "referee-native-verdicts/1", "results": {
        "combat/damage/500.1-13/0001.json": "pass", "combat/damage/500.1-10/0001.json": "pass"}}
    assert "combat:500.1-10" in report.text() and "combat:500.1-13" in report.text()


def test_the_folder_holding_one_release_folder_is_taken_for_it(release, vectors):
    assert runner.run_release(release.parent, replay(vectors), {}).passed


def test_a_folder_holding_two_releases_is_refused_naming_both(release, vectors):
    write_release(release.parent / "referee-2_rules-111111111111", vectors)
    with pytest.raises(runner.ReleaseError, match="holds 2 releases.*000000000000.*111111111111"):
        runner.run_release(release.parent, replay(vectors), {})


def test_a_folder_without_release_json_is_refused(tmp_path, vectors):
    (tmp_path / "empty").mkdir()
    with pytest.raises(runner.ReleaseError, match="holds no release.json"):
        runner.run_release(tmp_path / "empty", replay(vectors), {})


def test_a_tampered_vector_file_is_refused_naming_the_file(release, vectors):
    path = release / "combat/damage/500.1-10/0001.json"
    path.write_text(path.read_text().replace('"shield": 5', '"shield": 6', 1))
    with pytest.raises(runner.ReleaseError, match=r"500\.1-10/0001\.json: its SHA-256 differs"):
        runner.run_release(release, replay(vectors), {})


def test_a_missing_vector_file_is_refused_naming_the_file(release, vectors):
    (release / "combat/damage/500.1-13/0001.json").unlink()
    with pytest.raises(runner.ReleaseError, match=r"500\.1-13/0001\.json: listed in release.json but missing"):
        runner.run_release(release, replay(vectors), {})


def test_a_release_json_of_another_format_is_refused(tmp_path, vectors):
    folder = write_release(tmp_path / "r", vectors, format="referee-vectors-release/9")
    with pytest.raises(runner.ReleaseError, match=r"release\.json: format 'referee-vectors-release/9' is not"):
        runner.run_release(folder, replay(vectors), {})


def test_a_release_of_another_protocol_is_refused(tmp_path, vectors):
    folder = write_release(tmp_path / "r", vectors, protocol="referee/1")
    with pytest.raises(runner.ReleaseError, match=r"release\.json: protocol 'referee/1' is not this engine's"):
        runner.run_release(folder, replay(vectors), {})


def test_a_manifest_listing_a_vector_the_receipt_does_not_vouch_for_is_refused(release, vectors):
    receipt = json.loads((release / "release.json").read_text())
    del receipt["files"]["combat/damage/500.1-13/0001.json"]
    (release / "release.json").write_text(json.dumps(receipt))
    with pytest.raises(runner.ReleaseError, match=r"manifest\.json: lists vector 'combat/damage/500\.1-13"):
        runner.run_release(release, replay(vectors), {})


# --------------------------------------------------------------------------------------
# Selection and expected failures
# --------------------------------------------------------------------------------------


def test_an_empty_selection_fails(release, vectors):
    report = runner.run_release(release, replay(vectors), {"REFEREE_KINDS": "cull"})
    assert not report.passed
    assert "no vector ran" in report.text()
    assert report.summary().endswith("FAIL — 0 passed, 0 failed, 0 faults, 0 known, 0 stale, 2 skipped of 2")


def test_excluding_a_feature_skips_its_vectors_and_compares_the_rest_as_before(release, vectors):
    def break_shield(index, answer):
        answer["board"][1]["shield"] = 99  # unit b of the plain hit: its shield is still compared

    report = runner.run_release(release, replay(vectors, break_shield), {"REFEREE_EXCLUDE_FEATURES": "shield"})
    assert statuses(report) == {"combat/damage/500.1-13/0001.json": "fail",
                                "combat/damage/500.1-10/0001.json": "skipped"}
    assert report.results[1].detail == "excluded feature shield"


def test_features_outside_referee_features_are_skipped_and_left_out_of_the_comparison(release, vectors):
    def break_shield(index, answer):
        answer["board"][1]["shield"] = 99

    report = runner.run_release(release, replay(vectors, break_shield), {"REFEREE_FEATURES": "armor"})
    assert statuses(report) == {"combat/damage/500.1-13/0001.json": "pass",
                                "combat/damage/500.1-10/0001.json": "skipped"}
    assert report.results[1].detail == "uses shield"


def test_an_unknown_feature_name_is_refused_naming_the_variable(release, vectors):
    with pytest.raises(runner.ReleaseError, match="REFEREE_EXCLUDE_FEATURES: unknown feature sheild"):
        runner.run_release(release, replay(vectors), {"REFEREE_EXCLUDE_FEATURES": "sheild"})


def test_a_listed_vector_that_fails_is_known_and_the_run_passes(release, vectors, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("# waiting on Shields\n\ncombat/damage/500.1-10/0001.json  # shield_damaged\n")

    def break_shield(index, answer):
        answer["board"][0]["shield"] = 0 if index == 1 else answer["board"][0]["shield"]

    report = runner.run_release(release, replay(vectors, break_shield), {"REFEREE_EXPECTED_FAILURES": str(listed)})
    assert statuses(report)["combat/damage/500.1-10/0001.json"] == "known"
    assert report.passed


def test_a_listed_vector_that_passes_is_stale_and_fails_the_run(release, vectors, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("combat/damage/500.1-10/0001.json\n")
    report = runner.run_release(release, replay(vectors), {"REFEREE_EXPECTED_FAILURES": str(listed)})
    assert statuses(report)["combat/damage/500.1-10/0001.json"] == "stale"
    assert not report.passed
    assert f"remove it from {listed}: it passes now" in report.text()
    assert "1 stale" in report.summary()


def test_a_listed_path_the_folder_does_not_hold_is_an_error_naming_the_line(release, vectors, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("combat/damage/500.1-10/0001.json\ncombat/damage/500.9z/0001.json\n")
    with pytest.raises(runner.ReleaseError, match=rf"{listed}:2: 'combat/damage/500\.9z/0001\.json' is not a vector"):
        runner.run_release(release, replay(vectors), {"REFEREE_EXPECTED_FAILURES": str(listed)})


# --------------------------------------------------------------------------------------
# The comparison
# --------------------------------------------------------------------------------------


def judged(vectors: list[dict], change, release_dir: Path):
    """The result of the first vector, its answer changed by ``change(answer)``."""
    report = runner.run_release(release_dir, replay(vectors, lambda i, a: change(a) if i == 0 else None), {})
    return report.results[0]


def test_true_and_1_are_a_divergence(release, vectors):
    result = judged(vectors, lambda a: a["board"][0].update(alive=1), release)
    assert (result.status, result.detail) == ("fail", "board.a.alive: expected true, got 1")


def test_1_and_1_0_are_a_divergence(release, vectors):
    result = judged(vectors, lambda a: a["board"][0].update(vitality=30.0), release)
    assert (result.status, result.detail) == ("fail", "board.a.vitality: expected 30, got 30.0")


def test_a_changed_vitality_names_the_unit_the_field_and_the_primary_clause(release, vectors):
    report = runner.run_release(release, replay(vectors, lambda i, a: a["board"][0].update(vitality=31)), {})
    assert statuses(report)["combat/damage/500.1-13/0001.json"] == "fail"
    assert ("FAIL  combat/damage/500.1-13/0001.json [combat:500.1-13]: board.a.vitality: expected 30, got 31"
            in report.text())
    assert not report.passed


def test_an_event_missing_amount_equals_one_with_amount_0(tmp_path):
    short = combat_vector("combat/damage/500.1c/0001.json", "combat:500.1c", [unit("c")],
                          [{"name": "played", "unit": "c"}])
    full = combat_vector("combat/damage/500.1c/0002.json", "combat:500.1c", [unit("c")], [event("played", "c")])
    folder = write_release(tmp_path / "r", [short, full])

    def swap(index, answer):  # each answered in the other's spelling
        answer["events"] = copy.deepcopy([full, short][index]["expected"]["events"])

    report = runner.run_release(folder, replay([short, full], swap), {})
    assert set(statuses(report).values()) == {"pass"} and report.passed
    amount_1 = runner.run_release(folder, replay([short, full], lambda i, a: a["events"][0].update(amount=1)), {})
    assert [r.detail for r in amount_1.results] == [
        'events[0]: expected {"name": "played", "unit": "c", "amount": 0, "other": null, "detail": null}, '
        'got {"name": "played", "unit": "c", "amount": 1, "other": null, "detail": null}'] * 2


def test_an_event_with_a_field_of_its_own_is_a_fault(release, vectors):
    result = judged(vectors, lambda a: a["events"][0].update(cause="hit"), release)
    assert (result.status, result.detail) == ("fault", "answer.events[0].cause: not an event field "
                                                       "(name, unit, amount, other, detail)")


def test_the_first_differing_event_is_named_by_its_index(release, vectors):
    result = judged(vectors, lambda a: a["events"].pop(1), release)
    assert result.status == "fail"
    assert result.detail.startswith('events[1]: expected {"name": "vitality_lost"') and result.detail.endswith(
        "got no event")


def test_events_left_out_by_the_release_are_dropped_on_both_sides(tmp_path, vectors):
    folder = write_release(tmp_path / "r", vectors, compared={"fields_off": ["vitality"],
                                                              "events_off": ["vitality_lost"]})

    def change(index, answer):
        answer["events"] = [e for e in answer["events"] if e["name"] != "vitality_lost"]
        answer["board"][0]["vitality"] = 1

    assert runner.run_release(folder, replay(vectors, change), {}).passed


def test_a_missing_unit_field_a_wrong_id_and_a_raise_are_faults_and_the_run_goes_on(release, vectors):
    assert judged(vectors, lambda a: a["board"][0].pop("vitality"), release).detail == \
        "answer.board.a.vitality: missing"
    assert judged(vectors, lambda a: a.update(id="v7"), release).detail == 'answer.id: expected "v0", got "v7"'

    def crash(scenario):
        raise KeyError("shield")

    report = runner.run_release(release, crash, {})
    assert [r.status for r in report.results] == ["fault", "fault"]
    assert report.results[0].detail == "the engine raised KeyError: 'shield'"


def test_an_unsupported_answer_is_a_fault_naming_the_kind(release, vectors):
    def skeleton(scenario):
        return {"protocol": "referee/2", "id": scenario["id"],
                "unsupported": {"kind": "damage", "reason": "not implemented yet"}}

    report = runner.run_release(release, skeleton, {})
    assert report.results[0].status == "fault"
    assert "refuses action kind `damage` by name: not implemented yet" in report.results[0].detail
    assert "2 faults" in report.summary() and not report.passed


def test_a_unit_the_expected_board_lacks_is_a_divergence(release, vectors):
    result = judged(vectors, lambda a: a["board"].append(unit("z")), release)
    assert result.status == "fail" and result.detail.startswith("board.z: not expected")


def play_vector(objects: list) -> dict:
    """A play vector whose final state holds ``objects``."""
    state = {"pool": {"energy": 0, "power": {"fury": 0, "calm": 1}}, "objects": objects}
    return {"path": "play/play_card/354/0001.json", "primary": "play:354", "kinds": ["play_card"], "features": [],
            "scenario": {"protocol": "referee/2", "rulebook": "play", "state": state,
                         "actions": [{"kind": "play_card", "card": "c"}]},
            "expected": {"protocol": "referee/2", "rulebook": "play", "state": state,
                         "events": [{"name": "played", "unit": "c"}]}}


@pytest.mark.parametrize("change, detail", [
    (lambda a: a["state"]["pool"]["power"].update(calm=0), "state.pool.power.calm: expected 1, got 0"),
    (lambda a: a["state"]["objects"][0].update(exhausted=1), "state.objects.c.exhausted: expected true, got 1"),
    (lambda a: a["state"]["objects"].append({"oid": "x"}), 'state.objects.x: not expected, got {"oid": "x"}'),
    (lambda a: a["state"]["objects"].pop(), "state.objects.c: expected in the answer, got none"),
])
def test_the_play_state_is_compared_pool_then_objects_by_oid(tmp_path, change, detail):
    vector = play_vector([{"oid": "c", "kind": "unit", "zone": "board", "exhausted": True}])
    folder = write_release(tmp_path / "r", [vector])
    assert runner.run_release(folder, replay([vector]), {}).passed
    result = runner.run_release(folder, replay([vector], lambda i, a: change(a)), {}).results[0]
    assert (result.status, result.detail) == ("fail", detail)


def test_the_runner_imports_the_standard_library_only():
    tree = ast.parse(RUNNER_PATH.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    assert imported and imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
