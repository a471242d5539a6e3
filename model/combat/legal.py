"""What a legal combat state is: one definition, for units, boards and actions.

A legal state is one a game can reach. The theorems assume it (and prove every action keeps
it: ``proofs/combat/legality_theorems.py``), the scenario loader refuses anything outside it
by unit, field and clause (``referee/rulebooks/combat/domain.py``), the generator draws only
inside it, and a query searches inside it by default. Each condition is a small predicate
over ints or Z3 terms (written with :mod:`referee.model.arith`) citing the clause it rests on.

Worked example: a unit ``{"alive": true, "vitality": 0, "max_vitality": 0}`` (what an
Interest payment from full Vitality followed by a Vessel revival once produced) breaks
``vitality must be > 0 while alive`` (500.4a): a unit whose Vitality reaches 0 is dead.

Where the model guards against a value on its own (a negative Armor amplifies, 500.2d) the
value stays legal. A printed number (a cap, a multiplier, a count) is never below what the
card can print: those the model used to clamp silently are now refused at the door.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

from ..arith import and_, not_, or_
from .state import Board, Unit

#: The largest board half a scenario may state (rows x columns, INT-403): every unit stands inside it.
MAX_ROWS, MAX_COLS = 8, 8

#: Counters, pools and printed counts that never go below 0 in a reachable state.
NON_NEGATIVE_FIELDS = (
    "shield", "insurance", "subrogated", "ignore_charges", "vessels", "adrenaline", "momentum", "bolster",
    "thorns", "riposte", "retort", "rune_tick_reduction", "forge_tick_reduction",
    "maim", "forge_core_recovery", "exalt", "cap", "redirect_cap", "burn", "venom",
)  # fmt: skip


@dataclass(frozen=True)
class Condition:
    """One condition of a legal unit: the field it is reported on, what it says, the clause it rests on,
    and the predicate (over ints or Z3 terms, written with ``referee.model.arith``)."""

    field: str
    says: str
    holds: Callable[[Unit], Any]
    clause: str = ""


def _non_negative(name: str) -> Condition:
    return Condition(name, "must be >= 0", lambda u: getattr(u, name) >= 0, _NON_NEGATIVE_CLAUSES.get(name, "500.1"))


#: Where the rules print each count (the pipeline step or chapter that reads it).
_NON_NEGATIVE_CLAUSES = {
    "shield": "500.1-10", "insurance": "500.1-9", "subrogated": "500.1-8", "ignore_charges": "500.1-4",
    "vessels": "500.9b", "adrenaline": "500.6c", "momentum": "500.6c", "bolster": "500.6c", "thorns": "500.7b",
    "riposte": "500.7b", "retort": "500.7f", "rune_tick_reduction": "500.1h", "forge_tick_reduction": "500.1h",
    "maim": "500.3d", "forge_core_recovery": "500.3b", "exalt": "500.3f", "cap": "500.1-7",
    "redirect_cap": "500.1-11", "burn": "400.8-6", "venom": "400.8-6",
}  # fmt: skip


def is_living_vitality_positive(u: Unit) -> Any:
    """A living unit has Vitality above 0: one whose Vitality reaches 0 is dead (500.4a)."""
    return or_(not_(u.alive), u.vitality > 0)


def is_living_maximum_positive(u: Unit) -> Any:
    """A living unit's maximum Vitality is above 0 (500.4a: it holds Vitality in (0, max]); only a dead
    unit's maximum may be 0, after an Interest payment from full Vitality (500.8g, INT-120)."""
    return or_(not_(u.alive), u.max_vitality > 0)


#: The domain of a unit, in the order a violation is reported.
UNIT_DOMAIN: tuple[Condition, ...] = (
    Condition("max_vitality", "must be >= 0", lambda u: u.max_vitality >= 0, "500.8g"),
    Condition("max_vitality", "must be > 0 while alive", is_living_maximum_positive, "500.4a"),
    Condition("vitality", "must be > 0 while alive", is_living_vitality_positive, "500.4a"),
    Condition("vitality", "must be <= max_vitality", lambda u: or_(not_(u.alive), u.vitality <= u.max_vitality), "500.3c"),
    Condition("vitality", "must be 0 once dead (alive false)", lambda u: or_(u.alive, u.vitality == 0), "500.4b"),
    *(_non_negative(name) for name in NON_NEGATIVE_FIELDS),
    Condition("shield_multiplier", "must be >= 1 (1: no multiplier printed)", lambda u: u.shield_multiplier >= 1,
              "500.1-10"),
    Condition("is_hub", "a unit is at most one of Tool, Hub and boss (is_tool and is_hub)",
              lambda u: not_(and_(u.is_tool, u.is_hub)), "500.1-1"),
    Condition("is_boss", "a unit is at most one of Tool, Hub and boss (is_tool and is_boss)",
              lambda u: not_(and_(u.is_tool, u.is_boss)), "500.1-1"),
    Condition("is_boss", "a unit is at most one of Tool, Hub and boss (is_hub and is_boss)",
              lambda u: not_(and_(u.is_hub, u.is_boss)), "500.1-1"),
)


def is_legal_unit(u: Unit) -> Any:
    """A legal unit: every condition of :data:`UNIT_DOMAIN` (Vitality in ``(0, max]`` while alive, 0 once dead,
    pools and printed counts non-negative, one role at most)."""
    return and_(*[c.holds(u) for c in UNIT_DOMAIN])


_READ = itemgetter("alive", "vitality", "max_vitality", "is_tool", "is_hub", "is_boss", "shield_multiplier",
                   *NON_NEGATIVE_FIELDS)
_PLAIN_TYPES = (bool, int, int, bool, bool, bool, int, *(int for _ in NON_NEGATIVE_FIELDS))
#: The conditions (field, what it says) :func:`plainly_in_domain` was written for, in order: a test holds
#: :data:`UNIT_DOMAIN` to it, so a condition added there fails that test until the quick form follows.
QUICK_FORM_OF: tuple[tuple[str, str], ...] = tuple((c.field, c.says) for c in UNIT_DOMAIN[:5]) + (
    *((name, "must be >= 0") for name in NON_NEGATIVE_FIELDS),
    ("shield_multiplier", "must be >= 1 (1: no multiplier printed)"),
    ("is_hub", "a unit is at most one of Tool, Hub and boss (is_tool and is_hub)"),
    ("is_boss", "a unit is at most one of Tool, Hub and boss (is_tool and is_boss)"),
    ("is_boss", "a unit is at most one of Tool, Hub and boss (is_hub and is_boss)"),
)


def plainly_in_domain(u: Unit) -> bool:
    """True only when every condition of :data:`UNIT_DOMAIN` holds on ``u``, decided in one pass over a unit
    whose fields are plain ``int`` and ``bool`` (the decoder's case); False when one breaks or a field is of
    another type: then :func:`unit_domain_violation` runs the conditions one by one and names the first.

    A concrete restatement for speed, not a second domain: ``tests/harness/test_harness_domain_quick_form.py``
    holds it to :data:`UNIT_DOMAIN` on drawn units at every boundary.
    """
    try:
        values = _READ(vars(u))  # a Unit keeps its fields in its instance dict (``Unit.of``, ``Unit.evolve``)
    except (TypeError, KeyError):
        return False
    if tuple(map(type, values)) != _PLAIN_TYPES:
        return False
    alive, vitality, top, tool, hub, boss, multiplier = values[:7]
    return (top >= 0 and (0 < vitality <= top if alive else vitality == 0)  # alive: in (0, max]; dead: at 0
            and multiplier >= 1 and min(values[7:]) >= 0 and tool + hub + boss <= 1)


def unit_domain_violation(u: Unit) -> Condition | None:
    """The first condition of :data:`UNIT_DOMAIN` a concrete unit breaks, or None."""
    if plainly_in_domain(u):
        return None
    for condition in UNIT_DOMAIN:
        if condition.holds(u) is not True:
            return condition
    return None


# --------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------

#: The links that must name an ally other than the unit itself (500.1-11, 500.1f).
ALLY_LINKS = ("redirect_to", "intercept_by")


@dataclass(frozen=True)
class Violation:
    """Where a state breaks the definition: the path below the board (``[1].cap``), what it says, the clause."""

    where: str
    says: str
    clause: str


def is_inside_grid(u: Unit) -> bool:
    """The unit stands inside its half: side 0 or 1, row and column inside the largest half (INT-403)."""
    return u.side in (0, 1) and 0 <= u.row < MAX_ROWS and 0 <= u.col < MAX_COLS


def link_violation(board: Board, u: Unit, link: str) -> str | None:
    """Why ``u``'s redirect or intercept link is not legal, or None: it names an ally on the board, not itself
    (500.1-11, 500.1f). The ally may be dead: a receiver the action killed keeps the link standing, and the
    model treats a dead receiver as absent (it receives nothing)."""
    target = getattr(u, link)
    if target is None:
        return None
    if target == u.uid:
        return f"a unit cannot name itself ({target!r})"
    if not board.has(target):
        return f"{target!r} is not on the board"
    if board.unit(target).side != u.side:
        return f"{target!r} is an enemy: it must name an ally"
    return None


def off_grid_field(u: Unit) -> str:
    """The placement field that puts ``u`` outside its half: ``side``, ``row`` or ``col``, the first that does (INT-403)."""
    if u.side not in (0, 1):
        return "side"
    return "row" if not 0 <= u.row < MAX_ROWS else "col"


def board_structure_violation(board: Board) -> Violation | None:
    """The first structural break of a board (placement, links), or None; structure is always concrete."""
    for i, u in enumerate(board.units):
        if not is_inside_grid(u):
            return Violation(f"[{i}].{off_grid_field(u)}", f"{u.uid!r} stands at side {u.side}, row {u.row}, col {u.col}: outside its "
                             f"half (side 0 or 1, rows 0..{MAX_ROWS - 1}, cols 0..{MAX_COLS - 1})", "INT-403")
        for link in ALLY_LINKS:
            why = link_violation(board, u, link)
            if why is not None:
                return Violation(f"[{i}].{link}", why, "500.1-11" if link == "redirect_to" else "500.1f")
    return None


def is_legal_board(board: Board) -> Any:
    """Every unit legal, and the board's structure (cells, links) legal."""
    structure = board_structure_violation(board) is None
    return and_(structure, *[is_legal_unit(u) for u in board.units])


def board_violation(board: Board) -> Violation | None:
    """The first break of a concrete board: a unit's field (with its clause), or its structure; None if legal."""
    for i, u in enumerate(board.units):
        broken = unit_domain_violation(u)
        if broken is not None:
            return Violation(f"[{i}].{broken.field}", f"{broken.says} (got {getattr(u, broken.field)!r})",
                             broken.clause)
    return board_structure_violation(board)


# --------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------

#: The lanes whose source is an activation of a living unit (a dead unit acts as nobody's source, 400.8b).
ACTIVATION_LANES = ("hit", "tremor", "aoe")


@dataclass(frozen=True)
class ActionCondition:
    """One condition of a legal damage action: the field, what it says, the clause, the predicate
    ``holds(board, action)`` (over ints or terms; the action's structure, its lane and source, is concrete)."""

    field: str
    says: str
    clause: str
    holds: Callable[[Board, dict[str, Any]], Any]


def _lane(action: dict[str, Any]) -> str:
    return action.get("damage_kind", "hit")


def _actor_alive(board: Board, action: dict[str, Any]) -> Any:
    source = action.get("source")
    return board.unit(source).alive if _lane(action) in ACTIVATION_LANES and board.has(source) else True


#: A damage instance named by an action (``damage``, ``hit``). An overtime tick has no actor behind it
#: (500.1c); a hit, a Tremor half or an AoE share is dealt by a living unit
#: (a unit killed is gone, 400.8b). A Burn or Venom tick keeps running for an applier that has since died
#: (500.1i, 500.5a, INT-356); a boss Reflect is the model's own answer to a hit (500.7h).
DAMAGE_ACTION_DOMAIN: tuple[ActionCondition, ...] = (
    ActionCondition("source", "an overtime tick has no actor behind it: source must be null", "500.1c",
                    lambda b, a: not (_lane(a) == "overtime" and a.get("source") is not None)),
    ActionCondition("source", "a dead unit deals no hit, Tremor half or AoE share (it is gone)", "400.8b",
                    _actor_alive),
)


def is_legal_damage_action(board: Board, action: dict[str, Any]) -> Any:
    """Every condition of :data:`DAMAGE_ACTION_DOMAIN` holds of the action on ``board``."""
    return and_(*[c.holds(board, action) for c in DAMAGE_ACTION_DOMAIN])


def damage_action_violation(board: Board, action: dict[str, Any],
                            conditions: tuple[ActionCondition, ...] = DAMAGE_ACTION_DOMAIN) -> Violation | None:
    """The first of ``conditions`` a concrete action breaks on ``board`` (the board it runs on), or None."""
    for c in conditions:
        if c.holds(board, action) is not True:
            return Violation(f".{c.field}", f"{c.says} (got {action.get(c.field)!r}, lane {_lane(action)!r})", c.clause)
    return None


# --------------------------------------------------------------------------------------
# The battle clock
# --------------------------------------------------------------------------------------


def is_legal_pending_revival(board: Board, uid: str, died_ms: Any, now_ms: Any) -> Any:
    """A pending Everlasting revival is of a unit on the board that is dead, whose maximum Vitality is above 0
    (only such a death schedules one, INT-120), and that died at or before now (500.4d, 500.9a)."""
    if not board.has(uid):
        return False
    unit = board.unit(uid)
    return and_(not_(unit.alive), unit.max_vitality > 0, died_ms >= 0, died_ms <= now_ms)


# --------------------------------------------------------------------------------------
# The ranges a schema can state
# --------------------------------------------------------------------------------------

#: Each integer field's legal range taken alone, ``(minimum, maximum or None)``: what :data:`UNIT_DOMAIN` and
#: :func:`is_inside_grid` say of one field (``referee schema`` states them; a test holds them to the conditions).
#: A living unit's Vitality and maximum are at least 1, a dead unit's Vitality is 0 (:data:`ALIVE_RANGES`);
#: ``vitality <= max_vitality``, the links and distinct cells compare fields and are stated in words only.
FIELD_RANGES: dict[str, tuple[int, int | None]] = {
    **{name: (0, None) for name in NON_NEGATIVE_FIELDS},
    "max_vitality": (0, None), "vitality": (0, None), "shield_multiplier": (1, None),
    "row": (0, MAX_ROWS - 1), "col": (0, MAX_COLS - 1),
}
#: The ranges that depend on ``alive`` (500.4a): alive, Vitality and maximum at least 1; dead, Vitality 0.
ALIVE_RANGES: dict[bool, dict[str, tuple[int, int | None]]] = {
    True: {"vitality": (1, None), "max_vitality": (1, None)},
    False: {"vitality": (0, 0)},
}
#: The roles a unit holds at most one of (500.1-1: a Tool, a Hub, a boss).
ROLES = ("is_tool", "is_hub", "is_boss")
