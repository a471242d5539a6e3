"""Hypothesis strategies for combat scenarios, aimed at the boundaries where engines go wrong.

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

Speed: generation, not the model, is the cost of a differential run (DESIGN: ~590 us per
10-field example). So every strategy here is built once, at import; a choice among the
board's units is an index draw; and the many fields that are usually at their default
(flags, runes, retaliation amounts) are drawn *sparsely*, as a short list of
``(field, value)`` overrides. Everything shrinks towards the plain case: an empty
override list, the first element of a ``sampled_from``, 0 of an integer range.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from hypothesis import strategies as st

from referee.model.combat.ability_text import CONDITIONS, EFFECTS, LANES, PER_COUNTS, RECIPIENTS
from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage
from referee.model.combat.legal import ACTIVATION_LANES

from .codec import UNIT_DEFAULTS

UIDS = ("a", "b", "c")
FULL_SHIELD = 10_000

# --------------------------------------------------------------------------------------
# Numbers
# --------------------------------------------------------------------------------------

_NEIGHBOUR = st.sampled_from((0, 0, -1, 1))  # exact boundaries twice as often as each neighbour
_ARMOR_SHAPE = st.sampled_from(("zero", "square", "square", "square", "flat", "negative", "plain"))
_ROOT = st.integers(1, 60)
_FIVES = st.integers(0, 100)
_NEGATIVE_ROOT = st.integers(1, 30)
_PLAIN_ARMOR = st.integers(-400, 3000)


def draw_armor(draw: Any) -> int:
    """Armor: mostly perfect squares (exact curve boundaries) and their neighbours."""
    shape = draw(_ARMOR_SHAPE)
    if shape == "zero":
        return 0
    if shape == "square":
        return draw(_ROOT) ** 2 + draw(_NEIGHBOUR)
    if shape == "flat":
        return max(5 * draw(_FIVES) + draw(_NEIGHBOUR), 0)
    if shape == "negative":
        return -(draw(_NEGATIVE_ROOT) ** 2) + draw(_NEIGHBOUR)
    return draw(_PLAIN_ARMOR)


ARMOR = st.composite(lambda draw: draw_armor(draw))()
#: Which damage generator: plain, an exact Armor boundary, an Insurance boundary, non-positive, large.
_DAMAGE_SHAPE = st.sampled_from(("plain", "exact", "exact", "insurance", "nonpositive", "large"))
_PLAIN = st.integers(1, 120)
_MULTIPLE = st.integers(1, 12)
_INSURANCE_POINTS = st.integers(1, 6)
_SPARE_POINTS = st.integers(0, 2)
_NONPOSITIVE = st.sampled_from((0, -1, -25))
_LARGE = st.integers(1, 2000)


def armor_boundary_step(armor: int) -> int | None:
    """The damage step at which ``armor``'s curve divides exactly (``None``: not a square)."""
    root = math.isqrt(abs(armor))
    if root * root != abs(armor):
        return None
    return (root + 20) // math.gcd(20, root + 20)


def past_flat(armor: int, step: int) -> int:
    """Half the time 0; otherwise the multiple of ``step`` whose survivors first exceed the flat reduction.

    ``m * step`` damage into ``r*r`` Armor leaves exactly ``20*m*step/(r+20)`` after the
    percentage; if that is below ``r*r/5`` the flat reduction swallows it and the boundary
    is invisible. (A bug at a boundary hides behind the next step unless the draw aims past it.)
    """
    if armor <= 0:
        return 0
    survivors_per_multiple = 20 * step / (math.isqrt(armor) + 20)
    return int(armor / 5 / survivors_per_multiple)


_PAST_FLAT = st.booleans()


def draw_damage(draw: Any, armor: int) -> int:
    """A damage amount, often on a rounding boundary of ``armor`` or of an Insurance point."""
    shape = draw(_DAMAGE_SHAPE)
    if shape == "exact":
        step = armor_boundary_step(armor)
        if step is not None:
            base = past_flat(armor, step) if draw(_PAST_FLAT) else 0
            return max((base + draw(_MULTIPLE)) * step + draw(_NEIGHBOUR), 0)
        return draw(_PLAIN)
    if shape == "insurance":
        return 25 * draw(_INSURANCE_POINTS) + draw(_NEIGHBOUR)
    if shape == "nonpositive":
        return draw(_NONPOSITIVE)
    if shape == "large":
        return draw(_LARGE)
    return draw(_PLAIN)


def damage_amounts(armor: int) -> st.SearchStrategy[int]:
    """:func:`draw_damage` as a strategy (for tests and benchmarks)."""
    return st.composite(lambda draw: draw_damage(draw, armor))()


# --------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------

_SIDE_FLIP = st.booleans()
_COIN = st.booleans()
_ROW = st.integers(0, 1)
_MAX_VITALITY = st.one_of(st.just(100), st.integers(1, 300))
_VITALITY_OFFSET = st.one_of(st.just(0), st.integers(0, 299))  # vitality = max - offset % max
_ALIVE = st.sampled_from((True, True, True, True, True, True, False))
#: A Tool or a Hub discards every combat interaction (500.1-1): at 2 in 7 they starved the retaliations and
#: recoveries (reflect, shield_gained, vitality_restored under 1% of the default mix), so 2 in 9.
_WHAT = st.sampled_from(("unit", "unit", "unit", "unit", "unit", "unit", "tool", "hub", "boss"))
#: No points three times in four (Insurance and Subrogated points in three units in five kept most hits off
#: Vitality: Reflect answers only what lands, 500.7i); the Insurance pair and alignment draw their own.
_COUNT = st.one_of(st.just(0), st.just(0), st.integers(0, 3))
#: No Shield half the time (a Shield in two thirds of the units kept most hits off Vitality: Reflect answers
#: only what lands, 500.7i); the alignments and the Shield pair draw their own.
_SHIELD = st.one_of(st.just(0), st.just(0), st.integers(0, 150), st.just(FULL_SHIELD))

#: Fields that are usually at their default, drawn as sparse overrides.
FLAGS = ("dormant", "entrapped", "has_cap", "defy_death", "prismbroken", "reflect", "deathrattle", "everlasting")
SMALL = {
    "ignore_charges": st.integers(1, 2),
    "vessels": st.integers(1, 2),
    "cap": st.integers(0, 150),
    "shield_multiplier": st.integers(2, 3),
    "rune_tick_reduction": st.integers(1, 30),
    "forge_tick_reduction": st.integers(1, 30),
    "thorns": st.integers(1, 30),
    "riposte": st.integers(1, 30),
    "retort": st.integers(1, 30),
    "redirect_cap": st.integers(0, 60),
    "adrenaline": st.integers(1, 20),
    "momentum": st.integers(1, 20),
    "bolster": st.integers(1, 20),
    "bloodletting_reduction": st.integers(1, 20),
}
_SPARSE_CACHE: dict[frozenset[str], Any] = {}


def sparse_overrides(wanted: frozenset[str]) -> st.SearchStrategy[list[tuple[str, Any]]]:
    """A short list of ``(field, value)`` overrides among the wanted rare fields (cached)."""
    if wanted not in _SPARSE_CACHE:
        options = [st.tuples(st.just(f), st.just(True)) for f in FLAGS if f in wanted]
        options += [st.tuples(st.just(f), s) for f, s in SMALL.items() if f in wanted]
        _SPARSE_CACHE[wanted] = st.lists(st.one_of(options), max_size=4) if options else st.just([])
    return _SPARSE_CACHE[wanted]


_UNIT_TEMPLATE: dict[str, Any] = {"uid": None, **UNIT_DEFAULTS}


def draw_unit(draw: Any, index: int, wanted: frozenset[str]) -> dict[str, Any]:
    """One unit, complete (every protocol field), its rarely-set fields drawn sparsely."""
    unit = _UNIT_TEMPLATE.copy()  # the uid first, then the defaults: {"uid": ..., **UNIT_DEFAULTS}, 8x faster
    unit["uid"] = UIDS[index]
    unit["side"] = index % 2 if not draw(_SIDE_FLIP) else 1 - index % 2
    unit["row"] = draw(_ROW)
    unit["col"] = index
    maximum = draw(_MAX_VITALITY)
    unit["max_vitality"] = maximum
    alive = draw(_ALIVE) if "alive" in wanted else True
    unit["alive"] = alive
    unit["vitality"] = maximum - draw(_VITALITY_OFFSET) % maximum if alive else 0
    what = draw(_WHAT)
    unit["is_tool"], unit["is_hub"], unit["is_boss"] = what == "tool", what == "hub", what == "boss"
    if "armor" in wanted:
        unit["armor"] = draw_armor(draw)
    for name in ("subrogated", "insurance"):
        if name in wanted:
            unit[name] = draw(_COUNT)
    if "shield" in wanted:
        unit["shield"] = draw(_SHIELD)
    for name, value in draw(sparse_overrides(wanted)):
        unit[name] = value
    if not alive:
        unit["shield"] = 0
        for name in ("adrenaline", "momentum", "bolster"):
            unit[name] = 0
    return unit


_RARELY = st.sampled_from((False, False, False, False, False, False, True))
_INDEX = st.integers(0, 2)


def pick(draw: Any, items: list[Any]) -> Any:
    """One of ``items`` by an index draw (shrinks towards the first)."""
    return items[draw(_INDEX) % len(items)]


def link_allies(draw: Any, units: list[dict[str, Any]], wanted: frozenset[str]) -> None:
    """Point some redirects and interceptors at allies (never at the unit itself)."""
    for unit in units:
        allies = [u["uid"] for u in units if u["side"] == unit["side"] and u["uid"] != unit["uid"]]
        if not allies:
            continue
        for name in ("redirect_to", "intercept_by"):
            if name in wanted and draw(_RARELY):
                unit[name] = pick(draw, allies)


# --------------------------------------------------------------------------------------
# Action strategies (referenced by the registry in ``referee.actions``)
# --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def armor_step(amount: int, armor: int) -> int:
    """The model's Armor step (percentage then flat) for aligning a boundary.

    Remembered: the model's step is a pure function of two ints, and at ~15 us (``ite`` runs both the positive
    and the negative branch) it was the dearest call of a drawn hit; half the pairs recur within 3,000 scenarios.
    """
    return apply_armor_flat(apply_armor_percentage(amount, armor), armor)


_COST_SHAPE = st.sampled_from(("vitality", "vitality-1", "vitality+1", "zero", "negative", "plain"))
_COST_PLAIN = st.integers(1, 300)


def draw_cost(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    from referee.model.combat.costs import COST_KINDS

    payer = pick(draw, units)
    vitality = payer["vitality"]
    shape = draw(_COST_SHAPE)
    amount = {"vitality": vitality, "vitality-1": vitality - 1, "vitality+1": vitality + 1, "zero": 0, "negative": -5}.get(
        shape
    )
    if amount is None:
        amount = draw(_COST_PLAIN)
    others = [u["uid"] for u in units if u["uid"] != payer["uid"]]
    beneficiary = pick(draw, others) if others and draw(_COIN) else None
    action = {
        "kind": "cost",
        "payer": payer["uid"],
        "amount": amount,
        "cost_kind": draw(_cost_kinds(COST_KINDS)),
        "beneficiary": beneficiary,
    }
    if action["cost_kind"] == "self_destruct" and payer["alive"] and draw(_SCRAP):
        # a Shield for the self-destruct to scrap, not to be drained (500.8h): without it 0.9% of the default mix
        action["_align"] = {payer["uid"]: {"shield": draw(_SHIELD_POOL)}}
    return action


_STRATEGY_CACHE: dict[Any, Any] = {}


#: Interest and Self-Destruct twice: only Interest lowers the maximum (max_vitality_lowered), only Self-Destruct
#: scraps a Shield (shield_scrapped); each stayed near 1.2% of the default mix at one in four (500.8d-h).
_COST_KIND_WEIGHTS = {"interest": 2, "self_destruct": 2}
#: A Self-Destruct's payer holds a Shield two times in three (500.8h).
_SCRAP = st.sampled_from((False, True, True))


def _cost_kinds(kinds: tuple[str, ...]) -> Any:
    strategy = _STRATEGY_CACHE.get(("cost", kinds))
    if strategy is None:  # built once per kinds: a strategy built at each draw cost more than the draw
        weighted = tuple(k for k in kinds for _ in range(_COST_KIND_WEIGHTS.get(k, 1)))
        strategy = _STRATEGY_CACHE[("cost", kinds)] = st.sampled_from(weighted)
    return strategy


def _damage_kinds(kinds: tuple[str, ...]) -> Any:
    """The lanes, with the first (a plain hit, which meets every layer) drawn three times as often."""
    strategy = _STRATEGY_CACHE.get(("damage", kinds))
    if strategy is None:  # built once per kinds
        weighted = (kinds[0], kinds[0], *kinds) if kinds else kinds
        strategy = _STRATEGY_CACHE[("damage", kinds)] = st.sampled_from(weighted)
    return strategy


#: (Unchanged by the coverage weights: with an Insurance pair and a redirect once more each, the shrunk reports of
#: three mutants (negative_armor_no_amplification, thorns_on_nothing, reflect_meets_armor) met an interceptor or a
#: Reflect kill, where the explain steps do not name the clause at fault: docs/performance.md.)
_BOUNDARY_PAIR = st.sampled_from(("none", "armor", "armor", "insurance", "shield", "redirect", "redirect"))
#: A redirect cap: what is left (a share 1), half of it, a third (each with its neighbours).
_CAP_SHARE = st.sampled_from((1, 1, 2, 3))
_SHIELD_HIT = st.integers(1, 60)
_SHIELD_POOL = st.integers(1, 50)
_MULTIPLIER = st.integers(2, 3)
_BOSS = st.sampled_from((False, False, False, True))
#: A duel two times in three (Thorns, Riposte, Retort, Reflect: 500.7; reflect was 0.8% at one in two).
_ARMED = st.sampled_from((False, True, True))
#: A duel meets a boss's Reflect two times in three (500.7h).
_DUEL_BOSS = st.sampled_from((False, True, True))
_RETALIATION = st.integers(1, 9)
_ROLLS = st.lists(st.booleans(), max_size=2)
#: A hit's rolls: one per answering outcome (the recipient, a lethal interceptor, a redirect receiver: 500.7b).
_SOME_ROLLS = st.lists(st.booleans(), min_size=3, max_size=3)
_SOURCE_SHAPE = st.sampled_from(("enemy", "none", "any", "ally"))


def _is_alive(units: list[dict[str, Any]], uid: str) -> bool:
    return next(u for u in units if u["uid"] == uid)["alive"]


def draw_damage_action(draw: Any, units: list[dict[str, Any]], kinds: tuple[str, ...], name: str = "damage") -> dict[str, Any]:
    """A ``damage`` or ``hit`` action; a hit always carries a Riposte roll to spend (500.7b)."""
    target = pick(draw, units)
    pair = draw(_BOUNDARY_PAIR)
    amount, override, redirected_to = _draw_on_a_boundary(draw, units, target, pair)
    target = {**target, **override}
    armed = name == "hit" and draw(_ARMED)
    source = _draw_source(draw, units, target, armed)
    lane = draw(_damage_kinds(kinds))
    if lane == "overtime" or (lane in ACTIVATION_LANES and source is not None and not _is_alive(units, source)):
        source = None  # an overtime tick has no actor (500.1c); a dead unit deals no hit (400.8b)
    action = {
        "kind": name,
        "target": target["uid"],
        "amount": amount,
        "source": source,
        "damage_kind": lane,
        "allows_dormant": draw(_RARELY),
        "riposte_rolls": draw(_SOME_ROLLS if name == "hit" else _ROLLS),
    }
    if armed:
        # a duel: a living target answers a living enemy with every retaliation it could carry, small and
        # distinct, and its first Riposte roll often hits (500.7b); without it Thorns fired in 0.2% of scenarios
        override.update(thorns=draw(_RETALIATION), riposte=draw(_RETALIATION), retort=draw(_RETALIATION), reflect=True,
                        **_answering(target))
        action["riposte_rolls"] = [draw(_COIN), *action["riposte_rolls"][1:]]  # the first roll hits or misses
    if name == "hit" and (draw(_DUEL_BOSS) if armed else draw(_BOSS)):  # a duel often meets a boss's Reflect (500.7h)
        override.update(is_boss=True, is_tool=False, is_hub=False, reflect=True)
    action["_align"] = {target["uid"]: {**align_target(draw, target, amount), **override}}
    if armed and source is not None:
        action["_align"][source] = _answering(next(u for u in units if u["uid"] == source))
    if redirected_to is not None:
        _align_redirect(action["_align"], units, target, redirected_to)
    if pair == "shield" and source is not None:
        action["_align"].setdefault(source, {})["shield_multiplier"] = draw(_MULTIPLIER)
    return action


def _draw_on_a_boundary(draw: Any, units: list[dict[str, Any]], target: dict[str, Any],
                        pair: str) -> tuple[int, dict[str, Any], dict[str, Any] | None]:
    """The amount, the target's fields set to put it on a boundary (``pair``), and the redirect's ally if any."""
    if pair == "armor":
        # Armor and damage chosen together, on an exact boundary of the curve, past the flat step.
        armor = draw(_ROOT) ** 2
        step = armor_boundary_step(armor)
        return max((past_flat(armor, step) + draw(_MULTIPLE)) * step + draw(_NEIGHBOUR), 0), {"armor": armor}, None
    if pair == "insurance":
        # 24/25/26 around an Insurance point: no Armor, k points, 25k damage and its neighbours.
        points = draw(_INSURANCE_POINTS)
        amount = 25 * points + draw(_NEIGHBOUR)
        plain = draw(_COIN)
        held = points + draw(_SPARE_POINTS)  # spare points show a point spent too many
        return amount, {"armor": 0, "has_cap": False, "insurance": held if plain else 0,
                        "subrogated": 0 if plain else held}, None
    if pair == "redirect" and len(units) > 1:
        return _draw_redirect(draw, units, target)
    if pair == "shield":
        # a Shield that breaks under a multiplied drain: the pool not a multiple of the multiplier
        amount = draw(_SHIELD_HIT)
        return amount, {"armor": 0, "has_cap": False, "insurance": 0, "subrogated": 0, "shield": draw(_SHIELD_POOL)}, None
    return draw_damage(draw, target["armor"]), {}, None


def _draw_redirect(draw: Any, units: list[dict[str, Any]],
                   target: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """An ally takes part of it (a cap near what is left) or, when it is lethal, all of it (500.1f, 500.1-11); the
    ally is another unit moved to the target's side if need be (columns differ: the cell stays free)."""
    ally = pick(draw, [u for u in units if u["uid"] != target["uid"]])
    ally = {**ally, "side": target["side"]}
    amount = draw(_SHIELD_HIT)
    override = {"armor": 0, "has_cap": False, "insurance": 0, "subrogated": 0, "shield": 0, **_answering(target)}
    if draw(_COIN):
        vitality = max(amount + draw(_NEIGHBOUR), 1)
        override.update(intercept_by=ally["uid"], vitality=vitality, max_vitality=max(target["max_vitality"], vitality))
    else:
        override.update(redirect_to=ally["uid"], redirect_cap=max(amount // draw(_CAP_SHARE) + draw(_NEIGHBOUR), 1))
    return amount, override, ally


def _draw_source(draw: Any, units: list[dict[str, Any]], target: dict[str, Any], armed: bool) -> str | None:
    """The source: an enemy in a duel, else by a drawn shape (an enemy, any other unit, an ally, or none)."""
    enemies = [u["uid"] for u in units if u["side"] != target["side"]]
    others = [u["uid"] for u in units if u["uid"] != target["uid"]]
    shape = "enemy" if armed else draw(_SOURCE_SHAPE)
    if shape == "enemy" and enemies:
        return pick(draw, enemies)
    if shape == "any" and others:
        return pick(draw, others)
    if shape == "ally" and len(others) > len(enemies):
        return pick(draw, [u for u in others if u not in enemies])
    return None


def _align_redirect(align: dict[str, Any], units: list[dict[str, Any]], target: dict[str, Any],
                    redirected_to: dict[str, Any]) -> None:
    """The redirect's ally moved to the target's side, and every link to it from its old side cut."""
    moved = redirected_to["uid"]
    align.setdefault(moved, {}).update(side=redirected_to["side"], redirect_to=None, intercept_by=None,
                                       **_answering(redirected_to))
    for unit in units:  # a link to the moved unit from its old side would name an enemy now
        links = {f: None for f in ("redirect_to", "intercept_by") if unit[f] == moved and unit["uid"] != target["uid"]}
        if links and unit["side"] != redirected_to["side"]:
            align.setdefault(unit["uid"], {}).update(links)


def _answering(unit: dict[str, Any]) -> dict[str, Any]:
    """The fields that let a unit take part in a retaliation: alive, neither a Tool nor a Hub, not Dormant."""
    out: dict[str, Any] = {"is_tool": False, "is_hub": False, "dormant": False, "entrapped": False}
    if not unit["alive"]:
        out.update(alive=True, vitality=unit["max_vitality"])
    return out


_BLOOD_COST = st.one_of(st.integers(0, 40), st.sampled_from(("vitality", "vitality+1", -3)))
_HIT_COUNT = st.integers(0, 2)


def draw_bloodletting(draw: Any, units: list[dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    """An activation with a Bloodletting cost and zero to two hits by the caster (a living unit: a dead one
    deals no hit, 400.8b; with nobody alive, the cost alone)."""
    living = [u for u in units if u["alive"]]
    caster = pick(draw, living or units)
    cost = draw(_BLOOD_COST)
    if cost == "vitality":
        cost = caster["vitality"]
    elif cost == "vitality+1":
        cost = caster["vitality"] + 1
    hits = []
    for _ in range(draw(_HIT_COUNT) if living else 0):
        target = pick(draw, units)
        hits.append(
            {
                "target": target["uid"],
                "amount": draw_damage(draw, target["armor"]),
                "damage_kind": draw(_damage_kinds(kinds)),
                "allows_dormant": draw(_RARELY),
                "riposte_rolls": draw(_SOME_ROLLS),
            }
        )
    return {"kind": "bloodletting", "caster": caster["uid"], "cost": cost, "hits": hits,
            "_align": {caster["uid"]: draw_activation_state(draw, caster)}}


_ACTIVATION_STATE = st.sampled_from(("none", "none", "none", "speed", "speed", "speed_and_rune", "rune"))
_RELIQUARY = st.sampled_from((1, 5, 12, 30))
_CHARGE = st.sampled_from((0, 40, 99))


def draw_activation_state(draw: Any, caster: dict[str, Any]) -> dict[str, Any]:
    """What a living caster holds when it activates: Reliquary Speed to clear, a charge to spend, a Reliquary rune
    for a revival in the middle of the activation (its own lethal Bloodletting payment, then its Vessel) (500.9l)."""
    how = draw(_ACTIVATION_STATE)
    if not caster["alive"] or how == "none":
        return {}
    fields: dict[str, Any] = {}
    if how.startswith("speed"):
        fields.update(reliquary_speed=draw(_RELIQUARY), charge=draw(_CHARGE))
    if how.endswith("rune"):
        fields.update(reliquary=draw(_RELIQUARY), vessels=1)
    return fields


ALIGNMENTS = ("none", "cap", "cap-1", "cap+1", "vitality", "vitality+1", "shield", "shield-1", "insurance", "defied_at_one")
_ALIGN = st.sampled_from(ALIGNMENTS)
_DEFY = st.sampled_from((True, False, True))  # exactly lethal into a defy-death rune (defy_death was 0.5%)


def align_target(draw: Any, target: dict[str, Any], amount: int) -> dict[str, Any]:
    """Move one of the target's numbers onto the boundary the damage creates."""
    how = draw(_ALIGN)
    if how == "none" or amount <= 0:
        return {}
    left = armor_step(amount, target["armor"])
    if how.startswith("cap"):
        return {"has_cap": True, "cap": max(left + {"cap": 0, "cap-1": -1, "cap+1": 1}[how], 0)}
    if how == "insurance":
        return {"armor": 0, "insurance": max(target["insurance"], 1), "subrogated": 0}
    after_layers = max(left - 25 * (target["insurance"] + target["subrogated"]), 0)
    if how.startswith("vitality") and target["alive"]:
        # Vitality equal to what reaches it (past Insurance and Shield): exactly lethal, or one short
        reaching = max(after_layers - max(target["shield"], 0), 0) or after_layers
        vitality = max(reaching + (1 if how == "vitality+1" else 0), 1)
        return {"vitality": vitality, "max_vitality": max(target["max_vitality"], vitality), "defy_death": draw(_DEFY)}
    if how == "defied_at_one" and target["alive"]:
        # a lethal hit the defy-death rune keeps off Vitality entirely (1 left of 1): a damage event or not
        # depends on the reading (INT-008, damage_event_test); Thorns show which
        return {"vitality": 1, "defy_death": True, "thorns": max(target.get("thorns", 0), 3)}
    if how.startswith("shield") and target["alive"]:
        return {"shield": max(after_layers - (1 if how == "shield-1" else 0), 0), "shield_multiplier": 1}
    return {}


# --------------------------------------------------------------------------------------
# Scenarios


# --------------------------------------------------------------------------------------
# Abilities (400.8): lines in random lanes, counts that reach 0, targets that die
# --------------------------------------------------------------------------------------


#: A second and a third Restore: vitality_restored was 0.2%, then 0.6% with two.
_EFFECT = st.sampled_from(("damage", "damage", "restore", "restore", *EFFECTS))
_LINE_KIND = st.sampled_from(("rider", "keyword", "rider", "conditional_rider", "passive"))
_RESTORE_KIND = st.sampled_from(("rider", "keyword", "rider", "keyword", "conditional_rider", "passive"))
_CONDITION = st.sampled_from(CONDITIONS)
_LANE = st.sampled_from((None, *LANES))
_RECIPIENT = st.sampled_from(("target", "target", *RECIPIENTS))
_PER = st.sampled_from((None, None, *PER_COUNTS))
_LINE_COUNT = st.integers(1, 4)
_TARGET_COUNT = st.sampled_from((1, 1, 1, 2, 0))
_LITERAL = st.integers(-2, 40)
#: A Restore's literal: any, or a small one that meets the recipient's Maim at its rounding boundary (each point
#: prevents 2 recovery; an odd amount below twice the Maim consumes a half point, rounded up: 500.3c, 500.3d).
_RESTORE_AMOUNT = st.one_of(st.integers(1, 5), _LITERAL, st.just("{power}"))
_MAIM_MET = st.integers(0, 3)  # 0: a Restore that restores (vitality_restored) beside those Maim eats
_RESTORE_PER = st.sampled_from((None, None, None, None, *PER_COUNTS))
#: A Restore mostly goes to the caster's side, where a unit has Vitality missing and Maim to meet (500.3); to the caster
#: four times in nine (the recipient it restores most often).
_RESTORE_TO = st.sampled_from(("allies", "caster", "allies", "caster", "caster", *RECIPIENTS))
_POWER_SHAPE = st.sampled_from(("lethal", "lethal", "lethal-1", "plain", "zero"))
_STATUS = st.sampled_from((0, 0, 0, 2))
_GATE = st.sampled_from((None,) * 12 + ("entrapped", "dormant", "untargetable"))
_COIN_FLIP = st.booleans()
#: A unit beside the ability's first target has Vitality missing (and, beside a Restore, Maim to meet) two times
#: in three: a Restore restores only what is missing (500.3c); vitality_restored stayed near 1.2%.
_ROOM_TO_RESTORE = st.sampled_from((False, True, True))
_ABILITY_ROLLS = st.lists(st.booleans(), min_size=2, max_size=3)


def draw_ability_line(draw: Any) -> dict[str, Any]:
    """One printed line (JSON): any keyword, lane and recipient; sometimes a per count, a condition, a Passive."""
    effect = draw(_EFFECT)
    restore = effect == "restore"
    kind = draw(_RESTORE_KIND if restore else _LINE_KIND)  # a Passive Restore never resolves: vitality_restored stayed at 0.2%
    line: dict[str, Any] = {"effect": effect, "amount": draw(_RESTORE_AMOUNT) if restore else
                            "{power}" if draw(_COIN_FLIP) else draw(_LITERAL), "kind": kind}
    lane, to, per = draw(_LANE), draw(_RESTORE_TO if restore else _RECIPIENT), draw(_RESTORE_PER if restore else _PER)
    if lane is not None:
        line["lane"] = lane
    if to != "target":
        line["to"] = to
    if per is not None:
        line["per"] = per
    if kind == "conditional_rider":
        line["condition"] = draw(_CONDITION)
    return line


def draw_ability(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """An ability action aimed at 400.8a-c: a power that kills its target, statuses a death removes from a count."""
    caster = pick(draw, units)
    others = [u for u in units if u["uid"] != caster["uid"]]
    enemies = [u for u in others if u["side"] != caster["side"]] or others or [caster]
    targets = []
    for _ in range(min(draw(_TARGET_COUNT), len(enemies))):
        unit = pick(draw, enemies)
        if unit["uid"] not in targets:
            targets.append(unit["uid"])
    first = next((u for u in units if targets and u["uid"] == targets[0]), caster)
    shape = draw(_POWER_SHAPE)
    reach = max(first["vitality"] + max(first["shield"], 0), 1)
    power = {"lethal": reach, "lethal-1": reach - 1, "zero": 0}.get(shape) or draw(_PLAIN)
    lines = [draw_ability_line(draw) for _ in range(draw(_LINE_COUNT))]
    align: dict[str, dict[str, Any]] = {}
    restores = any(line["effect"] == "restore" for line in lines)
    for unit in units:
        fields = {"burn": draw(_STATUS), "venom": draw(_STATUS) // 2, "maim": draw(_STATUS) + draw(_STATUS) // 2}
        if restores and unit["uid"] != first["uid"] and unit["alive"] and draw(_ROOM_TO_RESTORE):
            # a Restore meets Maim with Vitality missing: the consumption's rounding is reached (500.3c, 500.3d)
            fields.update(maim=draw(_MAIM_MET), vitality=max(unit["max_vitality"] // 2, 1))
        gate = draw(_GATE)
        if gate is not None and unit["uid"] != caster["uid"]:
            fields[gate] = True
        if unit["uid"] != first["uid"] and unit["alive"] and draw(_ROOM_TO_RESTORE):
            fields["vitality"] = max(unit["max_vitality"] // 2, 1)  # room for a restore to meet Maim (500.3c, 500.3d)
        if shape.startswith("lethal") and unit["uid"] == first["uid"]:
            fields["armor"] = 0  # the hit lands whole: the target dies (or survives by one) mid-activation
        align[unit["uid"]] = fields
    align[caster["uid"]].update(draw_activation_state(draw, caster))
    return {"kind": "ability", "caster": caster["uid"], "targets": targets,
            "ability": {"name": "drawn", "numbers": {"power": power}, "lines": lines},
            "riposte_rolls": draw(_ABILITY_ROLLS), "_align": align}
