"""``referee features``: the mechanics of each rulebook an engine may leave out (``--without``)."""

from __future__ import annotations

import json

import typer


def register(app: typer.Typer) -> None:
    @app.command("features")
    def features_command(
        json_out: bool = typer.Option(False, "--json", help="print the features as JSON"),
    ) -> None:
        """List every feature: its rulebook, what it is, its clauses, and where a scenario carries it."""
        from .rulebooks import RULEBOOKS

        rows = [
            {"name": name, "rulebook": book.name, "summary": f.summary, "clauses": list(f.clauses),
             "fields": list(f.fields), "lanes": list(f.lanes), "carried": f.carried}
            for book in RULEBOOKS.values() for name, f in book.features.items()
        ]
        if json_out:
            typer.echo(json.dumps(rows, indent=1))
            return
        for row in rows:
            where = ", ".join([*row["fields"], *(f"lane {lane}" for lane in row["lanes"]), *filter(None, [row["carried"]])])
            typer.echo(f"{row['rulebook']}:{row['name']}: {row['summary']} ({', '.join(row['clauses'])}; {where})")
