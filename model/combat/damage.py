"""500.1 One damage instance: the pipeline every hit, tick, share and Reflect runs through.

:func:`resolve_damage` is the public entry: a board and a :class:`DamageInstance` in, the
new board, the events and a :class:`DamageOutcome` out. The pipeline, in order:

* 500.1h  a Burn or Venom tick is adjusted first; one brought to 0 never enters;
* 500.1-1..3  the gates: a Tool or Hub, a Dormant unit (unless allowed, or a tick: 500.1i),
  a dead recipient or a non-positive amount;
* 500.1f  a lethal hit moves whole to the interceptor, before mitigation;
* 500.1-4  a damage-ignore charge discards the instance;
* 500.1-5..6  Armor's percentage and flat reduction (skipped by Burn, Venom and Reflect);
* 500.1-7  the post-Armor cap;
* 500.1-8..9  Subrogated, then plain Insurance points (the source pays back the first);
* 500.1-10  Shield, drained by the source's multiplier;
* 500.1-11  the ally redirect moves part of the rest to the redirector;
* 500.1-12  a defy-death rune makes a lethal remainder survivable;
* 500.1-13  Vitality is lost, and the unit may die.

The arithmetic is written once over ``arith`` (``ite``, ``min_``, ...), so the same code
builds the Z3 encoding inside ``with symbolic():``. Structure stays concrete: unit ids,
which ally receives a redirect, the instance kind and the event names. Every amount that
can be 0 flows through the later steps as 0, and a step that meets 0 emits nothing and
changes nothing, so the pipeline is straight-line code on every path.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ..arith import and_, is_symbolic, ite, max_, min_, not_, or_
from .armor import apply_armor_flat, apply_armor_percentage
from .attribution import process_credit
from ..clauses import combat
from .costs import pay_vitality_cost
from ..events import EventLog
from ..readings import by_reading
from .insurance import compute_points_absorbed, compute_points_spent
from .redirect import compute_redirected, get_ally, is_reachable
from .ruleset import DEFAULT, Ruleset
from .shield import compute_multiplier, compute_shield_absorbed, compute_shield_drain
from .state import Board, Bool, Int, Unit
from .ticks import compute_adjusted_tick, is_damage_over_time
from .vitality import lose_vitality

#: Every kind of damage instance (500.1): a hit, a Burn or Venom tick, a Tremor half, an
#: AoE share, a boss Reflect, and an overtime tick (no actor behind it, 500.1c).
DAMAGE_KINDS = ("hit", "burn", "venom", "tremor", "aoe", "reflect", "overtime")


@dataclass(frozen=True, slots=True)
class DamageInstance:
    """One damage instance aimed at ``target``."""

    target: str
    amount: Int
    source: str | None = None  # None: no actor behind it (an overtime tick, 500.1c)
    kind: str = "hit"  # hit | burn | venom | tremor | aoe | reflect | overtime
    allows_dormant: Bool = False  # the source explicitly allows hitting a Dormant unit (500.1-2)
    riposte_rolls: tuple = ()  # read by the retaliation chapter; carried along untouched
    redirected: bool = False  # moved here by a redirect (500.1f, 500.1-11): never redirected again
    #: The units a tick is attributed to, each a ``(uid, applied)`` pair or a bare uid (applied 1):
    #: credit and Feast are split by what each applied (500.5b, 500.5c) and each is answered
    #: (500.7e). ``()`` means the source alone, credited in full (500.5a).
    appliers: tuple[str | tuple[str, Int], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in DAMAGE_KINDS:
            raise ValueError(f"damage instance: unknown kind {self.kind!r} (known: {', '.join(DAMAGE_KINDS)})")
        for i, entry in enumerate(self.appliers):
            if not is_valid_applier(entry):
                raise ValueError(f"damage instance: appliers[{i}] must be a uid or a (uid, applied > 0) pair, got {entry!r}")


def is_valid_applier(entry: Any) -> bool:
    """A bare uid, or a ``(uid, applied)`` pair whose concrete amount is a positive integer."""
    if isinstance(entry, str):
        return True
    if not isinstance(entry, tuple) or len(entry) != 2 or not isinstance(entry[0], str):
        return False
    applied = entry[1]
    return is_symbolic(applied) or (isinstance(applied, int) and not isinstance(applied, bool) and applied > 0)


class DamageOutcome(NamedTuple):
    """What happened to the recipient of one instance (read by retaliation and by theorems).

    A named tuple rather than a frozen dataclass: as immutable, read by name the same way, and
    built ten times faster (one ``tuple.__new__`` of 25 values against 25 frozen
    ``__setattr__`` calls); the fast twin (:mod:`.fast`) builds one per instance.

    ``interceptor_outcome`` and ``receiver_outcome`` are the outcomes of the damage a lethal
    redirect or an ally redirect moved (500.1f, 500.1g); ``None`` when no such ally exists.
    """

    target: str
    entered: Bool  # passed the gates and the ignore charge, and was not moved by a lethal redirect
    after_armor: Int
    subrogated_spent: Int
    subrogated_absorbed: Int
    insurance_spent: Int
    insurance_absorbed: Int
    shield_drained: Int
    shield_absorbed: Int
    redirected: Int  # moved to the ally redirect's receiver (500.1-11)
    defied: Bool
    vitality_lost: Int
    damage_event: Bool  # a damage event Thorns and Riposte answer (500.7c, 500.7d, INT-008)
    landed: Bool  # Vitality was lost: what Retort answers (500.7f)
    died: Bool
    amount: Int = 0  # the amount after the tick adjustment (500.1h)
    tick_prevented: Bool = False
    discarded: Bool = False  # by a Tool, Hub or Dormant recipient (500.1-1, 500.1-2)
    ignored: Bool = False  # a damage-ignore charge was spent (500.1-4)
    intercepted: Bool = False  # the whole hit moved to the interceptor (500.1f)
    after_cap: Int = 0
    defy_prevented: Int = 0
    subrogation_paid: Int = 0  # Vitality the source actually lost to the Subrogated payback
    interceptor_outcome: DamageOutcome | None = None
    receiver_outcome: DamageOutcome | None = None


#: The fields of a :class:`DamageOutcome`, in declaration order.
OUTCOME_FIELDS: tuple[str, ...] = DamageOutcome._fields


@dataclass(frozen=True, slots=True)
class Mitigation:
    """The numbers of steps 500.1-4 .. 500.1-12 on one recipient: pure arithmetic, no events."""

    entering: Int
    ignored: Bool
    after_armor: Int
    after_cap: Int
    subrogated_spent: Int
    subrogated_absorbed: Int
    insurance_spent: Int
    insurance_absorbed: Int
    shield_drained: Int
    shield_absorbed: Int
    after_shield: Int
    redirected: Int
    defied: Bool
    remainder: Int  # what step 500.1-13 takes from Vitality

    @property
    def entered(self) -> Bool:
        return and_(self.entering > 0, not_(self.ignored))

    @property
    def defy_prevented(self) -> Int:
        return self.after_shield - self.redirected - self.remainder


def is_nothing_moved(instance: DamageInstance) -> bool:
    """Concretely, a redirect moved no damage: the receiver's instance would do nothing at all (500.1-3).

    A shortcut of the concrete run only (most redirects move nothing); a symbolic run always
    builds the receiver's whole instance, which then does nothing for 0.
    """
    return instance.redirected and not is_symbolic(instance.amount) and instance.amount == 0


def quiet_outcome(target: str) -> DamageOutcome:
    """The outcome of an instance that did nothing at all (500.1-3)."""
    return DamageOutcome(target, False, 0, 0, 0, 0, 0, 0, 0, 0, False, 0, False, False, False)


# --------------------------------------------------------------------------------------
# What the instance is
# --------------------------------------------------------------------------------------


@combat.implements("500.1d", "500.1j", "500.7j")
def is_ignoring_armor(instance: DamageInstance) -> bool:
    """Burn and Venom set the ignore-Armor flag; a Reflect skips the attacker's Armor (500.1d, 500.7j)."""
    return is_damage_over_time(instance.kind) or instance.kind == "reflect"


@combat.implements("500.1j", "500.7j")
def is_entering_below_armor(instance: DamageInstance, ruleset: Ruleset) -> Bool:
    """A Reflect that enters below the Armor steps skips the lethal redirect and the ignore charge (INT-005).

    For a Reflect on a symbolic reading this is a condition (``model/readings.py``); else a bool.
    """
    if instance.kind != "reflect":
        return False
    return ruleset.reflect_entry == "below_armor"


@combat.implements("500.1h")
def compute_entering_amount(recipient: Unit, instance: DamageInstance) -> Int:
    """A Burn or Venom tick is adjusted before the pipeline; a moved tick is not adjusted again (500.1h)."""
    if is_damage_over_time(instance.kind) and not instance.redirected:
        return compute_adjusted_tick(recipient, instance.amount)
    return instance.amount


# --------------------------------------------------------------------------------------
# The gates: 500.1h, 500.1-1, 500.1-2, 500.1-3
# --------------------------------------------------------------------------------------


@combat.implements("500.1h")
def is_tick_prevented(recipient: Unit, instance: DamageInstance, amount: Int) -> Bool:
    """A positive tick the adjustment brought to 0 or below never enters (500.1h, INT-016)."""
    if not is_damage_over_time(instance.kind) or instance.redirected:
        return False
    return and_(recipient.alive, instance.amount > 0, amount <= 0)


@combat.implements("500.1-1")
def is_discarded_by_tool_or_hub(recipient: Unit, amount: Int) -> Bool:
    """Damage aimed at a Tool or a Hub is discarded (500.1-1, INT-016)."""
    return and_(recipient.alive, amount > 0, recipient.discards_combat)


@combat.implements("500.1-2", "500.1i")
def is_discarded_by_dormancy(recipient: Unit, instance: DamageInstance, amount: Int) -> Bool:
    """A Dormant recipient discards the damage unless the source allows it or it is a tick (500.1-2, 500.1i)."""
    shut = and_(recipient.dormant, not_(or_(instance.allows_dormant, is_damage_over_time(instance.kind))))
    return and_(recipient.alive, amount > 0, not_(recipient.discards_combat), shut)


@combat.implements("500.1-1", "500.1-2", "500.1-3", "500.1i")
def is_passing_gates(recipient: Unit, instance: DamageInstance, amount: Int) -> Bool:
    """A positive instance against a living, reachable recipient enters the pipeline (500.1-1..3)."""
    return and_(amount > 0, is_reachable(recipient, instance.kind, instance.allows_dormant))


@combat.implements("500.1-1", "500.1-2", "500.1h")
def process_gate_events(recipient: Unit, instance: DamageInstance, amount: Int, log: EventLog) -> tuple[Bool, Bool]:
    """Report a prevented tick or a discarded instance; a dead recipient or no damage is silent (500.1-3).

    Returns ``(tick prevented, discarded)``.
    """
    prevented = is_tick_prevented(recipient, instance, amount)
    by_tool = is_discarded_by_tool_or_hub(recipient, amount)
    by_dormancy = is_discarded_by_dormancy(recipient, instance, amount)
    log.emit("tick_prevented", when=prevented, unit=recipient.uid, amount=instance.amount, other=instance.source,
             detail=instance.kind)
    log.emit("damage_discarded", when=by_tool, unit=recipient.uid, amount=amount, other=instance.source,
             detail="tool_or_hub")
    log.emit("damage_discarded", when=by_dormancy, unit=recipient.uid, amount=amount, other=instance.source,
             detail="dormant")
    return prevented, or_(by_tool, by_dormancy)


# --------------------------------------------------------------------------------------
# The mitigation arithmetic: 500.1-4 .. 500.1-12
# --------------------------------------------------------------------------------------


@combat.implements("500.1-4")
def is_ignored(recipient: Unit, instance: DamageInstance, entering: Int, ruleset: Ruleset) -> Bool:
    """A damage-ignore charge discards a positive instance that reached it, unless a Reflect enters below Armor
    (500.1-4, INT-005)."""
    below = is_entering_below_armor(instance, ruleset)
    if below is True:
        return False
    reached = and_(entering > 0, recipient.ignore_charges > 0)
    return reached if below is False else and_(not_(below), reached)


@combat.implements("500.1-5", "500.1-6", "500.1d", "500.7j")
def apply_armor(recipient: Unit, instance: DamageInstance, damage: Int, ruleset: Ruleset) -> Int:
    """Armor's percentage, then its flat reduction, unless the instance ignores Armor (500.1-5, 500.1-6)."""
    if is_ignoring_armor(instance):
        return damage
    return apply_armor_flat(apply_armor_percentage(damage, recipient.armor, ruleset), recipient.armor)


@combat.implements("500.1-7")
def apply_incoming_cap(recipient: Unit, damage: Int) -> Int:
    """A printed post-Armor cap truncates what is left; the excess is gone (500.1-7, INT-007)."""
    return ite(recipient.has_cap, min_(damage, max_(recipient.cap, 0)), damage)


@combat.implements("500.1-12")
def is_defied(recipient: Unit, remaining: Int) -> Bool:
    """A lethal remainder meets an armed defy-death rune (500.1-12)."""
    return and_(recipient.defy_death, remaining > 0, remaining >= recipient.vitality)


@combat.implements("500.1-12")
def apply_defy_death(recipient: Unit, remaining: Int, defied: Bool, ruleset: Ruleset) -> Int:
    """A defied remainder leaves the unit ``defy_death_leaves`` Vitality (500.1-12, INT-004)."""
    return ite(defied, max_(recipient.vitality - ruleset.defy_death_leaves, 0), remaining)


@combat.implements(
    "500.1-4", "500.1-5", "500.1-6", "500.1-7", "500.1-8", "500.1-9", "500.1-10", "500.1-11", "500.1-12", "500.1a"
)
def compute_mitigation(
    recipient: Unit,
    instance: DamageInstance,
    entering: Int,
    multiplier: Int,
    redirect_open: Bool,
    redirect_cap: Int,
    ruleset: Ruleset,
) -> Mitigation:
    """Steps 500.1-4 to 500.1-12 on what entered: the numbers only, in pipeline order."""
    ignored = is_ignored(recipient, instance, entering, ruleset)
    after_armor = apply_armor(recipient, instance, ite(ignored, 0, entering), ruleset)
    after_cap = apply_incoming_cap(recipient, after_armor)
    subrogated_spent = compute_points_spent(recipient.subrogated, after_cap)
    subrogated_absorbed = compute_points_absorbed(after_cap, subrogated_spent)
    uninsured = after_cap - subrogated_absorbed
    insurance_spent = compute_points_spent(recipient.insurance, uninsured)
    insurance_absorbed = compute_points_absorbed(uninsured, insurance_spent)
    unshielded = uninsured - insurance_absorbed
    shield_drained = compute_shield_drain(recipient.shield, multiplier, unshielded)
    shield_absorbed = compute_shield_absorbed(recipient.shield, multiplier, unshielded, ruleset)
    after_shield = unshielded - shield_absorbed
    redirected = ite(redirect_open, compute_redirected(after_shield, redirect_cap, ruleset), 0)
    kept = after_shield - redirected
    defied = is_defied(recipient, kept)
    return Mitigation(
        entering, ignored, after_armor, after_cap, subrogated_spent, subrogated_absorbed, insurance_spent,
        insurance_absorbed, shield_drained, shield_absorbed, after_shield, redirected, defied,
        apply_defy_death(recipient, kept, defied, ruleset),
    )


# --------------------------------------------------------------------------------------
# 500.1f The lethal-damage redirect
# --------------------------------------------------------------------------------------


@combat.implements("500.1f", "500.1g")
def get_interceptor(board: Board, recipient: Unit, instance: DamageInstance, ruleset: Ruleset) -> Unit | None:
    """The ally a lethal redirect names, unless the hit was already moved or enters below Armor (INT-009, INT-005).

    Whether an interceptor exists is structure, so a symbolic ``reflect_entry`` is read (and forks the
    query, ``model/readings.py``) only when the recipient names one.
    """
    if instance.redirected:
        return None
    ally = get_ally(board, recipient, recipient.intercept_by)
    if ally is None or is_entering_below_armor(instance, ruleset):
        return None
    return ally


@combat.implements("500.1f")
def is_lethal_hit(recipient: Unit, instance: DamageInstance, entering: Int, multiplier: Int, ruleset: Ruleset) -> Bool:
    """Whether the hit counts as lethal: it would kill through steps 4-13, or its raw amount would (INT-006).

    On a symbolic reading both tests are built and joined (``model/readings.py``).
    """

    def would_kill() -> Bool:
        alone = compute_mitigation(recipient, instance, entering, multiplier, False, 0, ruleset)
        return and_(alone.remainder > 0, alone.remainder >= recipient.vitality)

    return by_reading(
        ruleset.lethal_redirect_test,
        raw_amount=lambda: and_(entering > 0, entering >= recipient.vitality),
        would_kill=would_kill,
    )


@combat.implements("500.1f", "500.1g")
def process_lethal_redirect(
    board: Board, recipient: Unit, interceptor: Unit, instance: DamageInstance, entering: Int, intercepted: Bool,
    ruleset: Ruleset, log: EventLog,
) -> tuple[Board, DamageOutcome]:
    """The whole hit moves to the interceptor and lands there as its own instance (500.1f, 500.1g)."""
    moved = ite(intercepted, entering, 0)
    log.emit("lethal_redirect", when=intercepted, unit=recipient.uid, amount=moved, other=interceptor.uid)
    return process_damage_instance(board, moved_instance(instance, interceptor.uid, moved), ruleset, log)


def moved_instance(instance: DamageInstance, receiver: str, amount: Int) -> DamageInstance:
    """The receiver's own instance of moved damage: same source, kind and flags, never moved again (500.1g)."""
    return replace(instance, target=receiver, amount=amount, redirected=True)


# --------------------------------------------------------------------------------------
# The steps that spend and report: 500.1-4 .. 500.1-13
# --------------------------------------------------------------------------------------


@combat.implements("500.1-4", "500.1-8", "500.1-9", "500.1-10", "500.1-12")
def spend_defences(recipient: Unit, m: Mitigation) -> Unit:
    """The recipient's spent layers: an ignore charge, Insurance points, Shield, the defy-death charge."""
    if is_spending_nothing(m):
        return recipient
    return recipient.evolve(
        ignore_charges=recipient.ignore_charges - ite(m.ignored, 1, 0),
        subrogated=recipient.subrogated - m.subrogated_spent,
        insurance=recipient.insurance - m.insurance_spent,
        shield=recipient.shield - m.shield_drained,
        defy_death=ite(m.defied, False, recipient.defy_death),
        defy_death_spent=or_(recipient.defy_death_spent, m.defied),  # re-armed by a revival (500.9e)
    )


def is_spending_nothing(m: Mitigation) -> bool:
    """Concretely, whether no layer was spent (a shortcut that skips copying an unchanged unit)."""
    spent = (m.ignored, m.subrogated_spent, m.insurance_spent, m.shield_drained, m.defied)
    return not is_symbolic(*spent) and not any(spent)


@combat.implements("500.1-8", "500.1-9", "500.1a", "500.1b")
def process_insurance_events(recipient: Unit, m: Mitigation, detail: str, source: str | None, log: EventLog) -> None:
    """The Insurance-prevented channel, for each kind of point that was spent (500.1-8, 500.1-9)."""
    spent, absorbed = (
        (m.subrogated_spent, m.subrogated_absorbed) if detail == "subrogated" else (m.insurance_spent, m.insurance_absorbed)
    )
    log.emit("insurance_prevented", when=spent > 0, unit=recipient.uid, amount=absorbed, other=source, detail=detail)


@combat.implements("500.1-8", "500.7g", "500.6h")
def process_subrogation_payback(
    board: Board, recipient: Unit, source: Unit | None, absorbed: Int, ruleset: Ruleset, log: EventLog,
    instance_kind: str = "hit",
) -> tuple[Board, Int]:
    """An enemy source loses, as a retaliation cost, exactly what the Subrogated points absorbed (500.1-8, 500.7g)."""
    if source is None or source.uid == recipient.uid or source.side == recipient.side:
        return board, 0
    refused = is_reflect_payback_refused(instance_kind, ruleset)
    if refused is True:
        return board, 0
    due = absorbed > 0 if refused is False else and_(not_(refused), absorbed > 0)
    if not is_symbolic(due) and not due:
        return board, 0
    return pay_vitality_cost(
        board, source.uid, absorbed, "retaliation", log, channel="subrogation", beneficiary=recipient.uid,
        ruleset=ruleset, when=due,
    )


@combat.implements("500.1c", "500.7k")
def is_reflect_payback_refused(kind: str, ruleset: Ruleset) -> Bool:
    """A boss Reflect starts no damage reactions at all, the Subrogated payback included (500.1c, 500.7k, INT-114).

    For a Reflect on a symbolic reading this is a condition (``model/readings.py``); else a bool.
    """
    if kind != "reflect":
        return False
    return ruleset.reflect_subrogation == "no_payback"


@combat.implements("500.1-10", "500.1e")
def process_shield_events(recipient: Unit, m: Mitigation, source: str | None, log: EventLog) -> None:
    """Shield-damaged for the points drained, Shield-broken when the pool reaches 0 (500.1-10)."""
    drained = m.shield_drained > 0
    log.emit("shield_damaged", when=drained, unit=recipient.uid, amount=m.shield_drained, other=source)
    broken = and_(drained, recipient.shield - m.shield_drained <= 0)
    log.emit("shield_broken", when=broken, unit=recipient.uid, other=source)


@combat.implements("500.1-11", "500.1g")
def process_ally_redirect(
    board: Board, recipient: Unit, receiver: Unit, instance: DamageInstance, m: Mitigation, ruleset: Ruleset,
    log: EventLog,
) -> tuple[Board, DamageOutcome]:
    """The moved part lands at once as the redirector's own full instance (500.1-11, 500.1g, INT-018)."""
    log.emit("redirect", when=m.redirected > 0, unit=recipient.uid, amount=m.redirected, other=receiver.uid)
    return process_damage_instance(board, moved_instance(instance, receiver.uid, m.redirected), ruleset, log)


@combat.implements("500.1-12")
def process_defy_death_event(recipient: Unit, m: Mitigation, source: str | None, log: EventLog) -> None:
    """A defy-death rune reports the damage it prevented (500.1-12)."""
    log.emit("defy_death", when=m.defied, unit=recipient.uid, amount=m.defy_prevented, other=source)


@combat.implements("500.1-13", "500.1b", "500.1c", "500.1e", "500.5a", "500.5d", "500.7k")
def process_vitality_damage(
    board: Board, recipient: Unit, instance: DamageInstance, m: Mitigation, log: EventLog, ruleset: Ruleset = DEFAULT
) -> tuple[Board, Int]:
    """Vitality is reduced: the damage-taken fanout, credit and Feast (500.5), a boss's meters, then the loss listeners and death."""

    def announce(lost: Int) -> None:
        log.emit("damage_taken", when=and_(lost > 0, instance.kind != "reflect"), unit=recipient.uid,
                 amount=lost, other=instance.source, detail=instance.kind)
        process_credit(instance, recipient.uid, m.shield_absorbed + lost, lost, log, ruleset, board)
        process_boss_meters(recipient, instance, m, lost, ruleset, log)

    return lose_vitality(board, recipient.uid, m.remainder, instance.source, log, announce)


@combat.implements("500.6g")
def is_direct_damage(instance: DamageInstance, ruleset: Ruleset) -> Bool:
    """Direct damage: a hit, Tremor half or AoE share; Burn and Venom too under ``every_instance`` (500.6g, INT-401).

    For a tick on a symbolic reading this is a condition (``model/readings.py``); else a bool.
    """
    if instance.kind in ("hit", "tremor", "aoe"):
        return True
    if not is_damage_over_time(instance.kind):
        return False
    return ruleset.stagger_lanes == "every_instance"


@combat.implements("500.6g")
def process_boss_meters(
    recipient: Unit, instance: DamageInstance, m: Mitigation, lost: Int, ruleset: Ruleset, log: EventLog
) -> None:
    """Damage into a boss checks Phasebreak on Vitality lost; direct damage also advances Stagger (500.6g, INT-401)."""
    log.emit("phasebreak_check", when=and_(recipient.is_boss, lost > 0), unit=recipient.uid, amount=lost,
             other=instance.source)
    direct = is_direct_damage(instance, ruleset)
    if direct is False:
        return
    dealt = m.shield_absorbed + lost
    staggers = and_(recipient.is_boss, dealt > 0)
    log.emit("stagger", when=staggers if direct is True else and_(direct, staggers), unit=recipient.uid,
             amount=dealt, other=instance.source)


@combat.implements("500.7c", "500.7d", "500.1c")
def is_damage_event(m: Mitigation, lost: Int = 0, ruleset: Ruleset = DEFAULT) -> Bool:
    """An entered instance that spent an Insurance point or reached Vitality (INT-008).

    Under ``after_shield`` any damage left after Shield counts, even what a redirect moved
    away or a defy-death rune kept off Vitality.
    """
    spent = m.subrogated_spent + m.insurance_spent > 0
    reached = by_reading(ruleset.damage_event_test, after_shield=lambda: m.after_shield > 0,
                         reached_vitality=lambda: lost > 0)
    return and_(m.entered, or_(spent, reached))


# --------------------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------------------


#: The pipeline's fast twin (``model/combat/fast.py``), set when that module is imported (the
#: package imports it): this module does not import it, so the two form no import cycle.
FAST_TWIN: Any = None


@combat.implements("500.1c")
def strip_overtime_actor(instance: DamageInstance) -> DamageInstance:
    """An overtime tick has no actor behind it, whatever source it names: nobody is credited, fed or
    answered for it (500.1c). (The loader refuses an overtime action naming a source; this keeps the model's
    own answer right on any input.)"""
    if instance.kind != "overtime" or (instance.source is None and not instance.appliers):
        return instance
    return replace(instance, source=None, appliers=())


def resolve_damage(
    board: Board, instance: DamageInstance, ruleset: Ruleset = DEFAULT
) -> tuple[Board, EventLog, DamageOutcome]:
    """Resolve one damage instance through the whole pipeline (500.1): board, events, outcome.

    A concrete run nobody traces takes the pipeline's fast twin (:mod:`.fast`), held equal to
    this one by a differential test and by theorems; ``fast.disabled()`` turns it off.
    """
    instance = strip_overtime_actor(instance)
    if FAST_TWIN is not None and FAST_TWIN.is_enabled(instance):
        return FAST_TWIN.resolve_fast(board, instance, ruleset)
    log = EventLog()
    board, outcome = process_damage_instance(board, instance, ruleset, log)
    return board, log, outcome


def process_lethal_intercept(
    board: Board, recipient: Unit, instance: DamageInstance, entering: Int, multiplier: Int, ruleset: Ruleset,
    log: EventLog,
) -> tuple[Board, Int, Bool, DamageOutcome | None]:
    """The lethal intercept step (500.1f): ``(board, entering, intercepted, interceptor_outcome)``."""
    interceptor = get_interceptor(board, recipient, instance, ruleset)
    if interceptor is None:
        return board, entering, False, None
    intercepted = and_(
        is_lethal_hit(recipient, instance, entering, multiplier, ruleset),
        is_reachable(interceptor, instance.kind, instance.allows_dormant),
    )
    board, interceptor_outcome = process_lethal_redirect(
        board, recipient, interceptor, instance, entering, intercepted, ruleset, log
    )
    return board, ite(intercepted, 0, entering), intercepted, interceptor_outcome


@combat.implements("500.1-4")
def process_ignore_charge_event(recipient: Unit, m: Mitigation, source: str | None, log: EventLog) -> None:
    """A damage-ignore charge spent on the entering instance, which it discards (500.1-4)."""
    log.emit("ignore_charge_spent", when=m.ignored, unit=recipient.uid, other=source)


def process_mitigation_layers(
    board: Board, recipient: Unit, source: Unit | None, instance: DamageInstance, m: Mitigation,
    receiver: Unit | None, ruleset: Ruleset, log: EventLog,
) -> tuple[Board, Int, DamageOutcome | None]:
    """Spend the defences and emit each layer in order (500.1-4..500.1-9): ``(board, payback, receiver_outcome)``."""
    current = board.unit(recipient.uid)
    spent = spend_defences(current, m)
    board = board if spent is current else board.with_unit(spent)
    process_ignore_charge_event(recipient, m, instance.source, log)
    process_insurance_events(recipient, m, "subrogated", instance.source, log)
    board, paid = process_subrogation_payback(board, recipient, source, m.subrogated_absorbed, ruleset, log,
                                              instance.kind)
    process_insurance_events(recipient, m, "plain", instance.source, log)
    process_shield_events(recipient, m, instance.source, log)
    receiver_outcome = None
    if receiver is not None:
        board, receiver_outcome = process_ally_redirect(board, recipient, receiver, instance, m, ruleset, log)
    process_defy_death_event(recipient, m, instance.source, log)
    return board, paid, receiver_outcome


@combat.implements("500.1-1", "500.1-2", "500.1-3", "500.1-13", "500.1f", "500.1g", "500.1h")
def process_damage_instance(
    board: Board, instance: DamageInstance, ruleset: Ruleset, log: EventLog
) -> tuple[Board, DamageOutcome]:
    """One instance, step by step (500.1); events go to ``log``."""
    recipient = board.unit(instance.target)
    if is_nothing_moved(instance):
        return board, quiet_outcome(recipient.uid)
    source = board.unit(instance.source) if board.has(instance.source) else None
    multiplier = compute_multiplier(source.shield_multiplier) if source is not None else 1
    amount = compute_entering_amount(recipient, instance)
    prevented, discarded = process_gate_events(recipient, instance, amount, log)
    entering = ite(is_passing_gates(recipient, instance, amount), amount, 0)
    board, entering, intercepted, interceptor_outcome = process_lethal_intercept(
        board, recipient, instance, entering, multiplier, ruleset, log)

    receiver = None if instance.redirected else get_ally(board, recipient, recipient.redirect_to)
    redirect_open = False if receiver is None else is_reachable(receiver, instance.kind, instance.allows_dormant)
    m = compute_mitigation(recipient, instance, entering, multiplier, redirect_open, recipient.redirect_cap, ruleset)
    board, paid, receiver_outcome = process_mitigation_layers(board, recipient, source, instance, m, receiver,
                                                              ruleset, log)
    board, lost = process_vitality_damage(board, board.unit(recipient.uid), instance, m, log, ruleset)
    return board, build_outcome(recipient, m, lost, ruleset, amount=amount, tick_prevented=prevented,
                                discarded=discarded, intercepted=intercepted, subrogation_paid=paid,
                                interceptor_outcome=interceptor_outcome, receiver_outcome=receiver_outcome)


def build_outcome(recipient: Unit, m: Mitigation, lost: Int, ruleset: Ruleset, **steps: Any) -> DamageOutcome:
    """The instance's record: the mitigation's figures, the Vitality lost and what the steps reported (500.1)."""
    return DamageOutcome(
        target=recipient.uid,
        entered=m.entered,
        after_armor=m.after_armor,
        subrogated_spent=m.subrogated_spent,
        subrogated_absorbed=m.subrogated_absorbed,
        insurance_spent=m.insurance_spent,
        insurance_absorbed=m.insurance_absorbed,
        shield_drained=m.shield_drained,
        shield_absorbed=m.shield_absorbed,
        redirected=m.redirected,
        defied=m.defied,
        vitality_lost=lost,
        damage_event=is_damage_event(m, lost, ruleset),
        landed=lost > 0,
        died=and_(lost > 0, recipient.alive, recipient.vitality - lost <= 0),
        ignored=m.ignored,
        after_cap=m.after_cap,
        defy_prevented=m.defy_prevented,
        **steps,
    )


def outcome_fields(outcome: DamageOutcome) -> dict[str, Any]:
    """The outcome as a plain dict (nested outcomes included), for reports and comparisons."""
    result: dict[str, Any] = {}
    for name in OUTCOME_FIELDS:
        value = getattr(outcome, name)
        result[name] = outcome_fields(value) if isinstance(value, DamageOutcome) else value
    return result

