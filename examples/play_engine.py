"""The example engine's play rulebook: playing cards and activating abilities (350-359, 399).

Written from the rules text and ``docs/protocol.md`` ("Play rulebook"), independently of
``referee.model`` and shaped like production code: mutable card objects, a game object
that owns them, one class per concern (cost calculation, non-standard costs, rune
abilities, the payment plan, the play and activation processes) and a snapshot taken
before each process so a failed one is rolled back.

``examples/engine.py``'s ``run`` hands a scenario with ``"rulebook": "play"`` to
:func:`run_play`; ``run`` here takes either rulebook, so a mutant of this file
(``examples/mutants.py``) is a whole engine too.
"""

from __future__ import annotations

import copy
from typing import Any

PROTOCOL = "referee/2"
DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")
CARD_DEFAULTS = {"kind": "unit", "controller": 0, "domain": "fury", "zone": "hand", "location": 0,
                 "exhausted": False, "might_bonus": 0}


class Card:
    """A card or rune. Attributes mirror the protocol's object fields."""

    FIELDS = ("oid", "kind", "controller", "domain", "zone", "location", "exhausted", "might_bonus")

    def __init__(self, data: dict[str, Any]) -> None:
        self.oid = data["oid"]
        for name, default in CARD_DEFAULTS.items():
            setattr(self, name, data.get(name, default))

    def move_to(self, zone: str, clear_board_state: bool = False) -> None:
        """A card leaving the board becomes a new, ready object; with ``clear_board_state`` (PLAY-025's
        all_board_state) it also loses its location and Might bonus."""
        self.zone = zone
        if zone != "board":
            self.exhausted = False
            self.enter_new_zone(clear_board_state)

    def enter_new_zone(self, clear_board_state: bool) -> None:
        if clear_board_state:
            self.location = 0
            self.might_bonus = 0

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}


class ResourcePool:
    def __init__(self, data: dict[str, Any]) -> None:
        self.energy = data.get("energy", 0)
        power = data.get("power", {})
        self.power = {d: power.get(d, 0) for d in DOMAINS}

    def to_json(self) -> dict[str, Any]:
        return {"energy": self.energy, "power": dict(self.power)}


class Game:
    """The acting player's pool and every card, by oid."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.pool = ResourcePool(data["pool"])
        self.cards = [Card(o) for o in data["objects"]]
        self.player = data.get("player", 0)
        self.location_count = data.get("location_count", 3)
        self.clears_board_state = False  # PLAY-025: set from the rules by run_play

    def card(self, oid: str) -> Card:
        for card in self.cards:
            if card.oid == oid:
                return card
        raise KeyError(oid)

    def is_friendly(self, card: Card) -> bool:
        return card.controller == self.player

    def snapshot(self) -> tuple[Any, Any]:
        return copy.deepcopy(self.pool), copy.deepcopy(self.cards)

    def restore(self, snapshot: tuple[Any, Any]) -> None:
        self.pool, self.cards = copy.deepcopy(snapshot[0]), copy.deepcopy(snapshot[1])

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool.to_json(), "objects": [c.to_json() for c in self.cards],
                "player": self.player, "location_count": self.location_count}


# ------------------------------------------------------------------------------------------
# Costs
# ------------------------------------------------------------------------------------------


class Cost:
    """Energy, Power by domain, [A]; as a mutable value."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = data or {}
        self.energy = data.get("energy", 0)
        power = data.get("power", {})
        self.power = {d: power.get(d, 0) for d in DOMAINS}
        self.any_power = data.get("any_power", 0)

    def add(self, other: Cost) -> None:
        self.energy += other.energy
        self.any_power += other.any_power
        for d in DOMAINS:
            self.power[d] += other.power[d]

    def copy(self) -> Cost:
        return copy.deepcopy(self)

    def is_free(self) -> bool:
        return self.energy == 0 and self.any_power == 0 and all(v == 0 for v in self.power.values())

    def power_total(self) -> int:
        return self.any_power + sum(self.power.values())


class Discounts:
    """Applying one discount: Energy and Power off, never below 0; an "or" discount takes one part."""

    def __init__(self, either_mode: str) -> None:
        self.either_mode = either_mode

    @staticmethod
    def reduce(amount: int, reduction: int) -> int:
        return max(amount - reduction, 0)

    def off_energy(self, cost: Cost, amount: int) -> None:
        cost.energy = self.reduce(cost.energy, amount)

    def off_power(self, cost: Cost, amount: int) -> None:
        left = amount
        before = cost.any_power
        cost.any_power = self.reduce(before, left)
        left = self.reduce(left, before)
        for d in DOMAINS:
            before = cost.power[d]
            cost.power[d] = self.reduce(before, left)
            left = self.reduce(left, before)

    def apply(self, cost: Cost, discount: dict[str, Any]) -> None:
        if not discount.get("either", False):
            self.off_energy(cost, discount.get("energy", 0))
            self.off_power(cost, discount.get("power", 0))
            return
        if self.either_mode == "energy_first":
            take_energy = cost.energy > 0
        else:
            take_energy = not cost.power_total() > 0
        if take_energy:
            self.off_energy(cost, discount.get("energy", 0))
        else:
            self.off_power(cost, discount.get("power", 0))


class CostCalculator:
    """The total cost: printed, additional (each with its own discounts), increases, discounts."""

    def __init__(self, discounts: Discounts, once: bool = False) -> None:
        self.discounts = discounts
        self.once = once  # PLAY-020: a component discount is used up by the first paid component it lowers

    @staticmethod
    def is_component_discount(discount: dict[str, Any], component: dict[str, Any]) -> bool:
        target = discount.get("applies_to", "total")
        return target == "additional" or (target == "optional_additional" and component.get("optional", False))

    def total(self, printed: dict[str, Any], additional: list[dict[str, Any]], pay_optional: list[bool],
              modifiers: dict[str, Any]) -> tuple[Cost, list[tuple[dict[str, Any], bool]]]:
        total = Cost(printed)
        extras = [(extra, True) for extra in printed.get("nonstandard", [])]
        used: set[int] = set()
        for component, choice in zip(additional, pay_optional):
            owed = not component.get("optional", False) or choice
            added = Cost(component)
            for k, discount in enumerate(modifiers.get("discounts", [])):
                if self.is_component_discount(discount, component) and k not in used:
                    self.discounts.apply(added, discount)
                    if self.once and owed:
                        used.add(k)
            if owed:
                total.add(added)
            extras += [(extra, owed) for extra in component.get("nonstandard", [])]
        stages = (self.add_increases, self.apply_discounts)
        for stage in stages:
            stage(total, modifiers)
        return total, extras

    @staticmethod
    def add_increases(total: Cost, modifiers: dict[str, Any]) -> None:
        for increase in modifiers.get("increases", []):
            total.add(Cost(increase))

    def apply_discounts(self, total: Cost, modifiers: dict[str, Any]) -> None:
        for discount in modifiers.get("discounts", []):
            if discount.get("applies_to", "total") == "total":
                self.discounts.apply(total, discount)


# ------------------------------------------------------------------------------------------
# Paying
# ------------------------------------------------------------------------------------------


class ExtraCosts:
    """Non-standard costs: performing the named action; an impossible one is not paid (nothing changes)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def can_exhaust(self, card: Card) -> bool:
        return self.game.is_friendly(card) and card.zone == "board" and not card.exhausted

    def pay(self, kind: str, count: int, source: str | None, targets: list[str]) -> bool:
        game = self.game
        if kind == "exhaust_this":
            card = game.card(source)
            if not self.can_exhaust(card):
                return False
            card.exhausted = True
            return True
        if kind == "recycle_this":
            card = game.card(source)
            if not (game.is_friendly(card) and card.zone == "board"):
                return False
            card.move_to("rune_deck" if card.kind == "rune" else "main_deck", game.clears_board_state)
            return True
        if kind == "recycle_from_trash":
            if len(targets) != count or len(set(targets)) != count:
                return False
            cards = [game.card(t) for t in targets]
            if not all(game.is_friendly(c) and c.zone == "trash" for c in cards):
                return False
            for c in cards:
                c.move_to("rune_deck" if c.kind == "rune" else "main_deck", game.clears_board_state)
            return True
        if len(targets) != 1:
            return False
        card = game.card(targets[0])
        if card.kind != "unit":
            return False
        if kind == "exhaust_friendly_unit":
            if not self.can_exhaust(card):
                return False
            card.exhausted = True
            return True
        if kind == "kill_friendly_unit":
            if not (game.is_friendly(card) and card.zone == "board"):
                return False
            card.move_to("trash", game.clears_board_state)
            return True
        if kind == "discard_unit":
            if not (game.is_friendly(card) and card.zone == "hand"):
                return False
            card.move_to("trash", game.clears_board_state)
            return True
        raise ValueError(f"unknown non-standard cost {kind!r}")


class Cashier:
    """The combined Energy and Power payment, all or nothing."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def can_pay(self, cost: Cost) -> bool:
        pool = self.game.pool
        if cost.energy > pool.energy:
            return False
        if any(cost.power[d] > pool.power[d] for d in DOMAINS):
            return False
        return cost.any_power <= sum(pool.power[d] - cost.power[d] for d in DOMAINS)

    def pay(self, cost: Cost, order: list[str]) -> bool:
        if not self.can_pay(cost):
            return False
        pool = self.game.pool
        pool.energy -= cost.energy
        for d in DOMAINS:
            pool.power[d] -= cost.power[d]
        left = cost.any_power
        for d in order:
            taken = min(left, pool.power[d])
            pool.power[d] -= taken
            left -= taken
        return True


RUNE_ABILITIES = {
    "exhaust": {"cost": {"nonstandard": [{"kind": "exhaust_this", "count": 1}]}, "effect": {"kind": "add_energy", "amount": 1}},
    "recycle": {"cost": {"nonstandard": [{"kind": "recycle_this", "count": 1}]}, "effect": {"kind": "add_power", "amount": 1}},
}


class PaymentPlan:
    """Follows the player's plan step by step; remembers what was paid."""

    def __init__(self, engine: PlayEngine, total: Cost, extras: list[tuple[dict[str, Any], bool]], source: str) -> None:
        self.engine = engine
        self.total = total
        self.extras = extras
        self.source = source
        self.paid = [False] * len(extras)
        self.resources_paid = total.is_free()
        self.valid = True

    def follow(self, steps: list[dict[str, Any]]) -> None:
        game = self.engine.game
        resources_steps = 0
        seen: set[int] = set()
        for step in steps:
            if step["step"] == "use_rune":
                self.engine.activate(step["rune"], RUNE_ABILITIES[step["ability"]],
                                     [{"step": "pay_cost", "index": 0}], {})
            elif step["step"] == "pay_resources":
                resources_steps += 1
                if resources_steps > 1:
                    self.valid = False
                self.resources_paid = Cashier(game).pay(self.total, step.get("any_power_from", list(DOMAINS)))
            else:
                index = step["index"]
                if index in seen or not 0 <= index < len(self.extras):
                    self.valid = False
                    continue
                seen.add(index)
                extra, owed = self.extras[index]
                if not owed:
                    continue
                snapshot = game.snapshot()
                done = ExtraCosts(game).pay(extra["kind"], extra.get("count", 1), self.source, step.get("targets", []))
                if not done:
                    game.restore(snapshot)
                self.paid[index] = done

    def all_paid(self) -> bool:
        return self.valid and self.resources_paid and all(p or not owed for p, (_, owed) in zip(self.paid, self.extras))


# ------------------------------------------------------------------------------------------
# The processes
# ------------------------------------------------------------------------------------------


class PlayEngine:
    def __init__(self, game: Game, rules: dict[str, Any]) -> None:
        self.game = game
        self.calculator = CostCalculator(Discounts(rules.get("either_discount", "energy_first")),
                                         rules.get("component_discount_scope", "each_component") == "once")
        self.events: list[dict[str, Any]] = []

    def play_card(self, action: dict[str, Any]) -> None:
        game = self.game
        snapshot = game.snapshot()
        card = game.card(action["card"])
        failed = None
        if not (game.is_friendly(card) and card.zone == "hand"):
            failed = "354"
        location = action.get("location", 0)
        if failed is None and card.kind == "unit" and not 0 <= location < game.location_count:
            failed = "355.2"
        card.zone = "chain"
        card.enter_new_zone(game.clears_board_state)
        additional = action.get("additional", [])
        pay_optional = action.get("pay_optional", [False] * len(additional))
        total, extras = self.calculator.total(action.get("cost", {}), additional, pay_optional, action.get("modifiers", {}))
        plan = PaymentPlan(self, total, extras, card.oid)
        plan.follow(action["plan"])
        if failed is None and not plan.all_paid():
            failed = "358.2"
        if failed is not None:
            game.restore(snapshot)
            self.events.append({"name": "play_cancelled", "unit": action["card"], "detail": failed})
            return
        card = game.card(action["card"])
        if card.kind == "unit":
            card.zone = "board"
            card.location = location
            card.exhausted = True
        self.events.append({"name": "played", "unit": card.oid})

    def activate(self, source: str, ability: dict[str, Any], steps: list[dict[str, Any]], modifiers: dict[str, Any]) -> bool:
        game = self.game
        snapshot = game.snapshot()
        total, extras = self.calculator.total(ability.get("cost", {}), [], [], modifiers)
        friendly = game.is_friendly(game.card(source))
        plan = PaymentPlan(self, total, extras, source)
        plan.follow(steps)
        if not friendly or not plan.all_paid():
            game.restore(snapshot)
            return False
        effect = ability["effect"]
        amount = effect.get("amount", 1)
        if effect["kind"] == "add_energy":
            game.pool.energy += amount
        elif effect["kind"] == "add_power":
            game.pool.power[game.card(source).domain] += amount
        else:
            game.card(source).might_bonus += amount
        return True

    def do_activate(self, action: dict[str, Any]) -> None:
        source = action["source"]
        if not self.game.is_friendly(self.game.card(source)):
            self.events.append({"name": "activation_cancelled", "unit": source, "detail": "399"})
            return
        if self.activate(source, action["ability"], action["plan"], action.get("modifiers", {})):
            self.events.append({"name": "activated", "unit": source})
        else:
            self.events.append({"name": "activation_cancelled", "unit": source, "detail": "358.2"})


def run_play(scenario: dict[str, Any]) -> dict[str, Any]:
    """A play-rulebook scenario to its observation: the final play state and one outcome event per action."""
    game = Game(scenario["state"])
    game.clears_board_state = scenario.get("rules", {}).get("leave_board_resets", "exhausted_only") == "all_board_state"
    engine = PlayEngine(game, scenario.get("rules", {}))
    for action in scenario["actions"]:
        if action["kind"] == "play_card":
            engine.play_card(action)
        elif action["kind"] == "activate":
            engine.do_activate(action)
        else:
            raise ValueError(f"unsupported play action kind {action['kind']!r}")
    observation = {"protocol": PROTOCOL, "rulebook": "play", "state": game.to_json(), "events": engine.events}
    if "id" in scenario:
        observation["id"] = scenario["id"]
    return observation
