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


def parse_fixed_ruleset(options: list[str] | None) -> dict[str, object]:
    """``--ruleset name=value`` pairs (the form of ``referee check --ruleset``) to the fixed options."""
    fixed: dict[str, object] = {}
    for item in options or []:
        if item.strip() == "defaults":  # every option at its default: one reading
            from referee.model.combat.ruleset import DEFAULT

            fixed.update(DEFAULT.to_json())
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            hint = " (one option per --ruleset, not JSON)" if item.lstrip().startswith("{") else ""
            raise ValueError(f"--ruleset {item!r}: expected name=value{hint}, e.g. --ruleset negative_armor=reciprocal")
        fixed[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    from referee.rulebooks import get

    known = get("combat").rule_options()
    for name in fixed:
        if name not in known:
            raise ValueError(f"unknown ruleset option {name!r} (known: {', '.join(known)})")
    return fixed


def features_off(features: str | None, without: str | None) -> frozenset[str]:
    """The combat features ``--features`` / ``--without`` leave out of the space (unknown names: an error)."""
    from referee.rulebooks import get, resolve_features

    words = lambda text: None if text is None else [w.strip() for w in text.split(",") if w.strip()]  # noqa: E731
    allowed = resolve_features(words(features), words(without))
    return frozenset() if allowed is None else frozenset(get("combat").features) - allowed


def print_answer(console: Console, answer) -> None:
    from rich.markup import escape

    console.print(f"[bold]{answer.status}[/]: {escape(answer.condition)}", highlight=False)
    if answer.status == "impossible" or answer.status == "unknown":
        console.print(f"space: {answer.space}", highlight=False, markup=False)
    if answer.detail:
        console.print(answer.detail, highlight=False, markup=False)
    if answer.objective:
        console.print(f"objective: {answer.objective['summary']}", highlight=False, markup=False)
    if answer.scenario is not None:
        console.print(f"cell: {answer.cell}", highlight=False, markup=False)
        for name, scenario in (answer.scenarios or {"main": answer.scenario}).items():
            console.print(f"scenario{'' if name == 'main' else ' ' + name} (fields at their defaults left out; "
                          "--json prints it whole):")
            print(json.dumps(compact_scenario(scenario), indent=2))
        console.print("the model's events:")
        for event in answer.observation["events"]:
            parts = [event["name"]] + [f"{k}={event[k]}" for k in ("unit", "amount", "other", "detail") if event[k] not in (None, 0)]
            console.print("  " + " ".join(str(p) for p in parts), highlight=False)
    if answer.engine:
        verdict = "agrees with the model" if answer.engine["agrees"] else "DISAGREES with the model"
        console.print(f"engine {answer.engine['engine']}: {verdict}", highlight=False)
        for line in answer.engine["divergences"][:20]:
            console.print(f"  {line}", highlight=False, markup=False)


_CONDITION_HELP = 'a condition, e.g. "target.shield > 0 and outcome.died" (names, fields and functions: docs/query.md)'
_ACTION_HELP = ("an action, in order (repeatable): damage, hit, cost, armor_debuff, bloodletting, ability, recover, "
                "cull, tick, with slots as KIND:slot=unit,... (e.g. 'cost:payer=source,cost_kind=interest', "
                "'ability:caster=source,targets=target,lines=damage({power})@hit/burn>enemies'; docs/query.md) [default: hit]")
_KIND_HELP = "the damage kind of damage/hit actions: hit, burn, venom, tremor, aoe, reflect, overtime"
_UNITS_HELP = ("the largest board searched (2-5: target, source, receiver, interceptor, ally; an ability, recover, cull "
               "or tick: target, source, ally, receiver, interceptor)")
_RULESET_HELP = ("fix a ruleset option name=value (repeatable), or 'defaults' for every option at its default; the "
                 "others range over every reading")
_FEATURES_HELP = "only these features in the space, comma-separated (the others fixed off; see referee features)"
_WITHOUT_HELP = "features left out of the space: their unit fields fixed at their off value, comma-separated"
_SPLIT_HELP = "with two equal damage/hit actions: also run `single`, one action from the same board"


def query(
    condition: str = typer.Argument(..., help=_CONDITION_HELP),
    action: Optional[list[str]] = typer.Option(None, "--action", help=_ACTION_HELP),
    kind: str = typer.Option("hit", "--kind", help=_KIND_HELP),
    units: int = typer.Option(4, "--units", help=_UNITS_HELP),
    source: str = typer.Option("enemy,ally,self,none", "--source", help="how the source may stand to the recipient (comma list)"),
    ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help=_RULESET_HELP),
    features: Optional[str] = typer.Option(None, "--features", help=_FEATURES_HELP),
    without: Optional[str] = typer.Option(None, "--without", help=_WITHOUT_HELP),
    split: bool = typer.Option(False, "--compare-split", help=_SPLIT_HELP),
    minimize: Optional[str] = typer.Option(None, "--minimize", help="the least value of an Int expression where the condition holds"),
    maximize: Optional[str] = typer.Option(None, "--maximize", help="the greatest value of an Int expression where the condition holds"),
    engine: Optional[str] = typer.Option(None, "--engine", help="replay the witness through this engine command too (split with shlex, no shell)"),
    python: Optional[str] = typer.Option(None, "--python", help="replay the witness through this in-process engine, package.module:function"),
    timeout: float = typer.Option(5.0, "--timeout", help="engine timeout per scenario, seconds"),
    rlimit: int = typer.Option(50_000_000, "--rlimit", help="Z3 resource limit per question"),
    budget: float = typer.Option(300.0, "--budget", help="wall-clock budget for the whole query, seconds (then: unknown)"),
    as_json: bool = typer.Option(False, "--json", help="print the answer as one JSON object"),
) -> None:
    """Find a legal scenario where CONDITION holds, or prove none exists over the stated space.

    Exit status: 0 found, 1 impossible, 3 unknown, 4 encoding defect, 2 bad query.
    """
    from referee.query import QueryError, run_query

    try:
        if minimize is not None and maximize is not None:
            raise QueryError("give at most one of --minimize and --maximize")
        answer = run_query(
            condition, kind=kind, actions=tuple(action or ("hit",)), units=units,
            ruleset=parse_fixed_ruleset(ruleset), split=split,
            relations=tuple(r.strip() for r in source.split(",") if r.strip()), rlimit=rlimit, budget=budget,
            minimize=minimize, maximize=maximize, without=features_off(features, without),
        )
        _replay_witness(answer, engine, python, timeout)
    except (QueryError, ValueError) as error:
        _bad_query(condition, error, as_json)
    _print_and_exit(answer, as_json)


def _replay_witness(answer, engine: str | None, python: str | None, timeout: float) -> None:
    """Run a found witness through the engine too (``--engine`` / ``--python``)."""
    if (engine or python) and answer.scenario is not None:
        from referee.engines import make_engine
        from referee.query.replay import replay_on_engine

        with make_engine(python, engine, timeout, 1) as chosen:
            answer.engine = replay_on_engine(answer, chosen)


def _bad_query(condition: str, error: Exception, as_json: bool) -> None:
    """A query that cannot be asked: said (as JSON too, with --json), exit 2."""
    from rich.markup import escape

    if as_json:
        print(json.dumps({"status": "error", "condition": condition, "detail": str(error)}))
    Console(stderr=True).print(f"[bold red]error:[/] {escape(str(error))}", highlight=False)
    raise typer.Exit(2)


def _print_and_exit(answer, as_json: bool) -> None:
    """The answer, then its exit status (5: found, but the engine disagrees with the model on the witness)."""
    if as_json:
        print(json.dumps(answer.to_json(), indent=2))
    else:
        print_answer(Console(), answer)
    code = EXIT[answer.status]
    if code == 0 and answer.engine and not answer.engine["agrees"]:
        code = 5
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("query")(query)
