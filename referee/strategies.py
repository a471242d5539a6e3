"""Hypothesis strategies for scenarios, aimed at the boundaries where engines go wrong.

Uniform random numbers almost never land where an engine's bug lives: a float Armor
step disagrees with the exact rule on about 1 (damage, Armor) pair in 2,000 (DESIGN).
So every number here is drawn from a mix of *boundary generators* and a plain range:

* Armor: perfect squares and their neighbours, multiples of 5 and their neighbours
  (the flat step), 0, and negative Armor (amplification);
* damage: amounts that divide exactly at the Armor curve (``20*d`` a multiple of
  ``sqrt(A) + 20``) and their neighbours, multiples of 25 and their neighbours
  (24/25/26 around an Insurance point), 0 and negative amounts;
* a second pass *aligns* the target to the action: a cap equal to the damage left after
  Armor (and one off), Vitality equal to it, a Shield that exactly covers it, empty and
  full Shields, a cost equal to the payer's Vitality.

Every choice is written so that it shrinks towards the plain case (first element of a
``sampled_from``, 0 of an integer range), so a shrunk failure reads simply.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from referee.model.armor import apply_armor_flat, apply_armor_percentage
from referee.model.ruleset import DEFAULT, Ruleset

from .protocol import PROTOCOL, UNIT_DEFAULTS, UNIT_FIELDS

UIDS = ("a", "b", "c")
FULL_SHIELD = 10_000

rarely = st.sampled_from((False, False, False, False, False, False, True))
mostly = st.sampled_from((True, True, True, True, True, True, False))


def armor_values() -> st.SearchStrategy[int]:
    """Armor: squares and neighbours, multiples of 5 and neighbours, 0, negatives."""
    square = st.tuples(st.integers(0, 60), st.sampled_from((0, -1, 1))).map(lambda p: max(p[0] * p[0] + p[1], 0))
    fives = st.tuples(st.integers(0, 100), st.sampled_from((0, -1, 1))).map(lambda p: max(5 * p[0] + p[1], 0))
    negative = st.tuples(st.integers(1, 30), st.sampled_from((0, -1, 1))).map(lambda p: -(p[0] * p[0]) + p[1])
    return st.one_of(st.just(0), square, fives, negative, st.integers(-400, 3000))


def exact_armor_damage(armor: int) -> st.SearchStrategy[int]:
    """Damage that lands exactly on (or one off) a rounding boundary of ``armor``'s curve."""
    if armor < 0:
        root = math.isqrt(-armor)
        if root * root != -armor:
            return st.integers(1, 200)
        step = (root + 20) // math.gcd(20, root + 20)
    else:
        root = math.isqrt(armor)
        if root * root != armor:
            return st.integers(1, 200)
        step = (root + 20) // math.gcd(20, root + 20)
    return st.tuples(st.integers(1, 12), st.sampled_from((0, -1, 1))).map(lambda p: max(p[0] * step + p[1], 0))


def damage_amounts(armor: int) -> st.SearchStrategy[int]:
    insurance = st.tuples(st.integers(1, 6), st.sampled_from((0, -1, 1))).map(lambda p: 25 * p[0] + p[1])
    return st.one_of(
        st.integers(1, 120),
        exact_armor_damage(armor),
        insurance,
        st.sampled_from((0, -1, -25)),
        st.integers(1, 2000),
    )


def small_counts(high: int = 4) -> st.SearchStrategy[int]:
    return st.one_of(st.just(0), st.integers(0, high))


@st.composite
def unit_dicts(draw: Any, index: int, wanted: frozenset[str]) -> dict[str, Any]:
    """One unit, complete (every protocol field), drawing only the fields ``wanted``."""
    unit: dict[str, Any] = {"uid": UIDS[index], **UNIT_DEFAULTS}
    unit["side"] = draw(st.sampled_from((index % 2, 1 - index % 2)))
    unit["row"] = draw(st.integers(0, 1))
    unit["col"] = index
    max_vitality = draw(st.one_of(st.just(100), st.integers(1, 300)))
    unit["max_vitality"] = max_vitality
    alive = draw(mostly) if "alive" in wanted else True
    unit["alive"] = alive
    unit["vitality"] = draw(st.one_of(st.just(max_vitality), st.integers(1, max_vitality))) if alive else 0
    kind = draw(st.sampled_from(("unit", "unit", "unit", "unit", "tool", "hub", "boss")))
    unit["is_tool"], unit["is_hub"], unit["is_boss"] = kind == "tool", kind == "hub", kind == "boss"
    for name in ("dormant", "entrapped", "has_cap", "defy_death", "prismbroken", "reflect", "deathrattle", "everlasting"):
        if name in wanted:
            unit[name] = draw(rarely)
    if "armor" in wanted:
        unit["armor"] = draw(armor_values())
    for name in ("ignore_charges", "subrogated", "insurance", "vessels"):
        if name in wanted:
            unit[name] = draw(small_counts(3 if name != "ignore_charges" else 2))
    if "shield" in wanted:
        unit["shield"] = draw(st.one_of(st.just(0), st.integers(0, 150), st.just(FULL_SHIELD)))
    if "cap" in wanted:
        unit["cap"] = draw(st.integers(0, 150))
    if "shield_multiplier" in wanted:
        unit["shield_multiplier"] = draw(st.sampled_from((1, 1, 2, 3)))
    for name in ("rune_tick_reduction", "forge_tick_reduction", "thorns", "riposte", "retort", "redirect_cap"):
        if name in wanted:
            unit[name] = draw(st.one_of(st.just(0), st.integers(0, 30)))
    for name in ("adrenaline", "momentum", "bolster", "bloodletting_reduction"):
        if name in wanted:
            unit[name] = draw(st.one_of(st.just(0), st.integers(0, 20)))
    if not alive:
        unit["shield"] = 0
        for name in ("adrenaline", "momentum", "bolster"):
            unit[name] = 0
    return unit


def link_allies(draw: Any, units: list[dict[str, Any]], wanted: frozenset[str]) -> None:
    """Point some redirects and interceptors at allies (never at the unit itself)."""
    for unit in units:
        allies = [u["uid"] for u in units if u["side"] == unit["side"] and u["uid"] != unit["uid"]]
        if not allies:
            continue
        for name in ("redirect_to", "intercept_by"):
            if name in wanted and draw(rarely):
                unit[name] = draw(st.sampled_from(allies))


# --------------------------------------------------------------------------------------
# Action strategies (referenced by the registry in ``referee.actions``)
# --------------------------------------------------------------------------------------


def armor_step(amount: int, armor: int) -> int:
    """The model's Armor step (percentage then flat) for aligning a boundary."""
    return apply_armor_flat(apply_armor_percentage(amount, armor), armor)


@st.composite
def cost_actions(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    payer = draw(st.sampled_from(units))
    vitality = payer["vitality"]
    amount = draw(
        st.one_of(
            st.sampled_from((vitality, vitality - 1, vitality + 1, 0, -5, 1)),
            st.integers(1, 300),
        )
    )
    from referee.model.costs import COST_KINDS

    others = [u["uid"] for u in units if u["uid"] != payer["uid"]]
    beneficiary = draw(st.one_of(st.none(), st.sampled_from(others))) if others else None
    return {
        "kind": "cost",
        "payer": payer["uid"],
        "amount": amount,
        "cost_kind": draw(st.sampled_from(COST_KINDS)),
        "beneficiary": beneficiary,
    }


ALIGNMENTS = ("none", "cap", "cap-1", "cap+1", "vitality", "vitality+1", "shield", "shield-1", "insurance")


@st.composite
def damage_actions(draw: Any, units: list[dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    target = draw(st.sampled_from(units))
    amount = draw(damage_amounts(target["armor"]))
    enemies = [u["uid"] for u in units if u["side"] != target["side"]]
    others = [u["uid"] for u in units if u["uid"] != target["uid"]]
    source = draw(st.one_of(st.sampled_from(enemies), st.none(), st.sampled_from(others))) if others else None
    damage_kind = draw(st.sampled_from(kinds))
    rolls = draw(st.lists(st.booleans(), max_size=3))
    action = {
        "kind": "damage",
        "target": target["uid"],
        "amount": amount,
        "source": source,
        "damage_kind": damage_kind,
        "allows_dormant": draw(rarely),
        "riposte_rolls": rolls,
    }
    action["_align"] = {target["uid"]: align_target(draw, target, amount)}
    return action


def align_target(draw: Any, target: dict[str, Any], amount: int) -> dict[str, Any]:
    """Move one of the target's numbers onto the boundary the damage creates."""
    how = draw(st.sampled_from(ALIGNMENTS))
    if how == "none" or amount <= 0:
        return {}
    left = armor_step(amount, target["armor"])
    if how.startswith("cap"):
        return {"has_cap": True, "cap": max(left + {"cap": 0, "cap-1": -1, "cap+1": 1}[how], 0)}
    if how == "insurance":
        return {"armor": 0, "insurance": max(target["insurance"], 1), "subrogated": 0}
    after_layers = max(left - 25 * (target["insurance"] + target["subrogated"]), 0)
    if how.startswith("vitality") and target["alive"]:
        vitality = max(after_layers + (1 if how == "vitality+1" else 0), 1)
        return {"vitality": vitality, "max_vitality": max(target["max_vitality"], vitality)}
    if how.startswith("shield") and target["alive"]:
        return {"shield": max(after_layers - (1 if how == "shield-1" else 0), 0), "shield_multiplier": 1}
    return {}


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


@st.composite
def scenarios(
    draw: Any,
    kinds: tuple[str, ...] | None = None,
    max_actions: int = 2,
    ruleset: Ruleset = DEFAULT,
    max_units: int = 3,
) -> dict[str, Any]:
    """A complete, valid scenario (JSON) over the chosen action kinds (default: all)."""
    from .actions import ACTION_KINDS

    names = tuple(kinds or ACTION_KINDS)
    wanted = frozenset(f for name in names for f in ACTION_KINDS[name].unit_fields)
    count = draw(st.integers(1, max_units))
    units = [draw(unit_dicts(i, wanted)) for i in range(count)]
    link_allies(draw, units, wanted)
    actions = []
    for step in range(draw(st.integers(1, max_actions))):
        name = draw(st.sampled_from(names))
        action = draw(ACTION_KINDS[name].strategy(units))
        align = action.pop("_align", None) or {}
        if step == 0:
            for unit in units:
                unit.update(align.get(unit["uid"], {}))
        actions.append(action)
    return {
        "protocol": PROTOCOL,
        "ruleset": ruleset.to_json(),
        "board": units,
        "actions": actions,
    }


assert set(UNIT_DEFAULTS) | {"uid"} == set(UNIT_FIELDS)
