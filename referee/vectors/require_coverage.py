"""``referee check --require-coverage``: a run that never exercised a clause reachable under its profile fails.

Antithesis calls it ``sometimes``: a property that must hold in at least one run. Here: every clause that some
scenario inside the run's profile (its ``--kinds`` and ``--features``) can reach must be applied by the model in
at least one scenario of the run, or the run fails (exit 5) naming each clause it never exercised.

*Reachable* is shown by example, never guessed: a clause is reachable under a profile when a conformance vector
exported under that profile (``referee vectors export --kinds ... --features ...``, whose search stays inside
the profile) applies it, with no more actions than the run draws and the default readings. The set is computed
once per profile and model and kept in the state folder (``STATE_DIR/reachable/``). *Exercised*: the clauses
the model applied over the run's scenarios (counted as ``--stats`` counts them).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

#: ``referee check``'s exit code for a run that passed but left a reachable clause unexercised.
EXIT_NOT_COVERED = 5


def _digest(kinds: tuple[str, ...] | None, features: frozenset[str] | None, max_actions: int) -> str:
    """A key for the reachable set: the profile, and the model and vector search it was computed with."""
    import referee.model
    import referee.rulebooks

    hasher = hashlib.sha256(json.dumps([sorted(kinds or ()) if kinds else None,
                                        sorted(features) if features is not None else None, max_actions]).encode())
    for root in (*referee.model.__path__, *referee.rulebooks.__path__):
        for path in sorted(Path(root).rglob("*.py")):
            hasher.update(path.read_bytes())
    return hasher.hexdigest()[:32]


def reachable_clauses(kinds: tuple[str, ...] | None, features: frozenset[str] | None, max_actions: int,
                      state_dir: str | None = None) -> list[str]:
    """The clauses some vector of the profile applies (a scenario inside it, of at most ``max_actions`` actions,
    under the default readings); cached in ``state_dir/reachable/`` when a state folder is given."""
    return reachable(kinds, features, max_actions, state_dir)["clauses"]


def reachable(kinds: tuple[str, ...] | None, features: frozenset[str] | None, max_actions: int,
              state_dir: str | None = None) -> dict[str, list[str]]:
    """The clauses the profile's vectors apply and the event names they emit (``clauses``, ``events``); cached."""
    cache = Path(state_dir) / "reachable" / f"{_digest(kinds, features, max_actions)}.json" if state_dir else None
    if cache is not None and cache.is_file():
        try:
            found = json.loads(cache.read_text())
            return {"clauses": list(found["clauses"]), "events": list(found["events"])}
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache (or one from before the events were kept) is computed again
    found = _witnessed(kinds, features, max_actions)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(found) + "\n")
    return found


def _witnessed(kinds: tuple[str, ...] | None, features: frozenset[str] | None, max_actions: int) -> dict[str, list[str]]:
    """The clauses the profile's vectors apply and the events they emit (each vector a witness that they are
    reachable)."""
    from .. import rulebooks
    from .suite import Selection, generate, select

    profile = Selection(frozenset(kinds) if kinds else None, features)
    kept, _ = select(generate(profile=profile if profile != Selection() else None), profile)
    clauses: set[str] = set()
    events: set[str] = set()
    for vector in kept.vectors:
        book = rulebooks.of_scenario(vector.scenario)
        default = book.rules_to_json(book.default_rules)
        if len(vector.scenario["actions"]) <= max_actions and vector.scenario.get("ruleset", default) == default:
            clauses.update(vector.clauses)
            events.update(e["name"] for e in vector.expected.get("events", ()) if isinstance(e, dict))
    return {"clauses": sorted(clauses), "events": sorted(events)}


def unexercised(report: Any, kinds: tuple[str, ...] | None, features: frozenset[str] | None, max_actions: int,
                state_dir: str | None) -> list[str]:
    """The clauses reachable under the profile that no scenario of the run exercised (``report.stats``)."""
    exercised = set(report.stats.clauses) if report.stats is not None else set()
    return [c for c in reachable_clauses(kinds, features, max_actions, state_dir) if c not in exercised]


def describe(missing: list[str], scenarios: int) -> str:
    """The failure message of ``--require-coverage``."""
    return (f"referee check: --require-coverage: {len(missing)} clauses reachable under the profile were never "
            f"exercised in {scenarios} scenarios: {', '.join(missing)} (exit {EXIT_NOT_COVERED}; draw more "
            "scenarios, or aim them with --kinds/--features)")


def _register() -> None:
    """Hand ``--stats`` the search for what a selection can reach (``referee.check.stats.REACHABLE``)."""
    from ..check import stats

    stats.REACHABLE = reachable


_register()
