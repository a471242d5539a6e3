"""400.8-1, 400.8-2 The ability language: printed lines as data, and the lane each line lands in.

An :class:`Ability` is its printed lines in printed order plus the card's numbers. Each
:class:`Line` is one printed line:

* ``effect``: the keyword it applies (:data:`EFFECTS`): ``damage`` (the hit), ``burn``,
  ``venom``, ``maim``, ``cull``, ``crush``, ``restore`` or ``bloodletting``;
* ``amount``: an :class:`Amount`, a literal or a card number (``{power}``, 400.2);
* ``kind``: ``keyword``, ``rider``, ``conditional_rider`` or ``passive`` (400.8-1);
* ``lane``: the lane the card prints (``activation``, ``before_hit``, ``hit``,
  ``after_hit``), or ``None`` for the keyword's own lane (400.8-2, INT-201);
* ``to``: the recipients: ``target`` (the ability's targets), ``caster``, ``allies`` (the
  caster's side, the caster excluded) or ``enemies`` (the other side), INT-205;
* ``per``: an optional "per" count (:data:`PER_COUNTS`), sampled when the line resolves (400.3);
* ``condition``: the condition of a conditional rider (:data:`CONDITIONS`), checked when it resolves (400.4).

Worked example (the seed's)::

    Ability((
        Line("damage", amount("{power}"), "keyword", "hit"),
        Line("burn", amount("{burn_amount}"), "rider", "after_hit"),
        Line("restore", amount("{heal_amount}"), "rider", "after_hit", to="allies", per="burning_enemy"),
    ), numbers=(("power", 30), ("burn_amount", 4), ("heal_amount", 6)))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..clauses import combat
from .ruleset import DEFAULT, Ruleset

#: The lanes of one activation, in the order they resolve (400.7, 400.8-2).
LANES = ("activation", "before_hit", "hit", "after_hit")
#: What a printed line may be (400.8-1).
LINE_KINDS = ("keyword", "rider", "conditional_rider", "passive")
#: The keywords a line may apply (the ones the seeds use, 400.8-6).
EFFECTS = ("damage", "burn", "venom", "maim", "cull", "crush", "restore", "bloodletting")
#: Lanes a keyword always lands in, whatever the card prints (400.8-2, 800.4a, INT-201).
FORCED_LANES = {"crush": "before_hit", "maim": "after_hit", "cull": "after_hit", "bloodletting": "activation"}
#: The lane of a line that prints none (INT-201): damage is the hit; any other line lands after it by default
#: (``unlaned_rider_lane``, :func:`place_unlaned_line`).
DEFAULT_LANES = {"damage": "hit"}
DEFAULT_LANE = "after_hit"
#: Who a line can reach (INT-205).
RECIPIENTS = ("target", "caster", "allies", "enemies")
#: The "per" counts: which units are counted (400.3, INT-203).
PER_COUNTS = ("burning_enemy", "venomed_enemy", "maimed_enemy", "enemy", "ally")
#: The conditions a conditional rider may print (400.4, INT-204).
CONDITIONS = ("target_alive", "target_burning", "enemy_burning", "caster_damaged")

_NUMBER_REF = re.compile(r"^\{([a-z_][a-z0-9_]*)\}$")


@dataclass(frozen=True, slots=True)
class Amount:
    """A printed amount: a literal ``value``, or the card number named ``ref`` (400.2)."""

    value: int = 0
    ref: str | None = None

    def __str__(self) -> str:
        return f"{{{self.ref}}}" if self.ref is not None else str(self.value)


def amount(text: str | int) -> Amount:
    """An amount from its printed form: ``"{power}"`` or a literal (``12``, ``"12"``)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return Amount(text)
    match = _NUMBER_REF.match(str(text).strip())
    if match:
        return Amount(0, match.group(1))
    try:
        return Amount(int(str(text)))
    except ValueError:
        raise ValueError(f"ability amount {text!r}: expected an integer or a card number such as '{{power}}'") from None


@dataclass(frozen=True, slots=True)
class Line:
    """One printed line of an ability (400.8-1)."""

    effect: str
    amount: Amount = Amount()
    kind: str = "rider"
    lane: str | None = None
    to: str = "target"
    per: str | None = None
    condition: str | None = None

    def __post_init__(self) -> None:
        check_line(self)


@dataclass(frozen=True, slots=True)
class Ability:
    """A printed ability: its lines in printed order and the card's numbers (``(name, value)`` pairs)."""

    lines: tuple[Line, ...]
    numbers: tuple[tuple[str, int], ...] = ()
    name: str = ""

    def number(self, name: str) -> int:
        for key, value in self.numbers:
            if key == name:
                return value
        known = ", ".join(k for k, _ in self.numbers) or "none"
        raise ValueError(f"ability {self.name or '?'}: no card number {{{name}}} (known: {known})")


def _one_of(what: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"ability line: {what} {value!r} is not one of {', '.join(allowed)}")


@combat.implements("400.8-1")
def check_line(line: Line) -> None:
    """A line is a keyword, a rider, a conditional rider (with its condition) or a Passive (400.8-1)."""
    _one_of("effect", line.effect, EFFECTS)
    _one_of("kind", line.kind, LINE_KINDS)
    _one_of("recipient", line.to, RECIPIENTS)
    if line.lane is not None:
        _one_of("lane", line.lane, LANES)
    if line.per is not None:
        _one_of("per count", line.per, PER_COUNTS)
    if (line.kind == "conditional_rider") != (line.condition is not None):
        raise ValueError("ability line: a conditional rider, and only one, prints a condition")
    if line.condition is not None:
        _one_of("condition", line.condition, CONDITIONS)


@combat.implements("400.8-1")
def is_resolving_line(line: Line) -> bool:
    """A Passive is a standing effect, not part of the activation; every other line resolves (400.8-1, INT-202)."""
    return line.kind != "passive"


@combat.implements("400.8-2")
def place_line(line: Line, ruleset: Ruleset = DEFAULT) -> str:
    """The lane a line lands in: Crush always before the hit, Maim and Cull always after (400.8-2, INT-201)."""
    if line.effect in FORCED_LANES:
        return FORCED_LANES[line.effect]
    if line.lane is not None:
        return line.lane
    return DEFAULT_LANES.get(line.effect) or place_unlaned_line(ruleset)


@combat.implements("400.8-2")
def place_unlaned_line(ruleset: Ruleset) -> str:
    """The lane of a line other than damage that prints none: after the hit, riding on its result
    (``unlaned_rider_lane = after_hit``, the default), or in the hit lane with the damage, in printed order (``hit``)
    (400.8-2, INT-201). A lane is structure: on a symbolic reading this ``if`` forks the query, one run per reading."""
    if ruleset.unlaned_rider_lane == "hit":
        return "hit"
    return DEFAULT_LANE


def has_bloodletting_cost(ability: Ability) -> bool:
    """Whether the ability pays a Bloodletting cost: a line that is not a Passive carries one (800.4a, 400.8-1).
    Untagged: which lines a text prints is structure, not a rule applied (the clause trail is unchanged)."""
    return any(line.effect == "bloodletting" and line.kind != "passive" for line in ability.lines)


@combat.implements("400.8-2", "800.4a")
def compute_resolution_order(ability: Ability, ruleset: Ruleset = DEFAULT) -> tuple[int, ...]:
    """The lines' indexes in resolution order: lane by lane, a cost first in its lane, else printed order (INT-201)."""
    resolving = [i for i, line in enumerate(ability.lines) if is_resolving_line(line)]

    def key(i: int) -> tuple[int, int, int]:
        line = ability.lines[i]
        return (LANES.index(place_line(line, ruleset)), 0 if line.effect == "bloodletting" else 1, i)

    return tuple(sorted(resolving, key=key))


@combat.implements("400.8-3")
def resolve_printed_amount(ability: Ability, printed: Amount) -> int:
    """A line's base amount from the card's numbers: a literal, or the named number (400.8-3, INT-206)."""
    return printed.value if printed.ref is None else ability.number(printed.ref)
