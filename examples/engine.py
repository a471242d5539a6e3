"""An example production-style engine, written independently of ``referee.model``.

It is here to show (and to test) the differential harness on code shaped the way game
engines are shaped: mutable units, an event bus that listeners subscribe to, one class
per concern (Armor, Insurance, Shield, costs, death...). It implements the rules text of
chapters 500 (damage, Armor, death, retaliation, costs) and 800.4 (Bloodletting) from the
rulebook and ``docs/protocol.md``; it never imports the model.

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
import sys
from typing import Any

PROTOCOL = "referee/1"

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
    "deathrattle": False, "everlasting": False, "vessels": 0,
    "bloodletting_reduction": 0,
}

RESET_RUNES = ("adrenaline", "momentum", "bolster")


class Unit:
    """A mutable unit. Attributes mirror the protocol's unit fields."""

    def __init__(self, data: dict[str, Any]) -> None:
        for name, default in UNIT_FIELDS.items():
            setattr(self, name, data.get(name, default))

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in UNIT_FIELDS}

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

    def __init__(self, board: Board, bus: EventBus) -> None:
        self.board = board
        self.bus = bus

    def kill(self, unit: Unit, killer: str | None) -> None:
        self.bus.publish("death", unit.uid, other=killer)
        unit.alive = False
        unit.vitality = 0
        unit.shield = 0
        for rune in RESET_RUNES:
            setattr(unit, rune, 0)
        for other in self.board.units:
            if other is not unit and other.alive:
                self.bus.publish("macabre", other.uid, other=unit.uid)
        if unit.deathrattle:
            self.bus.publish("deathrattle", unit.uid)
        if unit.vessels > 0:
            self.bus.publish("vessel_revival", unit.uid)
            unit.alive = True
            unit.vitality = unit.max_vitality
            unit.vessels -= 1
        elif unit.everlasting:
            self.bus.publish("everlasting_scheduled", unit.uid)


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

    def __init__(self, ledger: VitalityLedger, bus: EventBus, ruleset: dict[str, Any]) -> None:
        self.ledger = ledger
        self.bus = bus
        self.defy_death_leaves = ruleset.get("defy_death_leaves", 1)

    def refuses(self, payer: Unit, kind: str) -> bool:
        if not payer.alive or payer.entrapped:
            return True
        return kind == "retaliation" and payer.dormant

    def price(self, payer: Unit, amount: int, kind: str) -> int:
        if payer.discards_combat:
            return 0
        if kind == "self_destruct":
            return payer.vitality
        return min(max(amount, 0), payer.vitality)

    def pay(self, payer: Unit, amount: int, kind: str, beneficiary: str | None = None,
            channel: str = "cost_paid") -> int:
        if self.refuses(payer, kind):
            self.bus.publish("cost_refused", payer.uid, detail=kind)
            return 0
        price = self.price(payer, amount, kind)
        if DEFY_DEATH_ANSWERS[kind] and payer.defy_death and price > 0 and price >= payer.vitality:
            price = max(payer.vitality - self.defy_death_leaves, 0)
            self.bus.publish("defy_death", payer.uid, amount - price)
            payer.defy_death = False
        if kind == "self_destruct" and payer.shield > 0 and not payer.discards_combat:
            self.bus.publish("shield_scrapped", payer.uid, payer.shield)
            payer.shield = 0

        def announce(lost: int) -> None:
            if lost > 0:
                self.bus.publish(channel, payer.uid, lost, beneficiary, kind if channel == "cost_paid" else None)

        lost = self.ledger.take(payer, price, beneficiary, announce)
        if kind == "interest":
            if lost > 0:
                self.bus.publish("max_vitality_lowered", payer.uid, lost)
            payer.max_vitality -= lost
        return lost


# ------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------


class Engine:
    """Wires the concerns together for one scenario."""

    def __init__(self, board: Board, ruleset: dict[str, Any]) -> None:
        self.board = board
        self.ruleset = ruleset
        self.bus = EventBus()
        self.deaths = DeathHandler(board, self.bus)
        self.ledger = VitalityLedger(VitalityLossListeners(self.bus), self.deaths)
        self.costs = CostPayer(self.ledger, self.bus, ruleset)

    def perform(self, action: dict[str, Any]) -> None:
        handler = getattr(self, "do_" + action["kind"], None)
        if handler is None:
            raise ValueError(f"unsupported action kind {action['kind']!r}")
        handler(action)

    def do_cost(self, action: dict[str, Any]) -> None:
        payer = self.board.get(action["payer"])
        self.costs.pay(payer, action["amount"], action["cost_kind"], action.get("beneficiary"))


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """The in-process entry point: a scenario (JSON object) to an observation."""
    board = Board([Unit(u) for u in scenario["board"]])
    engine = Engine(board, scenario.get("ruleset", {}))
    for action in scenario["actions"]:
        engine.perform(action)
    observation = {"protocol": PROTOCOL, "board": [u.to_json() for u in board.units], "events": engine.bus.history}
    if "id" in scenario:
        observation["id"] = scenario["id"]
    return observation


def serve(run_one: Any = None, stdin: Any = None, stdout: Any = None) -> None:
    """The JSON-lines loop: one scenario per input line, one observation per output line."""
    run_one = run_one or run
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(run_one(json.loads(line)), separators=(",", ":")) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--mutant"] and len(argv) == 2:
        from referee.examples.mutants import load

        serve(load(argv[1]).run)
    elif not argv:
        serve()
    else:
        sys.exit("usage: python -m referee.examples.engine [--mutant NAME]")


if __name__ == "__main__":
    main()
