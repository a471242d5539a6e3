"""A development engine for protocol referee/2, written from the documentation alone.

Action kinds: damage, hit, cost, bloodletting.  Features left out: see profile.toml.

Every shared rule lives in one helper, so a seeded bug (bugs.py, DEVSET_BUGS) lives in one place
and is reached by every road that uses that helper:

  pay_vitality_cost   the one Vitality cost (cost action, Bloodletting payment, Thorns/Riposte/Retort,
                      the Subrogation payback)                                        500.8
  cost_refusal        the payer gate of every cost                                   500.8e, 500.6e
  side_refusal        the side check of every retaliation (answers, payback, cost)   500.6h
  insurance_points    the points a layer of Insurance spends (subrogated and plain)   500.1a
  defy                the defy-death rune, for damage and for costs                   500.1-12, 500.8f
  credit              credit and Feast, for damage and for retaliation                500.5a, 500.6f
  loss_listeners      vitality_lost, rune resets, thresholds                          500.6c, 500.8d
  die                 the one death routine                                           500.4
  mitigation_order    the order of Armor and the incoming-damage cap                  500.1-5..7
  at_its_step         when a nested instance (the Subrogation payback) resolves       INT-018
  retort_answers      what Retort answers                                             500.7f
"""
from __future__ import annotations

import copy
import os
from math import isqrt

PROTOCOL = "referee/2"

RULESET_DEFAULTS = {
    "negative_armor": "mirror",
    "shield_multiplier_rounding": "ceil",
    "defy_death_leaves": 1,
    "bloodletting_defied_to_zero": "fails",
    "riposte_roll_on_refused": "consumed",
    "damage_event_test": "reached_vitality",
}

UNIT_DEFAULTS = {
    "side": 0, "row": 0, "col": 0, "is_tool": False, "is_hub": False, "is_boss": False,
    "alive": True, "vitality": 100, "max_vitality": 100, "dormant": False, "entrapped": False,
    "ignore_charges": 0, "armor": 0, "has_cap": False, "cap": 0, "subrogated": 0, "insurance": 0,
    "shield": 0, "defy_death": False, "shield_multiplier": 1, "prismbroken": False,
    "rune_tick_reduction": 0, "forge_tick_reduction": 0, "thorns": 0, "riposte": 0, "retort": 0,
    "adrenaline": 0, "momentum": 0, "bolster": 0, "deathrattle": False, "defy_death_spent": False,
    "charge": 0, "bloodletting_reduction": 0,
}

BUG_NAMES = (
    "cost_spends_shield", "defy_never_spent", "dead_payer_pays", "retaliation_vs_allies",
    "insurance_floor", "macabre_allies_only", "cost_skips_listeners", "retort_every_event",
    "cap_before_armor", "payback_late", "armor_round_wrong", "feast_on_zero",
)

TICKS = ("burn", "venom")


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def _least(lo: int, hi: int, pred) -> int:
    """The least s in [lo, hi] with pred(s) (pred monotone, pred(hi) true)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _ge_root(x: int, b: int, y: int) -> bool:
    """x * sqrt(b) >= y, exactly, for x >= 0 and b >= 0."""
    if y <= 0:
        return True
    return x * x * b >= y * y


class Engine:
    def __init__(self, bugs=()):
        self.bugs = frozenset(bugs)
        unknown = self.bugs - set(BUG_NAMES)
        if unknown:
            raise ValueError(f"unknown bug(s): {sorted(unknown)}")

    # ------------------------------------------------------------------ plumbing
    def run(self, scenario: dict) -> dict:
        if scenario.get("protocol", PROTOCOL) != PROTOCOL:
            raise ValueError(f"unknown protocol {scenario.get('protocol')!r}")
        self.rules = dict(RULESET_DEFAULTS)
        self.rules.update(scenario.get("ruleset") or {})
        self.board = [copy.deepcopy(u) for u in scenario["board"]]
        self.units = {}
        for u in self.board:
            for k, v in UNIT_DEFAULTS.items():
                u.setdefault(k, v)
            self.units[u["uid"]] = u
        self.events: list[dict] = []
        for action in scenario["actions"]:
            kind = action["kind"]
            handler = getattr(self, "act_" + kind, None)
            if handler is None:
                return {"protocol": PROTOCOL, "id": scenario.get("id"),
                        "unsupported": {"kind": kind, "reason": "not implemented by the devset engine"}}
            handler(action)
        return {"protocol": PROTOCOL, "id": scenario.get("id"), "board": self.board,
                "events": self.events}

    def ev(self, name, unit, amount=0, other=None, detail=None):
        self.events.append({"name": name, "unit": unit, "amount": amount, "other": other,
                            "detail": detail})

    def u(self, uid):
        return self.units.get(uid) if uid is not None else None

    @staticmethod
    def discards(u) -> bool:
        return bool(u["is_tool"] or u["is_hub"])

    # ------------------------------------------------------------------ shared helpers
    def side_refusal(self, payer, retaliator):
        """500.6h: no retaliation against the unit itself or an ally."""
        if payer["uid"] == retaliator["uid"]:
            return "self"
        if payer["side"] == retaliator["side"]:
            if "retaliation_vs_allies" in self.bugs:
                return None
            return "ally"
        return None

    def cost_refusal(self, payer, kind):
        """500.8e / 500.6e: dead, Entrapped, and (retaliation) Dormant payers are refused."""
        if not payer["alive"] and "dead_payer_pays" not in self.bugs:
            return "dead"
        if payer["entrapped"]:
            return "entrapped"
        if kind == "retaliation" and payer["dormant"]:
            return "dormant"
        return None

    def insurance_points(self, left: int, points: int):
        """500.1a: each point absorbs up to 25, spent whole; returns (spent, absorbed)."""
        if left <= 0 or points <= 0:
            return 0, 0
        if "insurance_floor" in self.bugs:
            spent = min(points, left // 25)
        else:
            spent = min(points, _ceildiv(left, 25))
        return spent, min(left, 25 * spent)

    def defy(self, u, asked: int, other):
        """500.1-12 / 500.8f: an armed rune facing a lethal amount leaves the floor.
        Returns the Vitality that may still leave, or None when the rune does not answer."""
        if not u["defy_death"] or asked < u["vitality"]:
            return None
        floor = int(self.rules["defy_death_leaves"])
        lost = max(u["vitality"] - floor, 0)
        if "defy_never_spent" not in self.bugs:
            u["defy_death"] = False
            u["defy_death_spent"] = True
        self.ev("defy_death", u["uid"], asked - lost, other)
        return lost

    def credit(self, dealer, recipient, credited: int, fed: int, feeds: bool = True):
        """500.5a / 500.6f: credit (Shield plus Vitality) then Feast (Vitality only)."""
        if dealer is None:
            return
        zero_ok = "feast_on_zero" in self.bugs
        if credited > 0 or zero_ok:
            self.ev("credit", dealer["uid"], credited, recipient["uid"])
        if (fed > 0 or zero_ok) and feeds:
            self.ev("feast", dealer["uid"], fed, recipient["uid"])

    def loss_listeners(self, u, lost: int):
        """500.6c / 500.8d: what answers a Vitality loss, by damage or by cost."""
        if lost <= 0:
            return
        self.ev("vitality_lost", u["uid"], lost)
        for rune in ("adrenaline", "momentum", "bolster"):
            if u.get(rune, 0) > 0:
                u[rune] = 0
                self.ev("rune_reset", u["uid"], 0, None, rune)
        self.ev("threshold_reevaluated", u["uid"])

    def die(self, u, killer):
        """500.4: the one death routine."""
        u["alive"] = False
        u["vitality"] = 0
        for k in ("shield", "adrenaline", "momentum", "bolster", "charge"):
            if k in u:
                u[k] = 0
        self.ev("death", u["uid"], 0, killer)
        pooled = 0
        for other in self.board:
            if other is u or not other["alive"]:
                continue
            if "macabre_allies_only" in self.bugs and other["side"] != u["side"]:
                continue
            self.ev("macabre", other["uid"], 0, u["uid"])
            pooled += 1
        if u["deathrattle"]:
            self.ev("deathrattle", u["uid"])
            pooled += 1
        self.ev("vessel_batch", u["uid"], pooled + 1, None, "death")

    def pay_vitality_cost(self, payer, amount: int, kind: str, beneficiary=None,
                          channel="cost_paid") -> int:
        """500.8: the one Vitality cost.  Returns the Vitality that actually left."""
        ben = beneficiary["uid"] if beneficiary is not None else None
        why = self.cost_refusal(payer, kind)
        if why is not None:
            self.ev("cost_refused", payer["uid"], 0, ben, why)
            return 0
        if self.discards(payer):
            return 0
        if kind == "self_destruct":
            if payer["shield"] > 0:
                self.ev("shield_scrapped", payer["uid"], payer["shield"])
                payer["shield"] = 0
            price = payer["vitality"]
        else:
            price = max(int(amount), 0)
        if "cost_spends_shield" in self.bugs and price > 0 and payer["shield"] > 0:
            took = min(payer["shield"], price)
            payer["shield"] -= took
            price -= took
        if price <= 0 or payer["vitality"] <= 0:
            return 0
        paid = None
        if kind in ("retaliation", "bloodletting"):
            paid = self.defy(payer, price, ben)
        if paid is None:
            paid = min(price, payer["vitality"])
        if paid <= 0:
            return 0
        detail = kind if channel == "cost_paid" else None
        self.ev(channel, payer["uid"], paid, ben, detail)
        if kind == "interest":
            payer["max_vitality"] -= paid
            self.ev("max_vitality_lowered", payer["uid"], paid)
        if kind == "retaliation" and beneficiary is not None:
            self.credit(beneficiary, payer, paid, paid, feeds=not payer["is_boss"])
        payer["vitality"] -= paid
        if "cost_skips_listeners" not in self.bugs:
            self.loss_listeners(payer, paid)
        if payer["vitality"] <= 0:
            self.die(payer, ben if kind == "retaliation" else None)
        return paid

    # ------------------------------------------------------------------ the damage pipeline
    def armor_percentage(self, d: int, a: int) -> int:
        """500.2a, 500.2c, 500.2d."""
        if d <= 0 or a == 0:
            return d
        if a > 0:
            # surviving s: least s with s * (sqrt(a) + 20) >= 20 d  (rounded up, 500.2c)
            s = _least(0, d, lambda s: _ge_root(s, a, 20 * d - 20 * s))
            if "armor_round_wrong" in self.bugs:
                # rounds down (for the defender) instead of up: floor = ceil - 1 unless exact
                exact = 20 * d - 20 * s >= 0 and s * s * a == (20 * d - 20 * s) ** 2
                if not exact and s > 0:
                    s -= 1
            return s
        b = -a
        if self.rules["negative_armor"] == "reciprocal":
            # d * (20 + sqrt b) / 20, rounded up: least s with 20 s >= 20 d + d sqrt b
            return _least(d, 10 ** 30 if d > 10 ** 12 else d * (1 + isqrt(b) + 2),
                          lambda s: 20 * s - 20 * d >= 0 and (20 * s - 20 * d) ** 2 >= d * d * b)
        # mirror: least s with s (20 + sqrt b) >= d (20 + 2 sqrt b)  <=>  20(s-d) >= (2d - s) sqrt b
        return _least(d, 2 * d, lambda s: 20 * (s - d) >= 0
                      and (20 * (s - d)) ** 2 >= (2 * d - s) ** 2 * b)

    def mitigation_order(self):
        """500.1-5 .. 500.1-7: Armor (percentage, flat), then the incoming-damage cap."""
        if "cap_before_armor" in self.bugs:
            return ("cap", "armor")
        return ("armor", "cap")

    def at_its_step(self, pending, nested):
        """INT-018: a nested instance (the Subrogation payback) resolves at its own step."""
        if "payback_late" in self.bugs:
            pending.append(nested)
        else:
            nested()

    def mitigate_armor(self, u, d: int) -> int:
        a = u["armor"]
        d = self.armor_percentage(d, a)
        if a > 0:
            d = max(d - a // 5, 0)
        return d

    def resolve_damage(self, target_uid, amount, source_uid, kind="hit", allows_dormant=False):
        out = {"entered": False, "insured": 0, "lost": 0}
        t = self.u(target_uid)
        src = self.u(source_uid)
        sid = source_uid
        d = int(amount)
        if t is None:
            return out
        if kind in TICKS and d > 0 and t["alive"]:
            adj = _ceildiv(3 * d, 2) if t["prismbroken"] else d
            adj -= t["rune_tick_reduction"]
            adj -= t["forge_tick_reduction"]
            if adj <= 0:
                self.ev("tick_prevented", t["uid"], d, sid, kind)
                return out
            d = adj
        if not t["alive"] or d <= 0:
            return out
        if self.discards(t):
            self.ev("damage_discarded", t["uid"], d, sid, "tool_or_hub")
            return out
        if t["dormant"] and not allows_dormant and kind not in TICKS:
            self.ev("damage_discarded", t["uid"], d, sid, "dormant")
            return out
        if t["ignore_charges"] > 0:
            t["ignore_charges"] -= 1
            self.ev("ignore_charge_spent", t["uid"], 0, sid)
            return out
        out["entered"] = True
        ignores_armor = kind in TICKS or kind == "reflect"
        for step in self.mitigation_order():
            if step == "armor" and not ignores_armor:
                d = self.mitigate_armor(t, d)
            elif step == "cap" and t["has_cap"]:
                d = min(d, t["cap"])
        pending = []  # nested instances deferred to the end of this instance
        # 500.1-8 Subrogated Insurance, and its payback at once (INT-018)
        spent, absorbed = self.insurance_points(d, t["subrogated"])
        if spent:
            t["subrogated"] -= spent
            d -= absorbed
            out["insured"] += spent
            self.ev("insurance_prevented", t["uid"], absorbed, sid, "subrogated")
            if src is not None and self.side_refusal(src, t) is None:
                self.at_its_step(pending, lambda src=src, owed=absorbed, t=t: self.pay_vitality_cost(
                    src, owed, "retaliation", t, "subrogation"))
        # 500.1-9 plain Insurance
        spent, absorbed = self.insurance_points(d, t["insurance"])
        if spent:
            t["insurance"] -= spent
            d -= absorbed
            out["insured"] += spent
            self.ev("insurance_prevented", t["uid"], absorbed, sid, "plain")
        # 500.1-10 Shield
        shield_absorbed = 0
        if d > 0 and t["shield"] > 0:
            m = src["shield_multiplier"] if src is not None else 1
            pool = t["shield"]
            if d * m <= pool:
                drained, shield_absorbed = d * m, d
            else:
                drained = pool
                if self.rules["shield_multiplier_rounding"] == "floor":
                    shield_absorbed = pool // m
                else:
                    shield_absorbed = _ceildiv(pool, m)
                shield_absorbed = min(shield_absorbed, d)
            t["shield"] -= drained
            d -= shield_absorbed
            self.ev("shield_damaged", t["uid"], drained, sid)
            if t["shield"] == 0:
                self.ev("shield_broken", t["uid"], 0, sid)
        # 500.1-12 defy-death, 500.1-13 Vitality
        lost = None
        if d > 0:
            lost = self.defy(t, d, sid)
        if lost is None:
            lost = min(max(d, 0), t["vitality"])
        out["lost"] = lost
        if lost > 0:
            self.ev("damage_taken", t["uid"], lost, sid, kind)
        self.credit(src, t, shield_absorbed + lost, lost)
        t["vitality"] -= lost
        self.loss_listeners(t, lost)
        if lost > 0 and t["vitality"] <= 0:
            self.die(t, sid)
        for nested in pending:
            nested()
        return out

    def is_damage_event(self, out) -> bool:
        return out["entered"] and (out["insured"] > 0 or out["lost"] > 0)

    def resolve_hit(self, target_uid, amount, source_uid, kind="hit", allows_dormant=False,
                    rolls=()):
        t = self.u(target_uid)
        out = self.resolve_damage(target_uid, amount, source_uid, kind, allows_dormant)
        src = self.u(source_uid)
        if t is None or src is None or kind == "overtime":
            return
        event = self.is_damage_event(out)
        retort_fires = self.retort_answers(out)
        if not (event or retort_fires):
            return
        rolls = list(rolls)
        side = self.side_refusal(src, t)
        if side is not None:
            if (event and (t["thorns"] > 0 or t["riposte"] > 0)) or (t["retort"] > 0 and retort_fires):
                self.ev("cost_refused", src["uid"], 0, t["uid"], side)
            return
        if t["thorns"] > 0 and event:
            self.pay_vitality_cost(src, t["thorns"], "retaliation", t, "thorns")
        if t["riposte"] > 0 and event:
            refused = self.cost_refusal(src, "retaliation") is not None
            if refused and self.rules["riposte_roll_on_refused"] == "kept":
                self.pay_vitality_cost(src, t["riposte"], "retaliation", t, "riposte")
            else:
                roll = rolls.pop(0) if rolls else False
                if roll:
                    self.pay_vitality_cost(src, t["riposte"], "retaliation", t, "riposte")
                else:
                    self.ev("riposte_missed", src["uid"], 0, t["uid"])
        if t["retort"] > 0 and retort_fires:
            self.pay_vitality_cost(src, t["retort"], "retaliation", t, "retort")

    def retort_answers(self, out) -> bool:
        """500.7f: Retort answers only damage that landed on Vitality."""
        if "retort_every_event" in self.bugs:
            return out["entered"]
        return out["lost"] > 0

    # ------------------------------------------------------------------ actions
    def act_damage(self, a):
        self.resolve_damage(a["target"], a["amount"], a.get("source"), a.get("damage_kind", "hit"),
                            a.get("allows_dormant", False))

    def act_hit(self, a):
        self.resolve_hit(a["target"], a["amount"], a.get("source"), a.get("damage_kind", "hit"),
                         a.get("allows_dormant", False), a.get("riposte_rolls", []))

    def act_cost(self, a):
        payer = self.u(a["payer"])
        ben = self.u(a.get("beneficiary"))
        kind = a["cost_kind"]
        if kind == "retaliation" and ben is not None:
            side = self.side_refusal(payer, ben)
            if side is not None:
                self.ev("cost_refused", payer["uid"], 0, ben["uid"], side)
                return
        self.pay_vitality_cost(payer, a.get("amount", 0), kind, ben, "cost_paid")

    def act_bloodletting(self, a):
        caster = self.u(a["caster"])
        if "charge" in caster:
            caster["charge"] = 0
        cost = int(a["cost"]) - caster.get("bloodletting_reduction", 0)
        if cost > 0:
            cands = [u for u in self.board if u["side"] == caster["side"] and u["alive"]
                     and not u["entrapped"] and not u["is_boss"]]
            cands.sort(key=lambda u: (u["row"], u["col"]))
            if not cands:
                self.ev("activation_aborted", caster["uid"])
                return
            payer = cands[0]
            paid = self.pay_vitality_cost(payer, cost, "bloodletting", caster, "bloodletting_paid")
            if paid <= 0:
                if self.discards(payer) or self.rules["bloodletting_defied_to_zero"] == "fails":
                    self.ev("activation_failed", caster["uid"], 0, payer["uid"])
                    return
        for h in a.get("hits", []):
            self.resolve_hit(h["target"], h["amount"], caster["uid"], h.get("damage_kind", "hit"),
                             h.get("allows_dormant", False), h.get("riposte_rolls", []))


def bugs_from_env() -> tuple:
    raw = os.environ.get("DEVSET_BUGS", "")
    return tuple(b.strip() for b in raw.split(",") if b.strip())


def run(scenario):
    """The --python entry point: one scenario dict in, one observation dict out.
    Bugs named in DEVSET_BUGS (comma-separated) are switched on, read at call time."""
    bugs = bugs_from_env()
    if isinstance(scenario, list):
        return [Engine(bugs).run(s) for s in scenario]
    return Engine(bugs).run(scenario)
