"""Designer questions for ``referee query``, with the verdict the model gives: the gallery of docs/query.md.

Each entry is a question in words, the condition, the query's options, the expected verdict
and the clauses that answer it. ``tests/test_query_gallery.py`` runs every entry (the slow
ones under ``--runslow``) and holds the gallery section of ``docs/query.md`` to this list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    condition: str
    expected: str  # found | impossible
    clauses: tuple[str, ...]
    why: str
    options: dict[str, Any] = field(default_factory=dict)
    slow: bool = False
    objective: Any = None  # the expected best value of --maximize/--minimize
    #: The readings it is possible under, as ``--by-reading`` words it (``by_reading.cube_words``): by default every
    #: reading for a ``found``, no reading for an ``impossible``.
    readings: str | None = None

    def possible_under(self) -> str:
        return self.readings or ("every reading" if self.expected == "found" else "no reading")

    def argv(self) -> list[str]:
        """The command line of the question."""
        words = ["referee", "query", self.condition]
        for a in self.options.get("actions", ()):
            words += ["--action", a]
        for key, flag in (("kind", "--kind"), ("units", "--units"), ("maximize", "--maximize"), ("minimize", "--minimize")):
            if key in self.options:
                words += [flag, str(self.options[key])]
        if "relations" in self.options:
            words += ["--source", ",".join(self.options["relations"])]
        if self.options.get("ruleset") == "defaults":
            words += ["--ruleset", "defaults"]
        for name, value in ({} if self.options.get("ruleset") == "defaults" else self.options.get("ruleset", {})).items():
            words += ["--ruleset", f"{name}={value}"]
        if self.options.get("split"):
            words.append("--compare-split")
        if self.objective is None:
            words.append("--by-reading")
        return words


#: The worked example of 400.8: "Deal {power} damage / Burn {burn_amount} / Restore {heal_amount} vitality to
#: allies per Burning enemy", both riders after the hit, cast by `source` at `target`.
WORKED = ("ability:lines=damage({power})@hit!keyword/burn({burn_amount})@after_hit"
          "/restore({heal_amount})@after_hit>allies*burning_enemy")
WORKED_EARLY_HEAL = WORKED.replace("@after_hit>allies", "@activation>allies")

GALLERY: tuple[Question, ...] = (
    Question("riposte-kills-attacker", "Can Riposte kill the attacker?",
             'event("riposte") and not source_after.alive', "found", ("combat:500.7b", "combat:500.6d"),
             "Riposte's roll is an input (500.7b): with a `true` roll the attacker pays and can die."),
    Question("dormant-takes-damage", "Can a Dormant unit lose Vitality to a hit?",
             "target.dormant and outcome.vitality_lost > 0", "found", ("combat:500.1-2",),
             "A source that explicitly allows it damages a Dormant unit (500.1-2, `allows_dormant`)."),
    Question("lethal-redirect", "Can a lethal hit move to an interceptor?", 'event("lethal_redirect")', "found",
             ("combat:500.1f",), "The interceptor is the third unit of the board (500.1f)."),
    Question("ally-redirect", "Can part of a hit move to the redirect receiver?", 'event("redirect")', "found",
             ("combat:500.1-11",), "The receiver is the recipient's ally with `redirect_to` (500.1-11)."),
    Question("riposte-misses", "Can Riposte miss?", 'event("riposte_missed")', "found", ("combat:500.7b",),
             "A `false` roll is a miss; the witness carries exactly the rolls it needs."),
    Question("insurance-absorbed-thorns", "Can a hit fully absorbed by Insurance fire Thorns?",
             'outcome.insurance_spent > 0 and outcome.vitality_lost == 0 and event("thorns", unit="source")', "found",
             ("combat:500.7c", "combat:500.1-9"),
             "An Insurance point spent is a damage event (500.7c, INT-008), so Thorns answers it.",
             {"units": 2, "relations": ("enemy",)}),
    Question("cost-spends-shield", "Can a Vitality cost (Interest) ever spend Shield?",
             'target_after.shield < target.shield and not event("death", unit="target")', "impossible",
             ("combat:500.8a",), "A Vitality cost spends nothing of the damage pipeline (500.8a); only a death "
             "clears Shield (500.4b), which the first question without `not event(\"death\")` finds.",
             {"actions": ("cost:cost_kind=interest",)}),
    Question("bloodletting-cost-spends-shield", "Can a Bloodletting cost spend its payer's Shield?",
             'target_after.shield < target.shield and not event("death", unit="target")', "impossible", ("combat:500.8a",),
             "Bloodletting is a Vitality cost too (500.8a): with no hit answered, Shield never moves.",
             {"actions": ("cost",)}),
    Question("self-destruct-scraps-shield", "Does a self-destruct remove Shield?",
             'target_after.shield < target.shield and event("shield_scrapped")', "found", ("combat:500.8h",),
             "A self-destruct scraps the Shield without a Shield-broken trigger (500.8h).",
             {"actions": ("cost:cost_kind=self_destruct",)}),
    Question("reflect-sets-off-thorns", "Can Reflect set off the attacker's Thorns?",
             'event("reflect") and event("thorns", unit="target", other="source")', "impossible",
             ("combat:500.7k",), "A Reflect starts no damage reactions (500.7k), under every reading (one cell: the readings "
             "the hit reads are solver variables).",
             {"units": 2, "relations": ("enemy",)}),
    Question("reflect-sets-off-thorns-everywhere", "Can Reflect set off the attacker's Thorns, on any board of up to 4 units?",
             'event("reflect") and event("thorns", unit="target", other="source")', "impossible",
             ("combat:500.7k",), "The same question over the whole default space, every reading: a cell per source relation."),
    Question("split-loses-more", "Can splitting damage into two instances lose more Vitality than one instance?",
             "first.amount + second.amount == single.amount and first.amount > 0 and second.amount > 0 "
             "and after.target.vitality < single_after.target.vitality", "found", ("combat:500.1-7",),
             "Yes: the per-instance layers (Insurance points, the post-Armor cap, Armor's flat reduction) "
             "treat two instances differently from one; the split and the single instance share their flags.",
             {"actions": ("damage", "damage"), "split": True, "units": 2, "relations": ("enemy",)}),
    Question("second-hit-kills", "Can a unit survive one hit and die to the next?",
             "after[0].target.alive and not after[1].target.alive", "found", ("combat:500.1-13",),
             "Two actions in order; the states between them are `after[0]`, `after[1]`.",
             {"actions": ("hit", "hit"), "units": 2, "relations": ("enemy",)}),
    Question("shielded-dies-to-burn", "Can a shielded unit die to one Burn tick?", "target.shield > 0 and outcome.died",
             "found", ("combat:500.1h", "combat:500.1-10"), "A tick larger than Shield and Vitality together.",
             {"kind": "burn", "units": 2, "relations": ("enemy",)}),
    Question("tool-dies", "Can a Tool die to damage?", "target.is_tool and outcome.died", "impossible",
             ("combat:500.1-1",), "Damage aimed at a Tool is discarded (500.1-1).",
             {"actions": ("damage",), "units": 2, "relations": ("enemy",)}),
    Question("vitality-rises", "Can a hit raise its recipient's Vitality?", "target_after.vitality > target.vitality",
             "found", ("combat:500.9b",), "A Phylactery unit killed by the hit returns at full Vitality (500.9b-c).",
             {"actions": ("damage",)}),
    Question("vitality-rises-without-vessel", "Without a Vessel, can damage raise Vitality?",
             "target_after.vitality > target.vitality and target.vessels == 0", "impossible", ("combat:500.1-13",),
             "Damage only takes Vitality; only a Vessel revival gives it back.",
             {"actions": ("damage",), "units": 2, "relations": ("enemy",)}),
    Question("debuff-raises-armor", "Can an Armor-shredding debuff raise Armor?", "target_after.armor > target.armor",
             "impossible", ("combat:500.2e",), "Crush lowers Armor; a negative amount lowers nothing (500.2e).",
             {"actions": ("armor_debuff",)}),
    Question("roar-lowers-armor", "Does Piercing Roar lower Armor?", "target_after.armor < target.armor",
             "impossible", ("combat:500.2e",), "Piercing Roar touches Power and Speed only (500.2e).",
             {"actions": ("armor_debuff:debuff=piercing_roar",)}),
    Question("bloodletting-kills-payer-hit-lands", "Can a Bloodletting payment kill its payer and the hit still land?",
             'first.bloodletting.paid >= target.vitality and event("damage_taken", unit="source")', "found",
             ("combat:800.4j",),
             "The activation goes on after a lethal payment (800.4j).", {"actions": ("bloodletting",)}),
    Question("negative-armor-more-than-doubles", "Can negative Armor more than double a hit?",
             "target.armor < 0 and outcome.amount > 0 and outcome.after_armor > 2 * outcome.amount", "found",
             ("combat:500.2d",),
             "Only under INT-001's `reciprocal` reading, which grows without bound; `mirror` amplifies by "
             "(20 + 2*sqrt(B)) / (20 + sqrt(B)), never twice.",
             {"units": 2, "relations": ("enemy",)}, readings="negative_armor=reciprocal"),
    Question("redirect-moves-more-than-cap", "Can the ally redirect move more than its cap?",
             "outcome.redirected > target.redirect_cap", "found", ("combat:500.1-11",),
             "Only under INT-003's `excess_over_cap` reading, which moves what exceeds the cap; `up_to_cap` moves at "
             "most the cap.",
             {"units": 3, "relations": ("enemy",)}, readings="redirect_cap_moves=excess_over_cap"),
    Question("burn-advances-stagger", "Can a Burn tick advance a boss's Stagger meter?",
             'event("stagger", unit="target")', "found", ("combat:500.6g",),
             "Stagger counts direct damage (500.6g); a Burn tick counts only under INT-401's `every_instance` reading.",
             {"kind": "burn", "units": 2, "relations": ("enemy",)}, readings="stagger_lanes=every_instance"),
    Question("bloodletting-paid-negative", "Can a Bloodletting payment be negative?",
             "first.bloodletting.paid < 0", "impossible", ("combat:800.4g", "combat:800.4l"),
             "The reduced cost is never below 0 (800.4l) and what moves is clamped to the payer's Vitality (800.4g); "
             "the payer is whichever unit reading order chooses, every choice one condition of the cell (800.4b).",
             {"actions": ("bloodletting",), "units": 2, "relations": ("enemy",)}),
    Question("bloodletting-caster-pays-past-eligible-ally",
             "Can a caster pay its own Bloodletting when an eligible ally stands before it in reading order?",
             'target.side == source.side and target.alive and not target.entrapped and not target.is_boss '
             'and not source.is_boss and event("bloodletting_paid", unit="source")', "impossible",
             ("combat:800.4b", "combat:800.4c"),
             "The first eligible unit of the caster's half in reading order pays (800.4b), often not the caster; "
             "only a dead, Entrapped or boss unit ahead of it is skipped (800.4c), which the same question without "
             "those guards finds.",
             {"actions": ("bloodletting:caster=source",), "units": 2}),
    Question("bloodletting-cost-split", "Can a Bloodletting cost be paid by two units?",
             'count("bloodletting_paid") > 1', "impossible", ("combat:800.4e",),
             "One unit pays the full cost; it is never split (800.4e): three units on the caster's half, one payer.",
             {"actions": ("bloodletting",), "units": 3}),
    Question("most-vitality-through-shield", "The most Vitality a 30-damage hit takes from a unit with 10 Shield and no Armor",
             "first.amount == 30 and target.shield == 10 and target.armor == 0 and target.insurance == 0 "
             "and target.subrogated == 0", "found", ("combat:500.1-10",),
             "All 30 under `shield_multiplier_rounding=floor` (INT-002): a multiplier above 10 leaves the pool "
             "absorbing nothing; 29 under the default `ceil`.",
             {"actions": ("damage",), "units": 2, "relations": ("enemy",), "maximize": "target.vitality - target_after.vitality"},
             objective=30),
    Question("worked-example-restores-nothing",
             "Can 'Deal {power} damage / Burn / Restore per Burning enemy' killing its only target restore any Vitality?",
             'not target_after.alive and count("vitality_restored") > 0', "impossible",
             ("combat:400.8-3", "combat:400.8b", "combat:400.8c"),
             "The heal samples \"per Burning enemy\" when it resolves, after the hit: the dead target no longer "
             "counts (400.8b), the count is 0, and 0 is not floored to 1 (400.8c). Every card number, unit field "
             "and reading.",
             {"actions": (WORKED,), "units": 3}),
    Question("worked-example-second-enemy-burning",
             "With a second enemy on the board, can the worked example restore Vitality after killing its target?",
             "not target_after.alive and first.line2.total > 0", "found", ("combat:400.8a", "combat:400.8-3"),
             "A second enemy that is Burning when the heal resolves counts (400.8a): the witness has it burn 1.",
             {"actions": (WORKED,), "units": 4}),
    Question("worked-example-heal-first",
             "If the heal is printed in the activation lane, can it restore Vitality though the hit kills the only target?",
             'not target_after.alive and count("vitality_restored") > 0', "found", ("combat:400.8-2", "combat:400.8a"),
             "The activation lane resolves before the hit (400.8-2): the target is still alive and Burning when the "
             "count is sampled.",
             {"actions": (WORKED_EARLY_HEAL,), "units": 3}),
    Question("zero-count-not-floored", "Can a per-count line do anything when its count is 0?",
             "first.line0.count == 0 and first.line0.total > 0", "impossible", ("combat:400.8c",),
             "A count of 0 gives 0, never a floor of 1 (400.8c).",
             {"actions": ("ability:lines=restore>allies*venomed_enemy",), "units": 3}),
    Question("burn-reaches-untargetable", "Can an ability's Burn reach an untargetable enemy?",
             "target.untargetable and target_after.burn > target.burn", "impossible", ("combat:400.8-5",),
             "An untargetable recipient receives nothing (400.8-5); `line_refused` says why.",
             {"actions": ("ability:lines=burn>enemies",), "units": 3}),
    Question("cull-above-its-amount", "Can Cull destroy a unit whose Vitality is above the Cull's amount?",
             'event("culled") and target.vitality > first.line0.base', "found", ("combat:400.8-6", "combat:500.4a"),
             "Under the model's reading Cull destroys a living recipient at or below its amount only (500.4a, INT-209); "
             "an engine reading 'Cull N' as destroying every recipient its gates let through declares "
             "cull_line_test=unconditional, and only there is it possible.",
             {"actions": ("ability:lines=cull",), "units": 2}, readings="cull_line_test=unconditional"),
    Question("any-one-line-ability-raises-vitality", "Which one-line ability can raise its target's Vitality?",
             "target_after.vitality > target.vitality", "found", ("combat:400.8-7", "combat:500.9b"),
             "No lines given: every one-line ability is searched (29 texts); the first, a hit, already does it: a "
             "Vessel unit killed by the hit returns at full Vitality (500.9b).",
             {"actions": ("ability",), "units": 2}),
    Question("one-line-ability-heals-without-revival",
             "Without a Vessel or Everlasting, which one-line ability raises its target's Vitality?",
             "target_after.vitality > target.vitality and target.vessels == 0 and not target.everlasting", "found",
             ("combat:400.8-7", "combat:500.3c"),
             "A Restore at the target (recovery, 500.3c); the search takes the first cell of every text before any "
             "other reading, so the damage texts' many readings do not come first.",
             {"actions": ("ability",), "units": 2}),
    Question("maim-lets-a-recovery-through", "Can a unit with Maim recover Vitality without spending any Maim?",
             "target.maim > 0 and target_after.maim == target.maim and target_after.vitality > target.vitality",
             "found", ("combat:500.3d", "combat:500.3e"),
             "Maim comes last in the ledger and prevents 2 a point: any Vitality it lets through has met it, and "
             "ceil(prevented / 2) is consumed (500.3d); every lane is searched. Only where Maim meets heals alone "
             "(maim_lanes=heals_only, INT-306) does a repair pass it untouched.",
             {"actions": ("recover",), "units": 2}, readings="maim_lanes=heals_only"),
    Question("defy-death-stops-cull", "Can a defy-death rune keep a culled unit alive (no Vessel)?",
             "target.defy_death and first.culled and target_after.alive and target.vessels == 0", "impossible",
             ("combat:500.4a",), "Cull destroys outright: no rune, Shield or Insurance answers it (500.4a); only a "
             "Vessel brings the unit back in place, and Everlasting waits for the clock.",
             {"actions": ("cull",), "units": 3}),
    Question("shared-tick-thorns-each-applier", "Can one shared Burn tick set off Thorns against both its appliers?",
             'count("thorns") == 2', "found", ("combat:500.7e", "combat:500.5b"),
             "Each enemy applier of a shared tick is answered once (500.7e): two appliers, two Thorns.",
             {"actions": ("tick:appliers=source+ally",), "units": 3}),
    Question("everlasting-back-within-9s", "Can an Everlasting unit be back within 9 s of its death?",
             "not after[0].target.alive and after[1].target.alive and second.ms <= 9000", "impossible",
             ("combat:500.4d", "combat:500.9a"),
             "Everlasting returns 10 seconds after the death, exactly (500.4d, 500.9a); a Vessel would revive it "
             "at once, within the hit, so it is never dead after it.",
             {"actions": ("hit", "advance")}),
    Question("everlasting-back-at-10s", "Can an Everlasting unit come back exactly 10 s after its death?",
             "not after[0].target.alive and after[1].target.alive and second.ms == 10000", "found",
             ("combat:500.4d", "combat:500.9a"),
             "The try at death + 10 s finds its cell of death free and revives it there (500.9a, INT-404).",
             {"actions": ("hit", "advance")}),
    Question("culled-everlasting-back-within-9s", "Can a culled Everlasting unit be back within 9 s, under any reading?",
             "not after[0].target.alive and after[1].target.alive and second.ms <= 9000", "impossible",
             ("combat:500.4d", "combat:500.9a", "combat:500.4a"),
             "The same 10 seconds after a Cull (500.4a, 500.4d), over every ruleset reading: a Cull and the clock "
             "read no option (the slot order decides only the cell a revival lands in, which no condition reads).",
             {"actions": ("cull", "advance")}),
    Question("everlasting-late-death-due-later", "Is a unit killed 5 s into the battle back before 15 s?",
             "first.ms == 5000 and not after[1].target.alive and after[2].target.alive and third.now < 15000",
             "impossible", ("combat:500.4d",),
             "The 10 seconds run from the death, not from the battle's start (500.4d).",
             {"actions": ("advance", "hit", "advance")}),
    Question("no-revival-after-end-combat", "Can an Everlasting revival still happen once combat has ended?",
             'event("everlasting_revival")', "impossible", ("combat:500.9a",),
             "A try happens only \"if combat is still running\" (500.9a): `end_combat` lapses it.",
             {"actions": ("hit", "end_combat", "advance")}),
    Question("everlasting-delayed-for-a-slot", "Can an Everlasting revival be delayed for want of a slot?",
             'event("everlasting_delayed")', "found", ("combat:500.9a",),
             "Only on a full half, and only when the revival takes the first free slot in reading order (INT-404): "
             "under `death_cell_first` a unit's cell of death is never held, so it always returns there.",
             {"actions": ("cull", "advance"), "units": 2}, readings="everlasting_slot_order=reading_order"),
    Question("play-discount-below-zero", "Can discounts take a card's Energy or Power cost below 0?",
             "first.total.energy < 0 or first.total.power < 0 or first.total.any_power < 0", "impossible",
             ("play:356.6", "play:356.4"),
             "No discount takes an Energy or Power cost below 0 (356.6): the seed's card with an increase, Ezreal's "
             "discount and two whole-cost discounts, every number free, each payment plan and reading.",
             {"actions": ("play_card",)}),
    Question("play-optional-exhaust-unpaid", "Can a card be played when its chosen optional exhaust cost was not paid?",
             "first.played and first.pay_optional and not first.exhaust_paid", "impossible",
             ("play:358.2", "play:414.4", "play:355.1.a"),
             "A chosen optional cost is owed, and an exhaust that cannot be completed is not paid (414.4): the "
             "check of 358.2 fails and the play is undone.",
             {"actions": ("play_card",)}),
    Question("play-exhausted-unit-pays-exhaust", "Can an exhausted friendly unit pay the optional \"exhaust a friendly unit\" cost?",
             "first.played and first.pay_optional and before.ally.exhausted", "impossible",
             ("play:414.4", "play:414.1.b", "play:358.2"),
             "The seed's own example of 414.4: an exhausted unit cannot be exhausted again (414.1.b), so the cost is "
             "not paid and the play is undone (each plan of the space names `ally` for that cost).",
             {"actions": ("play_card",)}),
    Question("play-cancelled-leaves-state", "Does a cancelled play change the pool, a rune or a card's zone?",
             "first.cancelled and (after.pool.energy != before.pool.energy or after.pool.power != before.pool.power "
             "or after.rune_a.exhausted != before.rune_a.exhausted or after.rune_b.zone != before.rune_b.zone "
             "or after.ally.zone != before.ally.zone or after.card.zone != before.card.zone)", "impossible",
             ("play:358.5",),
             "Every action of a cancelled play is undone (358.5), the runes used to pay and the costs paid included.",
             {"actions": ("play_card",)}),
    Question("play-empty-pool-runes-pay", "Can a card with an Energy cost be played from an empty pool?",
             "first.played and before.pool.energy == 0 and before.pool.power == 0 and first.total.energy > 0",
             "found", ("play:357.1.a", "play:164.2.a"),
             "Yes: during payment a ready Basic Rune on the board is exhausted for its Energy (357.1.a, 164.2.a).",
             {"actions": ("play_card",)}),
    Question("activate-exhausted-rune-adds-energy", "Can an exhausted Basic Rune still add Energy?",
             "before.rune_a.exhausted and after.pool.energy > before.pool.energy", "impossible",
             ("play:414.1.b", "play:164.2.a", "play:203.3"),
             "Its cost is \"exhaust this\" (164.2.a, 414.5); an exhausted rune cannot be exhausted again (414.1.b), "
             "so the cost is impossible and its linked effect does not happen (203.3).",
             {"actions": ("activate:ability=exhaust",)}),
    Question("activate-vi-empty-trash", "Can Vi's \"Recycle 1 from your trash\" give Might with nothing in the trash?",
             "first.effect_happened and not before.trash_card.in_trash", "impossible", ("play:416.3", "play:203.3"),
             "The seed's own example of 416.3: with no card in the trash the recycle cannot be completed, so the "
             "ability cannot be activated (the space's one candidate card for the trash is `trash_card`).",
             {"actions": ("activate:ability=vi",)}),
    Question("activate-effect-without-cost", "Can any of the theorems' abilities have its effect without its cost paid?",
             "first.effect_happened and not first.cost_paid", "impossible", ("play:202", "play:203", "play:403.1.a"),
             "Costs must be paid to get their linked effect (203): each ability (a rune's exhaust and recycle, Vi's "
             "recycle from the trash, a paid exhaust-this buff) is a cell.",
             {"actions": ("activate",)}),
)
