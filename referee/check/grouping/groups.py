"""Every distinct divergence of a run, grouped by a stable key, and the known ones an engine declares.

A divergence's *group key* is where it happens, with identities abstracted: for the state,
its path with the unit or object id replaced (``board[].armor``, ``state.objects[].zone``);
for events, the event name and the first of its fields that differs (``events[].other@shield_damaged``),
or that one side lacks it or the engine inserted or dropped it, whatever the model emits around it
(``events[]@missing:thorns``, ``events[]@extra:riposte``), or that the names differ
(``events[]@thorns->riposte``). After a ``#``, the key names the model step behind the divergence:
for a model event, the tagged model function that emitted it (the clause trail:
``events[].amount@damage_taken#combat.damage.process_vitality_damage``); for the state, the explain
step that last changed the field in the model's run, with its clause (:func:`referee.check.at_fault.state_step`:
``board[].vitality#vitality[combat:500.8i]`` for a cost, ``board[].armor#armor_debuff[combat:500.2e]``,
``state.pool.energy#payment[play:357.1]``, ``state.objects[].exhausted#finish[play:350.1]``). When the
engine changed a field the model left alone, the step is that of the action that passed the field
through (the last with a step that sets such a field, else the last naming the unit or object); when
there is none (a unit absent, a field no action is about) the key is the path alone. No unit name
and no number is in a key, and the step is found by what it did, not by where it stands: two
scenarios that fail the same way share a key, so ``--keep-going`` shrinks one representative per
key, and two bugs that first show on the same path but in different model steps are two groups.
(The final state does not say which action the engine got wrong: a field the model changed in two
actions is keyed by the later one.)

*Known divergences* are data the engine's repository keeps (``referee-known.toml``, or the
``known`` list of its ``[tool.referee]`` table), each entry a group ``key`` or a ``clause``, a
``reason``, and optionally ``until`` (a date, ``YYYY-MM-DD``) or ``issue``. A group that matches an
entry is reported as known and does not fail the run; an entry that matched nothing is stale. A key
with its model step (``#...``) matches exactly; one without (``board[].armor``, as an entry written
before keys named the step reads) matches every group on that path, whatever step it names.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...input_files import read_input_toml
from ...rulebook import Divergence

#: Path components after which the next one is an identity (a unit's uid, an object's oid).
_ID_PARENTS = ("board", "objects")
_EVENT_FIELDS = ("unit", "amount", "other", "detail")


def group_key(divergence: Divergence, steps: list[Any] | None = None, changed_by: str | None = None) -> str:
    """The stable key of a divergence (see the module docstring).

    With the model's clause trail ``steps``, an event divergence's key also names the model
    function that emitted the event (``events[].amount@damage_taken#combat.damage.process_vitality_damage``):
    two bugs that both first show on ``damage_taken`` but in different steps stay apart. An event
    the engine inserted or left out is keyed by that event alone, whatever the model emits around it.
    A state divergence's key names ``changed_by``, the model step that last changed its field or passed
    it through (:func:`referee.check.at_fault.state_step`: ``board[].vitality#vitality[combat:500.8i]``); without
    one (no action is about the field, or the scenario cannot be explained) it is the path alone.
    """
    if divergence.where == "events":
        key = _event_key(divergence.model, divergence.engine, getattr(divergence, "shape", None))
        if key.startswith("events[]@extra:"):
            return key  # the model emitted nothing there: no model step produced it
        step = producing_step(steps, divergence.event_index) if steps else None
        return f"{key}#{step}" if step else key
    parts = divergence.path.split(".")
    at = identity_index(parts)
    path = ".".join(parts if at is None else [*parts[:at - 1], parts[at - 1] + "[]", *parts[at + 1:]])
    return f"{path}#{changed_by}" if changed_by else path


def identity_index(parts: list[str]) -> int | None:
    """Where the identity is in a state path's components: the first one after a :data:`_ID_PARENTS` component
    (``board.<uid>``, ``state.objects.<oid>``; a unit named ``objects`` is still the identity); None: none."""
    return next((i for i in range(1, len(parts)) if parts[i - 1] in _ID_PARENTS), None)


def producing_step(steps: list[Any], event_index: int | None) -> str | None:
    """The tagged model function that emitted the model's ``event_index``-th event (None: not found)."""
    for i, step in enumerate(steps):
        if step.event_index == event_index and step.event is not None:
            for earlier in reversed(steps[:i]):
                if earlier.function is not None and earlier.depth < step.depth:
                    return earlier.function
            return None
    return None


def _event_key(model: Any, engine: Any, shape: str | None = None) -> str:
    """The event part of a key: one side lacks it, the engine inserted or dropped one, the names differ, or
    the first differing field (only the first: which others differ too depends on the scenario, not the bug)."""
    if not isinstance(model, dict) or shape == "extra":
        return f"events[]@extra:{engine.get('name') if isinstance(engine, dict) else engine}"
    if not isinstance(engine, dict) or shape in ("missing", "left_out"):
        return f"events[]@missing:{model.get('name')}"
    if model.get("name") != engine.get("name"):
        return f"events[]@{model.get('name')}->{engine.get('name')}"
    differing = [name for name in _EVENT_FIELDS if model.get(name) != engine.get(name)]
    return f"events[].{differing[0] if differing else 'value'}@{model.get('name')}"


@dataclass
class Group:
    """One distinct divergence: its key, how many scenarios showed it, and its shrunk representative."""

    key: str
    count: int
    scenario: dict[str, Any]
    divergences: list[Divergence]
    clauses: list[str] = field(default_factory=list)
    replay: str = ""
    known: KnownEntry | None = None
    #: The representative no longer diverged when run again (an engine keeping state, or random).
    reproducible: bool = True
    shrink_calls: int = 0
    #: The model's explain steps around the representative's first divergence (the step before, the one at fault).
    explain: list[dict[str, Any]] = field(default_factory=list)
    #: The representative's size (actions, characters of its compact JSON) before and after shrinking; None: unshrunk.
    shrink_sizes: tuple[tuple[int, int], tuple[int, int]] | None = None
    #: The symptom keys (:func:`group_key`) its scenarios showed, when ``key`` names the step at fault instead
    #: (``referee.check.fault_keys``): a known entry written against one of them still matches.
    symptoms: tuple[str, ...] = ()
    #: The groups merged into this one (``referee.check.fault_keys.merge_groups``), each with its own key, count,
    #: first divergence, shrunk representative and replay: a merge can join two bugs (a drift), and neither is lost.
    merged_with: tuple[dict[str, Any], ...] = ()
    #: The key of the group whose divergence comes first in this group's scenarios (None: this group's comes first):
    #: this group's difference is a later one the first cannot have caused (``referee.check.grouping.filing._behind_first``).
    behind: str | None = None
    #: Keys the representative's settling shrink met and the drift guard refused (``grouping.settle._settled_key``).
    declined: tuple[str, ...] = ()
    #: Other keys the representative shows behind its first divergence (``grouping.filing._behind_first``).
    also_shows: tuple[str, ...] = ()
    #: What the grouping is unsure of about this group, one sentence each (``grouping.settle.say_unsure``).
    unsure: tuple[str, ...] = ()

    def clause_at_fault(self) -> str | None:
        """The clause the group's key names (the rule it breaks); None: a symptom key naming no step's clause."""
        return clause_of_key(self.key)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "count": self.count, "scenario": self.scenario,
                "divergences": [d.to_json() for d in self.divergences], "clauses": self.clauses,
                "explain": self.explain,
                "replay": self.replay, "reproducible": self.reproducible, "shrink_calls": self.shrink_calls,
                "shrink_sizes": None if self.shrink_sizes is None else [list(self.shrink_sizes[0]), list(self.shrink_sizes[1])],
                "symptoms": list(self.symptoms), "merged_with": list(self.merged_with), "behind": self.behind,
                "clause_at_fault": self.clause_at_fault(), "unsure": list(self.unsure),
                "known": self.known.to_json() if self.known else None}


class KnownError(ValueError):
    """A known-divergences file that cannot be read or holds a malformed entry; the message names it."""


@dataclass(frozen=True)
class KnownEntry:
    """One known divergence: a group key or a clause id, why, and until when."""

    reason: str
    key: str | None = None
    clause: str | None = None
    until: datetime.date | None = None
    issue: str | None = None
    source: str = ""

    def is_expired(self, today: datetime.date) -> bool:
        return self.until is not None and today > self.until

    def matches(self, group: Group) -> bool:
        """A ``key`` naming a model step (``board[].armor#armor_debuff[combat:500.2e]``) matches that key only; one
        without (``board[].armor``, as keys were written before they named the step) every key on that path."""
        if self.key is not None:
            keys = (group.key, *group.symptoms)
            return any(self.key == k if "#" in self.key else self.key == k.split("#", 1)[0] for k in keys)
        return self.clause is not None and self.clause in group.clauses

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "clause": self.clause, "reason": self.reason,
                "until": self.until.isoformat() if self.until else None, "issue": self.issue, "source": self.source}


def parse_known(entries: Any, source: str) -> list[KnownEntry]:
    """Known-divergence entries from their TOML form (a list of tables), each checked."""
    if not isinstance(entries, list):
        raise KnownError(f"{source}: known: expected a list of tables ([[known]])")
    out = []
    for i, entry in enumerate(entries):
        where = f"{source}: known[{i}]"
        if not isinstance(entry, dict):
            raise KnownError(f"{where}: expected a table")
        unknown = sorted(set(entry) - {"key", "clause", "reason", "until", "issue"})
        if unknown:
            raise KnownError(f"{where}.{unknown[0]}: unknown field (known: key, clause, reason, until, issue)")
        if not isinstance(entry.get("reason"), str) or not entry["reason"].strip():
            raise KnownError(f"{where}.reason: every known divergence says why")
        if (entry.get("key") is None) == (entry.get("clause") is None):
            raise KnownError(f"{where}: give exactly one of key (a group key) or clause (a clause id)")
        until = entry.get("until")
        if until is not None and not isinstance(until, datetime.date):
            raise KnownError(f"{where}.until: expected a date (until = 2027-01-31)")
        out.append(KnownEntry(entry["reason"], entry.get("key"), entry.get("clause"), until, entry.get("issue"), where))
    return out


def load_known(path: Path) -> list[KnownEntry]:
    """The entries of a ``referee-known.toml`` (``[[known]]`` tables)."""
    data = read_input_toml(path, KnownError)
    return parse_known(data.get("known", []), str(path))


def match_known(groups: list[Group], entries: list[KnownEntry], today: datetime.date | None = None) -> list[KnownEntry]:
    """Mark each group an unexpired entry matches as known; the entries that matched nothing (stale)."""
    today = today or datetime.date.today()
    live = [e for e in entries if not e.is_expired(today)]
    used: set[int] = set()
    for group in groups:
        own = replace(group, symptoms=())  # an entry naming the group's own key first, then one naming a symptom
        for n, entry in sorted(enumerate(live), key=lambda item: not item[1].matches(own)):
            if entry.matches(group):
                group.known = entry
                used.add(n)
                break
    return [e for n, e in enumerate(live) if n not in used]


def clause_of_key(key: str) -> str | None:
    """The clause a group key names (``amount@armor_percentage[combat:500.2c]`` -> ``combat:500.2c``): the one the
    report names for the group; None for a symptom key naming no step's clause."""
    if not key.endswith("]") or "[" not in key:
        return None
    return key[key.rindex("[") + 1:-1] or None
