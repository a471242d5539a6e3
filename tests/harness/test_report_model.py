"""One report model (``referee.report.model``), every renderer: every mode of a run through every format.

The modes: a run stopped at its first failure (a seeded mutant, Armor rounded down), a ``--keep-going`` run, a pass,
an interrupted run (built as the CLI builds one when a signal stops it before its first scenario, and a keep-going
run stopped midway), and the merge of two JSON reports (``referee report merge``). The formats: the text report,
``--json``, the ``--html`` page and the ``--junit`` file. Each must hold the verdict, each group with its clause,
the scenario and the replay command, where the mode has them. The expectations are read from the run's own report
(or the merged JSON), never from the model under test.
"""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from markupsafe import escape

from referee.check.harness import CheckOptions, check, compact_scenario, interrupted_report
from referee.engines.transports import PythonEngine
from referee.examples import engine as clean
from referee.examples import mutants
from referee.report import html as html_report
from referee.report.html import render_html
from referee.report.junit import render_check_junit
from referee.report.merge import merge
from referee.report.files import write_report_files
from referee.report.model import MODES, model_of, model_of_merged

#: What each mode's verdict starts with, in the text report and on the page.
WORDS = {"pass": "PASS", "mismatch": "FAIL", "interrupted": "INTERRUPTED"}


def _run(engine_run, folder: Path, **given) -> object:
    options = CheckOptions(**{"examples": 60, "seed": 7, "database": None, "state_dir": str(folder), **given})
    with PythonEngine(engine_run) as engine:
        return check(engine, options)


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Each mode's report: a ``CheckReport``, or the merged JSON for ``merged``."""
    folder = tmp_path_factory.mktemp("model")
    first = _run(mutants.floor_instead_of_ceil, folder, examples=200)
    kept = _run(mutants.floor_instead_of_ceil, folder, keep_going=True)
    other = _run(mutants.floor_instead_of_ceil, folder, keep_going=True, seed=8)
    passed = _run(clean.run, folder, examples=10)
    with PythonEngine(mutants.floor_instead_of_ceil) as engine:
        stopped = interrupted_report(engine, CheckOptions(examples=60, seed=7, database=None, state_dir=str(folder)))
    assert (first.status, kept.status, passed.status) == ("mismatch", "mismatch", "pass") and kept.groups
    return {"first-failure": first, "keep-going": kept, "pass": passed, "interrupted": stopped,
            "interrupted-midway": dataclasses.replace(kept, status="interrupted"),
            "merged": merge([kept.to_json(), other.to_json()])}


def _expected(source) -> dict:
    """The verdict word, the groups (clause, scenario, replay; key where the mode has one) and the run's replay."""
    data = source if isinstance(source, dict) else source.to_json()
    groups = [{"key": g["key"], "clause": g["explain"][-1]["clause"], "scenario": g["scenario"], "replay": g["replay"]}
              for g in data["groups"]]
    if not groups and data["divergences"]:
        groups = [{"key": None, "clause": data["explain"][-1]["clause"], "scenario": data["scenario"],
                   "replay": data["replay"]}]
    return {"status": data["status"], "word": WORDS[data["status"]], "groups": groups, "replay": data["replay"]}


def _model(source):
    return model_of_merged(source) if isinstance(source, dict) else model_of(source)


def _check_text(text: str, expected: dict) -> None:
    assert text.startswith(f"referee check: {expected['word']}"), text[:200]
    for group in expected["groups"]:
        assert group["clause"] in text and group["replay"] in text
        assert json.dumps(compact_scenario(group["scenario"]), separators=(", ", ": ")) in text
        assert group["key"] is None or group["key"] in text
    assert expected["replay"] in text


def _check_json(text: str, expected: dict) -> None:
    data = json.loads(text)
    assert data["status"] == expected["status"] and data["replay"] == expected["replay"]
    shown = data["groups"] or ([{"key": None, "scenario": data["scenario"], "replay": data["replay"],
                                 "explain": data["explain"]}] if data["divergences"] else [])
    assert [(g["key"], g["explain"][-1]["clause"], g["scenario"], g["replay"]) for g in shown] == \
        [(g["key"], g["clause"], g["scenario"], g["replay"]) for g in expected["groups"]]


def _check_html(page: str, expected: dict) -> None:
    assert f"<title>referee check: {expected['word']}" in page
    assert page.count('<section class="group') == len(expected["groups"])
    for group in expected["groups"]:
        assert str(escape(group["clause"])) in page and str(escape(group["replay"])) in page
        assert str(escape(json.dumps(compact_scenario(group["scenario"]), indent=2))) in page
        assert group["key"] is None or f'data-key="{escape(group["key"])}"' in page
    if expected["groups"] == []:
        assert 'id="no-divergences"' in page
    assert not expected["replay"] or f'<code id="replay">{escape(expected["replay"])}</code>' in page


def _check_junit(xml: str, expected: dict) -> None:
    root = ET.fromstring(xml)
    failures = root.findall(".//failure")
    assert (expected["status"] == "pass") == (failures == []), xml[:2000]
    said = "\n".join(f.text or "" for f in failures)
    for group in expected["groups"]:
        assert group["clause"] in said and group["replay"] in said and json.dumps(group["scenario"]) in said
        assert group["key"] is None or group["key"] in xml
    if expected["status"] == "interrupted" and not expected["groups"]:
        assert "INTERRUPTED" in said and expected["replay"] in said
    assert int(root.find("testsuite").get("failures")) == len(failures)


RENDER = {"text": lambda m: m.text(), "json": lambda m: json.dumps(m.to_json()), "html": render_html,
          "junit": render_check_junit}
CHECK = {"text": _check_text, "json": _check_json, "html": _check_html, "junit": _check_junit}


@pytest.mark.parametrize("form", list(RENDER))
@pytest.mark.parametrize("mode", ["first-failure", "keep-going", "pass", "interrupted", "interrupted-midway", "merged"])
def test_every_mode_renders_in_every_format_with_its_verdict_groups_scenario_and_replay(sources, mode, form):
    source = sources[mode]
    model = _model(source)
    assert model.mode == (mode if mode in MODES else "interrupted")
    CHECK[form](RENDER[form](model), _expected(source))


def test_a_first_failure_is_one_group_of_the_same_shape_as_a_keep_going_group(sources):
    first, kept = model_of(sources["first-failure"]), model_of(sources["keep-going"])
    assert len(first.groups) == 1 and first.groups[0].key and first.groups[0].replay == sources["first-failure"].replay
    assert set(dataclasses.asdict(first.groups[0])) == set(dataclasses.asdict(kept.groups[0]))


@pytest.mark.parametrize("mode", ["first-failure", "keep-going", "pass", "interrupted"])
def test_the_models_json_is_the_check_json_key_for_key(sources, mode):
    report = sources[mode]
    assert json.dumps(model_of(report).to_json(), sort_keys=True) == json.dumps(report.to_json(), sort_keys=True)


def test_a_merged_model_keeps_every_seed_and_the_merged_json(sources):
    merged = sources["merged"]
    model = model_of_merged(merged)
    assert model.seeds == [7, 8] and model.to_json() == merged
    assert 'id="merged-reports">2 reports' in render_html(model)


def test_write_report_files_writes_both_files_and_never_raises(sources, tmp_path, monkeypatch):
    report = sources["first-failure"]
    page, xml = tmp_path / "out" / "r.html", tmp_path / "out" / "r.xml"
    assert write_report_files(report, html=page, junit=xml) == []
    assert report.replay in page.read_text(encoding="utf-8") and ET.parse(xml).getroot().find(".//failure") is not None
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    warnings = write_report_files(report, html=blocked / "r.html", junit=tmp_path / "ok.xml")
    assert len(warnings) == 1 and warnings[0].startswith(f"--html {blocked / 'r.html'}: cannot write")
    assert (tmp_path / "ok.xml").exists(), "one file that cannot be written does not cost the other"

    def broken(model):
        raise KeyError("behind")

    monkeypatch.setattr(html_report, "render_html", broken)
    fresh = tmp_path / "fresh.html"
    warnings = write_report_files(report, html=fresh)
    assert warnings == [f"--html {fresh}: not written: rendering it failed (KeyError: 'behind')"]
    assert not fresh.exists(), "a failed rendering leaves no half-written page"


def test_write_report_files_says_so_when_the_report_itself_cannot_be_read(tmp_path):
    warnings = write_report_files({"status": "mismatch"}, html=tmp_path / "r.html", junit=tmp_path / "r.xml")
    assert [w.split(":")[0] for w in warnings] == [f"--html {tmp_path / 'r.html'}", f"--junit {tmp_path / 'r.xml'}"]
    assert all("the report could not be read (KeyError" in w for w in warnings)
    assert write_report_files({"status": "mismatch"}) == []
