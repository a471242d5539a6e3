"""Comparing an engine's observation with the model's: modes and the first divergence.

Three modes (cedar-spec's "comparison modes"):

* ``full``: every unit field of the final board, and the whole event sequence;
* ``state``: every unit field, no events (an engine that emits no events at all);
* ``fields``: a chosen set of unit fields, with or without events.

Independently, ``events`` may be narrowed to a set of names: both sequences are filtered
to those names before they are compared, so an engine that emits only some channels is
checked on exactly the channels it emits. :meth:`Comparison.describe` says what was and
was not compared, and every report prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.model.events import EVENT_NAMES, Event

from . import rulebooks
from .rulebook import Divergence  # noqa: F401 - part of this module's interface
from .wire import Observation

MODES = ("full", "state", "fields")
#: Every state field some rulebook can be compared on (``--compare fields``).
STATE_FIELDS = tuple(dict.fromkeys(f for book in rulebooks.RULEBOOKS.values() for f in book.state_fields))


@dataclass(frozen=True)
class Comparison:
    """What is compared: unit fields (``None``: all) and events (``None``: none)."""

    fields: tuple[str, ...] | None = None
    events: frozenset[str] | None = frozenset(EVENT_NAMES)

    @classmethod
    def from_options(cls, mode: str = "full", fields: str | None = None, events: str | None = None) -> Comparison:
        """Build from CLI words: ``mode`` full|state|fields, ``fields`` a,b,c, ``events`` all|none|n1,n2."""
        if mode not in MODES:
            raise ValueError(f"compare mode {mode!r} is not one of {', '.join(MODES)}")
        chosen: tuple[str, ...] | None = None
        if mode == "fields":
            if not fields:
                raise ValueError("compare mode 'fields' needs --fields a,b,c")
            chosen = tuple(f.strip() for f in fields.split(",") if f.strip())
            bad = [f for f in chosen if f not in STATE_FIELDS]
            if bad:
                raise ValueError(f"unknown unit field(s) {', '.join(bad)} (known: {', '.join(STATE_FIELDS)})")
        elif fields:
            raise ValueError("--fields is only for --compare fields")
        if events is None:
            names: frozenset[str] | None = None if mode == "state" else frozenset(EVENT_NAMES)
        elif events == "all":
            names = frozenset(EVENT_NAMES)
        elif events == "none":
            names = None
        else:
            names = frozenset(n.strip() for n in events.split(",") if n.strip())
            bad = sorted(n for n in names if n not in EVENT_NAMES)
            if bad:
                raise ValueError(f"unknown event name(s) {', '.join(bad)}")
        return cls(fields=chosen, events=names)

    @property
    def unit_fields(self) -> tuple[str, ...] | None:
        """The state fields compared (``None``: every field of the rulebook's state)."""
        return self.fields

    @property
    def compares_events(self) -> bool:
        return self.events is not None

    def describe(self, rulebook: str | None = None) -> str:
        """What is compared, in words (the state in ``rulebook``'s terms; the default rulebook's if None)."""
        book = rulebooks.get(rulebook) if rulebook else rulebooks.default()
        fields = book.describe_state(self.fields)
        if self.events is None:
            events = "events not compared"
        elif self.events == frozenset(EVENT_NAMES):
            events = "every event, in order"
        else:
            events = "only the events " + ", ".join(sorted(self.events)) + " (others ignored on both sides)"
        return f"{fields}; {events}"

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": None if self.fields is None else list(self.fields),
            "events": None if self.events is None else sorted(self.events),
            "description": self.describe(),
        }


def compare(model: Observation, engine: Observation, how: Comparison, rulebook: str | None = None) -> list[Divergence]:
    """Every divergence, events first (the earliest point in time), then the final state."""
    out: list[Divergence] = []
    if how.compares_events:
        found = first_event_divergence(model.events or (), engine.events or (), how.events or frozenset())
        if found is not None:
            out.append(found)
    book = rulebooks.get(rulebook) if rulebook else rulebooks.default()
    fields = how.fields if how.fields is not None else book.state_fields
    out.extend(book.state_divergences(model, engine, fields))
    return out


def first_event_divergence(
    model: tuple[Event, ...], engine: tuple[Event, ...], names: frozenset[str]
) -> Divergence | None:
    """The first differing event after both sequences are filtered to ``names``."""
    ours = [(i, e) for i, e in enumerate(model) if e.name in names]
    theirs = [e for e in engine if e.name in names]
    for k in range(max(len(ours), len(theirs))):
        if k >= len(ours):
            return Divergence("events", f"events[{k}]", None, theirs[k].to_json(), len(model))
        index, mine = ours[k]
        if k >= len(theirs):
            return Divergence("events", f"events[{k}]", mine.to_json(), None, index)
        other = theirs[k]
        if mine != other:
            return Divergence("events", f"events[{k}]", mine.to_json(), other.to_json(), index)
    return None
