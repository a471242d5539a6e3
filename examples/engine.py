"""An example production-style engine, written independently of ``referee.model``.

It is here to show (and to test) the differential harness on code shaped the way game
engines are shaped: mutable units, an event bus that listeners subscribe to, one class
per concern (Armor, Insurance, Shield, costs, death...). It implements the rules text of
chapters 500 (damage, Armor, recovery, death, attribution, retaliation, costs, revival on a battle clock),
800.4 (Bloodletting) and 400.8 (abilities) from the rulebook and ``docs/protocol.md``; it never imports the
model.

Two ways to run it:

* in-process: ``referee.examples.engine:run(scenario) -> observation``
  (``referee check --python referee.examples.engine:run``);
* as a JSON-lines program: ``python -m referee.examples.engine``
  (``referee check --engine "python -m referee.examples.engine"``).

``examples/mutants.py`` derives one-line-bug variants of this file, for the harness's
own tests; ``python -m referee.examples.engine --mutant NAME`` runs one of them.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

try:  # a faster JSON codec where installed (referee depends on it); the standard library otherwise
    import orjson
except ImportError:  # pragma: no cover - the example engine runs anywhere
    orjson = None  # type: ignore[assignment]

_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")  # a run of 19 digits: orjson would make it a float

PROTOCOL = "referee/2"

# ------------------------------------------------------------------------------------------
# Units
# ------------------------------------------------------------------------------------------

UNIT_FIELDS = {
    "uid": "", "side": 0, "row": 0, "col": 0,
    "is_tool": False, "is_hub": False, "is_boss": False,
    "alive": True, "vitality": 100, "max_vitality": 100,
    "dormant": False, "entrapped": False,
    "ignore_charges": 0, "armor": 0, "has_cap": False, "cap": 0, "subrogated": 0, "insurance": 0,
    "shield": 0, "defy_death": False, "shield_multiplier": 1,
    "prismbroken": False, "rune_tick_reduction": 0, "forge_tick_reduction": 0,
    "thorns": 0, "riposte": 0, "retort": 0, "reflect": False,
    "adrenaline": 0, "momentum": 0, "bolster": 0,
    "redirect_to": None, "redirect_cap": 0, "intercept_by": None,
    "maim": 0, "forge_core_recovery": 0, "exalt": 0,
    "deathrattle": False, "everlasting": False, "vessels": 0,
    "armor_change": 0, "defy_death_spent": False, "everlasting_life_grant": False, "charge": 0, "incarnation": 0,
    "hears_phylactery_revival": False, "hears_everlasting_revival": False, "hears_ally_revival": False,
    "revival_aims_killer": False, "reliquary": 0, "reliquary_speed": 0,
    "bloodletting_reduction": 0,
    "burn": 0, "venom": 0, "maim": 0, "untargetable": False,
}

RESET_RUNES = ("adrenaline", "momentum", "bolster")


class Unit:
    """A mutable unit. Attributes mirror the protocol's unit fields."""

    def __init__(self, data: dict[str, Any]) -> None:
        state = UNIT_FIELDS.copy()  # filled whole: a setattr per field was half of this engine's time
        state.update(data if data.keys() <= UNIT_FIELDS.keys() else {k: v for k, v in data.items() if k in UNIT_FIELDS})
        self.__dict__ = state

    def to_json(self) -> dict[str, Any]:
        state = vars(self)
        if len(state) == len(UNIT_FIELDS):  # the protocol's fields only, in their order: a copy is the answer
            return dict(state)
        return {name: state[name] for name in UNIT_FIELDS}

    @property
    def discards_combat(self) -> bool:
        return self.is_tool or self.is_hub


class Board:
    def __init__(self, units: list[Unit]) -> None:
        self.units = units
        self.by_uid = {u.uid: u for u in units}

    def get(self, uid: str | None) -> Unit | None:
        return self.by_uid.get(uid) if uid is not None else None


# ------------------------------------------------------------------------------------------
# The event bus
# ------------------------------------------------------------------------------------------


class EventBus:
    """Records every published event in order and forwards it to subscribers."""

    def __init__(self) -> None:
        self.history: list[dict[str, Any]] = []
        self.subscribers: dict[str, list[Any]] = {}

    def subscribe(self, name: str, handler: Any) -> None:
        self.subscribers.setdefault(name, []).append(handler)

    def publish(self, name: str, unit: str | None = None, amount: int = 0, other: str | None = None,
                detail: str | None = None) -> None:
        event = {"name": name, "unit": unit, "amount": amount, "other": other, "detail": detail}
        self.history.append(event)
        for handler in self.subscribers.get(name, ()):
            handler(event)


# ------------------------------------------------------------------------------------------
# Vitality loss and death
# ------------------------------------------------------------------------------------------


class VitalityLossListeners:
    """500.6c / 500.8d: runes reset and thresholds re-evaluate whenever Vitality is lost."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus

    def on_loss(self, unit: Unit, lost: int) -> None:
        if lost <= 0:
            return
        self.bus.publish("vitality_lost", unit.uid, lost)
        for rune in RESET_RUNES:
            if getattr(unit, rune) > 0:
                self.bus.publish("rune_reset", unit.uid, detail=rune)
        self.bus.publish("threshold_reevaluated", unit.uid)
        for rune in RESET_RUNES:
            setattr(unit, rune, 0)


class DeathHandler:
    """500.4: announce the death, Macabre for everyone else, deathrattle, then revival."""

    def __init__(self, board: Board, bus: EventBus, floor_zero_maximum: bool = False) -> None:
        self.board = board
        self.bus = bus
        self.clock: Any = None  # the battle clock, which holds Everlasting revivals while they are due
        self.floor_zero_maximum = floor_zero_maximum  # INT-120: zero_maximum_revival = returns_at_one

    def kill(self, unit: Unit, killer: str | None) -> None:
        start = len(self.bus.history)
        self.bus.publish("death", unit.uid, other=killer)
        unit.alive = False
        unit.vitality = 0
        unit.shield = 0
        unit.charge = 0
        for rune in RESET_RUNES:
            setattr(unit, rune, 0)
        for other in self.board.units:
            if other is not unit and other.alive:
                self.bus.publish("macabre", other.uid, other=unit.uid)
        if unit.deathrattle:
            self.bus.publish("deathrattle", unit.uid)
        if self.floor_zero_maximum and (unit.vessels > 0 or unit.everlasting):
            unit.max_vitality = max(unit.max_vitality, 1)  # the revival ahead returns it at 1 of 1 (INT-120)
        if unit.vessels > 0 and unit.max_vitality > 0:  # a maximum of 0 has no body to return (INT-120)
            self.bus.publish("vessel_revival", unit.uid)
            self.revive(unit)
            unit.vessels -= 1
            self.channels(unit, "phylactery", killer)
        elif unit.everlasting and unit.max_vitality > 0:
            self.bus.publish("everlasting_scheduled", unit.uid, 10_000, killer)
            if self.clock is not None:
                self.clock.schedule(unit.uid, killer)
        self.bus.publish("vessel_batch", unit.uid, len(self.bus.history) - start, detail="death")

    @staticmethod
    def revive(unit: Unit) -> None:
        """500.9c-g, 500.9l: the body every revival shares."""
        unit.armor -= unit.armor_change
        unit.armor_change = 0
        unit.entrapped = unit.prismbroken = unit.dormant = False
        unit.burn = unit.venom = unit.maim = 0  # a running Burn or Venom and Maim end with the life
        unit.defy_death = unit.defy_death or unit.defy_death_spent
        unit.defy_death_spent = False
        unit.everlasting = unit.everlasting and not unit.everlasting_life_grant
        unit.everlasting_life_grant = False
        unit.alive, unit.vitality, unit.charge = True, unit.max_vitality, 0
        unit.incarnation += 1
        unit.reliquary_speed = unit.reliquary

    def channels(self, unit: Unit, cause: str, killer: str | None) -> None:
        """500.9h-k: the self channel filtered by cause, then every living ally's channel."""
        if unit.hears_phylactery_revival if cause == "phylactery" else unit.hears_everlasting_revival:
            self.aim("revival_self", unit, unit.uid, cause, killer)
        allies = sorted((u for u in self.board.units if u.side == unit.side), key=lambda u: (u.row, u.col))
        for ally in allies:
            if ally is not unit and ally.alive and ally.hears_ally_revival:
                self.aim("revival_ally", ally, unit.uid, cause, killer)

    def aim(self, channel: str, listener: Unit, revived: str, cause: str, killer: str | None) -> None:
        if not listener.revival_aims_killer:
            self.bus.publish(channel, listener.uid, other=revived, detail=cause)
            return
        target = self.board.get(killer)
        if target is not None and target.alive and not (target.entrapped or target.dormant or target.discards_combat):
            self.bus.publish(channel, listener.uid, other=killer, detail=cause)
        else:
            self.bus.publish(channel, listener.uid, other=None, detail=cause)
            self.bus.publish("revival_focus", listener.uid, other=killer, detail=cause)


class VitalityLedger:
    """Takes Vitality from a unit: the one road both damage and costs end on."""

    def __init__(self, listeners: VitalityLossListeners, deaths: DeathHandler) -> None:
        self.listeners = listeners
        self.deaths = deaths

    def take(self, unit: Unit, amount: int, killer: str | None, announce: Any = None) -> int:
        lost = min(amount, unit.vitality) if unit.alive else 0
        was_alive = unit.alive
        unit.vitality -= lost
        if announce is not None:
            announce(lost)
        self.listeners.on_loss(unit, lost)
        if lost > 0 and was_alive and unit.vitality <= 0:
            self.deaths.kill(unit, killer)
        return lost


# ------------------------------------------------------------------------------------------
# Vitality costs (500.8)
# ------------------------------------------------------------------------------------------

DEFY_DEATH_ANSWERS = {"bloodletting": True, "retaliation": True, "interest": False, "self_destruct": False}


class CostPayer:
    """500.8: a cost skips the damage pipeline entirely and is clamped to the payer's Vitality."""

    def __init__(self, board: Board, ledger: VitalityLedger, bus: EventBus, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.ledger = ledger
        self.bus = bus
        self.defy_death_leaves = ruleset.get("defy_death_leaves", 1)

    def refusal(self, payer: Unit, kind: str) -> str | None:
        if not payer.alive:
            return "dead"
        if payer.entrapped:
            return "entrapped"
        if kind == "retaliation" and payer.dormant:
            return "dormant"
        return None

    def price(self, payer: Unit, amount: int, kind: str) -> int:
        if payer.discards_combat:
            return 0
        if kind == "self_destruct":
            return payer.vitality
        return min(max(amount, 0), payer.vitality)

    def pay(self, payer: Unit, amount: int, kind: str, beneficiary: str | None = None,
            channel: str = "cost_paid") -> int:
        other = self.board.get(beneficiary)
        if kind == "retaliation" and other is not None:
            if other is payer or other.side == payer.side:
                self.bus.publish("cost_refused", payer.uid, other=beneficiary,
                                 detail="self" if other is payer else "ally")
                return 0
        reason = self.refusal(payer, kind)
        if reason is not None:
            self.bus.publish("cost_refused", payer.uid, other=beneficiary, detail=reason)
            return 0
        owed = self.price(payer, amount, kind)
        price = owed
        if DEFY_DEATH_ANSWERS[kind] and payer.defy_death and owed > 0 and owed >= payer.vitality:
            price = max(payer.vitality - self.defy_death_leaves, 0)
            self.bus.publish("defy_death", payer.uid, max(amount, 0) - price, beneficiary)
            payer.defy_death = False
            payer.defy_death_spent = True
        if kind == "self_destruct" and payer.shield > 0 and not payer.discards_combat:
            self.bus.publish("shield_scrapped", payer.uid, payer.shield)
            payer.shield = 0
        if kind == "interest":
            payer.max_vitality -= price

        def announce(lost: int) -> None:
            if lost <= 0:
                return
            self.bus.publish(channel, payer.uid, lost, beneficiary, kind if channel == "cost_paid" else None)
            if kind == "interest":
                self.bus.publish("max_vitality_lowered", payer.uid, lost)
            if kind == "retaliation" and beneficiary is not None:
                self.bus.publish("credit", beneficiary, lost, payer.uid)
                if payer.is_boss:
                    self.bus.publish("phasebreak_check", payer.uid, lost, beneficiary)
                else:
                    self.bus.publish("feast", beneficiary, lost, payer.uid)

        killer = beneficiary if kind == "retaliation" and beneficiary != payer.uid else None
        return self.ledger.take(payer, price, killer, announce)


# ------------------------------------------------------------------------------------------
# Damage: one class per layer (500.1, 500.2)
# ------------------------------------------------------------------------------------------

DOT_KINDS = ("burn", "venom")


class Hit:
    """One damage instance in flight."""

    def __init__(self, target: str, amount: int, source: str | None = None, kind: str = "hit",
                 allows_dormant: bool = False, rolls: list[bool] | None = None, moved: bool = False,
                 appliers: list[tuple[str, int]] | None = None) -> None:
        self.target = target
        self.amount = amount
        self.source = source
        self.kind = kind
        self.allows_dormant = allows_dormant
        self.rolls = list(rolls or [])
        self.moved = moved
        self.appliers = list(appliers or [])

    def weights(self) -> list[tuple[str, int]]:
        """Who is credited and by how much: each applier once (amounts added up), else the source alone."""
        merged: dict[str, int] = {}
        for uid, applied in self.appliers:
            merged[uid] = merged.get(uid, 0) + applied
        if merged:
            return list(merged.items())
        return [] if self.source is None else [(self.source, 1)]

    @property
    def is_tick(self) -> bool:
        return self.kind in DOT_KINDS


class Armor:
    """500.2: sqrt(A)/(sqrt(A)+20) with the survivor rounded up, then 1 flat per 5 Armor.

    The square root is estimated in floating point and the estimate is then corrected
    with an exact integer test, so a boundary (87 into 81 Armor leaves exactly 60) is
    never off by one.
    """

    def __init__(self, ruleset: dict[str, Any]) -> None:
        self.negative = ruleset.get("negative_armor", "mirror")

    @staticmethod
    def covers(s: int, damage: int, armor: int) -> bool:
        # s * (sqrt(armor) + 20) >= 20 * damage, squared
        gap = 20 * (damage - s)
        return gap <= 0 or s * s * armor >= gap * gap

    def percentage(self, damage: int, armor: int) -> int:
        if damage <= 0:
            return damage
        if armor < 0:
            return self.amplified(damage, -armor)
        guess = math.ceil(20 * damage / (math.sqrt(armor) + 20))
        return self.corrected(guess, damage, armor)

    def corrected(self, guess: int, damage: int, armor: int) -> int:
        """The least survivor that covers the damage, searched from a floating-point guess."""
        while guess > 0 and self.covers(guess - 1, damage, armor):
            guess -= 1
        while not self.covers(guess, damage, armor):
            guess += 1
        return guess

    def amplified(self, damage: int, weakness: int) -> int:
        if self.negative == "reciprocal":
            # damage * (20 + sqrt(B)) / 20, rounded up: d + the least k with 20k >= d*sqrt(B)
            k = math.ceil(damage * math.sqrt(weakness) / 20)
            while k > 0 and 400 * (k - 1) ** 2 >= damage * damage * weakness:
                k -= 1
            while 400 * k * k < damage * damage * weakness:
                k += 1
            return damage + k
        # mirror: damage * (2 sqrt(B) + 20) / (sqrt(B) + 20), rounded up
        def enough(s: int) -> bool:
            return s >= 2 * damage or (s >= damage and (2 * damage - s) ** 2 * weakness <= 400 * (s - damage) ** 2)

        r = math.sqrt(weakness)
        guess = max(math.ceil(damage * (2 * r + 20) / (r + 20)), damage)
        while guess > damage and enough(guess - 1):
            guess -= 1
        while not enough(guess):
            guess += 1
        return guess

    def flat(self, damage: int, armor: int) -> int:
        reduction = armor // 5 if armor > 0 else 0
        return max(damage - reduction, 0)

    def apply(self, damage: int, armor: int) -> int:
        return self.flat(self.percentage(damage, armor), armor)


class IncomingCap:
    """500.1-7: a printed post-Armor cap; the excess is simply gone."""

    def apply(self, unit: Unit, damage: int) -> int:
        return min(damage, max(unit.cap, 0)) if unit.has_cap else damage


class InsuranceLayer:
    """500.1-8/9, 500.1a: up to 25 per point, a point spent whole, Subrogated first."""

    POINT = 25

    def spend(self, points: int, damage: int) -> tuple[int, int]:
        needed = -(-damage // self.POINT)
        spent = min(max(points, 0), needed)
        return spent, min(damage, self.POINT * spent)


class ShieldLayer:
    """500.1-10: Shield absorbs what remains; a multiplier drains it faster."""

    def __init__(self, ruleset: dict[str, Any]) -> None:
        self.rounding = ruleset.get("shield_multiplier_rounding", "ceil")

    def absorb(self, shield: int, multiplier: int, damage: int) -> tuple[int, int]:
        pool = max(shield, 0)
        drained = min(pool, multiplier * damage)
        if multiplier * damage <= shield:
            return drained, damage
        to_break = -(-pool // multiplier) if self.rounding == "ceil" else pool // multiplier
        return drained, min(damage, to_break)


class Attribution:
    """500.5: credit to the dealer; a shared tick split by what each applied; Feast from the Vitality part."""

    def __init__(self, board: Board, bus: EventBus, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.bus = bus
        self.to_first = ruleset.get("tick_share_rounding", "largest_remainder") == "remainder_to_first"
        self.feast_by_applied = ruleset.get("tick_feast_shares", "of_credit_share") == "of_applied"
        self.enemies_only = ruleset.get("friendly_damage_credit", "credited") == "enemies_only"
        self.boss_never_feeds = ruleset.get("boss_feast_exclusion", "retaliation_only") == "all_boss_vitality"
        self.dead_kill_only = ruleset.get("dead_source_credit", "full") == "kill_only"

    def dead_source(self, uid: str, hit: Hit) -> bool:
        """INT-355: under kill_only, a source dead as its hit lands (a self-destruct's blast) keeps the kill alone."""
        dealer = self.board.get(uid)
        return self.dead_kill_only and not hit.is_tick and dealer is not None and not dealer.alive

    def friendly(self, uid: str, victim: Unit) -> bool:
        """INT-357: under enemies_only, damage to the dealer itself or an ally is credited to nobody."""
        dealer = self.board.get(uid)
        return self.enemies_only and (uid == victim.uid or (dealer is not None and dealer.side == victim.side))

    def split(self, total: int, weights: list[int]) -> list[int]:
        """``total`` in proportion to ``weights``: floors first, the points left to the largest remainders."""
        whole = sum(weights)
        if whole <= 0:
            return [0] * len(weights)
        parts = [total * w // whole for w in weights]
        left = total - sum(parts)
        if self.to_first:
            parts[0] += left
            return parts
        by_remainder = sorted(range(len(weights)), key=lambda i: (parts[i] * whole - total * weights[i], i))
        for i in by_remainder[:left]:
            parts[i] += 1
        return parts

    def credit(self, hit: Hit, unit: Unit, dealt: int, lost: int) -> None:
        who = hit.weights()
        if not who:
            return
        weights = [w for _, w in who]
        credits = self.split(dealt, weights)
        feast_by = weights if self.feast_by_applied or dealt <= 0 else credits
        feasts = self.split(lost, feast_by)
        for i, (uid, _) in enumerate(who):
            if self.friendly(uid, unit) or self.dead_source(uid, hit):
                credits[i] = feasts[i] = 0
            if self.boss_never_feeds and unit.is_boss:  # INT-123: a boss's Vitality feeds no Feast, whatever took it
                feasts[i] = 0
        for (uid, _), credit in zip(who, credits):
            if credit > 0:
                self.bus.publish("credit", uid, credit, unit.uid)
        for (uid, _), fed in zip(who, feasts):
            if fed > 0:
                self.bus.publish("feast", uid, fed, unit.uid)


class Mitigation:
    """The numbers of steps 500.1-4 .. 500.1-12 for one recipient."""

    def __init__(self, **numbers: Any) -> None:
        self.__dict__.update(numbers)


class DamagePipeline:
    """500.1: gates, lethal redirect, ignore charge, Armor, cap, Insurance, Shield, redirect, defy-death, Vitality."""

    #: The absorbing layers after the cap, in the order they meet the damage (500.1-8..10).
    LAYER_ORDER = ("subrogated", "insurance", "shield")

    def __init__(self, board: Board, bus: EventBus, ledger: VitalityLedger, costs: CostPayer,
                 ruleset: dict[str, Any]) -> None:
        self.board = board
        self.bus = bus
        self.ledger = ledger
        self.costs = costs
        self.ruleset = ruleset
        self.armor = Armor(ruleset)
        self.cap = IncomingCap()
        self.insurance = InsuranceLayer()
        self.shield = ShieldLayer(ruleset)
        self.defy_leaves = ruleset.get("defy_death_leaves", 1)
        self.reflect_below_armor = ruleset.get("reflect_entry", "skip_armor_only") == "below_armor"
        self.redirect_excess = ruleset.get("redirect_cap_moves", "up_to_cap") == "excess_over_cap"
        self.lethal_raw = ruleset.get("lethal_redirect_test", "would_kill") == "raw_amount"
        self.attribution = Attribution(board, bus, ruleset)

    # -- gates ------------------------------------------------------------------------------

    def reachable(self, unit: Unit, hit: Hit) -> bool:
        shut = unit.dormant and not (hit.allows_dormant or hit.is_tick)
        return unit.alive and not unit.discards_combat and not shut

    def ally(self, unit: Unit, uid: str | None) -> Unit | None:
        other = self.board.get(uid)
        if other is None or other is unit or other.side != unit.side:
            return None
        return other

    def tick_amount(self, unit: Unit, hit: Hit) -> int:
        if not hit.is_tick or hit.moved:
            return hit.amount
        tick = hit.amount
        if unit.prismbroken:
            tick = -(-3 * tick // 2)
        return tick - unit.rune_tick_reduction - unit.forge_tick_reduction

    # -- arithmetic -------------------------------------------------------------------------

    def mitigate(self, unit: Unit, hit: Hit, entering: int, multiplier: int, redirect_open: bool) -> Mitigation:
        below_armor = hit.kind == "reflect" and self.reflect_below_armor
        ignored = not below_armor and entering > 0 and unit.ignore_charges > 0
        damage = 0 if ignored else entering
        if not (hit.is_tick or hit.kind == "reflect"):
            damage = self.armor.apply(damage, unit.armor)
        after_armor = damage
        damage = self.cap.apply(unit, damage)
        spent = {"subrogated": (0, 0), "insurance": (0, 0), "shield": (0, 0)}
        for layer in self.LAYER_ORDER:
            if layer == "shield":
                spent[layer] = self.shield.absorb(unit.shield, multiplier, damage)
            else:
                spent[layer] = self.insurance.spend(getattr(unit, layer), damage)
            damage -= spent[layer][1]
        (sub_spent, sub_absorbed), (ins_spent, ins_absorbed) = spent["subrogated"], spent["insurance"]
        drained, absorbed = spent["shield"]
        after_shield = damage
        redirected = 0
        if redirect_open:
            cap = max(unit.redirect_cap, 0)
            redirected = max(damage - cap, 0) if self.redirect_excess else min(damage, cap)
        kept = damage - redirected
        defied = unit.defy_death and kept > 0 and kept >= unit.vitality
        remainder = max(unit.vitality - self.defy_leaves, 0) if defied else kept
        return Mitigation(entering=entering, ignored=ignored, after_armor=after_armor, sub_spent=sub_spent,
                          sub_absorbed=sub_absorbed, ins_spent=ins_spent, ins_absorbed=ins_absorbed,
                          drained=drained, absorbed=absorbed, after_shield=after_shield, redirected=redirected,
                          defied=defied, remainder=remainder)

    # -- the instance -----------------------------------------------------------------------

    def resolve(self, hit: Hit) -> list[dict[str, Any]]:
        """Run one instance; return what retaliation reads, per unit the damage landed on.

        The recipient's own result comes first, then those of damage moved to an interceptor
        or a redirect receiver, which answer it as their own damage event (500.1g).
        """
        if hit.amount <= 0:
            return []
        moved_results: list[dict[str, Any]] = []
        unit = self.board.get(hit.target)
        source = self.board.get(hit.source)
        multiplier = max(source.shield_multiplier, 1) if source is not None else 1
        amount = self.tick_amount(unit, hit)
        if hit.is_tick and not hit.moved and unit.alive and hit.amount > 0 and amount <= 0:
            self.bus.publish("tick_prevented", unit.uid, hit.amount, hit.source, hit.kind)
        if unit.alive and amount > 0 and unit.discards_combat:
            self.bus.publish("damage_discarded", unit.uid, amount, hit.source, "tool_or_hub")
        elif unit.alive and amount > 0 and unit.dormant and not (hit.allows_dormant or hit.is_tick):
            self.bus.publish("damage_discarded", unit.uid, amount, hit.source, "dormant")
        entering = amount if amount > 0 and self.reachable(unit, hit) else 0

        below_armor = hit.kind == "reflect" and self.reflect_below_armor
        interceptor = None if hit.moved or below_armor else self.ally(unit, unit.intercept_by)
        if interceptor is not None:
            if self.lethal_raw:
                lethal = entering > 0 and entering >= unit.vitality
            else:
                alone = self.mitigate(unit, hit, entering, multiplier, False)
                lethal = alone.remainder > 0 and alone.remainder >= unit.vitality
            if lethal and self.reachable(interceptor, hit):
                self.bus.publish("lethal_redirect", unit.uid, entering, interceptor.uid)
                moved_results += self.resolve(Hit(interceptor.uid, entering, hit.source, hit.kind,
                                                  hit.allows_dormant, hit.rolls, True, hit.appliers))
                entering = 0

        receiver = None if hit.moved else self.ally(unit, unit.redirect_to)
        redirect_open = receiver is not None and self.reachable(receiver, hit)
        m = self.mitigate(unit, hit, entering, multiplier, redirect_open)

        shield_before = unit.shield
        if m.ignored:
            unit.ignore_charges -= 1
        unit.subrogated -= m.sub_spent
        unit.insurance -= m.ins_spent
        unit.shield -= m.drained
        if m.defied:
            unit.defy_death = False
            unit.defy_death_spent = True
        if m.ignored:
            self.bus.publish("ignore_charge_spent", unit.uid, other=hit.source)
        if m.sub_spent > 0:
            self.bus.publish("insurance_prevented", unit.uid, m.sub_absorbed, hit.source, "subrogated")
            payback = hit.kind != "reflect" or self.ruleset.get("reflect_subrogation", "no_payback") == "payback"
            if source is not None and source is not unit and source.side != unit.side and m.sub_absorbed > 0 and payback:
                self.costs.pay(source, m.sub_absorbed, "retaliation", unit.uid, channel="subrogation")
        if m.ins_spent > 0:
            self.bus.publish("insurance_prevented", unit.uid, m.ins_absorbed, hit.source, "plain")
        if m.drained > 0:
            self.bus.publish("shield_damaged", unit.uid, m.drained, hit.source)
            if shield_before - m.drained <= 0:
                self.bus.publish("shield_broken", unit.uid, other=hit.source)
        if receiver is not None:
            if m.redirected > 0:
                self.bus.publish("redirect", unit.uid, m.redirected, receiver.uid)
            moved_results += self.resolve(Hit(receiver.uid, m.redirected, hit.source, hit.kind,
                                              hit.allows_dormant, hit.rolls, True, hit.appliers))
        if m.defied:
            self.bus.publish("defy_death", unit.uid, m.after_shield - m.redirected - m.remainder, hit.source)

        def announce(lost: int) -> None:
            if lost > 0 and hit.kind != "reflect":
                self.bus.publish("damage_taken", unit.uid, lost, hit.source, hit.kind)
            self.attribution.credit(hit, unit, m.absorbed + lost, lost)
            if unit.is_boss and lost > 0:
                self.bus.publish("phasebreak_check", unit.uid, lost, hit.source)
            every = self.ruleset.get("stagger_lanes", "direct_only") == "every_instance"
            direct = hit.kind in ("hit", "tremor", "aoe") or (every and hit.is_tick)
            if unit.is_boss and direct and m.absorbed + lost > 0:
                self.bus.publish("stagger", unit.uid, m.absorbed + lost, hit.source)

        standing = unit.vitality if unit.alive else 0
        lost = self.ledger.take(unit, m.remainder, hit.source, announce)
        entered = m.entering > 0 and not m.ignored
        after_shield = self.ruleset.get("damage_event_test", "reached_vitality") == "after_shield"
        event = entered and (m.sub_spent + m.ins_spent > 0 or (m.after_shield > 0 if after_shield else lost > 0))
        killed = 0 < standing <= lost  # this instance killed it, whether or not a Vessel brought it back
        return [{"target": unit.uid, "event": event, "landed": lost, "killed": killed, "after_shield": m.after_shield},
                *moved_results]


# ------------------------------------------------------------------------------------------
# Retaliation (500.6, 500.7)
# ------------------------------------------------------------------------------------------


class Retaliation:
    """Thorns, Riposte and Retort answer a resolved hit; a boss's Reflect sends damage back."""

    def __init__(self, board: Board, bus: EventBus, costs: CostPayer, pipeline: DamagePipeline,
                 ruleset: dict[str, Any]) -> None:
        self.board = board
        self.bus = bus
        self.costs = costs
        self.pipeline = pipeline
        self.roll_on_refused = ruleset.get("riposte_roll_on_refused", "consumed") == "consumed"
        self.reflect_ticks = ruleset.get("reflect_lanes", "hits_and_ticks") == "hits_and_ticks"
        self.dead_answer = ruleset.get("dead_carrier_answers", "answers") == "answers"
        self.reflect_basis = ruleset.get("reflect_basis", "vitality_lost")
        self.per_kind = ruleset.get("answer_order", "per_attacker") == "per_kind"

    def answer(self, hit: Hit, results: list[dict[str, Any]]) -> None:
        """Each unit the damage landed on answers the attacker, in order, sharing the rolls."""
        if hit.kind == "reflect" or hit.source is None:
            return
        rolls = list(hit.rolls)
        attackers = [uid for uid, _ in hit.weights()]  # each damaging source once (500.7e)
        passes = [("thorns",), ("riposte",), ("retort",)] if self.per_kind else [("thorns", "riposte", "retort")]
        for result in results:
            unit = self.board.get(result["target"])
            if result["killed"] and not self.dead_answer:
                continue  # a carrier the hit killed answers nothing (INT-116, silent)
            for kinds in passes:  # each attacker in turn, or every Thorns, then every Riposte, then every Retort (INT-110)
                for uid in attackers:
                    self.answer_one(unit, self.board.get(uid), result, rolls, kinds)
            if self.reflect_ticks or not hit.is_tick:  # 5% of the Vitality lost, or of what the Shield left (INT-111)
                basis = result["after_shield"] if self.reflect_basis == "after_shield" else result["landed"]
                self.reflect(unit, self.board.get(hit.source), basis)

    def answer_one(self, unit: Unit, attacker: Unit, result: dict[str, Any], rolls: list[bool],
                   kinds: tuple[str, ...] = ("thorns", "riposte", "retort")) -> None:
        event, landed = result["event"], result["landed"]
        if attacker is unit or attacker.side == unit.side:
            present = unit.thorns > 0 or unit.riposte > 0 or (landed > 0 and unit.retort > 0)
            if event and present and kinds[0] == "thorns":
                self.bus.publish("cost_refused", attacker.uid, other=unit.uid,
                                 detail="self" if attacker is unit else "ally")
        else:
            if event and unit.thorns > 0 and "thorns" in kinds:
                self.costs.pay(attacker, unit.thorns, "retaliation", unit.uid, channel="thorns")
            legal = attacker.alive and not attacker.entrapped and not attacker.dormant
            if event and unit.riposte > 0 and (self.roll_on_refused or legal) and "riposte" in kinds:
                if not rolls:
                    raise ValueError(f"riposte_rolls: a roll is needed for Riposte on {unit.uid}")
                if rolls.pop(0):
                    self.costs.pay(attacker, unit.riposte, "retaliation", unit.uid, channel="riposte")
                else:
                    self.bus.publish("riposte_missed", attacker.uid, other=unit.uid)
            if "retort" not in kinds:
                return
            if landed > 0 and unit.retort > 0:
                self.costs.pay(attacker, unit.retort, "retaliation", unit.uid, channel="retort")

    def reflect(self, boss: Unit, attacker: Unit, landed: int) -> None:
        if attacker is boss or attacker.side == boss.side:
            return
        amount = max(5 * landed // 100, 1) if landed > 0 else 0
        if boss.is_boss and boss.reflect and amount > 0:
            self.bus.publish("reflect", boss.uid, amount, attacker.uid)
            self.pipeline.resolve(Hit(attacker.uid, amount, boss.uid, "reflect"))


# ------------------------------------------------------------------------------------------
# Bloodletting (800.4)
# ------------------------------------------------------------------------------------------


class Bloodletting:
    """800.4: the first eligible unit on the caster's side, in reading order, pays the cost."""

    def __init__(self, board: Board, bus: EventBus, costs: CostPayer, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.bus = bus
        self.costs = costs
        self.defied_fails = ruleset.get("bloodletting_defied_to_zero", "fails") == "fails"
        self.reduction_scope = ruleset.get("bloodletting_reduction_scope", "caster_only")

    def payer(self, caster: Unit) -> Unit | None:
        if caster.is_boss:
            return caster if caster.alive and not caster.entrapped else None
        side = sorted((u for u in self.board.units if u.side == caster.side), key=lambda u: (u.row, u.col))
        for unit in side:
            if unit.alive and not unit.entrapped and not unit.is_boss:
                return unit
        return None

    def reduction(self, caster: Unit) -> int:
        """800.4l: the caster's reduction rune, or (INT-122) every living unit's on its side, summed or the largest."""
        if self.reduction_scope == "caster_only":
            return max(caster.bloodletting_reduction, 0)
        runes = [max(u.bloodletting_reduction, 0) for u in self.board.units if u.side == caster.side and u.alive]
        return sum(runes) if self.reduction_scope == "side_sum" else max(runes, default=0)

    def pay(self, caster: Unit, printed: int) -> str:
        """``paid``, ``skipped``, ``aborted`` or ``failed``."""
        cost = max(printed - self.reduction(caster), 0)
        payer = self.payer(caster)
        if payer is None:
            if cost > 0:
                self.bus.publish("activation_aborted", caster.uid)
                return "aborted"
            return "skipped"
        if cost <= 0:
            return "skipped"
        was_tool = payer.discards_combat
        paid = self.costs.pay(payer, cost, "bloodletting", caster.uid, channel="bloodletting_paid")
        if paid <= 0 and (self.defied_fails or was_tool):
            self.bus.publish("activation_failed", caster.uid, other=payer.uid)
            return "failed"
        return "paid"


# ------------------------------------------------------------------------------------------
# Abilities (400.8): printed lines, resolved lane by lane
# ------------------------------------------------------------------------------------------

LANE_ORDER = ["activation", "before_hit", "hit", "after_hit"]
ALWAYS_IN = {"crush": "before_hit", "maim": "after_hit", "cull": "after_hit", "bloodletting": "activation"}
STATUS_OF = {"burning_enemy": "burn", "venomed_enemy": "venom", "maimed_enemy": "maim"}


class AbilityResolver:
    """400.8: split the ability into lines, place them in lanes, then resolve each where it lands."""

    def __init__(self, board: Board, bus: EventBus, pipeline: DamagePipeline, retaliation: Retaliation,
                 bloodletting: Bloodletting, deaths: DeathHandler) -> None:
        self.board = board
        self.bus = bus
        self.pipeline = pipeline
        self.retaliation = retaliation
        self.bloodletting = bloodletting
        self.deaths = deaths
        self.revived_gone = False  # a unit this activation killed and a Vessel revived gets no later line (INT-412)
        self.restore_bonuses = False  # a Restore line adds the recipient's Forge Core bonus first (INT-211)
        self.clear_point = "start"  # when the activation clears the caster's Reliquary Speed (INT-411)
        self.clear_speed: Any = None  # the engine's own clearing, set with the ruleset
        self.opened: dict[str, int] = {}  # each unit's incarnation as the activation began
        self.allies_include_caster = False  # whether a line 'to allies' reaches the caster too (INT-205)
        self.per_count_units = "legal_recipients"  # which units a "per" count counts (INT-203)
        self.cull_unconditional = False  # whether Cull destroys whatever the recipient's Vitality (INT-209)
        self.dead_caster_stops = False  # whether a line that killed the caster ends the activation (INT-213)
        self.unlaned_lane = "after_hit"  # the lane of a line other than damage that prints none (INT-201)

    def lane_of(self, line: dict[str, Any]) -> str:
        if line["effect"] in ALWAYS_IN:
            return ALWAYS_IN[line["effect"]]
        return line.get("lane") or ("hit" if line["effect"] == "damage" else self.unlaned_lane)  # INT-201

    def ordered(self, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Passives stay out; lane by lane; a Bloodletting cost first in its lane; else printed order."""
        active = [(i, line) for i, line in enumerate(lines) if line.get("kind", "rider") != "passive"]
        active.sort(key=lambda p: (LANE_ORDER.index(self.lane_of(p[1])), p[1]["effect"] != "bloodletting", p[0]))
        return [line for _, line in active]

    @staticmethod
    def reachable(unit: Unit) -> bool:
        return unit.alive and not unit.entrapped and not unit.dormant and not unit.untargetable

    def countable(self, unit: Unit) -> bool:
        """A unit a "per" may count: a legal recipient, or (INT-203) any living unit that is not untargetable."""
        if self.per_count_units == "living_targetable_only":
            return unit.alive and not unit.untargetable
        return self.reachable(unit)

    def count(self, caster: Unit, per: str, units: list[Unit]) -> int:
        """A "per" count over ``units``: the board as it is when the line resolves (400.8a)."""
        status = STATUS_OF.get(per)
        total = 0
        for unit in units:
            enemy = unit.side != caster.side
            if unit.uid == caster.uid or enemy != (per != "ally") or not self.countable(unit):
                continue
            if status is None or getattr(unit, status) > 0:
                total += 1
        return total

    def holds(self, condition: str, caster: Unit, targets: list[str], seen: dict[str, Unit]) -> bool:
        """A condition, on ``seen``: the board as it is when the line resolves (400.8-4)."""
        first = seen.get(targets[0]) if targets else None
        caster = seen[caster.uid]
        if condition == "target_alive":
            return first is not None and first.alive
        if condition == "target_burning":
            return first is not None and first.alive and first.burn > 0
        if condition == "enemy_burning":
            return self.count(caster, "burning_enemy", list(seen.values())) > 0
        return caster.vitality < caster.max_vitality

    def recipients(self, caster: Unit, to: str, targets: list[str]) -> list[Unit]:
        if to == "target":
            return [self.board.get(t) for t in targets]
        if to == "caster":
            return [caster]
        wanted = caster.side if to == "allies" else 1 - caster.side
        mine = to == "allies" and self.allies_include_caster  # INT-205: the caster among its allies, in its place
        side = sorted((u for u in self.board.units if u.side == wanted and (u is not caster or mine)),
                      key=lambda u: (u.row, u.col))
        return side

    @staticmethod
    def refusal(unit: Unit, effect: str) -> str | None:
        for reason, refused in (("dead", not unit.alive), ("entrapped", unit.entrapped), ("dormant", unit.dormant),
                                ("untargetable", unit.untargetable),
                                ("tool_or_hub", effect != "damage" and unit.discards_combat)):
            if refused:
                return reason
        return None

    def activate(self, caster: Unit, ability: dict[str, Any], targets: list[str], rolls: list[bool]) -> None:
        numbers = ability.get("numbers", {})
        self.opened = {u.uid: u.incarnation for u in self.board.units}
        units = self.board.units  # live: a count reads the board as it is when its line resolves (400.8a)
        seen = self.board.by_uid  # live: so does a condition (400.8-4)
        for line in self.ordered(ability["lines"]):
            printed = line.get("amount", 0)
            base = numbers[printed.strip("{}")] if isinstance(printed, str) and printed.startswith("{") else int(printed)
            condition = line.get("condition")
            if condition is not None and not self.holds(condition, caster, targets, seen):
                self.bus.publish("condition_failed", caster.uid, detail=condition)
                continue
            per = line.get("per")
            amount = base * self.count(caster, per, units) if per else base
            self.bus.publish("line_resolved", caster.uid, amount, detail=line["effect"])
            if line["effect"] == "bloodletting":
                paid = self.bloodletting.pay(caster, amount)
                if self.clear_point == "after_cost" and paid != "failed":
                    self.clear_speed(caster)
                if paid in ("failed", "aborted"):
                    return
                continue
            lived = caster.alive
            for unit in self.recipients(caster, line.get("to", "target"), targets):
                self.deliver(caster, line["effect"], unit, amount, rolls)
            if self.dead_caster_stops and lived and not caster.alive:
                return  # INT-213: the line killed the caster; none of its remaining lines resolve

    def deliver(self, caster: Unit, effect: str, unit: Unit, amount: int, rolls: list[bool]) -> None:
        gone = self.revived_gone and unit.incarnation != self.opened.get(unit.uid, unit.incarnation)
        why = "dead" if gone else self.refusal(unit, effect)
        if why is not None:
            self.bus.publish("line_refused", unit.uid, amount, caster.uid, detail=why)
        elif effect == "damage":
            hit = Hit(unit.uid, amount, caster.uid, "hit", False, rolls)
            self.retaliation.answer(hit, self.pipeline.resolve(hit))
        elif effect == "restore":
            self.restore(caster, unit, amount)
        elif effect == "cull":
            if amount > 0 and (self.cull_unconditional or unit.vitality <= amount):  # INT-209
                self.bus.publish("culled", unit.uid, unit.vitality, caster.uid)
                self.deaths.kill(unit, caster.uid)
        else:
            applied = max(amount, 0)
            if effect == "crush":
                unit.armor -= applied
                unit.armor_change -= applied  # undone by a revival (500.9c)
            else:
                setattr(unit, effect, getattr(unit, effect) + applied)
            if applied > 0:
                self.bus.publish("status_applied", unit.uid, applied, caster.uid, detail=effect)

    def restore(self, caster: Unit, unit: Unit, amount: int) -> None:
        """Recovery (500.3): capped at the missing Vitality, then each Maim point prevents 2; under
        ability_restore_bonuses = full_recovery_ledger the Forge Core bonus is added first (INT-211)."""
        if self.restore_bonuses and amount > 0:
            amount += max(unit.forge_core_recovery, 0)  # the bonus first (500.3b); Exalt meets no heal (500.3f)
        room = max(unit.max_vitality - unit.vitality, 0)
        eligible = min(max(amount, 0), room)
        prevented = min(eligible, 2 * max(unit.maim, 0))
        restored = eligible - prevented
        if restored > 0:
            self.bus.publish("vitality_restored", unit.uid, restored, caster.uid)
        unit.vitality += restored
        unit.maim -= (prevented + 1) // 2


# ------------------------------------------------------------------------------------------
# Recovery (500.3): one ledger for Vitality and Shield
# ------------------------------------------------------------------------------------------


class RecoveryLedger:
    """500.3: the gate, the Forge Core bonus, the cap, Exalt on a Shield gain, then Maim last."""

    def __init__(self, bus: EventBus, ruleset: dict[str, Any]) -> None:
        self.bus = bus
        self.shield_cap = ruleset.get("shield_gain_cap", "none")  # INT-302: none, or max_vitality
        self.maim_lanes = ruleset.get("maim_lanes", "every_lane")  # INT-306: every_lane, or heals_only

    @staticmethod
    def refusal(unit: Unit, lane: str) -> str | None:
        if not unit.alive:
            return "dead"
        if lane == "repair":  # Tool repair bypasses the gate (500.3g)
            return None if unit.is_tool else "not_a_tool"
        if unit.discards_combat:
            return "tool_or_hub"
        if unit.entrapped:
            return "entrapped"
        if unit.dormant:
            return "dormant"
        return None

    def recover(self, unit: Unit, amount: int, lane: str) -> None:
        if amount <= 0:
            return  # nothing requested, nothing to report
        why = self.refusal(unit, lane)
        if why is not None:
            self.bus.publish("recovery_refused", unit.uid, amount, detail=why)
            return
        total = amount + max(unit.forge_core_recovery, 0)  # the bonus first (500.3b)
        if lane == "shield":
            if self.shield_cap == "max_vitality":  # Shield stays within the maximum Vitality (INT-302)
                total = min(total, max(unit.max_vitality - unit.shield, 0))
            if total > 0:
                total += max(unit.exalt, 0)  # no ceiling on Shield; Exalt before Maim (500.3f)
        else:
            total = min(total, max(unit.max_vitality - unit.vitality, 0))  # missing Vitality (500.3c)
        prevented = min(total, 2 * max(unit.maim, 0))
        if lane != "heal" and self.maim_lanes == "heals_only":
            prevented = 0  # Maim meets a heal only (INT-306)
        consumed = (prevented + 1) // 2  # ceil(prevented / 2) (500.3d)
        gained = total - prevented
        unit.maim -= consumed
        if consumed > 0:
            self.bus.publish("maim_consumed", unit.uid, consumed, detail=lane)
        if lane == "shield":
            unit.shield += gained
        else:
            unit.vitality += gained
        if gained > 0:
            self.bus.publish("shield_gained" if lane == "shield" else "healed", unit.uid, gained, detail=lane)


# ------------------------------------------------------------------------------------------
# The battle clock (500.4d, 500.9a): Everlasting revivals come due
# ------------------------------------------------------------------------------------------


class BattleClock:
    """Milliseconds since the battle began; 100 ms ticks; the Everlasting revivals still due."""

    TICK_MS = 100
    DELAY_MS = 10_000

    def __init__(self, board: Board, bus: EventBus, deaths: DeathHandler, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.bus = bus
        self.deaths = deaths
        self.now = 0
        self.running = True
        self.pending: list[dict[str, Any]] = []
        self.death_cell_first = ruleset.get("everlasting_slot_order", "death_cell_first") == "death_cell_first"
        self.dead_hold_cells = ruleset.get("dead_unit_cell", "freed") == "held"  # INT-403: a dead unit keeps its cell
        self.keeps_killer = ruleset.get("delayed_revival_killer", "kept") == "kept"  # INT-413: past 10 s, or not

    def schedule(self, uid: str, killer: str | None) -> None:
        self.pending.append({"uid": uid, "died": self.now, "next": self.now + self.DELAY_MS, "killer": killer})

    def advance(self, ms: int, rows: int, cols: int) -> None:
        until = self.now + ms
        while self.running and self.pending:
            due = min(self.pending, key=lambda p: (p["next"], p["died"], self.pending.index(p)))
            if due["next"] > until:
                break
            self.now = due["next"]
            self.attempt(due, rows, cols)
        self.now = until

    def end(self) -> None:
        for p in self.pending:
            self.bus.publish("everlasting_lapsed", p["uid"], self.now)
        self.pending = []
        self.running = False

    def slot(self, unit: Unit, rows: int, cols: int) -> tuple[int, int, int] | None:
        holders = (u for u in self.board.units if (u.alive or self.dead_hold_cells) and u is not unit)
        held = {(u.side, u.row, u.col) for u in holders}
        own = (unit.side, unit.row, unit.col)
        if self.death_cell_first and own not in held:
            return own
        for row in range(rows):
            for col in range(cols):
                if (unit.side, row, col) not in held:
                    return unit.side, row, col
        return None

    def attempt(self, due: dict[str, Any], rows: int, cols: int) -> None:
        unit = self.board.get(due["uid"])
        cell = self.slot(unit, rows, cols)
        self.pending.remove(due)
        if cell is None:  # the half is full: retry on the first tick after this try
            due["next"] = (due["next"] // self.TICK_MS + 1) * self.TICK_MS
            self.pending.append(due)
            self.bus.publish("everlasting_delayed", unit.uid, due["next"])
            return
        start = len(self.bus.history)
        unit.side, unit.row, unit.col = cell
        self.deaths.revive(unit)
        on_time = self.now <= due["died"] + self.DELAY_MS  # its first try: the killer is held for those 10 s (500.9k)
        killer = due["killer"] if self.keeps_killer or on_time else None
        self.bus.publish("everlasting_revival", unit.uid, self.now, killer, ",".join(map(str, cell)))
        self.deaths.channels(unit, "everlasting", killer)
        self.bus.publish("vessel_batch", unit.uid, len(self.bus.history) - start, detail="revival")


# ------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------


class Engine:
    """Wires the concerns together for one scenario."""

    def __init__(self, board: Board, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.ruleset = ruleset
        self.bus = EventBus()
        self.deaths = DeathHandler(board, self.bus,
                                   ruleset.get("zero_maximum_revival", "stays_dead") == "returns_at_one")
        self.ledger = VitalityLedger(VitalityLossListeners(self.bus), self.deaths)
        self.costs = CostPayer(board, self.ledger, self.bus, ruleset)
        self.pipeline = DamagePipeline(board, self.bus, self.ledger, self.costs, ruleset)
        self.retaliation = Retaliation(board, self.bus, self.costs, self.pipeline, ruleset)
        self.bloodletting = Bloodletting(board, self.bus, self.costs, ruleset)
        self.abilities = AbilityResolver(board, self.bus, self.pipeline, self.retaliation, self.bloodletting, self.deaths)
        self.abilities.revived_gone = ruleset.get("rider_on_revived_target", "lands") == "refused"
        self.abilities.restore_bonuses = \
            ruleset.get("ability_restore_bonuses", "capacity_and_maim_only") == "full_recovery_ledger"
        self.abilities.allies_include_caster = ruleset.get("allies_include_caster", "excluded") == "included"
        self.abilities.per_count_units = ruleset.get("per_count_units", "legal_recipients")
        self.abilities.cull_unconditional = ruleset.get("cull_line_test", "threshold") == "unconditional"
        self.abilities.dead_caster_stops = ruleset.get("dead_caster_activation", "continues") == "stops"
        self.abilities.unlaned_lane = ruleset.get("unlaned_rider_lane", "after_hit")
        self.clear_point = self.abilities.clear_point = ruleset.get("reliquary_clear_point", "start")
        self.abilities.clear_speed = self.clear_speed
        self.recovery = RecoveryLedger(self.bus, ruleset)
        self.clock = BattleClock(board, self.bus, self.deaths, ruleset)
        self.deaths.clock = self.clock

    def perform(self, action: dict[str, Any]) -> None:
        handler = getattr(self, "do_" + action["kind"], None)
        if handler is None:
            raise ValueError(f"unsupported action kind {action['kind']!r}")
        handler(action)

    def do_cost(self, action: dict[str, Any]) -> None:
        payer = self.board.get(action["payer"])
        self.costs.pay(payer, action["amount"], action["cost_kind"], action.get("beneficiary"))

    def do_armor_debuff(self, action: dict[str, Any]) -> None:
        unit = self.board.get(action["target"])
        if action["debuff"] in ("crush", "repossess"):
            unit.armor -= max(action["amount"], 0)  # Armor may go negative (500.2e)
            unit.armor_change -= max(action["amount"], 0)  # undone by a revival (500.9c)

    @staticmethod
    def hit_of(action: dict[str, Any], source: str | None = None) -> Hit:
        return Hit(action["target"], action["amount"], action.get("source", source),
                   action.get("damage_kind", "hit"), action.get("allows_dormant", False),
                   action.get("riposte_rolls", []))

    def do_damage(self, action: dict[str, Any]) -> None:
        self.pipeline.resolve(self.hit_of(action))

    def do_hit(self, action: dict[str, Any]) -> None:
        hit = self.hit_of(action)
        self.retaliation.answer(hit, self.pipeline.resolve(hit))

    def clear_speed(self, caster: Unit) -> None:
        """500.9l: the Reliquary Speed a revival granted ends."""
        if caster.reliquary_speed > 0:
            self.bus.publish("reliquary_cleared", caster.uid, caster.reliquary_speed)
        caster.reliquary_speed = 0

    def activation_begins(self, caster: Unit, has_cost: bool = True) -> None:
        """500.9l: an activation spends the charge; it clears the Reliquary Speed now, after its cost, or at its end,
        as the ruleset reads it (INT-411; after the cost means now when there is none)."""
        if self.clear_point == "start" or (self.clear_point == "after_cost" and not has_cost):
            self.clear_speed(caster)
        caster.charge = 0

    def do_bloodletting(self, action: dict[str, Any]) -> None:
        caster = self.board.get(action["caster"])
        self.activation_begins(caster)
        outcome = self.bloodletting.pay(caster, action["cost"])
        if self.clear_point == "after_cost" and outcome != "failed":
            self.clear_speed(caster)
        if outcome not in ("failed", "aborted"):
            for step in action.get("hits", []):
                hit = self.hit_of({**step, "source": caster.uid})
                self.retaliation.answer(hit, self.pipeline.resolve(hit))
        if self.clear_point == "end":
            self.clear_speed(caster)


    def do_ability(self, action: dict[str, Any]) -> None:
        caster = self.board.get(action["caster"])
        lines = action["ability"]["lines"]
        self.activation_begins(caster, any(line["effect"] == "bloodletting" and line.get("kind") != "passive"
                                           for line in lines))
        self.abilities.activate(caster, action["ability"], action.get("targets", []), action.get("riposte_rolls", []))
        if self.clear_point == "end":
            self.clear_speed(caster)

    def do_recover(self, action: dict[str, Any]) -> None:
        self.recovery.recover(self.board.get(action["target"]), action["amount"], action.get("lane", "heal"))

    def do_cull(self, action: dict[str, Any]) -> None:
        unit, source = self.board.get(action["target"]), action.get("source")
        if unit.alive and not unit.discards_combat:  # nothing prevents it; Tools and Hubs discard it (500.4a)
            self.bus.publish("culled", unit.uid, unit.vitality, source)
            self.deaths.kill(unit, source)

    def do_tick(self, action: dict[str, Any]) -> None:
        appliers = [(a["unit"], a["applied"]) for a in action["appliers"]]
        hit = Hit(action["target"], action["amount"], appliers[0][0], action.get("damage_kind", "burn"), False,
                  action.get("riposte_rolls", []), appliers=appliers)
        self.retaliation.answer(hit, self.pipeline.resolve(hit))

    def do_advance(self, action: dict[str, Any]) -> None:
        self.clock.advance(action["ms"], action.get("rows", 2), action.get("cols", 4))

    def do_end_combat(self, action: dict[str, Any]) -> None:
        self.clock.end()


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """The in-process entry point: a scenario (JSON object) to an observation."""
    if scenario.get("rulebook") == "play":  # playing cards and activating abilities: examples/play_engine.py
        from referee.examples.play_engine import run_play

        return run_play(scenario)
    board = Board([Unit(u) for u in scenario["board"]])
    engine = Engine(board, scenario.get("ruleset", {}))
    for action in scenario["actions"]:
        engine.perform(action)
    observation = {"protocol": PROTOCOL, "board": [u.to_json() for u in board.units], "events": engine.bus.history}
    if "id" in scenario:
        observation["id"] = scenario["id"]
    return observation


TRACE = "referee-trace/1"


def write_trace(scenario: dict[str, Any], out: Any, engine_class: Any = None, board_every: int = 1) -> None:
    """Log a combat match as ``referee validate`` reads it: a header line with the starting board, then one line
    per action with the events it published and, every ``board_every`` actions and after the last, the board. The
    events are dropped from the bus once written, so a long match is logged in memory that does not grow with it."""
    board = Board([Unit(u) for u in scenario["board"]])
    engine = (engine_class or Engine)(board, scenario.get("ruleset", {}))
    header = {"trace": TRACE, "protocol": PROTOCOL, "ruleset": scenario.get("ruleset", {}), "board": scenario["board"]}
    out.write(_dumps(header) + "\n")
    line: dict[str, Any] = {}
    for n, action in enumerate(scenario["actions"], 1):
        if line:
            out.write(_dumps(line) + "\n")
        engine.perform(action)
        line = {"action": action, "events": engine.bus.history}
        if n % board_every == 0:
            line["board"] = [u.to_json() for u in board.units]
        engine.bus.history = []
    if line:
        line["board"] = [u.to_json() for u in board.units]
        out.write(_dumps(line) + "\n")


def serve(run_one: Any = None, stdin: Any = None, stdout: Any = None) -> None:
    """The JSON-lines loop: one scenario per input line, one observation per output line."""
    run_one = run_one or run
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(_dumps(run_one(_loads(line))) + "\n")
        stdout.flush()


def _loads(line: str) -> Any:
    """A scenario line: orjson where it reads what ``json`` reads (no number past 64 bits), else ``json``."""
    if orjson is not None:
        data = line.encode("utf-8", "surrogatepass")
        if data.translate(_DIGITS_AS_ZERO).find(b"0" * 19) < 0:
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
    return json.loads(line)


def _dumps(observation: dict[str, Any]) -> str:
    """An observation line: orjson's compact JSON (ASCII, as ``json`` writes it) where it can, else ``json``'s."""
    if orjson is not None:
        try:
            text = orjson.dumps(observation).decode()
            if text.isascii():
                return text
        except TypeError:  # an integer past 64 bits
            pass
    return json.dumps(observation, separators=(",", ":"))


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    module = sys.modules[__name__]
    if argv[:1] == ["--mutant"] and len(argv) >= 2:
        from referee.examples.mutants import load

        module, argv = load(argv[1]), argv[2:]
    if argv[:1] == ["--trace"] and len(argv) == 2:
        serve(_tracing(module, argv[1]))
    elif not argv:
        serve(module.run)
    else:
        sys.exit("usage: python -m referee.examples.engine [--mutant NAME] [--trace FILE]")


def _tracing(module: Any, path: str) -> Any:
    """``run``, also logging each combat scenario's match to ``path`` (appended: one trace per scenario)."""

    def run_and_log(scenario: dict[str, Any]) -> dict[str, Any]:
        if scenario.get("rulebook", "combat") == "combat":
            with open(path, "a", encoding="utf-8") as out:
                getattr(module, "write_trace", write_trace)(scenario, out)
        return module.run(scenario)

    return run_and_log


if __name__ == "__main__":
    main()
