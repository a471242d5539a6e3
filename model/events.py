"""Events: the observable contract between the model and an engine.

Two engines agree when their final states and their event sequences agree. Every
channel the rules name is an event with a stable name listed in :data:`EVENT_NAMES`;
the protocol (``docs/protocol.md``) documents the same list, and a test holds the two
together.

An event has one shape for every name: ``name``, the ``unit`` it happens to, an
``amount`` where the channel carries one, the ``other`` unit involved (the source, the
payer, the receiver), and a ``detail`` word where the channel has variants.

In a symbolic run an event may or may not happen, so :class:`EventLog` records each
with the condition under which it is emitted.

The contract is declared once, per name, in :data:`EVENT_SPECS` (an :class:`EventSpec`:
what each field means or that it is always null / 0, the allowed ``detail`` words, when it
is emitted, and its stage in :data:`STAGES`); ``EVENT_NAMES``, the protocol's event table,
the per-event JSON Schema and the harness's check of an engine's events derive from it.

Conventions, the same for every name:

* every Vitality-cost channel (``cost_paid``, ``bloodletting_paid``, ``thorns``, ``riposte``,
  ``retort``, ``subrogation``) has ``unit`` the payer, ``other`` the unit the payment answers
  or serves, ``amount`` the Vitality that actually left;
* every step of the damage pipeline that happens to the recipient (a gate's discard, an
  ignore charge, Insurance, Shield, defy-death, the damage taken) has ``unit`` the recipient
  and ``other`` the instance's source (null for an instance with no source); the two steps
  that move damage (``lethal_redirect``, ``redirect``) name the unit it moves to instead;
* the Vitality-loss listeners (``vitality_lost``, ``rune_reset``, ``threshold_reevaluated``)
  and the death's aftermath (``deathrattle``, the revivals) concern the unit alone and fire
  the same whatever caused the loss (500.8d), so ``other`` is always null there; ``death``
  names the killer (500.6d, INT-109).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .arith import is_symbolic


class UnknownEventError(ValueError):
    """An event name that is not part of the contract."""


@dataclass(frozen=True, slots=True)
class Event:
    """One observable happening."""

    name: str
    unit: str | None = None
    amount: Any = 0
    other: str | None = None
    detail: str | None = None

    def __post_init__(self) -> None:
        if self.name not in EVENT_NAMES:
            raise UnknownEventError(f"unknown event name {self.name!r}")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "unit": self.unit, "amount": self.amount, "other": self.other, "detail": self.detail}


#: The stages of one instance, in the order their events are emitted. Each event sits at one
#: stage; within one instance (see :data:`INSTANCES`) the stages of its events never go back.
#: Nested work (an intercepted or redirected part landing as its own instance, a Subrogation
#: payback, a retaliation cost, a death's revival) is an instance of its own, emitted whole
#: at the point that opens it.
STAGES: tuple[str, ...] = (
    "line",            # an ability line: resolved, or its condition failed (400.8-3, 400.8-4)
    "recipient_gate",  # an ability line's recipient refused (400.8-5)
    "gates",           # Tool/Hub/Dormant discards, a tick prevented, a payer refused, no payer at all
    "intercept",       # a lethal hit moved whole to the interceptor (500.1f)
    "ignore_charge",   # a damage-ignore charge spent (500.1-4)
    "insurance",       # Insurance: Subrogated first (then its payback, a cost), then plain (500.1-8, 500.1-9)
    "shield",          # Shield drained (500.1-10)
    "shield_broken",   # Shield drained to 0 (500.1-10)
    "redirect",        # part moved to the redirector (500.1-11)
    "defy_death",      # a defy-death rune (500.1-12, 500.8f)
    "shield_scrapped", # a self-destruct scraps the Shield (500.8h)
    "channel",         # the instance's or the cost's own channel: what left, to whom
    "max_vitality",    # Interest lowers maximum Vitality (500.8g)
    "credit",          # the source is credited (500.5)
    "feast",           # Feast, or a boss's Phasebreak check (500.6f, 500.6g)
    "vitality_lost",   # the Vitality-loss listeners (500.6c, 500.8d)
    "rune_reset",
    "thresholds",
    "death",           # death (500.4)
    "macabre",
    "deathrattle",
    "revival",         # a Vessel spent, or Everlasting scheduled (500.9)
    "answers",         # what answers an instance, per recipient in turn (500.6, 500.7)
    "outcome",         # how an activation or a play ended
)

#: The sequences within which the stages of the events never go back (the order claim).
INSTANCES: dict[str, str] = {
    "damage": "one damage instance through 500.1 (a moved part is its own instance)",
    "cost": "one Vitality cost payment (500.8): a retaliation, a Subrogation payback, a Bloodletting payment",
    "answer": "one recipient answering one attacker: Thorns, Riposte, Retort (500.6, 500.7)",
    "delivery": "one ability line delivered to one recipient (400.8-5 .. 400.8-7)",
    "line": "one ability line (400.8-3)",
    "bloodletting": "one Bloodletting cost step (800.4)",
    "action": "one action of the scenario",
}


@dataclass(frozen=True, slots=True)
class EventSpec:
    """What one event name carries, field by field, when it is emitted, and where it sits.

    ``unit``, ``other`` and ``amount`` give the field's meaning, or ``None``: ``unit`` and
    ``other`` then are always null, ``amount`` always 0. ``other_nullable`` says the field
    may be null even where it has a meaning (an instance with no source). ``detail`` is the
    tuple of allowed words, ``None`` for always null, or ``ANY_WORD`` for a free word
    (``detail_meaning`` says what it is).
    """

    name: str
    summary: str
    emitted_when: str
    stage: str
    unit: str | None
    amount: str | None = None
    other: str | None = None
    other_nullable: bool = False
    detail: tuple[str, ...] | None = None
    detail_meaning: str | None = None
    rulebook: str = "combat"

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"{self.name}: unknown stage {self.stage!r}")

    @property
    def order(self) -> int:
        """The rank of the event's stage in :data:`STAGES`."""
        return STAGES.index(self.stage)

    def violation(self, event: Event, fields: tuple[str, ...] | None = None) -> tuple[str, str] | None:
        """The first field of ``event`` (among ``fields``; None: all) that breaks this contract, and why."""
        for name in ("unit", "amount", "other", "detail"):
            if fields is None or name in fields:
                why = self.field_violation(name, getattr(event, name))
                if why is not None:
                    return name, why
        return None

    def field_violation(self, name: str, value: Any) -> str | None:
        """Why ``value`` breaks this contract's field ``name``, or ``None``."""
        meaning = getattr(self, name)
        if name == "amount":
            return f"always 0 for {self.name}" if meaning is None and value != 0 else None
        if meaning is None:
            return f"always null for {self.name}" if value is not None else None
        if value is None:
            nullable = name == "other" and self.other_nullable
            shown = self.describe_detail() if name == "detail" else meaning
            return None if nullable else f"never null for {self.name} ({shown})"
        if name == "detail" and self.detail != ANY_WORD and value not in self.detail:
            return f"one of {', '.join(self.detail)} for {self.name}, got {value!r}"
        return None

    def describe_detail(self) -> str:
        if self.detail is None:
            return "always null"
        words = "a word" if self.detail == ANY_WORD else " | ".join(self.detail)
        return f"{self.detail_meaning}: {words}" if self.detail_meaning else words


#: ``EventSpec.detail`` for a free word (a condition's name, a check's rule number).
ANY_WORD: tuple[str, ...] = ("*",)

_SOURCE = "the instance's source (null for an instance with no source)"
_RECIPIENT = "the recipient"
_PAYER = "the payer"
_BENEFICIARY = "the cost's beneficiary: the retaliator, the caster served (null if none)"
_CASTER = "the caster"
_DAMAGE_KINDS = ("hit", "burn", "venom", "tremor", "aoe", "overtime")
_COST_KINDS = ("bloodletting", "interest", "self_destruct", "retaliation")


def _retaliation(name: str, what: str, retaliator: str) -> EventSpec:
    return EventSpec(
        name, f"{what} made the damaging enemy lose Vitality", f"{what} fired and Vitality actually left the payer",
        "channel", unit=_PAYER, amount="the Vitality that actually left", other=retaliator,
    )


#: Every event, declared once: the contract (docs table, JSON Schema and the harness's check derive from it).
EVENT_SPECS: tuple[EventSpec, ...] = (
    # The damage pipeline
    EventSpec("damage_discarded", "an instance discarded by a Tool, Hub or Dormant recipient",
              "a living recipient discards a positive instance", "gates",
              unit=_RECIPIENT, amount="the amount discarded", other=_SOURCE, other_nullable=True,
              detail=("tool_or_hub", "dormant"), detail_meaning="why"),
    EventSpec("ignore_charge_spent", "a damage-ignore charge spent and the instance discarded",
              "a charge is spent on an entering instance", "ignore_charge",
              unit=_RECIPIENT, other=_SOURCE, other_nullable=True),
    EventSpec("tick_prevented", "a Burn or Venom tick reduced to 0 before the pipeline",
              "a positive tick on a living unit is reduced to 0", "gates",
              unit=_RECIPIENT, amount="the tick's amount before the reduction", other=_SOURCE, other_nullable=True,
              detail=("burn", "venom"), detail_meaning="the tick's lane"),
    EventSpec("lethal_redirect", "a lethal hit moved whole to the interceptor before mitigation",
              "the hit would be lethal and the interceptor can take it; the moved hit follows as its own instance",
              "intercept", unit=_RECIPIENT, amount="the amount moved", other="the interceptor"),
    EventSpec("insurance_prevented", "Insurance points absorbed damage",
              "a point was spent: once for Subrogated points (before their payback), once for plain",
              "insurance", unit=_RECIPIENT, amount="the damage the points absorbed", other=_SOURCE, other_nullable=True,
              detail=("subrogated", "plain"), detail_meaning="which points"),
    EventSpec("shield_damaged", "Shield drained", "damage drained at least one Shield point", "shield",
              unit=_RECIPIENT, amount="the Shield points removed", other=_SOURCE, other_nullable=True),
    EventSpec("shield_broken", "Shield drained to 0 by damage", "the drain left the pool at 0", "shield_broken",
              unit=_RECIPIENT, other=_SOURCE, other_nullable=True),
    EventSpec("redirect", "part of the remaining damage moved to the redirector",
              "a positive part moved; the moved part follows as its own instance", "redirect",
              unit=_RECIPIENT, amount="the amount moved", other="the receiver"),
    EventSpec("defy_death", "a defy-death rune saved the unit",
              "a lethal remainder or a lethal cost that opts in", "defy_death",
              unit="the saved unit", amount="the damage prevented, or for a cost the printed price minus what was paid",
              other="the instance's source, or the cost's beneficiary (null if none)", other_nullable=True),
    EventSpec("damage_taken", "the on-damage-taken fanout: Vitality lost to a damage instance",
              "Vitality left the recipient, except by a Reflect", "channel",
              unit=_RECIPIENT, amount="the Vitality lost", other=_SOURCE, other_nullable=True,
              detail=_DAMAGE_KINDS, detail_meaning="the damage kind"),
    EventSpec("credit", "damage credited to its source",
              "an instance with a source moved Shield or Vitality, or a retaliation cost moved Vitality",
              "credit", unit="the source, or the retaliator", amount="Shield absorbed plus Vitality lost",
              other="the recipient, or the payer"),
    EventSpec("feast", "the Vitality portion of damage feeding the source's Feast",
              "Vitality left the recipient of an instance with a source, or a non-boss retaliation payer",
              "feast", unit="the source, or the retaliator", amount="the Vitality lost", other="the recipient, or the payer"),
    # Vitality loss listeners
    EventSpec("vitality_lost", "Vitality left the unit, by damage or by cost", "any positive loss",
              "vitality_lost", unit="the unit", amount="the Vitality lost"),
    EventSpec("rune_reset", "a Vitality-loss rune lost its accumulated bonus",
              "a positive loss on a unit whose rune had a bonus, one per rune", "rune_reset",
              unit="the unit", detail=("adrenaline", "momentum", "bolster"), detail_meaning="the rune"),
    EventSpec("threshold_reevaluated", "Vitality-threshold rune effects re-evaluated", "any positive loss",
              "thresholds", unit="the unit"),
    # Death and revival
    EventSpec("death", "the unit died", "Vitality reached 0, or Cull", "death", unit="the dead unit",
              other="the killer: the damage's source, the retaliator of a retaliation cost, the caster of a Cull; "
                    "null for other costs (INT-109) and a sourceless instance", other_nullable=True),
    EventSpec("macabre", "Macabre heard by a unit for another unit's death",
              "a death, once per other living unit, either side, board order", "macabre",
              unit="the unit hearing it", other="the dead unit"),
    EventSpec("deathrattle", "the dead unit's deathrattle resolved", "a unit with a deathrattle died",
              "deathrattle", unit="the dead unit"),
    EventSpec("vessel_revival", "a Phylactery Vessel spent and the unit revived in its cell",
              "a unit with a Vessel died", "revival", unit="the revived unit"),
    EventSpec("everlasting_scheduled", "an Everlasting revival scheduled 10 seconds on",
              "an Everlasting unit died with no Vessel", "revival", unit="the dead unit",
              amount="the delay in ms (10000)", other="the killer it carries", other_nullable=True),
    # Retaliation
    _retaliation("thorns", "Thorns", "the retaliator"),
    _retaliation("riposte", "Riposte", "the retaliator"),
    EventSpec("riposte_missed", "Riposte rolled and missed", "a Riposte roll came up false", "answers",
              unit="the attacker", other="the retaliator"),
    _retaliation("retort", "Retort", "the retaliator"),
    EventSpec("subrogation", "Subrogated Insurance made the source lose what its points absorbed",
              "an enemy source of an instance Subrogated points absorbed lost Vitality", "channel",
              unit="the source (the payer)", amount="the Vitality that actually left", other="the insured unit"),
    EventSpec("reflect", "a boss Reflect rune sent damage back at the attacker",
              "a Reflect boss lost Vitality to a hostile attacker; the damage back follows as its own instance",
              "answers", unit="the boss", amount="the damage sent back", other="the attacker"),
    EventSpec("phasebreak_check", "damage or retaliation into a boss checked a Phasebreak threshold",
              "a damage instance or a retaliation cost moved a boss's Vitality", "feast",
              unit="the boss", amount="the Vitality lost", other="the source or the retaliator", other_nullable=True),
    EventSpec("stagger", "direct damage advanced a boss's Stagger meter",
              "a direct damage instance dealt damage to a boss (retaliation never advances it; INT-401)",
              "feast", unit="the boss", amount="the damage dealt (Shield-absorbed and Vitality lost)", other=_SOURCE,
              other_nullable=True),
    # Vitality costs and Bloodletting
    EventSpec("cost_paid", "a Vitality cost paid", "Vitality actually left the payer", "channel",
              unit=_PAYER, amount="the Vitality that actually left", other=_BENEFICIARY, other_nullable=True,
              detail=_COST_KINDS, detail_meaning="the cost kind"),
    EventSpec("cost_refused", "a payer refused outright",
              "a dead, Entrapped or (retaliation) Dormant payer; a retaliation against itself or an ally",
              "gates", unit=_PAYER, other=_BENEFICIARY, other_nullable=True,
              detail=("dead", "entrapped", "dormant", "ally", "self"), detail_meaning="why"),
    EventSpec("max_vitality_lowered", "Interest debited maximum Vitality", "an Interest payment moved Vitality",
              "max_vitality", unit=_PAYER, amount="the maximum Vitality debited"),
    EventSpec("shield_scrapped", "a self-destruct scrapped the Shield without a trigger",
              "a self-destruct by a unit with Shield", "shield_scrapped",
              unit=_PAYER, amount="the Shield scrapped"),
    EventSpec("bloodletting_paid", "the Bloodletting-paid channel", "a Bloodletting payment moved Vitality",
              "channel", unit=_PAYER, amount="the Vitality that actually left", other="the caster"),
    EventSpec("activation_aborted", "no eligible Bloodletting payer: the activation stops before damage",
              "a positive cost and no eligible payer", "gates", unit=_CASTER),
    EventSpec("activation_failed", "a Bloodletting payment that moved no Vitality failed the ability",
              "the payment moved nothing", "outcome", unit=_CASTER, other="the payer"),
    # Abilities: one activation, line by line
    EventSpec("line_resolved", "an ability line resolved at its point in the sequence",
              "each line whose condition holds, before its recipients", "line",
              unit=_CASTER, amount="its amount after the per count",
              detail=("damage", "burn", "venom", "maim", "cull", "crush", "restore", "bloodletting"),
              detail_meaning="the keyword"),
    EventSpec("condition_failed", "a conditional rider's condition did not hold when the line resolved",
              "a line whose condition does not hold, instead of line_resolved", "line", unit=_CASTER,
              detail=("target_alive", "target_burning", "enemy_burning", "caster_damaged"), detail_meaning="the condition"),
    EventSpec("line_refused", "a recipient gate refused an ability line's recipient",
              "the first gate that refuses the recipient", "recipient_gate",
              unit=_RECIPIENT, amount="the line's amount", other=_CASTER,
              detail=("dead", "entrapped", "dormant", "untargetable", "tool_or_hub"), detail_meaning="the gate"),
    EventSpec("status_applied", "an ability line applied a status",
              "a positive Burn, Venom, Maim or Crush reached a recipient", "channel",
              unit=_RECIPIENT, amount="the amount applied", other=_CASTER,
              detail=("burn", "venom", "maim", "crush"), detail_meaning="the status"),
    EventSpec("culled", "Cull destroyed the unit outright, before its death resolves",
              "Cull met its threshold (an ability line) or a cull action landed on a living unit", "channel",
              unit=_RECIPIENT, amount="its Vitality before", other="the source or caster", other_nullable=True),
    EventSpec("vitality_restored", "recovery restored Vitality", "a restore restored a positive amount", "channel",
              unit=_RECIPIENT, amount="the Vitality restored", other="the source (the caster)", other_nullable=True),

    # Recovery: one request on one target
    EventSpec("recovery_refused", "recovery refused outright",
              "a positive request met a dead target, a Tool or Hub, an Entrapped or a Dormant target (the first that holds), "
              "or repair of a non-Tool",
              "gates", unit="the target", amount="the amount requested",
              detail=("dead", "tool_or_hub", "entrapped", "dormant", "not_a_tool"), detail_meaning="the first reason"),
    EventSpec("maim_consumed", "Maim points consumed by a recovery they reduced",
              "Maim prevented a positive eligible amount", "channel", unit="the target",
              amount="the Maim points consumed, ceil(prevented / 2)", detail=("heal", "shield", "repair"),
              detail_meaning="the lane"),
    EventSpec("healed", "Vitality restored by recovery", "a heal or repair restored a positive amount",
              "channel", unit="the target", amount="the Vitality restored", detail=("heal", "repair"),
              detail_meaning="the lane"),
    EventSpec("shield_gained", "Shield gained by recovery", "a Shield gain added a positive amount",
              "channel", unit="the target", amount="the Shield gained", detail=("shield",), detail_meaning="the lane"),
    # Revival on the battle clock
    EventSpec("everlasting_revival", "an Everlasting unit revived", "a due Everlasting try found a free slot",
              "revival", unit="the revived unit", amount="the battle time in ms", other="the killer it carried",
              other_nullable=True, detail=ANY_WORD, detail_meaning="the cell, 'side,row,col'"),
    EventSpec("everlasting_delayed", "an Everlasting revival found no free slot on its half",
              "a due try met a full board half", "revival", unit="the dead unit",
              amount="the battle time in ms of the next try"),
    EventSpec("everlasting_lapsed", "an Everlasting revival was due after combat ended and never happens",
              "combat ended with the revival pending", "revival", unit="the dead unit",
              amount="the battle time in ms"),
    EventSpec("revival_self", "the revived unit's own revival line answered",
              "a revival whose cause the unit's own line names", "revival", unit="the revived unit",
              other="its target: itself, the killer, or null for the Focus fallback", other_nullable=True,
              detail=("phylactery", "everlasting"), detail_meaning="the cause"),
    EventSpec("revival_ally", "a living ally's revival listener answered",
              "an ally on the revived unit's side revived, whatever the cause", "revival",
              unit="the listener", other="its target: the revived ally, the killer, or null for Focus",
              other_nullable=True, detail=("phylactery", "everlasting"), detail_meaning="the cause"),
    EventSpec("revival_focus", "a revival listener aimed at a killer that is gone or illegal fell back to its Focus roll",
              "the killer is dead or no longer a legal target", "revival", unit="the listener",
              other="the killer it lost (null for a death with no killer: a sourceless instance or Cull)",
              other_nullable=True, detail=("phylactery", "everlasting"), detail_meaning="the cause"),
    EventSpec("vessel_batch", "one Vessel Point batch closed",
              "a death, or a revival, and everything it fired have resolved", "revival",
              unit="the dead or revived unit", amount="the number of events the batch pooled",
              detail=("death", "revival"), detail_meaning="what opened the batch"),
    EventSpec("reliquary_cleared", "the unit's activation cleared its Reliquary Speed",
              "a unit holding Reliquary Speed activated", "channel", unit="the unit",
              amount="the Speed cleared"),
    # The play rulebook (350-359, 399): one outcome per action
    EventSpec("played", "a card finished the play process", "the play finished", "outcome",
              unit="the card's oid", rulebook="play"),
    EventSpec("play_cancelled", "a play was undone", "a check failed", "outcome", unit="the card's oid",
              detail=("354", "355.2", "358.2"), detail_meaning="the first failing check", rulebook="play"),
    EventSpec("activated", "an ability's cost was paid and its linked effect happened",
              "the activation finished (399, 203)", "outcome", unit="the source's oid", rulebook="play"),
    EventSpec("activation_cancelled", "an activation was undone", "a check failed", "outcome",
              unit="the source's oid", detail=("399", "358.2"), detail_meaning="the failing check", rulebook="play"),
)

#: Each event's declaration, by name.
EVENTS: dict[str, EventSpec] = {spec.name: spec for spec in EVENT_SPECS}


def _summary(spec: EventSpec) -> str:
    parts = [f"unit: {spec.unit}" if spec.unit else None, f"amount: {spec.amount}" if spec.amount else None,
             f"other: {spec.other}" if spec.other else None,
             f"detail: {spec.describe_detail()}" if spec.detail is not None else None]
    fields = "; ".join(p for p in parts if p)
    return f"{spec.summary} ({fields})" if fields else spec.summary


#: Every event name, with the channel it reports (derived from :data:`EVENT_SPECS`). Names are stable.
EVENT_NAMES: dict[str, str] = {spec.name: _summary(spec) for spec in EVENT_SPECS}


@dataclass(frozen=True, slots=True)
class Guarded:
    """An event emitted exactly when ``when`` holds (a Z3 Boolean in a symbolic run)."""

    when: Any
    event: Event

    def times(self) -> Any:
        """How many events the entry stands for: one (a :class:`GuardedRun` may stand for more)."""
        return 1

    def guarded_by(self, when: Any) -> Guarded:
        """The same entry under another condition."""
        return Guarded(when, self.event)


@dataclass(frozen=True, slots=True)
class GuardedRun(Guarded):
    """``count`` events alike but for their amounts, emitted when ``when`` holds: a symbolic run's one entry for a run
    of retries whose length is a term (500.9a's delayed tries, ``model/combat/battle_guarded.py``); ``event`` carries
    the first one's amount."""

    count: Any = 1

    def times(self) -> Any:
        return self.count

    def guarded_by(self, when: Any) -> Guarded:
        return GuardedRun(when, self.event, self.count)


_CERTAIN: dict[tuple[Any, ...], Guarded] = {}


def certain(name: str, unit: str | None = None, amount: Any = 0, other: str | None = None,
            detail: str | None = None) -> Guarded:
    """The log entry of an event that happens for certain: ``Guarded(True, Event(...))``.

    Entries are immutable, so one with an integer amount that was made before is handed out
    again rather than built (two frozen ``__init__`` calls); the memo is bounded.
    """
    if type(amount) is not int:  # a Z3 term, a Fraction, or a bool (which a key would confuse with 0 or 1)
        return Guarded(True, Event(name, unit, amount, other, detail))
    key = (name, unit, amount, other, detail)
    entry = _CERTAIN.get(key)
    if entry is None:
        if len(_CERTAIN) >= 65_536:
            _CERTAIN.clear()
        entry = _CERTAIN[key] = Guarded(True, Event(name, unit, amount, other, detail))
    return entry


@dataclass
class EventLog:
    """Events in emission order; guarded by their condition in a symbolic run."""

    entries: list[Guarded] = field(default_factory=list)

    def emit(self, name: str, when: Any = True, **payload: Any) -> None:
        if when is False:  # the concrete path, first and cheapest
            return
        if when is True:
            self.entries.append(certain(name, **payload))
        elif is_symbolic(when):
            self.entries.append(Guarded(when, Event(name, **payload)))
        elif when:
            self.entries.append(Guarded(True, Event(name, **payload)))

    def extend(self, other: EventLog) -> None:
        self.entries.extend(other.entries)

    def events(self) -> tuple[Event, ...]:
        """The concrete event sequence (valid only in a concrete run)."""
        for g in self.entries:  # a loop, not any(<generator>): called after every action
            if g.when is not True and is_symbolic(g.when):
                raise TypeError("a symbolic event log has no single concrete sequence")
        return tuple([g.event for g in self.entries])
