"""``docs/generated/exhaust.md``: the exhaustive tiers' scopes (from the families) and counts (from the snapshots).

The scopes are read off the families themselves, so the page cannot describe a scope the code does not
enumerate; the counts are the published snapshots ``specs/exhaust/<tier>.json`` that ``tests/test_exhaust.py``
holds against a fresh count (the tiny tier in the default run, every tier behind ``--runslow``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..vectors.exhaust import TIERS, families

SNAPSHOT_DIR = Path(__file__).resolve().parent.parent.parent / "specs" / "exhaust"


def load_snapshot(tier: str) -> dict[str, Any] | None:
    """A tier's published counts, or None when it was not written."""
    path = SNAPSHOT_DIR / f"{tier}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def render_page(header: str) -> str:
    """The page: how to use a tier, each tier's families and value sets, the counts tables."""
    snapshots = {tier: load_snapshot(tier) for tier in TIERS}
    lines = [header, "# Exhaustive tiers: the scopes and the published counts", "", *_usage(), ""]
    lines += _totals(snapshots) + [""] + _scopes(snapshots) + [""]
    lines += _table("Scenarios per outcome category (an event name: the scenarios in which it occurs)",
                    snapshots, "categories") + [""]
    lines += _table("Scenarios per clause exercised (the model's trail)", snapshots, "clauses")
    return "\n".join(lines) + "\n"


def _usage() -> list[str]:
    return [
        "`referee exhaust --tier T` enumerates every scenario of tier `T` in a canonical order with no randomness,",
        "one per symmetry class (renamed units, mirrored sides, cells that keep each side's reading order), and",
        "prints the counts below; `--divide` splits them by first action, as perft's divide splits by first move;",
        "`--python` / `--engine` runs the tier through an engine (exit 1 on a divergence, as `check`);",
        "`--export DIR` writes it as conformance vectors with its receipt. The families live in",
        "`referee/rulebooks/<rulebook>/exhaust.py`; each larger tier takes more values of the same sets.",
        "A change to the model that changes a count fails `tests/test_exhaust.py` until the snapshot",
        "(`specs/exhaust/<tier>.json`, written by `referee exhaust --tier T --clauses --json`) is regenerated.",
    ]


def _totals(snapshots: dict[str, Any]) -> list[str]:
    rows = ["## The tiers", "", "| tier | candidates | equal up to symmetry | scenarios | distinct final outcomes |",
            "|---|---:|---:|---:|---:|"]
    for tier, snap in snapshots.items():
        if snap:
            rows.append(f"| `{tier}` | {snap['candidates']:,} | {snap['symmetric_duplicates']:,} | "
                        f"{snap['scenarios']:,} | {snap['distinct_outcomes']:,} |")
    return rows


def _scopes(snapshots: dict[str, Any]) -> list[str]:
    rows = ["## The families and their value sets", "",
            "| family | rulebook | axes (value set: values in `tiny` / added in `small` / added in `standard`) | "
            + " | ".join(f"`{t}`" for t in TIERS) + " |", "|---|---|---|" + "---:|" * len(TIERS)]
    by_tier = {tier: {f.name: f for f in families(tier)} for tier in TIERS}
    for name, family in by_tier["tiny"].items():
        axes = "; ".join(_axis_text(name, i, by_tier) for i in range(len(by_tier["standard"][name].axes)))
        counts = " | ".join(_scenarios_of(snapshots[t], name) for t in TIERS)
        rows.append(f"| `{name}` | {family.rulebook} | {_cell(axes)} | {counts} |")
    return rows


def _axis_text(name: str, index: int, by_tier: dict[str, dict[str, Any]]) -> str:
    """One axis: its set's name and, for a set that does not depend on the other axes, its values per tier."""
    axis = by_tier["standard"][name].axes[index]
    try:
        values = [by_tier[t][name].axes[index].choose({}) for t in TIERS]
    except (KeyError, TypeError):
        return f"{axis.name} ({axis.set_name})"
    shown, seen = [], []
    for tier_values in values:
        added = [v for v in tier_values if v not in seen]
        seen += added
        shown.append(", ".join(map(_value, added)) or "-")
    return f"{axis.name} ({axis.set_name}): " + " / ".join(shown)


def _value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _scenarios_of(snapshot: dict[str, Any] | None, family: str) -> str:
    entry = (snapshot or {}).get("families", {}).get(family)
    return f"{entry['scenarios']:,}" if entry else "-"


def _table(title: str, snapshots: dict[str, Any], key: str) -> list[str]:
    names = sorted({n for snap in snapshots.values() if snap for n in snap.get(key, {})})
    rows = [f"## {title}", "", "| | " + " | ".join(f"`{t}`" for t in TIERS) + " |", "|---|" + "---:|" * len(TIERS)]
    for n in names:
        rows.append(f"| `{n}` | " + " | ".join(f"{(snapshots[t] or {}).get(key, {}).get(n, 0):,}" for t in TIERS) + " |")
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
