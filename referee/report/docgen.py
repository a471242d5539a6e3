"""The derived doc pages: written by ``referee docs``, held up to date by a test.

* ``docs/generated/coverage.md``: the clause table (from the catalogue and the traced
  declarations; the run-dependent ``proved`` column is left out so the page is reproducible);
* ``docs/generated/theorems.md``: every theorem in ``THEOREMS`` with its clauses, statement
  and mutants;
* ``docs/interpretations.md``: the interpretation register (``specs/interpretations/*.toml``);
* ``docs/generated/explain-examples.md``: ``referee explain`` on the examples of
  ``referee/explain/examples.py`` (a Reflect, a Bloodletting activation, 400.8's worked example);
* ``docs/generated/exhaust.md``: the exhaustive tiers' families, value sets and published counts.

Each page starts with :data:`~referee.specs.catalogue.GENERATED_MARKER`, so it never counts as
hand-written documentation of a clause.

A hand-written page may also hold a *generated region*: the lines between
``<!-- begin generated: NAME -->`` and ``<!-- end generated: NAME -->`` are rewritten by
``referee docs`` from :data:`REGIONS` and held by ``referee docs --check`` like a page
(``docs/protocol.md``'s event table, from ``referee.model.events.EVENT_SPECS``; its ruleset table, from both
rulebooks' ruleset schemas and the register; its refusal tables, from the model's reason lists; the guide's option
table, from ``referee.check.options.OPTIONS``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from referee.specs.catalogue import GENERATED_MARKER, Trace, repo_root, trace
from referee.specs.register import Entry, load_register
from referee.specs.sweep import SweptClause, load_sweep

PAGES = ("docs/generated/coverage.md", "docs/generated/theorems.md", "docs/interpretations.md",
         "docs/generated/explain-examples.md", "docs/generated/exhaust.md", "docs/protocol-changelog.md",
         "docs/generated/sweep.md")
HEADER = f"{GENERATED_MARKER} from the sources; do not edit, run `referee docs` -->\n"
YES, NO = "✓", "·"


class DocgenError(RuntimeError):
    """The pages cannot be generated here (no source checkout)."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _mark(value: bool | None, count: int | None = None) -> str:
    if not value:
        return NO
    return f"{YES} {count}" if count else YES


def render_coverage(result: Trace) -> str:
    """The clause table, section by section, with totals."""
    counts = result.counts()
    lines = [
        HEADER,
        "# Clause coverage",
        "",
        "Every clause of both rulebooks, and what traces to it (computed by `referee clauses`; see",
        "`referee/specs/catalogue.py` for the exact rules). A number counts the declarations:",
        "model functions tagged with the clause, theorems naming it, tests declaring it with",
        "`@covers` (in the default test run), hand-written doc places citing it. Whether the",
        "theorems are *proved* depends on a run: see `referee prove` and `referee clauses`.",
        "",
        "| rulebook | clauses | modeled | encoded | tested | documented |",
        "|---|---|---|---|---|---|",
    ]
    for rulebook in ("combat", "play"):
        rows = [row for row in result.clauses if row.id.rulebook == rulebook]
        lines.append(
            f"| {rulebook} | {len(rows)} | {sum(row.modeled for row in rows)} | {sum(row.encoded for row in rows)} "
            f"| {sum(bool(row.tested) for row in rows)} | {sum(bool(row.documented) for row in rows)} |"
        )
    lines.append(
        f"| **total** | {counts['clauses']} | {counts['modeled']} | {counts['encoded']} | {counts['tested'] or 0} "
        f"| {counts['documented'] or 0} |"
    )
    return "\n".join(lines + _coverage_sections(result)) + "\n"


def _coverage_sections(result: Trace) -> list[str]:
    """A table per section of the catalogue: each clause, a mark and a count per status, its register entries."""
    sections: dict[str, list] = defaultdict(list)
    for row in result.clauses:
        sections[f"{row.id.rulebook}: {row.clause.section}"].append(row)
    lines: list[str] = []
    for section, rows in sections.items():
        lines += ["", f"## {section}", ""]
        lines.append("| clause | title | modeled | encoded | tested | documented | register |")
        lines.append("|---|---|---|---|---|---|---|")
        for row in rows:
            tests = [ref for ref in row.tests or [] if ref.counts]
            lines.append(
                f"| `{row.id}` | {_cell(row.clause.title)} | {_mark(row.modeled, len(row.model))} "
                f"| {_mark(row.encoded, len(row.theorems))} | {_mark(row.tested, len(tests))} "
                f"| {_mark(row.documented, len(row.docs or []))} "
                f"| {' '.join(entry.id for entry in row.interpretations)} |"
            )
    return lines


def render_theorems() -> str:
    """Every registered theorem: name, clauses, statement, bound, mutants it must refute."""
    from referee.proofs.core import THEOREMS

    lines = [
        HEADER,
        "# Theorems",
        "",
        "Every theorem in the proof suite (`referee prove` decides them), with the clauses it",
        "speaks for, the readings it holds under and the deliberate mutants of the model it must refute.",
        "Each is proved over every reading of every ruleset option at once; where it is stated with",
        "exceptions, `referee prove` confirms each with a counterexample replayed under that reading.",
        "",
        "| theorem | clauses | statement | holds under | bound | mutants | module |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in sorted(THEOREMS):
        thm = THEOREMS[name]
        clauses = ", ".join(f"`{c}`" for c in thm.clauses)
        mutants = ", ".join(f"`{m.name}`" for m in thm.mutants)
        lines.append(f"| `{thm.name}` | {clauses} | {_cell(thm.statement)} | {_holds_under(thm)} | "
                     f"{_cell(thm.bound or '')} | {mutants} | `{thm.module}` |")
    lines += ["", f"{len(THEOREMS)} theorems."]
    return "\n".join(lines) + "\n"


def _holds_under(thm: Any) -> str:
    """Every reading, or every reading except the theorem's ``unless`` regions."""
    from referee.proofs.readings import region_text

    regions = [f"`{region_text(r)}`" for r in thm.unless]
    return "every reading" + (f" except {'; '.join(regions)}" if regions else "")


def _consequences(option: str) -> list[str]:
    """The theorems that do not hold under some reading of ``option`` (their ``unless`` regions name it)."""
    from referee.proofs.core import THEOREMS
    from referee.proofs.readings import region_text

    found = []
    for name in sorted(THEOREMS):
        for region in THEOREMS[name].unless:
            if any(atom[0] == option for atom in region):
                found.append(f"  - under `{region_text(region)}`, `{name}` does not hold: "
                             f"{_cell(THEOREMS[name].statement)}")
    return found


def render_interpretations(entries: list[Entry]) -> str:
    """The interpretation register as a page: the count of each stance, then one section per entry."""
    lines = [
        HEADER,
        "# Interpretation register",
        "",
        "Where the rules are silent or ambiguous the model picks a reading and records it here.",
        "Every entry says whether careful engine authors may read it differently and whether the difference",
        "shows in what the protocol has an engine report. Where both hold, the reading is a named option of",
        "the ruleset (`referee.model.combat.ruleset.Ruleset`, `referee.model.play.rules.PlayRules`) and an",
        "engine can be checked under the reading it implements, or, until that option is built, the entry",
        "names the option it is owed. The entries are data in `specs/interpretations/*.toml`; the sweep of",
        "the rule texts that found them is `docs/generated/sweep.md`.",
        "",
        *_stance_counts(entries),
    ]
    if not entries:
        lines += ["", "No entries yet."]
    for entry in entries:
        lines += ["", f"## {entry.id}: {entry.question}", ""]
        lines += _entry_lines(entry)
    return "\n".join(lines) + "\n"


def _stance_counts(entries: list[Entry]) -> list[str]:
    built = [e for e in entries if e.option]
    owed = [e for e in entries if e.owed_option]
    none = [e for e in entries if not e.option and not e.owed_option]
    return [f"{len(entries)} entries: **{len(built)} with a ruleset option**, **{len(owed)} owed an option** "
            f"(engines may differ and it shows; not built yet: {', '.join(f'`{e.owed_option}` ({e.id})' for e in owed) or 'none'}), "
            f"and {len(none)} that need none (each says why)."]


def _entry_lines(entry: Entry) -> list[str]:
    lines = [f"- **clauses:** {', '.join(f'`{c}`' for c in entry.clauses)}", "- **readings:**"]
    lines += [f"  - {reading}" for reading in entry.readings]
    lines.append(f"- **default:** {entry.default}")
    lines.append(f"- **engines may differ:** {'yes' if entry.differ else 'no'}; "
                 f"**observable:** {'yes' if entry.observable else 'no'}")
    if entry.option:
        lines.append(f"- **ruleset option:** `{entry.option}`")
        consequences = _consequences(entry.option)
        if consequences:
            lines.append("- **consequences** (`referee prove` confirms each with a replayed counterexample):")
            lines += consequences
    if entry.owed_option:
        lines.append(f"- **option owed** (not built yet): `{entry.owed_option}` = "
                     f"{' | '.join(f'`{v}`' for v in entry.owed_values)} (the first is today's reading)")
    if entry.no_option:
        lines.append(f"- **why no option:** {entry.no_option}")
    lines.append(f"- **why:** {entry.why}")
    lines.append(f"- **source:** `specs/interpretations/{entry.file}`")
    return lines


def render_sweep(records: list[SweptClause]) -> str:
    """The sweep of the rule texts: every clause read, the words read most closely and the entries found."""
    lines = [HEADER, "# The sweep of the rule texts for readings engines may take differently", "",
             "Every clause of both rulebooks was read, word by word, as a careful engine author about to implement it,",
             "for words that admit two readings: an undefined quantity, an unstated order, \"may\", a keyword whose text",
             "is not in the rules, an unstated scope or rounding, two clauses that pull against each other. Each",
             "reading found is an entry of the register (`docs/interpretations.md`); a clause with none found says",
             "why its words are clear. The record is data in `specs/sweep_record/*.toml`.", "",
             f"{len(records)} clauses read; {sum(1 for r in records if r.found)} bear on at least one register entry.", ""]
    for book in sorted({r.clause.rulebook for r in records}):
        lines += [f"## The {book} rulebook", "", "| clause | the words read | entries | what was read |", "|---|---|---|---|"]
        lines += [f"| `{r.clause.number}` | {_cell(r.words)} | {' '.join(r.found) or 'none'} | {_cell(r.note)} |"
                  for r in records if r.clause.rulebook == book]
        lines.append("")
    return "\n".join(lines)


def render_pages() -> dict[str, str]:
    """Each generated page's path (relative to the repository root) and its content."""
    result = trace()
    return {
        PAGES[0]: render_coverage(result),
        PAGES[1]: render_theorems(),
        PAGES[2]: render_interpretations(load_register()),
        PAGES[3]: render_explain_examples(),
        PAGES[4]: render_exhaust(),
        PAGES[5]: render_changelog(),
        PAGES[6]: render_sweep(load_sweep()),
    }


def render_exhaust() -> str:
    """The exhaustive tiers' scopes and published counts (``referee exhaust``)."""
    from .exhaust_page import render_page

    return render_page(HEADER)


def render_explain_examples() -> str:
    """``referee explain`` on the worked examples of ``referee/explain/examples.py``."""
    from referee.explain.examples import render_examples

    return render_examples(HEADER)


def render_event_table() -> str:
    """The protocol's event table and the order of an instance, from the one declaration."""
    from referee.model.events import EVENT_SPECS, INSTANCES, STAGES

    def field(meaning: str | None, empty: str, nullable: bool = False) -> str:
        if meaning is None:
            return f"*{empty}*"
        return _cell(meaning) + (" (may be null)" if nullable and "null" not in meaning else "")

    from ..contract import contract

    entries = contract()["events"]
    lines = [
        "| name | unit | amount | other | detail | emitted when | stage | feature | clauses (of the emitting code) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for spec in EVENT_SPECS:
        book = "" if spec.rulebook == "combat" else f" ({spec.rulebook} rulebook)"
        entry = entries[spec.name]
        lines.append(
            f"| `{spec.name}` | {field(spec.unit, 'always null')} | {field(spec.amount, 'always 0')} "
            f"| {field(spec.other, 'always null', spec.other_nullable)} | {'*always null*' if spec.detail is None else _cell(spec.describe_detail())} "
            f"| {_cell(spec.summary)}: {_cell(spec.emitted_when)}{book} | {STAGES.index(spec.stage) + 1}. {spec.stage} "
            f"| {', '.join(entry['features']) or '-'} | {', '.join(c.split(':')[1] for c in entry['clauses']) or '-'} |"
        )
    lines += [
        "",
        "**Order.** Within one instance the stages of its events never go back: "
        + ", ".join(f"{i + 1}. {stage}" for i, stage in enumerate(STAGES))
        + ". An instance is "
        + "; ".join(f"{name}: {text}" for name, text in INSTANCES.items())
        + ". A nested instance (an intercepted or redirected part, a Subrogation payback, a retaliation"
        " cost, a Reflect's damage back) is emitted whole at the event that opens it.",
    ]
    return "\n".join(lines) + "\n"


def render_field_table() -> str:
    """The protocol's unit-field table: type, default, owning feature, description, input-domain conditions."""
    from ..contract import contract

    domain = _domain_conditions()
    lines = ["| field | type | default | feature | meaning | legal |", "|---|---|---|---|---|---|"]
    for name, entry in contract()["unit_fields"].items():
        default = "(required)" if name == "uid" else json.dumps(entry["default"])
        kind = {"uid?": "string or null"}.get(entry["type"], entry["type"])
        legal = "; ".join(domain.get(name, [])) or "-"
        lines.append(f"| `{name}` | {kind} | {default} | {entry['feature']} | {_cell(entry['description'])} | {_cell(legal)} |")
    return "\n".join(lines) + "\n"


def _domain_conditions() -> dict[str, list[str]]:
    """Each unit field's conditions in the legal-state definition the loader holds a scenario to."""
    from referee.model.combat.legal import UNIT_DOMAIN

    out: dict[str, list[str]] = {}
    for condition in UNIT_DOMAIN:
        out.setdefault(condition.field, []).append(condition.says)
    return out


def render_refusal_rules() -> str:
    """The refusal events' reasons, first reason first, as the model's own reason lists order them."""
    from ..contract import contract

    lines = ["| event | case | reasons, the first that holds is reported |", "|---|---|---|"]
    for event, cases in contract()["refusals"].items():
        for case, reasons in cases.items():
            lines.append(f"| `{event}` | {case} | {', '.join(f'`{r}`' for r in reasons)} |")
    return "\n".join(lines) + "\n"


def render_payback_refusals() -> str:
    """The order of a Subrogation payback's refusal reasons: the retaliation cost's own list, without its side rules
    (a payback asks nothing of an ally or of the recipient itself: there is none, and no event)."""
    from referee.model.combat.costs import compute_refusal_reasons
    from referee.model.combat.state import Unit

    reasons = [reason for reason, _ in compute_refusal_reasons(Unit("x"), "retaliation")]
    return ("| event | case | reasons, the first that holds is reported |\n|---|---|---|\n"
            f"| `cost_refused` | Subrogation payback (the source pays) | {', '.join(f'`{r}`' for r in reasons)} |\n")


def render_ruleset_table() -> str:
    """Every reading of both rulebooks, as their schemas declare it: default, the other readings, register entry."""
    from referee.rulebooks.combat.schema import ruleset_schema
    from referee.rulebooks.play.schema import rules_schema

    entries = {entry.option: entry.id for entry in load_register() if entry.option}
    lines = ["| option | rulebook (scenario field) | default | alternatives | register entry |",
             "|---|---|---|---|---|"]
    for rulebook, key, schema in (("combat", "ruleset", ruleset_schema()), ("play", "rules", rules_schema())):
        for name, prop in schema["properties"].items():
            lines.append(f"| `{name}` | {rulebook} (`{key}`) | `{prop['default']}` | {_alternatives(prop)} "
                         f"| {entries.get(name, '-')} |")
    return "\n".join(lines) + "\n"


def _alternatives(prop: dict) -> str:
    """The readings other than the default: the enumeration's others, or an integer's range."""
    if "enum" in prop:
        return ", ".join(f"`{value}`" for value in prop["enum"] if value != prop["default"])
    return f"any integer >= {prop['minimum']}"


def render_changelog() -> str:
    """``docs/protocol-changelog.md``: every change of the protocol, old -> new, by version."""
    from ..changelog import CHANGELOG
    from ..wire import PROTOCOL

    lines = [HEADER, "# The protocol's changelog", "",
             f"The current version is `{PROTOCOL}`. Each change says what an engine of the version before sent or "
             "received (old) and what it does now (new); **breaking** marks a change that can make an engine "
             "written to the version before fail. The entries come from `referee/changelog.py`; an engine that "
             "announces an older version is refused with the list of breaking changes.", ""]
    for version, changes in reversed(list(CHANGELOG.items())):
        lines += [f"## `{version}`", "", "| change | old | new | breaking | since |", "|---|---|---|---|---|"]
        lines += [f"| {_cell(c.subject)} | {_cell(c.old)} | {_cell(c.new)} | {_kind_of_change(c)} "
                  f"| {_cell(c.since) or '-'} |" for c in changes]
        lines += ["", *_migration(version, changes)]
    return "\n".join(lines)


def _kind_of_change(change: Any) -> str:
    """**breaking**, **narrows a profile** (an older profile compares less, warned of), or no."""
    return "**breaking**" if change.breaking else "**narrows a profile**" if change.narrows else "no"


def _migration(version: str, changes: Any) -> list[str]:
    """The one-line changes a declaration written for the version before makes (the migration guide)."""
    steps = [c for c in changes if c.migration]
    if not steps:
        return []
    return [f"### Moving a declaration to `{version}`", "",
            *[f"- {_cell(c.subject)}: {c.migration}." for c in steps], "",
            "```toml", f'protocol = "{version}"', "```", ""]


def render_option_table() -> str:
    """The guide's option table, from the option declarations."""
    from referee.check.options import option_table

    return option_table()


#: Generated regions of hand-written pages: page -> region name -> renderer.
REGIONS = {"docs/protocol.md": {"fields": render_field_table, "ruleset": render_ruleset_table,
                                "events": render_event_table, "refusals": render_refusal_rules,
                                "payback-refusals": render_payback_refusals},
           "docs/guide-check-your-engine.md": {"options": render_option_table}}


def _begin(name: str) -> str:
    return f"<!-- begin generated: {name} (from the sources; run `referee docs`) -->\n"


def _end(name: str) -> str:
    return f"<!-- end generated: {name} -->\n"


def render_regions(root: Path) -> dict[str, str]:
    """Each page with generated regions, its content with every region rewritten."""
    out = {}
    for relative, regions in REGIONS.items():
        text = (root / relative).read_text(encoding="utf-8")
        for name, render in regions.items():
            begin, end = _begin(name), _end(name)
            if begin not in text or end not in text:
                raise DocgenError(f"{relative}: the generated region {name!r} has no begin/end markers")
            head, rest = text.split(begin, 1)
            _, tail = rest.split(end, 1)
            text = head + begin + render() + end + tail
        out[relative] = text
    return out


def _root() -> Path:
    root = repo_root()
    if root is None:
        raise DocgenError("the docs are generated in a source checkout (no pyproject.toml beside the referee package)")
    return root


def everything_generated(root) -> dict[str, str]:
    """Every generated file: the pages, the generated regions of hand-written pages, and the engine kits'
    protocol types (``referee.kits.types``)."""
    from referee.kits.types import render_types

    return {**render_pages(), **render_regions(root), **render_types()}


def stale_pages() -> list[str]:
    """The generated pages whose content on disk differs from what the sources give."""
    root = _root()
    stale = []
    for relative, content in everything_generated(root).items():
        path = root / relative
        if not path.is_file() or path.read_text(encoding="utf-8") != content:
            stale.append(relative)
    return stale


def write_pages() -> list[str]:
    """Write every generated page that changed; the pages written."""
    root = _root()
    written = []
    for relative, content in everything_generated(root).items():
        path = root / relative
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        written.append(relative)
    return written
