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

Speed: generation, not the model, is the cost of a differential run (DESIGN: ~590 us per
10-field example). So every strategy here is built once, at import; a choice among the
board's units is an index draw; and the many fields that are usually at their default
(flags, runes, retaliation amounts) are drawn *sparsely*, as a short list of
``(field, value)`` overrides. Everything shrinks towards the plain case: an empty
override list, the first element of a ``sampled_from``, 0 of an integer range.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from referee.model.combat.armor import apply_armor_flat, apply_armor_percentage
from referee.model.combat.ruleset import DEFAULT, Ruleset

from .protocol import PROTOCOL, UNIT_DEFAULTS, UNIT_FIELDS

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
_ROW = st.integers(0, 1)
_MAX_VITALITY = st.one_of(st.just(100), st.integers(1, 300))
_VITALITY_OFFSET = st.one_of(st.just(0), st.integers(0, 299))  # vitality = max - offset % max
_ALIVE = st.sampled_from((True, True, True, True, True, True, False))
_WHAT = st.sampled_from(("unit", "unit", "unit", "unit", "tool", "hub", "boss"))
_COUNT = st.one_of(st.just(0), st.integers(0, 3))
_SHIELD = st.one_of(st.just(0), st.integers(0, 150), st.just(FULL_SHIELD))

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


def draw_unit(draw: Any, index: int, wanted: frozenset[str]) -> dict[str, Any]:
    """One unit, complete (every protocol field), its rarely-set fields drawn sparsely."""
    unit: dict[str, Any] = {"uid": UIDS[index], **UNIT_DEFAULTS}
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


def armor_step(amount: int, armor: int) -> int:
    """The model's Armor step (percentage then flat) for aligning a boundary."""
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
    beneficiary = pick(draw, others) if others and draw(st.booleans()) else None
    return {
        "kind": "cost",
        "payer": payer["uid"],
        "amount": amount,
        "cost_kind": draw(_cost_kinds(COST_KINDS)),
        "beneficiary": beneficiary,
    }


def draw_armor_debuff(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A debuff aimed at driving Armor exactly to 0, just past it, or leaving it alone (500.2e)."""
    from referee.model.combat.armor import ARMOR_SHREDDING_DEBUFFS, NON_ARMOR_DEBUFFS

    target = pick(draw, units)
    armor = target["armor"]
    amount = draw(st.sampled_from([armor, armor + 1, armor - 1, 0, -3])) if draw(st.booleans()) else draw(
        st.integers(-5, 60)
    )
    return {
        "kind": "armor_debuff",
        "target": target["uid"],
        "debuff": draw(st.sampled_from(ARMOR_SHREDDING_DEBUFFS + NON_ARMOR_DEBUFFS)),
        "amount": amount,
    }


_STRATEGY_CACHE: dict[Any, Any] = {}


def _cost_kinds(kinds: tuple[str, ...]) -> Any:
    return _STRATEGY_CACHE.setdefault(("cost", kinds), st.sampled_from(kinds))


def _damage_kinds(kinds: tuple[str, ...]) -> Any:
    """The lanes, with the first (a plain hit, which meets every layer) drawn three times as often."""
    weighted = (kinds[0], kinds[0], *kinds) if kinds else kinds
    return _STRATEGY_CACHE.setdefault(("damage", kinds), st.sampled_from(weighted))


_BOUNDARY_PAIR = st.sampled_from(("none", "armor", "armor", "insurance", "shield"))
_SHIELD_HIT = st.integers(1, 60)
_SHIELD_POOL = st.integers(1, 50)
_MULTIPLIER = st.integers(2, 3)
_BOSS = st.sampled_from((False, False, False, True))
_ARMED = st.sampled_from((False, True))
_RETALIATION = st.integers(1, 9)
_ROLLS = st.lists(st.booleans(), max_size=2)
_SOME_ROLLS = st.lists(st.booleans(), min_size=1, max_size=2)
_SOURCE_SHAPE = st.sampled_from(("enemy", "none", "any", "ally"))


def draw_damage_action(draw: Any, units: list[dict[str, Any]], kinds: tuple[str, ...], name: str = "damage") -> dict[str, Any]:
    """A ``damage`` or ``hit`` action; a hit always carries a Riposte roll to spend (500.7b)."""
    target = pick(draw, units)
    override: dict[str, Any] = {}
    pair = draw(_BOUNDARY_PAIR)
    if pair == "armor":
        # Armor and damage chosen together, on an exact boundary of the curve, past the flat step.
        armor = draw(_ROOT) ** 2
        step = armor_boundary_step(armor)
        amount = max((past_flat(armor, step) + draw(_MULTIPLE)) * step + draw(_NEIGHBOUR), 0)
        override = {"armor": armor}
        target = {**target, **override}
    elif pair == "insurance":
        # 24/25/26 around an Insurance point: no Armor, k points, 25k damage and its neighbours.
        points = draw(_INSURANCE_POINTS)
        amount = 25 * points + draw(_NEIGHBOUR)
        plain = draw(st.booleans())
        held = points + draw(_SPARE_POINTS)  # spare points show a point spent too many
        override = {"armor": 0, "has_cap": False, "insurance": held if plain else 0, "subrogated": 0 if plain else held}
        target = {**target, **override}
    elif pair == "shield":
        # a Shield that breaks under a multiplied drain: the pool not a multiple of the multiplier
        amount = draw(_SHIELD_HIT)
        override = {"armor": 0, "has_cap": False, "insurance": 0, "subrogated": 0, "shield": draw(_SHIELD_POOL)}
        target = {**target, **override}
    else:
        amount = draw_damage(draw, target["armor"])
    enemies = [u["uid"] for u in units if u["side"] != target["side"]]
    others = [u["uid"] for u in units if u["uid"] != target["uid"]]
    shape = draw(_SOURCE_SHAPE)
    if shape == "enemy" and enemies:
        source = pick(draw, enemies)
    elif shape == "any" and others:
        source = pick(draw, others)
    elif shape == "ally" and len(others) > len(enemies):
        source = pick(draw, [u for u in others if u not in enemies])
    else:
        source = None
    action = {
        "kind": name,
        "target": target["uid"],
        "amount": amount,
        "source": source,
        "damage_kind": draw(_damage_kinds(kinds)),
        "allows_dormant": draw(_RARELY),
        "riposte_rolls": draw(_SOME_ROLLS if name == "hit" else _ROLLS),
    }
    if name == "hit" and draw(_ARMED):
        # the target answers: every retaliation it could carry, small and distinct
        override.update(thorns=draw(_RETALIATION), riposte=draw(_RETALIATION), retort=draw(_RETALIATION), reflect=True)
    if name == "hit" and draw(_BOSS):
        override.update(is_boss=True, is_tool=False, is_hub=False, reflect=True)
    action["_align"] = {target["uid"]: {**align_target(draw, target, amount), **override}}
    if pair == "shield" and source is not None:
        action["_align"][source] = {"shield_multiplier": draw(_MULTIPLIER)}
    return action


_BLOOD_COST = st.one_of(st.integers(0, 40), st.sampled_from(("vitality", "vitality+1", -3)))
_HIT_COUNT = st.integers(0, 2)


def draw_bloodletting(draw: Any, units: list[dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    """An activation with a Bloodletting cost and zero to two hits by the caster."""
    caster = pick(draw, units)
    cost = draw(_BLOOD_COST)
    if cost == "vitality":
        cost = caster["vitality"]
    elif cost == "vitality+1":
        cost = caster["vitality"] + 1
    hits = []
    for _ in range(draw(_HIT_COUNT)):
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
    return {"kind": "bloodletting", "caster": caster["uid"], "cost": cost, "hits": hits}


ALIGNMENTS = ("none", "cap", "cap-1", "cap+1", "vitality", "vitality+1", "shield", "shield-1", "insurance")
_ALIGN = st.sampled_from(ALIGNMENTS)
_DEFY = st.booleans()


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
    if how.startswith("shield") and target["alive"]:
        return {"shield": max(after_layers - (1 if how == "shield-1" else 0), 0), "shield_multiplier": 1}
    return {}


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


_UNIT_COUNTS = {n: st.integers(1, n) for n in range(1, 4)}
_ACTION_COUNTS: dict[int, Any] = {}


@st.composite
def scenarios(
    draw: Any,
    kinds: tuple[str, ...] | None = None,
    max_actions: int = 2,
    ruleset: Ruleset = DEFAULT,
    max_units: int = 3,
    play_rules: Any = None,
) -> dict[str, Any]:
    """A complete, valid scenario (JSON) over the chosen action kinds (default: the combat ones).

    A scenario holds the actions of one rulebook: when both combat and play kinds are
    chosen, each scenario first draws its rulebook.
    """
    from .actions import ACTION_KINDS, default_kinds

    names = tuple(kinds or default_kinds())
    play_names = tuple(n for n in names if ACTION_KINDS[n].rulebook == "play")
    if play_names:
        combat_names = tuple(n for n in names if n not in play_names)
        if not combat_names or draw(_PLAY_OR_COMBAT):
            return draw_play_scenario(draw, play_names, max_actions, play_rules)
        names = combat_names
    key = ("kinds", names)
    if key not in _STRATEGY_CACHE:
        wanted = frozenset(f for name in names for f in ACTION_KINDS[name].unit_fields)
        _STRATEGY_CACHE[key] = (wanted, st.sampled_from(names))
    wanted, kind_choice = _STRATEGY_CACHE[key]
    count = draw(_UNIT_COUNTS[min(max(max_units, 1), 3)])
    units = [draw_unit(draw, i, wanted) for i in range(count)]
    link_allies(draw, units, wanted)
    actions = []
    steps = _ACTION_COUNTS.setdefault(max_actions, st.integers(1, max(max_actions, 1)))
    for step in range(draw(steps)):
        name = draw(kind_choice)
        action = ACTION_KINDS[name].draw(draw, units)
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

# --------------------------------------------------------------------------------------
# The play rulebook (referee.play): a play state, then play_card / activate actions
# --------------------------------------------------------------------------------------
#
# The boundaries aimed at: the pool *aligned* to the first action's total cost (exactly
# equal, one short, one over, per part); discounts bigger than the cost (clamped at 0),
# component discounts on optional additional costs paid or declined; exhausted runes and
# units asked to exhaust; an empty trash asked to recycle; a plan that declines to pay the
# resources; non-standard costs paid in either order, or not at all.

_PLAY_OR_COMBAT = st.booleans()
PLAY_DOMAINS = ("fury", "calm")
_SMALL = st.integers(0, 3)
_TINY = st.integers(0, 2)
_DISCOUNT = st.integers(0, 4)
_FLAG = st.booleans()
_RARE = st.sampled_from((False, False, False, True))
_OFTEN = st.sampled_from((True, True, True, False))
_PLAY_DOMAIN = st.sampled_from(PLAY_DOMAINS)
_CARD_KIND = st.sampled_from(("unit", "spell", "gear"))
_CARD_ZONE = st.sampled_from(("hand",) * 10 + ("trash", "board"))
_COUNT3 = st.integers(0, 3)
_COUNT2 = st.integers(0, 2)
_COUNT1 = st.integers(0, 1)
_POOL_ALIGN = st.sampled_from((0, 0, 0, -1, 1, 2))
_RUNE_USE = st.sampled_from((None, None, "exhaust", "exhaust", "recycle"))
_PLAY_NONSTANDARD = st.sampled_from(("kill_friendly_unit", "discard_unit", "exhaust_friendly_unit", "recycle_from_trash"))
_ACTIVATE_NONSTANDARD = st.sampled_from(
    ("exhaust_this", "exhaust_this", "recycle_this", "exhaust_friendly_unit", "recycle_from_trash", "kill_friendly_unit")
)
_EFFECT = st.sampled_from(("add_energy", "add_power", "buff_might"))
_TARGETS = st.sampled_from(("total", "optional_additional", "optional_additional", "additional"))
_DOMAIN_ORDERS = st.permutations(PLAY_DOMAINS)
_PERMUTATIONS: dict[int, Any] = {}
_LOCATION = st.sampled_from((0, 0, 1, 2, 3))


def draw_play_state(draw: Any) -> dict[str, Any]:
    """The acting player's objects: the card ``c``, runes ``r*``, units ``u*``, a hand card ``h*``, trash ``t*``."""
    objects = [{"oid": "c", "kind": draw(_CARD_KIND), "controller": 1 if draw(_RARE) and draw(_RARE) else 0,
                "domain": "fury", "zone": draw(_CARD_ZONE), "location": 0, "exhausted": False, "might_bonus": 0}]
    for i in range(draw(_COUNT3)):
        objects.append({"oid": f"r{i + 1}", "kind": "rune", "controller": 0, "domain": draw(_PLAY_DOMAIN),
                        "zone": "board", "location": 0, "exhausted": draw(_RARE), "might_bonus": 0})
    for i in range(draw(_COUNT2)):
        objects.append({"oid": f"u{i + 1}", "kind": "unit", "controller": 1 if draw(_RARE) else 0, "domain": "fury",
                        "zone": "board", "location": draw(_COUNT2), "exhausted": draw(_FLAG), "might_bonus": 0})
    for i in range(draw(_COUNT1)):
        objects.append({"oid": f"h{i + 1}", "kind": "unit" if draw(_OFTEN) else "spell", "controller": 0,
                        "domain": "calm", "zone": "hand", "location": 0, "exhausted": False, "might_bonus": 0})
    for i in range(draw(_COUNT2)):
        objects.append({"oid": f"t{i + 1}", "kind": "spell", "controller": 0, "domain": "mind", "zone": "trash",
                        "location": 0, "exhausted": False, "might_bonus": 0})
    power = {d: 0 for d in ("fury", "calm", "mind", "body", "chaos", "order")}
    return {"pool": {"energy": 0, "power": power}, "objects": objects, "player": 0, "location_count": 3}


def _draw_resources(draw: Any) -> dict[str, Any]:
    power = {}
    amount = draw(_TINY)
    if amount:
        power[draw(_PLAY_DOMAIN)] = amount
    return {"energy": draw(_SMALL), "power": power, "any_power": draw(_TINY)}


def _draw_component(draw: Any, nonstandard: Any, optional: bool | None) -> dict[str, Any]:
    out = _draw_resources(draw) if draw(_OFTEN) else {"energy": 0, "power": {}, "any_power": 0}
    costs = []
    for _ in range(draw(_COUNT2) if optional is not None else draw(_COUNT1)):
        kind = draw(nonstandard)
        costs.append({"kind": kind, "count": draw(st.integers(1, 2)) if kind == "recycle_from_trash" else 1})
    out["nonstandard"] = costs
    if optional is not None:
        out["optional"] = optional
    return out


def _draw_modifiers(draw: Any) -> dict[str, Any]:
    increases = [_draw_resources(draw) for _ in range(draw(_COUNT1))]
    discounts = []
    for _ in range(draw(_COUNT2)):
        discounts.append({"energy": draw(_DISCOUNT), "power": draw(_DISCOUNT), "either": draw(_FLAG),
                          "applies_to": draw(_TARGETS)})
    return {"increases": increases, "discounts": discounts}


def _oids(state: dict[str, Any], prefix: str) -> list[str]:
    return [o["oid"] for o in state["objects"] if o["oid"].startswith(prefix)]


def _targets(draw: Any, state: dict[str, Any], cost: dict[str, Any]) -> list[str]:
    kind = cost["kind"]
    if kind in ("exhaust_this", "recycle_this"):
        return []
    if kind == "recycle_from_trash":
        trash = [o["oid"] for o in state["objects"] if o["zone"] == "trash"]
        return trash[: cost["count"]] if not draw(_RARE) else trash[:1]
    pool = _oids(state, "h") if kind == "discard_unit" else _oids(state, "u")
    if not pool or draw(_RARE):
        pool = [o["oid"] for o in state["objects"]]
    return [pick(draw, pool)]


def _draw_plan(draw: Any, state: dict[str, Any], nonstandard: list[dict[str, Any]]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for rune in _oids(state, "r"):
        use = draw(_RUNE_USE)
        if use:
            steps.append({"step": "use_rune", "rune": rune, "ability": use})
    pays = [{"step": "pay_cost", "index": i, "targets": _targets(draw, state, c)}
            for i, c in enumerate(nonstandard) if not draw(_RARE)]
    if draw(_OFTEN) or draw(_OFTEN):  # mostly pays; sometimes declines (444.2.a)
        order = [*draw(_DOMAIN_ORDERS), *(d for d in ("fury", "calm", "mind", "body", "chaos", "order") if d not in PLAY_DOMAINS)]
        pays.append({"step": "pay_resources", "any_power_from": order})
    n = len(pays)
    if n > 1:
        perm = draw(_PERMUTATIONS.setdefault(n, st.permutations(range(n))))
        pays = [pays[i] for i in perm]
    if steps and draw(_RARE):  # a rune used after the resources were paid: too late to help
        return pays + steps
    return steps + pays


def _owed_nonstandard(printed: dict[str, Any], additional: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = list(printed["nonstandard"])
    for component in additional:
        out += component["nonstandard"]
    return out


def _align_pool(draw: Any, state: dict[str, Any], action: dict[str, Any]) -> None:
    """Set the pool so the first action's total cost is exactly covered, or one short or over, part by part."""
    from .play import _component, _modifiers
    from referee.model.play import cost as play_cost

    if action["kind"] == "play_card":
        printed, additional, pay = action["cost"], action["additional"], action["pay_optional"]
    else:
        printed, additional, pay = action["ability"]["cost"], [], []
    full = lambda c: {"energy": c["energy"], "power": {**{d: 0 for d in state["pool"]["power"]}, **c["power"]},
                      "any_power": c["any_power"], "nonstandard": c.get("nonstandard", []), "optional": c.get("optional", False)}
    total = play_cost.compute_total_cost(
        _component(full(printed)), tuple(_component(full(c)) for c in additional), tuple(pay),
        _modifiers({"increases": [full(x) for x in action["modifiers"]["increases"]],
                    "discounts": action["modifiers"]["discounts"]}),
    ).resources
    gained_energy, gained = 0, {d: 0 for d in state["pool"]["power"]}
    by_oid = {o["oid"]: o for o in state["objects"]}
    for step in action["plan"]:
        if step["step"] == "use_rune":
            rune = by_oid[step["rune"]]
            if step["ability"] == "exhaust" and not rune["exhausted"]:
                gained_energy += 1
            elif step["ability"] == "recycle":
                gained[rune["domain"]] += 1
    pool = state["pool"]
    pool["energy"] = max(total.energy - gained_energy + draw(_POOL_ALIGN), 0)
    domains = list(pool["power"])
    for d, need in zip(domains, total.power):
        pool["power"][d] = max(need - gained[d] + (draw(_POOL_ALIGN) if need else 0), 0)
    if total.any_power:
        d = draw(_PLAY_DOMAIN)
        pool["power"][d] = max(pool["power"][d] + total.any_power + draw(_POOL_ALIGN), 0)
    elif draw(_RARE):
        pool["power"][draw(_PLAY_DOMAIN)] += draw(_TINY)


def draw_play_action(draw: Any, state: dict[str, Any], name: str) -> dict[str, Any]:
    """One ``play_card`` or ``activate`` action against a play state (JSON)."""
    modifiers = _draw_modifiers(draw)
    if name == "play_card":
        printed = _draw_component(draw, _PLAY_NONSTANDARD, None)
        printed["nonstandard"] = []  # a card's printed cost is Energy and Power; the rest are additional costs
        printed.pop("optional", None)
        additional = [_draw_component(draw, _PLAY_NONSTANDARD, draw(_FLAG)) for _ in range(draw(_COUNT2))]
        pay = [draw(_FLAG) for _ in additional]
        nonstandard = _owed_nonstandard(printed, additional)
        return {"kind": "play_card", "card": "c", "cost": printed, "additional": additional, "pay_optional": pay,
                "location": draw(_LOCATION), "modifiers": modifiers, "plan": _draw_plan(draw, state, nonstandard)}
    sources = [o["oid"] for o in state["objects"] if o["zone"] == "board"] or [state["objects"][0]["oid"]]
    source = pick(draw, sources)
    printed = _draw_component(draw, _ACTIVATE_NONSTANDARD, None)
    effect = {"kind": draw(_EFFECT), "amount": draw(_TINY)}
    return {"kind": "activate", "source": source, "ability": {"cost": printed, "effect": effect},
            "modifiers": modifiers, "plan": _draw_plan(draw, state, printed["nonstandard"])}


def draw_play_scenario(draw: Any, kinds: tuple[str, ...], max_actions: int = 2, play_rules: Any = None) -> dict[str, Any]:
    """A valid play-rulebook scenario: a play state and 1..max_actions play actions, the pool aligned to the first."""
    from .actions import ACTION_KINDS

    key = ("play", kinds)
    if key not in _STRATEGY_CACHE:
        _STRATEGY_CACHE[key] = st.sampled_from(kinds)
    kind_choice = _STRATEGY_CACHE[key]
    state = draw_play_state(draw)
    steps = _ACTION_COUNTS.setdefault(max_actions, st.integers(1, max(max_actions, 1)))
    actions = [ACTION_KINDS[draw(kind_choice)].draw(draw, state) for _ in range(draw(steps))]
    _align_pool(draw, state, actions[0])
    rules = {"either_discount": play_rules.either_discount if play_rules is not None else "energy_first"}
    return {"protocol": PROTOCOL, "rulebook": "play", "rules": rules, "state": state, "actions": actions}
