"""Seeded mutants of the example engine: one-line bugs a real engine might ship.

Each mutant names the clause it breaks and replaces exactly one line of
``examples/engine.py`` (``old`` is a unique snippet of the source, ``new`` the same snippet
with one line changed; a test holds both facts). :func:`load` compiles the mutated source
into a fresh module, so the clean engine is never touched.

Three ways to run a mutant:

* in-process: ``referee check --python referee.examples.mutants:float_armor_step``
  (every mutant name is a module attribute: its ``run`` function);
* as a JSON-lines program: ``python -m referee.examples.engine --mutant float_armor_step``;
* from Python: ``load("float_armor_step").run(scenario)``.
"""

from __future__ import annotations

import difflib
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENGINE_SOURCE = Path(__file__).with_name("engine.py")


@dataclass(frozen=True)
class Mutant:
    name: str
    clause: str
    description: str
    old: str
    new: str
    #: The action kinds that reach the bug (``referee check --kinds``); used by the kill table.
    kinds: tuple[str, ...] = ("damage",)
    #: The file of ``examples/`` the line is in: the combat engine, or the play rulebook's.
    source: str = "engine.py"
    #: The longest scenario that reaches the bug (``referee check --max-actions``): a timeline
    #: bug needs a death, then time, then what happens next.
    max_actions: int = 2
    #: Ruleset options the bug needs (``referee check --ruleset name=value``), as (name, value) pairs.
    ruleset: tuple[tuple[str, str], ...] = ()
    #: Found only in whole battles (``referee check --battle``): the bug needs a long sequence of actions.
    battle: bool = False

    @property
    def path(self) -> Path:
        return ENGINE_SOURCE.with_name(self.source)


MUTANTS: tuple[Mutant, ...] = (
    # --- 500.2 Armor --------------------------------------------------------------------
    Mutant(
        "float_armor_step", "combat:500.2c", "the Armor percentage in floating point, uncorrected",
        "        return self.corrected(guess, damage, armor)\n",
        "        return math.ceil(damage * (1 - math.sqrt(armor) / (math.sqrt(armor) + 20)))\n",
    ),
    Mutant(
        "armor_floored_at_zero", "combat:500.2e", "Crush stops at 0 Armor instead of driving it negative",
        "            unit.armor -= max(action[\"amount\"], 0)  # Armor may go negative (500.2e)\n",
        "            unit.armor = max(unit.armor - max(action[\"amount\"], 0), 0)  # Armor may go negative (500.2e)\n",
        kinds=("armor_debuff",),
    ),
    Mutant(
        "floor_instead_of_ceil", "combat:500.2c", "surviving damage rounded down instead of up",
        "        return self.corrected(guess, damage, armor)\n",
        "        return int(20 * damage / (math.sqrt(armor) + 20))\n",
    ),
    Mutant(
        "strict_armor_boundary", "combat:500.2c", "'>' where the rule has '>=': one more survives at exact thirds",
        "        return gap <= 0 or s * s * armor >= gap * gap\n",
        "        return gap <= 0 or s * s * armor > gap * gap\n",
    ),
    Mutant(
        "flat_before_percentage", "combat:500.2b", "the flat reduction applied before the percentage",
        "        return self.flat(self.percentage(damage, armor), armor)\n",
        "        return self.percentage(self.flat(damage, armor), armor)\n",
    ),
    Mutant(
        "negative_armor_flat_amplifies", "combat:500.2d", "negative Armor also gives a flat amplification",
        "        reduction = armor // 5 if armor > 0 else 0\n",
        "        reduction = armor // 5\n",
    ),
    Mutant(
        "negative_armor_no_amplification", "combat:500.2d", "negative Armor treated as no Armor",
        "            return self.amplified(damage, -armor)\n",
        "            return damage\n",
    ),
    # --- 500.1 the pipeline -------------------------------------------------------------
    Mutant(
        "cap_off_by_one", "combat:500.1-7", "the incoming-damage cap lets one point more through",
        "        return min(damage, max(unit.cap, 0)) if unit.has_cap else damage\n",
        "        return min(damage, max(unit.cap, 0) + 1) if unit.has_cap else damage\n",
    ),
    Mutant(
        "shield_before_insurance", "combat:500.1-9", "Shield meets the damage before the Insurance points",
        '    LAYER_ORDER = ("subrogated", "insurance", "shield")\n',
        '    LAYER_ORDER = ("shield", "subrogated", "insurance")\n',
    ),
    Mutant(
        "insurance_point_not_spent_whole", "combat:500.1a", "a part of 25 spends no point: the remainder passes",
        "        needed = -(-damage // self.POINT)\n",
        "        needed = damage // self.POINT\n",
    ),
    Mutant(
        "insurance_extra_point_at_multiple", "combat:500.1a", "an exact multiple of 25 spends one point too many",
        "        needed = -(-damage // self.POINT)\n",
        "        needed = damage // self.POINT + 1 if damage > 0 else 0\n",
    ),
    Mutant(
        "shield_multiplier_floor", "combat:500.1-10", "a breaking multiplied Shield absorbs floor(S/m), not ceil",
        '        to_break = -(-pool // multiplier) if self.rounding == "ceil" else pool // multiplier\n',
        "        to_break = pool // multiplier\n",
    ),
    Mutant(
        "shield_multiplier_ignored", "combat:500.1-10", "the source's Shield damage multiplier is never read",
        "        multiplier = max(source.shield_multiplier, 1) if source is not None else 1\n",
        "        multiplier = 1\n",
    ),
    Mutant(
        "shield_broken_only_below_zero", "combat:500.1-10", "Shield-broken fires only when the pool goes below 0",
        "            if shield_before - m.drained <= 0:\n",
        "            if shield_before - m.drained < 0:\n",
    ),
    Mutant(
        "missing_dormant_gate", "combat:500.1-2", "a Dormant recipient takes damage like any other",
        "        shut = unit.dormant and not (hit.allows_dormant or hit.is_tick)\n",
        "        shut = False\n",
    ),
    Mutant(
        "dormancy_stops_ticks", "combat:500.1i", "Dormancy also stops Burn and Venom ticks",
        "        shut = unit.dormant and not (hit.allows_dormant or hit.is_tick)\n",
        "        shut = unit.dormant and not hit.allows_dormant\n",
    ),
    Mutant(
        "burn_meets_armor", "combat:500.1d", "Burn and Venom ticks are reduced by Armor",
        '        if not (hit.is_tick or hit.kind == "reflect"):\n',
        '        if hit.kind != "reflect":\n',
    ),
    Mutant(
        "prismbreak_rounds_down", "combat:500.1h", "Prismbreak's +50% rounded down",
        "            tick = -(-3 * tick // 2)\n",
        "            tick = 3 * tick // 2\n",
    ),
    Mutant(
        "ignore_charge_not_spent", "combat:500.1-4", "a damage-ignore charge discards the instance but is kept",
        "            unit.ignore_charges -= 1\n",
        "            unit.ignore_charges -= 0\n",
    ),
    Mutant(
        "defy_death_misses_exact_lethal", "combat:500.1-12", "damage exactly equal to Vitality is not seen as lethal",
        "        defied = unit.defy_death and kept > 0 and kept >= unit.vitality\n",
        "        defied = unit.defy_death and kept > 0 and kept > unit.vitality\n",
    ),
    Mutant(
        "feast_on_absorbed_damage", "combat:500.1e", "Feast fires (for 0) when Shield absorbed the whole instance",
        "        for (uid, _), fed in zip(who, feasts):\n            if fed > 0:\n",
        "        for (uid, _), fed in zip(who, feasts):\n            if fed > 0 or dealt > 0:\n",
    ),
    # --- 500.4 death --------------------------------------------------------------------
    Mutant(
        "death_only_below_zero", "combat:500.1-13", "a unit at exactly 0 Vitality does not die",
        "        if lost > 0 and was_alive and unit.vitality <= 0:\n",
        "        if lost > 0 and was_alive and unit.vitality < 0:\n",
        ("damage", "cost"),
    ),
    Mutant(
        "macabre_for_the_dead", "combat:500.4c", "Macabre is also heard by units already dead",
        "            if other is not unit and other.alive:\n",
        "            if other is not unit:\n",
        ("cost",),
    ),
    Mutant(
        "vessel_not_spent", "combat:500.4d", "a Phylactery revival keeps its Vessel",
        "            unit.vessels -= 1\n",
        "            unit.vessels -= 0\n",
        ("cost",),
    ),
    Mutant(
        "revival_keeps_statuses", "combat:500.9c", "a Vessel revival keeps Entrapped and Prismbreak from the last life",
        "        unit.entrapped = unit.prismbroken = unit.dormant = False\n",
        "        unit.dormant = False\n",
        ("damage", "cost"),
    ),
    Mutant(
        "batch_leaves_out_the_death", "combat:500.4e", "the Vessel Point batch does not count the death itself",
        '        self.bus.publish("vessel_batch", unit.uid, len(self.bus.history) - start, detail="death")\n',
        '        self.bus.publish("vessel_batch", unit.uid, len(self.bus.history) - start - 1, detail="death")\n',
        ("cost",),
    ),
    Mutant(
        "bolster_not_reset", "combat:500.8d", "Bolster keeps its bonus when Vitality is lost",
        'RESET_RUNES = ("adrenaline", "momentum", "bolster")\n',
        'RESET_RUNES = ("adrenaline", "momentum")\n',
        ("cost",),
    ),
    # --- 500.8 costs --------------------------------------------------------------------
    Mutant(
        "cost_spends_shield", "combat:500.8a", "a Vitality cost is paid from Shield first",
        "        price = owed\n",
        "        price, payer.shield = max(owed - max(payer.shield, 0), 0), max(payer.shield - owed, 0)\n",
        ("cost",),
    ),
    Mutant(
        "vitality_not_clamped", "combat:500.8b", "Vitality loss is not clamped: Vitality goes negative",
        "        lost = min(amount, unit.vitality) if unit.alive else 0\n",
        "        lost = amount if unit.alive else 0\n",
        ("damage",),
    ),
    Mutant(
        "interest_keeps_max_vitality", "combat:500.8g", "Interest does not debit maximum Vitality",
        "            payer.max_vitality -= price\n",
        "            payer.max_vitality -= 0\n",
        ("cost",),
    ),
    Mutant(
        "self_destruct_defied", "combat:500.8f", "defy-death answers a self-destruct",
        'DEFY_DEATH_ANSWERS = {"bloodletting": True, "retaliation": True, "interest": False, "self_destruct": False}\n',
        'DEFY_DEATH_ANSWERS = {"bloodletting": True, "retaliation": True, "interest": False, "self_destruct": True}\n',
        ("cost",),
    ),
    Mutant(
        "dormant_payer_refused_for_every_cost", "combat:500.8e", "a Dormant payer is refused for every cost",
        '        if kind == "retaliation" and payer.dormant:\n',
        "        if payer.dormant:\n",
        ("cost",),
    ),
    # --- 500.6, 500.7 retaliation -------------------------------------------------------
    Mutant(
        "thorns_on_nothing", "combat:500.7d", "Thorns and Riposte answer an instance Armor or Shield reduced to nothing",
        "        event = entered and (m.sub_spent + m.ins_spent > 0 or (m.after_shield > 0 if after_shield else lost > 0))\n",
        "        event = entered\n",
        ("hit",),
    ),
    Mutant(
        "retort_on_absorbed_hit", "combat:500.7f", "Retort answers a damage event that landed nothing",
        "            if landed > 0 and unit.retort > 0:\n",
        "            if event and unit.retort > 0:\n",
        ("hit",),
    ),
    Mutant(
        "riposte_ignores_roll", "combat:500.7b", "Riposte fires whatever its 50% roll says",
        "                if rolls.pop(0):\n",
        "                if rolls.pop(0) or True:\n",
        ("hit",),
    ),
    Mutant(
        "retaliation_against_ally", "combat:500.6h", "Thorns answer an ally's damage",
        "        if attacker is unit or attacker.side == unit.side:\n",
        "        if attacker is unit:\n",
        ("hit",),
    ),
    Mutant(
        "reflect_rounds_up", "combat:500.7h", "Reflect's 5% rounded up",
        "        amount = max(5 * landed // 100, 1) if landed > 0 else 0\n",
        "        amount = max(-(-5 * landed // 100), 1) if landed > 0 else 0\n",
        ("hit",),
    ),
    Mutant(
        "reflect_meets_armor", "combat:500.7j", "a boss Reflect is reduced by the attacker's Armor",
        '        if not (hit.is_tick or hit.kind == "reflect"):\n',
        "        if not hit.is_tick:\n",
        ("hit",),
    ),
    # --- 800.4 Bloodletting -------------------------------------------------------------
    Mutant(
        "bloodletting_column_order", "combat:800.4b", "the payer is searched column by column",
        "        side = sorted((u for u in self.board.units if u.side == caster.side), key=lambda u: (u.row, u.col))\n",
        "        side = sorted((u for u in self.board.units if u.side == caster.side), key=lambda u: (u.col, u.row))\n",
        ("bloodletting",),
    ),
    Mutant(
        "bloodletting_boss_pays", "combat:800.4c", "a boss ally may pay another unit's Bloodletting",
        "            if unit.alive and not unit.entrapped and not unit.is_boss:\n",
        "            if unit.alive and not unit.entrapped:\n",
        ("bloodletting",),
    ),
    Mutant(
        "bloodletting_reduction_ignored", "combat:800.4l", "the reduction rune is not applied",
        "        cost = max(printed - self.reduction(caster), 0)\n",
        "        cost = max(printed, 0)\n",
        ("bloodletting",),
    ),
    Mutant(
        "bloodletting_free_payment_continues", "combat:800.4d", "a payment that moved no Vitality does not fail",
        "        if paid <= 0 and (self.defied_fails or was_tool):\n",
        "        if paid < 0 and (self.defied_fails or was_tool):\n",
        ("bloodletting",),
    ),
    # --- the play rulebook (examples/play_engine.py) ------------------------------------
    Mutant(
        "discount_before_increases", "play:356.3", "discounts applied to the total before the increases are added",
        "        stages = (self.add_increases, self.apply_discounts)\n",
        "        stages = (self.apply_discounts, self.add_increases)\n",
        ("play_card", "activate"), "play_engine.py",
    ),
    Mutant(
        "cost_below_zero", "play:356.6", "a discount bigger than the cost takes it below 0",
        "        return max(amount - reduction, 0)\n",
        "        return amount - reduction\n",
        ("play_card", "activate"), "play_engine.py",
    ),
    Mutant(
        "exhausted_can_pay_exhaust", "play:414.1.b", "an exhausted rune or unit can be exhausted again to pay",
        '        return self.game.is_friendly(card) and card.zone == "board" and not card.exhausted\n',
        '        return self.game.is_friendly(card) and card.zone == "board"\n',
        ("play_card", "activate"), "play_engine.py",
    ),
    Mutant(
        "empty_trash_recycle_allowed", "play:416.3", "recycling from a trash with too few cards counts as paid",
        "            if len(targets) != count or len(set(targets)) != count:\n",
        "            if len(set(targets)) != len(targets):\n",
        ("activate", "play_card"), "play_engine.py",
    ),
    Mutant(
        "failed_play_not_undone", "play:358.5", "a cancelled play keeps what it did so far (card on the chain, costs paid)",
        '            game.restore(snapshot)\n            self.events.append({"name": "play_cancelled"',
        '            pass\n            self.events.append({"name": "play_cancelled"',
        ("play_card",), "play_engine.py",
    ),
    Mutant(
        "unit_enters_ready", "play:359.2.c", "a played unit enters the board ready",
        "            card.location = location\n            card.exhausted = True\n",
        "            card.location = location\n            card.exhausted = False\n",
        ("play_card",), "play_engine.py",
    ),
    Mutant(
        "component_discount_on_every_additional", "play:356.4.c",
        "a discount for optional additional costs also reduces the mandatory ones",
        '        return target == "additional" or (target == "optional_additional" and component.get("optional", False))\n',
        '        return target in ("additional", "optional_additional")\n',
        ("play_card",), "play_engine.py",
    ),
    Mutant(
        "declined_optional_cost_charged", "play:355.1.a", "an optional additional cost is charged though declined",
        '            owed = not component.get("optional", False) or choice\n',
        "            owed = True\n",
        ("play_card",), "play_engine.py",
    ),
    Mutant(
        "declining_to_pay_accepted", "play:444.2.a", "a plan that never pays the resources counts them as paid",
        "        self.resources_paid = total.is_free()\n",
        "        self.resources_paid = True\n",
        ("play_card", "activate"), "play_engine.py",
    ),
    # --- 400.8 Abilities --------------------------------------------------------------
    Mutant(
        "count_sampled_at_activation_start", "combat:400.8a", "a 'per' count read off the board as the activation starts",
        "        units = self.board.units  # live: a count reads the board as it is when its line resolves (400.8a)\n",
        "        units = [Unit(u.to_json()) for u in self.board.units]  # live: a count reads the board as it is when its line resolves (400.8a)\n",
        kinds=("ability",),
    ),
    Mutant(
        "condition_checked_at_activation_start", "combat:400.8-4", "a condition checked as the activation starts",
        "        seen = self.board.by_uid  # live: so does a condition (400.8-4)\n",
        "        seen = {u.uid: Unit(u.to_json()) for u in self.board.units}  # live: so does a condition (400.8-4)\n",
        kinds=("ability",),
    ),
    Mutant(
        "zero_count_floored_to_one", "combat:400.8c", "a count of 0 still gives the minimum amount",
        "            amount = base * self.count(caster, per, units) if per else base\n",
        "            amount = base * max(self.count(caster, per, units), 1) if per else base\n",
        kinds=("ability",),
    ),
    Mutant(
        "dead_units_still_counted", "combat:400.8b", "a unit killed by this activation still counts for a 'per'",
        "            if unit.uid == caster.uid or enemy != (per != \"ally\") or not self.countable(unit):\n",
        "            if unit.uid == caster.uid or enemy != (per != \"ally\"):\n",
        kinds=("ability",),
    ),
    Mutant(
        "rider_resolved_against_dead_target", "combat:400.8-5", "the dead-recipient gate is missing",
        "        for reason, refused in ((\"dead\", not unit.alive), (\"entrapped\", unit.entrapped), (\"dormant\", unit.dormant),\n",
        "        for reason, refused in ((\"dead\", False), (\"entrapped\", unit.entrapped), (\"dormant\", unit.dormant),\n",
        kinds=("ability",),
    ),
    Mutant(
        "lanes_out_of_order", "combat:400.8-2", "lines resolve in printed order, whatever their lane",
        "        active.sort(key=lambda p: (LANE_ORDER.index(self.lane_of(p[1])), p[1][\"effect\"] != \"bloodletting\", p[0]))\n",
        "        active.sort(key=lambda p: (p[1][\"effect\"] != \"bloodletting\", p[0]))\n",
        kinds=("ability",),
    ),
    Mutant(
        "crush_after_the_hit", "combat:400.8-2", "Crush lands after the hit",
        'ALWAYS_IN = {"crush": "before_hit", "maim": "after_hit", "cull": "after_hit", "bloodletting": "activation"}\n',
        'ALWAYS_IN = {"crush": "after_hit", "maim": "after_hit", "cull": "after_hit", "bloodletting": "activation"}\n',
        kinds=("ability",),
    ),
    Mutant(
        "passive_line_resolves", "combat:400.8-1", "a Passive line resolves as part of the activation",
        "        active = [(i, line) for i, line in enumerate(lines) if line.get(\"kind\", \"rider\") != \"passive\"]\n",
        "        active = [(i, line) for i, line in enumerate(lines)]\n",
        kinds=("ability",),
    ),
    Mutant(
        "restore_maim_rounds_down", "combat:500.3d", "Maim consumed by a restore rounds down",
        "        unit.maim -= (prevented + 1) // 2\n",
        "        unit.maim -= prevented // 2\n",
        kinds=("ability",),
    ),
    # --- 500.3 Recovery (the recover action) ------------------------------------------
    Mutant(
        "recover_maim_consumption_rounds_down", "combat:500.3d", "Maim consumption is floor(prevented / 2)",
        "        consumed = (prevented + 1) // 2  # ceil(prevented / 2) (500.3d)\n",
        "        consumed = prevented // 2  # ceil(prevented / 2) (500.3d)\n",
        kinds=("recover",),
    ),
    Mutant(
        "recover_exceeds_max_vitality", "combat:500.3c", "a heal is not capped at the missing Vitality",
        "            total = min(total, max(unit.max_vitality - unit.vitality, 0))  # missing Vitality (500.3c)\n",
        "            total = max(total, 0)  # missing Vitality (500.3c)\n",
        kinds=("recover",),
    ),
    Mutant(
        "forge_core_after_the_cap", "combat:500.3b", "the Forge Core bonus is added after the cap, not first",
        "            total = min(total, max(unit.max_vitality - unit.vitality, 0))  # missing Vitality (500.3c)\n",
        "            total = min(amount, max(unit.max_vitality - unit.vitality, 0)) + max(unit.forge_core_recovery, 0)\n",
        kinds=("recover",),
    ),
    Mutant(
        "exalt_after_maim", "combat:500.3f", "Maim meets a Shield gain before Exalt is added",
        "        prevented = min(total, 2 * max(unit.maim, 0))\n",
        "        prevented = min(total - (max(unit.exalt, 0) if lane == \"shield\" else 0), 2 * max(unit.maim, 0))\n",
        kinds=("recover",),
    ),
    Mutant(
        "maim_meets_the_requested_amount", "combat:500.3e", "Maim meets the request before the cap: a full unit consumes Maim",
        "        prevented = min(total, 2 * max(unit.maim, 0))\n",
        "        prevented = min(amount + max(unit.forge_core_recovery, 0), 2 * max(unit.maim, 0))\n",
        kinds=("recover",),
    ),
    Mutant(
        "recovery_reaches_the_entrapped", "combat:500.3g", "the gate lets an Entrapped unit recover",
        "        if unit.entrapped:\n",
        "        if False:\n",
        kinds=("recover",),
    ),
    Mutant(
        "tool_repair_meets_the_gate", "combat:500.3g", "Tool repair is refused for an Entrapped or Dormant Tool",
        "        if lane == \"repair\":  # Tool repair bypasses the gate (500.3g)\n",
        "        if lane == \"repair\" and not (unit.entrapped or unit.dormant):  # Tool repair bypasses the gate (500.3g)\n",
        kinds=("recover",),
    ),
    # --- 500.4a Cull --------------------------------------------------------------------
    Mutant(
        "cull_answered_by_defy_death", "combat:500.4a", "a defy-death rune saves a culled unit",
        "        if unit.alive and not unit.discards_combat:  # nothing prevents it; Tools and Hubs discard it (500.4a)\n",
        "        if unit.alive and not unit.discards_combat and not unit.defy_death:  # Tools and Hubs discard it (500.4a)\n",
        kinds=("cull",),
    ),
    Mutant(
        "cull_destroys_tools", "combat:500.4a", "Cull destroys a Tool or a Hub",
        "        if unit.alive and not unit.discards_combat:  # nothing prevents it; Tools and Hubs discard it (500.4a)\n",
        "        if unit.alive:  # nothing prevents it; Tools and Hubs discard it (500.4a)\n",
        kinds=("cull",),
    ),
    # --- 500.5 Attribution, 500.7e (the tick action) -----------------------------------
    Mutant(
        "tick_shares_lose_the_remainder", "combat:500.5b", "each share is floored and the points left over are lost",
        "        left = total - sum(parts)\n",
        "        left = 0\n",
        kinds=("tick",),
    ),
    Mutant(
        "tick_remainder_ties_to_the_later", "combat:500.5b", "equal remainders give the point to the later applier",
        "        by_remainder = sorted(range(len(weights)), key=lambda i: (parts[i] * whole - total * weights[i], i))\n",
        "        by_remainder = sorted(range(len(weights)), key=lambda i: (parts[i] * whole - total * weights[i], -i))\n",
        kinds=("tick",),
    ),
    Mutant(
        "feast_from_the_whole_tick", "combat:500.5c", "Feast is divided from the whole tick, absorbed damage included",
        "        feasts = self.split(lost, feast_by)\n",
        "        feasts = self.split(dealt, feast_by)\n",
        kinds=("tick",),
    ),
    Mutant(
        "tick_answers_the_first_applier_only", "combat:500.7e", "a shared tick retaliates only against its first applier",
        "        attackers = [uid for uid, _ in hit.weights()]  # each damaging source once (500.7e)\n",
        "        attackers = [hit.source] if hit.source is not None else []  # each damaging source once (500.7e)\n",
        kinds=("tick",),
    ),
    # --- 500.9a The battle clock (advance, end_combat) ---------------------------------
    Mutant(
        "everlasting_at_nine_seconds", "combat:500.9a", "an Everlasting revival comes 9 s after the death",
        "    DELAY_MS = 10_000\n",
        "    DELAY_MS = 9_000\n",
        kinds=("cull", "advance"),
    ),
    Mutant(
        "revival_due_at_the_end_fires_late", "combat:500.9a",
        "a revival due exactly when time stops is left for later (the timer off by one)",
        "            if due[\"next\"] > until:\n",
        "            if due[\"next\"] >= until:\n",
        kinds=("cull", "advance"),
    ),
    Mutant(
        "revival_timer_from_the_battle_start", "combat:500.9a", "the 10 s are counted from the battle's start, not the death",
        "        self.pending.append({\"uid\": uid, \"died\": self.now, \"next\": self.now + self.DELAY_MS, \"killer\": killer})\n",
        "        self.pending.append({\"uid\": uid, \"died\": self.now, \"next\": self.DELAY_MS, \"killer\": killer})\n",
        kinds=("advance", "cull"), max_actions=3,
    ),
    Mutant(
        "revival_forgets_its_killer", "combat:500.9k", "an Everlasting revival no longer carries its killer",
        "        self.bus.publish(\"everlasting_revival\", unit.uid, self.now, killer, \",\".join(map(str, cell)))\n",
        "        self.bus.publish(\"everlasting_revival\", unit.uid, self.now, None, \",\".join(map(str, cell)))\n",
        kinds=("cull", "advance"),
    ),
    Mutant(
        "retry_a_tick_after_the_try", "combat:500.9a", "a delayed revival retries 100 ms after its try, not on the next tick",
        "            due[\"next\"] = (due[\"next\"] // self.TICK_MS + 1) * self.TICK_MS\n",
        "            due[\"next\"] = due[\"next\"] + self.TICK_MS\n",
        kinds=("advance", "cull"), max_actions=4, ruleset=(("everlasting_slot_order", "reading_order"),),
    ),
    # --- 500.9l Reliquary (the ability and bloodletting activations) -------------------
    Mutant(
        "activation_keeps_reliquary_speed", "combat:500.9l", "an activation spends the charge but keeps Reliquary's Speed",
        "        caster.reliquary_speed = 0\n",
        "        caster.reliquary_speed = caster.reliquary_speed  # kept\n",
        kinds=("ability", "bloodletting"),
    ),
)

#: Bugs that only bite late in a battle: each needs a unit's second or third life (``incarnation``), which the
#: default mix never starts a unit in, so none of its one- or two-action scenarios shows them. ``referee check --battle``
#: finds them by living through the revivals (tests/harness/test_harness_battles.py); the exhaustive tiers reach them
#: by starting a unit in a later life (the ``revival/later_lives`` family). Kept apart from :data:`MUTANTS`, which the
#: default mix's kill tables and the vectors are claims about.
LATE_MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "defy_death_rearmed_once", "combat:500.9e", "a revival re-arms a spent defy-death rune only the first time",
        "        unit.defy_death = unit.defy_death or unit.defy_death_spent\n",
        "        unit.defy_death = unit.defy_death or (unit.defy_death_spent and unit.incarnation == 0)\n",
        kinds=("hit", "damage", "cost"), max_actions=200, battle=True,
    ),
    Mutant(
        "reliquary_speed_stacks", "combat:500.9l", "a second revival adds its Reliquary Speed to the Speed still standing",
        "        unit.reliquary_speed = unit.reliquary\n",
        "        unit.reliquary_speed = unit.reliquary + (unit.reliquary_speed if unit.incarnation > 1 else 0)\n",
        kinds=("hit", "damage", "cost", "cull"), max_actions=200, battle=True,
    ),
    Mutant(
        "interest_in_two_lives_only", "combat:500.8g", "Interest stops lowering maximum Vitality after the second revival",
        "            payer.max_vitality -= price\n",
        "            payer.max_vitality -= price if payer.incarnation < 2 else 0\n",
        kinds=("cost", "hit", "damage"), max_actions=200, battle=True,
    ),
    Mutant(
        "armor_rebuilt_once", "combat:500.9c", "battle-start Armor is rebuilt on the first revival only",
        "        unit.armor -= unit.armor_change\n",
        "        unit.armor -= unit.armor_change if unit.incarnation == 0 else 0\n",
        kinds=("armor_debuff", "ability", "hit", "cull"), max_actions=200, battle=True,
    ),
    Mutant(
        "statuses_outlive_later_lives", "combat:500.9c", "Burn, Venom and Maim end with the first life only",
        "        unit.burn = unit.venom = unit.maim = 0  # a running Burn or Venom and Maim end with the life\n",
        "        unit.burn, unit.venom, unit.maim = (0, 0, 0) if unit.incarnation == 0 else (unit.burn, unit.venom, unit.maim)\n",
        kinds=("ability", "hit", "cull"), max_actions=200, battle=True,
    ),
)

BY_NAME = {m.name: m for m in (*MUTANTS, *LATE_MUTANTS)}


def mutated_source(mutant: Mutant) -> str:
    """The engine's source with the mutant's one line changed (exactly one occurrence)."""
    source = mutant.path.read_text()
    count = source.count(mutant.old)
    if count != 1:
        raise ValueError(f"mutant {mutant.name}: its snippet occurs {count} times in {mutant.source} (must be once)")
    return source.replace(mutant.old, mutant.new)


def changed_lines(mutant: Mutant) -> list[str]:
    """The lines that differ between the clean and the mutated engine (``-``/``+`` lines)."""
    clean = mutant.path.read_text().splitlines()
    mutated = mutated_source(mutant).splitlines()
    return [
        line
        for line in difflib.unified_diff(clean, mutated, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


_LOADED: dict[str, types.ModuleType] = {}


def load(name: str) -> types.ModuleType:
    """The engine with mutant ``name`` applied, as a fresh module (cached)."""
    if name not in BY_NAME:
        raise KeyError(f"unknown mutant {name!r} (known: {', '.join(BY_NAME)})")
    if name not in _LOADED:
        mutant = BY_NAME[name]
        module = types.ModuleType(f"referee.examples.engine_mutant_{name}")
        module.__file__ = str(mutant.path)
        code = compile(mutated_source(mutant), f"<{mutant.source}, mutant {name}>", "exec")
        exec(code, module.__dict__)
        if not hasattr(module, "run"):  # a mutated play engine: combat scenarios go to the clean engine
            module.run = _either_rulebook(module.run_play)
        _LOADED[name] = module
    return _LOADED[name]


def load_together(names: tuple[str, ...]) -> types.ModuleType:
    """The combat engine with every mutant in ``names`` applied at once (each must edit its own line)."""
    source = ENGINE_SOURCE.read_text()
    for name in names:
        mutant = BY_NAME[name]
        if source.count(mutant.old) != 1:
            raise ValueError(f"mutant {name!r} does not edit exactly one place of the engine with the others applied")
        source = source.replace(mutant.old, mutant.new)
    module = types.ModuleType("referee.examples.engine_with_" + "_".join(names))
    module.__file__ = str(ENGINE_SOURCE)
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def _either_rulebook(run_play: Any) -> Any:
    """A play mutant's ``run``: play scenarios to the mutated play engine, combat ones to a clean engine.

    The clean engine is built from its source, like every mutant, so this module imports no engine.
    """
    clean = types.ModuleType("referee.examples.engine_clean")
    clean.__file__ = str(ENGINE_SOURCE)
    exec(compile(ENGINE_SOURCE.read_text(), clean.__file__, "exec"), clean.__dict__)
    return lambda scenario: run_play(scenario) if scenario.get("rulebook") == "play" else clean.run(scenario)


def __getattr__(name: str) -> Any:
    """``referee.examples.mutants:<name>`` is that mutant's in-process ``run``."""
    if name in BY_NAME:
        return load(name).run
    raise AttributeError(name)
