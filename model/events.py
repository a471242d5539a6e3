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

Every Vitality-cost channel (``cost_paid``, ``bloodletting_paid``, ``thorns``, ``riposte``,
``retort``, ``subrogation``) has the same orientation: ``unit`` is the payer, ``other``
the unit the payment answers or serves, ``amount`` the Vitality that actually left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .arith import is_symbolic

#: Every event name, with the channel it reports. Names are stable: engines match on them.
EVENT_NAMES: dict[str, str] = {
    # 500.1 damage pipeline
    "damage_discarded": "an instance discarded by a Tool, Hub or Dormant recipient (detail: tool_or_hub | dormant)",
    "ignore_charge_spent": "a damage-ignore charge spent and the instance discarded",
    "tick_prevented": "a Burn or Venom tick reduced to 0 before the pipeline (500.1h)",
    "lethal_redirect": "a lethal hit moved whole to the interceptor before mitigation (other: interceptor)",
    "insurance_prevented": "Insurance points absorbed damage (detail: subrogated | plain; amount absorbed)",
    "shield_damaged": "Shield drained (amount: Shield points removed)",
    "shield_broken": "Shield drained to 0 by damage",
    "redirect": "part of the remaining damage moved to the redirector (other: receiver; amount moved)",
    "defy_death": "a defy-death rune reduced a lethal remainder (amount prevented)",
    "damage_taken": "the on-damage-taken fanout: Vitality lost to a damage instance (other: source)",
    "credit": "damage credited to its source, or to each applier its share of a shared tick (unit: source; other: recipient)",
    "feast": "the Vitality portion of damage feeding the source's Feast, or each applier's share of it (unit: source; other: recipient)",
    # Recovery (500.3)
    "healed": "Vitality restored by recovery (amount restored; detail: heal | repair)",
    "shield_gained": "Shield gained by recovery (amount gained; detail: shield)",
    "maim_consumed": "Maim points consumed by a recovery they reduced (amount: points; detail: the lane)",
    "recovery_refused": "recovery refused outright (amount requested; detail: dead | tool_or_hub | entrapped | dormant | not_a_tool)",
    # Vitality loss listeners (500.6c, 500.8d)
    "vitality_lost": "Vitality left the unit, by damage or by cost",
    "rune_reset": "a Vitality-loss rune lost its accumulated bonus (detail: adrenaline | momentum | bolster)",
    "threshold_reevaluated": "Vitality-threshold rune effects re-evaluated",
    # Death and revival (500.4, 500.9)
    "death": "the unit died (other: the killer, if any)",
    "macabre": "Macabre heard by a unit for another unit's death (other: the dead unit)",
    "deathrattle": "the dead unit's deathrattle resolved",
    "vessel_revival": "a Phylactery Vessel spent and the unit revived in its cell",
    "everlasting_scheduled": "an Everlasting revival scheduled (amount: the delay in ms, 10000; other: the killer it carries)",
    "everlasting_revival": "an Everlasting unit revived (amount: the battle time in ms; other: the killer; detail: the cell 'side,row,col')",
    "everlasting_delayed": "an Everlasting revival found no free slot on its half (amount: the time in ms of the next try)",
    "everlasting_lapsed": "an Everlasting revival was due after combat ended and never happens",
    "revival_self": "the revived unit's own revival line answered (detail: cause; other: its target, the killer, or null for Focus)",
    "revival_ally": "a living ally's revival listener answered (unit: the listener; detail: cause; other: its target, or null for Focus)",
    "revival_focus": "a revival listener aimed at a killer that is gone or illegal fell back to its Focus roll (other: the killer)",
    "vessel_batch": "one Vessel Point batch closed (unit: the dead or revived unit; amount: events pooled; detail: death | revival)",
    "reliquary_cleared": "the unit's activation cleared its Reliquary Speed (amount: the Speed cleared)",
    # Retaliation (500.6, 500.7)
    "thorns": "Thorns made the damaging enemy lose Vitality (unit: the payer; other: the retaliator)",
    "riposte": "Riposte made the damaging enemy lose Vitality (unit: the payer; other: the retaliator)",
    "riposte_missed": "Riposte rolled and missed (unit: the attacker; other: the retaliator)",
    "retort": "Retort made the damaging enemy lose Vitality (unit: the payer; other: the retaliator)",
    "subrogation": "Subrogated Insurance made the source lose what its points absorbed (unit: the source; other: the insured unit)",
    "reflect": "a boss Reflect rune sent damage back at the attacker (unit: boss; other: attacker)",
    "phasebreak_check": "damage or retaliation into a boss checked a Phasebreak threshold",
    "stagger": "direct damage advanced a boss's Stagger meter",
    # Vitality costs (500.8) and Bloodletting (800.4)
    "cost_paid": "a Vitality cost paid (detail: the cost kind; amount: Vitality that left)",
    "cost_refused": "a payer refused outright (detail: dead | entrapped | dormant | ally | self)",
    "max_vitality_lowered": "Interest debited maximum Vitality",
    "shield_scrapped": "a self-destruct scrapped the Shield without a trigger",
    "bloodletting_paid": "the Bloodletting-paid channel (unit: the payer; other: the caster; amount moved)",
    "activation_aborted": "no eligible Bloodletting payer: the activation stops before damage",
    "activation_failed": "a Bloodletting payment that moved no Vitality failed the ability",
    # Abilities (400.8): one activation, line by line
    "line_resolved": "an ability line resolved at its point in the sequence (unit: caster; amount: its amount after the per count; detail: the keyword)",
    "condition_failed": "a conditional rider's condition did not hold when the line resolved (unit: caster; detail: the condition)",
    "line_refused": "a recipient gate refused an ability line's recipient (unit: recipient; other: caster; detail: dead | entrapped | dormant | untargetable | tool_or_hub)",
    "status_applied": "an ability line applied a status (unit: recipient; other: caster; amount; detail: burn | venom | maim | crush)",
    "culled": "Cull destroyed the unit outright, before its death resolves (other: the source or caster; amount: its Vitality before)",
    "vitality_restored": "recovery restored Vitality (unit: recipient; other: the source; amount: Vitality restored)",
    # The play rulebook (350-359, 399): one outcome per action (unit: the card or source object's oid)
    "played": "a card finished the play process (350.1)",
    "play_cancelled": "a play was undone (358.5; detail: the failing check, e.g. 358.2)",
    "activated": "an ability's cost was paid and its linked effect happened (399, 203)",
    "activation_cancelled": "an activation was undone (358.5; detail: the failing check, e.g. 358.2 or 399)",
}


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


@dataclass(frozen=True, slots=True)
class Guarded:
    """An event emitted exactly when ``when`` holds (a Z3 Boolean in a symbolic run)."""

    when: Any
    event: Event


@dataclass
class EventLog:
    """Events in emission order; guarded by their condition in a symbolic run."""

    entries: list[Guarded] = field(default_factory=list)

    def emit(self, name: str, when: Any = True, **payload: Any) -> None:
        if when is False:  # the concrete path, first and cheapest
            return
        if is_symbolic(when):
            self.entries.append(Guarded(when, Event(name, **payload)))
        elif when:
            self.entries.append(Guarded(True, Event(name, **payload)))

    def extend(self, other: EventLog) -> None:
        self.entries.extend(other.entries)

    def events(self) -> tuple[Event, ...]:
        """The concrete event sequence (valid only in a concrete run)."""
        if any(is_symbolic(g.when) for g in self.entries):
            raise TypeError("a symbolic event log has no single concrete sequence")
        return tuple(g.event for g in self.entries)
