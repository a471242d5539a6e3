"""Under which readings a theorem fails: the regions of its counterexamples, each replayed.

When the proof over every reading finds a counterexample, the theorem may still hold under most readings.
This finds every reading (of the options its obligation reads) under which it fails, as a family-based
analysis reports the configurations that violate a property: a counterexample is found, its readings
become a region (each word option at its reading; an integer option at its default or above it), the region is
blocked, and the search goes on until no counterexample is left outside the blocked regions, which proves the
theorem under every other reading. Regions that differ in one option only and together take all its readings
are merged, so the answer reads as ``tick_share_rounding=remainder_to_first`` rather than as eight corners.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .core import Theorem, Verdict, encode_check, judge, solve
from .readings import INTEGER_OPTIONS, OPTIONS, READING_PREFIX, defaults, region_text

#: At most this many regions are searched for; past it the answer says the list may go on.
MOST_REGIONS = 16


@dataclass
class FailingRegions:
    """The regions a theorem fails under, each with its replayed counterexample; ``complete`` when every other
    reading was proved (the last search was ``unsat``)."""

    regions: list[tuple[tuple[tuple[str, str, Any], ...], dict[str, Any]]]
    complete: bool

    def text(self) -> str:
        if any(not region for region, _ in self.regions):
            return "fails under every reading"
        named = "; ".join(region_text(r) for r, _ in self.regions)
        return f"fails under {named}" + ("" if self.complete else " (and possibly more readings: not all searched)")


def failing_regions(thm: Theorem, first: Verdict, limit: int, pinned: dict[str, Any] | None = None) -> FailingRegions:
    """Every region of readings the theorem fails under, starting from the proof's counterexample ``first``."""
    reads = [o for o in first.extra.get("reads", []) if o not in (pinned or {})]
    found = [(region_of(first.counterexample or {}, reads), first.counterexample or {})]
    while len(found) < MOST_REGIONS:
        query = encode_check(thm, "proof", pinned=pinned, blocked=tuple(r for r, _ in found))
        verdict = judge(thm, "proof", None, solve(query, limit), limit, 0.0, pinned)
        if verdict.status != "counterexample":
            return FailingRegions(merged(found), complete=verdict.status == "proved")
        found.append((region_of(verdict.counterexample or {}, reads), verdict.counterexample or {}))
    return FailingRegions(merged(found), complete=False)


def region_of(values: dict[str, Any], reads: list[str]) -> tuple[tuple[str, str, Any], ...]:
    """The region of a counterexample's readings over the options read: a word option at its reading, an integer
    option at its default (``=``) or above it (``>=`` default + 1)."""
    atoms = []
    for name in sorted(reads):
        if name in INTEGER_OPTIONS:
            value = int(values.get(READING_PREFIX + name, defaults()[name]))
            default = defaults()[name]
            atoms.append((name, "=", default) if value == default else (name, ">=", default + 1))
        elif name in OPTIONS:
            raw = values.get(READING_PREFIX + name, False)
            atoms.append((name, "=", OPTIONS[name][int(raw)]))
    return tuple(atoms)


def merged(found: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Merge two regions that differ in one option only and together cover its readings, until none do."""
    regions = list(found)
    changed = True
    while changed:
        changed = False
        for i, (a, witness) in enumerate(regions):
            for j, (b, _) in enumerate(regions[i + 1:], start=i + 1):
                joined = _join(a, b)
                if joined is not None:
                    regions[i] = (joined, witness)
                    del regions[j]
                    changed = True
                    break
            if changed:
                break
    return regions


def _join(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """``a`` and ``b`` as one region, when they differ in exactly one option whose two sides cover it."""
    if [atom[0] for atom in a] != [atom[0] for atom in b]:
        return None
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(differ) != 1 or not _covers(a[differ[0]], b[differ[0]]):
        return None
    return tuple(atom for i, atom in enumerate(a) if i != differ[0])


def _covers(x: tuple[str, str, Any], y: tuple[str, str, Any]) -> bool:
    name = x[0]
    if name in INTEGER_OPTIONS:
        return {x[1], y[1]} == {"=", ">="}
    return len(OPTIONS[name]) == 2 and {x[2], y[2]} == set(OPTIONS[name])
