"""The clause catalogue, the interpretation register, and the traceability built on them.

The catalogue must hold exactly the clauses of both rulebooks; every declaration in the code
(model tags, theorems, ``@covers`` on tests, register entries) must name a clause it holds;
and the status computation must mean what ``referee/specs/catalogue.py`` says it means.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import string
from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.model.clauses import ClauseId
from referee.model.combat.ruleset import Ruleset
from referee.specs import catalogue as cat
from referee.specs.register import RegisterError, load_register, load_register_file

ROOT = Path(__file__).resolve().parent.parent
#: The rule seeds: ``$REFEREE_SEEDS``, else ``../shared/seeds`` beside the checkout (as in CI).
SEEDS = Path(os.environ.get("REFEREE_SEEDS") or ROOT.parent / "shared" / "seeds")
#: Set by ``.ci/run``: there the seeds must be found, so the test that reads them cannot skip.
SEEDS_REQUIRED = bool(os.environ.get("REFEREE_REQUIRE_SEEDS"))


def _numbered(prefix: str, last: int) -> list[str]:
    return [f"{prefix}-{n}" for n in range(1, last + 1)]


def _lettered(prefix: str, last: str) -> list[str]:
    return [prefix + letter for letter in string.ascii_lowercase[: string.ascii_lowercase.index(last) + 1]]


#: The clause ids of both rulebooks, as the design brief and the seeds enumerate them.
COMBAT_IDS = [
    *_numbered("400.8", 7),
    *_lettered("400.8", "c"),
    *_numbered("500.1", 13),
    *_lettered("500.1", "j"),
    *_lettered("500.2", "f"),
    *_lettered("500.3", "g"),
    *_lettered("500.4", "e"),
    *_lettered("500.5", "d"),
    *_lettered("500.6", "h"),
    *_lettered("500.7", "l"),
    *_lettered("500.8", "j"),
    *_lettered("500.9", "m"),
    *_lettered("800.4", "m"),
]
PLAY_IDS = (
    "164.2.a 164.2.b 202 203 203.1 203.3 350.1 354 355.1.a 355.2 356.2 356.3 356.4 356.4.c 356.6 356.7 "
    "357.1 357.1.a 357.2 358.2 358.5 359.2.c 399 403.1.a 414.1.b 414.4 414.5 416.3 444.2.a"
).split()


@pytest.fixture(scope="module")
def catalogue() -> dict[ClauseId, cat.Clause]:
    return cat.load_catalogue()


@pytest.fixture(scope="module")
def traced() -> cat.Trace:
    return cat.trace()


# --------------------------------------------------------------------------------------
# The catalogue's content
# --------------------------------------------------------------------------------------


def test_catalogue_holds_exactly_the_111_combat_and_29_play_clauses(catalogue):
    expected = {ClauseId("combat", n) for n in COMBAT_IDS} | {ClauseId("play", n) for n in PLAY_IDS}
    assert len(COMBAT_IDS) == 111 and len(PLAY_IDS) == 29
    assert set(catalogue) - expected == set(), "catalogue holds clauses the rulebooks do not"
    assert expected - set(catalogue) == set(), "catalogue is missing clauses"


def test_catalogue_entries_have_a_title_a_section_and_a_seed_source(catalogue):
    for clause in catalogue.values():
        assert clause.title and clause.summary and clause.section
        for source in clause.sources:
            assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", source), f"{clause.id}: source {source!r}"
        low, _, high = clause.section.split()[0].partition("-")
        assert low[:3] <= clause.id.number[:3] <= (high or low)[:3], f"{clause.id} is not in section {clause.section}"


def test_catalogue_cites_500_8_from_both_seeds_that_hold_it(catalogue):
    for letter in "abcdefghij":
        sources = catalogue[ClauseId("combat", f"500.8{letter}")].sources
        assert {s[:3] for s in sources} == {"000", "002"}


def test_ci_requires_the_rule_seeds():
    """CI (``.ci/run``) sets REFEREE_REQUIRE_SEEDS, so the seed-copying test runs there or fails."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "export REFEREE_REQUIRE_SEEDS=1" in script.splitlines()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_summaries_are_in_our_own_words_not_copied_from_the_seeds(catalogue):
    if not SEEDS.is_dir():
        if SEEDS_REQUIRED:  # CI: a missing seed folder is a failure, never a silent skip
            pytest.fail(f"REFEREE_REQUIRE_SEEDS is set but the rule seeds are not at {SEEDS} (set REFEREE_SEEDS)")
        pytest.skip(f"the rule seeds are not beside this checkout ({SEEDS}; set REFEREE_SEEDS=DIR to run this test)")
    seed_text = {path.name: _words(path.read_text(encoding="utf-8")) for path in SEEDS.glob("*.txt")}
    run = 8  # eight consecutive words shared with the rule text is copying, not paraphrase
    for clause in catalogue.values():
        words = _words(clause.summary)
        grams = {tuple(words[i : i + run]) for i in range(len(words) - run + 1)}
        for source in clause.sources:
            assert source in seed_text, f"{clause.id}: seed {source} not found in {SEEDS}"
            seed = seed_text[source]
            copied = grams & {tuple(seed[i : i + run]) for i in range(len(seed) - run + 1)}
            assert not copied, f"{clause.id}: summary copies the seed: {' '.join(next(iter(copied)))!r}"


# --------------------------------------------------------------------------------------
# Every declaration names a catalogued clause
# --------------------------------------------------------------------------------------


def _unknown(traced: cat.Trace, kind: str) -> list[str]:
    return [f"{u.name}: {u.clause!r} {u.problem}" for u in traced.unknown if u.kind == kind]


def test_all_model_and_proof_modules_import(traced):
    assert traced.import_errors == []


def test_every_model_tag_names_a_catalogued_clause(traced):
    assert _unknown(traced, "model") == []


def test_every_theorem_names_a_catalogued_clause(traced):
    assert _unknown(traced, "theorem") == []


def test_every_covers_declaration_names_a_catalogued_clause(traced):
    assert _unknown(traced, "test") == []


def test_every_register_entry_names_catalogued_clauses(traced):
    assert _unknown(traced, "interpretation") == []


def test_model_tagged_functions_are_importable_and_callable():
    from referee.model.clauses import IMPLEMENTATIONS

    assert cat.import_all("referee.model") == []
    for clause_id, functions in IMPLEMENTATIONS.items():
        for function in functions:
            where = f"{function.__module__}:{function.__qualname__} ({clause_id})"
            target = importlib.import_module(function.__module__)
            for part in function.__qualname__.split("."):
                assert part != "<locals>", f"{where}: a tagged function must be reachable from its module"
                target = getattr(target, part, None)
            assert callable(target), f"{where}: not importable by its name"
            assert getattr(target, "__clauses__", ()) and clause_id in target.__clauses__, where


# --------------------------------------------------------------------------------------
# The interpretation register
# --------------------------------------------------------------------------------------


def test_every_register_entry_has_every_field():
    for entry in load_register():
        for name in ("id", "question", "default", "why"):
            assert getattr(entry, name).strip(), f"{entry.id}: empty {name}"
        assert entry.clauses and entry.readings, entry.id
        prefix = "INT" if all(c.rulebook == "combat" for c in entry.clauses) else "PLAY"
        assert entry.id.startswith(prefix), f"{entry.id}: INT-nnn entries are combat, PLAY-nnn play"


def _option_classes() -> dict[str, type]:
    """The selectable readings of each rulebook: combat's Ruleset (INT-nnn), play's PlayRules (PLAY-nnn)."""
    from referee.model.play.rules import PlayRules

    return {"INT": Ruleset, "PLAY": PlayRules}


def test_every_register_option_is_a_ruleset_field_whose_default_it_states():
    for entry in load_register():
        if entry.option is not None:
            options = _option_classes()[entry.id.split("-")[0]]
            assert entry.option in {f.name for f in fields(options)}, (
                f"{entry.id}: option {entry.option!r} is not a field of {options.__name__}"
            )
            value = str(getattr(options(), entry.option))
            assert re.match(rf"{re.escape(value)}\b", entry.default), (
                f"{entry.id}: default {entry.default!r} should start with the {options.__name__} default {value!r}"
            )


@pytest.mark.parametrize("prefix", ["INT", "PLAY"])
def test_every_ruleset_option_has_the_register_entry_its_comment_cites(prefix):
    """Each option field's comment cites its entry (``#: INT-001 (...)``); the register holds it, naming the field."""
    options = _option_classes()[prefix]
    source = inspect.getsource(options)
    cited = dict((name, entry) for entry, name in re.findall(r"#: ((?:INT|PLAY)-\d{3})\b.*\n\s+(\w+):", source))
    register = {entry.id: entry for entry in load_register()}
    for option in (f.name for f in fields(options)):
        where = f"{options.__name__}.{option}"
        assert option in cited, f"{where}: its comment must cite its register entry (#: {prefix}-nnn ...)"
        entry = register.get(cited[option])
        assert entry is not None, f"{where} cites {cited[option]}, which is not in specs/interpretations/"
        assert entry.option == option, f"{entry.id}: should say option = {option!r} ({where} cites it)"


REGISTER_ENTRY = """
[[entry]]
id = "INT-900"
clauses = ["combat:500.2d"]
question = "Q?"
readings = ["a", "b"]
default = "a"
why = "because"
differ = false
observable = true
no_option = "no careful author reads b"
"""


def test_register_loader_reads_a_well_formed_file(tmp_path):
    (tmp_path / "combat.toml").write_text(REGISTER_ENTRY, encoding="utf-8")
    [entry] = load_register(tmp_path)
    assert (entry.id, entry.clauses, entry.readings, entry.option) == ("INT-900", (ClauseId("combat", "500.2d"),), ("a", "b"), None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('why = "because"\n', ""), "missing field(s) why"),
        (('default = "a"', 'default = "a"\ndefualt = "b"'), "unknown field(s) defualt"),
        (('"combat:500.2d"', '"500.2d"'), "must name its rulebook"),
        (('id = "INT-900"', 'id = "I-1"'), "id must look like"),
        (('readings = ["a", "b"]', "readings = []"), "'readings' must be a non-empty list"),
        (('question = "Q?"', "question = 3"), "'question' must be a non-empty string"),
        (("[[entry]]", "[entry"), "not valid TOML"),
    ],
)
def test_invalid_register_entry_is_named_with_its_file_and_place(tmp_path, change, message):
    path = tmp_path / "combat.toml"
    path.write_text(REGISTER_ENTRY.replace(*change), encoding="utf-8")
    with pytest.raises(RegisterError, match=re.escape(message)) as error:
        load_register_file(path)
    assert "combat.toml" in str(error.value)


def test_invalid_register_duplicate_id_across_files_is_refused(tmp_path):
    (tmp_path / "a.toml").write_text(REGISTER_ENTRY, encoding="utf-8")
    (tmp_path / "b.toml").write_text(REGISTER_ENTRY, encoding="utf-8")
    with pytest.raises(RegisterError, match="INT-900 is already defined in a.toml"):
        load_register(tmp_path)


# --------------------------------------------------------------------------------------
# The catalogue loader
# --------------------------------------------------------------------------------------

CATALOGUE_ENTRY = """
rulebook = "combat"

[[clause]]
id = "500.2a"
section = "500.2 Armor"
title = "t"
sources = ["002_e80b222214b0e2a0.txt"]
summary = "s"
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('summary = "s"', ""), "clause #1 (500.2a): missing field(s) summary"),
        (('id = "500.2a"', 'id = "combat:500.2a"'), "write the bare number"),
        (('id = "500.2a"', 'id = "5x"'), "malformed number"),
        (('rulebook = "combat"', 'rulebook = "chess"'), "'rulebook' must be one of"),
        (('title = "t"', 'title = ""'), "'title' must be a non-empty string"),
        (("sources = [", "sources = [1, "), "'sources' must be a non-empty list"),
        (('summary = "s"', 'summary = "s"\nstatus = "modeled"'), "unknown field(s) status"),
    ],
)
def test_invalid_catalogue_entry_is_named_with_its_file_and_place(tmp_path, change, message):
    path = tmp_path / "catalogue_combat.toml"
    path.write_text(CATALOGUE_ENTRY.replace(*change), encoding="utf-8")
    with pytest.raises(cat.CatalogueError, match=re.escape(message)) as error:
        cat.load_catalogue_file(path)
    assert "catalogue_combat.toml" in str(error.value)


def test_invalid_catalogue_duplicate_clause_is_refused(tmp_path):
    path = tmp_path / "catalogue_combat.toml"
    path.write_text(CATALOGUE_ENTRY + CATALOGUE_ENTRY.split("\n", 2)[2], encoding="utf-8")
    with pytest.raises(cat.CatalogueError, match="combat:500.2a is listed twice"):
        cat.load_catalogue_file(path)


def test_bare_numbers_resolve_only_when_one_rulebook_holds_them(catalogue):
    assert cat.resolve_clause_id("500.1-7", catalogue) == ClauseId("combat", "500.1-7")
    assert cat.resolve_clause_id("play:356.4.c", catalogue) == ClauseId("play", "356.4.c")
    with pytest.raises(ValueError, match="no clause numbered"):
        cat.resolve_clause_id("356.5", catalogue)


# --------------------------------------------------------------------------------------
# How each status is computed
# --------------------------------------------------------------------------------------

TEST_SOURCE = '''
import pytest
from referee.specs.trace import covers
from referee.specs import trace

@covers("combat:500.2c")
def test_plain():
    pass

@pytest.mark.slow
@covers("combat:500.2a", "combat:500.2b")
def test_slow():
    pass

@trace.covers("play:202")
class TestGroup:
    @pytest.mark.skip(reason="x")
    @covers("play:203")
    def test_skipped(self):
        pass

@covers(SOME_ID)
def test_dynamic():
    pass

from referee.specs.trace import covers as clause

@clause("combat:500.8a")
def test_aliased():
    pass
'''


def test_covers_declarations_are_read_statically_with_markers(tmp_path):
    path = tmp_path / "test_x.py"
    path.write_text(TEST_SOURCE, encoding="utf-8")
    scanned = cat.scan_test_file(path, "tests/test_x.py")
    found = {ref.name: (ids, ref.counts, problem) for ref, ids, problem in scanned}
    assert len(scanned) == len(found) == 6
    assert found["tests/test_x.py::test_plain"] == (["combat:500.2c"], True, "")
    assert found["tests/test_x.py::test_slow"] == (["combat:500.2a", "combat:500.2b"], False, "")
    assert found["tests/test_x.py::TestGroup"] == (["play:202"], True, "")
    assert found["tests/test_x.py::TestGroup::test_skipped"] == (["play:203"], False, "")
    assert "literal strings" in found["tests/test_x.py::test_dynamic"][2]
    assert found["tests/test_x.py::test_aliased"] == (["combat:500.8a"], True, "")


def test_module_pytestmark_slow_keeps_tests_out_of_the_default_run(tmp_path):
    path = tmp_path / "test_y.py"
    path.write_text("import pytest\npytestmark = [pytest.mark.slow]\n" + TEST_SOURCE, encoding="utf-8")
    assert not any(ref.counts for ref, _, _ in cat.scan_test_file(path, "tests/test_y.py"))


def test_documented_means_cited_in_backticks_in_a_hand_written_page(tmp_path, catalogue):
    docs = tmp_path / "docs"
    (docs / "generated").mkdir(parents=True)
    (docs / "guide.md").write_text("Armor rounds up (`500.2c`), see `play:202`; 500.2a is not cited.\n", encoding="utf-8")
    (docs / "generated" / "coverage.md").write_text(f"{cat.GENERATED_MARKER} -->\n`500.2b`\n", encoding="utf-8")
    (docs / "architecture.md").write_text("ids look like `combat:500.1-7`\n", encoding="utf-8")
    found = cat.collect_docs(tmp_path, catalogue)
    assert {str(c): [r.name for r in refs] for c, refs in found.items() if refs} == {
        "combat:500.2c": ["docs/guide.md:1"],
        "play:202": ["docs/guide.md:1"],
    }


def _status(theorems: list[str], results: dict[str, str] | None) -> cat.ClauseStatus:
    clause = cat.Clause(ClauseId("combat", "500.2c"), "500.2 Armor", "t", ("002_x.txt",), "s")
    return cat.ClauseStatus(clause, theorems=[cat.Ref("theorem", t) for t in theorems], tests=[], docs=[], proof_results=results)


def test_proved_is_unknown_without_a_recorded_run():
    assert _status(["a"], None).proved is None


def test_proved_needs_every_theorem_naming_the_clause_recorded_proved():
    assert _status(["a", "b"], {"a": "proved", "b": "proved"}).proved is True
    assert _status(["a", "b"], {"a": "proved", "b": "counterexample"}).proved is False
    assert _status(["a", "b"], {"a": "proved"}).proved is False  # b was added since the run
    assert _status([], {"a": "proved"}).proved is False


@pytest.mark.parametrize(
    "data",
    [
        [{"name": "a", "status": "proved"}],
        {"theorems": [{"name": "a", "status": "proved"}]},
        {"theorems": [{"theorem": "a", "proof": {"status": "proved"}}]},
    ],
)
def test_proof_results_are_read_from_the_recorded_run(tmp_path, data):
    path = tmp_path / "proofs.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cat.read_proof_results(path) == {"a": "proved"}


def test_a_vacuous_proof_is_not_recorded_as_proved(tmp_path):
    path = tmp_path / "proofs.json"
    path.write_text(json.dumps({"theorems": [{"name": "a", "status": "proved", "vacuity": "vacuous"}]}), encoding="utf-8")
    assert _status(["a"], cat.read_proof_results(path)).proved is False


def test_invalid_proof_results_name_the_file(tmp_path):
    path = tmp_path / "proofs.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(cat.CatalogueError, match="proofs.json"):
        cat.read_proof_results(path)


# --------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------

runner = CliRunner()


def test_clauses_json_has_one_record_per_clause_with_the_status_booleans():
    result = runner.invoke(app, ["clauses", "--json"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert len(records) == 140
    for record in records:
        assert {"id", "rulebook", "title", "summary", "interpretations", "model", "theorems", "tests"} <= set(record)
        for name in ("modeled", "encoded", "tested", "documented"):
            assert isinstance(record[name], bool), (record["id"], name)
        assert record["modeled"] == bool(record["model"]) and record["encoded"] == bool(record["theorems"])


def test_clauses_filters_by_rulebook_and_status():
    play = json.loads(runner.invoke(app, ["clauses", "--json", "--rulebook", "play"]).stdout)
    assert len(play) == 29 and {r["rulebook"] for r in play} == {"play"}
    modeled = json.loads(runner.invoke(app, ["clauses", "--json", "--status", "modeled"]).stdout)
    unmodeled = json.loads(runner.invoke(app, ["clauses", "--json", "--missing", "modeled"]).stdout)
    assert all(r["modeled"] for r in modeled) and not any(r["modeled"] for r in unmodeled)
    assert len(modeled) + len(unmodeled) == 140


def test_clauses_table_prints_a_summary_of_counts():
    result = runner.invoke(app, ["clauses", "--rulebook", "combat"])
    assert result.exit_code == 0, result.output
    assert "140 clauses: modeled" in result.stdout and "combat:800.4m" in result.stdout


def test_clauses_show_follows_a_clause_to_everything_that_names_it():
    result = runner.invoke(app, ["clauses", "show", "play:356.4.c"])
    assert result.exit_code == 0, result.output
    for heading in ("model", "theorems", "tests", "docs", "interpretation register"):
        assert f"\n{heading}\n" in result.stdout
    record = json.loads(runner.invoke(app, ["clauses", "show", "500.2c", "--json"]).stdout)
    assert record["id"] == "combat:500.2c" and set(record["places"]) == {"model", "theorems"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["clauses", "--status", "pretty"], "--status: 'pretty' is not one of"),
        (["clauses", "--rulebook", "chess"], "--rulebook: 'chess' is not one of"),
        (["clauses", "show", "356.5"], "no clause numbered '356.5'"),
        (["clauses", "--proofs", "/nonexistent/proofs.json"], "proof results file not found"),
    ],
)
def test_invalid_clauses_arguments_get_a_clear_error_not_a_traceback(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_clauses_reads_proved_from_a_recorded_run(tmp_path):
    from referee.proofs.core import THEOREMS

    cat.import_all("referee.proofs")
    path = tmp_path / "proofs.json"
    path.write_text(json.dumps({"theorems": [{"name": n, "status": "proved"} for n in THEOREMS]}), encoding="utf-8")
    records = json.loads(runner.invoke(app, ["clauses", "--json", "--proofs", str(path)]).stdout)
    assert all(r["proved"] == r["encoded"] for r in records)
    if THEOREMS:
        first = sorted(THEOREMS)[0]
        path.write_text(json.dumps([{"name": first, "status": "unknown"}]), encoding="utf-8")
        records = json.loads(runner.invoke(app, ["clauses", "--json", "--proofs", str(path)]).stdout)
        for record in records:
            if first in record["theorems"]:
                assert record["proved"] is False and record["proof_results"][first] == "unknown"
