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

from .protocol import UNIT_FIELDS, Observation, PLACEMENT_FIELDS

MODES = ("full", "state", "fields")
STATE_FIELDS = tuple(name for name in UNIT_FIELDS if name not in PLACEMENT_FIELDS)


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
    def unit_fields(self) -> tuple[str, ...]:
        return STATE_FIELDS if self.fields is None else self.fields

    @property
    def compares_events(self) -> bool:
        return self.events is not None

    def describe(self) -> str:
        fields = "every unit field" if self.fields is None else "unit fields " + ", ".join(self.fields)
        if self.events is None:
            events = "events not compared"
        elif self.events == frozenset(EVENT_NAMES):
            events = "every event, in order"
        else:
            events = "only the events " + ", ".join(sorted(self.events)) + " (others ignored on both sides)"
        return f"{fields}; {events}"

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": list(self.unit_fields),
            "events": None if self.events is None else sorted(self.events),
            "description": self.describe(),
        }


@dataclass(frozen=True)
class Divergence:
    """The first place the engine and the model disagree."""

    where: str  # "state" or "events"
    path: str  # board.b.shield, events[3], events[3].amount, board.c
    model: Any
    engine: Any
    event_index: int | None = None  # index in the model's full event sequence, for the trail

    def describe(self) -> str:
        return f"{self.path}: model {_show(self.model)}, engine {_show(self.engine)}"

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "path": self.path, "model": self.model, "engine": self.engine}


def _show(value: Any) -> str:
    import json

    return json.dumps(value)


def compare(model: Observation, engine: Observation, how: Comparison) -> list[Divergence]:
    """Every divergence, events first (the earliest point in time), then the final state."""
    out: list[Divergence] = []
    if how.compares_events:
        found = first_event_divergence(model.events or (), engine.events or (), how.events or frozenset())
        if found is not None:
            out.append(found)
    if model.state is not None:  # the play rulebook: the final play state
        from .play import state_divergences as play_state_divergences

        out.extend(play_state_divergences(model.state, engine.state))
        return out
    out.extend(state_divergences(model, engine, how.unit_fields))
    return out


def state_divergences(model: Observation, engine: Observation, names: tuple[str, ...]) -> list[Divergence]:
    out = []
    theirs = {u.uid: u for u in engine.board.units}
    ours = {u.uid: u for u in model.board.units}
    for unit in model.board.units:
        other = theirs.get(unit.uid)
        if other is None:
            out.append(Divergence("state", f"board.{unit.uid}", "present", "absent"))
            continue
        for name in (*PLACEMENT_FIELDS[1:], *names):
            a, b = getattr(unit, name), getattr(other, name)
            if a != b or type(a) is not type(b):
                out.append(Divergence("state", f"board.{unit.uid}.{name}", a, b))
    for uid in theirs:
        if uid not in ours:
            out.append(Divergence("state", f"board.{uid}", "absent", "present"))
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
