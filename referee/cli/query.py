"""``referee query``: ask Z3 for a scenario where a condition holds, replayed through the model."""

from __future__ import annotations

import json
import math
from typing import Any, Optional

import typer
from rich.console import Console

EXIT = {"found": 0, "impossible": 1, "unknown": 3, "encoding-defect": 4}
#: Not verdicts: a bad query (usage) and a defect of referee itself (the model or the search raised).
EXIT_USAGE = 2
EXIT_INTERNAL = 4
#: The action kinds ``--action`` takes, as ``--help`` lists them: exactly ``referee.query.space.KIND_SLOTS`` and the
#: play rulebook's ``play_card`` and ``activate`` (tests/test_query_cli.py holds them equal; importing the query
#: package here would slow every verb's start).
ACTION_NAMES = ("damage", "hit", "cost", "armor_debuff", "bloodletting", "ability", "recover", "cull", "tick",
                "advance", "end_combat", "play_card", "activate")


def compact_scenario(scenario: dict) -> dict:
    """The scenario with unit fields and ruleset options at their defaults left out (it still decodes)."""
    from dataclasses import fields

    if scenario.get("rulebook") == "play":
        return scenario  # a play state is small: shown whole

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

    known = [*get("combat").rule_options(), *get("play").rule_options()]
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
    if answer.by_reading:
        print_reading_table(console, answer.by_reading)
    if answer.scenario is not None:
        console.print(f"cell: {answer.cell}{answer.space[answer.space.rfind(';'):]}", highlight=False, markup=False)
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


def print_reading_table(console: Console, table: dict) -> None:
    """``--by-reading``'s partition: each possible region with the cell of its witness (``--json``: the scenarios)."""
    from rich.table import Table

    if not table["possible"]:
        return
    rows = Table("possible under", "witness (--json prints each scenario)", title="readings the condition is possible under")
    for region in table["possible"]:
        words = ", ".join(f"{o}={r}" for o, r in sorted(region["readings"].items())) or "every reading"
        rows.add_row(words, region["cell"])
    console.print(rows)


def json_usage_command() -> type:
    """The command class of ``referee query``: with ``--json``, a usage error of the command line is JSON too."""
    from typer.core import TyperCommand

    class QueryCommand(TyperCommand):
        def parse_args(self, ctx, args: list[str]) -> list[str]:
            wants_json = "--json" in args
            try:
                return super().parse_args(ctx, args)
            except Exception as error:  # typer's own click UsageError (vendored: matched by what it carries)
                if wants_json and getattr(error, "exit_code", None) == EXIT_USAGE and hasattr(error, "format_message"):
                    print(json.dumps({"status": "error", "condition": None, "detail": error.format_message(),
                                      "exit": EXIT_USAGE}))
                raise

    return QueryCommand


def limits_problem(rlimit: int, budget: float) -> None:
    """``--rlimit`` and ``--budget`` that bound nothing (0, negative, NaN, infinite) are a bad query (a ValueError)."""
    if rlimit < 1:
        raise ValueError(f"--rlimit {rlimit}: expected a whole number >= 1 (Z3's resource limit per question)")
    if not (math.isfinite(budget) and budget > 0):
        raise ValueError(f"--budget {budget}: expected a number of seconds > 0 (the query's wall-clock budget)")


_CONDITION_HELP = 'a condition, e.g. "target.shield > 0 and outcome.died" (names, fields and functions: docs/query.md)'
_ACTION_HELP = (f"an action, in order (repeatable): {', '.join(ACTION_NAMES)}, with slots as KIND:slot=unit,... (e.g. 'cost:payer=source,cost_kind=interest', "
                "'ability:caster=source,targets=target,lines=damage({power})@hit/burn>enemies'; docs/query.md) [default: hit]")
_KIND_HELP = "the damage kind of damage/hit actions: hit, burn, venom, tremor, aoe, reflect, overtime"
_UNITS_HELP = ("the largest board searched (2-5: target, source, receiver, interceptor, ally; an ability, recover, cull "
               "or tick: target, source, ally, receiver, interceptor)")
_RULESET_HELP = ("fix a ruleset option name=value (repeatable), or 'defaults' for every option at its default; the "
                 "others range over every reading")
_FEATURES_HELP = "only these features in the space, comma-separated (the others fixed off; see referee features)"
_WITHOUT_HELP = "features left out of the space: their unit fields fixed at their off value, comma-separated"
_SPLIT_HELP = "with two equal damage/hit actions: also run `single`, one action from the same board"


_WHOLE_DOMAIN_HELP = ("search every encoded value, illegal states included (a robustness question; by default only "
                      "legal states, referee.model.combat.legal, so every witness is a state a game can reach)")
_BY_READING_HELP = ("answer under which ruleset readings the condition is possible: the possible readings with a "
                    "witness each, every other reading proved impossible (exit 0 when some reading is possible)")


def query(
    condition: str = typer.Argument(..., help=_CONDITION_HELP),
    action: Optional[list[str]] = typer.Option(None, "--action", help=_ACTION_HELP),
    kind: str = typer.Option("hit", "--kind", help=_KIND_HELP),
    units: int = typer.Option(4, "--units", help=_UNITS_HELP),
    source: str = typer.Option("enemy,ally,self,none", "--source", help="how the source may stand to the recipient (comma list)"),
    ruleset: Optional[list[str]] = typer.Option(None, "--ruleset", help=_RULESET_HELP),
    features: Optional[str] = typer.Option(None, "--features", help=_FEATURES_HELP),
    without: Optional[str] = typer.Option(None, "--without", help=_WITHOUT_HELP),
    whole_domain: bool = typer.Option(False, "--whole-domain", help=_WHOLE_DOMAIN_HELP),
    split: bool = typer.Option(False, "--compare-split", help=_SPLIT_HELP),
    minimize: Optional[str] = typer.Option(None, "--minimize", help="the least value of an Int expression where the condition holds"),
    maximize: Optional[str] = typer.Option(None, "--maximize", help="the greatest value of an Int expression where the condition holds"),
    engine: Optional[str] = typer.Option(None, "--engine", help="replay the witness through this engine command too (split with shlex, no shell)"),
    python: Optional[str] = typer.Option(None, "--python", help="replay the witness through this in-process engine, package.module:function"),
    timeout: float = typer.Option(5.0, "--timeout", help="engine timeout per scenario, seconds"),
    rlimit: int = typer.Option(50_000_000, "--rlimit", help="Z3 resource limit per question"),
    budget: float = typer.Option(300.0, "--budget", help="wall-clock budget for the whole query, seconds (then: unknown)"),
    by_reading: bool = typer.Option(False, "--by-reading", help=_BY_READING_HELP),
    as_json: bool = typer.Option(False, "--json", help="print the answer as one JSON object"),
) -> None:
    """Find a legal scenario where CONDITION holds, or prove none exists over the stated space.

    Exit status: 0 found, 1 impossible, 3 unknown, 5 the engine disagrees with the witness; not verdicts:
    2 bad query, 4 a defect of referee (an encoding defect, or an internal error: the message says which).
    """
    try:  # the options: a ValueError here is the user's (a QueryError is one too)
        fixed, off = _checked_options(minimize, maximize, *declared_profile(ruleset, features, without, engine or python),
                                      rlimit, budget, timeout if engine or python else None)
    except ValueError as error:
        fail(condition, as_json, "error", str(error), EXIT_USAGE)
    answer = _search(condition, as_json, kind=kind, actions=tuple(action or ("hit",)), units=units, ruleset=fixed,
                     split=split, relations=tuple(r.strip() for r in source.split(",") if r.strip()), rlimit=rlimit,
                     budget=budget, minimize=minimize, maximize=maximize, without=off, whole_domain=whole_domain,
                     by_reading=by_reading)
    if (engine or python) and answer.scenario is not None:
        answer.engine = replay_witness(condition, answer, engine, python, timeout, as_json)
    show_answer(Console(), condition, answer, as_json)
    raise typer.Exit(5 if EXIT[answer.status] == 0 and answer.engine and not answer.engine["agrees"] else EXIT[answer.status])


def declared_profile(ruleset: list[str] | None, features: str | None, without: str | None,
                     replayed: Any = None) -> tuple[list[str] | None, str | None, str | None]:
    """A question whose witness an engine replays (``replayed``) is asked under the engine's declaration
    (``referee.toml``), where the command line does not say otherwise: its readings (the declared ones, every other
    at its default, as ``check`` runs it) and its features. No engine, or no file: every reading, as before. A
    ConfigError names a bad file."""
    from referee.check.config import load_config
    from referee.check.options import QUERY

    if not replayed:
        return ruleset, features, without
    config = load_config(verb=QUERY)
    if config.source is None:
        return ruleset, features, without
    readings = ruleset or ["defaults", *(config.ruleset_pairs(None) or [])]
    return readings, _declared_words(config, "features", features), _declared_words(config, "without", without)


def _declared_words(config: Any, key: str, given: str | None) -> str | None:
    """A words option as ``a,b``: the command line's, else the declaration's (None: neither)."""
    words = config.words(key, given)
    return None if words is None else ",".join(words)


def _checked_options(minimize: str | None, maximize: str | None, ruleset: list[str] | None, features: str | None,
                     without: str | None, rlimit: int, budget: float, timeout: float | None) -> tuple[Any, Any]:
    """The fixed readings and the features left out; a ValueError for a bad option (``timeout``: None without an
    engine to replay the witness on; refused before the solver runs, not after)."""
    from referee.query import QueryError

    if minimize is not None and maximize is not None:
        raise QueryError("give at most one of --minimize and --maximize")
    fixed, off = parse_fixed_ruleset(ruleset), features_off(features, without)
    limits_problem(rlimit, budget)
    if timeout is not None:
        from referee.engines.transports import check_timeout

        check_timeout(timeout)
    return fixed, off


def _search(condition: str, as_json: bool, **space: Any):
    """The search: only a QueryError is the user's (exit 2); anything else is a defect of referee (exit 4)."""
    from referee.query import QueryError, run_query

    try:
        return run_query(condition, **space)
    except QueryError as error:
        fail(condition, as_json, "error", str(error), EXIT_USAGE)
    except Exception as error:  # noqa: BLE001 - no traceback is an answer: a defect of referee, said as one
        fail(condition, as_json, "internal-error", internal_message(error), EXIT_INTERNAL)
    raise AssertionError("unreachable: fail() exits")


def register(app: typer.Typer) -> None:
    app.command("query", cls=json_usage_command())(query)


def replay_witness(condition: str, answer, engine: Optional[str], python: Optional[str], timeout: float,
                   as_json: bool) -> dict:
    """The witness through the engine: a bad engine choice is a usage error, a failure of referee an internal one."""
    from referee.engines.transports import EngineStartError, make_engine
    from referee.query.replay import replay_on_engine

    try:
        with make_engine(python, engine, timeout, 1) as chosen:
            return replay_on_engine(answer, chosen)
    except (ValueError, EngineStartError) as error:
        fail(condition, as_json, "error", str(error), EXIT_USAGE)
    except Exception as error:  # noqa: BLE001 - no traceback is an answer
        fail(condition, as_json, "internal-error", internal_message(error), EXIT_INTERNAL)
    raise AssertionError("unreachable: fail() exits")


def show_answer(console: Console, condition: str, answer, as_json: bool) -> None:
    """The answer as one JSON object or as text; a failure to show it is an internal error, said as one."""
    try:
        if as_json:
            print(json.dumps(answer.to_json(), indent=2))
        else:
            print_answer(console, answer)
    except Exception as error:  # noqa: BLE001 - no traceback is an answer
        fail(condition, as_json, "internal-error", internal_message(error), EXIT_INTERNAL)


def internal_message(error: Exception) -> str:
    """What an internal error says: which exception, where in referee, and that it is no verdict."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/referee/" in f.filename.replace("\\", "/")
              or "/model/" in f.filename.replace("\\", "/")]
    where = f" (in {frames[-1].name}, {frames[-1].filename.rsplit('/', 2)[-2]}/{frames[-1].filename.rsplit('/', 1)[-1]}:" \
            f"{frames[-1].lineno})" if frames else ""
    return (f"the query could not be answered: referee raised {type(error).__name__}: {error}{where}. This is a defect "
            "of referee, not an answer about the rules (no verdict); please report it with the command")


def fail(condition: str, as_json: bool, status: str, detail: str, code: int) -> None:
    """Say why there is no verdict (on stderr, and as one JSON object with ``--json``) and exit ``code``."""
    from rich.markup import escape

    if as_json:
        print(json.dumps({"status": status, "condition": condition, "detail": detail, "exit": code}))
    label = "error" if status == "error" else "internal error"
    Console(stderr=True).print(f"[bold red]{label}:[/] {escape(detail)}", highlight=False)
    raise typer.Exit(code)
