"""``referee features``: the mechanics of each rulebook an engine may leave out (``--without``)."""

from __future__ import annotations

import json
from typing import Any

import typer


def feature_rows() -> list[dict[str, Any]]:
    """Every feature of every rulebook (a rulebook's always-on core first): its fields, lanes, events, clauses."""
    from ..rulebooks import RULEBOOKS

    rows = []
    for book in RULEBOOKS.values():
        core = getattr(book, "core_feature", None)
        for f in ([core] if core is not None else []) + list(book.features.values()):
            rows.append({"name": f.name, "rulebook": book.name, "always_on": f is core, "summary": f.summary,
                         "clauses": list(f.clauses), "fields": list(f.fields), "lanes": list(f.lanes),
                         "carried": f.carried, "events": list(getattr(f, "events", ()))})
    return rows


def feature_line(row: dict[str, Any]) -> str:
    """One feature in words: ``rulebook:name: summary (clauses; where a scenario carries it; events ...)``."""
    where = ", ".join([*row["fields"], *(f"lane {lane}" for lane in row["lanes"]), *filter(None, [row["carried"]])])
    parts = [", ".join(row["clauses"]), where or "no field or lane"]
    if row["events"]:
        parts.append("events " + ", ".join(row["events"]))
    name = f"{row['name']} (always on)" if row["always_on"] else row["name"]
    return f"{row['rulebook']}:{name}: {row['summary']} ({'; '.join(parts)})"


def register(app: typer.Typer) -> None:
    @app.command("features")
    def features_command(
        json_out: bool = typer.Option(False, "--json", help="print the features as JSON"),
    ) -> None:
        """List every feature: its rulebook, what it is, its clauses, its unit fields and lanes, its events."""
        rows = feature_rows()
        if json_out:
            typer.echo(json.dumps(rows, indent=1))
            return
        for row in rows:
            typer.echo(feature_line(row))
