"""Query kinds declared in one place each: slots, structural choices, values, the model run, the record.

A :class:`QueryKind` says everything :mod:`.space` needs to search over an action kind:

* ``slots``: the slots ``--action kind:slot=value,...`` accepts, their defaults, and a
  ``check`` that turns a slot's text into its value (or raises :class:`SlotError`);
* ``structures(spec)``: the structural choices of one action, each a cell of its own (the
  printed lines of an ability), a documented bounded set when the user gives none;
* ``values(v, prefix, spec, structure)``: the action's numbers and flags, read from ``v``
  (Z3 variables in the search, a witness's values in its replay);
* ``run(board, spec, values, structure, ruleset)``: the model, run once, and the record
  a condition reads (``record`` fields are ``fields``, types ``Int``/``Bool``/a record name);
* ``to_json(spec, values, structure)``: the protocol form, replayed by ``referee.actions``.

A later action kind plugs into ``referee query`` by declaring one ``QueryKind`` and adding
it to :data:`QUERY_KINDS`; the search, the minimizer, the replay and the docs need nothing
else. (``damage``, ``hit``, ``cost``, ``armor_debuff`` and ``bloodletting`` predate this
registry and are written out in :mod:`.space`.)

The ``ability`` kind (400.8): the printed lines are structure, every number is a variable
(each card number ``{name}``, each unnamed line's amount, every unit field the lines read,
Riposte's rolls). The model's resolution is single-source (a line's condition, the
recipient gates and a stopping cost are conditions, :mod:`referee.model.combat.guarded`),
so one symbolic run covers every value of the cell.

The battle-clock kinds ``advance`` and ``end_combat`` (500.4d, 500.9a) are declared with
``battle=True``: their ``run`` takes and returns the battle the query threads between its
actions (:mod:`referee.model.combat.battle_guarded`: the time, the pending Everlasting
revivals under their deaths' conditions, whether combat runs), not a board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable



class SlotError(ValueError):
    """A slot value a kind does not accept (``--action`` turns it into a QueryError naming the action)."""

#: Roles an ability may name as its caster or targets.
ABILITY_ROLES = ("target", "source", "receiver", "interceptor", "ally")
#: The most printed lines of a queried ability (the condition's ``line0`` .. ``line5``).
MAX_LINES = 6
#: Riposte rolls an ability carries: each hit reads them from the start (500.7b).
ABILITY_ROLLS = 3
LINE_FIELDS = {"base": "Int", "count": "Int", "amount": "Int", "resolved": "Bool",
               "reached": "Int", "refused": "Int", "total": "Int"}
LINE_NOTES = {
    "base": "the line's printed amount (its card number)",
    "count": "its \"per\" count, sampled when it resolved (0 when it did not resolve; 1 without a per)",
    "amount": "base times count, the amount the line resolved for (0 when it did not resolve)",
    "resolved": "the line resolved: no cost stopped the activation and its condition held",
    "reached": "recipients the gates let through (400.8-5)",
    "refused": "recipients a gate refused",
    "total": "what it did, summed over its recipients: Vitality lost or restored, stacks or points applied, "
             "Armor lowered, Vitality culled, Vitality paid",
}

_LINE = re.compile(
    r"^(?P<effect>[a-z_]+)(?:\((?P<amount>\{[a-z_][a-z0-9_]*\})\))?(?:@(?P<lane>[a-z_]+))?(?:>(?P<to>[a-z_]+))?"
    r"(?:\*(?P<per>[a-z_]+))?(?:\?(?P<condition>[a-z_]+))?(?:!(?P<kind>[a-z_]+))?$")


@dataclass(frozen=True)
class QueryKind:
    """One action kind as ``referee query`` searches it (see the module docstring)."""

    name: str
    slots: dict[str, str]
    check: Callable[[str, str], Any]
    structures: Callable[[Any], tuple[Any, ...]]
    values: Callable[[Any, str, Any, Any], dict[str, Any]]
    run: Callable[..., tuple[Any, Any, dict[str, Any]]]
    to_json: Callable[[Any, dict[str, Any], Any], dict[str, Any]]
    fields: dict[str, str]
    records: dict[str, dict[str, str]] = field(default_factory=dict)
    roles: Callable[[Any], tuple[str, ...]] = lambda spec: ()
    space: Callable[[Any], str] = lambda spec: ""
    notes: dict[str, str] = field(default_factory=dict)
    #: A battle-clock kind: ``run(battle, ...)`` takes and returns a
    #: :class:`~referee.model.combat.battle_guarded.GuardedBattle` instead of a board.
    battle: bool = False


# --------------------------------------------------------------------------------------
# The ability kind (400.8)
# --------------------------------------------------------------------------------------


def parse_line(text: str) -> Any:
    """``burn({burn_amount})@after_hit>allies*burning_enemy?target_alive!passive`` to a model Line."""
    from referee.model.combat.ability_text import Amount, Line

    match = _LINE.match(text.strip())
    if match is None:
        raise SlotError(f"ability line {text!r}: expected effect[({{number}})][@lane][>to][*per][?condition][!kind]")
    part = match.groupdict()
    kind = part["kind"] or ("conditional_rider" if part["condition"] else "rider")
    ref = part["amount"][1:-1] if part["amount"] else None
    try:
        return Line(part["effect"], Amount(0, ref), kind, part["lane"], part["to"] or "target", part["per"],
                    part["condition"])
    except ValueError as error:
        raise SlotError(f"ability line {text!r}: {error}") from None


def line_text(line: Any) -> str:
    """The query form of a line (the inverse of :func:`parse_line`)."""
    out = line.effect + (f"({{{line.amount.ref}}})" if line.amount.ref else "")
    out += f"@{line.lane}" if line.lane else ""
    out += f">{line.to}" if line.to != "target" else ""
    out += f"*{line.per}" if line.per else ""
    out += f"?{line.condition}" if line.condition else ""
    out += f"!{line.kind}" if line.kind not in ("rider", "conditional_rider") else ""
    return out


def enumerated_texts() -> tuple[tuple[Any, ...], ...]:
    """The printed texts searched when ``lines=`` is not given: every one-line ability.

    Each keyword to each recipient (target, caster, allies, enemies), in its own lane, with
    no per count and no condition; Bloodletting once (it reaches no recipient): 29 texts.
    """
    from referee.model.combat.ability_text import EFFECTS, RECIPIENTS, Line

    out = []
    for effect in EFFECTS:
        for to in (("target",) if effect == "bloodletting" else RECIPIENTS):
            out.append((Line(effect, kind="keyword" if effect == "damage" else "rider", to=to),))
    return tuple(out)


def check_ability_slot(name: str, value: str) -> Any:
    if name == "caster":
        if value not in ABILITY_ROLES:
            raise SlotError(f"caster={value!r} is not one of {', '.join(ABILITY_ROLES)}")
        return value
    if name == "targets":
        roles = tuple(r for r in value.split("+") if r)
        bad = [r for r in roles if r not in ABILITY_ROLES]
        if bad or len(set(roles)) != len(roles):
            raise SlotError(f"targets={value!r}: distinct roles joined by '+' ({', '.join(ABILITY_ROLES)}), "
                             "or empty for none")
        return value
    lines = tuple(parse_line(t) for t in value.split("/") if t.strip())
    if len(lines) > MAX_LINES:
        raise SlotError(f"lines={value!r}: a queried ability prints at most {MAX_LINES} lines")
    return value


def ability_structures(spec: Any) -> tuple[Any, ...]:
    text = spec.slot("lines")
    if not text:
        return enumerated_texts()
    return (tuple(parse_line(t) for t in text.split("/") if t.strip()),)


def _targets(spec: Any) -> tuple[str, ...]:
    return tuple(r for r in spec.slot("targets").split("+") if r)


def ability_numbers(lines: tuple[Any, ...]) -> tuple[str, ...]:
    """The card numbers of a text: each ``{name}`` once, and ``line{k}`` for each unnamed line."""
    names = [line.amount.ref or f"line{k}" for k, line in enumerate(lines)]
    return tuple(dict.fromkeys(names))


def ability_values(v: Any, prefix: str, spec: Any, lines: tuple[Any, ...]) -> dict[str, Any]:
    return {"numbers": {n: v.int(f"{prefix}.{n}") for n in ability_numbers(lines)},
            "rolls": tuple(v.bool(f"{prefix}.roll{k}") for k in range(ABILITY_ROLLS))}


def model_ability(lines: tuple[Any, ...], numbers: dict[str, Any]) -> Any:
    from dataclasses import replace

    from referee.model.combat.ability_text import Ability, Amount

    named = tuple(replace(line, amount=Amount(0, line.amount.ref or f"line{k}")) for k, line in enumerate(lines))
    return Ability(named, numbers=tuple(numbers.items()))


def run_ability(board: Any, spec: Any, values: dict[str, Any], lines: tuple[Any, ...], ruleset: Any):
    """The model's 400.8 resolution, once; the record of what each printed line did."""
    from referee.model.combat.abilities import resolve_ability_outcome

    ability = model_ability(lines, values["numbers"])
    board, log, outcome = resolve_ability_outcome(board, spec.slot("caster"), ability, _targets(spec),
                                                  ruleset=ruleset, riposte_rolls=values["rolls"])
    return board, log, ability_record(outcome, lines, values["numbers"])


def ability_record(outcome: Any, lines: tuple[Any, ...], numbers: dict[str, Any]) -> dict[str, Any]:
    """``stopped`` and ``line0`` .. ``line5``: the same values on symbols and on a witness's values."""
    from referee.model.arith import and_, ite, not_, or_
    from referee.model.combat.abilities import is_stopping
    from referee.model.combat.keywords import compute_gate_conditions

    record: dict[str, Any] = {}
    going: Any = True
    for done in outcome.lines:
        line = lines[done.index]
        held = True if done.condition_held is None else done.condition_held
        resolved = and_(going, held)
        passes = [not_(or_(*(c for _, c in compute_gate_conditions(d.before, line.effect, d.gone)))) for d in done.deliveries]
        total: Any = sum((d.amount for d in done.deliveries), 0)
        if done.bloodletting is not None:
            total = done.bloodletting.paid
        record[f"line{done.index}"] = {
            "base": numbers[line.amount.ref or f"line{done.index}"],
            "count": ite(resolved, 1 if done.count is None else done.count, 0),
            "amount": ite(resolved, done.amount, 0), "resolved": resolved,
            "reached": ite(resolved, sum((ite(p, 1, 0) for p in passes), 0), 0),
            "refused": ite(resolved, sum((ite(p, 0, 1) for p in passes), 0), 0),
            "total": ite(resolved, total, 0)}
        going = and_(going, not_(is_stopping(done)))
    for k in range(MAX_LINES):
        record.setdefault(f"line{k}", {"base": numbers.get(lines[k].amount.ref or f"line{k}", 0) if k < len(lines) else 0,
                                       "count": 0, "amount": 0, "resolved": False, "reached": 0,
                                       "refused": 0, "total": 0})
    record["stopped"] = not_(going)
    return record


def ability_json(spec: Any, values: dict[str, Any], lines: tuple[Any, ...]) -> dict[str, Any]:
    """The protocol form: named card numbers in ``numbers``, an unnamed line's amount printed as a literal."""
    numbers = values["numbers"]
    printed = []
    for k, line in enumerate(lines):
        item: dict[str, Any] = {"effect": line.effect, "amount": f"{{{line.amount.ref}}}" if line.amount.ref
                                else numbers[f"line{k}"], "kind": line.kind, "to": line.to}
        item.update({k2: getattr(line, k2) for k2 in ("lane", "per", "condition") if getattr(line, k2) is not None})
        printed.append(item)
    named = {n: value for n, value in numbers.items() if any(line.amount.ref == n for line in lines)}
    return {"kind": "ability", "caster": spec.slot("caster"), "targets": list(_targets(spec)),
            "ability": {"name": "query", "numbers": named, "lines": printed}, "riposte_rolls": list(values["rolls"])}


def ability_space(spec: Any) -> str:
    text = spec.slot("lines")
    lines = f"the printed lines {text}" if text else "every one-line ability (29 texts: each keyword to each recipient)"
    return (f"the ability cast by {spec.slot('caster')} at [{spec.slot('targets').replace('+', ', ')}], {lines}, "
            "every card number")


ABILITY = QueryKind(
    name="ability",
    slots={"caster": "source", "targets": "target", "lines": ""},
    check=check_ability_slot,
    structures=ability_structures,
    values=ability_values,
    run=run_ability,
    to_json=ability_json,
    fields={"stopped": "Bool", **{f"line{k}": "line" for k in range(MAX_LINES)}},
    records={"line": LINE_FIELDS},
    roles=lambda spec: (spec.slot("caster"), *_targets(spec)),
    space=ability_space,
    notes=LINE_NOTES,
)

# --------------------------------------------------------------------------------------
# The chapter-500 kinds: recover (500.3), cull (500.4a), tick (500.5b, 500.5c, 500.7e)
# --------------------------------------------------------------------------------------

#: Roles a chapter-500 action may name (on a board of up to 5 units).
UNIT_ROLES = ABILITY_ROLES
#: The most appliers of a queried tick (the record's ``applied0`` .. ``applied3``).
MAX_APPLIERS = 4


@dataclass(frozen=True)
class Choice:
    """A structural choice of one action that is a word (a lane, a damage kind): its cell label and value."""

    text: str
    value: str


def structure_label(structure: Any) -> str:
    """The cell label of an action's structure: ``lane=heal``, or an ability's ``lines=...``."""
    if isinstance(structure, Choice):
        return structure.text
    return "lines=" + "/".join(line_text(line) for line in structure)


def _check_role(name: str, value: str, none: bool = False) -> str:
    allowed = UNIT_ROLES + (("none",) if none else ())
    if value not in allowed:
        raise SlotError(f"{name}={value!r} is not one of {', '.join(allowed)}")
    return value


def _choices(name: str, given: str, words: tuple[str, ...]) -> tuple[Choice, ...]:
    return tuple(Choice(f"{name}={w}", w) for w in ((given,) if given else words))


def check_recover_slot(name: str, value: str) -> str:
    from referee.model.combat.recovery import RECOVERY_LANES

    if name == "lane":
        if value and value not in RECOVERY_LANES:
            raise SlotError(f"lane={value!r} is not one of {', '.join(RECOVERY_LANES)} (or empty for every lane)")
        return value
    return _check_role(name, value)


def recover_structures(spec: Any) -> tuple[Choice, ...]:
    from referee.model.combat.recovery import RECOVERY_LANES

    return _choices("lane", spec.slot("lane"), RECOVERY_LANES)


def run_recover(board: Any, spec: Any, values: dict[str, Any], lane: Choice, ruleset: Any):
    """500.3 as ``referee.actions`` runs it: the ledger on the target, the requested amount symbolic."""
    from referee.model.combat.recovery import resolve_recovery

    board, log = resolve_recovery(board, spec.slot("target"), values["amount"], lane=lane.value, ruleset=ruleset)
    return board, log, {"amount": values["amount"], **{f"lane_{w}": w == lane.value for w in ("heal", "shield", "repair")}}


RECOVER = QueryKind(
    name="recover",
    slots={"target": "target", "lane": ""},
    check=check_recover_slot,
    structures=recover_structures,
    values=lambda v, prefix, spec, lane: {"amount": v.int(f"{prefix}.amount")},
    run=run_recover,
    to_json=lambda spec, values, lane: {"kind": "recover", "target": spec.slot("target"), "amount": values["amount"],
                                        "lane": lane.value},
    fields={"amount": "Int", "lane_heal": "Bool", "lane_shield": "Bool", "lane_repair": "Bool"},
    roles=lambda spec: (spec.slot("target"),),
    space=lambda spec: (f"a recovery on {spec.slot('target')} in the lane {spec.slot('lane')}" if spec.slot("lane")
                        else f"a recovery on {spec.slot('target')} in every lane (heal, shield, repair)")
    + ", every requested amount",
    notes={"amount": "the requested amount, before the Forge Core bonus",
           "lane_heal": "the recovery's lane is heal (likewise `lane_shield`, `lane_repair`)"},
)


def run_cull(board: Any, spec: Any, values: dict[str, Any], structure: Any, ruleset: Any):
    """500.4a as ``referee.actions`` runs it; ``culled``: the model's own test, on the target before."""
    from referee.model.combat.death import is_culled, resolve_cull

    source = None if spec.slot("source") == "none" else spec.slot("source")
    culled = is_culled(board.unit(spec.slot("target")))
    board, log = resolve_cull(board, spec.slot("target"), source)
    return board, log, {"culled": culled}


CULL = QueryKind(
    name="cull",
    slots={"target": "target", "source": "source"},
    check=lambda name, value: _check_role(name, value, none=name == "source"),
    structures=lambda spec: (None,),
    values=lambda v, prefix, spec, structure: {},
    run=run_cull,
    to_json=lambda spec, values, structure: {"kind": "cull", "target": spec.slot("target"),
                                             "source": None if spec.slot("source") == "none" else spec.slot("source")},
    fields={"culled": "Bool"},
    roles=lambda spec: tuple(r for r in (spec.slot("target"), spec.slot("source")) if r != "none"),
    space=lambda spec: f"{spec.slot('source')} culls {spec.slot('target')}",
    notes={"culled": "the Cull destroyed the target: it was alive and neither a Tool nor a Hub (500.4a)"},
)


def _appliers(spec: Any) -> tuple[str, ...]:
    return tuple(r for r in spec.slot("appliers").split("+") if r)


def check_tick_slot(name: str, value: str) -> str:
    if name == "damage_kind":
        if value and value not in ("burn", "venom"):
            raise SlotError(f"damage_kind={value!r} is not burn or venom (or empty for both)")
        return value
    if name == "appliers":
        roles = tuple(r for r in value.split("+") if r)
        if not 1 <= len(roles) <= MAX_APPLIERS or any(r not in UNIT_ROLES for r in roles):
            raise SlotError(f"appliers={value!r}: 1 to {MAX_APPLIERS} roles joined by '+' ({', '.join(UNIT_ROLES)}); "
                             "a role named twice adds up")
        return value
    return _check_role(name, value)


def tick_values(v: Any, prefix: str, spec: Any, structure: Any) -> dict[str, Any]:
    """The tick, each applier's weight (at least 1: the protocol refuses less, so ``max(w, 1)``) and the rolls."""
    from referee.model.arith import max_

    appliers = _appliers(spec)
    return {"amount": v.int(f"{prefix}.amount"),
            "applied": tuple(max_(v.int(f"{prefix}.applied{k}"), 1) for k in range(len(appliers))),
            "rolls": tuple(v.bool(f"{prefix}.roll{k}") for k in range(3 * len(appliers)))}


def run_tick(board: Any, spec: Any, values: dict[str, Any], lane: Choice, ruleset: Any):
    """500.5b/c as ``referee.actions`` runs it (``retaliation.resolve_hit`` with the appliers), and its outcome."""
    from referee.model.combat import damage, retaliation

    appliers = tuple(zip(_appliers(spec), values["applied"]))
    instance = damage.DamageInstance(target=spec.slot("target"), amount=values["amount"], source=appliers[0][0],
                                     kind=lane.value, riposte_rolls=values["rolls"], appliers=appliers)
    board, log, outcome = damage.resolve_damage(board, instance, ruleset)
    board = retaliation.process_retaliation(board, instance, outcome, log, ruleset)
    weights = {f"applied{k}": (values["applied"][k] if k < len(appliers) else 0) for k in range(MAX_APPLIERS)}
    return board, log, {"amount": values["amount"], "outcome": outcome, **weights}


def tick_json(spec: Any, values: dict[str, Any], lane: Choice) -> dict[str, Any]:
    return {"kind": "tick", "target": spec.slot("target"), "amount": values["amount"], "damage_kind": lane.value,
            "appliers": [{"unit": u, "applied": w} for u, w in zip(_appliers(spec), values["applied"])],
            "riposte_rolls": list(values["rolls"])}


TICK = QueryKind(
    name="tick",
    slots={"target": "target", "appliers": "source", "damage_kind": ""},
    check=check_tick_slot,
    structures=lambda spec: _choices("damage_kind", spec.slot("damage_kind"), ("burn", "venom")),
    values=tick_values,
    run=run_tick,
    to_json=tick_json,
    fields={"amount": "Int", "outcome": "outcome", **{f"applied{k}": "Int" for k in range(MAX_APPLIERS)}},
    roles=lambda spec: (spec.slot("target"), *_appliers(spec)),
    space=lambda spec: (f"a {spec.slot('damage_kind') or 'burn/venom'} tick on {spec.slot('target')} applied by "
                        f"[{spec.slot('appliers').replace('+', ', ')}], every tick amount, every weight >= 1, "
                        "every Riposte roll"),
    notes={"amount": "the tick, before Prismbreak and the tick reductions",
           "applied0": f"the first applier's weight (>= 1; likewise `applied1` .. `applied{MAX_APPLIERS - 1}`, "
                       "0 past the last applier)"},
)

# --------------------------------------------------------------------------------------
# The battle clock: advance (500.4d, 500.9a) and end_combat (500.9a)
# --------------------------------------------------------------------------------------

def clock_space() -> str:
    """How the clock kinds' space reads in the verdict's one line (INT-404's two readings, the default half)."""
    from referee.model.combat.battle import DEFAULT_COLS, DEFAULT_ROWS

    return (f"each Everlasting try at its death + 10 s on a {DEFAULT_ROWS} x {DEFAULT_COLS} half, back in its cell "
            "of death under everlasting_slot_order=death_cell_first and in the first free slot under reading_order "
            "(a cell no condition reads), or, when every slot of the half is held (a full half, below), delayed and "
            "retried at every later tick")


def advance_values(v: Any, prefix: str, spec: Any, structure: Any) -> dict[str, Any]:
    """The step, clamped to what the protocol accepts (0 .. MAX_MS ms), so every legal step is searched."""
    from referee.model.arith import max_, min_
    from referee.rulebooks.combat.kinds.clock import MAX_MS

    return {"ms": min_(max_(v.int(f"{prefix}.ms"), 0), MAX_MS)}


def run_advance(battle: Any, spec: Any, values: dict[str, Any], structure: Any, ruleset: Any):
    """500.9a on the query's battle: the pending revivals due by then fire, in order (``advance_guarded``)."""
    from referee.model.combat.battle_guarded import advance_guarded, count_pending

    start = battle.now_ms
    battle, log, fired = advance_guarded(battle, values["ms"], ruleset)
    return battle, log, {"ms": values["ms"], "start": start, "now": battle.now_ms, "revived": fired,
                         "pending": count_pending(battle)}


def run_end_combat(battle: Any, spec: Any, values: dict[str, Any], structure: Any, ruleset: Any):
    """500.9a: combat ends, what is still due lapses (``end_guarded``)."""
    from referee.model.combat.battle_guarded import count_pending, end_guarded

    lapsed = count_pending(battle)
    battle, log = end_guarded(battle)
    return battle, log, {"now": battle.now_ms, "lapsed": lapsed}


def advance_json(spec: Any, values: dict[str, Any], structure: Any) -> dict[str, Any]:
    from referee.model.combat.battle import DEFAULT_COLS, DEFAULT_ROWS

    return {"kind": "advance", "ms": values["ms"], "rows": DEFAULT_ROWS, "cols": DEFAULT_COLS}


ADVANCE = QueryKind(
    name="advance",
    slots={},
    check=lambda name, value: value,
    structures=lambda spec: (None,),
    values=advance_values,
    run=run_advance,
    to_json=advance_json,
    fields={"ms": "Int", "start": "Int", "now": "Int", "revived": "Int", "pending": "Int"},
    space=lambda spec: "every step of time 0 .. 10,000,000 ms, " + clock_space(),
    notes={"ms": "how far time moved on (0 .. 10,000,000 ms, the protocol's range)",
           "start": "the battle time before it (ms since the battle started; the actions before an advance run at 0)",
           "now": "the battle time after it (`start + ms`)",
           "revived": "how many Everlasting revivals it fired (`everlasting_revival` events)",
           "pending": "how many revivals are still due after it"},
    battle=True,
)

END_COMBAT = QueryKind(
    name="end_combat",
    slots={},
    check=lambda name, value: value,
    structures=lambda spec: (None,),
    values=lambda v, prefix, spec, structure: {},
    run=run_end_combat,
    to_json=lambda spec, values, structure: {"kind": "end_combat"},
    fields={"now": "Int", "lapsed": "Int"},
    space=lambda spec: "combat ends",
    notes={"now": "the battle time it ends at (ms)",
           "lapsed": "how many revivals still due it lapsed (`everlasting_lapsed` events)"},
    battle=True,
)

#: The query kinds declared here, by name (a new kind is one more entry).
QUERY_KINDS: dict[str, QueryKind] = {kind.name: kind for kind in (ABILITY, RECOVER, CULL, TICK, ADVANCE, END_COMBAT)}
