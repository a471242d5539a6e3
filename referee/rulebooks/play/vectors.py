"""Play-rulebook conformance vectors: hand-written cases, each expected observation computed by the model.

Method (said in the manifest too): the play model is written with the single-source
arithmetic helpers and its zones are numbers, but the Z3 branch discovery of
:mod:`referee.vectors.suite` has no play templates yet. Until it does, the play vectors are the
cases below, written by hand to take every check of the play process (354, 355.2,
358.2 with each cause: 357.1 unpaid resources, 444.2.a declined, 414.4/414.1.b exhaust
impossible, 416.3 recycle impossible, 203.3 kill/discard impossible, 357.2 invalid plan),
every worked example of the seed (356.4.c discount on an optional additional cost, 416.3
recycling from an empty trash, 357.2 killing and discarding in either order, 414.4 an
exhausted friendly unit as an additional cost, the Basic Rune abilities 164.2.a/b,
activation 399/403.1.a) and the cost arithmetic (356.3, 356.4, 356.6). Only the
scenario is typed by hand: the expected observation and the clause list come from
running the model (:func:`referee.check.harness.model_observation`, the clause trail).
"""

from __future__ import annotations

from typing import Any

from referee.model.play.rules import DEFAULT_PLAY_RULES

from ...rulebook import Vector
from ...trail import clauses_applied
from ...wire import PROTOCOL
from .codec import encode_observation, state_from_json, state_to_json
from .run import observe

METHOD = ("hand-written play scenarios (referee/rulebooks/play/vectors.py PLAY_CASES), each expected observation and "
          "clause list computed by running the play model; no Z3 branch discovery for play yet")

PAY = {"step": "pay_resources"}


def scenario(objects: list[dict[str, Any]], actions: list[dict[str, Any]], energy: int = 0,
             power: dict[str, int] | None = None, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A complete play scenario (every object field spelled out by the protocol's decoder)."""

    state = state_to_json(state_from_json("state", {"pool": {"energy": energy, "power": power or {}},
                                                    "objects": objects}))
    return {"protocol": PROTOCOL, "rulebook": "play",
            "rules": {**DEFAULT_PLAY_RULES.to_json(), **(rules or {})},
            "state": state, "actions": actions}


def play(card: str = "c", cost: dict | None = None, plan: list | None = None, **extra: Any) -> dict[str, Any]:
    return {"kind": "play_card", "card": card, "cost": cost if cost is not None else {"energy": 1},
            "plan": plan if plan is not None else [PAY], **extra}


def activate(source: str, cost: dict, effect: str = "add_energy", plan: list | None = None, amount: int = 1,
             **extra: Any) -> dict[str, Any]:
    return {"kind": "activate", "source": source, "ability": {"cost": cost, "effect": {"kind": effect, "amount": amount}},
            "plan": plan if plan is not None else [{"step": "pay_cost", "index": 0}], **extra}


def ns(*kinds: str, count: int = 1) -> list[dict[str, Any]]:
    return [{"kind": k, "count": count} for k in kinds]


UNIT_IN_HAND = {"oid": "c", "kind": "unit"}
SPELL_IN_HAND = {"oid": "c", "kind": "spell"}
FRIENDLY_UNIT = {"oid": "u1", "kind": "unit", "zone": "board"}
RUNE = {"oid": "r1", "kind": "rune", "domain": "fury", "zone": "board"}
CALM_RUNE = {"oid": "r2", "kind": "rune", "domain": "calm", "zone": "board"}
EZREAL = {"energy": 1, "power": 1, "either": True, "applies_to": "optional_additional"}
FRIGID_TOUCH = {"cost": {"energy": 2}, "additional": [{"any_power": 1, "optional": True}]}
KILL_AND_DISCARD = {"cost": {"energy": 1}, "additional": [{"nonstandard": ns("kill_friendly_unit", "discard_unit")}]}
MAY_EXHAUST = {"cost": {"energy": 1}, "additional": [{"nonstandard": ns("exhaust_friendly_unit"), "optional": True}]}
VI = {"nonstandard": ns("recycle_from_trash")}
TRASHED = {"oid": "t1", "kind": "spell", "zone": "trash"}
#: PLAY-025's case: a unit on the board at location 2, exhausted, +1 Might; a unit in hand at location 1, +2 Might.
BOARD_STATE_CARRIERS = [{"oid": "u1", "kind": "unit", "zone": "board", "location": 2, "exhausted": True, "might_bonus": 1},
                        {"oid": "h1", "kind": "unit", "location": 1, "might_bonus": 2}]
KILL_THEN_DISCARD = [{"step": "pay_cost", "index": 0, "targets": ["u1"]}, {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY]
#: PLAY-020's case: a spell with two optional additional costs, [A] and [1] (the register's example).
TWO_OPTIONAL = [{"any_power": 1, "optional": True}, {"energy": 1, "optional": True}]

#: (name, primary clause, scenario). The primary clause files the vector (play/<chapter>/<clause>/).
PLAY_CASES: list[tuple[str, str, dict[str, Any]]] = [
    # 354: played from its controller's hand
    ("unit-from-hand-played", "354", scenario([UNIT_IN_HAND], [play()], energy=1)),
    ("card-in-trash-cancelled", "354", scenario([{**UNIT_IN_HAND, "zone": "trash"}], [play()], energy=1)),
    ("card-on-board-cancelled", "354", scenario([{**UNIT_IN_HAND, "zone": "board"}], [play()], energy=1)),
    ("opponents-card-cancelled", "354", scenario([{**UNIT_IN_HAND, "controller": 1}], [play()], energy=1)),
    # 355.2: a unit's location must exist
    ("unit-last-location", "355.2", scenario([UNIT_IN_HAND], [play(location=2)], energy=1)),
    ("unit-location-past-last-cancelled", "355.2", scenario([UNIT_IN_HAND], [play(location=3)], energy=1)),
    ("unit-negative-location-cancelled", "355.2", scenario([UNIT_IN_HAND], [play(location=-1)], energy=1)),
    ("spell-needs-no-location", "355.2", scenario([SPELL_IN_HAND], [play(location=7)], energy=1)),
    # 359.2.c: a unit enters exhausted at its location
    ("unit-enters-exhausted-at-location", "359.2.c", scenario([UNIT_IN_HAND], [play(location=1)], energy=1)),
    # 357.1: the combined cost in one payment
    ("energy-exact", "357.1", scenario([SPELL_IN_HAND], [play(cost={"energy": 3})], energy=3)),
    ("energy-one-short-cancelled", "357.1", scenario([SPELL_IN_HAND], [play(cost={"energy": 3})], energy=2)),
    ("domain-power-short-cancelled", "357.1",
     scenario([SPELL_IN_HAND], [play(cost={"power": {"fury": 1}})], power={"calm": 2})),
    ("domain-and-any-power", "357.1",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1, "power": {"fury": 1}, "any_power": 1})], energy=1,
              power={"fury": 1, "calm": 1})),
    ("any-power-from-chosen-domain", "357.1",
     scenario([SPELL_IN_HAND], [play(cost={"any_power": 1}, plan=[{"step": "pay_resources", "any_power_from":
                                                                     ["calm", "fury", "mind", "body", "chaos", "order"]}])],
              power={"fury": 1, "calm": 1})),
    ("any-power-not-covered-by-spare-cancelled", "357.1",
     scenario([SPELL_IN_HAND], [play(cost={"power": {"fury": 1}, "any_power": 1})], power={"fury": 1})),
    # 444.2.a: declining to pay the resources
    ("declined-resources-cancelled", "444.2.a", scenario([SPELL_IN_HAND], [play(plan=[])], energy=5)),
    ("declined-nothing-owed-played", "444.2.a", scenario([SPELL_IN_HAND], [play(cost={}, plan=[])])),
    # 356.3 / 356.4 / 356.6: the total cost
    ("increase-added", "356.3",
     scenario([SPELL_IN_HAND], [play(modifiers={"increases": [{"energy": 1}]})], energy=2)),
    ("increase-unpaid-cancelled", "356.3",
     scenario([SPELL_IN_HAND], [play(modifiers={"increases": [{"energy": 1}]})], energy=1)),
    ("discount-total", "356.4",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 3}, modifiers={"discounts": [{"energy": 2}]})], energy=1)),
    ("discount-after-increase", "356.4",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1}, modifiers={"increases": [{"energy": 2}],
                                                                    "discounts": [{"energy": 3}]})], energy=0)),
    ("discount-bigger-than-cost-clamped", "356.6",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1, "any_power": 1},
                                     modifiers={"discounts": [{"energy": 3, "power": 2}]})], energy=2, power={"fury": 1})),
    ("discount-on-additional", "356.4",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1}, additional=[{"energy": 2}],
                                     modifiers={"discounts": [{"energy": 1, "applies_to": "additional"}]})], energy=2)),
    # 356.4.c / 355.1.a: the seed's Ezreal, Prodigy and an optional additional cost
    ("ezreal-discounts-paid-optional", "356.4.c",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[True], modifiers={"discounts": [EZREAL]})],
              energy=2, power={"fury": 1})),
    ("ezreal-discount-power-first", "356.4.c",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[True], modifiers={"discounts": [EZREAL]})],
              energy=2, power={"fury": 1}, rules={"either_discount": "power_first"})),
    ("ezreal-not-on-printed-cost", "356.4.c",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[True], modifiers={"discounts": [EZREAL]})],
              energy=1, power={"fury": 1})),
    ("ezreal-not-on-mandatory-additional", "356.4.c",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1}, additional=[{"energy": 1}, {"any_power": 1, "optional": True}],
                                     pay_optional=[False, True], modifiers={"discounts": [EZREAL]})], energy=1)),
    ("ezreal-mandatory-additional-charged", "356.4.c",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 1}, additional=[{"energy": 1}, {"any_power": 1, "optional": True}],
                                     pay_optional=[False, True], modifiers={"discounts": [EZREAL]})], energy=2)),
    # PLAY-020: two optional additional costs paid, Ezreal's discount on each (each_component) or once in all
    ("ezreal-discounts-each-paid-optional", "356.4.c",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 2}, additional=TWO_OPTIONAL, pay_optional=[True, True],
                                     modifiers={"discounts": [EZREAL]})], energy=2)),
    ("ezreal-discounts-once-second-charged", "356.4.c",
     scenario([SPELL_IN_HAND], [play(cost={"energy": 2}, additional=TWO_OPTIONAL, pay_optional=[True, True],
                                     modifiers={"discounts": [EZREAL]})], energy=2,
              rules={"component_discount_scope": "once"})),
    ("optional-paid-without-discount", "355.1.a",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[True])], energy=2, power={"fury": 1})),
    ("optional-declined-not-charged", "355.1.a",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[False])], energy=2, power={"fury": 1})),
    ("optional-paid-unaffordable-cancelled", "355.1.a",
     scenario([SPELL_IN_HAND], [play(**FRIGID_TOUCH, pay_optional=[True])], energy=2)),
    # 357.2: kill and discard, in either order (the seed's example)
    ("kill-then-discard", "357.2",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "unit"}],
              [play(**KILL_AND_DISCARD, plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]},
                                              {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY])], energy=1)),
    # PLAY-025: the killed and the discarded unit keep their location and Might bonus, or lose them
    ("kill-and-discard-keep-board-state", "203.1", scenario([{**SPELL_IN_HAND, "location": 1}, *BOARD_STATE_CARRIERS],
                                                           [play(**KILL_AND_DISCARD, plan=KILL_THEN_DISCARD)], energy=1)),
    ("kill-and-discard-clear-board-state", "203.1",
     scenario([{**SPELL_IN_HAND, "location": 1}, *BOARD_STATE_CARRIERS], [play(**KILL_AND_DISCARD, plan=KILL_THEN_DISCARD)],
              energy=1, rules={"leave_board_resets": "all_board_state"})),
    ("discard-then-kill", "357.2",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "unit"}],
              [play(**KILL_AND_DISCARD, plan=[PAY, {"step": "pay_cost", "index": 1, "targets": ["h1"]},
                                              {"step": "pay_cost", "index": 0, "targets": ["u1"]}])], energy=1)),
    ("kill-unpaid-cancelled", "203.3",
     scenario([SPELL_IN_HAND, {"oid": "h1", "kind": "unit"}],
              [play(**KILL_AND_DISCARD, plan=[{"step": "pay_cost", "index": 0, "targets": ["h1"]},
                                              {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY])], energy=1)),
    ("kill-an-enemy-unit-cancelled", "203.3",
     scenario([SPELL_IN_HAND, {**FRIENDLY_UNIT, "controller": 1}, {"oid": "h1", "kind": "unit"}],
              [play(**KILL_AND_DISCARD, plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]},
                                              {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY])], energy=1)),
    ("discard-a-spell-cancelled", "203.3",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "spell"}],
              [play(**KILL_AND_DISCARD, plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]},
                                              {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY])], energy=1)),
    ("cost-paid-twice-invalid-plan", "357.2",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "unit"}],
              [play(**KILL_AND_DISCARD, plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]},
                                              {"step": "pay_cost", "index": 0, "targets": ["u1"]},
                                              {"step": "pay_cost", "index": 1, "targets": ["h1"]}, PAY])], energy=1)),
    ("no-such-cost-invalid-plan", "357.2",
     scenario([SPELL_IN_HAND], [play(plan=[{"step": "pay_cost", "index": 3}, PAY])], energy=1)),
    ("resources-paid-twice-invalid-plan", "357.2",
     scenario([SPELL_IN_HAND], [play(plan=[PAY, PAY])], energy=2)),
    # 414.4 / 414.1.b: an exhausted friendly unit as an additional cost (the seed's example)
    ("exhaust-ready-friendly-unit", "414.4",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT],
              [play(**MAY_EXHAUST, pay_optional=[True], plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]}, PAY])],
              energy=1)),
    ("exhaust-exhausted-unit-cancelled", "414.1.b",
     scenario([SPELL_IN_HAND, {**FRIENDLY_UNIT, "exhausted": True}],
              [play(**MAY_EXHAUST, pay_optional=[True], plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]}, PAY])],
              energy=1)),
    ("exhaust-optional-declined", "414.4",
     scenario([SPELL_IN_HAND, {**FRIENDLY_UNIT, "exhausted": True}], [play(**MAY_EXHAUST, pay_optional=[False])],
              energy=1)),
    ("exhaust-a-rune-as-unit-cancelled", "414.4",
     scenario([SPELL_IN_HAND, RUNE],
              [play(**MAY_EXHAUST, pay_optional=[True], plan=[{"step": "pay_cost", "index": 0, "targets": ["r1"]}, PAY])],
              energy=1)),
    ("exhaust-unit-in-hand-cancelled", "414.1.b",
     scenario([SPELL_IN_HAND, {"oid": "u1", "kind": "unit"}],
              [play(**MAY_EXHAUST, pay_optional=[True], plan=[{"step": "pay_cost", "index": 0, "targets": ["u1"]}, PAY])],
              energy=1)),
    # 164.2.a / 164.2.b / 357.1.a: Basic Runes during payment
    ("rune-exhaust-adds-energy", "164.2.a",
     scenario([SPELL_IN_HAND, RUNE], [play(plan=[{"step": "use_rune", "rune": "r1", "ability": "exhaust"}, PAY])])),
    ("exhausted-rune-adds-nothing-cancelled", "164.2.a",
     scenario([SPELL_IN_HAND, {**RUNE, "exhausted": True}],
              [play(plan=[{"step": "use_rune", "rune": "r1", "ability": "exhaust"}, PAY])])),
    ("rune-recycle-adds-its-power", "164.2.b",
     scenario([SPELL_IN_HAND, CALM_RUNE],
              [play(cost={"power": {"calm": 1}}, plan=[{"step": "use_rune", "rune": "r2", "ability": "recycle"}, PAY])])),
    ("rune-recycle-wrong-domain-undone", "358.5",
     scenario([SPELL_IN_HAND, CALM_RUNE],
              [play(cost={"power": {"fury": 1}}, plan=[{"step": "use_rune", "rune": "r2", "ability": "recycle"}, PAY])])),
    ("rune-both-abilities", "164.2.b",
     scenario([SPELL_IN_HAND, RUNE],
              [play(cost={"energy": 1, "any_power": 1}, plan=[{"step": "use_rune", "rune": "r1", "ability": "exhaust"},
                                                               {"step": "use_rune", "rune": "r1", "ability": "recycle"},
                                                               PAY])])),
    ("rune-in-trash-cannot-recycle", "416.3",
     scenario([SPELL_IN_HAND, {**RUNE, "zone": "trash"}],
              [play(cost={"power": {"fury": 1}}, plan=[{"step": "use_rune", "rune": "r1", "ability": "recycle"}, PAY])])),
    ("rune-after-payment-too-late", "357.1.a",
     scenario([SPELL_IN_HAND, RUNE], [play(plan=[PAY, {"step": "use_rune", "rune": "r1", "ability": "exhaust"}])])),
    # 358.2: the check that every cost was paid, with several causes at once
    ("nothing-paid-several-causes", "358.2",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "unit"}], [play(**KILL_AND_DISCARD, plan=[])], energy=1)),
    ("every-cost-paid", "358.2",
     scenario([SPELL_IN_HAND, FRIENDLY_UNIT, {"oid": "h1", "kind": "unit"}, RUNE],
              [play(**{**KILL_AND_DISCARD, "cost": {"energy": 2}},
                    plan=[{"step": "pay_cost", "index": 1, "targets": ["h1"]},
                          {"step": "use_rune", "rune": "r1", "ability": "exhaust"},
                          {"step": "pay_cost", "index": 0, "targets": ["u1"]}, PAY])], energy=1)),
    # 358.5: undone exactly, after a partial payment
    ("partial-payment-undone", "358.5",
     scenario([SPELL_IN_HAND, RUNE, FRIENDLY_UNIT],
              [play(**{**MAY_EXHAUST, "cost": {"energy": 2}}, pay_optional=[True],
                    plan=[{"step": "use_rune", "rune": "r1", "ability": "exhaust"},
                          {"step": "pay_cost", "index": 0, "targets": ["u1"]}, PAY])])),
    # 416.3: Vi, Destructive: recycling from the trash
    ("vi-recycles-from-trash", "416.3", scenario([FRIENDLY_UNIT, TRASHED],
                                                 [activate("u1", VI, "buff_might", plan=[{"step": "pay_cost", "index": 0,
                                                                                          "targets": ["t1"]}])])),
    ("vi-empty-trash-cancelled", "416.3", scenario([FRIENDLY_UNIT], [activate("u1", VI, "buff_might")])),
    ("vi-card-not-in-trash-cancelled", "416.3",
     scenario([FRIENDLY_UNIT, {"oid": "t1", "kind": "spell"}],
              [activate("u1", VI, "buff_might", plan=[{"step": "pay_cost", "index": 0, "targets": ["t1"]}])])),
    ("recycle-two-same-card-cancelled", "416.3",
     scenario([FRIENDLY_UNIT, TRASHED],
              [activate("u1", {"nonstandard": ns("recycle_from_trash", count=2)}, "buff_might",
                        plan=[{"step": "pay_cost", "index": 0, "targets": ["t1", "t1"]}])])),
    ("recycle-two-from-trash", "416.3",
     scenario([FRIENDLY_UNIT, TRASHED, {"oid": "t2", "kind": "unit", "zone": "trash"}],
              [activate("u1", {"nonstandard": ns("recycle_from_trash", count=2)}, "buff_might", amount=2,
                        plan=[{"step": "pay_cost", "index": 0, "targets": ["t1", "t2"]}])])),
    # 399 / 403.1.a / 202 / 203: activation
    ("activate-exhaust-this-add-energy", "399", scenario([RUNE], [activate("r1", {"nonstandard": ns("exhaust_this")})])),
    ("activate-opponents-object-cancelled", "399",
     scenario([{**RUNE, "controller": 1}], [activate("r1", {"nonstandard": ns("exhaust_this")})])),
    ("activate-exhausted-source-cancelled", "414.1.b",
     scenario([{**RUNE, "exhausted": True}], [activate("r1", {"nonstandard": ns("exhaust_this")})])),
    ("activate-recycle-this-add-power", "403.1.a",
     scenario([CALM_RUNE], [activate("r2", {"nonstandard": ns("recycle_this")}, "add_power", amount=2)])),
    ("activate-energy-cost-buff", "202",
     scenario([FRIENDLY_UNIT], [activate("u1", {"energy": 1}, "buff_might", amount=3, plan=[PAY])], energy=1)),
    ("activate-energy-cost-unpaid", "203",
     scenario([FRIENDLY_UNIT], [activate("u1", {"energy": 1}, "buff_might", plan=[PAY])])),
    ("activate-declined-cost", "444.2.a", scenario([FRIENDLY_UNIT], [activate("u1", {"energy": 1}, "buff_might", plan=[])],
                                                  energy=1)),
    ("activate-discounted-to-free", "356.6",
     scenario([FRIENDLY_UNIT], [activate("u1", {"energy": 1}, "buff_might", plan=[],
                                         modifiers={"discounts": [{"energy": 2}]})])),
    ("activate-unit-recycles-itself", "416.3",
     scenario([FRIENDLY_UNIT], [activate("u1", {"nonstandard": ns("recycle_this")}, "add_energy")])),
    # several actions in one scenario: the pool carries over
    ("rune-activation-then-play", "357.1",
     scenario([SPELL_IN_HAND, RUNE], [activate("r1", {"nonstandard": ns("exhaust_this")}), play()])),
    ("play-then-play-again-cancelled", "354",
     scenario([UNIT_IN_HAND], [play(), play()], energy=2)),
]


def play_vectors() -> list[Vector]:
    """The play cases as vectors: expected observation and clauses from the model."""
    out = []
    for name, primary, data in PLAY_CASES:
        state, events, steps = observe(data)
        # the clause the case was written for first, then every clause the model applied, in trail order
        clauses = list(dict.fromkeys([f"play:{primary}", *clauses_applied(steps)]))
        out.append(Vector(data, encode_observation(state, events), clauses, f"play case: {name}", "play-case",
                          primary=f"play:{primary}", label=name))
    return out
