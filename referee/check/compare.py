"""Comparing an engine's observation with the model's: modes and the first divergence.

Three modes (cedar-spec's "comparison modes"):

* ``full``: every unit field of the final board, and the whole event sequence;
* ``state``: every unit field, no events (an engine that emits no events at all);
* ``fields``: a chosen set of unit fields, with or without events.

Independently, ``events`` may be narrowed to a set of names: both sequences are filtered
to those names before they are compared, so an engine that emits only some channels is
checked on exactly the channels it emits. Two more opt-ins, never silent:

* ``event_fields`` (``--event-fields name,unit,amount``): only those fields of each event are
  compared (and held to their contract); ``name`` is always among them;
* ``event_order`` (``--event-order``): ``strict`` (the default) the sequences must agree in
  order; ``per-unit`` each unit's own events must agree in order, the interleaving of units
  is free; ``multiset`` the same events, in any order.

:meth:`Comparison.describe` says what was and was not compared, and every report prints it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from referee.model.events import EVENT_NAMES, Event

from .. import rulebooks
from ..rulebook import Divergence  # noqa: F401 - part of this module's interface
from ..wire import EVENT_FIELDS, Observation

MODES = ("full", "state", "fields")
#: How the order of the events is compared (``--event-order``).
EVENT_ORDERS = ("strict", "per-unit", "multiset")
#: Every state field some rulebook can be compared on (``--compare fields``).
STATE_FIELDS = tuple(dict.fromkeys(f for book in rulebooks.RULEBOOKS.values() for f in book.state_fields))


@dataclass(frozen=True)
class Comparison:
    """What is compared: unit fields (``None``: all) and events (``None``: none)."""

    fields: tuple[str, ...] | None = None
    events: frozenset[str] | None = frozenset(EVENT_NAMES)
    event_fields: tuple[str, ...] | None = None  # None: every event field
    event_order: str = "strict"
    #: What the engine's profile leaves out (``--without``): these state fields are neither required nor
    #: compared, nor the events whose key (``name`` or ``name:detail``) is here.
    fields_off: frozenset[str] = frozenset()
    events_off: frozenset[str] = frozenset()

    @classmethod
    def from_options(
        cls, mode: str = "full", fields: str | None = None, events: str | None = None,
        event_fields: str | None = None, event_order: str | None = None,
    ) -> Comparison:
        """Build from CLI words: ``mode`` full|state|fields, ``fields`` a,b,c, ``events`` all|none|n1,n2,
        ``event_fields`` name,unit,... (``--event-fields``), ``event_order`` strict|per-unit|multiset."""
        if mode not in MODES:
            raise ValueError(f"compare mode {mode!r} is not one of {', '.join(MODES)}")
        chosen: tuple[str, ...] | None = None
        if mode == "fields":
            if not fields:
                raise ValueError("compare mode 'fields' needs --fields a,b,c")
            chosen = tuple(f.strip() for f in fields.split(",") if f.strip())
            if not chosen:
                raise ValueError(f"--fields {fields!r}: names no field (a comparison must compare something)")
            bad = [f for f in chosen if f not in STATE_FIELDS]
            if bad:
                raise ValueError(f"unknown unit field(s) {', '.join(bad)} (known: {', '.join(STATE_FIELDS)})")
        elif fields:
            raise ValueError("--fields is only for --compare fields")
        names = parse_event_names(events, mode)
        return cls(fields=chosen, events=names, event_fields=parse_event_fields(event_fields),
                   event_order=parse_event_order(event_order, event_fields))

    def under_profile(self, features: frozenset[str] | None) -> Comparison:
        """This comparison less what a profile leaves out: every feature not in ``features`` (None: all in)."""
        if features is None:
            return self
        fields_off, events_off = rulebooks.profile_off(features)
        return replace(self, fields_off=self.fields_off | fields_off, events_off=self.events_off | events_off)

    @property
    def unit_fields(self) -> tuple[str, ...] | None:
        """The state fields compared and required (``None``: every field of the rulebook's state)."""
        if not self.fields_off:
            return self.fields
        return tuple(f for f in (self.fields or STATE_FIELDS) if f not in self.fields_off)

    def keeps(self, event: Event) -> bool:
        """Whether ``event`` is compared: its name chosen and neither it nor its detail left out by the profile."""
        if self.events is None or event.name not in self.events:
            return False
        return not self.events_off or (event.name not in self.events_off
                                       and f"{event.name}:{event.detail}" not in self.events_off)

    @property
    def compares_events(self) -> bool:
        return self.events is not None

    def describe(self, rulebook: str | None = None) -> str:
        """What is compared, in words (the state in ``rulebook``'s terms; the default rulebook's if None)."""
        book = rulebooks.get(rulebook) if rulebook else rulebooks.default()
        fields = book.describe_state(self.fields)
        if self.fields_off and self.fields is None:
            fields += " the profile keeps"
        if self.events is None:
            events = "events not compared"
        elif self.events == frozenset(EVENT_NAMES):
            events = "every event" + self._event_manner()
        elif len(self.events) > len(EVENT_NAMES) / 2:
            events = ("every event but " + ", ".join(sorted(set(EVENT_NAMES) - self.events)) + self._event_manner()
                      + " (those ignored on both sides)")
        else:
            events = ("only the events " + ", ".join(sorted(self.events)) + self._event_manner()
                      + " (others ignored on both sides)")
        return f"{fields}; {events}{self._profile_words()}"

    def _profile_words(self) -> str:
        if not (self.fields_off or self.events_off):
            return ""
        parts = [f"unit fields {', '.join(sorted(self.fields_off))}" if self.fields_off else "",
                 f"events {', '.join(sorted(self.events_off))}" if self.events_off and self.events is not None else ""]
        return "; left out by the profile (neither required nor compared): " + "; ".join(p for p in parts if p)

    def _event_manner(self) -> str:
        order = {"strict": ", in order", "per-unit": ", in order per unit (units interleaved freely)",
                 "multiset": ", in any order"}[self.event_order]
        if self.event_fields is None:
            return order
        ignored = [f for f in EVENT_FIELDS if f not in self.event_fields]
        return f"{order}, on the fields {', '.join(self.event_fields)} only ({', '.join(ignored)} ignored)"

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": None if self.fields is None else list(self.fields),
            "events": None if self.events is None else sorted(self.events),
            "fields_off": sorted(self.fields_off),
            "events_off": sorted(self.events_off),
            "event_fields": list(self.event_fields or EVENT_FIELDS),
            "event_order": self.event_order,
            "description": self.describe(),
        }

    def cli_words(self) -> list[str]:
        """The options that rebuild the event opt-ins (for replay commands)."""
        words = []
        if self.event_fields is not None:
            words += ["--event-fields", ",".join(self.event_fields)]
        if self.event_order != "strict":
            words += ["--event-order", self.event_order]
        return words


def parse_event_names(text: str | None, mode: str = "full") -> frozenset[str] | None:
    """``--events``: ``all``, ``none``, ``a,b`` (only those) or ``-a,-b`` (every event but those); None: none."""
    if text is None:
        return None if mode == "state" else frozenset(EVENT_NAMES)
    if text.strip() in ("all", "none"):
        return frozenset(EVENT_NAMES) if text.strip() == "all" else None
    words = [n.strip() for n in text.split(",") if n.strip()]
    if not words:
        raise ValueError(f"--events {text!r}: names no event (say --events none to compare no events)")
    minus = [w for w in words if w.startswith("-")]
    if minus and len(minus) != len(words):
        raise ValueError(f"--events {text!r}: either names to compare (a,b) or names to leave out (-a,-b), not both")
    names = frozenset(w.removeprefix("-") for w in words)
    bad = sorted(n for n in names if n not in EVENT_NAMES)
    if bad:
        raise ValueError(f"unknown event name(s) {', '.join(bad)} (known: {', '.join(EVENT_NAMES)})")
    return frozenset(EVENT_NAMES) - names if minus else names


def parse_event_fields(text: str | None) -> tuple[str, ...] | None:
    """``--event-fields name,unit,amount``: the event fields compared (None: all)."""
    if text is None or text.strip() in ("", "all"):
        return None
    chosen = tuple(dict.fromkeys(f.strip() for f in text.split(",") if f.strip()))
    bad = [f for f in chosen if f not in EVENT_FIELDS]
    if bad:
        raise ValueError(f"unknown event field(s) {', '.join(bad)} (known: {', '.join(EVENT_FIELDS)})")
    if "name" not in chosen:
        raise ValueError("--event-fields must include name (events are matched by name)")
    ordered = tuple(f for f in EVENT_FIELDS if f in chosen)
    return None if ordered == tuple(EVENT_FIELDS) else ordered


def parse_event_order(order: str | None, event_fields: str | None = None) -> str:
    """``--event-order strict|per-unit|multiset``; per-unit groups by ``unit``, so it must be compared."""
    order = order or "strict"
    if order not in EVENT_ORDERS:
        raise ValueError(f"event order {order!r} is not one of {', '.join(EVENT_ORDERS)}")
    fields = parse_event_fields(event_fields)
    if order == "per-unit" and fields is not None and "unit" not in fields:
        raise ValueError("--event-order per-unit needs unit among --event-fields")
    return order


def compare(model: Observation, engine: Observation, how: Comparison, rulebook: str | None = None) -> list[Divergence]:
    """Every divergence, events first (the earliest point in time), then the final state."""
    out: list[Divergence] = []
    if how.compares_events:
        found = first_event_divergence(model.events or (), engine.events or (), how.events or frozenset(),
                                       how.event_fields, how.event_order, how.keeps if how.events_off else None)
        if found is not None:
            out.append(found)
    book = rulebooks.get(rulebook) if rulebook else rulebooks.default()
    fields = how.fields if how.fields is not None else book.state_fields
    if how.fields_off:
        fields = tuple(f for f in fields if f not in how.fields_off)
    out.extend(book.state_divergences(model, engine, fields))
    return out


def project(event: Event, fields: tuple[str, ...] | None) -> dict[str, Any]:
    """The compared fields of one event, as JSON."""
    data = event.to_json()
    return data if fields is None else {f: data[f] for f in fields}


def first_event_divergence(
    model: tuple[Event, ...], engine: tuple[Event, ...], names: frozenset[str],
    fields: tuple[str, ...] | None = None, order: str = "strict", keeps: Any = None,
) -> Divergence | None:
    """The first differing event after both sequences are filtered to ``names`` (or by ``keeps``), under ``order``."""
    if len(model) == len(engine) and tuple(model) == tuple(engine):
        return None  # equal events project and filter to equal sequences, in every order (the common case)
    kept = keeps or (lambda e: e.name in names)
    ours = [(i, project(e, fields)) for i, e in enumerate(model) if kept(e)]
    theirs = [project(e, fields) for e in engine if kept(e)]
    if order == "multiset":
        return _multiset_divergence(ours, theirs, len(model))
    if order == "per-unit":
        units = list(dict.fromkeys([e["unit"] for _, e in ours] + [e["unit"] for e in theirs]))
        for unit in units:
            found = _sequence_divergence([(i, e) for i, e in ours if e["unit"] == unit],
                                         [e for e in theirs if e["unit"] == unit], len(model), f"events[unit={unit}]")
            if found is not None:
                return found
        return None
    return _sequence_divergence(ours, theirs, len(model), "events", whole=True)


def _sequence_divergence(ours: list[tuple[int, dict]], theirs: list[dict], end: int, where: str,
                         whole: bool = False) -> Divergence | None:
    """The first differing event of two sequences; ``whole``: they are the scenario's whole compared events."""
    for k in range(max(len(ours), len(theirs))):
        if k >= len(ours):
            return Divergence("events", f"{where}[{k}]", None, theirs[k], end)
        index, mine = ours[k]
        if k >= len(theirs):
            return Divergence("events", f"{where}[{k}]", mine, None, index)
        if mine != theirs[k]:
            return Divergence("events", f"{where}[{k}]", mine, theirs[k], index, _shape(ours, theirs, k, whole))
    return None


def _shape(ours: list[tuple[int, dict]], theirs: list[dict], k: int, whole: bool = False) -> str | None:
    """Where the names differ at ``k``: the engine inserted an event (``extra``) or left events out (``left_out``
    where none of them comes later in its stream, else ``missing`` for one), or took the model's step later
    (``late``). Where they agree: ``left_out`` as well
    when the engine's event is a later one of the model's (a hit that came to nothing in the engine), else, with
    ``whole``:
    ``alone`` when every other event agrees (the engine took the model's road, and this event's fields are the only
    difference in the events)."""
    if ours[k][1].get("name") == theirs[k].get("name"):
        if any(event == theirs[k] for _, event in ours[k + 1:]):
            return "left_out"  # the engine's event is a later one of the model's: it left the ones before out
        alone = whole and len(ours) == len(theirs) and all(e == theirs[i] for i, (_, e) in enumerate(ours) if i > k)
        return "alone" if alone else None
    if k + 1 < len(theirs) and k + 1 < len(ours) and theirs[k + 1] == ours[k][1] and ours[k + 1][1] == theirs[k]:
        return "swap"
    if k + 1 < len(theirs) and theirs[k + 1] == ours[k][1]:
        return "extra"
    if _left_out(ours, theirs, k):
        return "left_out"
    if k + 1 < len(ours) and ours[k + 1][1] == theirs[k]:
        return "missing"
    return _inserted_run(ours, theirs, k) or _late(ours, theirs, k)


def _late(ours: list[tuple[int, dict]], theirs: list[dict], k: int) -> str | None:
    """``late`` when the engine emits the model's event at ``k`` later in its stream, after events the model emits
    after it: the engine took the model's step later (a Subrogated payback resolved at the end of the hit, not at
    500.1-8)."""
    later = [event for _, event in ours[k + 1:]]
    return "late" if ours[k][1] in theirs[k + 1:] and theirs[k] in later else None


def _left_out(ours: list[tuple[int, dict]], theirs: list[dict], k: int) -> bool:
    """The engine's event at ``k`` is a later one of the model's, and none of the model's events it skipped comes
    anywhere later in the engine's stream: events left out, not an order (no event of the engine's comes before
    its place). A cull the engine let Defy Death answer leaves out the cull, the death and its batch; a conditional
    line resolved where the model's condition failed leaves out the failure, whatever line follows."""
    model, later = [event for _, event in ours], theirs[k:]
    return any(model[k + n] == theirs[k] and not any(event in later for event in model[k:k + n])
               for n in range(1, len(model) - k))


def _inserted_run(ours: list[tuple[int, dict]], theirs: list[dict], k: int) -> str | None:
    """Several events inserted at ``k`` (``extra``), where everything after them agrees."""
    model = [event for _, event in ours]
    if any(model[k:] == theirs[k + n:] for n in range(2, len(theirs) - k)):
        return "extra"
    return None


def _multiset_divergence(ours: list[tuple[int, dict]], theirs: list[dict], end: int) -> Divergence | None:
    """The first model event the engine lacks (in the model's order), else the first extra of the engine's."""
    def key(e: dict) -> str:
        return repr(sorted(e.items()))

    left = Counter(key(e) for e in theirs)
    for index, mine in ours:
        if left[key(mine)] > 0:
            left[key(mine)] -= 1
        else:
            return Divergence("events", "events[*]", mine, None, index)
    for theirs_event in theirs:
        if left[key(theirs_event)] > 0:
            return Divergence("events", "events[*]", None, theirs_event, end)
    return None
