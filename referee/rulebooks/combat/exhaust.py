"""The combat rulebook's exhaustive tiers: every scenario of each structural shape, over the rules' own boundaries.

Each family below is one shape (who stands where, which action) and the fields that vary in it, each over a
finite named value set taken from a threshold the rules state: Vitality ``v`` and the damage ``v - 1, v,
v + 1`` around it (500.1-12, 500.1-13); an Insurance point's 25 (500.1a); Armor at perfect squares, where the
percentage step (500.2a) divides exactly for amounts a multiple of ``(sqrt(A) + 20) / gcd(20, sqrt(A) + 20)``,
and the flat step's fifths (500.2b); a cap and the amount one below, at and above it (500.1-7); a Shield pool
one below, at and above what a multiplier drains (500.1-10); Maim's halves (500.3d); the revival timer's
10,000 ms and its neighbours (500.9a). The tiers (``tiny``, ``small``, ``standard``) widen the same families:
more values per set, never other shapes, so a scenario of a smaller tier is in every larger one.

``docs/exhaust.md`` lists the tiers, the families, their value sets and the published counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage

from ...scope import Axis, Family, fixed
from ...wire import PROTOCOL
from .codec import UNIT_DEFAULTS

TIERS = ("tiny", "small", "standard")
TIER_SIZE = {"tiny": 0, "small": 1, "standard": 2}


def by_tier(tier: str, *values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The values of a set at ``tier``: the tiny tier's, then what each larger tier adds."""
    size = TIER_SIZE[tier]
    return tuple(v for level in values[: size + 1] for v in level)


# --------------------------------------------------------------------------------------
# Building scenarios
# --------------------------------------------------------------------------------------


def unit(uid: str, side: int, col: int, row: int = 0, **fields: Any) -> dict[str, Any]:
    """A unit in the complete form the harness sends (every protocol field spelled out)."""
    out = {"uid": uid, **UNIT_DEFAULTS, "side": side, "row": row, "col": col}
    out.update(fields)
    if not out["alive"]:
        out["vitality"] = 0
    return out


def scenario(board: list[dict[str, Any]], *actions: dict[str, Any], **ruleset: Any) -> dict[str, Any]:
    """A combat scenario (the protocol's envelope, the default readings unless ``ruleset`` names one)."""
    return {"protocol": PROTOCOL, "ruleset": dict(ruleset), "board": board, "actions": list(actions)}


def damage(kind: str, target: str, amount: int, source: str | None, lane: str = "hit", rolls: int = 3,
           **more: Any) -> dict[str, Any]:
    """A ``damage`` or ``hit`` action (a hit carries Riposte rolls that hit)."""
    return {"kind": kind, "target": target, "amount": amount, "source": source, "damage_kind": lane,
            "allows_dormant": more.pop("allows_dormant", False), "riposte_rolls": more.pop("rolls_list", [True] * rolls),
            **more}


def armor_step(amount: int, armor: int) -> int:
    """What Armor leaves of ``amount`` (500.2a then 500.2b): the model's own step, for aligning a boundary."""
    return apply_armor_flat(apply_armor_percentage(amount, armor), armor)


def curve_step(armor: int) -> int | None:
    """The damage step at which ``armor``'s percentage divides exactly (None: ``|armor|`` is not a square)."""
    root = math.isqrt(abs(armor))
    if root * root != abs(armor):
        return None
    return (root + 20) // math.gcd(20, root + 20)


def curve_amounts(armor: int, multiples: int) -> tuple[int, ...]:
    """Amounts on the Armor curve's exact divisions and one either side, from the first past the flat step."""
    step = curve_step(armor)
    if step is None:
        return (1, 10, 50)
    first = _first_past_flat(armor, step)
    return tuple(max(k * step + d, 0) for k in range(first, first + multiples) for d in (-1, 0, 1))


def _first_past_flat(armor: int, step: int) -> int:
    """The first multiple of ``step`` whose survivors are more than the flat step takes (500.2b)."""
    k = 1
    while armor > 0 and armor_step(k * step, armor) <= 0:
        k += 1
    return k


# --------------------------------------------------------------------------------------
# The damage pipeline (500.1, 500.2, 500.4)
# --------------------------------------------------------------------------------------

#: Armor: 0, perfect squares (the percentage step's exact divisions, 500.2a), fives (the flat step, 500.2b),
#: and negative Armor (500.2d).
ARMOR = ((-25, 0, 81, 100), (-4, 1, 5, 400), (-100, 4, 16, 25, 2500))
#: The Armor curve's exact multiples taken per Armor value.
CURVE_MULTIPLES = (3, 4, 6)
LANES = ("hit", "burn", "venom", "tremor", "aoe", "reflect", "overtime")


def armor_family(tier: str) -> Family:
    """Armor meets damage at the curve's exact divisions (500.2a-d); nothing else stands in the way."""
    axes = (fixed("lane", "LANES: hit, burn", by_tier(tier, ("hit", "burn"), (), ("venom",))),
            fixed("armor", "ARMOR", by_tier(tier, *ARMOR)),
            Axis("amount", "curve exact +- 1", lambda a: (0, 1, *curve_amounts(a["armor"], CURVE_MULTIPLES[TIER_SIZE[tier]]))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, armor=a["armor"], vitality=100_000, max_vitality=100_000)
        return scenario([target, unit("b", 1, 0)], damage("damage", "a", a["amount"], "b", a["lane"]))

    return Family("damage/armor", "combat", "damage", axes, build)


def cap_family(tier: str) -> Family:
    """The incoming-damage cap at, one below and one above what Armor leaves (500.1-7)."""
    axes = (fixed("armor", "0, 100", by_tier(tier, (0, 100), (81,))),
            fixed("amount", "1, 10, 30", by_tier(tier, (1, 10, 30), (2, 57))),
            Axis("cap", "left - 1, left, left + 1, 0", lambda a: _around(armor_step(a["amount"], a["armor"]), 0)))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, armor=a["armor"], has_cap=True, cap=a["cap"])
        return scenario([target, unit("b", 1, 0)], damage("damage", "a", a["amount"], "b"))

    return Family("damage/cap", "combat", "damage", axes, build)


def _around(value: int, *more: int) -> tuple[int, ...]:
    """``value - 1, value, value + 1`` and ``more``, never negative."""
    return tuple(dict.fromkeys(max(v, 0) for v in (value - 1, value, value + 1, *more)))


def insurance_family(tier: str) -> Family:
    """Insurance and Subrogated points against 24, 25, 26 and their multiples (500.1-8, 500.1-9, 500.1a)."""
    axes = (fixed("insurance", "0..2", by_tier(tier, (0, 1, 2), (3,))),
            fixed("subrogated", "0..2", by_tier(tier, (0, 1), (2,))),
            fixed("shield", "0, 10", by_tier(tier, (0, 10), (30,))),
            fixed("amount", "25k +- 1", by_tier(tier, (24, 25, 26, 50, 51), (49, 74, 75, 76))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, insurance=a["insurance"], subrogated=a["subrogated"], shield=a["shield"])
        return scenario([target, unit("b", 1, 0)], damage("damage", "a", a["amount"], "b"))

    return Family("damage/insurance", "combat", "damage", axes, build)


def shield_family(tier: str) -> Family:
    """A Shield pool met by a multiplied drain: breaking at, one below and one above it (500.1-10, 500.1e)."""
    axes = (fixed("multiplier", "1..3", by_tier(tier, (1, 2, 3), (), (4,))),
            fixed("shield", "1, 4, 5, 6", by_tier(tier, (1, 4, 5, 6), (10,))),
            Axis("amount", "shield / m +- 1", lambda a: _around(-(-a["shield"] // a["multiplier"]), 1, 12)),
            fixed("prismbroken", "false, true", by_tier(tier, (False,), (True,))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, shield=a["shield"], prismbroken=a["prismbroken"])
        source = unit("b", 1, 0, shield_multiplier=a["multiplier"])
        return scenario([target, source], damage("damage", "a", a["amount"], "b"))

    return Family("damage/shield", "combat", "damage", axes, build)


def lethal_family(tier: str) -> Family:
    """Damage one below, at and one above the target's Vitality, against the layers that answer a death
    (500.1-4, 500.1-12, 500.1-13, 500.4a-e)."""
    axes = (fixed("lane", "hit, burn", by_tier(tier, ("hit", "burn"))),
            fixed("vitality", "1, 2, 50", by_tier(tier, (1, 2, 50), (100,))),
            Axis("amount", "lethal +- 1", lambda a: _around(a["vitality"])),
            fixed("guard", "nothing, ignore, defy, vessel, vessel with statuses", by_tier(
                tier, ("none", "ignore", "defy", "vessel", "vessel+statuses"), ("defy+vessel", "everlasting"))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        guard = {"none": {}, "ignore": {"ignore_charges": 1}, "defy": {"defy_death": True},
                 "vessel": {"vessels": 1}, "defy+vessel": {"defy_death": True, "vessels": 1},
                 "vessel+statuses": {"vessels": 1, "entrapped": True, "prismbroken": True},
                 "everlasting": {"everlasting": True}}[a["guard"]]
        target = unit("a", 0, 0, vitality=a["vitality"], **guard)
        watcher = unit("c", 0, 1)  # an ally beside it: the Vessel batch and Macabre have someone to reach
        return scenario([target, unit("b", 1, 0), watcher], damage("damage", "a", a["amount"], "b", a["lane"]))

    return Family("damage/lethal", "combat", "damage", axes, build)


def lanes_family(tier: str) -> Family:
    """Every lane against the gates and the tick layers (500.1-1, 500.1-2, 500.1c, 500.1d, 500.1h, 500.1i)."""
    axes = (fixed("lane", "LANES", LANES),
            fixed("gate", "none, dormant, dormant+allowed", ("none", "dormant", "allowed")),
            fixed("prismbroken", "false, true", (False, True)),
            fixed("armor", "0, 100", by_tier(tier, (0, 100))),
            fixed("reduction", "rune 0/3, forge 0/2", by_tier(tier, ((0, 0), (3, 2)), ((3, 0),))),
            fixed("amount", "10, 11", by_tier(tier, (10, 11), (1, 3))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        rune, forge = a["reduction"]
        target = unit("a", 0, 0, armor=a["armor"], dormant=a["gate"] != "none", prismbroken=a["prismbroken"],
                      rune_tick_reduction=rune, forge_tick_reduction=forge)
        source = None if a["lane"] == "overtime" else "b"
        action = damage("damage", "a", a["amount"], source, a["lane"], allows_dormant=a["gate"] == "allowed")
        return scenario([target, unit("b", 1, 0)], action)

    return Family("damage/lanes", "combat", "damage", axes, build)


def what_family(tier: str) -> Family:
    """Tools, Hubs and bosses receiving damage and costs' edge (500.1-1, 500.7h)."""
    axes = (fixed("what", "tool, hub, boss", ("is_tool", "is_hub", "is_boss")),
            fixed("kind", "damage, hit", ("damage", "hit")),
            fixed("amount", "1, 40", by_tier(tier, (1, 40), (100,))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, **{a["what"]: True}, thorns=3, reflect=a["what"] == "is_boss")
        return scenario([target, unit("b", 1, 0)], damage(a["kind"], "a", a["amount"], "b"))

    return Family("damage/tools_hubs_bosses", "combat", "damage", axes, build)


def redirect_family(tier: str) -> Family:
    """A redirect up to a cap and a lethal intercept, at the cap and the lethal line (500.1f, 500.1-11)."""
    axes = (fixed("link", "redirect, intercept", ("redirect", "intercept")),
            fixed("amount", "5, 20", by_tier(tier, (5, 20), (1,))),
            Axis("cap_or_vitality", "amount +- 1, half", lambda a: _around(a["amount"], a["amount"] // 2)),
            fixed("receiver", "plain, shielded, dead", by_tier(tier, ("plain", "dead"), ("shielded",))))

    def build(a: dict[str, Any]) -> dict[str, Any] | None:
        value = a["cap_or_vitality"]
        if a["link"] == "redirect":
            target = unit("a", 0, 0, redirect_to="c", redirect_cap=value)
        elif value < 1:
            return None
        else:
            target = unit("a", 0, 0, intercept_by="c", vitality=value)
        receiver = {"plain": {}, "shielded": {"shield": 3}, "dead": {"alive": False}}[a["receiver"]]
        board = [target, unit("b", 1, 0), unit("c", 0, 1, **receiver)]
        return scenario(board, damage("hit", "a", a["amount"], "b"))

    return Family("damage/redirect", "combat", "hit", axes, build)


# --------------------------------------------------------------------------------------
# What answers a hit (500.6, 500.7)
# --------------------------------------------------------------------------------------


def duel_family(tier: str) -> Family:
    """A hit answered by Thorns, Riposte, Retort and Reflect, landing whole, in part or not at all (500.6, 500.7)."""
    axes = (fixed("answer", "thorns, riposte, retort, reflect", ("thorns", "riposte", "retort", "reflect")),
            fixed("source", "enemy, ally", ("b", "c")),
            fixed("landing", "whole, armored, shielded, nothing, defied", ("whole", "armored", "shielded", "nothing",
                                                                         "defied")),
            fixed("roll", "hit, miss", (True, False)),
            fixed("amount", "4, 40", by_tier(tier, (4, 40), (100, 400))),
            fixed("boss", "false, true", by_tier(tier, (False, True))),
            fixed("event_test", "damage_event_test (INT-008)", ("reached_vitality", "after_shield")))

    def build(a: dict[str, Any]) -> dict[str, Any] | None:
        if a["answer"] != "riposte" and not a["roll"]:
            return None  # the roll is read by Riposte alone
        if a["answer"] == "reflect" and not a["boss"]:
            return None  # Reflect is a boss's (500.7h)
        layers = {"whole": {}, "armored": {"armor": 400}, "shielded": {"shield": 10},
                  "nothing": {"shield": 10_000}, "defied": {"defy_death": True}}[a["landing"]]
        answer = {"reflect": True} if a["answer"] == "reflect" else {a["answer"]: 3}
        vitality = 1 if a["landing"] == "defied" else 1000  # a lethal hit the rune holds at 1: an event, nothing lost
        target = unit("a", 0, 0, **layers, **answer, is_boss=a["boss"], vitality=vitality, max_vitality=1000)
        board = [target, unit("b", 1, 0, armor=100), unit("c", 0, 1)]
        action = damage("hit", "a", a["amount"], a["source"], rolls_list=[a["roll"], a["roll"], True])
        return scenario(board, action, damage_event_test=a["event_test"])

    return Family("hit/answers", "combat", "hit", axes, build)


# --------------------------------------------------------------------------------------
# Vitality costs (500.8)
# --------------------------------------------------------------------------------------

COST_KINDS = ("bloodletting", "interest", "self_destruct", "retaliation")


def cost_family(tier: str) -> Family:
    """Each cost, one below, at and one above the payer's Vitality, against what answers a cost (500.8a-j)."""
    axes = (fixed("cost_kind", "COST_KINDS", COST_KINDS),
            fixed("vitality", "1, 50", by_tier(tier, (1, 50), (100,))),
            Axis("amount", "vitality +- 1, 0, -5", lambda a: (*_around(a["vitality"]), 0, -5)),
            fixed("payer", "plain, shield, defy, bolster, dormant, vessel", by_tier(
                tier, ("plain", "shield", "defy", "bolster", "dormant", "vessel"), ("everlasting", "tool"))),
            fixed("beneficiary", "none, enemy, ally, self", by_tier(tier, (None, "b", "c", "a"))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        payer = {"plain": {}, "shield": {"shield": 10}, "defy": {"defy_death": True}, "bolster": {"bolster": 3},
                 "dormant": {"dormant": True}, "vessel": {"vessels": 1}, "everlasting": {"everlasting": True},
                 "tool": {"is_tool": True}}[a["payer"]]
        board = [unit("a", 0, 0, vitality=a["vitality"], **payer), unit("b", 1, 0), unit("c", 0, 1),
                 unit("d", 1, 1, alive=False)]
        action = {"kind": "cost", "payer": "a", "amount": a["amount"], "cost_kind": a["cost_kind"],
                  "beneficiary": a["beneficiary"]}
        return scenario(board, action)

    return Family("cost/payers", "combat", "cost", axes, build)


def cost_chain_family(tier: str) -> Family:
    """A cost, then a hit: what a cost leaves (Bolster, maximum Vitality, a Vessel spent) is what the next
    instance meets (500.8d, 500.8g, 500.4d)."""
    axes = (fixed("cost_kind", "interest, bloodletting", ("interest", "bloodletting")),
            fixed("amount", "1, 30, 99", by_tier(tier, (1, 30, 99), (100,))),
            fixed("payer", "bolster, vessel, momentum", ("bolster", "vessel", "momentum")))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        fields = {"bolster": {"bolster": 5}, "vessel": {"vessels": 1}, "momentum": {"momentum": 4}}[a["payer"]]
        board = [unit("a", 0, 0, **fields), unit("b", 1, 0), unit("c", 0, 1)]
        cost = {"kind": "cost", "payer": "a", "amount": a["amount"], "cost_kind": a["cost_kind"], "beneficiary": None}
        return scenario(board, cost, damage("hit", "b", 10, "a"))

    return Family("cost/then_hit", "combat", "cost", axes, build)


# --------------------------------------------------------------------------------------
# Bloodletting (800.4)
# --------------------------------------------------------------------------------------

#: Who stands on the caster's side besides it, in the order they are placed (each a unit's fields).
BLOOD_ALLIES = {
    "plain": {}, "tool": {"is_tool": True}, "hub": {"is_hub": True}, "boss": {"is_boss": True},
    "dead": {"alive": False}, "entrapped": {"entrapped": True}, "dormant": {"dormant": True},
}
#: The cells the caster and two allies may take on a 2 x 2 half (every placement: symmetry keeps one per order).
CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))


def bloodletting_family(tier: str) -> Family:
    """The payer search in reading order past Tools, Hubs, bosses and the dead, the reduction rune, and the
    payment that moves nothing (800.4a-m)."""
    kinds = by_tier(tier, ("plain", "tool", "hub", "boss", "dead"), ("entrapped", "dormant"))
    axes = (fixed("first", "BLOOD_ALLIES", kinds),
            fixed("second", "BLOOD_ALLIES", by_tier(tier, ("plain", "dead"), ("tool", "boss"))),
            fixed("cells", "caster, first, second on 2 x 2", _placements(tier)),
            fixed("caster", "plain, boss, dead ally", by_tier(tier, ("plain", "boss"))),
            fixed("cost", "0, 1, 9, 10, 11, -3", by_tier(tier, (0, 10, 11, -3), (1, 9))),
            fixed("reduction", "0, 2", by_tier(tier, (0, 2))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        (cr, cc), (fr, fc), (sr, sc) = a["cells"]
        caster = unit("a", 0, cc, cr, is_boss=a["caster"] == "boss", bloodletting_reduction=a["reduction"])
        first = unit("c", 0, fc, fr, vitality=10, **BLOOD_ALLIES[a["first"]])
        second = unit("d", 0, sc, sr, vitality=10, **BLOOD_ALLIES[a["second"]])
        hit = {"target": "b", "amount": 5, "damage_kind": "hit", "allows_dormant": False, "riposte_rolls": [True]}
        action = {"kind": "bloodletting", "caster": "a", "cost": a["cost"], "hits": [hit]}
        return scenario([caster, first, second, unit("b", 1, 0)], action)

    return Family("bloodletting/payer", "combat", "bloodletting", axes, build)


def _placements(tier: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Distinct cells for the caster and its two allies: the three cells of ``tiny`` in every order, else every
    placement on the 2 x 2 half (symmetry keeps one per reading order: the search reads nothing else)."""
    cells = CELLS[:3] if tier == "tiny" else CELLS
    return tuple((x, y, z) for x in cells for y in cells for z in cells if len({x, y, z}) == 3)


# --------------------------------------------------------------------------------------
# Armor debuffs, recovery, Cull (500.2e, 500.3, 500.4a)
# --------------------------------------------------------------------------------------


def debuff_family(tier: str) -> Family:
    """Each debuff on Armor above, at and below its amount (500.2e)."""
    axes = (fixed("debuff", "DEBUFFS", ("crush", "repossess", "piercing_roar", "crippling_scream")),
            fixed("armor", "0, 5, 100", by_tier(tier, (0, 5), (100,))),
            fixed("amount", "-1, 0, 3, 10", by_tier(tier, (-1, 0, 3, 10), (5, 6))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        action = {"kind": "armor_debuff", "target": "a", "debuff": a["debuff"], "amount": a["amount"]}
        return scenario([unit("a", 0, 0, armor=a["armor"]), unit("b", 1, 0)], action)

    return Family("armor_debuff/armor", "combat", "armor_debuff", axes, build)


#: A recovering unit's state, as unit fields: the gate's refusals (500.3g) and room to recover (500.3c).
RECOVERERS = {
    "wounded": {"vitality": 50}, "full": {}, "dead": {"alive": False}, "entrapped": {"entrapped": True, "vitality": 50},
    "dormant": {"dormant": True, "vitality": 50}, "tool": {"is_tool": True, "vitality": 50},
    "hub": {"is_hub": True, "vitality": 50}, "entrapped_tool": {"is_tool": True, "entrapped": True, "vitality": 50},
    "one_short": {"vitality": 99},
}


def recover_family(tier: str) -> Family:
    """Heal, Shield gain and repair through the one ledger: the gate, Forge Core, the cap, Exalt, Maim's halves
    (500.3a-g)."""
    axes = (fixed("lane", "heal, shield, repair", ("heal", "shield", "repair")),
            fixed("target", "RECOVERERS", by_tier(tier, tuple(RECOVERERS))),
            fixed("maim", "0..3", by_tier(tier, (0, 1, 2, 3))),
            fixed("bonus", "forge 0/5, exalt 0/4", by_tier(tier, ((0, 0), (5, 0), (0, 4)), ((5, 4),))),
            fixed("amount", "0, 1, 3, 4, 5, 60", by_tier(tier, (0, 1, 3, 4, 5, 60), (2, 50, 51))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        forge, exalt = a["bonus"]
        target = unit("a", 0, 0, maim=a["maim"], forge_core_recovery=forge, exalt=exalt, **RECOVERERS[a["target"]])
        action = {"kind": "recover", "target": "a", "amount": a["amount"], "lane": a["lane"]}
        return scenario([target, unit("b", 1, 0)], action)

    return Family("recover/ledger", "combat", "recover", axes, build)


#: What a culled unit holds (500.4a: nothing of the damage pipeline is asked).
CULLED = {
    "plain": {}, "tool": {"is_tool": True}, "hub": {"is_hub": True}, "dead": {"alive": False},
    "defy": {"defy_death": True}, "ignore": {"ignore_charges": 1}, "shielded": {"shield": 50},
    "insured": {"insurance": 2}, "vessel": {"vessels": 1}, "everlasting": {"everlasting": True},
    "deathrattle": {"deathrattle": True},
}


def cull_family(tier: str) -> Family:
    """Cull against every guard a damage death meets, by an enemy or by nobody (500.4a-e)."""
    axes = (fixed("target", "CULLED", tuple(CULLED)),
            fixed("source", "enemy, none", ("b", None)),
            fixed("watchers", "an ally, an ally with a Vessel", by_tier(tier, ("plain", "vessel"))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        watcher = unit("c", 0, 1, vessels=1 if a["watchers"] == "vessel" else 0)
        board = [unit("a", 0, 0, **CULLED[a["target"]]), unit("b", 1, 0), watcher]
        return scenario(board, {"kind": "cull", "target": "a", "source": a["source"]})

    return Family("cull/guards", "combat", "cull", axes, build)


# --------------------------------------------------------------------------------------
# Shared ticks (500.5b, 500.5c, 500.7e)
# --------------------------------------------------------------------------------------

#: Who applied a tick and how much: ties, remainders, a single applier, an ally applier.
APPLIERS = {
    "one": (("b", 1),), "even_pair": (("b", 1), ("d", 1)), "even_three": (("b", 1), ("d", 1), ("e", 1)),
    "first_heavy": (("b", 2), ("d", 1)), "last_heavy": (("b", 1), ("d", 2)),
    "tie_after": (("b", 1), ("d", 2), ("e", 2)), "ally_among": (("c", 1), ("b", 1)),
}


def tick_family(tier: str) -> Family:
    """A Burn or Venom tick split between its appliers: floors, remainders, ties, Feast and who answers
    (500.5b, 500.5c, 500.7e)."""
    axes = (fixed("lane", "burn, venom", by_tier(tier, ("burn",), ("venom",))),
            fixed("appliers", "APPLIERS", tuple(APPLIERS)),
            fixed("amount", "3, 10, 11", by_tier(tier, (3, 10, 11), (1, 7))),
            fixed("shield", "0, 4", by_tier(tier, (0, 4))),
            fixed("thorns", "0, 3", by_tier(tier, (0, 3))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        board = [unit("a", 0, 0, shield=a["shield"], thorns=a["thorns"], riposte=a["thorns"]),
                 unit("b", 1, 0), unit("c", 0, 1), unit("d", 1, 1), unit("e", 1, 2)]
        appliers = [{"unit": u, "applied": n} for u, n in APPLIERS[a["appliers"]]]
        action = {"kind": "tick", "target": "a", "amount": a["amount"], "damage_kind": a["lane"],
                  "appliers": appliers, "riposte_rolls": [True] * 4}
        return scenario(board, action)

    return Family("tick/shares", "combat", "tick", axes, build)


# --------------------------------------------------------------------------------------
# Abilities (400.8)
# --------------------------------------------------------------------------------------

#: Printed lines, each one keyword in its lane (400.8-1..7): the two-line abilities are every ordered pair.
LINES = {
    "hit": {"effect": "damage", "amount": "{power}", "kind": "keyword"},
    "hit_per_enemy": {"effect": "damage", "amount": 5, "per": "enemy"},
    "hit_per_burning": {"effect": "damage", "amount": 5, "per": "burning_enemy"},
    "burn": {"effect": "burn", "amount": 2},
    "burn_before": {"effect": "burn", "amount": 2, "lane": "before_hit"},
    "crush": {"effect": "crush", "amount": 50},
    "maim": {"effect": "maim", "amount": 2},
    "cull": {"effect": "cull", "amount": 50},
    "if_alive": {"effect": "damage", "amount": 5, "kind": "conditional_rider", "condition": "target_alive"},
    "if_burning": {"effect": "damage", "amount": 5, "kind": "conditional_rider", "condition": "target_burning"},
    "passive": {"effect": "damage", "amount": 5, "kind": "passive"},
    "restore": {"effect": "restore", "amount": 3, "to": "caster"},
    "restore_allies": {"effect": "restore", "amount": 1, "to": "allies"},
    "bloodletting": {"effect": "bloodletting", "amount": 5},
}
SMALL_LINES = ("hit_per_enemy", "burn", "cull", "if_alive", "restore", "passive")


def ability_family(tier: str) -> Family:
    """Two printed lines in every order (a third in ``standard``), at a target the first can kill: lanes, counts
    and conditions read when a line resolves, the dead-recipient gate, Passives, Maim's halves on a Restore
    (400.8-1..7, 400.8a-c)."""
    axes = (fixed("first", "LINES", tuple(LINES)), fixed("second", "LINES", tuple(LINES)),
            fixed("third", "none, SMALL_LINES", by_tier(tier, ("none",), (), SMALL_LINES)),
            fixed("power", "lethal, 5", ("lethal", 5)),
            fixed("enemies", "one, two (one burning)", (1, 2)),
            fixed("caster", "plain, Reliquary Speed", by_tier(tier, ("plain", "speed"))))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        caster = unit("a", 0, 0, vitality=60, maim=2, **({"reliquary_speed": 5, "charge": 40}
                                                          if a["caster"] == "speed" else {}))
        board = [caster, unit("c", 0, 1, vitality=50, maim=1), unit("b", 1, 0, vitality=20)]
        if a["enemies"] == 2:
            board.append(unit("e", 1, 1, burn=2))
        power = 20 if a["power"] == "lethal" else a["power"]
        lines = [LINES[a[n]] for n in ("first", "second", "third") if a[n] != "none"]
        ability = {"name": "exhaustive", "numbers": {"power": power}, "lines": lines}
        return scenario(board, {"kind": "ability", "caster": "a", "targets": ["b"], "ability": ability,
                                "riposte_rolls": [True, True]})

    return Family("ability/two_lines", "combat", "ability", axes, build)


# --------------------------------------------------------------------------------------
# The battle clock (500.9a, 500.9k)
# --------------------------------------------------------------------------------------


def clock_family(tier: str) -> Family:
    """An Everlasting unit culled, then time moved on to, one short of and one past its revival; off the tick
    grid; into a full half (500.9a, 500.9k)."""
    axes = (fixed("before", "0, 1250 ms", (0, 1_250)),
            fixed("killer", "enemy, none", ("b", None)),
            fixed("wait", "revival timer +- 1", by_tier(tier, (9_000, 9_999, 10_000, 10_001, 10_100), (10_050, 20_000))),
            fixed("half", "free, full", ("free", "full")))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        actions = [{"kind": "advance", "ms": a["before"], "rows": 2, "cols": 4}] if a["before"] else []
        actions.append({"kind": "cull", "target": "a", "source": a["killer"]})
        if a["half"] == "full":
            board = [unit("a", 0, 1, 1, everlasting=True), unit("f", 0, 0), unit("g", 0, 1), unit("b", 1, 0)]
            actions.append({"kind": "advance", "ms": a["wait"], "rows": 1, "cols": 2})
            return scenario(board, *actions, everlasting_slot_order="reading_order")
        board = [unit("a", 0, 0, everlasting=True), unit("b", 1, 0)]
        actions += [{"kind": "advance", "ms": a["wait"], "rows": 2, "cols": 4}, {"kind": "end_combat"}]
        return scenario(board, *actions)

    return Family("clock/everlasting", "combat", "cull", axes, build, cells_free=False)


#: What a unit carries from the lives it has lived (500.9c-l): a spent defy-death rune, a standing Reliquary Speed,
#: a Crush taken in this life, running statuses; or nothing.
LIVES = {
    "plain": {}, "defy_spent": {"defy_death_spent": True}, "reliquary": {"reliquary": 5, "reliquary_speed": 5},
    "crushed": {"armor": 70, "armor_change": -30}, "statuses": {"burn": 2, "venom": 1, "maim": 1},
}


def later_lives_family(tier: str) -> Family:
    """A unit in its first, second or third life (incarnation 0, 1, 2) dying into its Vessel, or paying Interest:
    what a revival rebuilds and re-arms (500.9c, 500.9e, 500.9l) and what Interest debits (500.8g) in every life."""
    axes = (fixed("incarnation", "0, 1, 2", by_tier(tier, (0, 1, 2), (3,))),
            fixed("life", "LIVES", tuple(LIVES)),
            fixed("action", "cull, interest", ("cull", "interest")))

    def build(a: dict[str, Any]) -> dict[str, Any]:
        target = unit("a", 0, 0, vessels=1, incarnation=a["incarnation"], **LIVES[a["life"]])
        action = ({"kind": "cull", "target": "a", "source": "b"} if a["action"] == "cull" else
                  {"kind": "cost", "payer": "a", "amount": 10, "cost_kind": "interest", "beneficiary": None})
        return scenario([target, unit("b", 1, 0)], action)

    return Family("revival/later_lives", "combat", "cull", axes, build)


FAMILIES: tuple[Callable[[str], Family], ...] = (
    armor_family, cap_family, insurance_family, shield_family, lethal_family, lanes_family, what_family,
    redirect_family, duel_family, cost_family, cost_chain_family, bloodletting_family, debuff_family,
    recover_family, cull_family, tick_family, ability_family, clock_family, later_lives_family,
)


def families(tier: str) -> list[Family]:
    """The combat families of ``tier`` (``tiny``, ``small``, ``standard``)."""
    if tier not in TIER_SIZE:
        raise ValueError(f"unknown tier {tier!r} (known: {', '.join(TIERS)})")
    return [make(tier) for make in FAMILIES]
