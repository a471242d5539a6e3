"""A held-out combat-rules engine for referee, written from the seeds and docs alone.

Entry point: ``run(scenario: dict) -> dict`` (``--python tests.heldout.python_engine.engine:run``).

Structure (the way a game engine would be built, with shared helpers):

* ``Battle.resolve_instance``   the one damage-instance pipeline (500.1): hits, ticks, redirected parts
* ``Battle.pay_vitality_cost``  the one Vitality-cost operation (500.8): the ``cost`` action,
                                Bloodletting payments, retaliation (Thorns, Riposte, Retort) and
                                Subrogated Insurance paybacks
* ``Battle.lose_vitality``      Vitality leaving a unit and its loss listeners (500.6c, 500.8d)
* ``Battle.kill``               the one death routine (500.4)
* ``Battle.credit``             credit and Feast (500.5a, 500.6f)
* ``Battle.spend_defy_death``   the defy-death rune, shared by damage (500.1-12) and costs (500.8f)
* ``Battle.answer``             what answers a damage event (500.6, 500.7)

Seeded bugs: ``BUGS`` (a set of names) plus the ``HELDOUT_BUGS`` environment variable (comma
separated, read at call time) switch them on; ``bugs.py`` documents each.
"""

from __future__ import annotations

import copy
import os

PROTOCOL = "referee/2"

IMPLEMENTED_KINDS = ("damage", "hit", "cost", "bloodletting")

TICK_KINDS = ("burn", "venom")
DIRECT_KINDS = ("hit", "tremor", "aoe")  # INT-401: what advances a boss's Stagger
DEFY_DEATH_COSTS = ("retaliation", "bloodletting")
LOSS_RUNES = ("adrenaline", "momentum", "bolster")

DEFAULT_RULESET = {
    "negative_armor": "mirror",
    "shield_multiplier_rounding": "ceil",
    "redirect_cap_moves": "up_to_cap",
    "defy_death_leaves": 1,
    "lethal_redirect_test": "would_kill",
    "bloodletting_defied_to_zero": "fails",
    "riposte_roll_on_refused": "consumed",
    "damage_event_test": "reached_vitality",
}

UNIT_DEFAULTS = {
    "side": 0, "row": 0, "col": 0, "is_tool": False, "is_hub": False, "is_boss": False,
    "alive": True, "vitality": 100, "max_vitality": 100, "dormant": False, "entrapped": False,
    "ignore_charges": 0, "armor": 0, "has_cap": False, "cap": 0, "subrogated": 0,
    "insurance": 0, "shield": 0, "defy_death": False, "shield_multiplier": 1,
    "prismbroken": False, "rune_tick_reduction": 0, "forge_tick_reduction": 0, "thorns": 0,
    "riposte": 0, "retort": 0, "reflect": False, "adrenaline": 0, "momentum": 0, "bolster": 0,
    "redirect_to": None, "redirect_cap": 0, "intercept_by": None, "charge": 0,
    "defy_death_spent": False, "reliquary": 0, "reliquary_speed": 0,
    "bloodletting_reduction": 0,
}

# Seeded bugs switched on for every call (tests and bugs.py add to it through engine_with).
BUGS: set[str] = set()


def active_bugs(extra=()) -> frozenset:
    names = set(BUGS) | set(extra)
    env = os.environ.get("HELDOUT_BUGS", "")
    names |= {n.strip() for n in env.split(",") if n.strip()}
    return frozenset(names)


class Unsupported(Exception):
    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


# ---------------------------------------------------------------------------------------------
# exact arithmetic helpers
# ---------------------------------------------------------------------------------------------

def ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def least(lo: int, hi: int, ok) -> int:
    """The least s in [lo, hi] with ok(s), ok monotone (false ... true); hi must satisfy it."""
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def armor_percentage(damage: int, armor: int, negative_reading: str, float_armor: bool = False) -> int:
    """500.2a/500.2c/500.2d: the damage surviving Armor's percentage step, rounded up."""
    if damage <= 0 or armor == 0:
        return damage
    if armor > 0:
        if float_armor:
            import math
            return math.ceil(damage * (1 - math.sqrt(armor) / (math.sqrt(armor) + 20)))
        # least s with s * (sqrt(A) + 20) >= 20 d  <=>  s >= d or (s*s*A >= (20(d - s))^2)
        return least(0, damage, lambda s: s >= damage or s * s * armor >= (20 * (damage - s)) ** 2)
    b = -armor
    if negative_reading == "reciprocal":
        # least s with 20 s >= d (sqrt(B) + 20)  <=>  s >= d and (20 (s - d))^2 >= B d^2
        hi = damage + ceildiv(damage * (isqrt_up(b)), 20) + 1
        return least(damage, hi, lambda s: (20 * (s - damage)) ** 2 >= b * damage * damage)
    # mirror: least s with s (20 + sqrt B) >= d (20 + 2 sqrt B)
    #   <=> 20 (s - d) >= sqrt(B) (2d - s)
    return least(damage, 2 * damage,
                 lambda s: s >= 2 * damage or (20 * (s - damage)) ** 2 >= b * (2 * damage - s) ** 2)


def isqrt_up(n: int) -> int:
    import math
    r = math.isqrt(n)
    return r if r * r == n else r + 1


def armor_flat(damage: int, armor: int) -> int:
    """500.2b: 1 per 5 Armor, after the percentage, never below 0; none below 0 Armor (500.2d)."""
    if armor <= 0:
        return damage
    return max(0, damage - armor // 5)


# ---------------------------------------------------------------------------------------------
# the battle
# ---------------------------------------------------------------------------------------------

class Instance:
    def __init__(self, target, amount, source=None, kind="hit", allows_dormant=False,
                 redirected=False, adjusted=False):
        self.target = target
        self.amount = amount
        self.source = source
        self.kind = kind
        self.allows_dormant = allows_dormant
        self.redirected = redirected
        self.adjusted = adjusted

    def moved(self, target, amount):
        return Instance(target, amount, self.source, self.kind, self.allows_dormant,
                        redirected=True, adjusted=True)


class Outcome:
    def __init__(self, unit, kind="hit"):
        self.unit = unit
        self.kind = kind
        self.entered = False
        self.points_spent = 0
        self.vitality_lost = 0
        self.shield_absorbed = 0
        self.left_after_shield = 0
        self.interceptor = None      # (uid, Outcome)
        self.receiver = None         # (uid, Outcome)

    @property
    def landed(self):
        return self.vitality_lost > 0


class Battle:
    def __init__(self, scenario: dict, bugs: frozenset):
        self.bugs = bugs
        rules = dict(DEFAULT_RULESET)
        rules.update(scenario.get("ruleset") or {})
        self.rules = rules
        self.given = [dict(u) for u in scenario.get("board", [])]
        self.units = {}
        self.order = []
        for u in self.given:
            full = dict(UNIT_DEFAULTS)
            full.update(copy.deepcopy(u))
            self.units[full["uid"]] = full
            self.order.append(full["uid"])
        self.events = []

    # -- plumbing ---------------------------------------------------------------------------
    def bug(self, name):
        return name in self.bugs

    def emit(self, name, unit, amount=0, other=None, detail=None):
        self.events.append({"name": name, "unit": unit, "amount": amount, "other": other,
                            "detail": detail})

    def u(self, uid):
        return self.units[uid] if uid is not None else None

    def is_tool_or_hub(self, uid):
        unit = self.u(uid)
        return bool(unit["is_tool"] or unit["is_hub"])

    def allies(self, a, b):
        return self.u(a)["side"] == self.u(b)["side"]

    def hostility(self, payer, retaliator):
        """500.6h: 'self', 'ally' or None (an enemy). Shared by every retaliation."""
        if payer == retaliator:
            return "self"
        if self.bug("retaliation_hits_allies"):
            return None
        if self.allies(payer, retaliator):
            return "ally"
        return None

    # -- Vitality leaving a unit, credit, death ----------------------------------------------
    def loss_listeners(self, uid, lost):
        """500.6c, 500.8d: what is keyed to losing Vitality."""
        unit = self.u(uid)
        self.emit("vitality_lost", uid, lost)
        for rune in LOSS_RUNES:
            if unit[rune] > 0:
                unit[rune] = 0
                self.emit("rune_reset", uid, 0, None, rune)
        self.emit("threshold_reevaluated", uid)

    def boss_meters(self, boss, dealer, lost, dealt, direct):
        """500.6g: Phasebreak on Vitality lost; Stagger on direct damage only."""
        if lost > 0:
            self.emit("phasebreak_check", boss, lost, dealer)
        if direct and dealt > 0:
            self.emit("stagger", boss, dealt, dealer)

    def credit(self, dealer, victim, credited, fed):
        """500.5a, 500.1e, 500.6f: credit (Shield absorbed + Vitality) then Feast (Vitality)."""
        if dealer is None:
            return
        if credited > 0:
            self.emit("credit", dealer, credited, victim)
        if fed > 0 or (self.bug("feast_of_zero") and credited > 0):
            self.emit("feast", dealer, fed, victim)

    def kill(self, uid, killer):
        """500.4: the one death routine."""
        unit = self.u(uid)
        self.emit("death", uid, 0, killer)
        pooled = 1
        unit["alive"] = False
        unit["vitality"] = 0
        unit["shield"] = 0
        unit["charge"] = 0
        for rune in LOSS_RUNES:
            unit[rune] = 0
        for other in self.order:
            if other == uid or not self.units[other]["alive"]:
                continue
            if self.bug("macabre_allies_only") and not self.allies(other, uid):
                continue
            self.emit("macabre", other, 0, uid)
            pooled += 1
        if unit.get("deathrattle"):
            self.emit("deathrattle", uid)
            pooled += 1
        self.emit("vessel_batch", uid, pooled, None, "death")

    def spend_defy_death(self, uid, asked, other):
        """500.1-12 / 500.8f: a lethal amount is cut to leave the rune's floor; the charge is
        spent. Returns the amount that still goes through."""
        unit = self.u(uid)
        floor = int(self.rules.get("defy_death_leaves", 1))
        through = max(0, unit["vitality"] - floor)
        self.emit("defy_death", uid, asked - through, other)
        if not self.bug("defy_charge_kept"):
            unit["defy_death"] = False
            unit["defy_death_spent"] = True
        return through

    # -- the one Vitality cost ----------------------------------------------------------------
    def refusal(self, payer, kind, beneficiary, side_rules):
        unit = self.u(payer)
        if kind == "retaliation" and side_rules and beneficiary is not None:
            side = self.hostility(payer, beneficiary)
            if side:
                return side
        if not unit["alive"] and not self.bug("dead_payer_pays"):
            return "dead"
        if unit["entrapped"]:
            return "entrapped"
        if kind == "retaliation" and unit["dormant"]:
            return "dormant"
        return None

    def pay_vitality_cost(self, payer, price, kind, channel="cost_paid", beneficiary=None,
                          side_rules=True):
        """500.8: returns the Vitality that actually left the payer, or None when refused."""
        unit = self.u(payer)
        why = self.refusal(payer, kind, beneficiary, side_rules)
        if why:
            self.emit("cost_refused", payer, 0, beneficiary, why)
            return None
        if self.is_tool_or_hub(payer) or not unit["alive"]:
            return 0                                   # 500.8e: pays nothing at all
        if kind == "self_destruct":
            if unit["shield"] > 0:
                self.emit("shield_scrapped", payer, unit["shield"])
                unit["shield"] = 0
            asked = unit["vitality"]
        else:
            asked = max(0, price)
        if self.bug("cost_spends_shield") and unit["shield"] > 0 and asked > 0:
            soaked = min(unit["shield"], asked)
            unit["shield"] -= soaked
            asked -= soaked
        pay = min(asked, unit["vitality"])
        if (kind in DEFY_DEATH_COSTS and unit["defy_death"] and asked > 0
                and asked >= unit["vitality"]):
            pay = self.spend_defy_death(payer, asked, beneficiary)
        if pay <= 0:
            return 0
        if self.bug("cost_listeners_first"):
            unit["vitality"] -= pay
            self.loss_listeners(payer, pay)
            unit["vitality"] += pay
        detail = kind if channel == "cost_paid" else None
        self.emit(channel, payer, pay, beneficiary, detail)
        if kind == "interest" or (self.bug("every_cost_debits_maximum") and kind == "bloodletting"):
            unit["max_vitality"] -= pay
            self.emit("max_vitality_lowered", payer, pay)
        if kind == "retaliation":
            # 500.6f: against a boss it scores but feeds no Feast; 500.6g: Phasebreak, no Stagger
            self.credit(beneficiary, payer, pay, 0 if unit["is_boss"] else pay)
            if unit["is_boss"] and beneficiary is not None:
                self.boss_meters(payer, beneficiary, pay, pay, direct=False)
        unit["vitality"] -= pay
        if not self.bug("cost_skips_listeners") and not self.bug("cost_listeners_first"):
            self.loss_listeners(payer, pay)
        if unit["vitality"] <= 0:
            killer = beneficiary if kind == "retaliation" else None
            self.kill(payer, killer)
        return pay

    # -- the one damage-instance pipeline --------------------------------------------------------
    def reachable(self, uid, inst):
        unit = self.u(uid)
        if not unit["alive"] or unit["is_tool"] or unit["is_hub"]:
            return False
        if unit["dormant"] and not (inst.allows_dormant or inst.kind in TICK_KINDS):
            return False
        return True

    def ally_receiver(self, recipient, receiver, inst):
        if receiver is None or receiver == recipient or receiver not in self.units:
            return False
        return self.allies(recipient, receiver) and self.reachable(receiver, inst)

    def mitigate(self, uid, amount, inst):
        """Steps 500.1-5 .. 500.1-7 (Armor then the cap): returns what is left."""
        unit = self.u(uid)
        left = amount
        if self.bug("cap_before_armor") and unit["has_cap"]:
            left = min(left, unit["cap"])
        if inst.kind not in TICK_KINDS and inst.kind != "reflect":
            left = armor_percentage(left, unit["armor"], self.rules["negative_armor"],
                                    float_armor=self.bug("float_armor"))
            left = armor_flat(left, unit["armor"])
        if unit["has_cap"] and not self.bug("cap_before_armor"):
            left = min(left, unit["cap"])
        return left

    @staticmethod
    def points_for(left, points, round_down=False):
        """500.1a: each point absorbs up to 25, is spent whole; returns (spent, absorbed)."""
        need = left // 25 if round_down else ceildiv(left, 25)
        spent = min(points, need)
        return spent, min(left, 25 * spent)

    def would_kill(self, uid, amount, inst):
        """INT-006: resolve steps 4..13 on a copy, no redirect: does the unit die?"""
        unit = self.u(uid)
        if unit["ignore_charges"] > 0:
            return False
        left = self.mitigate(uid, amount, inst)
        for pool in ("subrogated", "insurance"):
            _, absorbed = self.points_for(left, unit[pool])
            left -= absorbed
        left -= self.shield_take(uid, left, inst)[1]
        if left >= unit["vitality"] and unit["defy_death"]:
            return False
        return left >= unit["vitality"]

    def shield_take(self, uid, left, inst):
        """500.1-10: returns (drained, absorbed)."""
        unit = self.u(uid)
        pool = unit["shield"]
        if pool <= 0 or left <= 0:
            return 0, 0
        mult = 1
        if inst.source is not None and inst.source in self.units:
            mult = max(1, int(self.u(inst.source)["shield_multiplier"]))
        if left * mult <= pool:
            return left * mult, left
        if self.rules.get("shield_multiplier_rounding") == "floor":
            return pool, pool // mult
        return pool, ceildiv(pool, mult)

    def resolve_instance(self, inst: Instance) -> Outcome:
        uid = inst.target
        unit = self.u(uid)
        out = Outcome(uid, inst.kind)
        amount = inst.amount
        # 500.1h: a tick is adjusted before the gates
        if inst.kind in TICK_KINDS and not inst.adjusted:
            raw = amount
            if unit["prismbroken"]:
                amount = ceildiv(3 * amount, 2)
            amount -= unit["rune_tick_reduction"]
            amount -= unit["forge_tick_reduction"]
            if raw > 0 and amount <= 0:
                if unit["alive"]:
                    self.emit("tick_prevented", uid, raw, inst.source, inst.kind)
                return out
        # 500.1-3 (checked first so that every discard is of a positive instance, INT-016)
        if not unit["alive"] or amount <= 0:
            return out
        # 500.1-1, 500.1-2
        if unit["is_tool"] or unit["is_hub"]:
            self.emit("damage_discarded", uid, amount, inst.source, "tool_or_hub")
            return out
        if unit["dormant"] and not (inst.allows_dormant or inst.kind in TICK_KINDS):
            self.emit("damage_discarded", uid, amount, inst.source, "dormant")
            return out
        below_armor = inst.kind == "reflect" and self.rules.get("reflect_entry") == "below_armor"
        # 500.1f: the lethal-damage redirect
        if (not inst.redirected and not below_armor
                and self.ally_receiver(uid, unit["intercept_by"], inst)):
            if self.rules.get("lethal_redirect_test") == "raw_amount":
                lethal = amount >= unit["vitality"]
            else:
                lethal = self.would_kill(uid, amount, inst)
            if lethal:
                to = unit["intercept_by"]
                self.emit("lethal_redirect", uid, amount, to)
                out.interceptor = (to, self.resolve_instance(inst.moved(to, amount)))
                return out
        # 500.1-4
        if unit["ignore_charges"] > 0 and not below_armor:
            unit["ignore_charges"] -= 1
            self.emit("ignore_charge_spent", uid, 0, inst.source)
            return out
        out.entered = True
        left = amount
        if self.bug("shield_before_insurance"):
            left = self.mitigate(uid, left, inst)
            left = self.shield_step(uid, left, inst, out)
            left = self.insurance_step(uid, left, inst, out)
        else:
            left = self.mitigate(uid, left, inst)             # 500.1-5 .. 500.1-7
            left = self.insurance_step(uid, left, inst, out)  # 500.1-8, 500.1-9
            left = self.shield_step(uid, left, inst, out)     # 500.1-10
        out.left_after_shield = left
        # 500.1-11: the ally redirect
        if left > 0 and not inst.redirected and self.ally_receiver(uid, unit["redirect_to"], inst):
            cap = unit["redirect_cap"]
            if self.rules.get("redirect_cap_moves") == "excess_over_cap":
                moving = max(0, left - cap)
            else:
                moving = min(left, cap)
            if moving > 0:
                to = unit["redirect_to"]
                self.emit("redirect", uid, moving, to)
                out.receiver = (to, self.resolve_instance(inst.moved(to, moving)))
                left -= moving
        # 500.1-12
        if left > 0 and left >= unit["vitality"] and unit["defy_death"]:
            left = self.spend_defy_death(uid, left, inst.source)
        # 500.1-13
        lost = min(left, unit["vitality"])
        out.vitality_lost = lost
        if lost > 0 and inst.kind != "reflect":
            self.emit("damage_taken", uid, lost, inst.source, inst.kind)
        self.credit(inst.source, uid, out.shield_absorbed + lost, lost)
        if unit["is_boss"]:
            self.boss_meters(uid, inst.source, lost, out.shield_absorbed + lost,
                             direct=inst.kind in DIRECT_KINDS)
        if lost > 0:
            unit["vitality"] -= lost
            self.loss_listeners(uid, lost)
            if unit["vitality"] <= 0:
                self.kill(uid, inst.source)
        return out

    def insurance_step(self, uid, left, inst, out):
        unit = self.u(uid)
        round_down = self.bug("insurance_rounds_down")
        # 500.1-8: Subrogated points, then the payback from an enemy source
        spent, absorbed = self.points_for(left, unit["subrogated"], round_down)
        if spent > 0:
            unit["subrogated"] -= spent
            out.points_spent += spent
            left -= absorbed
            self.emit("insurance_prevented", uid, absorbed, inst.source, "subrogated")
            src = inst.source
            no_payback = (inst.kind == "reflect"
                          and self.rules.get("reflect_subrogation", "no_payback") == "no_payback")
            if src is not None and src in self.units and absorbed > 0 and not no_payback:
                if self.hostility(src, uid) is None:
                    self.pay_vitality_cost(src, absorbed, "retaliation", channel="subrogation",
                                           beneficiary=uid, side_rules=False)
        # 500.1-9: plain points
        spent, absorbed = self.points_for(left, unit["insurance"], round_down)
        if spent > 0:
            unit["insurance"] -= spent
            out.points_spent += spent
            left -= absorbed
            self.emit("insurance_prevented", uid, absorbed, inst.source, "plain")
        return left

    def shield_step(self, uid, left, inst, out):
        unit = self.u(uid)
        drained, absorbed = self.shield_take(uid, left, inst)
        if drained > 0:
            unit["shield"] -= drained
            out.shield_absorbed = absorbed
            self.emit("shield_damaged", uid, drained, inst.source)
            if unit["shield"] == 0:
                self.emit("shield_broken", uid, 0, inst.source)
        return left - absorbed

    # -- what answers a damage event (500.6, 500.7) ----------------------------------------------
    def damage_event(self, out: Outcome):
        if not out.entered:
            return False
        if self.rules.get("damage_event_test") == "after_shield":
            return out.points_spent > 0 or out.left_after_shield > 0
        return out.points_spent > 0 or out.vitality_lost > 0

    def answer(self, responder, out: Outcome, attackers, rolls, source):
        unit = self.u(responder)
        event = self.damage_event(out)
        retort_fires = out.landed or (self.bug("retort_every_event") and event)
        if not event:
            return
        for attacker in attackers:
            side = self.hostility(attacker, responder)
            if side:
                if unit["thorns"] > 0 or unit["riposte"] > 0 or (unit["retort"] > 0 and retort_fires):
                    self.emit("cost_refused", attacker, 0, responder, side)
                continue
            if unit["thorns"] > 0:
                self.pay_vitality_cost(attacker, unit["thorns"], "retaliation", "thorns", responder)
            if unit["riposte"] > 0:
                refused = self.refusal(attacker, "retaliation", responder, True)
                if refused and self.rules.get("riposte_roll_on_refused") == "kept":
                    self.emit("cost_refused", attacker, 0, responder, refused)
                else:
                    roll = rolls.pop(0) if rolls else False
                    if roll:
                        self.pay_vitality_cost(attacker, unit["riposte"], "retaliation",
                                               "riposte", responder)
                    else:
                        self.emit("riposte_missed", attacker, 0, responder)
            if unit["retort"] > 0 and retort_fires:
                self.pay_vitality_cost(attacker, unit["retort"], "retaliation", "retort", responder)
        self.reflect(responder, out, source)

    def reflect(self, boss, out: Outcome, source):
        """500.7h-l: a boss's Reflect rune answers with real damage, 5% of what landed."""
        unit = self.u(boss)
        if not (unit["is_boss"] and unit["reflect"]) or not out.landed or source is None:
            return
        if self.hostility(source, boss) is not None:
            return
        if out.kind in TICK_KINDS and self.rules.get("reflect_lanes") == "hits_only":
            return
        back = max(1, out.vitality_lost * 5 // 100)
        self.emit("reflect", boss, back, source)
        self.resolve_instance(Instance(source, back, boss, "reflect"))

    def answer_all(self, out: Outcome, attackers, rolls, source):
        self.answer(out.unit, out, attackers, rolls, source)
        for moved in (out.interceptor, out.receiver):
            if moved is not None:
                self.answer_all(moved[1], attackers, rolls, source)

    # -- actions ----------------------------------------------------------------------------------
    def instance_of(self, action, source):
        return Instance(action["target"], int(action["amount"]), source,
                        action.get("damage_kind") or "hit", bool(action.get("allows_dormant")))

    def act_damage(self, action):
        self.resolve_instance(self.instance_of(action, action.get("source")))

    def hit(self, action, source):
        inst = self.instance_of(action, source)
        out = self.resolve_instance(inst)
        if inst.kind == "reflect":       # 500.7k: a Reflect starts no damage reactions
            return
        attackers = [source] if source is not None else []
        self.answer_all(out, attackers, list(action.get("riposte_rolls") or []), source)

    def act_hit(self, action):
        self.hit(action, action.get("source"))

    def act_cost(self, action):
        kind = action["cost_kind"]
        channel = "cost_paid"
        self.pay_vitality_cost(action["payer"], int(action.get("amount", 0)), kind, channel,
                               action.get("beneficiary"))

    def reading_order(self, side):
        units = [self.units[uid] for uid in self.order if self.units[uid]["side"] == side]
        if self.bug("column_major_payer"):
            return sorted(units, key=lambda u: (u["col"], u["row"]))
        return sorted(units, key=lambda u: (u["row"], u["col"]))

    def bloodletting_payer(self, caster):
        c = self.u(caster)
        if c["is_boss"]:
            ok = c["alive"] and not c["entrapped"]
            return caster if ok else None
        for unit in self.reading_order(c["side"]):
            if not unit["alive"] or unit["entrapped"] or unit["is_boss"]:
                continue
            return unit["uid"]
        return None

    def act_bloodletting(self, action):
        caster = action["caster"]
        c = self.u(caster)
        # the activation begins: charge spent, Reliquary Speed cleared (INT-411)
        c["charge"] = 0
        if c["reliquary_speed"] > 0:
            self.emit("reliquary_cleared", caster, c["reliquary_speed"])
            c["reliquary_speed"] = 0
        cost = int(action["cost"]) - c["bloodletting_reduction"]
        if cost > 0:                                          # 800.4m
            payer = self.bloodletting_payer(caster)
            if payer is None:                                 # 800.4k
                self.emit("activation_aborted", caster)
                return
            paid = self.pay_vitality_cost(payer, cost, "bloodletting", "bloodletting_paid", caster)
            if not paid:                                      # 800.4d
                if not (self.rules.get("bloodletting_defied_to_zero") == "continues"
                        and not self.is_tool_or_hub(payer)):
                    self.emit("activation_failed", caster, 0, payer)
                    return
        for h in action.get("hits") or []:
            self.hit(h, caster)

    def run(self, actions):
        for action in actions:
            kind = action.get("kind")
            handler = getattr(self, "act_" + str(kind), None)
            if kind not in IMPLEMENTED_KINDS or handler is None:
                raise Unsupported(kind)
        for action in actions:
            getattr(self, "act_" + action["kind"])(action)

    def board(self):
        out = []
        for given in self.given:
            unit = self.units[given["uid"]]
            row = {k: unit[k] for k in given}
            for k in ("uid", "side", "row", "col", "alive", "vitality", "max_vitality"):
                row[k] = unit[k]
            out.append(row)
        return out


def run_with(scenario: dict, bugs=()) -> dict:
    answer = {"protocol": PROTOCOL}
    if "id" in scenario:
        answer["id"] = scenario["id"]
    if scenario.get("rulebook", "combat") != "combat":
        kind = (scenario.get("actions") or [{}])[0].get("kind", "play_card")
        answer["unsupported"] = {"kind": kind, "reason": "the play rulebook is not implemented"}
        return answer
    battle = Battle(scenario, active_bugs(bugs))
    try:
        battle.run(scenario.get("actions") or [])
    except Unsupported as refused:
        answer["unsupported"] = {"kind": refused.kind, "reason": "not implemented"}
        return answer
    answer["board"] = battle.board()
    answer["events"] = battle.events
    return answer


def run(scenario: dict) -> dict:
    return run_with(scenario)


def engine_with(*names):
    """A run function with the named seeded bugs switched on (bugs.py lists them)."""
    names = tuple(names)

    def run_buggy(scenario: dict) -> dict:
        return run_with(scenario, names)

    run_buggy.__name__ = "run_" + "_".join(names) if names else "run"
    return run_buggy
