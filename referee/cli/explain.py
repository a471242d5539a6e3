"""``referee explain``: resolve a scenario step by step, citing each clause as it applies (400.8).

The steps come from the library :mod:`referee.explain` (``explain_actions``,
``explain_steps``), read off the model's own run. This module only prints them: as text
for people (the default), or with ``--json`` as data, the same steps (``step``, ``clause``,
``text``, ``quantities``) per action, with the model's events and the fields that changed.

The file may be a protocol scenario (combat or play), a replay file written by
``referee check``, a conformance vector (``{"scenario": ..., "expected": ...}``), or a
short form: ``{"board": [...], "damage": {"target": "a", "amount": 87, "source": "e"}}``
or ``{"board": [...], "ability": {"caster": ..., "targets": [...], "numbers": {...}, "lines": [...]}}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from referee.model.events import Event

from ..explain import ExplainedAction, ExplainError, explain_actions, load_explainable, unwrap
from ..explain.render import describe_event, render_json, render_text  # noqa: F401 - the verb's output

def file_kind(data: dict[str, Any]) -> str:
    _, expected = unwrap(data)
    if expected is not None:
        return "vector"
    return "short form" if ("damage" in data or "ability" in data) and "actions" not in data else "scenario"


def register(app: typer.Typer) -> None:
    @app.command("explain")
    def explain_command(
        scenario: Path = typer.Argument(..., help="a scenario, replay or vector JSON file (or a {board, damage} / {board, ability} short form)"),
        as_json: bool = typer.Option(False, "--json", help="print the steps as data (step, clause, quantities)"),
    ) -> None:
        """Resolve a scenario step by step, citing each clause as it applies (the method of 400.8)."""
        try:
            data = load_explainable(scenario)
            actions = explain_actions(data)
        except (ExplainError, ValueError, KeyError) as error:  # a scenario the model refuses (a Riposte roll missing, ...)
            message = str(error).strip("'\"")
            typer.echo(f"referee explain: {scenario}: {message}" if str(scenario) not in message
                       else f"referee explain: {message}", err=True)
            raise typer.Exit(2) from None
        kind = file_kind(data)
        if as_json:
            typer.echo(render_json(actions, kind))
        else:
            header = "a conformance vector: its scenario, as the model resolves it" if kind == "vector" else ""
            typer.echo("\n".join(render_text(actions, header)))
