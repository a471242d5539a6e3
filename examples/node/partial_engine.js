#!/usr/bin/env node
// A partial engine for the referee guide: one damage instance (the `damage` action kind,
// chapter 500.1 with Armor, 500.2), written from the rules and docs/protocol.md alone.
//
// It implements the pipeline of 500.1 (gates, ignore charges, Armor, the cap, Subrogated and
// plain Insurance, Shield with a source's multiplier, defy-death, Vitality and death, the
// Burn/Venom tick adjustment of 500.1h) but NOT ally redirects, lethal intercepts, bosses,
// Reflect, Vessels or Everlasting. It does not pretend to: a scenario that uses one of those
// is answered with a crash (a message on stderr, exit 1), which the harness reports as an
// engine fault. Check it with:
//
//   referee check --engine "node examples/node/partial_engine.js" --kinds damage \
//     --without redirect,lethal_intercept,boss,reflect,vessel,everlasting
"use strict";

const readline = require("readline");

const RESET_RUNES = ["adrenaline", "momentum", "bolster"];

// docs/protocol.md "Unit fields": a hand-written scenario may leave any field at its default,
// and the observation reports every field.
const UNIT_DEFAULTS = {
  side: 0, row: 0, col: 0, is_tool: false, is_hub: false, is_boss: false, alive: true,
  vitality: 100, max_vitality: 100, dormant: false, entrapped: false, ignore_charges: 0,
  armor: 0, has_cap: false, cap: 0, subrogated: 0, insurance: 0, shield: 0, defy_death: false,
  shield_multiplier: 1, prismbroken: false, rune_tick_reduction: 0, forge_tick_reduction: 0,
  thorns: 0, riposte: 0, retort: 0, reflect: false, adrenaline: 0, momentum: 0, bolster: 0,
  redirect_to: null, redirect_cap: 0, intercept_by: null, deathrattle: false, everlasting: false,
  vessels: 0, armor_change: 0, defy_death_spent: false, everlasting_life_grant: false, charge: 0,
  incarnation: 0, hears_phylactery_revival: false, hears_everlasting_revival: false,
  hears_ally_revival: false, revival_aims_killer: false, reliquary: 0, reliquary_speed: 0,
  bloodletting_reduction: 0, burn: 0, venom: 0, maim: 0, untargetable: false,
};

// What this engine does not implement: a unit field off its default, or a damage lane.
const UNSUPPORTED_FIELDS = {
  redirect_to: ["redirect", null],
  redirect_cap: ["redirect", 0],
  intercept_by: ["lethal_intercept", null],
  is_boss: ["boss", false],
  reflect: ["reflect", false],
  vessels: ["vessel", 0],
  everlasting: ["everlasting", false],
};
const UNSUPPORTED_LANES = { reflect: "reflect" };

// Inputs the protocol does not define a meaning for (docs/protocol.md gives no rule for a
// Shield multiplier of 0 or a negative Shield, cap, charge or point count): refused, not guessed.
const MINIMUM = {
  shield_multiplier: 1, shield: 0, cap: 0, ignore_charges: 0, subrogated: 0, insurance: 0,
  rune_tick_reduction: 0, forge_tick_reduction: 0, vitality: 0, max_vitality: 1,
};

class Unsupported extends Error {}

function refuseUnsupported(scenario) {
  scenario.board.forEach((unit, i) => {
    for (const [field, [feature, dflt]] of Object.entries(UNSUPPORTED_FIELDS)) {
      if (field in unit && unit[field] !== dflt) {
        throw new Unsupported(`feature ${feature} not implemented: board[${i}].${field} = ${JSON.stringify(unit[field])}`);
      }
    }
    for (const [field, least] of Object.entries(MINIMUM)) {
      if (field in unit && unit[field] < least) {
        throw new Unsupported(`input outside the protocol's domain: board[${i}].${field} = ${unit[field]} (< ${least})`);
      }
    }
  });
  scenario.actions.forEach((action, i) => {
    if (action.kind !== "damage") {
      throw new Unsupported(`action kind ${JSON.stringify(action.kind)} not implemented: actions[${i}].kind`);
    }
    const lane = action.damage_kind || "hit";
    if (lane in UNSUPPORTED_LANES) {
      throw new Unsupported(`feature ${UNSUPPORTED_LANES[lane]} not implemented: actions[${i}].damage_kind = "${lane}"`);
    }
  });
}

// ---- exact arithmetic (BigInt) -------------------------------------------------------------

const big = (x) => BigInt(x);
const ceilDiv = (a, b) => (a >= 0n ? (a + b - 1n) / b : -((-a) / b)); // b > 0
const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b)); // b > 0

// The least s in [lo, hi] with pred(s), given pred monotone and pred(hi) true.
function leastSuch(lo, hi, pred) {
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (pred(mid)) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

// 500.2a/c: the least s with s*(sqrt(A)+20) >= 20d, i.e. 20(d-s) <= s*sqrt(A), by squaring.
function armorPercentage(d, armor, ruleset) {
  if (d <= 0n || armor === 0n) return d;
  if (armor > 0n) {
    return leastSuch(0n, d, (s) => {
      const lhs = 20n * (d - s);
      return lhs <= 0n || lhs * lhs <= s * s * armor;
    });
  }
  const b = -armor; // 500.2d: amplification
  if (ruleset.negative_armor === "reciprocal") {
    // d * (20 + sqrt(B)) / 20, rounded up: least s >= d with 20(s-d) >= d*sqrt(B).
    const hi = d + d * (b + 1n); // d*sqrt(B)/20 <= d*(B+1)
    return leastSuch(d, hi, (s) => 400n * (s - d) * (s - d) >= b * d * d);
  }
  // mirror: d * (20 + 2 sqrt(B)) / (20 + sqrt(B)), rounded up: least s in [d, 2d] with
  // 20(s-d) >= sqrt(B)(2d-s).
  return leastSuch(d, 2n * d, (s) => 400n * (s - d) * (s - d) >= b * (2n * d - s) * (2n * d - s));
}

// 500.2b/d: 1 per 5 Armor after the percentage; negative Armor gives none.
function armorFlat(d, armor) {
  if (armor <= 0n) return d;
  const left = d - armor / 5n;
  return left > 0n ? left : 0n;
}

// ---- the engine ----------------------------------------------------------------------------

function runScenario(scenario) {
  refuseUnsupported(scenario);
  const ruleset = Object.assign(
    { negative_armor: "mirror", shield_multiplier_rounding: "ceil", defy_death_leaves: 1 },
    scenario.ruleset || {},
  );
  const board = scenario.board.map((u) => Object.assign({}, UNIT_DEFAULTS, u));
  const byUid = new Map(board.map((u) => [u.uid, u]));
  const events = [];
  const emit = (name, unit, amount = 0, other = null, detail = null) =>
    events.push({ name, unit, amount: Number(amount), other, detail });
  const num = (u, f, dflt = 0) => (u[f] === undefined ? dflt : u[f]);
  const flag = (u, f) => u[f] === true;
  const alive = (u) => u.alive !== false;

  // 500.4: the death, what it fires, and the one Vessel Point batch closing it (500.4e).
  function die(unit, killer) {
    const first = events.length;
    emit("death", unit.uid, 0, killer);
    unit.alive = false;
    unit.vitality = 0;
    unit.shield = 0;
    unit.charge = 0; // the activation being charged is lost with the life (500.9d)
    for (const rune of RESET_RUNES) unit[rune] = 0;
    for (const other of board) if (other !== unit && alive(other)) emit("macabre", other.uid, 0, unit.uid);
    if (flag(unit, "deathrattle")) emit("deathrattle", unit.uid);
    emit("vessel_batch", unit.uid, events.length - first, null, "death");
  }

  // Vitality leaves a unit (by damage or cost): listeners, then death at 0 (500.6c, 500.8d, 500.4).
  function loseListeners(unit, lost, killer) {
    unit.vitality = num(unit, "vitality", 100) - lost;
    emit("vitality_lost", unit.uid, lost);
    for (const rune of RESET_RUNES) if (num(unit, rune) > 0) emit("rune_reset", unit.uid, 0, null, rune);
    emit("threshold_reevaluated", unit.uid);
    for (const rune of RESET_RUNES) unit[rune] = 0;
    if (unit.vitality <= 0) die(unit, killer);
  }

  // 500.1-8 / 500.7g: the source loses what the Subrogated points absorbed, as a retaliation cost.
  function subrogationPayback(source, insured, absorbed) {
    if (source === insured || num(source, "side") === num(insured, "side")) return; // 500.6h
    const refusal = !alive(source) ? "dead" : flag(source, "entrapped") ? "entrapped"
      : flag(source, "dormant") ? "dormant" : null;
    if (refusal) {
      emit("cost_refused", source.uid, 0, insured.uid, refusal);
      return;
    }
    if (flag(source, "is_tool") || flag(source, "is_hub")) return; // 500.8e
    const vitality = num(source, "vitality", 100);
    let price = Math.min(absorbed, vitality);
    if (flag(source, "defy_death") && price > 0 && price >= vitality) { // 500.8f: retaliation opts in
      const cut = Math.max(vitality - ruleset.defy_death_leaves, 0);
      emit("defy_death", source.uid, absorbed - cut, insured.uid);
      source.defy_death = false;
      source.defy_death_spent = true;
      price = cut;
    }
    if (price <= 0) return;
    emit("subrogation", source.uid, price, insured.uid);
    emit("credit", insured.uid, price, source.uid);
    emit("feast", insured.uid, price, source.uid);
    loseListeners(source, price, insured.uid);
  }

  // 500.1h: Burn and Venom ticks are adjusted before the pipeline.
  function adjustTick(target, amount) {
    let t = big(amount);
    if (flag(target, "prismbroken")) t = ceilDiv(3n * t, 2n);
    t -= big(num(target, "rune_tick_reduction"));
    t -= big(num(target, "forge_tick_reduction"));
    return t;
  }

  function damage(action) {
    const target = byUid.get(action.target);
    const source = action.source == null ? null : byUid.get(action.source);
    const srcUid = action.source == null ? null : action.source;
    const lane = action.damage_kind || "hit";
    const isTick = lane === "burn" || lane === "venom";
    let d = big(action.amount);
    // 500.1-3: a dead recipient or an amount of 0 or less: nothing happens.
    if (!alive(target) || d <= 0n) return;
    if (isTick) {
      d = adjustTick(target, action.amount);
      if (d <= 0n) {
        emit("tick_prevented", target.uid, action.amount, srcUid, lane);
        return;
      }
    }
    // 500.1-1, 500.1-2 (500.1i: a tick reaches a Dormant unit)
    if (flag(target, "is_tool") || flag(target, "is_hub")) {
      emit("damage_discarded", target.uid, d, srcUid, "tool_or_hub");
      return;
    }
    if (flag(target, "dormant") && !action.allows_dormant && !isTick) {
      emit("damage_discarded", target.uid, d, srcUid, "dormant");
      return;
    }
    // 500.1-4
    if (num(target, "ignore_charges") > 0) {
      target.ignore_charges -= 1;
      emit("ignore_charge_spent", target.uid, 0, action.source == null ? null : action.source);
      return;
    }
    // 500.1-5, 500.1-6 (500.1d: ticks ignore Armor)
    if (!isTick) {
      const armor = big(num(target, "armor"));
      d = armorFlat(armorPercentage(d, armor, ruleset), armor);
    }
    // 500.1-7
    if (flag(target, "has_cap")) {
      const cap = big(num(target, "cap"));
      if (d > cap) d = cap > 0n ? cap : 0n;
    }
    // 500.1-8, 500.1-9, 500.1a
    for (const [field, detail] of [["subrogated", "subrogated"], ["insurance", "plain"]]) {
      const points = big(num(target, field));
      if (d <= 0n || points <= 0n) continue;
      const need = ceilDiv(d, 25n);
      const spent = points < need ? points : need;
      const absorbed = d < 25n * spent ? d : 25n * spent;
      target[field] = Number(points - spent);
      d -= absorbed;
      emit("insurance_prevented", target.uid, absorbed, source ? source.uid : null, detail);
      if (detail === "subrogated" && source) subrogationPayback(source, target, Number(absorbed));
    }
    // 500.1-10, 500.1e
    let shieldAbsorbed = 0n;
    const pool = big(num(target, "shield"));
    if (d > 0n && pool > 0n) {
      const m = big(source ? num(source, "shield_multiplier", 1) : 1);
      let drained;
      if (m * d < pool) {
        drained = m * d;
        shieldAbsorbed = d;
      } else {
        drained = pool;
        shieldAbsorbed = ruleset.shield_multiplier_rounding === "floor" ? floorDiv(pool, m) : ceilDiv(pool, m);
        if (shieldAbsorbed > d) shieldAbsorbed = d;
      }
      target.shield = Number(pool - drained);
      d -= shieldAbsorbed;
      emit("shield_damaged", target.uid, drained, source ? source.uid : null);
      if (target.shield === 0) emit("shield_broken", target.uid, 0, source ? source.uid : null);
    }
    // 500.1-12
    const vitality = big(num(target, "vitality", 100));
    if (d > 0n && d >= vitality && flag(target, "defy_death")) {
      let cut = vitality - big(ruleset.defy_death_leaves);
      if (cut < 0n) cut = 0n;
      emit("defy_death", target.uid, d - cut, source ? source.uid : null);
      target.defy_death = false;
      target.defy_death_spent = true;
      d = cut;
    }
    // 500.1-13
    const lost = d < vitality ? d : vitality;
    if (lost > 0n) emit("damage_taken", target.uid, lost, source ? source.uid : null, lane);
    if (source && shieldAbsorbed + lost > 0n) emit("credit", source.uid, shieldAbsorbed + lost, target.uid);
    if (source && lost > 0n) emit("feast", source.uid, lost, target.uid);
    if (lost > 0n) loseListeners(target, Number(lost), source ? source.uid : null);
  }

  for (const action of scenario.actions) damage(action);
  const observation = { protocol: "referee/2", board, events };
  if (scenario.id !== undefined) observation.id = scenario.id;
  return observation;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  try {
    process.stdout.write(JSON.stringify(runScenario(JSON.parse(line))) + "\n");
  } catch (error) {
    process.stderr.write(`partial engine: ${error.message}\n`);
    process.exit(1);
  }
});
