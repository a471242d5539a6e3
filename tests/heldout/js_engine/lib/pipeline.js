'use strict';
// One damage instance through 500.1. Used by `damage`, by `hit` (then answered), and by
// every hit of a Bloodletting activation.
const { bug } = require('./bugs');
const { applyArmor } = require('./armor');
const { spendPoints } = require('./insurance');
const { applyDefyDeath, loseVitality } = require('./vitality');
const { creditSource } = require('./attribution');
const { payVitalityCost } = require('./costs');
const { sideRefusal } = require('./sides');

const TICKS = new Set(['burn', 'venom']);

/** 500.1h: Prismbreak (x1.5 rounded up), then the rune, then the Forge Core reduction. */
function adjustTick(unit, amount) {
  let t = amount;
  if (unit.f.prismbroken) t = Math.ceil((3 * t) / 2);
  t -= unit.f.rune_tick_reduction;
  t -= unit.f.forge_tick_reduction;
  return t;
}

/** 500.1-10: how much damage a Shield pool absorbs and how many points it loses. */
function shieldAbsorb(pool, left, multiplier, rounding) {
  if (pool <= 0 || left <= 0) return { drained: 0, absorbed: 0 };
  const m = Math.max(1, multiplier);
  if (left * m <= pool) return { drained: left * m, absorbed: left };
  const absorbed = rounding === 'floor' ? Math.floor(pool / m) : Math.ceil(pool / m);
  return { drained: pool, absorbed: Math.min(absorbed, left) };
}

/**
 * @typedef {{target:string, amount:number, source:string|null, kind:string, allows_dormant?:boolean}} Instance
 * @typedef {{entered:boolean, insuranceSpent:number, afterShield:number, lost:number,
 *   damageEvent:boolean, landed:boolean}} Outcome
 */

/** @param {import('./battle').Battle} b @param {Instance} inst @returns {Outcome} */
function resolveDamage(b, inst) {
  const out = { entered: false, insuranceSpent: 0, afterShield: 0, lost: 0, damageEvent: false, landed: false };
  const recipient = b.unit(inst.target);
  const sourceUid = inst.source === undefined ? null : inst.source;
  const source = b.unit(sourceUid);
  const kind = inst.kind || 'hit';
  let amount = inst.amount;
  if (!recipient.alive || amount <= 0) return out; // 500.1-3
  if (TICKS.has(kind)) {
    amount = adjustTick(recipient, inst.amount);
    if (amount <= 0) {
      b.emit('tick_prevented', recipient.uid, inst.amount, sourceUid, kind);
      return out;
    }
  }
  // the gates, 500.1-1 and 500.1-2
  if (recipient.discardsCombat) {
    b.emit('damage_discarded', recipient.uid, amount, sourceUid, 'tool_or_hub');
    return out;
  }
  if (recipient.f.dormant && !inst.allows_dormant && !TICKS.has(kind)) {
    b.emit('damage_discarded', recipient.uid, amount, sourceUid, 'dormant');
    return out;
  }
  // 500.1-4
  if (recipient.f.ignore_charges > 0) {
    recipient.f.ignore_charges -= 1;
    b.emit('ignore_charge_spent', recipient.uid, 0, sourceUid);
    return out;
  }
  out.entered = true;
  const ignoresArmor = TICKS.has(kind) || kind === 'reflect';
  let left = amount;
  const cap = () => { if (recipient.f.has_cap) left = Math.min(left, Math.max(0, recipient.f.cap)); };
  if (bug('cap_before_armor')) cap();
  if (!ignoresArmor) left = applyArmor(left, recipient.f.armor, b.ruleset); // 500.1-5, 500.1-6
  if (!bug('cap_before_armor')) cap(); // 500.1-7

  // 500.1-8: Subrogated points, then the source pays back what they absorbed
  const latePaybacks = [];
  const sub = spendPoints(recipient.f.subrogated, left);
  if (sub.spent > 0) {
    recipient.f.subrogated -= sub.spent;
    out.insuranceSpent += sub.spent;
    left -= sub.absorbed;
    b.emit('insurance_prevented', recipient.uid, sub.absorbed, sourceUid, 'subrogated');
    const noPayback = kind === 'reflect' && b.ruleset.reflect_subrogation === 'no_payback';
    if (source && !noPayback) {
      const side = sideRefusal(source, recipient);
      if (!side) {
        payVitalityCost(b, source, sub.absorbed, 'retaliation', { channel: 'subrogation', beneficiary: recipient.uid });
      } else if (side === 'ally' && bug('ally_payback_late')) {
        latePaybacks.push({ payer: source, amount: sub.absorbed });
      }
    }
  }
  // 500.1-9: plain points
  const plain = spendPoints(recipient.f.insurance, left);
  if (plain.spent > 0) {
    recipient.f.insurance -= plain.spent;
    out.insuranceSpent += plain.spent;
    left -= plain.absorbed;
    b.emit('insurance_prevented', recipient.uid, plain.absorbed, sourceUid, 'plain');
  }
  // 500.1-10: Shield
  const multiplier = source ? source.f.shield_multiplier : 1;
  const sh = shieldAbsorb(recipient.f.shield, left, multiplier, b.ruleset.shield_multiplier_rounding);
  if (sh.drained > 0) {
    recipient.f.shield -= sh.drained;
    b.emit('shield_damaged', recipient.uid, sh.drained, sourceUid);
    if (recipient.f.shield === 0) b.emit('shield_broken', recipient.uid, 0, sourceUid);
  }
  left -= sh.absorbed;
  out.afterShield = left;
  // 500.1-12: defy-death
  if (left > 0) {
    const defied = applyDefyDeath(b, recipient, left, sourceUid);
    if (defied !== null) left = defied;
  }
  // 500.1-13: Vitality
  const lost = Math.min(left, recipient.f.vitality);
  out.lost = lost;
  if (lost > 0) {
    loseVitality(b, recipient, lost, {
      killer: sourceUid,
      announce: () => {
        if (kind !== 'reflect') b.emit('damage_taken', recipient.uid, lost, sourceUid, kind);
        creditSource(b, sourceUid, recipient.uid, sh.absorbed, lost);
      },
    });
  } else {
    creditSource(b, sourceUid, recipient.uid, sh.absorbed, 0);
  }
  out.landed = lost > 0;
  out.damageEvent = out.insuranceSpent > 0 ||
    (b.ruleset.damage_event_test === 'after_shield' ? out.afterShield > 0 : lost > 0);
  for (const p of latePaybacks) {
    payVitalityCost(b, p.payer, p.amount, 'retaliation', { channel: 'subrogation', beneficiary: recipient.uid, sidesChecked: true });
  }
  return out;
}

module.exports = { resolveDamage, adjustTick, shieldAbsorb, TICKS };
