"""Conformance vectors: scenario/expected-observation pairs any engine can replay without Python.

Each rulebook finds its own vectors (``referee/rulebooks/<name>/vectors.py``: the combat
rulebook by Z3 branch discovery over the model, the play rulebook from hand-written cases),
every expected observation computed by running the model. This module files them and runs
them. Layout of an exported folder (documented in ``docs/protocol.md``)::

    manifest.json                                   every vector: rulebook, kinds, clauses, ruleset
    combat/damage/500.1-7/0001.json                 {"scenario": ..., "expected": ..., "clauses": [...], ...}
    combat/hit/500.2c/0003-armor-exact-third.json   a hand-written boundary case
    play/play_card/357.2/0001-kill-then-discard.json

A vector is filed by rulebook, then the kind of its first action, then its primary clause.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import rulebooks
from .compare import compare
from .engines import EngineFault, check_answer
from .protocol import PROTOCOL, decode_observation, rulebook_of
from .rulebook import Vector

VECTORS_FORMAT = "referee-vectors/1"


@dataclass
class Generated:
    """The vectors of every rulebook, and each rulebook's branch coverage (None: not measured)."""

    vectors: list[Vector]
    coverage: dict[str, Any]


def generate(progress: Callable[[str], None] | None = None, only: str | None = None) -> Generated:
    """Every rulebook's vectors (``only``: a template or rulebook name prefix)."""
    found: list[Vector] = []
    coverage: dict[str, Any] = {}
    for name, book in rulebooks.RULEBOOKS.items():
        vectors, branches = book.vectors(progress, only)
        found += vectors
        coverage[name] = branches
    return Generated(found, coverage)


def vector_folder(vector: Vector) -> Path:
    """``<rulebook>/<kind of the first action>/<primary clause>``."""
    rulebook = rulebook_of(vector.scenario)
    kind = vector.scenario["actions"][0]["kind"]
    clause = vector.primary.partition(":")[2] or "unclaused"
    return Path(rulebook) / kind / clause


def _file(folder: Path, vectors: list[Vector]) -> list[dict[str, Any]]:
    """Write each vector to its folder; its manifest entry."""
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


def export(folder: Path, generated: Generated, selection: "Selection | None" = None) -> dict[str, Any]:
    """Write the vectors inside ``selection`` (None: all) and ``manifest.json``; return the manifest.

    The manifest records the selection, and a covered branch whose only vector was left out is
    listed under ``left_out`` instead of ``covered``: the folder holds no vector for it.
    """
    left_out: list[tuple[Vector, str]] = []
    if selection is not None:
        generated, left_out = select(generated, selection)
    folder.mkdir(parents=True, exist_ok=True)
    entries = _file(folder, generated.vectors)
    by_clause: dict[str, list[str]] = {}
    for vector in generated.vectors:
        for clause in vector.clauses:
            by_clause.setdefault(clause, []).append(vector.path)
    paths = {v.branch: v.path for v in generated.vectors}
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry["rulebook"]] = counts.get(entry["rulebook"], 0) + 1
    manifest = {
        "format": VECTORS_FORMAT,
        "protocol": PROTOCOL,
        "rulebooks": {
            name: {"vectors": counts.get(name, 0), "method": book.vectors_method,
                   "ruleset": book.rules_to_json(book.default_rules),
                   "branches": generated.coverage[name].manifest(paths) if generated.coverage.get(name) else None}
            for name, book in rulebooks.RULEBOOKS.items()
        },
        "vectors": entries,
        "clauses": {clause: paths for clause, paths in sorted(by_clause.items())},
        "selection": (selection or Selection()).to_json(),
        "left_out": {"vectors": len(left_out), "by_reason": _count(reason for _, reason in left_out)},
    }
    _mark_left_out(manifest, {vector.branch for vector, _ in left_out} - set(paths))
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


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


@dataclass
class VectorResult:
    path: str
    #: Every clause the vector exercises (its primary clause first).
    clauses: list[str]
    status: str  # pass | mismatch | fault
    detail: str = ""
    #: For a mismatch: the model's explain steps around the first divergence (``referee.at_fault``).
    explain: list[dict[str, Any]] = field(default_factory=list)
    #: The clauses this result fails (:func:`marked_clauses`; empty for a pass).
    failed_clauses: list[str] = field(default_factory=list)

    def fails(self, clause: str) -> bool:
        """Whether this result fails ``clause`` (a failure with no marks fails every clause it lists)."""
        if self.status == "pass":
            return False
        return clause in self.failed_clauses if self.failed_clauses else True


#: Mismatches explained step by step (each costs one explained model run); the rest name their divergence only.
EXPLAINED = 50


def _at_fault(scenario: dict[str, Any], divergence: Any) -> list[dict[str, Any]]:
    from .at_fault import steps_at_fault

    try:
        return steps_at_fault({k: v for k, v in scenario.items() if k != "id"}, divergence)
    except Exception:  # a courtesy: never lose the result for it
        return []


def exercised_at(scenario: dict[str, Any], divergence: Any) -> list[str] | None:
    """The clauses of the model's calls that made the diverging event (:func:`referee.trail.window`), in
    trail order; None when the divergence cannot be placed in the trail (a final-state field)."""
    from .trail import clauses_applied, window

    if divergence.where != "events" or divergence.event_index is None:
        return None
    try:
        trail = rulebooks.of_scenario(scenario).observe(scenario)[2]
    except Exception:  # never lose the result for it: then every clause is marked
        return None
    return clauses_applied(window(trail, divergence.event_index))


def marked_clauses(entry: dict[str, Any], exercised: list[str] | None) -> list[str]:
    """The clauses a failing vector fails: its primary clause, and those of its clauses the model applied in
    making the diverging event (``exercised``, in trail order); all of its clauses when the divergence cannot
    be placed (``None``: a final-state divergence, an engine fault)."""
    listed = list(entry["clauses"]) or ["(none)"]  # a vector with no clause is reported under "(none)"
    if exercised is None:
        return listed
    primary = entry.get("primary") or (listed[0] if listed else None)
    return list(dict.fromkeys([*([primary] if primary else []), *(c for c in exercised if c in listed)]))


@dataclass(frozen=True)
class Selection:
    """Which vectors a run takes: by action kind and by feature (None: no restriction)."""

    kinds: frozenset[str] | None = None
    features: frozenset[str] | None = None

    def reason_to_skip(self, scenario: dict[str, Any]) -> str | None:
        """Why a vector is outside the selection (None: it is in)."""
        kinds = {a.get("kind") for a in scenario.get("actions", []) if isinstance(a, dict)}
        if self.kinds is not None and not kinds <= self.kinds:
            return "kind " + ", ".join(sorted(kinds - self.kinds)) + " not selected"
        if self.features is not None:
            used = rulebooks.of_scenario(scenario).features_used(scenario) - self.features
            if used:
                return "uses " + ", ".join(sorted(used))
        return None

    def to_json(self) -> dict[str, Any]:
        return {"kinds": None if self.kinds is None else sorted(self.kinds),
                "features": None if self.features is None else sorted(self.features)}


def run_vectors(folder: Path, engine: Any, comparison: Any, selection: Selection | None = None,
                skipped: list[tuple[str, str]] | None = None) -> list[VectorResult]:
    """Replay the selected vectors of an exported folder through an engine; one result per vector run.

    Each vector left out is appended to ``skipped`` as ``(path, reason)``. A mismatch is marked on the
    clauses :func:`marked_clauses` names (its primary clause and those the model applied in making the
    diverging event); it counts as run, not failed, on its other clauses. A fault is marked on every clause.
    """
    loaded = _selected_vectors(folder, selection or Selection(), skipped)
    results: list[VectorResult] = []
    failed: list[str] = []
    size = max(1, getattr(engine, "batch_size", 1))
    for start in range(0, len(loaded), size):
        chunk = loaded[start : start + size]
        answers = engine.run_batch([scenario for _, scenario, _ in chunk])
        for (entry, scenario, expected), answer in zip(chunk, answers):
            results.append(_judge_vector(entry, scenario, expected, answer, comparison, failed))
    return results


def _selected_vectors(folder: Path, selection: Selection, skipped: list[tuple[str, str]] | None) -> list[tuple]:
    """(entry, scenario with its id, expected) of every vector in the selection; the others into ``skipped``."""
    from .vector_files import read_vectors

    loaded = []
    for i, (entry, scenario, expected) in enumerate(read_vectors(folder, VECTORS_FORMAT)):
        reason = selection.reason_to_skip(scenario)
        if reason is not None:
            if skipped is not None:
                skipped.append((entry["path"], reason))
            continue
        loaded.append((entry, {**scenario, "id": f"v{i}"}, expected))
    return loaded


def _judge_vector(entry: dict[str, Any], scenario: dict[str, Any], expected: Any, answer: Any, comparison: Any,
                  failed: list[str]) -> VectorResult:
    """One vector's result: a fault, a mismatch (the first ones explained at fault; marked on its clauses) or a pass."""
    observed = check_answer(answer, scenario, fields_needed=comparison.unit_fields,
                            events_needed=comparison.compares_events, event_fields=comparison.event_fields)
    if isinstance(observed, EngineFault):
        return VectorResult(entry["path"], entry["clauses"], "fault", observed.describe(),
                            failed_clauses=marked_clauses(entry, None))
    rulebook = rulebook_of(scenario)
    divergences = compare(decode_observation(expected, rulebook=rulebook), observed, comparison, rulebook)
    if not divergences:
        return VectorResult(entry["path"], entry["clauses"], "pass")
    steps = _at_fault(scenario, divergences[0]) if len(failed) < EXPLAINED else []
    failed.append(entry["path"])
    return VectorResult(entry["path"], entry["clauses"], "mismatch", divergences[0].describe(),
                        steps, marked_clauses(entry, exercised_at(scenario, divergences[0])))


def write_receipt(path: Path, engine: str, selection: Selection, results: list[VectorResult],
                  skipped: list[tuple[str, str]]) -> None:
    """The record of a run: the selection, every vector run with its result, every vector skipped and why."""
    receipt = {
        "format": "referee-vectors-receipt/1",
        "engine": engine,
        "selection": selection.to_json(),
        "ran": len(results),
        "passed": sum(r.status == "pass" for r in results),
        "results": [{"path": r.path, "status": r.status, "clauses": r.clauses, "failed_clauses": r.failed_clauses,
                     "detail": r.detail} for r in results],
        "skipped": [{"path": p, "reason": reason} for p, reason in skipped],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(receipt, indent=1) + "\n")
