"""``referee validate TRACE``: a match an engine logged, replayed through the model and compared as it goes.

A trace (format ``referee-trace/1``, JSON lines; the schema is ``referee schema trace``) is a header line with
the starting board and the readings, then one line per action, in the order the engine ran them::

    {"trace": "referee-trace/1", "protocol": "referee/2", "ruleset": {...}, "board": [unit, ...]}
    {"action": {"kind": "hit", ...}, "events": [event, ...], "board": [unit, ...]}
    {"action": {"kind": "advance", "ms": 10000}}

What an action line logs besides its action is up to the engine, and only what is logged is compared: its
``events`` (the events of that action, in order; each event's fields that are present), its ``board`` (the units
listed, the fields each lists), or neither (a log of the final board only puts ``board`` on the last line). The
model runs each action on the state it reached, on the battle clock, so time, pending revivals and every effect
carry from one action to the next exactly as in a scenario of that many actions.

The first divergence is reported with its action index, the clause at fault and the explain steps around it.
With ``keep_going`` the replay goes on: the model's units take the values the engine logged (resynchronising
to the engine's state, so one bug is not reported again at every later action) and every distinct divergence
is listed once, with its first action and how many actions showed it. A new header line starts another trace
in the same file. A header's ``protocol`` is optional; one other than this referee's is refused. A file with no
action line in any of its traces validated nothing: status ``empty``, exit 5, never a pass. The file is read a
line at a time: memory does not grow with the length of the match.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.model.combat import battle as clock
from referee.model.combat.ruleset import Ruleset

from .grouping.groups import group_key
from ..rulebook import Divergence
from ..rulebooks.combat.codec import board_from_json, ruleset_from_json
from ..rulebooks.combat.domain import check_board_domain
from ..rulebooks.combat.kinds import KINDS
from ..rulebooks.combat.run import decode_action
from ..wire import PROTOCOL, ProtocolError, check_protocol

TRACE_FORMAT = "referee-trace/1"
EVENT_FIELDS = ("name", "unit", "amount", "other", "detail")
#: The exit code of a trace with no action line (an empty file, blank lines, headers only): nothing was validated.
EXIT_NOTHING_VALIDATED = 5


class TraceError(ValueError):
    """A trace line that cannot be read: the message names the line and the field."""


@dataclass
class Found:
    """One distinct divergence: the first action that showed it, and how many actions did."""

    key: str
    trace: int
    action: int
    divergence: Divergence
    clause: str | None
    explain: list[dict[str, Any]] = field(default_factory=list)
    count: int = 1
    #: The known divergence (``referee-known.toml``) this is, if any: reported, not failed.
    known: str | None = None

    @property
    def symptoms(self) -> tuple[str, ...]:
        return ()

    @property
    def clauses(self) -> list[str]:
        return [self.clause] if self.clause else []

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "trace": self.trace, "action": self.action, "clause": self.clause,
                "divergence": self.divergence.to_json(), "count": self.count, "explain": self.explain,
                "known": self.known}


@dataclass(frozen=True)
class Profile:
    """What the engine's ``referee.toml`` says a check of it compares: the unit fields and events of the features it
    leaves out are not compared, its readings are the match's, and its known divergences are reported, not failed."""

    fields_off: frozenset[str] = frozenset()
    events_off: frozenset[str] = frozenset()
    readings: dict[str, Any] = field(default_factory=dict)
    known: tuple[Any, ...] = ()
    #: The features the declaration keeps (None: all), for the summary's count of what was compared.
    features: frozenset[str] | None = None

    def keeps_event(self, event: dict[str, Any]) -> bool:
        name = event.get("name")
        return name not in self.events_off and f"{name}:{event.get('detail')}" not in self.events_off


@dataclass
class ValidateReport:
    """What a validation found: actions replayed, divergences (first first), lines that could not be read."""

    path: str
    traces: int = 0
    actions: int = 0
    compared_events: int = 0
    compared_fields: int = 0
    seconds: float = 0.0
    found: dict[str, Found] = field(default_factory=dict)
    error: str = ""
    profile: Profile = field(default_factory=Profile)

    @property
    def status(self) -> str:
        """``error`` (a line that cannot be read), ``mismatch``, ``empty`` (no action line: nothing was compared,
        so nothing passed) or ``pass``."""
        if self.error:
            return "error"
        if any(f.known is None for f in self.found.values()):
            return "mismatch"
        return "empty" if self.actions == 0 else "pass"

    @property
    def exit_code(self) -> int:
        """0 pass, 1 a divergence, 2 a trace that cannot be read, 5 nothing validated (like pytest's no tests)."""
        return {"pass": 0, "mismatch": 1, "error": 2, "empty": EXIT_NOTHING_VALIDATED}[self.status]


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def read_lines(lines: Iterator[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line as a JSON object, with its line number (1-based); a TraceError names a bad one."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as error:
            raise TraceError(f"line {number}: not JSON ({error})") from None
        if not isinstance(value, dict):
            raise TraceError(f"line {number}: expected a JSON object")
        yield number, value


@dataclass
class Replay:
    """The model's side of one trace: the battle so far and its readings."""

    battle: Any
    rules: Ruleset


def start(number: int, header: dict[str, Any], readings: dict[str, Any] | None = None) -> Replay:
    """A header line: its format, readings and starting board, checked like a scenario's (names the line); the
    readings of the engine's ``referee.toml`` complete the header's, and one it contradicts is an error; a
    ``protocol`` other than this referee's is an error."""
    if header.get("trace") != TRACE_FORMAT:
        raise TraceError(f"line {number}.trace: expected {TRACE_FORMAT!r}, got {header.get('trace')!r}")
    _check_protocol(number, header)
    if header.get("rulebook", "combat") != "combat":
        raise TraceError(f"line {number}.rulebook: only combat matches can be validated")
    ruleset = _with_readings(number, header.get("ruleset", {}), readings or {})
    try:
        rules = ruleset_from_json(f"line {number}.ruleset", ruleset)
        board = board_from_json(f"line {number}.board", header.get("board"))
        check_board_domain(f"line {number}.board", board)
    except ProtocolError as error:
        raise TraceError(str(error)) from None
    return Replay(clock.start_battle(board), rules)


def _check_protocol(number: int, header: dict[str, Any]) -> None:
    """The header's ``protocol``, if it gives one, is this referee's (an older one is told what changed since).
    It is optional: a header that does not say is read as this referee's protocol, as the schema allows."""
    if "protocol" in header:
        try:
            check_protocol(f"line {number}", header)
        except ProtocolError as error:
            raise TraceError(str(error)) from None


def _with_readings(number: int, logged: Any, readings: dict[str, Any]) -> Any:
    if not isinstance(logged, dict):
        return logged  # the decoder names it
    for name, value in readings.items():
        if name in logged and logged[name] != value:
            raise TraceError(f"line {number}.ruleset.{name}: the log says {logged[name]!r}, referee.toml {value!r}")
    return {**readings, **logged}


# --------------------------------------------------------------------------------------
# Replaying one action
# --------------------------------------------------------------------------------------


def step(replay: Replay, number: int, line: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """Run the line's action on the battle so far; the board before it and the action's events."""
    if "action" not in line:
        raise TraceError(f"line {number}: expected an \"action\" (or a header line)")
    before = replay.battle.board
    try:
        action = decode_action(f"line {number}.action", line["action"], before)
    except ProtocolError as error:
        raise TraceError(str(error)) from None
    kind = KINDS[action["kind"]]
    on_battle = kind.extra.get("battle")
    if on_battle is not None:
        replay.battle, log = on_battle(replay.battle, action, replay.rules)
    else:
        replay.battle, log = clock.act(replay.battle, lambda b: kind.run(b, action, replay.rules))
    return before, log.events()


def event_json(event: Any) -> dict[str, Any]:
    return {"name": event.name, "unit": event.unit, "amount": event.amount, "other": event.other,
            "detail": event.detail}


def event_divergence(ours: list[dict[str, Any]], theirs: list[Any], number: int) -> Divergence | None:
    """The first difference between the model's events and the logged ones (only the fields an event logs)."""
    for i in range(max(len(ours), len(theirs))):
        model = ours[i] if i < len(ours) else None
        engine = theirs[i] if i < len(theirs) else None
        if not isinstance(engine, dict) and engine is not None:
            raise TraceError(f"line {number}.events[{i}]: expected an object")
        if model is None or engine is None or any(model.get(k) != v for k, v in engine.items() if k in EVENT_FIELDS):
            return Divergence("events", f"events[{i}]", model, engine, event_index=i)
    return None


def board_divergences(board: Any, logged: Any, number: int) -> list[Divergence]:
    """Every logged field of every logged unit that differs from the model's board."""
    from ..rulebooks.combat.codec import unit_to_json

    if not isinstance(logged, list):
        raise TraceError(f"line {number}.board: expected a list of units")
    out = []
    for i, unit in enumerate(logged):
        uid = unit.get("uid") if isinstance(unit, dict) else None
        if not isinstance(uid, str):
            raise TraceError(f"line {number}.board[{i}].uid: expected a unit's uid")
        ours = unit_to_json(board.unit(uid)) if board.has(uid) else None
        if ours is None:
            out.append(Divergence("state", f"board.{uid}", None, unit))
            continue
        out += [Divergence("state", f"board.{uid}.{k}", ours.get(k), v) for k, v in unit.items()
                if k != "uid" and ours.get(k) != v]
    return out


def resynchronise(replay: Replay, logged: list[dict[str, Any]]) -> None:
    """Give the model's units the values the engine logged, so that one bug is not reported again and again."""
    from ..rulebooks.combat.codec import unit_from_json, unit_to_json

    board = replay.battle.board
    units = []
    for unit in board.units:
        theirs = next((u for u in logged if u.get("uid") == unit.uid), None)
        units.append(unit if theirs is None else unit_from_json("resync", {**unit_to_json(unit), **theirs}))
    replay.battle = dataclasses.replace(replay.battle, board=type(board)(tuple(units)))


# --------------------------------------------------------------------------------------
# The whole trace
# --------------------------------------------------------------------------------------


@dataclass
class _Cursor:
    """Where the replay is: which trace of the file, which action of it."""

    replay: Replay | None = None
    trace: int = 0
    action: int = 0


def validate(lines: Iterator[str], path: str = "trace", keep_going: bool = False,
             progress: Callable[[int], None] | None = None, profile: Profile | None = None) -> ValidateReport:
    """Replay every trace in ``lines`` through the model, comparing what each action line logged (under the
    engine's ``profile``: the features, readings and known divergences of its ``referee.toml``)."""
    report, cursor = ValidateReport(path, profile=profile or Profile()), _Cursor()
    started = time.perf_counter()
    try:
        for number, line in read_lines(lines):
            if "trace" in line:
                cursor = _Cursor(start(number, line, report.profile.readings), cursor.trace + 1, 0)
                report.traces += 1
            elif cursor.replay is None:
                raise TraceError(f"line {number}: an action before any header line")
            elif _check_action(report, cursor, number, line, keep_going) and not keep_going and \
                    any(f.known is None for f in report.found.values()):
                break
            if progress and report.actions % 10_000 == 0:
                progress(report.actions)
    except TraceError as error:
        report.error = f"{path}: {error}"
    report.seconds = time.perf_counter() - started
    return report


def _check_action(report: ValidateReport, cursor: _Cursor, number: int, line: dict[str, Any],
                  keep_going: bool) -> bool:
    """Run one action line and compare what it logged; whether it diverged."""
    replay = cursor.replay
    before_battle = replay.battle
    before, events = step(replay, number, line)
    cursor.action += 1
    report.actions += 1
    found = []
    if "events" in line:
        logged = line["events"]
        if not isinstance(logged, list):
            raise TraceError(f"line {number}.events: expected a list of events")
        logged = [e for e in logged if not isinstance(e, dict) or report.profile.keeps_event(e)]
        report.compared_events += len(logged)
        ours = [e for e in map(event_json, events) if report.profile.keeps_event(e)]
        first = event_divergence(ours, logged, number)
        found += [first] if first else []
    if "board" in line:
        report.compared_fields += sum(len(u) - 1 for u in line["board"] if isinstance(u, dict))
        found += [d for d in board_divergences(replay.battle.board, line["board"], number)
                  if d.path.rsplit(".", 1)[-1] not in report.profile.fields_off]
    for divergence in found:
        _record(report, cursor, before_battle, line["action"], [divergence, *(d for d in found if d is not divergence)])
    if found and keep_going and "board" in line:
        resynchronise(replay, line["board"])
    return bool(found)


def _record(report: ValidateReport, cursor: _Cursor, before: Any, action: dict[str, Any],
            divergences: list[Divergence]) -> None:
    """File the first of an action's divergences under its key (``check``'s group key: the path without unit names);
    explain the first of a key, and name its clause as ``check`` does from the action's divergences."""
    divergence = divergences[0]
    key = group_key(divergence)
    known = report.found.get(key)
    if known is not None:
        known.count += 1
        return
    scenario = _scenario_before(before, action, cursor.replay.rules.to_json())
    steps = _explain(scenario, divergence)
    clause = _clause_named(scenario, divergences) or (steps[-1]["clause"] if steps else None)
    found = Found(key, cursor.trace, cursor.action, divergence, clause, steps)
    found.known = next((entry.reason for entry in report.profile.known if entry.matches(found)), None)
    report.found[key] = found


def _scenario_before(before: Any, action: dict[str, Any], ruleset: dict[str, Any]) -> dict[str, Any]:
    """The action as a scenario on the board before it (the clock's pending revivals are not part of a scenario:
    an ``advance`` that revives is explained without them)."""
    from ..rulebooks.combat.codec import unit_to_json

    return {"protocol": PROTOCOL, "ruleset": ruleset, "board": [unit_to_json(u) for u in before.board.units],
            "actions": [action]}


def _explain(scenario: dict[str, Any], divergence: Divergence) -> list[dict[str, Any]]:
    """The explain steps around the divergence; empty if it cannot be explained."""
    from .grouping.attribution import steps_at_fault

    try:
        return steps_at_fault(scenario, divergence)
    except Exception:  # a courtesy: the divergence is reported without its explanation
        return []


def _clause_named(scenario: dict[str, Any], divergences: list[Divergence]) -> str | None:
    """The clause ``check`` names for the same action and divergence, from the same function
    (:func:`.grouping.api.name_the_fault`); None where neither its key nor a step at fault names one."""
    from .grouping.api import name_the_fault

    return name_the_fault(scenario, divergences)


def profile_from_config(folder: Any = None) -> Profile:
    """The profile of the engine's ``referee.toml`` (or ``[tool.referee]``) in ``folder``, as ``check`` reads it: its
    features (``features``, ``without``), its readings (``ruleset``) and its known divergences (``known``, else a
    ``referee-known.toml`` beside it)."""
    from pathlib import Path

    from .config import load_config
    from .options import VALIDATE
    from ..rulebooks import profile_off, resolve_features

    folder = Path(folder or Path.cwd())
    config = load_config(folder, verb=VALIDATE)
    features = resolve_features(config.words("features"), config.words("without"))
    fields_off, events_off = profile_off(features) if features is not None else (frozenset(), frozenset())
    readings = config.get("ruleset") or {}
    return Profile(frozenset(fields_off), frozenset(events_off), dict(readings), tuple(_known(config, folder)),
                   features)


def _known(config: Any, folder: Any) -> list[Any]:
    from pathlib import Path

    from .grouping.groups import load_known, parse_known

    value = config.get("known")
    if isinstance(value, str):
        return load_known(Path(value))
    if (folder / "referee-known.toml").is_file():
        return load_known(folder / "referee-known.toml")
    return parse_known(value, "referee.toml") if value else []


def report_text(report: ValidateReport) -> str:
    """The report as the command prints it."""
    from ..rulebooks import features_compared

    if report.error:
        return f"referee validate: {report.error}"
    if report.status == "empty":
        return f"referee validate {report.path}: nothing validated: {_nothing_read(report)}"
    verdict = "PASS" if report.status == "pass" else "FAIL"
    out = [f"referee validate {report.path}: {verdict}: {report.actions} actions in {report.traces} trace(s), "
           f"{report.compared_events} events and {report.compared_fields} unit fields compared, "
           f"{len(report.found)} distinct divergence(s) ({report.seconds:.1f} s, "
           f"{report.actions / max(report.seconds, 1e-9):.0f} actions/s); compared: "
           f"{features_compared(report.profile.features, ('combat',))}"]
    from .outcome import describe_steps

    for found in report.found.values():
        out.append(f"  trace {found.trace}, action {found.action} "
                   f"[{found.clause or 'no clause'}]: {found.divergence.describe()}"
                   + (f" ({found.count} actions)" if found.count > 1 else "")
                   + (f" (known: {found.known})" if found.known else ""))
        out += ["  " + line for line in describe_steps(found.explain)]
    return "\n".join(out)


def _nothing_read(report: ValidateReport) -> str:
    """Why a trace with no action line validated nothing."""
    if report.traces == 0:
        return "no header line and no action line (an empty file, or only blank lines)"
    return f"no action line in {report.traces} trace(s), only header lines"


def report_json(report: ValidateReport) -> dict[str, Any]:
    return {"path": report.path, "status": report.status, "error": report.error, "traces": report.traces,
            "actions": report.actions, "compared_events": report.compared_events,
            "compared_fields": report.compared_fields, "seconds": round(report.seconds, 3),
            "divergences": [f.to_json() for f in report.found.values()]}


def trace_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a trace: a header line or an action line (``referee schema trace``)."""
    event = {"type": "object", "properties": {n: {} for n in EVENT_FIELDS}, "additionalProperties": False,
             "description": "an event; only the fields it holds are compared"}
    partial_unit = {"type": "object", "required": ["uid"], "properties": {"uid": {"type": "string"}},
                    "description": "a unit's uid and any of its fields; only the fields it holds are compared"}
    header = {"type": "object", "required": ["trace", "board"], "properties": {
        "trace": {"const": TRACE_FORMAT}, "protocol": {
            "const": PROTOCOL, "description": "optional: a header that leaves it out is read as this protocol"},
        "rulebook": {"const": "combat"},
        "ruleset": {"type": "object"}, "board": {"type": "array", "items": {"type": "object"}}},
        "description": "the start of a match: the starting board (every unit, as in a scenario) and the readings"}
    action = {"type": "object", "required": ["action"], "properties": {
        "action": {"type": "object", "required": ["kind"]},
        "events": {"type": "array", "items": event}, "board": {"type": "array", "items": partial_unit}},
        "additionalProperties": False,
        "description": "one action as the engine ran it, and what it logged of it (events, units: each optional)"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://referee.invalid/schema/trace.schema.json",
            "title": f"referee trace line ({TRACE_FORMAT})",
            "description": "One line of a match log that `referee validate` checks against the model.",
            "oneOf": [header, action]}
