"""``referee query``: ask Z3 for a scenario where a condition holds, replayed through the model."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.console import Console

EXIT = {"found": 0, "impossible": 1, "unknown": 3, "encoding-defect": 4}


def compact_scenario(scenario: dict) -> dict:
    """The scenario with unit fields and ruleset options at their defaults left out (it still decodes)."""
    from dataclasses import fields

    from referee.model.combat.ruleset import DEFAULT
    from referee.model.combat.state import Unit

    defaults = {f.name: f.default for f in fields(Unit)}
    board = [{k: v for k, v in unit.items() if k in ("uid", "side") or defaults.get(k) != v} for unit in scenario["board"]]
    ruleset = {k: v for k, v in scenario["ruleset"].items() if DEFAULT.to_json().get(k) != v}
    return {**scenario, "ruleset": ruleset, "board": board}


def register(app: typer.Typer) -> None:
    @app.command("query")
    def query(
        condition: str = typer.Argument(
            ...,
            help='a condition over target, after, source, source_after, amount, outcome and event("name"), '
            'e.g. "target.shield > 0 and outcome.died"',
        ),
        kind: str = typer.Option("hit", "--kind", help="the damage kind: hit, burn, venom, tremor, aoe, reflect, overtime"),
        action: str = typer.Option("damage", "--action", help="damage (500.1 alone) or hit (with retaliation)"),
        ruleset_words: Optional[list[str]] = typer.Option(
            None, "--ruleset", help="a ruleset option name=value, as for check (repeatable), e.g. negative_armor=reciprocal"
        ),
        rlimit: int = typer.Option(50_000_000, "--rlimit", help="Z3 resource limit per attempt"),
        as_json: bool = typer.Option(False, "--json", help="print the answer as one JSON object"),
    ) -> None:
        """Find a legal one-instance scenario where CONDITION holds, or answer impossible / unknown.

        Exit status: 0 found, 1 impossible, 3 unknown, 4 encoding defect, 2 bad query.
        """
        from referee.query import QueryError, run_query
        from referee.rulebooks import parse_rule_words

        console = Console()
        err = Console(stderr=True)
        try:
            ruleset = parse_rule_words(ruleset_words)["combat"]
            answer = run_query(condition, kind=kind, action=action, ruleset=ruleset, rlimit=rlimit)
        except (QueryError, ValueError) as error:
            err.print(f"[bold red]error:[/] {error}", highlight=False)
            raise typer.Exit(2)
        if as_json:
            print(json.dumps({"status": answer.status, "condition": answer.condition, "scenario": answer.scenario,
                              "observation": answer.observation, "detail": answer.detail}, indent=2))
        else:
            console.print(f"[bold]{answer.status}[/]: {answer.condition}", highlight=False)
            if answer.detail:
                console.print(answer.detail, highlight=False)
            if answer.scenario is not None:
                console.print("scenario (fields at their defaults left out; --json prints it whole):")
                print(json.dumps(compact_scenario(answer.scenario), indent=2))
                console.print("the model's events:")
                for event in answer.observation["events"]:
                    parts = [event["name"]] + [f"{k}={event[k]}" for k in ("unit", "amount", "other", "detail") if event[k] not in (None, 0)]
                    console.print("  " + " ".join(str(p) for p in parts), highlight=False)
        raise typer.Exit(EXIT[answer.status])
