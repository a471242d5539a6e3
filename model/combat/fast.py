"""500.1 One damage instance (and 500.8 one Vitality cost) on plain integers: the fast twin, held to the model.

:func:`~referee.model.combat.damage.resolve_damage` is the rules, written once over ``arith``
so that the same code is the Z3 encoding. On plain integers that generality costs about 380
Python calls an instance (``ite`` evaluates both branches, so both Armor searches run; every
event is built behind a guard...). This module is the same pipeline for concrete runs only,
step for step in the same order, with Python's own ``if``. It is not an unchecked second copy:

* ``tests/combat/test_fast_path.py`` (default run) resolves drawn boards and instances of every
  kind through both and compares the board, every event and the outcome, value and type;
* ``proofs/combat/fast_theorems.py`` proves each arithmetic step here (the tick adjustment and
  the gates, then each of steps 500.1-4..500.1-12) equal to the model's over all integers, by
  running this module's code on Z3 terms with every Python branch explored
  (``proofs/branches.py``), and proves of the model the one shortcut :func:`mitigate` takes;
* whatever is rare or intricate is not rewritten but called: the Armor searches, a death with
  a Vessel (revival, its listeners), a shared tick's credit split, and every decision of a
  Vitality cost (:func:`pay_cost` runs ``costs``' own refusals, price, defy-death, scrapped
  Shield and Interest maximum, then the same loss and death as a damage instance); the cost
  twin is held by the same differential test, over drawn costs of every kind.

:func:`is_enabled` says when the fast path runs: a concrete run, no tracer or profiler (the
clause trail, ``referee explain``, coverage and CrossHair watch the model's own functions), and
not inside :func:`disabled` (a proof's replay and every mutant run the model itself).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, NamedTuple

from .. import arith
from ..arith import ceildiv, max_
from ..events import EVENT_NAMES, Event, EventLog, Guarded, UnknownEventError
from . import armor, attribution, costs, damage, shield, vitality
from .insurance import POINT_ABSORBS
from .ruleset import Ruleset
from .state import Board, Unit
from .ticks import DAMAGE_OVER_TIME_KINDS
from .vitality import VITALITY_LOSS_RUNES

def disabled() -> contextlib.AbstractContextManager[None]:
    """Within the block every damage instance runs through the single-source pipeline (``arith.single_source``)."""
    return arith.single_source()


def is_enabled(instance: Any) -> bool:
    """A concrete run nobody traces, outside :func:`disabled`: the fast path may take the instance."""
    return is_concrete_run(instance.amount)


def is_concrete_run(amount: Any) -> bool:
    """An integer amount in a run nobody traces, outside :func:`disabled`: the fast path may take it."""
    return (type(amount) is int and not arith._SINGLE_SOURCE.get() and arith._CONTEXT.get() is None
            and sys.gettrace() is None and sys.getprofile() is None)


def clear_memos() -> None:
    """Forget every remembered event, Armor answer and outcome (they are pure; a benchmark's cold start)."""
    from .. import events

    for memo in (_EMITTED, _SURVIVING, _NOTHING, _QUIET, events._CERTAIN):
        memo.clear()


class Figures(NamedTuple):
    """The numbers of steps 500.1-4 .. 500.1-12 (the fields of ``damage.Mitigation``, in its order)."""

    entering: Any
    ignored: Any
    after_armor: Any
    after_cap: Any
    subrogated_spent: Any
    subrogated_absorbed: Any
    insurance_spent: Any
    insurance_absorbed: Any
    shield_drained: Any
    shield_absorbed: Any
    after_shield: Any
    redirected: Any
    defied: Any
    remainder: Any


class Gates(NamedTuple):
    """What the gates made of an instance (500.1h, 500.1-1..3): the adjusted amount and what entered."""

    amount: Any
    tick_prevented: Any
    by_tool_or_hub: Any
    by_dormancy: Any
    entering: Any


# The records are built as the model's are, minus the generated ``__init__`` of a frozen
# dataclass (measured: an event 3x, a unit copy 2x faster); ``_emit`` still refuses an
# unknown event name, as ``Event`` does.
_new = object.__new__
_SET_NAME, _SET_UNIT, _SET_AMOUNT, _SET_OTHER, _SET_DETAIL = (
    Event.__dict__[name].__set__ for name in ("name", "unit", "amount", "other", "detail"))
_SET_WHEN, _SET_GUARDED = (Guarded.__dict__[name].__set__ for name in ("when", "event"))
# A unit's instance dictionary, handed over whole (no frozen ``__setattr__``); an outcome, a
# named tuple, made from its values in field order.
_SET_UNIT_STATE = Unit.__dict__["__dict__"].__set__
_new_outcome = tuple.__new__


_EMITTED: dict[tuple[Any, ...], Guarded] = {}


def _emit(log: EventLog, name: str, unit: str, amount: Any = 0, other: str | None = None,
          detail: str | None = None) -> None:
    """``log.emit(name, ...)`` of an event whose condition holds.

    Events and their guards are immutable, so an event met before is appended again, not rebuilt.
    """
    if type(amount) is not int:  # a Z3 term is never remembered: the memo would carry one encoding's terms into the next
        log.entries.append(_build_entry(name, unit, amount, other, detail))
        return
    key = (name, unit, amount, other, detail)
    entry = _EMITTED.get(key)
    if entry is None or type(entry.event.amount) is not type(amount):  # 1 == True as a key, not as an amount
        entry = _EMITTED[key] = _build_entry(name, unit, amount, other, detail)
        if len(_EMITTED) > 65_536:
            _EMITTED.clear()
    log.entries.append(entry)


def _build_entry(name: str, unit: str, amount: Any, other: str | None, detail: str | None) -> Guarded:
    if name not in EVENT_NAMES:
        raise UnknownEventError(f"unknown event name {name!r}")
    event = _new(Event)
    _SET_NAME(event, name)
    _SET_UNIT(event, unit)
    _SET_AMOUNT(event, amount)
    _SET_OTHER(event, other)
    _SET_DETAIL(event, detail)
    entry = _new(Guarded)
    _SET_WHEN(entry, True)
    _SET_GUARDED(entry, event)
    return entry


def _evolve(unit: Unit, **changes: Any) -> Unit:
    """``unit.evolve(**changes)`` for field names this module spells out."""
    copy = _new(Unit)
    _SET_UNIT_STATE(copy, {**unit.__dict__, **changes})
    return copy


def _place(board: Board, unit: Unit) -> Board:
    """``board.with_unit(unit)``: the unit of the same uid replaced."""
    units = board.units
    for i, held in enumerate(units):
        if held.uid == unit.uid:
            placed = _new(Board)
            object.__setattr__(placed, "units", units[:i] + (unit,) + units[i + 1:])
            return placed
    return board.with_unit(unit)


def get_ally(board: Board, recipient: Unit, uid: str | None) -> Unit | None:
    """``redirect.get_ally``: the unit a redirect names, if it is on the board, on the recipient's side, and not it."""
    if uid is None or uid == recipient.uid:
        return None
    ally = _find(board, uid)
    return ally if ally is not None and ally.side == recipient.side else None


def _find(board: Board, uid: str | None) -> Unit | None:
    """The unit ``uid`` names, or None when it names none on the board."""
    for unit in board.units:
        if unit.uid == uid:
            return unit
    return None


# --------------------------------------------------------------------------------------
# The arithmetic (proved equal to the model's in proofs/combat/fast_theorems.py)
# --------------------------------------------------------------------------------------


def adjust_tick(recipient: Unit, instance: Any) -> Any:
    """A Burn or Venom tick: Prismbreak's 50% rounded up, then both tick reductions; a moved one is not adjusted (500.1h)."""
    amount = instance.amount
    if instance.kind not in DAMAGE_OVER_TIME_KINDS or instance.redirected:
        return amount
    if recipient.prismbroken:
        amount = ceildiv(3 * amount, 2)
    return amount - recipient.rune_tick_reduction - recipient.forge_tick_reduction


def is_reachable(unit: Unit, instance: Any) -> bool:
    """A living unit, no Tool or Hub, not shut by Dormancy for this instance (500.1-1, 500.1-2, 500.1i)."""
    if not unit.alive or unit.is_tool or unit.is_hub:
        return False
    return not unit.dormant or bool(instance.allows_dormant) or instance.kind in DAMAGE_OVER_TIME_KINDS


def pass_gates(recipient: Unit, instance: Any) -> Gates:
    """The adjusted amount, a prevented tick, a discarded instance, and what enters the pipeline (500.1h, 500.1-1..3)."""
    amount = adjust_tick(recipient, instance)
    tick = instance.kind in DAMAGE_OVER_TIME_KINDS and not instance.redirected
    live = bool(recipient.alive)
    prevented = tick and live and instance.amount > 0 and amount <= 0
    discards = bool(recipient.is_tool or recipient.is_hub)
    by_tool = live and amount > 0 and discards
    shut = bool(recipient.dormant) and not (bool(instance.allows_dormant) or instance.kind in DAMAGE_OVER_TIME_KINDS)
    by_dormancy = live and amount > 0 and not discards and shut
    entering = amount if amount > 0 and live and not discards and not shut else 0  # reachable (is_reachable)
    return Gates(amount, prevented, by_tool, by_dormancy, entering)


def reduce_by_armor(recipient: Unit, instance: Any, damage_in: Any, ruleset: Ruleset) -> Any:
    """Armor's percentage (the model's own searches), then the flat reduction; Burn, Venom and Reflect skip it."""
    if instance.kind in DAMAGE_OVER_TIME_KINDS or instance.kind == "reflect":
        return damage_in
    value = recipient.armor
    if type(damage_in) is int and type(value) is int:
        surviving = survive_armor(damage_in, value, ruleset)
    elif value >= 0:
        surviving = armor.compute_surviving_after_positive_armor(damage_in, value)
    else:
        surviving = armor.compute_surviving_after_negative_armor(damage_in, value, ruleset)
    flat = arith.floordiv(value, armor.ARMOR_PER_FLAT_POINT) if value > 0 else 0
    left = surviving - flat
    return left if left >= 0 else 0


_SURVIVING: dict[tuple[int, int, str], int] = {}


def survive_armor(damage_in: int, value: int, ruleset: Ruleset) -> int:
    """The model's own Armor search on integers, remembered (a pure function of these three; 500.2a-d).

    The lethal test and the instance itself ask the same question, and small numbers recur.
    """
    key = (damage_in, value, ruleset.negative_armor)
    surviving = _SURVIVING.get(key)
    if surviving is None:
        if len(_SURVIVING) >= 65_536:
            _SURVIVING.clear()
        if value >= 0:
            surviving = armor.compute_surviving_after_positive_armor(damage_in, value)
        else:
            surviving = armor.compute_surviving_after_negative_armor(damage_in, value, ruleset)
        _SURVIVING[key] = surviving
    return surviving


def spend_points(points: Any, damage_in: Any) -> tuple[Any, Any]:
    """Insurance points spent on ``damage_in`` and what they absorb: one per 25 or part, spent whole (500.1a)."""
    held = points if points >= 0 else 0
    needed = ceildiv(damage_in, POINT_ABSORBS)
    spent = held if held <= needed else needed
    covered = POINT_ABSORBS * spent
    return spent, damage_in if damage_in <= covered else covered


def drain_shield(pool: Any, multiplier: Any, damage_in: Any, ruleset: Ruleset) -> tuple[Any, Any]:
    """Shield drained and damage absorbed: all of it while the pool holds, else what paid it off (500.1-10)."""
    demand = shield.compute_drain_demand(multiplier, damage_in)
    held = pool if pool >= 0 else 0
    drained = held if held <= demand else demand
    if demand <= pool:
        return drained, damage_in
    breaks_at = shield.compute_damage_to_break(pool, multiplier, ruleset)
    return drained, damage_in if damage_in <= breaks_at else breaks_at


def compute_redirected(remaining: Any, cap: Any, ruleset: Ruleset) -> Any:
    """What the ally redirect moves: up to the cap, or what exceeds it (500.1-11, INT-003)."""
    cap = cap if cap >= 0 else 0
    if ruleset.redirect_cap_moves == "up_to_cap":
        return remaining if remaining <= cap else cap
    excess = remaining - cap
    return excess if excess >= 0 else 0


def is_ignored(recipient: Unit, instance: Any, entering: Any, ruleset: Ruleset) -> Any:
    """A damage-ignore charge discards a positive instance, unless a Reflect enters below it (500.1-4, INT-005)."""
    if instance.kind == "reflect" and ruleset.reflect_entry == "below_armor":
        return False
    return entering > 0 and recipient.ignore_charges > 0


def apply_cap(recipient: Unit, damage_in: Any) -> Any:
    """A printed post-Armor cap truncates what is left (500.1-7, INT-007)."""
    if not recipient.has_cap:
        return damage_in
    cap = recipient.cap if recipient.cap >= 0 else 0
    return damage_in if damage_in <= cap else cap


def defy_death(recipient: Unit, kept: Any, ruleset: Ruleset) -> tuple[Any, Any]:
    """Whether an armed rune defies a lethal remainder, and what reaches Vitality then (500.1-12, INT-004)."""
    defied = bool(recipient.defy_death) and kept > 0 and kept >= recipient.vitality
    if not defied:
        return False, kept
    left = recipient.vitality - ruleset.defy_death_leaves
    return True, left if left >= 0 else 0


_NOTHING: dict[tuple[Any, Any], Figures] = {}


def nothing_met(entering: Any, ignored: Any) -> Figures:
    """The figures of an instance no layer met: all 0 (a tuple is immutable, so one per amount is kept)."""
    if type(entering) is not int:
        return Figures(entering, ignored, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, 0)
    key = (entering, ignored)
    figures = _NOTHING.get(key)
    if figures is None:
        if len(_NOTHING) > 4096:
            _NOTHING.clear()
        figures = _NOTHING[key] = Figures(entering, ignored, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, 0)
    return figures


def mitigate(recipient: Unit, instance: Any, entering: Any, multiplier: Any, redirect_open: Any, redirect_cap: Any,
             ruleset: Ruleset) -> Figures:
    """Steps 500.1-4 to 500.1-12 on what entered, in pipeline order: ``damage.compute_mitigation``'s figures."""
    ignored = is_ignored(recipient, instance, entering, ruleset)
    if ignored or entering == 0:  # nothing meets the layers: every figure is 0 (proved of the model)
        return nothing_met(entering, ignored)
    after_armor = reduce_by_armor(recipient, instance, entering, ruleset)
    after_cap = apply_cap(recipient, after_armor)
    subrogated_spent, subrogated_absorbed = spend_points(recipient.subrogated, after_cap)
    uninsured = after_cap - subrogated_absorbed
    insurance_spent, insurance_absorbed = spend_points(recipient.insurance, uninsured)
    unshielded = uninsured - insurance_absorbed
    drained, absorbed = drain_shield(recipient.shield, multiplier, unshielded, ruleset)
    after_shield = unshielded - absorbed
    redirected = compute_redirected(after_shield, redirect_cap, ruleset) if redirect_open else 0
    defied, remainder = defy_death(recipient, after_shield - redirected, ruleset)
    return Figures(entering, ignored, after_armor, after_cap, subrogated_spent, subrogated_absorbed, insurance_spent,
                   insurance_absorbed, drained, absorbed, after_shield, redirected, defied, remainder)


def test_lethality(recipient: Unit, instance: Any, entering: Any, multiplier: Any,
                   ruleset: Ruleset) -> tuple[bool, Figures | None]:
    """Whether the hit counts as lethal: it would kill through steps 4-13 alone, or its raw amount would
    (500.1f, INT-006); with the figures of "alone" when they were worked out (no ally redirect in them)."""
    if ruleset.lethal_redirect_test == "raw_amount":
        return entering > 0 and entering >= recipient.vitality, None
    alone = mitigate(recipient, instance, entering, multiplier, False, 0, ruleset)
    return alone.remainder > 0 and alone.remainder >= recipient.vitality, alone


def compute_lost(unit: Unit, remainder: Any) -> Any:
    """The Vitality that leaves a living unit: the remainder, never more than it has (500.1-13)."""
    if not unit.alive:
        return 0
    return remainder if remainder <= unit.vitality else unit.vitality


# --------------------------------------------------------------------------------------
# The pipeline: the same steps and events as damage.process_damage_instance
# --------------------------------------------------------------------------------------


def resolve_fast(board: Board, instance: Any, ruleset: Ruleset) -> tuple[Board, EventLog, Any]:
    """``damage.resolve_damage`` on plain integers: the board, the events and the outcome (500.1)."""
    log = _new(EventLog)  # ``EventLog()`` without its generated ``__init__``
    log.entries = []
    board, outcome = land(board, instance, ruleset, log)
    return board, log, outcome


def land(board: Board, instance: Any, ruleset: Ruleset, log: EventLog) -> tuple[Board, Any]:
    """One instance, step by step (500.1): ``damage.process_damage_instance``'s steps, in its order."""
    recipient = board.unit(instance.target)
    if instance.redirected and instance.amount == 0:
        return board, quiet_outcome(recipient.uid)
    source = _find(board, instance.source)
    multiplier = max_(source.shield_multiplier, 1) if source is not None else 1
    gates = pass_gates(recipient, instance)
    if gates.tick_prevented or gates.by_tool_or_hub or gates.by_dormancy:
        report_gates(recipient, instance, gates, log)
    board, entering, intercepted, interceptor_outcome, alone = intercept(
        board, recipient, instance, gates.entering, multiplier, ruleset, log)
    receiver = None if instance.redirected else get_ally(board, recipient, recipient.redirect_to)
    redirect_open = receiver is not None and is_reachable(receiver, instance)
    if alone is not None and not intercepted and not redirect_open:
        m = alone  # the same question the lethal test asked: mitigate is a pure function of these
    else:
        m = mitigate(recipient, instance, entering, multiplier, redirect_open, recipient.redirect_cap, ruleset)
    board, paid, receiver_outcome = report_layers(board, recipient, source, instance, m, receiver, ruleset, log)
    board, lost = take_vitality(board, recipient.uid, instance, m, ruleset, log)
    return board, build_outcome(recipient, m, lost, ruleset, gates, intercepted, paid, interceptor_outcome,
                                receiver_outcome)


def report_gates(recipient: Unit, instance: Any, gates: Gates, log: EventLog) -> None:
    """A prevented tick, a discarded instance (500.1h, 500.1-1, 500.1-2)."""
    if gates.tick_prevented:
        _emit(log, "tick_prevented", recipient.uid, instance.amount, instance.source, instance.kind)
    if gates.by_tool_or_hub:
        _emit(log, "damage_discarded", recipient.uid, gates.amount, instance.source, "tool_or_hub")
    if gates.by_dormancy:
        _emit(log, "damage_discarded", recipient.uid, gates.amount, instance.source, "dormant")


def intercept(board: Board, recipient: Unit, instance: Any, entering: Any, multiplier: Any, ruleset: Ruleset,
              log: EventLog) -> tuple[Board, Any, bool, Any, Figures | None]:
    """The lethal redirect (500.1f): ``(board, entering, intercepted, interceptor_outcome, alone)``.

    ``alone``: the figures the lethal test worked out for the recipient with no ally redirect, or None.
    """
    if instance.redirected or (instance.kind == "reflect" and ruleset.reflect_entry == "below_armor"):
        return board, entering, False, None, None
    interceptor = get_ally(board, recipient, recipient.intercept_by)
    if interceptor is None:
        return board, entering, False, None, None
    lethal, alone = test_lethality(recipient, instance, entering, multiplier, ruleset)
    intercepted = lethal and is_reachable(interceptor, instance)
    moved = entering if intercepted else 0
    if intercepted:
        _emit(log, "lethal_redirect", recipient.uid, moved, interceptor.uid)
    board, outcome = move(board, instance, interceptor.uid, moved, ruleset, log)
    return board, 0 if intercepted else entering, intercepted, outcome, alone


def move(board: Board, instance: Any, receiver: str, amount: Any, ruleset: Ruleset, log: EventLog) -> tuple[Board, Any]:
    """Moved damage lands as the receiver's own instance; nothing moved does nothing at all (500.1g, 500.1-3)."""
    if amount == 0:
        return board, quiet_outcome(receiver)
    return land(board, damage.moved_instance(instance, receiver, amount), ruleset, log)


_QUIET: dict[str, Any] = {}


def quiet_outcome(target: str) -> Any:
    """``damage.quiet_outcome``, made once per unit (an outcome is immutable, so one can be shared)."""
    outcome = _QUIET.get(target)
    if outcome is None:
        outcome = _QUIET[target] = damage.quiet_outcome(target)
    return outcome


def spend_layers(unit: Unit, m: Figures) -> Unit:
    """The recipient's spent layers: an ignore charge, Insurance points, Shield, the defy-death charge."""
    if not (m.ignored or m.subrogated_spent or m.insurance_spent or m.shield_drained or m.defied):
        return unit
    return _evolve(
        unit,
        ignore_charges=unit.ignore_charges - (1 if m.ignored else 0),
        subrogated=unit.subrogated - m.subrogated_spent,
        insurance=unit.insurance - m.insurance_spent,
        shield=unit.shield - m.shield_drained,
        defy_death=False if m.defied else unit.defy_death,
        defy_death_spent=bool(unit.defy_death_spent or m.defied),
    )


def report_layers(board: Board, recipient: Unit, source: Unit | None, instance: Any, m: Figures,
                  receiver: Unit | None, ruleset: Ruleset, log: EventLog) -> tuple[Board, Any, Any]:
    """Spend the layers and report each in order (500.1-4..500.1-12): ``(board, payback, receiver_outcome)``."""
    current = board.unit(recipient.uid)
    spent = spend_layers(current, m)
    board = board if spent is current else _place(board, spent)
    uid, by = recipient.uid, instance.source
    if m.ignored:
        _emit(log, "ignore_charge_spent", uid, 0, by)
    if m.subrogated_spent > 0:
        _emit(log, "insurance_prevented", uid, m.subrogated_absorbed, by, "subrogated")
    paid = 0
    if m.subrogated_absorbed > 0:
        board, paid = pay_back(board, recipient, source, m.subrogated_absorbed, ruleset, log, instance.kind)
    if m.insurance_spent > 0:
        _emit(log, "insurance_prevented", uid, m.insurance_absorbed, by, "plain")
    if m.shield_drained > 0:
        _emit(log, "shield_damaged", uid, m.shield_drained, by)
        if recipient.shield - m.shield_drained <= 0:
            _emit(log, "shield_broken", uid, 0, by)
    receiver_outcome = None
    if receiver is not None:
        if m.redirected > 0:
            _emit(log, "redirect", uid, m.redirected, receiver.uid)
        board, receiver_outcome = move(board, instance, receiver.uid, m.redirected, ruleset, log)
    if m.defied:
        _emit(log, "defy_death", uid, m.after_shield - m.redirected - m.remainder, by)
    return board, paid, receiver_outcome


def take_vitality(board: Board, uid: str, instance: Any, m: Figures, ruleset: Ruleset,
                  log: EventLog) -> tuple[Board, Any]:
    """Vitality is reduced: damage taken, credit and Feast, a boss's meters, then the loss and a death (500.1-13)."""
    unit = board.unit(uid)
    lost = compute_lost(unit, m.remainder)
    if lost > 0 and instance.kind != "reflect":
        _emit(log, "damage_taken", uid, lost, instance.source, instance.kind)
    dealt = m.shield_absorbed + lost
    if dealt > 0 or lost > 0 or instance.appliers:  # nothing dealt credits and feeds nobody (500.5a)
        credit(board, instance, uid, dealt, lost, ruleset, log)
    if unit.is_boss:
        report_boss_meters(unit, instance, dealt, lost, ruleset, log)
    return settle_loss(board, unit, lost, instance.source, log, placed=True), lost


def settle_loss(board: Board, unit: Unit, lost: Any, killer: str | None, log: EventLog, placed: bool) -> Board:
    """``vitality.lose_vitality`` after its announcement: the loss, its listeners, a death (500.1-13, 500.6c, 500.4a).

    ``placed``: ``unit`` already stands on ``board`` (else it is put there, changed or not).
    """
    if lost > 0:
        after = reset_on_loss(unit, lost, log)
    else:  # nothing left; or, off the domain (Vitality below 0), a "loss" below 0 that no listener hears
        after = unit if lost == 0 else _evolve(unit, vitality=unit.vitality - lost)
    if after is not unit or not placed:
        board = _place(board, after)
    if lost > 0 and unit.alive and after.vitality <= 0:
        return die(board, after, killer, log)
    return board


def die(board: Board, unit: Unit, killer: str | None, log: EventLog) -> Board:
    """A death with no Vessel to spend: death, Macabre, deathrattle, Everlasting, the batch (500.4a-e).

    With a Vessel, a revival and its listeners follow: that is the model's own ``process_death``.
    """
    if unit.vessels > 0 and unit.max_vitality > 0:  # revival.is_revivable
        return vitality.process_death(board, unit.uid, True, killer, log)
    start = len(log.entries)
    uid = unit.uid
    _emit(log, "death", uid, 0, killer)
    for other in board.units:
        if other.uid != uid and other.alive:
            _emit(log, "macabre", other.uid, 0, uid)
    if unit.deathrattle:
        _emit(log, "deathrattle", uid)
    board = _place(board, vitality.clear_combat_state(unit))
    if unit.everlasting and unit.max_vitality > 0:  # revival.is_revivable
        _emit(log, "everlasting_scheduled", uid, vitality.EVERLASTING_DELAY_MS, killer)
    _emit(log, "vessel_batch", uid, len(log.entries) - start, None, "death")
    return board


def pay_back(board: Board, recipient: Unit, source: Unit | None, absorbed: Any, ruleset: Ruleset, log: EventLog,
             kind: str) -> tuple[Board, Any]:
    """An enemy source pays what the Subrogated points absorbed, as a retaliation cost (500.1-8, 500.7g, 500.8):
    ``damage.process_subrogation_payback``, the cost paid by :func:`pay_cost`."""
    if source is None or source.uid == recipient.uid or source.side == recipient.side:
        return board, 0
    if damage.is_reflect_payback_refused(kind, ruleset) or not absorbed > 0:
        return board, 0
    # An enemy of the recipient on the board: no side rule refuses it (500.6h), as the model then finds again.
    return pay_cost_by(board, board.unit(source.uid), absorbed, "retaliation", log, "subrogation", recipient.uid, ruleset)


def credit(board: Board, instance: Any, recipient: str, credited: Any, lost: Any, ruleset: Ruleset,
           log: EventLog) -> None:
    """The source is credited and fed, unless the model withholds friendly damage (INT-357), a dead source's
    (INT-355) or a boss's Vitality (INT-123); a shared tick's split is the model's own (500.5a, 500.5b, 500.5c)."""
    if instance.appliers:
        attribution.process_credit(instance, recipient, credited, lost, log, ruleset, board)
        return
    if instance.source is None or attribution.is_credit_withheld(board, instance.source, recipient, ruleset) or \
            attribution.is_dead_source_withheld(board, instance.source, instance.kind, ruleset):
        return
    if credited > 0:
        _emit(log, "credit", instance.source, credited, recipient)
    if lost > 0 and not attribution.is_feast_withheld_from_boss(board, recipient, ruleset):
        _emit(log, "feast", instance.source, lost, recipient)


def report_boss_meters(unit: Unit, instance: Any, dealt: Any, lost: Any, ruleset: Ruleset, log: EventLog) -> None:
    """Phasebreak on Vitality lost; Stagger on direct damage dealt (500.6g, INT-401)."""
    if not unit.is_boss:
        return
    if lost > 0:
        _emit(log, "phasebreak_check", unit.uid, lost, instance.source)
    if dealt > 0 and damage.is_direct_damage(instance, ruleset):
        _emit(log, "stagger", unit.uid, dealt, instance.source)


def reset_on_loss(unit: Unit, lost: Any, log: EventLog) -> Unit:
    """Vitality leaves: the reset runes lose their bonus and thresholds re-evaluate (500.1-13, 500.6c, 500.8d).

    One copy of the unit for the loss and the resets (the model makes two, the same in the end).
    """
    _emit(log, "vitality_lost", unit.uid, lost)
    for rune in VITALITY_LOSS_RUNES:
        if getattr(unit, rune) > 0:
            _emit(log, "rune_reset", unit.uid, 0, None, rune)
    _emit(log, "threshold_reevaluated", unit.uid)
    return _evolve(unit, vitality=unit.vitality - lost, adrenaline=0, momentum=0, bolster=0)


# --------------------------------------------------------------------------------------
# A Vitality cost: the same steps and events as costs.pay_vitality_cost
# --------------------------------------------------------------------------------------


def pay_cost(board: Board, payer: str, amount: int, kind: str, log: EventLog, channel: str,
             beneficiary: str | None, ruleset: Ruleset, when: bool) -> tuple[Board, Any]:
    """``costs.pay_vitality_cost`` on plain integers, of a cost that happens or does not (``when``) (500.8).

    What it decides is the model's own: the refusals, the price, defy-death, the Shield scrapped
    and Interest's maximum are ``costs``' functions; the loss and a death are :func:`settle_loss`.
    """
    side = costs.compute_side_refusal(board, payer, beneficiary, kind)
    if side is not None:
        if when:
            _emit(log, "cost_refused", payer, 0, beneficiary, side)
        return board, 0
    unit = board.unit(payer)
    if not when:
        return skip_cost(board, unit, amount, kind, log, channel, beneficiary, ruleset)
    if kind == "interest" and ruleset.zero_maximum_revival != "stays_dead":  # INT-120's other reading: the model's
        with disabled():
            return costs.pay_vitality_cost(board, payer, amount, kind, log, channel=channel, beneficiary=beneficiary,
                                           ruleset=ruleset)
    return pay_cost_by(board, unit, amount, kind, log, channel, beneficiary, ruleset)


def pay_cost_by(board: Board, unit: Unit, amount: int, kind: str, log: EventLog, channel: str,
                beneficiary: str | None, ruleset: Ruleset) -> tuple[Board, Any]:
    """A cost that happens, by a payer no side rule refuses (500.6h): refusals, price, defy-death, the loss (500.8)."""
    payer = unit.uid
    reason = refusal_reason(unit, kind)
    if reason is not None:
        _emit(log, "cost_refused", payer, 0, beneficiary, reason)
    owed = 0 if reason is not None else costs.compute_price(unit, amount, kind)
    defied = reason is None and bool(costs.is_defied(unit, owed, kind))
    price = costs.compute_defied_price(unit, ruleset) if defied else owed
    if defied:
        _emit(log, "defy_death", payer, max_(amount, 0) - price, beneficiary)
    scrapped = reason is None and bool(costs.scraps_shield(unit, kind))
    if scrapped:
        _emit(log, "shield_scrapped", payer, unit.shield)
    paying = unit
    if defied or scrapped or kind == "interest" or type(unit.defy_death_spent) is not bool:  # else it equals the unit
        paying = _evolve(unit, defy_death=False if defied else unit.defy_death,
                         defy_death_spent=arith.or_(unit.defy_death_spent, defied), shield=0 if scrapped else unit.shield,
                         max_vitality=costs.compute_max_vitality_after(unit, price, kind))
    lost = compute_lost(paying, price)
    announce_cost(paying, kind, channel, beneficiary, lost, log)
    killer = costs.compute_killer(payer, beneficiary, kind)
    return settle_loss(board, paying, lost, killer, log, placed=paying is unit), lost


def skip_cost(board: Board, unit: Unit, amount: int, kind: str, log: EventLog, channel: str,
              beneficiary: str | None, ruleset: Ruleset) -> tuple[Board, Any]:
    """A cost that does not happen: nothing is emitted, nothing moves, the board stays as it was.

    The model pays a price of 0 then, which leaves every field as it was for a payer that is dead or
    holds Vitality >= 0 and a bool ``defy_death_spent``; any other payer is the model's to pay.
    """
    if type(unit.defy_death_spent) is bool and (not unit.alive or unit.vitality >= 0):
        return board, 0
    with disabled():
        return costs.pay_vitality_cost(board, unit.uid, amount, kind, log, channel=channel, beneficiary=beneficiary,
                                       ruleset=ruleset, when=False)


def refusal_reason(unit: Unit, kind: str) -> str | None:
    """Why a payer is refused outright, if it is: the one reason ``costs.compute_refusal_reasons`` finds true."""
    for reason, condition in costs.compute_refusal_reasons(unit, kind):
        if condition:
            return reason
    return None


def announce_cost(unit: Unit, kind: str, channel: str, beneficiary: str | None, lost: Any, log: EventLog) -> None:
    """``costs.cost_announcer``: the channel, Interest's lowered maximum, a retaliator's credit, when Vitality left (500.8i)."""
    if not lost > 0:
        return
    _emit(log, channel, unit.uid, lost, beneficiary, kind if channel == "cost_paid" else None)
    if kind == "interest":
        _emit(log, "max_vitality_lowered", unit.uid, lost)
    if kind == "retaliation" and beneficiary is not None:
        _emit(log, "credit", beneficiary, lost, unit.uid)
        if unit.is_boss:  # a boss checks Phasebreak and feeds nobody (500.6f, 500.6g)
            _emit(log, "phasebreak_check", unit.uid, lost, beneficiary)
        else:
            _emit(log, "feast", beneficiary, lost, unit.uid)


def build_outcome(recipient: Unit, m: Figures, lost: Any, ruleset: Ruleset, gates: Gates, intercepted: bool,
                  paid: Any, interceptor_outcome: Any, receiver_outcome: Any) -> Any:
    """The instance's record, as ``damage.build_outcome`` makes it (500.1): its fields in declaration order."""
    entered = m.entering > 0 and not m.ignored
    spent = m.subrogated_spent + m.insurance_spent > 0
    reached = m.after_shield > 0 if ruleset.damage_event_test == "after_shield" else lost > 0
    return _new_outcome(damage.DamageOutcome, (
        recipient.uid, entered, m.after_armor, m.subrogated_spent, m.subrogated_absorbed, m.insurance_spent,
        m.insurance_absorbed, m.shield_drained, m.shield_absorbed, m.redirected, m.defied, lost,
        entered and (spent or reached),  # damage_event
        lost > 0,  # landed
        lost > 0 and bool(recipient.alive) and recipient.vitality - lost <= 0,  # died
        gates.amount, gates.tick_prevented, gates.by_tool_or_hub or gates.by_dormancy, m.ignored, intercepted,
        m.after_cap, m.after_shield - m.redirected - m.remainder, paid, interceptor_outcome, receiver_outcome,
    ))


damage.FAST_TWIN = costs.FAST_TWIN = sys.modules[__name__]
