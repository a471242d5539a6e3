"""``referee exhaust``: bounded-exhaustive conformance, perft for the rules.

A tier (``tiny``, ``small``, ``standard``) is a fixed scope: every scenario of every family its rulebooks
declare (:mod:`referee.scope`; the families in ``referee/rulebooks/<name>/exhaust.py``), in a canonical order,
one per symmetry class, drawn with no randomness. Three things are done with it:

* **counts** (:func:`count`): how many scenarios, how many distinct final outcomes, and per outcome category
  (every event name: deaths, revivals, refusals, Shield broken, Insurance spent, defy-death ...) and per clause
  the number of scenarios that reached it. The counts are a contract: ``docs/exhaust.md`` publishes them and a
  snapshot test holds them, so a change to the model that changes them is seen in review;
* **divide** (:func:`divide`): the same, split by first action, as perft's divide splits by first move: two
  engines whose totals differ compare lines and the first differing line points at the bug;
* **check** (:func:`check`): the tier run through an engine and compared with the model, with ``check``'s
  comparison modes, profile and divergence groups.

Declared readings (``--ruleset name=value`` or ``referee.toml``'s ``ruleset`` table, :mod:`referee.vectors.readings`)
are fixed in every scenario of the tier; a family that varies a reading the declaration fixes
then builds the same scenario once per value it lists, and only the first is kept (the others are counted as left
out). With none declared, the tier is exactly its published list.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import rulebooks
from ..check.compare import Comparison
from ..check.grouping.groups import Group
from ..check.grouping.groups import clause_of_key
from ..check.grouping.api import group_key_of
from ..check.harness import engine_answers, expect, judge
from ..scope import Enumerated, Family, canonical_key, enumerate_scope
from ..wire import Observation
from .readings import Readings, declared_readings, readings_text, with_readings  # noqa: F401  (the verb's API)

TIERS = ("tiny", "small", "standard")

#: Why a scenario of a family varying a declared reading is left out (after the family's name).
VARIES_A_READING = "varies a declared reading: only the declared value runs"


def families(tier: str) -> list[Family]:
    """Every rulebook's families of ``tier``, the default rulebook's first."""
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r} (known: {', '.join(TIERS)})")
    return [f for book in rulebooks.RULEBOOKS.values() for f in book.exhaust_families(tier)]


@dataclass
class Scope:
    """A tier's scenarios after symmetry reduction and the profile, and what was left out."""

    tier: str
    enumerated: Enumerated
    #: Scenarios the profile leaves out (a feature not in it, a kind not selected), by reason.
    left_out: Counter[str] = field(default_factory=Counter)
    #: The readings declared, fixed in every scenario (empty: each scenario's own, as the family built it).
    readings: Readings = field(default_factory=dict)
    #: The features the profile keeps (None: all), counted in the verdict's summary.
    features: frozenset[str] | None = None

    @property
    def scenarios(self) -> list[tuple[str, dict[str, Any]]]:
        return self.enumerated.scenarios

    @property
    def ruleset(self) -> dict[str, Any]:
        """The declared readings as one ``{name: value}`` table (every rulebook's names are distinct)."""
        return {name: value for fixed in self.readings.values() for name, value in fixed.items()}

    @property
    def varied_out(self) -> int:
        """How many scenarios were left out because their family varies a declared reading."""
        return sum(n for reason, n in self.left_out.items() if reason.endswith(VARIES_A_READING))


def scope(tier: str, kinds: frozenset[str] | None = None, features: frozenset[str] | None = None,
          readings: Readings | None = None) -> Scope:
    """The tier's scenarios, canonical order, one per symmetry class, inside the profile (``features``),
    each carrying the declared ``readings``."""
    enumerated = enumerate_scope(families(tier))
    out = Scope(tier, Enumerated(candidates=enumerated.candidates, by_family=enumerated.by_family),
                readings=dict(readings or {}), features=features)
    if readings:
        enumerated = _fix_readings(enumerated, tier, readings, out.left_out)
        out.enumerated.by_family = enumerated.by_family
    for family, scenario in enumerated.scenarios:
        reason = _outside(scenario, kinds, features)
        if reason is None:
            out.enumerated.scenarios.append((family, scenario))
        else:
            out.left_out[reason] += 1
    return out


def _outside(scenario: dict[str, Any], kinds: frozenset[str] | None, features: frozenset[str] | None) -> str | None:
    """Why a scenario is outside the profile (None: it is in)."""
    used_kinds = {a["kind"] for a in scenario["actions"]}
    if kinds is not None and not used_kinds <= kinds:
        return "kind " + ", ".join(sorted(used_kinds - kinds)) + " not selected"
    if features is not None:
        used = rulebooks.of_scenario(scenario).features_used(scenario) - features
        if used:
            return "uses " + ", ".join(sorted(used))
    return None


def _fix_readings(enumerated: Enumerated, tier: str, readings: Readings, left_out: Counter[str]) -> Enumerated:
    """Every scenario with the declared readings; one that is then the same as one before it (its family varies a
    declared reading) is left out, counted under its family, and each family's figure is what is kept."""
    cells_free = {f.name: f.cells_free for f in families(tier)}
    out, seen, kept = Enumerated(candidates=enumerated.candidates), set(), Counter()
    for family, scenario in enumerated.scenarios:
        fixed = with_readings(scenario, readings)
        key = canonical_key(fixed, cells_free[family])
        if key in seen:
            left_out[f"{family} {VARIES_A_READING}"] += 1
            continue
        seen.add(key)
        kept[family] += 1
        out.scenarios.append((family, fixed))
    out.by_family = {name: (candidates, kept[name]) for name, (candidates, _) in enumerated.by_family.items()}
    return out


def with_ids(found: Scope) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each scenario with its id (``<tier>-<index>``: the index in canonical order, stable across runs)."""
    for i, (family, scenario) in enumerate(found.scenarios):
        yield family, {**scenario, "id": f"{found.tier}-{i}"}


# --------------------------------------------------------------------------------------
# Counts
# --------------------------------------------------------------------------------------


@dataclass
class Counts:
    """A tier's published figures: scenarios, distinct outcomes, and scenarios per category and per clause."""

    scenarios: int = 0
    outcomes: set[str] = field(default_factory=set)
    categories: Counter[str] = field(default_factory=Counter)
    clauses: Counter[str] = field(default_factory=Counter)
    model_errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"scenarios": self.scenarios, "distinct_outcomes": len(self.outcomes),
                "categories": dict(sorted(self.categories.items())), "clauses": dict(sorted(self.clauses.items())),
                "model_errors": self.model_errors}


def outcome_digest(observation: Observation, scenario: dict[str, Any]) -> str:
    """A short digest of one final outcome (the final state and the events, as the protocol writes them)."""
    book = rulebooks.of_scenario(scenario)
    encoded = book.encode_observation(observation.state, observation.events, None)
    text = json.dumps(encoded, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _observe(scenario: dict[str, Any], clauses: bool) -> tuple[Any, tuple[str, ...]]:
    """The model's observation (or a model error's text) and, when asked, the clauses its run applied."""
    if not clauses:
        return expect(scenario), ()
    from ..trail import clauses_applied

    try:
        state, events, steps = rulebooks.of_scenario(scenario).observe(scenario)
    except Exception:  # the error is the expectation's to report
        return expect(scenario), ()
    book = rulebooks.of_scenario(scenario)
    return book.observation(state, events, scenario.get("id")), tuple(clauses_applied(steps))


def count(found: Scope, clauses: bool = True, progress: Callable[[int, int], None] | None = None) -> tuple[Counts, dict[str, Counts]]:
    """The tier's counts, and the same per divide line (:func:`divide_key`)."""
    total, lines = Counts(), {}
    for i, (family, scenario) in enumerate(with_ids(found)):
        observed, applied = _observe(scenario, clauses)
        line = lines.setdefault(divide_key(family, scenario), Counts())
        for counts in (total, line):
            _tally(counts, scenario, observed, applied)
        if progress and i % 1000 == 999:
            progress(i + 1, len(found.scenarios))
    return total, lines


def _tally(counts: Counts, scenario: dict[str, Any], observed: Any, applied: tuple[str, ...]) -> None:
    counts.scenarios += 1
    if isinstance(observed, tuple):
        counts.model_errors.append(f"{scenario['id']}: {observed[1]}")
        return
    counts.outcomes.add(outcome_digest(observed, scenario))
    counts.categories.update({e.name for e in observed.events})
    counts.clauses.update(set(applied))


def divide_key(family: str, scenario: dict[str, Any]) -> str:
    """A divide line: the family and the first action (as perft divides by first move)."""
    first = {k: v for k, v in scenario["actions"][0].items() if k != "riposte_rolls"}
    return f"{family} {json.dumps(first, sort_keys=True, separators=(',', ':'))}"


def divide_digest(counts: Counts) -> str:
    """One line's digest: the sorted digests of its outcomes (equal lines: the same outcomes, whatever order)."""
    return hashlib.sha256("".join(sorted(counts.outcomes)).encode()).hexdigest()[:12]


# --------------------------------------------------------------------------------------
# Checking an engine
# --------------------------------------------------------------------------------------


@dataclass
class ExhaustReport:
    """An engine's run over a tier: per divide line, scenarios and divergences; the groups found."""

    tier: str
    engine: str
    comparison: Comparison
    scenarios: int = 0
    seconds: float = 0.0
    status: str = "pass"  # pass | mismatch | fault | model-error
    lines: dict[str, list[int]] = field(default_factory=dict)  # divide line -> [scenarios, diverging]
    groups: dict[str, Group] = field(default_factory=dict)
    faults: list[str] = field(default_factory=list)
    model_errors: list[str] = field(default_factory=list)
    #: The declared readings every scenario carried, ``{name: value}`` (empty: none declared).
    ruleset: dict[str, Any] = field(default_factory=dict)
    #: The features the profile kept (None: all).
    features: frozenset[str] | None = None

    @property
    def first_line(self) -> str | None:
        """The first divide line (canonical order) where the engine diverged."""
        return next((line for line, (_, bad) in self.lines.items() if bad), None)

    @property
    def exit_code(self) -> int:
        """0 pass, 1 a divergence, 3 an engine fault only, 4 a model error (as ``check``)."""
        return {"pass": 0, "mismatch": 1, "fault": 3, "model-error": 4}[self.status]


def check(engine: Any, found: Scope, comparison: Comparison, batch: int = 64,
          progress: Callable[[int, int], None] | None = None, stop_at_first: bool = False,
          expectations: dict[str, Any] | None = None,
          only: Callable[[dict[str, Any]], bool] | None = None) -> ExhaustReport:
    """Every scenario of the tier through the engine and the model; divergences grouped as ``check`` groups them
    (``stop_at_first``: stop after the batch where the first divergence or fault showed; ``expectations``: the
    model's observations by scenario id, filled here and reused by a later run over the same tier; ``only``: the
    scenarios to run, each keeping its id in the whole tier)."""
    report = ExhaustReport(found.tier, engine.name, comparison, ruleset=found.ruleset, features=found.features)
    started = time.perf_counter()
    todo = [(f, s) for f, s in with_ids(found) if only is None or only(s)]
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        sent = [s for _, s in chunk]
        engine.submit(sent)  # the same list to run_batch: an engine collects what it was handed, by identity
        expected = [_expected(s, expectations) for s in sent]
        for (family, scenario), answer, model in zip(chunk, engine_answers(engine, sent), expected):
            _judge_one(report, family, scenario, judge(scenario, answer, comparison, model))
        if progress:
            progress(min(start + batch, len(todo)), len(todo))
        if stop_at_first and (report.groups or report.faults or report.model_errors):
            break
    report.seconds = time.perf_counter() - started
    report.status = _status(report)
    return report


def _expected(scenario: dict[str, Any], memo: dict[str, Any] | None) -> Any:
    if memo is None:
        return expect(scenario)
    if scenario["id"] not in memo:
        memo[scenario["id"]] = expect(scenario)
    return memo[scenario["id"]]


def _judge_one(report: ExhaustReport, family: str, scenario: dict[str, Any], verdict: tuple[str, Any]) -> None:
    status, detail = verdict
    report.scenarios += 1
    line = report.lines.setdefault(divide_key(family, scenario), [0, 0])
    line[0] += 1
    if status == "ok":
        return
    line[1] += 1
    if status == "mismatch":
        key = group_key_of(scenario, detail)
        group = report.groups.get(key)
        if group is None or _size(scenario) < _size(group.scenario):
            report.groups[key] = Group(key, (group.count if group else 0) + 1, scenario, detail)
        else:
            group.count += 1
    elif status == "fault":
        report.faults.append(f"{scenario['id']}: {detail.describe()}")
    else:
        report.model_errors.append(f"{scenario['id']}: {detail}")


def _size(scenario: dict[str, Any]) -> int:
    """A group keeps its smallest scenario (fewest characters: the fewest units, actions and digits)."""
    return len(json.dumps(scenario, separators=(",", ":")))


def _status(report: ExhaustReport) -> str:
    if report.model_errors:
        return "model-error"
    if report.groups:
        return "mismatch"
    return "fault" if report.faults else "pass"


def _report_json(report: ExhaustReport) -> dict[str, Any]:
    readings = {"ruleset": report.ruleset} if report.ruleset else {}
    return {"tier": report.tier, **readings, "engine": report.engine, "status": report.status,
            "scenarios": report.scenarios, "seconds": round(report.seconds, 3),
            "compared": report.comparison.to_json(), "first_divide_line": report.first_line,
            "groups": [{**g.to_json(), "clause_at_fault": clause_of_key(g.key)} for g in report.groups.values()],
            "faults": report.faults[:50],
            "model_errors": report.model_errors[:50],
            "divide": {k: {"scenarios": n, "diverging": bad} for k, (n, bad) in report.lines.items()}}


def _report_text(report: ExhaustReport, divide: bool = False) -> str:
    verdict = {"pass": "PASS", "mismatch": "FAIL", "fault": "ENGINE FAULT", "model-error": "MODEL ERROR"}[report.status]
    diverging = sum(bad for _, bad in report.lines.values())
    readings = f"; readings: {readings_text(report.ruleset)}" if report.ruleset else ""
    out = [f"referee exhaust --tier {report.tier}: {verdict}: {report.scenarios} scenarios in {report.seconds:.1f} s "
           f"({report.engine}; compared: {report.comparison.describe()}{readings}; features: "
           f"{rulebooks.features_compared(report.features)}); {diverging} diverging, "
           f"{len(report.groups)} distinct divergence(s), {len(report.faults)} engine fault(s)"]
    if report.first_line:
        out.append(f"  first diverging divide line: {report.first_line}")
    for group in list(report.groups.values())[:20]:
        at = clause_of_key(group.key)
        out.append(f"  [{group.count} scenario(s)] {group.divergences[0].describe()}" + (f" (at {at})" if at else ""))
        shown = rulebooks.of_scenario(group.scenario).compact(group.scenario)
        out.append(f"      scenario {group.scenario['id']}: {json.dumps(shown, separators=(',', ':'))}")
    out += [f"  engine fault: {line}" for line in report.faults[:5]]
    out += [f"  model error: {line}" for line in report.model_errors[:5]]
    if divide:
        out += [f"{n:>6} {bad:>6} {key}" for key, (n, bad) in report.lines.items()]
    return "\n".join(out)


ExhaustReport.to_json = _report_json  # type: ignore[attr-defined]
ExhaustReport.text = _report_text  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------
# A tier as conformance vectors
# --------------------------------------------------------------------------------------


def export_vectors(folder: Any, found: Scope) -> dict[str, Any]:
    """Write the tier in the vector format (``referee vectors run`` replays it), every vector's SHA-256 and the
    whole tier's in the manifest (its receipt). Each vector is filed under the first clause its model run applied.
    Declared readings are recorded as ``vectors export`` records them (``rulebooks.<name>.ruleset``) and as the
    tier's own ``exhaust.ruleset``."""
    from pathlib import Path

    from ..rulebook import Vector
    from .suite import Generated, export

    found_vectors = []
    for family, scenario in with_ids(found):
        observed, applied = _observe(scenario, clauses=True)
        if isinstance(observed, tuple):
            raise ValueError(f"{scenario['id']}: {observed[1]}")
        book = rulebooks.of_scenario(scenario)
        expected = book.encode_observation(observed.state, observed.events, scenario["id"])
        clauses = list(applied) or [book.kinds[scenario["actions"][0]["kind"]].chapters[0]]
        found_vectors.append(Vector(scenario, expected, clauses, f"exhaust:{found.tier}:{scenario['id']}",
                                    f"exhaust/{family}", primary=clauses[0], label=scenario["id"]))
    manifest = export(Path(folder), Generated(found_vectors, {}), readings=found.readings)
    return _seal(Path(folder), manifest, found)


def _seal(folder: Any, manifest: dict[str, Any], found: Scope) -> dict[str, Any]:
    """Add the tier's receipt to the manifest: each vector file's SHA-256 and one over all of them, in order."""
    files = {entry["path"]: hashlib.sha256((folder / entry["path"]).read_bytes()).hexdigest()
             for entry in manifest["vectors"]}
    whole = hashlib.sha256("".join(f"{p} {h}\n" for p, h in files.items()).encode()).hexdigest()
    manifest["exhaust"] = {"tier": found.tier, "scenarios": len(files), "sha256": whole, "files": files,
                           "candidates": found.enumerated.candidates, "left_out": dict(found.left_out)}
    if found.ruleset:  # the readings every vector was built under (none: each scenario's own)
        manifest["exhaust"]["ruleset"] = found.ruleset
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest
