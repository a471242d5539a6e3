"""The search space of a query: boards, actions and ruleset readings, built on symbols or values.

One *cell* of the space is a concrete structure (which units stand where, whom the source
is to the recipient, each action's kind and unit slots) and a concrete reading of every
ruleset option the model reads for it. Inside a cell every number and flag is a variable:
each unit field the actions read, each action's amount and flags, Riposte's rolls and the
``defy_death_leaves`` option. The model is run once on those variables (the single-source
encoding) and the same code, run on the values of a witness, replays it.

The board always holds the recipient ``target`` at (0, 0, 0); ``receiver`` and
``interceptor`` are its allies at (0, 0, 1) and (0, 0, 2) with ``target.redirect_to`` and
``target.intercept_by`` naming them; ``source`` stands at (1, 0, 0), or at (0, 1, 0) when it
is the recipient's ally. A board of fewer units is covered: a dead receiver or interceptor
receives nothing and hears nothing (500.1f, 500.1-11, 500.4c), exactly as an absent one,
and :mod:`.minimize` removes the units a witness does not need.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board, Unit
from referee.model.events import EventLog
from referee.model.readings import word_options

from .kinds import QUERY_KINDS
from .types import ROLES, QueryError

#: How the source of a damage action stands to the recipient.
SOURCE_RELATIONS = ("enemy", "ally", "self", "none")
#: Riposte rolls given to each damage action: one per answering outcome (recipient,
#: interceptor, receiver) and attacker, so a single-source hit never needs more.
ROLLS_PER_HIT = 3
#: Every ruleset option whose readings are words, from the Ruleset's own declaration (default first).
ENUM_OPTIONS = word_options(Ruleset)
KIND_SLOTS = {
    "damage": {"target": "target", "source": "source"},
    "hit": {"target": "target", "source": "source"},
    "cost": {"payer": "target", "beneficiary": "source", "cost_kind": "bloodletting"},
    "armor_debuff": {"target": "target", "debuff": "crush"},
    "bloodletting": {"caster": "target", "target": "source"},
    **{name: dict(kind.slots) for name, kind in QUERY_KINDS.items()},
}
#: The cells of the roles: the recipient and its allies on side 0, the source and its ally on side 1.
CELLS = {"target": (0, 0, 0), "receiver": (0, 0, 1), "interceptor": (0, 0, 2), "source": (1, 0, 0), "ally": (1, 0, 1)}
#: The row a full half's recipient stands in: the first outside the default 2 x 4 slots (500.9a, INT-403).
FULL_HALF_ROW = 2
#: The roles of a board of N units, in the order they join: the first N (an ability's caster's ally comes third).
ROLE_ORDER = ROLES[:4]
ABILITY_ROLE_ORDER = ("target", "source", "ally", "receiver", "interceptor")


def cells_for(relation: str) -> dict[str, tuple[int, int, int]]:
    """Each role's cell: an ally source and its ally stand on the recipient's side, row 1."""
    if relation == "ally":
        return {**CELLS, "source": (0, 1, 0), "ally": (0, 1, 1)}
    return dict(CELLS)


def present_roles(units: int, specs: tuple[Any, ...]) -> tuple[str, ...]:
    """The roles of a board of ``units`` units for these actions."""
    order = ABILITY_ROLE_ORDER if any(s.kind in QUERY_KINDS for s in specs) else ROLES
    return order[:units]


@dataclass(frozen=True)
class ActionSpec:
    """One action of the query: its kind, its unit slots and its fixed choices (a damage kind...)."""

    kind: str
    slots: tuple[tuple[str, str], ...]
    damage_kind: str = "hit"

    def slot(self, name: str) -> str:
        return dict(self.slots)[name]

    def describe(self) -> str:
        if self.kind in QUERY_KINDS:
            extra = [f"{k}={v}" for k, v in self.slots if v != "" or k == "targets"]
            return f"{self.kind}({', '.join(extra)})" if extra else self.kind
        extra = [f"{k}={v}" for k, v in self.slots if KIND_SLOTS[self.kind].get(k) != v]
        if self.kind in ("damage", "hit", "bloodletting") and self.damage_kind != "hit":
            extra.append(f"damage_kind={self.damage_kind}")
        return self.kind + (f"({', '.join(extra)})" if extra else "")


def parse_action(text: str, damage_kind: str = "hit") -> ActionSpec:
    """``hit``, ``cost:payer=source,cost_kind=interest``, ``damage:damage_kind=burn`` to an ActionSpec."""
    from referee.model.combat import armor, costs
    from referee.model.combat.damage import DAMAGE_KINDS

    kind, _, rest = text.strip().partition(":")
    if kind not in KIND_SLOTS:
        raise QueryError(f"--action {text!r}: unknown kind {kind!r} (known: {', '.join(KIND_SLOTS)})")
    slots = dict(KIND_SLOTS[kind])
    if kind in QUERY_KINDS:
        for item in filter(None, (p.strip() for p in rest.split(","))):
            name, sep, value = item.partition("=")
            if not sep or name not in slots:
                raise QueryError(f"--action {text!r}: {item!r} is not slot=value (slots: {', '.join(slots)})")
            try:
                slots[name] = QUERY_KINDS[kind].check(name, value.strip())
            except ValueError as error:  # kinds.SlotError
                raise QueryError(f"--action {text!r}: {error}") from None
        return ActionSpec(kind, tuple(slots.items()))
    for item in filter(None, (p.strip() for p in rest.split(","))):
        name, sep, value = item.partition("=")
        if name == "damage_kind" and kind in ("damage", "hit", "bloodletting"):
            damage_kind = value
            continue
        if not sep or name not in slots:
            raise QueryError(f"--action {text!r}: {item!r} is not slot=value (slots: {', '.join(slots)})")
        allowed = {"cost_kind": costs.COST_KINDS, "debuff": armor.ARMOR_SHREDDING_DEBUFFS + armor.NON_ARMOR_DEBUFFS}
        choices = allowed.get(name, ROLES + (("none",) if name in ("source", "beneficiary") else ()))
        if value not in choices:
            raise QueryError(f"--action {text!r}: {name}={value!r} is not one of {', '.join(choices)}")
        slots[name] = value
    if damage_kind not in DAMAGE_KINDS:
        raise QueryError(f"--kind {damage_kind!r}: not a damage kind (known: {', '.join(DAMAGE_KINDS)})")
    return ActionSpec(kind, tuple(slots.items()), damage_kind)


@dataclass(frozen=True)
class Layout:
    """The structure of one cell: the board's units and how the source stands to the recipient."""

    units: tuple[str, ...]
    relation: str  # enemy | ally | self | none
    #: Unit fields fixed to concrete values: ``(uid, field, value)``.
    pins: tuple[tuple[str, str, Any], ...] = ()
    #: The features left out (``--without``): their fields pinned at their defaults on every unit.
    off: frozenset[str] = frozenset()
    #: Each action's structural choice (an ability's printed lines), ``None`` for a kind without any.
    structures: tuple[Any, ...] = ()
    #: A full half (:func:`with_full_half`): the recipient outside its side's slots, bystanders in the rest.
    full_half: bool = False

    def structure(self, index: int) -> Any:
        return self.structures[index] if index < len(self.structures) else None

    def source_uid(self) -> str | None:
        return {"enemy": "source", "ally": "source", "self": "target", "none": None}[self.relation]


def layouts(units: int, actions: tuple[ActionSpec, ...], relations: tuple[str, ...] = SOURCE_RELATIONS,
            off: frozenset[str] = frozenset(), full_half: bool = False) -> list[Layout]:
    """The structures of a board of up to ``units`` units (the first roles), enemy source first; with
    ``full_half``, each again on a full half (:func:`with_full_half`).

    With features ``off``, every unit's fields of those features are pinned at their defaults, and a
    layout whose own pins need one of them on (a boss Bloodletting caster without ``boss``) is dropped.
    """
    out = open_layouts(units, actions, relations, off)
    return out + [with_full_half(layout) for layout in out] if full_half else out


def open_layouts(units: int, actions: tuple[ActionSpec, ...], relations: tuple[str, ...],
                 off: frozenset[str]) -> list[Layout]:
    """The structures of a board of up to ``units`` units, each in a cell of its own of the 2 x 4 half."""
    if not 2 <= units <= len(ROLES):
        raise QueryError(f"--units {units}: a query board has 2 to {len(ROLES)} units")
    present = present_roles(units, actions)
    for spec in actions:
        if spec.kind in QUERY_KINDS:
            missing = [r for r in QUERY_KINDS[spec.kind].roles(spec) if r not in present]
            if missing:
                raise QueryError(f"--action {spec.describe()}: {', '.join(missing)} is not on a board of {units} "
                                 f"units ({', '.join(present)}); raise --units")
    uses_source = any(a.kind in ("damage", "hit") for a in actions)
    chosen = relations if uses_source else ("enemy", "ally")
    choices = [QUERY_KINDS[a.kind].structures(a) if a.kind in QUERY_KINDS else (None,) for a in actions]
    out = [Layout(present, r, structures=tuple(picked)) for r in chosen for picked in itertools.product(*choices)]
    return [layout for layout in (without_features(layout, off) for layout in out) if layout is not None] if off else out


#: The kinds whose recipients or payer are searched over the board in reading order: a full half's bystanders would
#: be among them, so a query with one is not searched on a full half.
SEARCHES_THE_BOARD = ("ability", "bloodletting")


def searches_full_half(specs: tuple[ActionSpec, ...], fixed: dict[str, Any]) -> bool:
    """Whether the space holds full halves: a clock query that may read ``reading_order`` (the one reading under
    which a try can wait for a slot, 500.9a, INT-404), with no action that searches the board."""
    return (uses_clock(specs) and fixed.get("everlasting_slot_order") != "death_cell_first"
            and not any(s.kind in SEARCHES_THE_BOARD for s in specs))


def with_full_half(layout: Layout) -> Layout:
    """The layout on a full half (500.9a): the recipient stands outside its side's 2 x 4 slots (row 2, a cell a
    scenario may state, INT-403) and bystanders hold every slot no role holds, so its Everlasting try waits under
    ``reading_order``. Only the recipient may be Everlasting on that side (``check_tries_in_order``)."""
    cells = cells_for(layout.relation)
    pins = [(uid, "everlasting", False) for uid in layout.units if uid != "target" and cells[uid][0] == 0]
    return replace(layout, full_half=True, pins=layout.pins + tuple(pins))


def full_half_words(specs: tuple[ActionSpec, ...], fixed: dict[str, Any]) -> str:
    """What the space says of full halves: searched (and how), or why not."""
    if not uses_clock(specs):
        return ""
    if searches_full_half(specs, fixed):
        return (f"; each board also on a full half: the recipient at row {FULL_HALF_ROW} (outside side 0's 2 x 4 "
                "slots), bystanders (units at their defaults) in every slot no role holds, the recipient the one "
                "unit of side 0 that may be Everlasting; elsewhere each unit stands in a slot of its own")
    why = ("everlasting_slot_order=death_cell_first never delays a try" if
           fixed.get("everlasting_slot_order") == "death_cell_first" else
           "a board searched in reading order (ability, bloodletting) is not searched with bystanders")
    return f"; no full half ({why}): each unit in a slot of its own, so a slot is always free and no try is delayed"


def role_cells(layout: Layout) -> dict[str, tuple[int, int, int]]:
    """Each role's cell on this layout's board (a full half's recipient outside the slots)."""
    cells = cells_for(layout.relation)
    return {**cells, "target": (0, FULL_HALF_ROW, 0)} if layout.full_half else cells


def bystanders(layout: Layout) -> tuple[Unit, ...]:
    """A full half's bystanders: ordinary units at their defaults, one in each slot of side 0 no role holds."""
    from referee.model.combat.battle import DEFAULT_COLS, DEFAULT_ROWS

    held = {role_cells(layout)[uid] for uid in layout.units}
    free = [(0, r, c) for r in range(DEFAULT_ROWS) for c in range(DEFAULT_COLS) if (0, r, c) not in held]
    return tuple(Unit(f"bystander{k}", side=side, row=row, col=col) for k, (side, row, col) in enumerate(free))


def without_features(layout: Layout, off: frozenset[str]) -> Layout | None:
    """The layout with the fields of the features ``off`` pinned at their defaults (None: its pins need one on)."""
    from referee.rulebooks.combat.codec import UNIT_DEFAULTS
    from referee.rulebooks.combat.features import off_fields

    pins = dict(((uid, name), value) for uid, name, value in layout.pins)
    for uid in layout.units:
        for name in sorted(off_fields(off)):
            if pins.setdefault((uid, name), UNIT_DEFAULTS[name]) != UNIT_DEFAULTS[name]:
                return None
    return replace(layout, pins=tuple((uid, name, value) for (uid, name), value in pins.items()), off=off)


def check_features_off(specs: tuple[ActionSpec, ...], off: frozenset[str]) -> None:
    """A query whose own actions use a feature left out is a contradiction, not an empty space."""
    from referee.rulebooks.combat.features import FEATURES

    for spec in specs:
        for name in sorted(off):
            if spec.kind in ("damage", "hit", "bloodletting") and spec.damage_kind in FEATURES[name].lanes:
                raise QueryError(f"the damage kind {spec.damage_kind!r} is the feature {name!r}, which --without leaves out")


def off_values(off: frozenset[str]) -> str:
    """What leaving the features ``off`` out fixes, in words: ``shield=0, armor>=0, allows_dormant=false``."""
    import json

    from referee.rulebooks.combat.codec import UNIT_DEFAULTS
    from referee.rulebooks.combat.features import off_fields

    words = [f"{name}={json.dumps(UNIT_DEFAULTS[name])}" for name in sorted(off_fields(off))]
    words += ["armor>=0"] * ("negative_armor" in off) + ["allows_dormant=false"] * ("dormant" in off)
    return ", ".join(words) or "nothing a query reaches"


def space_words(whole_domain: bool) -> str:
    """Which states a verdict ranges over: the legal ones (the default), or every encoded value."""
    if whole_domain:
        return "; the whole encoded domain (--whole-domain): illegal states included"
    return "; legal states only (referee.model.combat.legal)"


def damage_action_shape(spec: ActionSpec, layout: Layout) -> dict[str, Any]:
    """A damage or hit action's lane and source, as :func:`json_action` writes them (structure: concrete); a
    Bloodletting activation's hit has its caster as source (800.4a)."""
    if spec.kind == "bloodletting":
        return {"kind": "hit", "damage_kind": spec.damage_kind, "source": spec.slot("caster")}
    source = layout.source_uid()
    if spec.slot("source") != "source":
        source = None if spec.slot("source") == "none" else spec.slot("source")
    return {"kind": spec.kind, "damage_kind": spec.damage_kind, "source": source}


def is_legal_run(run: Any, specs: tuple[ActionSpec, ...], layout: Layout) -> Any:
    """The query space: the board before the actions is a legal state and each damage action a legal action on it
    (``referee.model.combat.legal``: the one definition the loader and the theorems use), so every witness is a
    state a game can reach. A unit dead on that board stays dead through the actions (nothing is pending at 0 ms)."""
    from referee.model.arith import and_
    from referee.model.combat.legal import is_legal_board, is_legal_damage_action

    actions = [damage_action_shape(spec, layout) for spec in specs if spec.kind in ("damage", "hit", "bloodletting")]
    return and_(is_legal_board(run.before), *[is_legal_damage_action(run.before, a) for a in actions])


def features_legal(layout: Layout, units: Any) -> Any:
    """What the features left out require of the units beyond their pinned fields (no Armor below 0)."""
    from referee.model.arith import and_

    return and_(*[u.armor >= 0 for u in units]) if "negative_armor" in layout.off else True


def build_board(v: Any, layout: Layout) -> Board:
    """The board of a layout, its fields read from ``v`` (a :class:`~referee.proofs.core.Vars`)."""
    from referee.proofs.combat.symbolic import symbolic_unit

    units = layout.units
    cells = role_cells(layout)
    built = []
    for uid in units:
        side, row, col = cells[uid]
        links = {"redirect_to": None, "intercept_by": None}
        if uid == "target":
            links = {"redirect_to": "receiver" if "receiver" in units else None,
                     "intercept_by": "interceptor" if "interceptor" in units else None}
        pinned = {name: value for who, name, value in layout.pins if who == uid}
        built.append(symbolic_unit(v, uid, side=side, row=row, col=col, **{**links, **pinned}))
    return Board(tuple(built) + (bystanders(layout) if layout.full_half else ()))


# --------------------------------------------------------------------------------------
# Ruleset readings, explored lazily: only the options the model reads are enumerated
# --------------------------------------------------------------------------------------


class NeedOption(Exception):
    """The model read a ruleset option this cell has not chosen yet (the search without merged readings)."""

    def __init__(self, name: str) -> None:
        self.name = name


class ReadingRuleset:
    """A ruleset that answers the chosen options and, for the rest, a :class:`~referee.model.readings.SymbolicReading`
    (``merge``: one formula over every reading) or :class:`NeedOption` (one cell per reading)."""

    def __init__(self, chosen: dict[str, str], leaves: Any, v: Any = None, merge: bool = False) -> None:
        object.__setattr__(self, "_chosen", chosen)
        object.__setattr__(self, "_vars", v if merge else None)
        object.__setattr__(self, "symbolic_readings", {})
        object.__setattr__(self, "defy_death_leaves", leaves)

    def __getattr__(self, name: str) -> Any:
        chosen = object.__getattribute__(self, "_chosen")
        if name in chosen:
            return chosen[name]
        if name not in ENUM_OPTIONS:
            raise AttributeError(name)
        v = object.__getattribute__(self, "_vars")
        if v is None:
            raise NeedOption(name)
        return self.symbolic_readings.setdefault(name, symbolic_reading(v, name))


def symbolic_reading(v: Any, name: str) -> Any:
    """The option ``name`` as a solver variable over its readings (``reading.<name>``: a Bool for two readings)."""
    from referee.model.readings import reading_variable

    return reading_variable(v, name, ENUM_OPTIONS[name])


def readings_domain(symbolic_readings: dict[str, Any]) -> Any:
    """An Int-indexed reading ranges over its readings' indices (a Bool needs nothing)."""
    from referee.model.arith import and_

    return and_(*[and_(r.term >= 0, r.term < len(r.readings)) for r in symbolic_readings.values()
                  if len(r.readings) > 2])


def readings_of(symbolic_readings: dict[str, Any], values: dict[str, Any]) -> dict[str, str]:
    """The concrete reading of each symbolic option in a witness's values (absent: the default, as Vars does)."""
    from referee.model.readings import READING_PREFIX

    out = {}
    for name, reading in symbolic_readings.items():
        value = values.get(READING_PREFIX + name, False)
        out[name] = reading.readings[int(value)]
    return out


def concrete_ruleset(chosen: dict[str, str], leaves: int) -> Ruleset:
    """The protocol ruleset of a cell: chosen readings, defaults for the options never read."""
    return Ruleset(**{**DEFAULT.to_json(), **chosen, "defy_death_leaves": leaves})


# --------------------------------------------------------------------------------------
# Running the actions: each kind through the model, with its record for the condition
# --------------------------------------------------------------------------------------


@dataclass
class Run:
    """The states and records of one run of the actions."""

    before: Board
    states: list[Board] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    logs: list[EventLog] = field(default_factory=list)
    json_actions: list[dict[str, Any]] = field(default_factory=list)


def action_values(v: Any, prefix: str, spec: ActionSpec, structure: Any = None) -> dict[str, Any]:
    """The variables of one action: its amounts, flags and rolls."""
    if spec.kind in QUERY_KINDS:
        return QUERY_KINDS[spec.kind].values(v, prefix, spec, structure)
    values: dict[str, Any] = {"amount": v.int(f"{prefix}.amount")}
    if spec.kind in ("damage", "hit", "bloodletting"):
        values["allows_dormant"] = v.bool(f"{prefix}.allows_dormant")
        values["rolls"] = tuple(v.bool(f"{prefix}.roll{k}") for k in range(ROLLS_PER_HIT))
    if spec.kind == "bloodletting":
        values["cost"] = v.int(f"{prefix}.cost")
    return values


def run_one(board: Board, spec: ActionSpec, values: dict[str, Any], layout: Layout, ruleset: Any, structure: Any = None):
    """One action through the model: ``(board, log, record)``, as ``referee.actions`` runs it."""
    from referee.model.combat import armor, costs, damage, retaliation

    if spec.kind in QUERY_KINDS:
        return QUERY_KINDS[spec.kind].run(board, spec, values, structure, ruleset)
    log = EventLog()
    record: dict[str, Any] = {k: values[k] for k in ("amount", "allows_dormant", "cost") if k in values}
    if spec.kind in ("damage", "hit", "bloodletting"):
        target = spec.slot("target")
        source = layout.source_uid() if spec.kind != "bloodletting" else spec.slot("caster")
        if spec.kind != "bloodletting" and spec.slot("source") != "source":
            source = None if spec.slot("source") == "none" else spec.slot("source")
        instance = damage.DamageInstance(target=target, amount=values["amount"], source=source, kind=spec.damage_kind,
                                         allows_dormant=values["allows_dormant"], riposte_rolls=values["rolls"])
        if spec.kind == "bloodletting":
            board, log, outcome = run_bloodletting(board, spec.slot("caster"), values["cost"], instance, ruleset)
            record["bloodletting"] = outcome
            return board, log, record
        board, log, outcome = damage.resolve_damage(board, instance, ruleset)
        if spec.kind == "hit":
            board = retaliation.process_retaliation(board, instance, outcome, log, ruleset)
        record["outcome"] = outcome
        return board, log, record
    if spec.kind == "cost":
        beneficiary = None if spec.slot("beneficiary") == "none" else spec.slot("beneficiary")
        board, paid = costs.pay_vitality_cost(board, spec.slot("payer"), values["amount"], spec.slot("cost_kind"), log,
                                              beneficiary=beneficiary, ruleset=ruleset)
        record["paid"] = paid
        return board, log, record
    target = board.unit(spec.slot("target"))
    return board.with_unit(armor.apply_armor_debuff(target, spec.slot("debuff"), values["amount"])), log, record


def run_bloodletting(board: Board, caster: str, cost: Any, instance: Any, ruleset: Any):
    """800.4 as ``activate_with_bloodletting`` runs it, with its two stops as conditions, not ``if``.

    The activation first (500.9l), then the cost; unless it failed or found no payer, the hit and what answers it. A test
    holds this to ``referee.actions`` on concrete scenarios, and every witness is replayed there.
    """
    from referee.model.arith import and_, ite, not_
    from referee.model.combat import bloodletting, retaliation
    from referee.model.combat.battle import clear_speed_after_cost, clear_speed_at_end, resolve_activation

    board, log = resolve_activation(board, caster, ruleset)  # the caster activates first: charge spent (500.9l)
    board, outcome = bloodletting.process_bloodletting(board, caster, cost, log, ruleset)
    board = clear_speed_after_cost(board, caster, outcome.failed, ruleset, log)
    goes_on = and_(not_(outcome.failed), not_(outcome.aborted))
    hit_board, hit_log = retaliation.resolve_hit(board, instance, ruleset)
    for guarded in hit_log.entries:
        when = and_(goes_on, guarded.when)
        if when is not False:
            log.entries.append(guarded.guarded_by(when))
    chosen = Board(tuple(ite(goes_on, a, b) for a, b in zip(hit_board.units, board.units)))
    return clear_speed_at_end(chosen, caster, ruleset, log), log, outcome


def json_action(spec: ActionSpec, values: dict[str, Any], layout: Layout, structure: Any = None) -> dict[str, Any]:
    """The protocol form of one action (concrete values)."""
    if spec.kind in QUERY_KINDS:
        return QUERY_KINDS[spec.kind].to_json(spec, values, structure)
    if spec.kind in ("damage", "hit", "bloodletting"):
        hit = {"target": spec.slot("target"), "amount": values["amount"], "damage_kind": spec.damage_kind,
               "allows_dormant": values["allows_dormant"], "riposte_rolls": list(values["rolls"])}
        if spec.kind == "bloodletting":
            return {"kind": "bloodletting", "caster": spec.slot("caster"), "cost": values["cost"], "hits": [hit]}
        source = layout.source_uid()
        if spec.slot("source") != "source":
            source = None if spec.slot("source") == "none" else spec.slot("source")
        return {"kind": spec.kind, **hit, "source": source}
    if spec.kind == "cost":
        beneficiary = None if spec.slot("beneficiary") == "none" else spec.slot("beneficiary")
        return {"kind": "cost", "payer": spec.slot("payer"), "amount": values["amount"],
                "cost_kind": spec.slot("cost_kind"), "beneficiary": beneficiary}
    return {"kind": "armor_debuff", "target": spec.slot("target"), "debuff": spec.slot("debuff"), "amount": values["amount"]}


def run_actions(v: Any, layout: Layout, specs: tuple[ActionSpec, ...], ruleset: Any, split: bool) -> dict[str, Run]:
    """The main run (and, for a split comparison, the ``single`` run) from one ``before`` board."""
    before = build_board(v, layout)
    runs = {"main": Run(before)}
    if split:
        runs["single"] = Run(before)
    for name, run in runs.items():
        board = before
        chosen = specs if name == "main" else specs[:1]
        battle = start_clock(before, chosen)
        for i, spec in enumerate(chosen):
            values = action_values(v, f"{'a' if name == 'main' else 's'}{i}", spec, layout.structure(i))
            if split:  # the split and the single instance carry the same flag: only the amounts differ
                values["allows_dormant"] = v.bool("a0.allows_dormant")
            if "dormant" in layout.off and "allows_dormant" in values:
                values["allows_dormant"] = False
            if spec.kind in QUERY_KINDS and QUERY_KINDS[spec.kind].battle:
                battle, log, record = QUERY_KINDS[spec.kind].run(battle, spec, values, layout.structure(i), ruleset)
                board = battle.board
            else:
                board, log, record = run_one(board, spec, values, layout, ruleset, layout.structure(i))
                battle = schedule_clock(battle, board, log)
            run.states.append(board)
            run.logs.append(log)
            run.actions.append(record)
            if not v.symbolic:
                run.json_actions.append(json_action(spec, values, layout, layout.structure(i)))
    return runs


def uses_clock(specs: tuple[ActionSpec, ...]) -> bool:
    """Whether any action is a battle-clock kind (advance, end_combat)."""
    return any(s.kind in QUERY_KINDS and QUERY_KINDS[s.kind].battle for s in specs)


def start_clock(before: Board, specs: tuple[ActionSpec, ...]) -> Any:
    """The battle the actions run on, at 0 ms with nothing pending; ``None`` when no action is a clock kind."""
    from referee.model.combat.battle_guarded import start_guarded

    return start_guarded(before) if uses_clock(specs) else None


def schedule_clock(battle: Any, board: Board, log: EventLog) -> Any:
    """A board action happened at the battle's time: its Everlasting deaths are due 10 s on (``clock.act``)."""
    from referee.model.combat.battle_guarded import schedule_guarded

    return None if battle is None else schedule_guarded(replace(battle, board=board), log)


def leaves_value(v: Any, fixed: dict[str, Any]) -> Any:
    return fixed["defy_death_leaves"] if "defy_death_leaves" in fixed else v.int("ruleset.defy_death_leaves")


def explore_readings(build: Any, fixed: dict[str, Any]) -> Any:
    """Every reading of the options ``build(ruleset)`` must fix (defaults first), with what it built, lazily.

    An option is fixed when the model asks for it (:class:`NeedOption`) or branches on its symbolic reading in a
    way one formula cannot cover (a :class:`~referee.model.arith.SymbolicBranchError` whose term names it): the
    cell splits into one per reading of that option, and the build starts again for each.
    """
    from referee.model.arith import SymbolicBranchError
    from referee.model.readings import readings_in

    pending: list[dict[str, str]] = [{k: v for k, v in fixed.items() if k in ENUM_OPTIONS}]
    while pending:
        chosen = pending.pop(0)
        try:
            built = build(chosen)
        except NeedOption as need:
            pending[0:0] = [{**chosen, need.name: value} for value in ENUM_OPTIONS[need.name]]
            continue
        except SymbolicBranchError as error:
            name = next((n for n in readings_in(error.term) if n not in chosen), None)
            if name is None:
                raise
            pending[0:0] = [{**chosen, name: value} for value in ENUM_OPTIONS[name]]
            continue
        yield chosen, built


def structure_line(units: int, specs: tuple[ActionSpec, ...], fixed: dict[str, Any], relations: tuple[str, ...],
                   off: frozenset[str] = frozenset()) -> str:
    """The space a verdict covers, in one line (with the features left out, when any)."""
    acts = ", ".join(s.describe() for s in specs)
    readings = "every ruleset reading" if not fixed else \
        "every ruleset reading with " + ", ".join(f"{k}={v}" for k, v in fixed.items())
    if fixed == DEFAULT.to_json():
        readings = "the default ruleset reading only (--ruleset defaults: every option at its default)"
    uses_source = any(a.kind in ("damage", "hit") for a in specs)
    rel = f", the source {'/'.join(relations)} to the recipient" if uses_source else ", the source enemy/ally"
    if any(s.kind == "bloodletting" for s in specs):
        rel += ", every Bloodletting payer in reading order (and none)"
    left_out = f", without the features {', '.join(sorted(off))} (fixed off: {off_values(off)})" if off else ""
    rel += "".join(f", {QUERY_KINDS[s.kind].space(s)}" for s in specs if s.kind in QUERY_KINDS)
    rel += full_half_words(specs, fixed)
    return (f"over boards of up to {units} units ({', '.join(present_roles(units, specs))}){rel}, "
            f"actions [{acts}], every unit field, amount, flag and Riposte roll, {readings}{left_out}")
