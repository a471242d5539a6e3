"""``referee check --html FILE``: one self-contained page, opened in a real headless browser.

The browser is Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``.ci/run``) driven by
the ``playwright`` package with that executable (Playwright's own browser download is never used).
The page must render every divergence group with its shrunk scenario and explain steps, show the
coverage, log no console error, and ask for nothing but itself.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from markupsafe import escape
from typer.testing import CliRunner

from harness_tools import require_module, require_program
from referee.cli.app import app
from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.check.harness import CheckOptions, check, compact_scenario
from referee.report.html import render_html, write_html

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory):
    """A --keep-going --stats run of a seeded bug (Armor rounded down, 500.2c) and its page."""
    folder = tmp_path_factory.mktemp("html")
    engine = PythonEngine(mutants.floor_instead_of_ceil)
    with engine:
        report = check(engine, CheckOptions(examples=80, seed=2, keep_going=True, stats=True, shrink_budget=200,
                                            database=None, state_dir=str(folder)))
    assert report.status == "mismatch" and report.groups, report.text()
    page = folder / "report.html"
    write_html(page, report)
    return report, page


def test_the_page_holds_every_group_with_its_scenario_explain_steps_and_the_coverage(failing):
    report, page = failing
    html = page.read_text(encoding="utf-8")
    for group in report.groups:
        assert f'data-key="{escape(group.key)}"' in html  # escaped as the template escapes it ("->" is "-&gt;")
        assert group.explain, f"{group.key}: the model's explain steps at fault"
        assert group.explain[-1]["clause"] in html
    assert f"{len(report.groups)} distinct (0 known)" in html
    assert 'id="coverage-clauses"' in html and "no-coverage" not in html
    assert "http://" not in html and "https://" not in html, "self-contained: no address anywhere"


def test_the_page_escapes_what_it_shows(failing):
    report, _ = failing
    hostile = dataclasses.replace(report, engine="<script>alert(1)</script>")
    html = render_html(hostile)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _watched_page(browser, problems: list[str]):
    """A new page whose console errors and warnings, and uncaught page errors, go to ``problems``."""
    page = browser.new_page()
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return page


def test_the_page_renders_in_headless_chromium_without_console_errors(failing):
    report, page_file = failing
    require_module("playwright", "playwright")
    require_program("chromium", "chromium", CHROMIUM)
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    requested: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = _watched_page(browser, problems)

            def gate(route):
                requested.append(route.request.url)
                (route.continue_ if route.request.url == page_file.as_uri() else route.abort)()

            page.route("**/*", gate)
            page.goto(page_file.as_uri())
            assert page.title().startswith("referee check: FAIL")
            groups = page.locator("section.group")
            assert groups.count() == len(report.groups)
            first = groups.nth(0)
            assert first.is_visible()
            assert first.locator("code.key").inner_text() == report.groups[0].key
            shown = json.loads(first.locator("pre.scenario").inner_text())
            # the page shows the compact form (fields at their default left out, the actions' too)
            assert shown["actions"] == compact_scenario(report.groups[0].scenario)["actions"], "the shrunk scenario, as data"
            steps = first.locator("ol.explain li")
            assert steps.count() == len(report.groups[0].explain)
            assert report.groups[0].explain[-1]["clause"] in steps.last.inner_text()
            assert page.locator("#coverage-clauses tr").count() > 10
            assert page.locator("details[open]").count() == 0
            page.click("#toggle")  # the page's one script: expand every detail
            assert page.locator("details[open]").count() == page.locator("details").count() > 0
        finally:
            browser.close()
    assert problems == [], problems
    assert requested == [page_file.as_uri()], "the page asked for nothing but itself"


def test_check_html_writes_the_page_of_a_passing_run_and_an_unwritable_file_is_a_usage_error(in_tmp):
    runner = CliRunner()
    result = runner.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "--examples", "3",
                                 "--seed", "1", "--database", "", "--html", "out/report.html"])
    assert result.exit_code == 0, result.output
    html = Path("out/report.html").read_text(encoding="utf-8")
    assert "<title>referee check: PASS</title>" in html and 'id="no-divergences"' in html and 'id="no-coverage"' in html
    Path("blocked").write_text("a file, not a folder")
    result = runner.invoke(app, ["check", "--python", "referee.examples.engine:run", "--in-process", "--examples", "3",
                                 "--seed", "1", "--database", "", "--html", "blocked/report.html"])
    assert result.exit_code == 2 and "--html blocked/report.html: cannot write" in result.output


def test_a_group_seen_behind_another_says_so_in_the_text_the_json_and_the_page(failing):
    """A bug filed behind another's first divergence (``Group.behind``) is read as such wherever the report is read."""
    report, _ = failing
    group = dataclasses.replace(report.groups[0], key="board[].vessels#vessel[combat:500.4d]",
                                behind="event@batch[combat:500.4e]")
    shown = dataclasses.replace(report, groups=[*report.groups, group])
    assert "seen behind event@batch[combat:500.4e]" in shown.text()
    assert [g.get("behind") for g in json.loads(json.dumps(shown.to_json()))["groups"]][-1] == group.behind
    assert '<code class="behind-key">event@batch[combat:500.4e]</code>' in render_html(shown)
    assert "seen behind" not in render_html(report)


def _check_html(args: list[str]):
    """``referee check ... --in-process --html report.html`` in the current folder; its CliRunner result."""
    return CliRunner().invoke(app, ["check", *args, "--in-process", "--state-dir", ".referee", "--html", "report.html"])


def test_html_of_a_run_stopped_at_its_first_failure_writes_the_page_and_prints_the_report(in_tmp):
    """The guide's first run with --html: before, an internal error (exit 4, no page, no replay command)."""
    result = _check_html(["--python", "referee.examples.mutants:floor_instead_of_ceil", "--seed", "7", "-n", "200"])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "first divergence" in result.output
    replay = result.output.split("replay: ", 1)[1].splitlines()[0]
    html = Path("report.html").read_text(encoding="utf-8")
    assert "<title>referee check: FAIL" in html and html.count('<section class="group') == 1
    assert str(escape(replay)) in html


def test_the_first_failure_page_shows_its_verdict_group_and_replay_in_headless_chromium(in_tmp):
    result = _check_html(["--python", "referee.examples.mutants:floor_instead_of_ceil", "--seed", "7", "-n", "200"])
    assert result.exit_code == 1, result.output
    replay = result.output.split("replay: ", 1)[1].splitlines()[0]
    require_module("playwright", "playwright")
    require_program("chromium", "chromium", CHROMIUM)
    from playwright.sync_api import sync_playwright

    page_file = (in_tmp / "report.html").resolve()
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = _watched_page(browser, problems)
            page.goto(page_file.as_uri())
            assert page.locator("#verdict").inner_text() == "FAIL: the engine disagrees with the model"
            shown = " ".join(replay.split())  # as a browser lays a command out: its runs of spaces as one
            assert page.locator("#replay").inner_text() == shown
            group = page.locator("section.group")
            assert group.count() == 1 and group.locator("code.replay").inner_text() == shown
            assert group.locator("ol.explain li").count() > 0 and json.loads(group.locator("pre.scenario").inner_text())
        finally:
            browser.close()
    assert problems == [], problems
