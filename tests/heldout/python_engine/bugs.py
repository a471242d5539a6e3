"""Seeded bugs of the held-out Python engine.

Each bug is a flag that ``engine.py`` reads. Switch one on:

* by name, at call time, through the environment: ``HELDOUT_BUGS=cost_spends_shield,cap_before_armor``
  with ``--python tests.heldout.python_engine.engine:run``;
* in Python: ``engine_with("cost_spends_shield")`` or ``buggy("cost_spends_shield")`` returns a run function;
* as a module-level run function of this file: ``--python tests.heldout.python_engine.bugs:run_cost_spends_shield``.

``BUGS`` maps each name to (the rule it breaks, where it lives, the mechanics that reach it, its kind).
"""

from __future__ import annotations

from .engine import engine_with  # noqa: F401  (re-exported)

SHARED = "shared helper"
LOCAL = "one mechanic"

# name: (clause it breaks, helper it lives in, mechanics reaching it, category)
BUGS = {
    "cost_spends_shield": (
        "500.8a", "Battle.pay_vitality_cost (the one Vitality cost)",
        "cost action (every cost kind), Bloodletting payment, Thorns/Riposte/Retort, Subrogated payback",
        SHARED),
    "cost_skips_listeners": (
        "500.8d", "Battle.pay_vitality_cost",
        "cost action, Bloodletting payment, Thorns/Riposte/Retort, Subrogated payback",
        SHARED),
    "dead_payer_pays": (
        "500.8e", "Battle.refusal (the payer gate of every cost)",
        "cost action on a dead payer, retaliation against a dead attacker, Subrogated payback from a dead source",
        SHARED),
    "defy_charge_kept": (
        "500.1-12", "Battle.spend_defy_death (shared by the pipeline and costs)",
        "damage/hit instances (incl. redirected parts, Bloodletting hits), retaliation and Bloodletting costs",
        SHARED),
    "retaliation_hits_allies": (
        "500.6h", "Battle.hostility (the side check of every retaliation)",
        "Thorns/Riposte/Retort answers, retaliation cost action, Subrogated payback",
        SHARED),
    "insurance_rounds_down": (
        "500.1a", "Battle.points_for (Insurance points, Subrogated and plain)",
        "every damage instance: hits, ticks, split damage, redirected parts, lethal-redirect test",
        SHARED),
    "macabre_allies_only": (
        "500.4c", "Battle.kill (the one death routine)",
        "every death: by damage, by any cost, by retaliation, by a Bloodletting payment",
        SHARED),
    "feast_of_zero": (
        "500.1e", "Battle.credit (credit and Feast)",
        "every instance with a source whose Shield took it whole (and any credited instance with no Vitality lost)",
        SHARED),
    "cost_listeners_first": (
        "500.8d", "Battle.pay_vitality_cost (order: loss listeners before the payment's channel)",
        "cost action, Bloodletting payment, Thorns/Riposte/Retort, Subrogated payback",
        SHARED),
    "cap_before_armor": (
        "500.1-7", "Battle.mitigate (order: the cap before Armor)",
        "every damage instance that meets Armor and a cap", SHARED),
    "shield_before_insurance": (
        "500.1-9", "Battle.resolve_instance (order: Shield before the Insurance points)",
        "every damage instance on a unit with Shield and Insurance points", SHARED),
    "retort_every_event": (
        "500.7f", "Battle.answer (Retort answers every damage event, not only landed damage)",
        "hit, Bloodletting hits", LOCAL),
    "float_armor": (
        "500.2c", "armor_percentage (a float instead of the exact rounding)",
        "every damage instance that meets positive Armor", SHARED),
    "every_cost_debits_maximum": (
        "500.8g", "Battle.pay_vitality_cost (Bloodletting also debits maximum Vitality)",
        "Bloodletting cost action, Bloodletting payment", SHARED),
    "column_major_payer": (
        "800.4b", "Battle.reading_order (columns before rows)", "Bloodletting payer search", LOCAL),
}

ORDER_BUGS = ("cap_before_armor", "shield_before_insurance", "cost_listeners_first")
TRAILING_EVENT_BUGS = ("retort_every_event", "feast_of_zero")


def buggy(name: str):
    """A run function with the one seeded bug ``name`` switched on."""
    if name not in BUGS:
        raise KeyError(f"unknown seeded bug {name!r}; known: {', '.join(sorted(BUGS))}")
    return engine_with(name)


for _name in BUGS:
    globals()["run_" + _name] = engine_with(_name)
del _name
