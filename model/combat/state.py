"""The combat state: units on a two-sided board.

State is immutable. Every numeric and Boolean field may hold a Python value or a Z3
term, so the same rule functions run concretely and symbolically (see ``arith``).
Identity and placement (``uid``, ``side``, ``row``, ``col``) are always concrete: the
board's reading order is structure, not arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..arith import or_

#: Board sides. The rules speak of "the caster's side" and "the other half" (800.4c).
SIDES = (0, 1)

Int = Any  # an int, or a Z3 integer term in a symbolic run
Bool = Any  # a bool, or a Z3 Boolean term in a symbolic run


@dataclass(frozen=True)
class Unit:
    """One unit, Tool, Hub or boss on the board, with every field a rule reads."""

    uid: str
    side: int = 0
    row: int = 0
    col: int = 0

    # What the unit is (at most one of these holds; none means an ordinary unit).
    is_tool: Bool = False
    is_hub: Bool = False
    is_boss: Bool = False

    # Life.
    alive: Bool = True
    vitality: Int = 100
    max_vitality: Int = 100

    # Gates (500.1-2, 500.6e, 500.8e).
    dormant: Bool = False
    entrapped: Bool = False

    # Defensive layers, in pipeline order (500.1-4 .. 500.1-12).
    ignore_charges: Int = 0
    armor: Int = 0
    has_cap: Bool = False
    cap: Int = 0
    subrogated: Int = 0
    insurance: Int = 0
    shield: Int = 0
    defy_death: Bool = False

    # Offensive properties read when this unit is the *source* of damage.
    shield_multiplier: Int = 1

    # Damage-over-time adjustment on the recipient (500.1h).
    prismbroken: Bool = False
    rune_tick_reduction: Int = 0
    forge_tick_reduction: Int = 0

    # Retaliation (500.6, 500.7).
    thorns: Int = 0
    riposte: Int = 0
    retort: Int = 0
    reflect: Bool = False

    # Runes that reset on Vitality loss (500.6c, 500.8d).
    adrenaline: Int = 0
    momentum: Int = 0
    bolster: Int = 0

    # Redirects (500.1-11, 500.1f, 500.1g): the uid of the ally that receives the damage.
    redirect_to: str | None = None
    redirect_cap: Int = 0
    intercept_by: str | None = None

    # Recovery (500.3): Maim points, the Forge Core recovery bonus and Exalt, read on the target.
    maim: Int = 0
    forge_core_recovery: Int = 0
    exalt: Int = 0

    # Death and revival (500.4, 500.9).
    deathrattle: Bool = False
    everlasting: Bool = False
    vessels: Int = 0
    # What a revival rebuilds and re-arms (500.9c-g, INT-402). Each default means "nothing
    # changed in this life", so a scenario that omits them means what it meant before.
    armor_change: Int = 0  # net Armor change made in this life (Crush: negative); battle-start Armor = armor - armor_change
    defy_death_spent: Bool = False  # the defy-death rune's once-per-life charge was spent in this life (500.9e)
    everlasting_life_grant: Bool = False  # Everlasting held only by a grant that ends with this life (500.9g)
    charge: Int = 0  # activation charge built so far (500.9d)
    incarnation: Int = 0  # the target incarnation: one more on every revival (500.9f)
    # Revival listeners (500.9h-k) and the Reliquary rune (500.9l).
    hears_phylactery_revival: Bool = False  # a line on its own card naming a Phylactery revival (500.9i)
    hears_everlasting_revival: Bool = False  # a line on its own card naming an Everlasting revival (500.9i)
    hears_ally_revival: Bool = False  # a card listening for an ally reviving (500.9j)
    revival_aims_killer: Bool = False  # its revival listener aims at the killer, not the revived unit (500.9k)
    reliquary: Int = 0  # the Reliquary rune's Speed for its revived bearer (500.9l)
    reliquary_speed: Int = 0  # Reliquary Speed standing until the unit's next activation (500.9l)

    # Bloodletting reduction rune (800.4l), read on the caster.
    bloodletting_reduction: Int = 0

    # Statuses an ability line applies (400.8-6): Burn and Venom stacks (the tick amount,
    # 500.5b), Maim points (500.3d); and the recipient gate an ability reads (400.8-5).
    burn: Int = 0
    venom: Int = 0
    maim: Int = 0
    untargetable: Bool = False

    def evolve(self, **changes: Any) -> Unit:
        """A copy with some fields changed: ``dataclasses.replace`` without re-running ``__init__``.

        The model copies units on every step, and ``replace`` re-initialises all ~40 fields
        each time; copying the instance dictionary is an order of magnitude cheaper.
        """
        unknown = changes.keys() - _UNIT_FIELD_NAMES
        if unknown:
            raise TypeError(f"Unit has no field(s) {sorted(unknown)}")
        copy = object.__new__(Unit)
        state = copy.__dict__
        state.update(self.__dict__)
        state.update(changes)
        return copy

    @classmethod
    def of(cls, values: dict[str, Any]) -> Unit:
        """``Unit(**values)`` (``uid`` required, other fields defaulted) without the frozen ``__init__``.

        Decoding builds several units per scenario, and the generated ``__init__`` sets
        ~60 fields one ``object.__setattr__`` at a time (~28 us); this copies two dicts.
        """
        unknown = values.keys() - _UNIT_FIELD_NAMES
        if unknown or "uid" not in values:
            raise TypeError(f"Unit.of: unknown field(s) {sorted(unknown)}" if unknown else "Unit.of: no uid")
        unit = object.__new__(Unit)
        state = unit.__dict__
        state.update(_UNIT_DEFAULTS)
        state.update(values)
        return unit

    @property
    def discards_combat(self) -> Bool:
        """Tools and Hubs discard every combat interaction (500.1-1, 500.8e, 800.4d)."""
        return or_(self.is_tool, self.is_hub)

    @property
    def position(self) -> tuple[int, int, int]:
        return (self.side, self.row, self.col)


#: The field names of a unit, in declaration order.
UNIT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Unit))
_UNIT_FIELD_NAMES = frozenset(UNIT_FIELDS)
_UNIT_DEFAULTS = {f.name: f.default for f in fields(Unit) if f.name != "uid"}


@dataclass(frozen=True, slots=True)
class Board:
    """All units; the living ones each at a distinct ``(side, row, col)`` cell.

    A dead unit keeps its last cell as a record but holds no slot (INT-403): another unit
    may stand there, and an Everlasting revival may return it elsewhere (500.9a).
    """

    units: tuple[Unit, ...]

    def __post_init__(self) -> None:
        uids = [u.uid for u in self.units]
        if len(set(uids)) != len(uids):
            raise ValueError(f"duplicate unit uid on the board: {sorted(uids)}")
        cells = [u.position for u in self.units if u.alive is not False]
        if len(set(cells)) != len(cells):
            raise ValueError("two living units share a board cell")

    def unit(self, uid: str) -> Unit:
        for u in self.units:
            if u.uid == uid:
                return u
        raise KeyError(f"no unit with uid {uid!r} on the board")

    def has(self, uid: str | None) -> bool:
        if uid is not None:
            for u in self.units:  # a loop, not any(<generator>): called several times per damage instance
                if u.uid == uid:
                    return True
        return False

    def with_unit(self, unit: Unit) -> Board:
        """The board with the unit of the same uid replaced (a unit never changes its cell)."""
        board = object.__new__(Board)
        object.__setattr__(board, "units", tuple(unit if u.uid == unit.uid else u for u in self.units))
        return board

    def with_unit_moved(self, unit: Unit) -> Board:
        """The board with the unit of the same uid replaced, possibly in another cell (500.9a)."""
        return Board(tuple(unit if u.uid == unit.uid else u for u in self.units))

    def in_reading_order(self, side: int) -> tuple[Unit, ...]:
        """One side's units, left to right across each row, then top to bottom (800.4b)."""
        return tuple(sorted((u for u in self.units if u.side == side), key=lambda u: (u.row, u.col)))


def updated(unit: Unit, **changes: Any) -> Unit:
    """A copy of ``unit`` with some fields changed."""
    return unit.evolve(**changes)
