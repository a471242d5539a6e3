"""Conformance vectors: scenario/expected-observation pairs any engine can replay without Python.

Each rulebook finds its own vectors (``referee/rulebooks/<name>/vectors.py``: the combat
rulebook by Z3 branch discovery over the model, the play rulebook from hand-written cases),
every expected observation computed by running the model. This module files them and runs
them. Layout of an exported folder (documented in ``docs/protocol.md``)::

    manifest.json                                   every vector: rulebook, kinds, clauses, ruleset; the readings
    combat/damage/500.1-7/0001.json                 {"scenario": ..., "expected": ..., "clauses": [...], ...}
    combat/hit/500.2c/0003-armor-exact-third.json   a hand-written boundary case
    play/play_card/357.2/0001-kill-then-discard.json

A vector is filed by rulebook, then the kind of its first action, then its primary clause.

Readings (``--ruleset name=value``): the vectors are found under each vector's own readings (the default ones, or a
hand-written case's), then every declared option is fixed in every vector and the model computes its expected
observation again (:func:`read_under`); ``rulebooks.<name>.ruleset`` records every option's reading the export was
made under, and ``vectors run`` refuses a suite exported under other readings than the run declares
(:func:`check_suite`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..check import interrupts
from .. import rulebooks
from ..check.compare import compare
from ..check.harness import engine_answers
from ..engines.transports import EngineFault, check_answer
from ..protocol import PROTOCOL, decode_observation, rulebook_of
from ..rulebook import Vector
from ..trail import clauses_applied

VECTORS_FORMAT = "referee-vectors/1"


@dataclass
class Generated:
    """The vectors of every rulebook, and each rulebook's branch coverage (None: not measured)."""

    vectors: list[Vector]
    coverage: dict[str, Any]


def generate(progress: Callable[[str], None] | None = None, only: str | None = None,
             profile: "Selection | None" = None) -> Generated:
    """Every rulebook's vectors (``only``: a template or rulebook name prefix), searched inside ``profile`` (the
    ``--kinds``/``--features`` selection: a branch a scenario inside it takes gets a vector inside it)."""
    found: list[Vector] = []
    coverage: dict[str, Any] = {}
    for name, book in rulebooks.RULEBOOKS.items():
        vectors, branches = book.vectors(progress, only, profile)
        found += vectors
        coverage[name] = branches
    return Generated(found, coverage)


def vector_folder(vector: Vector) -> Path:
    """``<rulebook>/<kind of the first action>/<primary clause>``."""
    rulebook = rulebook_of(vector.scenario)
    kind = vector.scenario["actions"][0]["kind"]
    clause = vector.primary.partition(":")[2] or "unclaused"
    return Path(rulebook) / kind / clause


def _exercises(vector: Vector, coverage: Any, book: Any, reread: bool = False) -> list[str]:
    """The branches a vector takes (a rulebook without branch coverage: none): those of its concrete model run
    (the rulebook's ``exercised_branches``) among the branches found, and the one Z3 found it for (unless the vector
    was read again under other readings than it was found under: then only its concrete run speaks)."""
    if coverage is None or not hasattr(book, "exercised_branches"):
        return []
    known = {f"{key}={polarity}" for key in coverage.sites for polarity in ("true", "false")}
    taken = set(book.exercised_branches(vector.scenario)) & known
    return sorted(taken | ({vector.branch} if vector.branch in known and not reread else set()))


def _file(folder: Path, vectors: list[Vector], coverage: dict[str, Any] | None = None,
          reread: set[int] | None = None) -> list[dict[str, Any]]:
    """Write each vector to its folder; its manifest entry (``reread``: the ids of the vectors read again under
    the declared readings)."""
    counters: dict[Path, int] = {}
    entries = []
    for vector in vectors:
        sub = vector_folder(vector)
        counters[sub] = counters.get(sub, 0) + 1
        name = f"{counters[sub]:04d}" + (f"-{vector.label}" if vector.label else "")
        vector.path = str(sub / f"{name}.json")
        (folder / sub).mkdir(parents=True, exist_ok=True)
        (folder / vector.path).write_text(json.dumps(vector.to_json(), indent=1) + "\n")
        rulebook = rulebook_of(vector.scenario)
        book = rulebooks.get(rulebook)
        entries.append({"path": vector.path, "rulebook": rulebook, "primary": vector.primary, "clauses": vector.clauses,
                        "branch": vector.branch, "source": vector.source,
                        "exercises": _exercises(vector, (coverage or {}).get(rulebook), book,
                                                id(vector) in (reread or set())),
                        "actions": [a["kind"] for a in vector.scenario["actions"]],
                        "kinds": sorted({a["kind"] for a in vector.scenario["actions"]}),
                        "features": sorted(book.features_used(vector.scenario)),
                        "ruleset": book.rules_to_json(book.decode_scenario(vector.scenario).rules)})
    return entries


def select(generated: Generated, selection: "Selection") -> tuple[Generated, list[tuple[Vector, str]]]:
    """The vectors inside ``selection`` (``--kinds``, ``--features``, ``--without``), and those left out with why."""
    kept, left_out = [], []
    for vector in generated.vectors:
        reason = selection.reason_to_skip(vector.scenario)
        if reason is None:
            kept.append(vector)
        else:
            left_out.append((vector, reason))
    return Generated(kept, generated.coverage), left_out


def export(folder: Path, generated: Generated, selection: "Selection | None" = None,
           readings: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Write the vectors inside ``selection`` (None: all), each under the declared ``readings`` (by rulebook, as
    ``referee.vectors.readings.declared_readings`` gives them; None: each vector's own), and ``manifest.json``;
    return the manifest.

    The manifest records the selection and, per rulebook, every option's reading (``ruleset``), and a covered
    branch whose only vector was left out is listed under ``left_out`` instead of ``covered``: the folder holds
    no vector for it.
    """
    left_out: list[tuple[Vector, str]] = []
    if selection is not None:
        generated, left_out = select(generated, selection)
    generated, reread = _read_all_under(generated, readings or {})
    folder.mkdir(parents=True, exist_ok=True)
    entries = _file(folder, generated.vectors, generated.coverage, reread)
    by_clause: dict[str, list[str]] = {}
    for vector in generated.vectors:
        for clause in vector.clauses:
            by_clause.setdefault(clause, []).append(vector.path)
    paths = {v.branch: v.path for v in generated.vectors}
    manifest = {
        "format": VECTORS_FORMAT,
        "protocol": PROTOCOL,
        "rulebooks": _rulebooks_section(generated, entries, paths, readings or {}),
        "vectors": entries,
        "clauses": {clause: paths for clause, paths in sorted(by_clause.items())},
        "selection": (selection or Selection()).to_json(),
        "left_out": {"vectors": len(left_out), "by_reason": _count(reason for _, reason in left_out)},
    }
    _mark_left_out(manifest, {vector.branch for vector, _ in left_out} - set(paths))
    for name in readings or {}:
        _settle_under_readings(manifest["rulebooks"][name]["branches"], [e for e in entries if e["rulebook"] == name])
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _rulebooks_section(generated: Generated, entries: list[dict[str, Any]], paths: dict[str, str],
                       readings: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The manifest's ``rulebooks``: per rulebook its vector count, method, readings (every option's, the declared
    ones over the defaults) and branch coverage."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry["rulebook"]] = counts.get(entry["rulebook"], 0) + 1
    return {name: {"vectors": counts.get(name, 0), "method": book.vectors_method,
                   "ruleset": book.rules_to_json(book.rules_from_options(readings.get(name, {}))),
                   "branches": generated.coverage[name].manifest(paths) if generated.coverage.get(name) else None}
            for name, book in rulebooks.RULEBOOKS.items()}


def read_under(vector: Vector, readings: dict[str, dict[str, Any]]) -> Vector:
    """The vector with its rulebook's declared readings over its own (those not declared unchanged), its expected
    observation and clauses computed by the model again; the vector itself when it reads them already. It stays
    filed under its primary clause while the model still applies it (else under the first clause applied)."""
    from .readings import with_readings

    scenario = with_readings(vector.scenario, readings)
    if scenario == vector.scenario:
        return vector
    book = rulebooks.of_scenario(scenario)
    state, events, steps = book.observe(scenario)
    applied = clauses_applied(steps)
    primary = vector.primary if vector.primary in applied else (applied[0] if applied else "")
    leads = bool(primary) and vector.clauses[:1] == [vector.primary]  # a case written for a clause names it first
    clauses = list(dict.fromkeys([primary, *applied])) if leads else applied
    return Vector(scenario, book.encode_observation(state, events, None), clauses, vector.branch, vector.source,
                  primary=primary, label=vector.label)


def _read_all_under(generated: Generated, readings: dict[str, dict[str, Any]]) -> tuple[Generated, set[int]]:
    """Every vector under the declared readings (:func:`read_under`), and the ids of those read again."""
    if not any(readings.values()):
        return generated, set()
    vectors = [read_under(vector, readings) for vector in generated.vectors]
    reread = {id(new) for new, old in zip(vectors, generated.vectors) if new is not old}
    return Generated(vectors, generated.coverage), reread


def _settle_under_readings(branches: dict[str, Any] | None, entries: list[dict[str, Any]]) -> None:
    """A rulebook's branch coverage after its vectors were read again under declared readings (the search ran
    under each vector's own): a branch is ``covered`` when some vector takes it now (by its path), and a branch
    covered before that no vector takes now is listed under ``not_taken_under_readings``."""
    if not branches or "covered" not in branches:
        return
    taken: dict[str, str] = {}
    for entry in entries:
        for branch in entry["exercises"]:
            taken.setdefault(branch, entry["path"])
    exercised = {entry["path"]: set(entry["exercises"]) for entry in entries}
    covered = {b: p if b in exercised.get(p, set()) else taken[b] for b, p in branches["covered"].items() if b in taken}
    for key in ("unreachable", "unknown", "outside_domain", "outside_profile", "left_out"):
        if key in branches:
            covered.update({b: taken[b] for b in branches[key] if b in taken})
            branches[key] = [b for b in branches[key] if b not in taken]
    lost = sorted(b for b in branches["covered"] if b not in taken)
    branches["covered"] = dict(sorted(covered.items()))
    if lost:
        branches["not_taken_under_readings"] = lost


def _mark_left_out(manifest: dict[str, Any], dropped: set[str]) -> None:
    """A covered branch whose only vector the selection left out: listed under ``left_out``, not ``covered``."""
    for book in manifest["rulebooks"].values():
        branches = book["branches"]
        if branches and "covered" in branches:
            branches["left_out"] = sorted(b for b in branches["covered"] if b in dropped)
            branches["covered"] = {b: p for b, p in branches["covered"].items() if b not in dropped}


def _count(reasons: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


@dataclass(frozen=True)
class Selection:
    """Which vectors a run takes: by action kind and by feature (None: no restriction), less those using a feature of
    ``exclude`` (``vectors run --exclude-features``: a pure filter, what is compared is unchanged)."""

    kinds: frozenset[str] | None = None
    features: frozenset[str] | None = None
    exclude: frozenset[str] | None = None

    def reason_to_skip(self, scenario: dict[str, Any]) -> str | None:
        """Why a vector is outside the selection (None: it is in)."""
        kinds = {a.get("kind") for a in scenario.get("actions", []) if isinstance(a, dict)}
        if self.kinds is not None and not kinds <= self.kinds:
            return "kind " + ", ".join(sorted(kinds - self.kinds)) + " not selected"
        if self.features is not None:
            used = rulebooks.of_scenario(scenario).features_used(scenario) - self.features
            if used:
                return "uses " + ", ".join(sorted(used))
        if self.exclude:
            excluded = rulebooks.of_scenario(scenario).features_used(scenario) & self.exclude
            if excluded:
                return f"uses excluded feature{'s' if len(excluded) > 1 else ''} " + ", ".join(sorted(excluded))
        return None

    def to_json(self) -> dict[str, Any]:
        """The selection as the manifest and the receipt record it (``exclude_features`` only when given)."""
        out: dict[str, Any] = {"kinds": None if self.kinds is None else sorted(self.kinds),
                               "features": None if self.features is None else sorted(self.features)}
        if self.exclude:
            out["exclude_features"] = sorted(self.exclude)
        return out


def run_selection(settings: Any) -> Selection:
    """The selection of a ``vectors run`` (``--kinds``, ``--features``, ``--without``, ``--exclude-features``); an
    unknown feature name is a ValueError listing the known ones."""
    from ..check.plan import selection

    kinds, features = selection(settings)
    excluded = settings.values.get("exclude_features")
    if excluded:
        rulebooks.resolve_features(excluded)  # checks each name
    return Selection(frozenset(kinds) if kinds else None, features, frozenset(excluded) if excluded else None)


# --------------------------------------------------------------------------------------
# Running the vectors
# --------------------------------------------------------------------------------------

#: What a vector came to: the engine agreed, disagreed, faulted (a crash, a hang, garbage: no clause verdict), or
#: the vector was never run (the engine's restart bound or time budget was reached, or the run was interrupted);
#: a vector ``--expected-failures`` lists is ``known`` when it failed, ``stale`` when it passed
#: (``referee.vectors.expected``).
STATUSES = ("pass", "mismatch", "fault", "not run", "known", "stale")
#: ``vectors run --max-restarts``: engine restarts after faults before the remaining vectors are not run.
MAX_RESTARTS = 25


@dataclass
class VectorResult:
    path: str
    #: Every clause the vector applies (its primary clause first).
    clauses: list[str]
    status: str  # one of STATUSES
    detail: str = ""
    #: For a mismatch: the model's explain steps at fault (``referee.check.grouping.attribution``): the step before and the step.
    explain: list[dict[str, Any]] = field(default_factory=list)
    #: For a mismatch: the one clause it fails, the clause of the model step at fault (:func:`clause_at_fault`).
    failed_clauses: list[str] = field(default_factory=list)
    #: The branches the vector takes (the manifest's ``exercises``).
    exercises: list[str] = field(default_factory=list)
    #: The SHA-256 of the vector file's bytes as read for this run.
    sha256: str = ""
    #: For a ``known`` or ``stale`` result: what the engine's answer came to (mismatch, fault or pass).
    outcome: str = ""

    def fails(self, clause: str) -> bool:
        """Whether this result fails ``clause``: a mismatch, at fault there."""
        return self.status == "mismatch" and clause in self.failed_clauses

    def known_at(self, clause: str) -> bool:
        """Whether this result is a known failure (``--expected-failures``) at ``clause``: a mismatch at fault there."""
        return self.status == "known" and clause in self.failed_clauses


@dataclass
class VectorRun:
    """A ``vectors run``: one result per selected vector (run or not), the vectors outside the selection and why,
    the engine restarts, and why the run stopped early ("": it did not)."""

    results: list[VectorResult]
    skipped: list[tuple[str, str, str]]  # (path, reason, sha256)
    manifest: dict[str, Any]
    restarts: int = 0
    stopped: str = ""
    interrupted: bool = False
    #: What the run says besides its results (a manifest recording no readings: taken as the defaults).
    notes: list[str] = field(default_factory=list)
    #: What ``--expected-failures`` came to (``referee.vectors.expected.Settled``; None: no list).
    expected: Any = None

    def ran(self) -> list[VectorResult]:
        return [r for r in self.results if r.status != "not run"]


def clause_at_fault(scenario: dict[str, Any], divergences: list[Any], steps: list[dict[str, Any]],
                    entry: dict[str, Any]) -> str:
    """The clause a mismatch fails: the one ``referee check`` names for the same scenario and answer, from the same
    function (:func:`referee.check.grouping.api.name_the_fault`: its key's clause, else the model step at fault's);
    else the clause of the last of ``steps`` (the steps at fault already shown); when none, the vector's primary
    clause."""
    from ..check.grouping.api import name_the_fault

    named = name_the_fault(scenario, divergences)
    if named:
        return named
    if steps and steps[-1].get("clause"):  # the same step at fault, already placed (a scenario it cannot rekey)
        return steps[-1]["clause"]
    return entry.get("primary") or (entry["clauses"][0] if entry.get("clauses") else "(none)")


def _at_fault(scenario: dict[str, Any], divergence: Any) -> list[dict[str, Any]]:
    from ..check.grouping.attribution import steps_at_fault

    try:
        return steps_at_fault({k: v for k, v in scenario.items() if k != "id"}, divergence)
    except Exception:  # a courtesy: never lose the result for it (the primary clause is named instead)
        return []


def judge(entry: dict[str, Any], scenario: dict[str, Any], expected: dict[str, Any], answer: Any,
          comparison: Any) -> VectorResult:
    """One vector's result from the engine's answer: a pass, a mismatch at the clause at fault, or a fault."""
    base = {"path": entry["path"], "clauses": entry["clauses"], "exercises": entry.get("exercises", []),
            "sha256": entry.get("sha256", "")}
    observed = check_answer(answer, scenario, fields_needed=comparison.unit_fields,
                            events_needed=comparison.compares_events, event_fields=comparison.event_fields)
    if isinstance(observed, EngineFault):
        return VectorResult(status="fault", detail=observed.describe(), **base)
    rulebook = rulebook_of(scenario)
    divergences = compare(decode_observation(expected, rulebook=rulebook), observed, comparison, rulebook)
    if not divergences:
        return VectorResult(status="pass", **base)
    steps = _at_fault(scenario, divergences[0])
    return VectorResult(status="mismatch", detail=divergences[0].describe(), explain=steps,
                        failed_clauses=[clause_at_fault(scenario, divergences, steps, entry)], **base)


def load_selected(folder: Path, selection: Selection) -> tuple[dict[str, Any], list[tuple], list[tuple[str, str, str]]]:
    """The folder's manifest, its vectors inside ``selection`` (``(entry, scenario, expected)``, each checked by
    :func:`referee.vectors.files.read_vectors`) and the others as ``(path, reason, sha256)``; a folder whose vector
    files disagree with its manifest is refused (:func:`referee.vectors.files.check_listing`)."""
    from .files import check_listing, read_manifest, read_vectors

    manifest = read_manifest(folder, VECTORS_FORMAT)
    vectors = read_vectors(folder, VECTORS_FORMAT, manifest)
    check_listing(folder, manifest)  # after each entry is checked: a damaged entry is named for its damage
    loaded, skipped = [], []
    for i, (entry, scenario, expected) in enumerate(vectors):
        reason = selection.reason_to_skip(scenario)
        if reason is None:
            loaded.append((entry, {**scenario, "id": f"v{i}"}, expected))
        else:
            skipped.append((entry["path"], reason, entry["sha256"]))
    return manifest, loaded, skipped


def check_suite(folder: Path, pairs: list[str] | None) -> list[str]:
    """Before a run starts the engine: the suite was exported under the readings the run declares (``pairs``:
    ``--ruleset name=value`` items; None: the defaults); a :class:`referee.vectors.files.VectorFileError` (a usage
    error) names each option that differs. The notes to print: the rulebooks whose readings the manifest does not
    record (taken as the defaults). The files are checked as they are read (:func:`load_selected`)."""
    from .files import VectorFileError, read_manifest

    manifest = read_manifest(folder, VECTORS_FORMAT)
    exported, unrecorded = suite_readings(manifest, str(folder / "manifest.json"))
    differing = differing_readings(exported, pairs)
    if differing:
        raise VectorFileError(f"{folder}: exported under other readings than this run declares ("
                              + "; ".join(differing) + "): export the vectors again under the engine's readings "
                              "(`referee vectors export --ruleset name=value`), or declare the readings they were "
                              "exported under")
    return [f"{folder / 'manifest.json'}: records no readings for {', '.join(unrecorded)} (an export from before "
            "the manifest recorded them): taken as exported under the default readings"] if unrecorded else []


def differing_readings(exported: dict[str, dict[str, Any]], pairs: list[str] | None) -> list[str]:
    """Each option whose exported reading is not the one ``pairs`` declare (an option not declared: its default),
    as ``name: exported X, declared Y``; the pairs are checked as ``check`` checks ``--ruleset`` (a ValueError)."""
    out = []
    for name, rules in rulebooks.parse_rule_words(pairs).items():
        for option, value in rulebooks.get(name).rules_to_json(rules).items():
            if exported[name].get(option) != value:
                out.append(f"{option}: exported {exported[name].get(option)}, declared {value}")
    return out


def suite_readings(manifest: dict[str, Any],
                   where: str = "manifest.json") -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Every option's reading each rulebook's vectors were exported under (``rulebooks.<name>.ruleset``, with an
    exhaustive tier's ``exhaust.ruleset`` over it), checked as ``--ruleset`` is; and the rulebooks whose readings
    the manifest does not record (their defaults are given)."""
    from .files import VectorFileError

    recorded = manifest.get("rulebooks") if isinstance(manifest.get("rulebooks"), dict) else {}
    tier = manifest.get("exhaust") if isinstance(manifest.get("exhaust"), dict) else {}
    fixed = tier.get("ruleset") if isinstance(tier.get("ruleset"), dict) else {}
    out, unrecorded = {}, []
    for name, book in rulebooks.RULEBOOKS.items():
        entry = recorded.get(name)
        values = entry.get("ruleset") if isinstance(entry, dict) else None
        if values is None:
            unrecorded.append(name)
        elif not isinstance(values, dict):
            raise VectorFileError(f"{where}: rulebooks.{name}.ruleset: expected an object of ruleset options")
        own = {option: value for option, value in fixed.items() if option in book.rule_options()}
        try:
            out[name] = book.rules_to_json(book.rules_from_options({**(values or {}), **own}))
        except (ValueError, TypeError) as error:
            raise VectorFileError(f"{where}: rulebooks.{name}.ruleset: {error}") from None
    return out, unrecorded


def _not_run_answer(answer: Any) -> bool:
    """An answer the engine adapter made without running the vector (after a dead start, or past its budget)."""
    return isinstance(answer, EngineFault) and answer.message.startswith("not run:")


def _may_restart(engine: Any, run: VectorRun, max_restarts: int) -> bool:
    """Whether the engine may be started again for the next vector: it answered some vector before (so a crash
    on a fresh engine was that vector's, not a dead start), and the restart bound is not reached."""
    if getattr(engine, "dead", None) is None or not any(r.status in ("pass", "mismatch") for r in run.results):
        return False
    if getattr(engine, "restarts", 0) >= max_restarts:
        return False
    engine.dead = None
    return True


def replay(folder: Path, engine: Any, comparison: Any, selection: Selection | None = None,
           max_restarts: int = MAX_RESTARTS) -> VectorRun:
    """Replay the selected vectors of an exported folder through an engine; one result per selected vector.

    A crashed engine is restarted for the next vector, up to ``max_restarts`` restarts in all; past that, or past
    the engine's time budget, or after Ctrl-C, the remaining vectors are ``not run`` (never a fault), and
    ``stopped`` says why.
    """
    manifest, loaded, skipped = load_selected(folder, selection or Selection())
    run = VectorRun([], skipped, manifest)
    pending, size = list(loaded), max(1, getattr(engine, "batch_size", 1))
    try:
        while pending and not run.stopped:
            interrupts.raise_if_received()  # a signal whose exception an engine swallowed stops the run here
            chunk, pending = pending[:size], pending[size:]
            answers = engine_answers(engine, [scenario for _, scenario, _ in chunk])
            redo = _take(run, chunk, answers, comparison)
            if redo and _may_restart(engine, run, max_restarts):
                last = run.results[-1]  # the fault of the vector the fresh engine crashed on: that vector's own
                last.detail = last.detail.replace(_DEAD_START, "; the engine is restarted for the next vector")
                pending = redo + pending
            elif redo:
                run.stopped = _why_not_run(engine, answers, max_restarts)
            elif getattr(engine, "restarts", 0) > max_restarts:
                run.stopped = f"the engine was restarted {engine.restarts} times, past --max-restarts {max_restarts}"
    except KeyboardInterrupt:
        run.interrupted, run.stopped = True, f"interrupted ({interrupts.stopped_by()})"
    run.restarts = getattr(engine, "restarts", 0)
    done = {r.path for r in run.results}
    run.results += [VectorResult(e["path"], e["clauses"], "not run", run.stopped, exercises=e.get("exercises", []),
                                 sha256=e.get("sha256", "")) for e, _, _ in loaded if e["path"] not in done]
    return run


_DEAD_START = "; a dead start: the engine is not restarted for the rest of the run"


def _take(run: VectorRun, chunk: list[tuple], answers: list[Any], comparison: Any) -> list[tuple]:
    """File the results of a batch up to the first answer the adapter made without running the vector; the
    vectors from there on (to run again on a restarted engine, or to report as not run)."""
    for at, ((entry, scenario, expected), answer) in enumerate(zip(chunk, answers)):
        if _not_run_answer(answer):
            return chunk[at:]
        run.results.append(judge(entry, scenario, expected, answer, comparison))
    return chunk[len(answers):]


def _why_not_run(engine: Any, answers: list[Any], max_restarts: int) -> str:
    """Why the remaining vectors are not run: the adapter's own reason, or the restart bound."""
    if getattr(engine, "restarts", 0) >= max_restarts:
        return f"the engine was restarted {engine.restarts} times, the bound (--max-restarts {max_restarts})"
    reason = next((a.message for a in answers if _not_run_answer(a)), "the engine stopped answering")
    return reason.removeprefix("not run: ")


def run_vectors(folder: Path, engine: Any, comparison: Any, selection: Selection | None = None,
                skipped: list[tuple[str, str]] | None = None) -> list[VectorResult]:
    """:func:`replay`'s results; each vector left out is appended to ``skipped`` as ``(path, reason)``."""
    run = replay(folder, engine, comparison, selection)
    if skipped is not None:
        skipped += [(path, reason) for path, reason, _ in run.skipped]
    return run.results


# --------------------------------------------------------------------------------------
# The per-clause table
# --------------------------------------------------------------------------------------


def required_branches(manifest: dict[str, Any]) -> dict[str, set[str]]:
    """Per clause, the branches of its model functions that the export covered (``branches.sites``); a clause
    with none (no symbolic branch, or a rulebook without branch coverage) is judged by the clauses applied."""
    out: dict[str, set[str]] = {}
    for book in (manifest.get("rulebooks") or {}).values():
        branches = (book or {}).get("branches") or {}
        sites = branches.get("sites") or {}
        for branch in branches.get("covered") or {}:
            for clause in sites.get(branch.rsplit("=", 1)[0], []):
                out.setdefault(clause, set()).add(branch)
    return out


def _touches(result: VectorResult, clause: str, need: set[str]) -> bool:
    """Whether a result speaks for ``clause``: it takes one of its branches (a clause without branches: it applies
    the clause), or it fails there."""
    if result.fails(clause) or result.known_at(clause):
        return True
    return bool(need & set(result.exercises)) if need else clause in (result.clauses or ["(none)"])


def clause_row(clause: str, results: list[VectorResult], need: set[str]) -> dict[str, Any]:
    """One row of the table: ``FAIL`` (a vector is at fault there), ``known`` (only known failures are, listed by
    ``--expected-failures``), ``ok`` (the vectors that ran and passed take every branch of it), ``not covered`` (some
    branch no passing vector takes), ``not run`` (its vectors never ran). A stale entry's vector passed."""
    touching = [r for r in results if _touches(r, clause, need)]
    ran = [r for r in touching if r.status != "not run"]
    passed = [r for r in ran if r.status in ("pass", "stale")]
    failed = [r for r in ran if r.fails(clause)]
    known = [r for r in ran if r.known_at(clause)]
    taken = set().union(*(set(r.exercises) for r in passed)) & need
    status = ("FAIL" if failed else "known" if known else "not run" if touching and not ran else
              "not covered" if not passed or taken != need else "ok")
    return {"status": status, "vectors": len(ran), "passed": len(passed), "failed": len(failed),
            "faults": sum(r.status == "fault" for r in ran), "not_run": len(touching) - len(ran),
            "branches": len(need), "branches_exercised": len(taken), "known": len(known)}


def clause_table(results: list[VectorResult], manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A row per clause the selected vectors apply, fail, or whose covered branches they should take."""
    need = required_branches(manifest)
    clauses = {c for r in results for c in (r.clauses or ["(none)"])} | {c for r in results for c in r.failed_clauses}
    return {c: clause_row(c, results, need.get(c, set())) for c in sorted(clauses | set(need))}


def row_text(clause: str, row: dict[str, Any]) -> str:
    """``  ok          combat:500.2c      12/12``, with what keeps a row from ``ok``."""
    notes = []
    if row["status"] in ("not covered", "known") and row["branches"] > row["branches_exercised"]:
        notes.append(f"{row['branches'] - row['branches_exercised']} of {row['branches']} branches taken by no "
                     "passing vector")
    elif row["status"] == "not covered":
        notes.append("no passing vector applies it")
    for key, word in (("faults", "engine faults"), ("not_run", "not run"), ("known", "known failures")):
        if row[key]:
            notes.append(f"{row[key]} {word}")
    return (f"  {row['status']:<11} {clause:<18} {row['passed']}/{row['vectors']}"
            + (f"  ({'; '.join(notes)})" if notes else ""))


# --------------------------------------------------------------------------------------
# The receipt
# --------------------------------------------------------------------------------------

RECEIPT_FORMAT = "referee-vectors-receipt/2"


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes ("" for a file that cannot be read, or that is not read: not a regular file,
    such as a FIFO that would block or ``/dev/zero`` that never ends, or larger than the input limit)."""
    import hashlib

    from ..input_files import InputFileError, read_input_bytes

    try:
        return hashlib.sha256(read_input_bytes(path)).hexdigest()
    except (InputFileError, OSError):
        return ""


def write_receipt(path: Path, engine: str, selection: Selection, run: VectorRun) -> None:
    """The record of a run: the selection, the manifest's SHA-256, every vector run with its result (``known`` and
    ``stale`` ones with their ``outcome``) and the SHA-256 of the bytes it was read from, every vector not run and why,
    every vector skipped and why, and what ``--expected-failures`` came to (``referee vectors check-receipt`` holds a
    folder to it)."""
    receipt = {
        "format": RECEIPT_FORMAT,
        "engine": engine,
        "selection": selection.to_json(),
        "manifest_sha256": run.manifest.get("sha256", ""),
        "ran": len(run.ran()),
        "passed": sum(r.status == "pass" for r in run.results),
        "stopped": run.stopped,
        "results": [{"path": r.path, "sha256": r.sha256, "status": r.status, "clauses": r.clauses,
                     "failed_clauses": r.failed_clauses, "detail": r.detail, **({"outcome": r.outcome} if r.outcome
                                                                               else {})} for r in run.results],
        "skipped": [{"path": p, "sha256": digest, "reason": reason} for p, reason, digest in run.skipped],
    }
    if run.expected is not None:
        receipt["expected_failures"] = run.expected.to_json()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(receipt, indent=1) + "\n")


def check_receipt(receipt: dict[str, Any], folder: Path) -> list[str]:
    """What a receipt fails to show for ``folder`` (empty: it shows every vector run, or skipped with a written
    reason, on exactly these bytes): a manifest or vector whose SHA-256 differs, a vector not run, a vector the
    receipt does not account for, a skip without a reason, and a vector file the manifest does not list or a
    listed one missing (:func:`referee.vectors.files.listing_problems`, what ``vectors run`` refuses)."""
    from .files import listing_problems, read_manifest

    problems = []
    if receipt.get("manifest_sha256") != sha256_of(folder / "manifest.json"):
        problems.append("manifest.json: its SHA-256 is not the receipt's (another export, or edited)")
    accounted: dict[str, dict[str, Any]] = {}
    for item in [*(receipt.get("results") or []), *(receipt.get("skipped") or [])]:
        if isinstance(item, dict) and isinstance(item.get("path"), str):
            accounted[item["path"]] = item
    manifest = read_manifest(folder, VECTORS_FORMAT)
    problems += listing_problems(folder, manifest)
    for entry in manifest["vectors"]:
        path = entry.get("path") if isinstance(entry, dict) else None
        problems += _receipt_problems(str(path), accounted.get(str(path)), folder)
    return problems


def _receipt_problems(path: str, item: dict[str, Any] | None, folder: Path) -> list[str]:
    """What is wrong with one vector's line in a receipt."""
    from .files import VectorFileError, inside

    try:
        target = inside(folder, path, str(folder / "manifest.json"))
    except VectorFileError as error:
        return [str(error)]
    if item is None:
        return [f"{path}: neither run nor skipped in the receipt"]
    if item.get("status") == "not run":
        return [f"{path}: not run ({item.get('detail') or 'no reason given'})"]
    if "status" not in item and not str(item.get("reason") or "").strip():
        return [f"{path}: skipped without a written reason"]
    if item.get("sha256") != sha256_of(target):
        return [f"{path}: its SHA-256 is not the receipt's (the file changed since the run)"]
    return []
