"""The play rulebook's exhaustive tiers: every cost, modifier and plan of each shape, over the rules' thresholds.

A play's total is its printed cost, plus the additional costs it pays, plus the increases, less the discounts,
never below 0 (356.2-356.7); the pool is then one short of it, exactly it and one over (358.2). The
non-standard costs meet their own edges: an exhausted rune or unit asked to exhaust (414.1.b), a trash with
fewer cards than a recycle takes (416.3), a plan that never pays the resources (444.2.a), a cancelled play
undone (358.5), a unit entering exhausted (359.2.c). ``docs/exhaust.md`` lists the families and the counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...scope import Family, fixed
from ...wire import PROTOCOL

TIER_SIZE = {"tiny": 0, "small": 1, "standard": 2}
DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")


def by_tier(tier: str, *values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The values of a set at ``tier``: the tiny tier's, then what each larger tier adds."""
    return tuple(v for level in values[: TIER_SIZE[tier] + 1] for v in level)


def obj(oid: str, kind: str, zone: str, **fields: Any) -> dict[str, Any]:
    """A game object in the complete form the harness sends."""
    return {"oid": oid, "kind": kind, "controller": 0, "domain": "fury", "zone": zone, "location": 0,
            "exhausted": False, "might_bonus": 0, **fields}


def play_scenario(objects: list[dict[str, Any]], energy: int, action: dict[str, Any]) -> dict[str, Any]:
    """A play scenario: the acting player's pool (Energy only) and objects, one action."""
    state = {"pool": {"energy": energy, "power": {d: 0 for d in DOMAINS}}, "objects": objects, "player": 0,
             "location_count": 3}
    return {"protocol": PROTOCOL, "rulebook": "play", "rules": {}, "state": state, "actions": [action]}


def energy(amount: int, **more: Any) -> dict[str, Any]:
    """A cost of ``amount`` Energy (and the fields in ``more``)."""
    return {"energy": amount, "power": {}, "any_power": 0, "nonstandard": [], **more}


def pay(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    """A plan: the steps given, then paying the resources."""
    return [*steps, {"step": "pay_resources", "any_power_from": list(DOMAINS)}]


def totals_family(tier: str) -> Family:
    """A printed cost with an increase and a discount, the pool around the total, paid or declined
    (356.2, 356.3, 356.6, 358.2, 444.2.a)."""
    axes = (fixed("cost", "0..2", by_tier(tier, (0, 1, 2), (3,))),
            fixed("increase", "0, 1", (0, 1)),
            fixed("discount", "0, 1, 3", by_tier(tier, (0, 1, 3), (2,))),
            fixed("pool", "0..4", by_tier(tier, (0, 1, 2, 3, 4), (5,))),
            fixed("plan", "pays, declines", ("pays", "declines")))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        increase = {"energy": a["increase"], "power": {}, "any_power": 0}
        modifiers = {"increases": [increase] if a["increase"] else [],
                     "discounts": [{"energy": a["discount"], "power": 0, "either": False, "applies_to": "total"}]
                     if a["discount"] else []}
        action = {"kind": "play_card", "card": "c", "cost": energy(a["cost"]), "additional": [], "pay_optional": [],
                  "location": 0, "modifiers": modifiers, "plan": pay() if a["plan"] == "pays" else []}
        return play_scenario([obj("c", "spell", "hand")], a["pool"], action)

    return Family("play_card/totals", "play", "play_card", axes, build)


def additional_family(tier: str) -> Family:
    """A mandatory and an optional additional cost, paid or declined, under a discount aimed at the total, the
    additional costs or the optional ones alone (355.1.a, 356.4.c)."""
    axes = (fixed("optional_paid", "paid, declined", (True, False)),
            fixed("applies_to", "total, additional, optional_additional", ("total", "additional", "optional_additional")),
            fixed("pool", "0..3", by_tier(tier, (0, 1, 2, 3))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        discount = {"energy": 1, "power": 0, "either": False, "applies_to": a["applies_to"]}
        action = {"kind": "play_card", "card": "c", "cost": energy(1),
                  "additional": [energy(1, optional=False), energy(1, optional=True)],
                  "pay_optional": [False, a["optional_paid"]], "location": 0,
                  "modifiers": {"increases": [], "discounts": [discount]}, "plan": pay()}
        return play_scenario([obj("c", "spell", "hand")], a["pool"], action)

    return Family("play_card/additional", "play", "play_card", axes, build)


def nonstandard_family(tier: str) -> Family:
    """An ability's non-standard cost against a ready or exhausted source, a trash too small to recycle from,
    a friendly unit to kill, each paid or not (414.1.b, 416.3, 358.2, 399)."""
    axes = (fixed("cost", "exhaust_this, recycle_from_trash, kill_friendly_unit, exhaust_friendly_unit",
                  ("exhaust_this", "recycle_from_trash", "kill_friendly_unit", "exhaust_friendly_unit")),
            fixed("exhausted", "ready, exhausted", (False, True)),
            fixed("trash", "0, 1, 2 cards", (0, 1, 2)),
            fixed("paid", "paid, not paid", (True, False)))

    def build(a: dict[str, Any]) -> dict[str, Any] | None:
        if a["cost"] != "recycle_from_trash" and a["trash"] != 1:
            return None  # the trash is read by the recycle alone
        objects = [obj("r1", "rune", "board", exhausted=a["exhausted"]), obj("u1", "unit", "board",
                                                                             exhausted=a["exhausted"])]
        objects += [obj(f"t{i + 1}", "spell", "trash", domain="mind") for i in range(a["trash"])]
        count = 2 if a["cost"] == "recycle_from_trash" else 1
        targets = {"exhaust_this": [], "recycle_from_trash": [o["oid"] for o in objects if o["zone"] == "trash"],
                   "kill_friendly_unit": ["u1"], "exhaust_friendly_unit": ["u1"]}[a["cost"]]
        steps = [{"step": "pay_cost", "index": 0, "targets": targets}] if a["paid"] else []
        ability = {"cost": energy(0, nonstandard=[{"kind": a["cost"], "count": count}]),
                   "effect": {"kind": "add_energy", "amount": 1}}
        action = {"kind": "activate", "source": "r1", "ability": ability,
                  "modifiers": {"increases": [], "discounts": []}, "plan": pay(*steps)}
        return play_scenario([obj("c", "spell", "hand"), *objects], 0, action)

    return Family("activate/nonstandard", "play", "activate", axes, build)


def entry_family(tier: str) -> Family:
    """A unit or a spell played, paid or not, after a cost that kills a friendly unit: where it enters, ready or
    not, and a cancelled play undone whole (355.2, 358.5, 359.2.c)."""
    axes = (fixed("card", "unit, spell, gear", ("unit", "spell", "gear")),
            fixed("location", "0, 2, 3", (0, 2, 3)),
            fixed("kill_cost", "none, kill a friendly unit", (False, True)),
            fixed("pool", "0, 1", (0, 1)))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        additional = [energy(0, nonstandard=[{"kind": "kill_friendly_unit", "count": 1}], optional=False)] \
            if a["kill_cost"] else []
        steps = [{"step": "pay_cost", "index": 0, "targets": ["u1"]}] if a["kill_cost"] else []
        action = {"kind": "play_card", "card": "c", "cost": energy(1), "additional": additional,
                  "pay_optional": [False] * len(additional), "location": a["location"],
                  "modifiers": {"increases": [], "discounts": []}, "plan": pay(*steps)}
        objects = [obj("c", a["card"], "hand"), obj("u1", "unit", "board")]
        return play_scenario(objects, a["pool"], action)

    return Family("play_card/entry", "play", "play_card", axes, build)


FAMILIES: tuple[Callable[[str], Family], ...] = (totals_family, additional_family, nonstandard_family, entry_family)


def families(tier: str) -> list[Family]:
    """The play families of ``tier``."""
    if tier not in TIER_SIZE:
        raise ValueError(f"unknown tier {tier!r} (known: {', '.join(TIER_SIZE)})")
    return [make(tier) for make in FAMILIES]
