#!/usr/bin/env node
// A tiny non-Python engine for the referee guide: Vitality costs (500.8) only.
//
// It speaks the referee/2 JSON-lines protocol: one scenario per line on stdin, one
// observation per line on stdout. Check it with:
//
//   referee check --engine "node examples/node/engine.js" --kinds cost
//
// A scenario with an action it does not implement is answered with a crash (exit 1)
// and a message on stderr, which the harness reports as an engine fault.
"use strict";

const readline = require("readline");

const DEFY_DEATH_ANSWERS = { bloodletting: true, retaliation: true, interest: false, self_destruct: false };
const RESET_RUNES = ["adrenaline", "momentum", "bolster"];

function runScenario(scenario) {
  const board = scenario.board.map((u) => Object.assign({}, u));
  const byUid = new Map(board.map((u) => [u.uid, u]));
  const leaves = (scenario.ruleset && scenario.ruleset.defy_death_leaves) || 1;
  const events = [];
  const emit = (name, unit, amount = 0, other = null, detail = null) =>
    events.push({ name, unit, amount, other, detail });

  function die(unit, killer) {
    const start = events.length;
    emit("death", unit.uid, 0, killer);
    unit.alive = false;
    unit.vitality = 0;
    unit.shield = 0;
    unit.charge = 0;
    for (const rune of RESET_RUNES) unit[rune] = 0;
    for (const other of board) if (other !== unit && other.alive) emit("macabre", other.uid, 0, unit.uid);
    if (unit.deathrattle) emit("deathrattle", unit.uid);
    if (unit.vessels > 0 && unit.max_vitality > 0) {  // a maximum of 0 has no body to return (INT-120)
      emit("vessel_revival", unit.uid);
      revive(unit);
      unit.vessels -= 1;
      revivalChannels(unit, killer);
    } else if (unit.everlasting && unit.max_vitality > 0) {
      emit("everlasting_scheduled", unit.uid, 10000, killer);
    }
    emit("vessel_batch", unit.uid, events.length - start, null, "death");
  }

  // 500.9c-g, 500.9l: the body every revival shares.
  function revive(unit) {
    unit.armor -= unit.armor_change;
    unit.armor_change = 0;
    unit.entrapped = unit.prismbroken = unit.dormant = false;
    unit.defy_death = unit.defy_death || unit.defy_death_spent;
    unit.defy_death_spent = false;
    unit.everlasting = unit.everlasting && !unit.everlasting_life_grant;
    unit.everlasting_life_grant = false;
    unit.alive = true;
    unit.vitality = unit.max_vitality;
    unit.charge = 0;
    unit.incarnation += 1;
    unit.reliquary_speed = unit.reliquary;
  }

  // 500.9h-k: the self channel (a Phylactery line), then each living ally's listener.
  function revivalChannels(unit, killer) {
    const aim = (channel, listener) => {
      if (!listener.revival_aims_killer) return emit(channel, listener.uid, 0, unit.uid, "phylactery");
      const k = killer === null ? undefined : byUid.get(killer);
      if (k && k.alive && !k.entrapped && !k.dormant && !k.is_tool && !k.is_hub) {
        emit(channel, listener.uid, 0, killer, "phylactery");
      } else {
        emit(channel, listener.uid, 0, null, "phylactery");
        emit("revival_focus", listener.uid, 0, killer, "phylactery");
      }
    };
    if (unit.hears_phylactery_revival) aim("revival_self", unit);
    const allies = board.filter((u) => u.side === unit.side && u !== unit)
      .sort((a, b) => a.row - b.row || a.col - b.col);
    for (const ally of allies) if (ally.alive && ally.hears_ally_revival) aim("revival_ally", ally);
  }

  function payCost(action) {
    const payer = byUid.get(action.payer);
    const kind = action.cost_kind;
    const beneficiary = action.beneficiary === undefined ? null : action.beneficiary;
    const other = beneficiary === null ? null : byUid.get(beneficiary);
    if (kind === "retaliation" && other) {
      if (other === payer || other.side === payer.side) {
        emit("cost_refused", payer.uid, 0, beneficiary, other === payer ? "self" : "ally");
        return;
      }
    }
    const refusal = !payer.alive ? "dead" : payer.entrapped ? "entrapped"
      : kind === "retaliation" && payer.dormant ? "dormant" : null;
    if (refusal) {
      emit("cost_refused", payer.uid, 0, beneficiary, refusal);
      return;
    }
    const discards = payer.is_tool || payer.is_hub;
    const owed = discards ? 0 : kind === "self_destruct" ? payer.vitality
      : Math.min(Math.max(action.amount, 0), payer.vitality);
    let price = owed;
    if (DEFY_DEATH_ANSWERS[kind] && payer.defy_death && owed > 0 && owed >= payer.vitality) {
      price = Math.max(payer.vitality - leaves, 0);
      emit("defy_death", payer.uid, Math.max(action.amount, 0) - price, beneficiary);
      payer.defy_death = false;
      payer.defy_death_spent = true;
    }
    if (kind === "self_destruct" && payer.shield > 0 && !discards) {
      emit("shield_scrapped", payer.uid, payer.shield);
      payer.shield = 0;
    }
    if (kind === "interest") payer.max_vitality -= price;
    const lost = payer.alive ? Math.min(price, payer.vitality) : 0;
    payer.vitality -= lost;
    if (lost > 0) {
      emit("cost_paid", payer.uid, lost, beneficiary, kind);
      if (kind === "interest") emit("max_vitality_lowered", payer.uid, lost);
      if (kind === "retaliation" && beneficiary !== null) {
        emit("credit", beneficiary, lost, payer.uid);
        if (payer.is_boss) emit("phasebreak_check", payer.uid, lost, beneficiary);
        else emit("feast", beneficiary, lost, payer.uid);
      }
      emit("vitality_lost", payer.uid, lost);
      for (const rune of RESET_RUNES) if (payer[rune] > 0) emit("rune_reset", payer.uid, 0, null, rune);
      emit("threshold_reevaluated", payer.uid);
      for (const rune of RESET_RUNES) payer[rune] = 0;
      if (payer.vitality <= 0) {
        die(payer, kind === "retaliation" && beneficiary !== payer.uid ? beneficiary : null);
      }
    }
  }

  for (const action of scenario.actions) {
    if (action.kind !== "cost") throw new Error(`unsupported action kind ${action.kind}`);
    payCost(action);
  }
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
    process.stderr.write(`node engine: ${error.message}\n`);
    process.exit(1);
  }
});
