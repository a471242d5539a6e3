"""Coverage you can read: how many scenarios of a run exercised each feature, event and clause.

``referee check --stats`` counts, over the scenarios the generator drew, the features each
used (its rulebook's ``features_used``), the event names the model emitted and the clauses
the model applied (from its clause trail), and flags whatever stayed under a threshold: an
event name under 1% of the scenarios, a modeled clause under 0.5%.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.model.clauses import IMPLEMENTATIONS, load_all_model_modules

from .. import rulebooks
from ..protocol import rulebook_of

#: Below these shares of the scenarios, an event name or a clause is reported as rarely exercised.
EVENT_THRESHOLD = 0.01
CLAUSE_THRESHOLD = 0.005
#: Noted runs kept for their count at most (a scenario whose note was let go is run again when counted).
NOTED_AT_MOST = 4096


#: How the clauses and events a selection can reach are found: ``referee.vectors.require_coverage.reachable``
#: (the vectors exported under the selection), registered by that module when a verb or the plugin imports it.
#: The vectors sit above this package (they import the check's comparison), so the check is handed the search.
REACHABLE: Callable[..., dict[str, list[str]]] | None = None


@dataclass
class Stats:
    """Counts of scenarios per feature, per event name and per clause."""

    scenarios: int = 0
    features: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    clauses: Counter = field(default_factory=Counter)
    rulebooks: set[str] = field(default_factory=set)
    #: The run's selection where it narrows the rulebook's (``--kinds``, ``--features``): (kinds, features,
    #: max_actions, state folder). The warnings then name only what it can reach (:meth:`_reachable`).
    selection: tuple[Any, ...] | None = field(default=None, compare=False)
    _reach: dict[str, list[str]] | None = field(default=None, repr=False, compare=False)
    #: id(scenario) -> (the scenario, its clauses, its event names): the runs :meth:`run` made, not yet counted.
    _noted: dict[int, tuple[Any, set[str], set[str]]] = field(default_factory=dict, repr=False, compare=False)

    def run(self, book: Any, decoded: Any, scenario: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
        """The model's run of a scenario that :meth:`observe` will count (the harness's expectation): its clauses
        and event names are kept for that count, so the model runs once a scenario (``referee.check.clause_tracer``)."""
        from .clause_tracer import clauses_applied_in

        clauses: set[str] = set()
        with clauses_applied_in(clauses):
            state, events = book.run(decoded)
        if len(self._noted) >= NOTED_AT_MOST:  # runs never counted (a batch cut short by a failure): let them go
            self._noted.clear()
        self._noted[id(scenario)] = (scenario, clauses, {e.name for e in events})
        return state, events

    def observe(self, scenario: dict[str, Any]) -> None:
        """Count one scenario: its noted run (:meth:`run`), or a run of it through the model noting the clauses."""
        scenario_, clauses, events = self._noted.pop(id(scenario), (None, None, None))
        if scenario_ is not scenario:
            clauses, events = self._applied(scenario)
        book = rulebooks.get(rulebook_of(scenario))
        self.scenarios += 1
        self.rulebooks.add(book.name)
        self.features.update(book.features_used(scenario))
        self.events.update(events)
        self.clauses.update(clauses)

    def _applied(self, scenario: dict[str, Any]) -> tuple[set[str], set[str]]:
        """The clauses and the event names of a model run of ``scenario`` (only with ``--stats``)."""
        from .clause_tracer import clauses_applied_in
        from ..protocol import decode_scenario

        book = rulebooks.get(rulebook_of(scenario))
        decoded, clauses = decode_scenario(scenario), set()
        with clauses_applied_in(clauses):  # the set only, not the trail: ``referee.check.clause_tracer``
            _, events = book.run(decoded)
        return clauses, {e.name for e in events}

    def _share(self, count: int) -> float:
        return count / self.scenarios if self.scenarios else 0.0

    def _reachable(self, what: str) -> set[str] | None:
        """The clauses or events (``what``) the selection can reach, None without a selection: those a vector
        exported under it applies or emits (``REACHABLE``, cached in the state folder),
        and whatever the run itself met (a ruleset option or a longer scenario may reach more)."""
        if self.selection is None:
            return None
        if REACHABLE is None:  # no verb registered the search: every modeled clause and event is expected
            return None
        if self._reach is None:
            self._reach = REACHABLE(*self.selection)
        return set(self._reach[what]) | set(self.clauses if what == "clauses" else self.events)

    def expected_clauses(self) -> list[str]:
        """The modeled clauses of the rulebooks drawn from (those a run could exercise), within what the selection
        can reach."""
        load_all_model_modules()
        reach = self._reachable("clauses")
        return sorted(str(c) for c in IMPLEMENTATIONS
                      if c.rulebook in self.rulebooks and (reach is None or str(c) in reach))

    def expected_events(self) -> list[str]:
        """The event names the rulebooks drawn from can emit through their actions (a run could see them).

        A rulebook lists the events no action of its protocol reaches in ``unreachable_events``; under a
        selection, only the events it can reach (:meth:`_reachable`).
        """
        from referee.model.events import EVENT_SPECS

        books = {name: rulebooks.get(name) for name in self.rulebooks}
        reach = self._reachable("events")
        return sorted(s.name for s in EVENT_SPECS if s.rulebook in books and (reach is None or s.name in reach)
                      and s.name not in getattr(books[s.rulebook], "unreachable_events", ()))

    def rare(self) -> dict[str, list[str]]:
        """Event names seen in under 1% of the scenarios and modeled clauses under 0.5% (never seen included)."""
        names = set(self.events) | set(self.expected_events())
        events = sorted(n for n in names if self._share(self.events.get(n, 0)) < EVENT_THRESHOLD)
        clauses = [c for c in self.expected_clauses() if self._share(self.clauses.get(c, 0)) < CLAUSE_THRESHOLD]
        return {"events": events, "clauses": clauses}

    def to_json(self) -> dict[str, Any]:
        def table(counter: Counter) -> dict[str, Any]:
            return {k: {"scenarios": v, "share": round(self._share(v), 4)} for k, v in sorted(counter.items())}

        return {"scenarios": self.scenarios, "features": table(self.features), "events": table(self.events),
                "clauses": table(self.clauses), "rare": self.rare(),
                "thresholds": {"events": EVENT_THRESHOLD, "clauses": CLAUSE_THRESHOLD}}

    def text(self) -> list[str]:
        lines = [f"  coverage over {self.scenarios} scenarios (--stats):"]
        for title, counter in (("features", self.features), ("events", self.events)):
            shown = ", ".join(f"{k} {self._share(v):.1%}" for k, v in sorted(counter.items(), key=lambda kv: -kv[1]))
            lines.append(f"    {title}: {shown or 'none'}")
        seen = sum(1 for c in self.expected_clauses() if self.clauses.get(c))
        lines.append(f"    clauses: {seen} of {len(self.expected_clauses())} modeled clauses exercised")
        emitted = sum(1 for n in self.expected_events() if self.events.get(n))
        never = [n for n in self.expected_events() if not self.events.get(n)]
        lines.append(f"    events: {emitted} of {len(self.expected_events())} event names emitted"
                     + (f" (never: {', '.join(never)})" if never else ""))
        rare = self.rare()
        if rare["events"]:
            lines.append(f"    warning: events in under {EVENT_THRESHOLD:.0%} of scenarios: {', '.join(rare['events'])}")
        if rare["clauses"]:
            lines.append(f"    warning: clauses in under {CLAUSE_THRESHOLD:.1%} of scenarios: {', '.join(rare['clauses'])}")
        return lines
