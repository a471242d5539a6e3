"""The derived doc pages match their sources, and the hand-written pages' links resolve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.report import docgen
from referee.specs.catalogue import GENERATED_MARKER

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return docgen.render_pages()


def test_generated_docs_are_up_to_date_with_the_sources(pages):
    stale = [
        relative
        for relative, content in pages.items()
        if not (ROOT / relative).is_file() or (ROOT / relative).read_text(encoding="utf-8") != content
    ]
    assert not stale, f"generated docs out of date: {', '.join(stale)}; run `referee docs` to regenerate"


def test_generated_regions_of_hand_written_pages_are_up_to_date():
    regions = docgen.render_regions(ROOT)
    assert "docs/protocol.md" in regions
    for relative, content in regions.items():
        assert (ROOT / relative).read_text(encoding="utf-8") == content, f"{relative}: run `referee docs`"


def test_the_protocols_event_table_is_generated_from_the_event_declarations():
    from referee.model.events import EVENT_SPECS

    table = docgen.render_event_table()
    for spec in EVENT_SPECS:
        assert table.count(f"| `{spec.name}` |") == 1, spec.name
    assert "| `vitality_lost` | the unit | the Vitality lost | *always null* |" in table


def test_generated_pages_are_marked_so_they_never_count_as_clause_documentation(pages):
    assert set(pages) == set(docgen.PAGES)
    for content in pages.values():
        assert content.startswith(GENERATED_MARKER)


def test_coverage_page_lists_every_clause_once(pages):
    from referee.specs.catalogue import load_catalogue

    coverage = pages["docs/generated/coverage.md"]
    for clause_id in load_catalogue():
        assert coverage.count(f"| `{clause_id}` |") == 1, clause_id


def test_theorem_page_lists_every_theorem(pages):
    from referee.proofs.core import THEOREMS

    for name in THEOREMS:
        assert f"| `{name}` |" in pages["docs/generated/theorems.md"]


_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))])
def test_relative_links_in_the_docs_resolve(page):
    path = ROOT / page
    broken = [
        target
        for target in _LINK.findall(path.read_text(encoding="utf-8"))
        if "://" not in target and not target.startswith("mailto:") and not (path.parent / target).exists()
    ]
    assert not broken, f"{page}: broken relative links {broken}"


def test_register_page_shows_each_entry_with_its_readings_default_and_option(tmp_path):
    from referee.specs.register import load_register

    (tmp_path / "combat.toml").write_text(
        '[[entry]]\nid = "INT-900"\nclauses = ["combat:500.2d"]\nquestion = "How?"\n'
        'readings = ["mirror: one", "reciprocal: other"]\ndefault = "mirror"\nwhy = "Because."\noption = "negative_armor"\n'
        'differ = true\nobservable = true\n\n[[entry]]\nid = "INT-901"\nclauses = ["combat:500.2c"]\nquestion = "Which?"\n'
        'readings = ["up: a", "down: b"]\ndefault = "up"\nwhy = "So."\ndiffer = true\nobservable = true\n'
        'owed_option = "armor_rounding"\nowed_values = ["up", "down"]\n',
        encoding="utf-8",
    )
    page = docgen.render_interpretations(load_register(tmp_path))
    for text in ("## INT-900: How?", "`combat:500.2d`", "  - mirror: one", "**default:** mirror", "`negative_armor`", "Because.",
                 "**engines may differ:** yes; **observable:** yes", "**option owed** (not built yet): `armor_rounding` = "
                 "`up` | `down`", "2 entries: **1 with a ruleset option**, **1 owed an option**"):
        assert text in page, text
    assert "No entries yet." in docgen.render_interpretations([])


def test_every_doc_page_is_reachable_from_the_guide_hub():
    hub = ROOT / "docs" / "index.md"
    linked = {(hub.parent / target).resolve() for target in _LINK.findall(hub.read_text(encoding="utf-8"))}
    pages = {p.resolve() for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".json") and p != hub}
    orphans = sorted(p.relative_to(ROOT).as_posix() for p in pages - linked)
    assert not orphans, f"link these from docs/index.md: {orphans}"


def test_docs_check_exits_non_zero_exactly_when_a_page_is_stale():
    from typer.testing import CliRunner

    from referee.cli.app import app

    result = CliRunner().invoke(app, ["docs", "--check"])
    stale = docgen.stale_pages()
    assert result.exit_code == (1 if stale else 0), result.output
    for page in stale:
        assert f"out of date: {page}" in result.output
