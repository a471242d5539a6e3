"""From resolved settings (``referee.check.options``) to what a run needs: the engine, the comparison, the check's options.

``referee check``, ``referee vectors run`` and the pytest plugin all go through these functions, so an option
means the same thing whichever door it came in by.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .options import Settings, replay_command


@dataclass(frozen=True)
class EngineSpec:
    """The engine a run names, not yet made (``make`` starts nothing: ``start`` does)."""

    python: str | None
    engine: str | None
    timeout: float
    batch: int
    engine_budget: float
    in_process: bool = False
    paths: tuple[str, ...] = ()
    #: The engine's declared name (``name``): it keys the engine's stored failures instead of a digest.
    name: str | None = None

    def make(self):
        from ..engines.transports import identity_of, make_engine

        engine = make_engine(self.python, self.engine, self.timeout, self.batch, engine_budget=self.engine_budget,
                             in_process=self.in_process, paths=self.paths)
        if self.name:
            engine.identity = identity_of(engine, self.name)
        return engine


def engine_spec(settings: Settings, *, symbolic: bool = False) -> EngineSpec:
    """The engine of ``settings``; ``symbolic`` (a CrossHair backend) calls it in this process."""
    from ..engines.transports import DEFAULT_ENGINE_BUDGET

    values = settings.values
    return EngineSpec(values.get("python"), values.get("engine"), float(values["timeout"]), values["batch"],
                      values.get("engine_budget", DEFAULT_ENGINE_BUDGET),
                      bool(values.get("in_process")) or symbolic, tuple(values.get("path") or ()), values.get("name"))


def comparison(settings: Settings):
    """What is compared (``compare``, ``fields``, ``events``, ``event_fields``, ``event_order``)."""
    from .compare import Comparison

    return Comparison.from_options(settings["compare"], settings.text("fields"), settings["events"],
                                   settings.text("event_fields"), settings["event_order"])


def selection(settings: Settings) -> tuple[tuple[str, ...] | None, frozenset[str] | None]:
    """The action kinds (None: the default kinds) and the features (None: all) a run draws or selects."""
    from ..rulebooks import resolve_features

    kinds = settings["kinds"]
    if kinds is not None and not kinds:
        raise ValueError(NO_KINDS)
    return (tuple(kinds) if kinds else None), resolve_features(settings["features"], settings["without"])


#: ``kinds = []``: the declaration of an engine that implements no action kind yet (what ``referee init`` writes).
NO_KINDS = ("kinds = []: the engine implements no action kind yet, so there is nothing to draw or run; "
            "`referee check` probes such an engine (it answers or refuses each kind); declare a kind to go further")


def readings(settings: Settings) -> dict:
    """The declared readings (``ruleset``) as every rulebook's rules object: what the model computes the
    expectation under (``check``, ``vectors export``, ``vectors run``, ``exhaust``)."""
    from ..rulebooks import parse_rule_words

    return parse_rule_words(settings.values.get("ruleset"))


def known_entries(settings: Settings, folder: Path) -> list:
    """The known divergences: ``--known FILE``, else ``referee-known.toml`` in ``folder``, else the file's."""
    from .grouping.groups import load_known, parse_known

    value, source = settings.values.get("known"), settings.sources.get("known")
    if source == "flag":
        return load_known(Path(value))
    if (folder / "referee-known.toml").is_file():
        return load_known(folder / "referee-known.toml")
    if value is not None:
        return parse_known(value, f"{settings.config_source}")
    return []


def state_locations(database: str | None, state_dir: str) -> tuple[str, str | None]:
    """The example database and the state folder for failures. ``--database`` defaults to
    ``STATE_DIR/examples``; ``--state-dir ''``, or ``--database ''`` with the default state dir,
    writes nothing into the current directory (failing scenarios go to the temporary folder)."""
    if database is None:
        database = str(Path(state_dir) / "examples") if state_dir else ""
    if not state_dir or (database == "" and state_dir == ".referee"):
        return database, None
    return database, state_dir


def check_options(settings: Settings, folder: Path, command: str | None = None):
    """The ``CheckOptions`` of ``settings`` (a ValueError for a bad value: a usage error)."""
    from .harness import CheckOptions
    from ..rulebooks import parse_rule_words

    known = known_entries(settings, folder)
    if known and not settings["keep_going"]:  # known divergences need the run that goes on (and its replay, too)
        settings = Settings(settings.verb, {**settings.values, "keep_going": True}, settings.sources,
                            settings.config_source)
    values = settings.values
    kinds, features = selection(settings)
    database, kept_state = state_locations(values.get("database"), values.get("state_dir", ".referee"))
    return CheckOptions(
        examples=values["examples"], seed=values["seed"], kinds=kinds, max_actions=values["max_actions"],
        comparison=comparison(settings), rules=parse_rule_words(values["ruleset"]), database=database or None,
        backend=values.get("backend", "hypothesis"), generation=values["generation"],
        command=command or replay_command(settings), features=features, swarm=bool(values["swarm"]),
        # --require-coverage judges the clauses a run exercised, counted as --stats counts them
        stats=bool(values.get("stats")) or bool(values.get("require_coverage")), keep_going=bool(values["keep_going"]),
        max_divergences=values["max_divergences"], known=known, strict_known=bool(values["strict_known"]),
        state_dir=kept_state, battle=bool(values["battle"]), workers=values.get("workers", 1),
    )


def check_plan(settings: Settings, folder: Path) -> tuple[EngineSpec, Any]:
    """What a check of ``settings`` runs: its engine and its options (compared by the four-door test)."""
    symbolic = settings.values.get("backend", "hypothesis") != "hypothesis"
    return engine_spec(settings, symbolic=symbolic), check_options(settings, folder)
