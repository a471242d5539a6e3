"""400.8 Resolving an ability, line by line: the method of 400.8 as the model's own procedure.

:func:`resolve_ability` is the public entry::

    resolve_ability(board, caster, ability, targets=(), *, ruleset=DEFAULT, riposte_rolls=())
        -> (Board, EventLog)

and :func:`resolve_ability_outcome` returns, besides, an :class:`AbilityOutcome` recording
what each line did (``referee explain`` reads it). The steps, for each line in resolution
order (:func:`~.ability_text.compute_resolution_order`: lane by lane, 400.8-1, 400.8-2):

1. the line's amount from the card's numbers (400.8-3, 400.2);
2. its condition, checked now, on the board as it is now (400.8-4, 400.4); a failed
   condition resolves the line to nothing (``condition_failed``);
3. its "per" count, sampled now (400.8-3, 400.8a): ``amount x count``, where a count of 0
   gives 0 and is never floored to 1 (400.8c);
4. ``line_resolved`` reports that amount, then each recipient in turn meets the gates, the
   keyword's rule and its pipeline (400.8-5 .. 400.8-7, :mod:`.keywords`).

Because every line reads the board the previous lines left, a unit this activation killed
is already gone for every post-damage line: it fails the gates and no longer counts
(400.8b). A Bloodletting line is the activation's cost (800.4): when it aborts or fails the
ability, no further line resolves.

Worked example (400.8): "Deal {power} damage / Burn {burn_amount} / Restore {heal_amount}
vitality to allies per Burning enemy", both riders after the hit. The hit kills the only
target; Burn meets a dead target and is refused (``line_refused``, dead); the heal samples
"per Burning enemy" now: the dead target does not count, so the count is 0, the line
resolves to 0 and no Vitality is restored.

The structure is concrete (which line, in which order, which recipients); everything a value
decides is single-source: a line's condition, each recipient's gates and a cost that stops
the activation are conditions the later steps are guarded by (:mod:`.guarded`), and a "per"
count is a sum of ``ite``. So the resolution runs on Z3 terms too (``referee query`` runs an
ability once per printed text). Its arithmetic (the amount times the count, recovery) is
proved in ``proofs/combat/ability_theorems.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..clauses import combat
from ..events import EventLog
from ..readings import by_reading
from .ability_text import (
    Ability, Line, compute_resolution_order, has_bloodletting_cost, place_line, resolve_printed_amount,
)
from .battle import clear_speed_after_cost, clear_speed_at_end, resolve_activation
from .bloodletting import BloodlettingOutcome, process_bloodletting
from .keywords import Delivery, is_legal_recipient, process_delivery
from .ruleset import DEFAULT, Ruleset
from .guarded import run_guarded
from .state import Board, Bool, Int, Unit
from ..arith import and_, ite, not_, or_

#: The status a "per" count or a condition reads, by name (400.3, 400.4).
COUNTED_STATUS = {"burning_enemy": "burn", "venomed_enemy": "venom", "maimed_enemy": "maim"}


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """What one line did: where it resolved, its numbers, and each recipient's delivery."""

    index: int  # its position among the printed lines
    line: Line
    lane: str
    base: int  # the amount from the card's numbers (400.2)
    count: int | None  # the "per" count sampled when it resolved (None: no per)
    amount: Int  # base x count, or base (400.8-3)
    condition_held: bool | None  # None: no condition
    deliveries: tuple[Delivery, ...] = ()
    bloodletting: BloodlettingOutcome | None = None
    board: Board | None = None  # the board the line met
    caster_fell: Any = False  # the line killed its caster and the activation stops there (INT-213)


@dataclass(frozen=True, slots=True)
class AbilityOutcome:
    """The lines in the order they resolved; the Passives left out; why the activation stopped, if it did."""

    lines: tuple[LineOutcome, ...]
    passives: tuple[int, ...]
    stopped: str | None = None  # "aborted" (800.4k), "failed" (800.4d) or "caster_dead" (400.8b, INT-213)


# --------------------------------------------------------------------------------------
# 400.8-3, 400.8-4 Counts and conditions, read when the line resolves
# --------------------------------------------------------------------------------------


@combat.implements("400.8-3", "400.8a", "400.8b")
def count_per(board: Board, caster: str, per: str, ruleset: Ruleset = DEFAULT) -> int:
    """How many countable units the "per" names, on the board as it is when the line resolves (400.8-3, 400.8a)."""
    return sum((ite(and_(is_counted(u, ruleset), has_counted_status(u, per)), 1, 0)
                for u in compute_per_pool(board, caster, per)), 0)


@combat.implements("400.8-3", "400.8b", "400.8-5")
def is_counted(unit: Unit, ruleset: Ruleset = DEFAULT) -> Bool:
    """Whether a unit of the pool may count: under ``per_count_units = legal_recipients`` (the default) a unit the
    recipient gates of 400.8-5 let through (living, not Entrapped, Dormant or untargetable); under
    ``living_targetable_only`` the worked example's 'living targetable' (400.3) read literally: living and not
    untargetable, an Entrapped or Dormant unit counting too (INT-203). A dead unit counts under neither (400.8b)."""
    return by_reading(ruleset.per_count_units, legal_recipients=lambda: is_legal_recipient(unit),
                      living_targetable_only=lambda: and_(unit.alive, not_(unit.untargetable)))


@combat.implements("400.8-3")
def compute_per_pool(board: Board, caster: str, per: str) -> tuple[Unit, ...]:
    """The units a "per" names before the legal-units rule: the caster's enemies, or its allies for "per ally";
    never the caster itself (400.8-3, INT-203)."""
    side = board.unit(caster).side
    return tuple(u for u in board.units if (u.side != side) == (per != "ally") and u.uid != caster)


@combat.implements("400.8-3")
def has_counted_status(unit: Unit, per: str) -> Bool:
    """Whether ``unit`` has the status a "per" names (every unit, for "per enemy" and "per ally") (400.8-3)."""
    status = COUNTED_STATUS.get(per)
    return True if status is None else getattr(unit, status) > 0


@combat.implements("400.8-3", "400.8c")
def compute_line_amount(base: Int, count: Int | None) -> Int:
    """The line's amount: ``base`` times the count; a count of 0 gives 0, never a floor of 1 (400.8-3, 400.8c)."""
    return base if count is None else base * count


@combat.implements("400.8-4", "400.8b")
def is_condition_met(
    board: Board, caster: str, targets: Sequence[str], condition: str, ruleset: Ruleset = DEFAULT
) -> bool:
    """A conditional rider's condition, on the board as it is when the line resolves (400.8-4, INT-204)."""
    first: Unit | None = board.unit(targets[0]) if targets else None
    if condition in ("target_alive", "target_burning") and first is None:
        return False
    if condition == "target_alive":
        return and_(first.alive, True)
    if condition == "target_burning":
        return and_(first.alive, first.burn > 0)
    if condition == "enemy_burning":
        return count_per(board, caster, "burning_enemy", ruleset) > 0
    me = board.unit(caster)
    return me.vitality < me.max_vitality  # caster_damaged


@combat.implements("400.8-5")
def compute_recipients(
    board: Board, caster: str, line: Line, targets: Sequence[str], ruleset: Ruleset = DEFAULT
) -> tuple[str, ...]:
    """Who the line names: the targets, the caster, its allies or its enemies in reading order (INT-205)."""
    if line.to == "target":
        return tuple(targets)
    if line.to == "caster":
        return (caster,)
    side = board.unit(caster).side
    sides = (side,) if line.to == "allies" else tuple(s for s in (0, 1) if s != side)
    mine = line.to == "allies" and is_caster_an_ally(ruleset)
    return tuple(u.uid for s in sides for u in board.in_reading_order(s) if u.uid != caster or mine)


@combat.implements("400.8-5")
def is_caster_an_ally(ruleset: Ruleset) -> bool:
    """Whether 'to allies' reaches the caster too, at its own place in reading order: not under
    ``allies_include_caster = excluded`` (the default: a unit's allies are the others on its side, as 500.6h
    sets a unit apart from its allies), yes under ``included`` (INT-205). Which units a line reaches is structure: on
    a symbolic reading this ``if`` forks the query, one run per reading."""
    return bool(ruleset.allies_include_caster == "included")


# --------------------------------------------------------------------------------------
# One line
# --------------------------------------------------------------------------------------


@combat.implements("400.8-3", "400.8-4", "400.8a", "400.8c")
def compute_line_numbers(
    board: Board, caster: str, ability: Ability, line: Line, targets: Sequence[str], ruleset: Ruleset = DEFAULT
) -> tuple[int, int | None, Int, bool | None]:
    """``(base, count, amount, condition held)`` of a line, all read now (400.8-3, 400.8-4)."""
    base = resolve_printed_amount(ability, line.amount)
    held = None if line.condition is None else is_condition_met(board, caster, targets, line.condition, ruleset)
    count = None if line.per is None else count_per(board, caster, line.per, ruleset)
    return base, count, compute_line_amount(base, count), held


@combat.implements("400.8-3", "400.8-4", "400.8-5", "400.8-6", "400.8-7", "800.4a", "800.4d", "800.4k")
def process_line(
    board: Board, caster: str, ability: Ability, index: int, targets: Sequence[str], rolls: tuple,
    ruleset: Ruleset, log: EventLog, opened: Board | None = None,
) -> tuple[Board, LineOutcome]:
    """Resolve one line at its point in the sequence: numbers, condition, then each recipient (400.8-3 .. 400.8-7).
    ``opened``: the board as the activation began (a recipient it killed since is gone, INT-412)."""
    line = ability.lines[index]
    base, count, amount, held = compute_line_numbers(board, caster, ability, line, targets, ruleset)
    start = LineOutcome(index, line, place_line(line, ruleset), base, count, amount, held, board=board)
    failed = False if held is None else not_(held)
    log.emit("condition_failed", when=failed, unit=caster, detail=line.condition)
    after, done = run_guarded(not_(failed), board, log,
                              lambda b, sub: process_line_effect(b, caster, line, start, targets, rolls, ruleset, sub,
                                                                 opened))
    if done is None:
        return board, start
    if failed is not False and done.bloodletting is not None:  # on symbols: a cost stops only when it resolved
        paid = done.bloodletting
        done = _with(done, bloodletting=_replace(paid, aborted=and_(held, paid.aborted), failed=and_(held, paid.failed)))
    fell = False if (ruleset.dead_caster_activation == "continues") is True else \
        has_caster_fallen(board, after, caster, line, ruleset)  # by default a line's deaths never stop the activation
    return after, done if fell is False else _with(done, caster_fell=fell)


@combat.implements("400.8b", "800.4j")
def has_caster_fallen(before: Board, after: Board, caster: str, line: Line, ruleset: Ruleset) -> Bool:
    """Whether the line ends the activation by killing its caster: under ``dead_caster_activation = stops`` a line at
    whose start the caster lived and at whose end it is dead (a Thorns, Retort or payback answering its hit): the
    caster is gone (400.8b) and a dead unit does not act. A Bloodletting payment's death is the one 800.4j lets the
    activation survive, and ``continues`` (the default) lets every line resolve whoever died (INT-213)."""
    if line.effect == "bloodletting":
        return False
    return by_reading(ruleset.dead_caster_activation, continues=lambda: False,
                      stops=lambda: and_(before.unit(caster).alive, not_(after.unit(caster).alive)))


@combat.implements("400.8-5", "400.8-6", "400.8-7", "800.4a")
def process_line_effect(
    board: Board, caster: str, line: Line, start: LineOutcome, targets: Sequence[str], rolls: tuple,
    ruleset: Ruleset, log: EventLog, opened: Board | None = None,
) -> tuple[Board, LineOutcome]:
    """A line whose condition held: ``line_resolved``, then the cost or each recipient in turn (400.8-5 .. 400.8-7)."""
    log.emit("line_resolved", unit=caster, amount=start.amount, detail=line.effect)
    if line.effect == "bloodletting":
        board, paid = process_bloodletting(board, caster, start.amount, log, ruleset)
        board = clear_speed_after_cost(board, caster, paid.failed, ruleset, log)
        return board, _with(start, bloodletting=paid)
    deliveries = []
    for uid in compute_recipients(board, caster, line, targets, ruleset):
        gone = False if opened is None or (ruleset.rider_on_revived_target == "lands") is True else \
            is_gone_since(opened, board, uid, ruleset)  # by default nothing is gone: 400.8b's test is not applied
        board, delivery = process_delivery(board, caster, line.effect, uid, start.amount, rolls, ruleset, log, gone)
        deliveries.append(delivery)
    return board, _with(start, deliveries=tuple(deliveries))


@combat.implements("400.8b", "400.8-5", "500.9f")
def is_gone_since(opened: Board, board: Board, uid: str, ruleset: Ruleset) -> Bool:
    """Whether the activation killed ``uid`` and it stands revived: a new incarnation (500.9f) the activation never
    aimed at, gone for every later line under ``rider_on_revived_target = refused`` (400.8b); by default the line
    reads the board as the earlier lines left it and reaches the revived unit (INT-412)."""
    return by_reading(ruleset.rider_on_revived_target, lands=lambda: False,
                      refused=lambda: board.unit(uid).incarnation != opened.unit(uid).incarnation)


def _replace(record: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(record, **changes)


def _with(outcome: LineOutcome, **changes: Any) -> LineOutcome:
    from dataclasses import replace

    return replace(outcome, **changes)


# --------------------------------------------------------------------------------------
# The activation
# --------------------------------------------------------------------------------------


@combat.implements("400.8-2", "400.8b", "800.4d", "800.4j", "800.4k")
def is_activation_stopped(outcome: LineOutcome) -> str | None:
    """A Bloodletting cost that aborts or fails the ability stops it; a lethal payment does not (800.4d, 800.4j, 800.4k);
    so does a line that killed its caster under ``dead_caster_activation = stops`` (400.8b, INT-213)."""
    paid = outcome.bloodletting
    if outcome.caster_fell is True:
        return "caster_dead"
    if paid is None:
        return None
    return "aborted" if paid.aborted is True else "failed" if paid.failed is True else None


@combat.implements("400.8-2", "800.4d", "800.4k")
def is_stopping(outcome: LineOutcome) -> Bool:
    """Whether the line stops the activation: its cost aborted or failed the ability (800.4d, 800.4k), or it killed
    the caster under ``dead_caster_activation = stops`` (400.8b, INT-213)."""
    paid = outcome.bloodletting
    cost = False if paid is None else or_(paid.aborted, paid.failed)
    return cost if outcome.caster_fell is False else or_(cost, outcome.caster_fell)


def resolve_ability_outcome(
    board: Board, caster: str, ability: Ability, targets: Sequence[str] = (), *,
    ruleset: Ruleset = DEFAULT, riposte_rolls: tuple = (),
) -> tuple[Board, EventLog, AbilityOutcome]:
    """Resolve the ability's lines in resolution order; the board, the events and what each line did (400.8)."""
    for uid in (caster, *targets):
        board.unit(uid)  # a KeyError names a uid that is not on the board
    has_cost = has_bloodletting_cost(ability)
    board, log = resolve_activation(board, caster, ruleset, has_cost)  # the caster activates: charge spent (500.9l)
    opened = board
    done: list[LineOutcome] = []
    stopped = None
    going: Bool = True  # on symbols: no earlier cost stopped the activation
    for index in compute_resolution_order(ability, ruleset):
        board, outcome = run_guarded(going, board, log, lambda b, sub, i=index: process_line(
            b, caster, ability, i, targets, tuple(riposte_rolls), ruleset, sub, opened))
        done.append(outcome)
        stops = is_stopping(outcome)
        if stops is True:
            stopped = is_activation_stopped(outcome)
            break
        going = and_(going, not_(stops))
    passives = tuple(i for i, line in enumerate(ability.lines) if line.kind == "passive")
    return clear_speed_at_end(board, caster, ruleset, log), log, AbilityOutcome(tuple(done), passives, stopped)


def resolve_ability(
    board: Board, caster: str, ability: Ability, targets: Sequence[str] = (), *,
    ruleset: Ruleset = DEFAULT, riposte_rolls: tuple = (),
) -> tuple[Board, EventLog]:
    """Action: ``caster`` activates ``ability`` at ``targets``; the board and its events (400.8).

    ``riposte_rolls`` are Riposte's 50% rolls for each hit of the ability (each hit reads
    them from the start, 500.7b).
    """
    board, log, _ = resolve_ability_outcome(board, caster, ability, targets, ruleset=ruleset, riposte_rolls=riposte_rolls)
    return board, log
