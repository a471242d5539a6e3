"""Hypothesis strategies for play scenarios: a play state, then ``play_card`` / ``activate`` actions.

The boundaries aimed at: the pool *aligned* to the first action's total cost (exactly
equal, one short, one over, per part); discounts bigger than the cost (clamped at 0),
component discounts on optional additional costs paid or declined; exhausted runes and
units asked to exhaust; an empty trash asked to recycle; a plan that declines to pay the
resources; non-standard costs paid in either order, or not at all.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.play import cost as play_cost

from .codec import to_component, to_modifiers

_INDEX = st.integers(0, 2)


def pick(draw: Any, items: list[Any]) -> Any:
    """One of ``items``, by an index draw (shrinks to the first)."""
    return items[draw(_INDEX) % len(items)]


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


_RECYCLED = st.integers(1, 2)  # how many a recycle_from_trash cost takes (built once, not at each draw)


def _draw_component(draw: Any, nonstandard: Any, optional: bool | None) -> dict[str, Any]:
    out = _draw_resources(draw) if draw(_OFTEN) else {"energy": 0, "power": {}, "any_power": 0}
    costs = []
    for _ in range(draw(_COUNT2) if optional is not None else draw(_COUNT1)):
        kind = draw(nonstandard)
        costs.append({"kind": kind, "count": draw(_RECYCLED) if kind == "recycle_from_trash" else 1})
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

    if action["kind"] == "play_card":
        printed, additional, pay = action["cost"], action["additional"], action["pay_optional"]
    else:
        printed, additional, pay = action["ability"]["cost"], [], []
    full = lambda c: {"energy": c["energy"], "power": {**{d: 0 for d in state["pool"]["power"]}, **c["power"]},
                      "any_power": c["any_power"], "nonstandard": c.get("nonstandard", []), "optional": c.get("optional", False)}
    total = play_cost.compute_total_cost(
        to_component(full(printed)), tuple(to_component(full(c)) for c in additional), tuple(pay),
        to_modifiers({"increases": [full(x) for x in action["modifiers"]["increases"]],
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
