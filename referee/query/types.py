"""The names, records and fields a condition may use, generated from the model's own records.

Nothing here is typed twice: unit fields come from :class:`~referee.model.combat.state.Unit`,
outcome fields from :class:`~referee.model.combat.damage.DamageOutcome` and
:class:`~referee.model.combat.bloodletting.BloodlettingOutcome`, event names from
:data:`~referee.model.events.EVENT_NAMES`. ``docs/query.md`` prints these tables
(:func:`reference_markdown`), and a test holds the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from referee.model.combat.state import Unit
from referee.model.events import EVENT_NAMES
from referee.model.play.rules import PlayRules
from referee.model.readings import word_options


class QueryError(ValueError):
    """A condition or query option that is not valid, with the offending part named."""


#: The units of a query board, by role (their uids are these names).
ROLES = ("target", "source", "receiver", "interceptor", "ally")
ROLE_NOTES = {
    "target": "the recipient of the damage (side 0)",
    "source": "the unit dealing it (an enemy on side 1 unless the space says ally, self or none)",
    "receiver": "the recipient's ally redirect receiver (500.1-11): `target.redirect_to`",
    "interceptor": "the recipient's lethal-damage interceptor (500.1f): `target.intercept_by`",
    "ally": "the source's ally, beside it (an ability's caster's ally; the third unit of an ability query)",
}
#: Unit fields that are structure, not values: not readable in a condition.
STRUCTURE_FIELDS = ("uid", "row", "col", "redirect_to", "intercept_by")


def unit_fields() -> dict[str, str]:
    """Every readable unit field and its type (Int or Bool), in declaration order."""
    out = {}
    for f in fields(Unit):
        if f.name in STRUCTURE_FIELDS:
            continue
        out[f.name] = "Bool" if isinstance(f.default, bool) else "Int"
    return out


def outcome_fields() -> dict[str, str]:
    """The flat fields of a damage instance's outcome (500.1), Int or Bool."""
    from referee.model.combat.damage import OUTCOME_FIELDS, DamageOutcome

    hints = {name: _annotation_name(hint) for name, hint in DamageOutcome.__annotations__.items()}
    return {name: hints[name] for name in OUTCOME_FIELDS if hints[name] in ("Int", "Bool")}


def _annotation_name(hint: Any) -> str:
    """A field's annotation as written: a named tuple keeps ``ForwardRef('Int')`` where a dataclass keeps ``'Int'``."""
    return getattr(hint, "__forward_arg__", None) or str(hint)


def bloodletting_fields() -> dict[str, str]:
    """The fields of a Bloodletting step's outcome (800.4)."""
    from referee.model.combat.bloodletting import BloodlettingOutcome

    hints = BloodlettingOutcome.__annotations__
    return {name: str(hints[name]) for name in BloodlettingOutcome.__slots__ if str(hints[name]) in ("Int", "Bool")}


#: What each query action kind exposes: field -> type.
def action_fields(kind: str) -> dict[str, str]:
    if kind in ("damage", "hit"):
        return {"amount": "Int", "allows_dormant": "Bool", "outcome": "outcome"}
    if kind == "cost":
        return {"amount": "Int", "paid": "Int"}
    if kind == "armor_debuff":
        return {"amount": "Int"}
    if kind == "bloodletting":
        return {"cost": "Int", "amount": "Int", "allows_dormant": "Bool", "outcome": "outcome",
                "bloodletting": "bloodletting"}
    from .kinds import QUERY_KINDS

    if kind in QUERY_KINDS:
        return dict(QUERY_KINDS[kind].fields)
    raise QueryError(f"no query support for action kind {kind!r}")


@dataclass
class Schema:
    """What a condition may name in one query: names, records, events, units, the number of actions."""

    names: dict[str, str]
    records: dict[str, dict[str, str]]
    events: tuple[str, ...] = tuple(EVENT_NAMES)
    units: tuple[str, ...] = ROLES
    actions: int = 1
    notes: dict[str, str] = field(default_factory=dict)


ORDINALS = ("first", "second", "third", "fourth")


def make_schema(kinds: tuple[str, ...] = ("hit",), units: tuple[str, ...] = ROLES, split: bool = False) -> Schema:
    """The schema of a query over ``kinds`` in order, on a board of ``units``."""
    unit_record = unit_fields()
    records: dict[str, dict[str, str]] = {
        "unit": unit_record,
        "state": {u: "unit" for u in units},
        "states": {u: "unit" for u in units},
        "outcome": outcome_fields(),
        "bloodletting": bloodletting_fields(),
        "actions": {},
    }
    from .kinds import QUERY_KINDS

    for kind in QUERY_KINDS.values():
        records.update(kind.records)
    names: dict[str, str] = {}
    notes: dict[str, str] = {}
    for u in units:
        names[u] = "unit"
        notes[u] = ROLE_NOTES[u] + ", before the actions"
    for u in units:
        names[f"{u}_after"] = "unit"
        notes[f"{u}_after"] = f"`{u}` after the last action"
    names["before"], notes["before"] = "state", "the board before the actions (`before.target`...)"
    names["after"], notes["after"] = "states", "the board after the last action; `after[i]` after action i"
    names["actions"], notes["actions"] = "actions", "the actions in order: `actions[0]`, `actions[1]`..."
    for i, kind in enumerate(kinds):
        records[f"action:{kind}"] = action_fields(kind)
        if i < len(ORDINALS):
            names[ORDINALS[i]] = f"action:{kind}"
            notes[ORDINALS[i]] = f"`actions[{i}]` (a `{kind}`)"
    first = records[f"action:{kinds[0]}"]
    if "amount" in first:
        names["amount"], notes["amount"] = "Int", "`actions[0].amount`"
    if "outcome" in first:
        names["outcome"], notes["outcome"] = "outcome", "`actions[0].outcome`: what the pipeline did"
    if split:
        names["single"], notes["single"] = f"action:{kinds[0]}", "the one action of the split comparison"
        names["single_after"], notes["single_after"] = "state", "the board after `single`, from the same `before`"
    return Schema(names, records, units=units, actions=len(kinds), notes=notes)


def default_schema() -> Schema:
    return make_schema()


def reference_markdown() -> str:
    """The tables of docs/query.md: names, unit fields, outcome fields, action fields, events."""
    schema = make_schema(("hit", "hit"), split=True)
    out = ["| name | type | what |", "|---|---|---|"]
    for name, kind in schema.names.items():
        out.append(f"| `{name}` | {kind} | {schema.notes.get(name, '')} |")
    out += ["", "Unit fields (every unit record): " + ", ".join(f"`{k}` ({v})" for k, v in unit_fields().items()) + "."]
    out += ["", "Outcome fields (`outcome`, `actions[i].outcome`): "
            + ", ".join(f"`{k}` ({v})" for k, v in outcome_fields().items()) + "."]
    out += ["", "Bloodletting fields (`actions[i].bloodletting`): "
            + ", ".join(f"`{k}` ({v})" for k, v in bloodletting_fields().items()) + "."]
    out += ["", "Action fields, by kind:"]
    from .kinds import LINE_NOTES, MAX_LINES, QUERY_KINDS

    for kind in ("damage", "hit", "cost", "armor_debuff", "bloodletting", *QUERY_KINDS):
        shown = {k: v for k, v in action_fields(kind).items() if not (k.startswith("line") and k != "line0")}
        out.append(f"- `{kind}`: " + ", ".join(f"`{k}` ({v})" for k, v in shown.items())
                   + (f" .. `line{MAX_LINES - 1}` (line), one per printed line" if kind == "ability" else ""))
        if kind in QUERY_KINDS and kind != "ability":
            out += [f"  - `{k}`: {note}" for k, note in QUERY_KINDS[kind].notes.items()]
    out += ["", "Line fields (`first.line0`, ... of an `ability`, by printed position):"]
    out += [f"- `{k}` ({v}): {LINE_NOTES[k]}" for k, v in QUERY_KINDS["ability"].records["line"].items()]
    out += ["", "Event names (`event(...)`, `count(...)`): " + ", ".join(f"`{e}`" for e in EVENT_NAMES) + "."]
    return "\n".join(out)


def value_type(value: Any) -> str:
    return "Bool" if isinstance(value, bool) else "Int"


#: The play rulebook's options (PLAY-003, PLAY-020...), each with its readings, the default first.
PLAY_OPTIONS = word_options(PlayRules)
