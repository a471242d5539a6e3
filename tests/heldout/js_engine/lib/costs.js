'use strict';
// Vitality costs (500.8): the one operation every cost goes through — Bloodletting, Interest,
// self-destruct, and the retaliation family (Thorns, Riposte, Retort, the Subrogation payback).
const { bug } = require('./bugs');
const { sideRefusal } = require('./sides');
const { applyDefyDeath, loseVitality } = require('./vitality');
const { creditSource } = require('./attribution');

/** 500.8f: the costs a defy-death rune answers */
const DEFY_DEATH_ANSWERS = new Set(['retaliation', 'bloodletting']);

/** the first reason a payer is refused outright (500.6e, 500.6h, 500.8e), or null */
function refusalReason(payer, kind, beneficiary, sidesChecked = false) {
  if (kind === 'retaliation' && !sidesChecked) {
    const side = sideRefusal(payer, beneficiary);
    if (side) return side;
  }
  if (!payer.alive && !bug('dead_payer_pays')) return 'dead';
  if (payer.f.entrapped) return 'entrapped';
  if (kind === 'retaliation' && payer.f.dormant) return 'dormant';
  return null;
}

/**
 * Pay a Vitality cost. Returns the Vitality that actually left the payer.
 * @param {import('./battle').Battle} b
 * @param {import('./battle').Unit} payer
 * @param {number} price the printed price (ignored by a self-destruct)
 * @param {'bloodletting'|'interest'|'self_destruct'|'retaliation'} kind
 * @param {{channel?: string, beneficiary?: string|null, sidesChecked?: boolean, report?: {defied?: boolean}}} opts
 */
function payVitalityCost(b, payer, price, kind, opts = {}) {
  const channel = opts.channel || 'cost_paid';
  const beneficiaryUid = opts.beneficiary === undefined ? null : opts.beneficiary;
  const beneficiary = b.unit(beneficiaryUid);
  const reason = refusalReason(payer, kind, beneficiary, !!opts.sidesChecked);
  if (reason) {
    b.emit('cost_refused', payer.uid, 0, beneficiaryUid, reason);
    return 0;
  }
  if (payer.discardsCombat) return 0; // 500.8e: a Tool or a Hub pays nothing at all
  if (kind === 'self_destruct') {
    price = payer.f.vitality;
    if (payer.f.shield > 0) { // 500.8h: scrapped, not damaged
      b.emit('shield_scrapped', payer.uid, payer.f.shield);
      payer.f.shield = 0;
    }
  }
  if (price <= 0) return 0;
  let take = Math.min(price, payer.f.vitality);
  if (bug('cost_spends_shield') && payer.f.shield > 0) {
    const absorbed = Math.min(payer.f.shield, price);
    payer.f.shield -= absorbed;
    price -= absorbed;
    take = Math.min(price, payer.f.vitality);
  }
  if (DEFY_DEATH_ANSWERS.has(kind) && price > 0) {
    const defied = applyDefyDeath(b, payer, price, beneficiaryUid);
    if (defied !== null) take = defied;
    if (opts.report) opts.report.defied = defied !== null;
  }
  if (take <= 0) return 0;
  return loseVitality(b, payer, take, {
    killer: kind === 'retaliation' ? beneficiaryUid : null,
    listeners: !bug('cost_skips_listeners'),
    announce: () => {
      const detail = channel === 'cost_paid' ? kind : null;
      const other = channel === 'bloodletting_paid' || channel === 'cost_paid' || kind === 'retaliation' ? beneficiaryUid : null;
      b.emit(channel, payer.uid, take, other, detail);
      if (kind === 'interest') {
        payer.f.max_vitality -= take;
        b.emit('max_vitality_lowered', payer.uid, take);
      }
      if (kind === 'retaliation' && beneficiary) {
        creditSource(b, beneficiaryUid, payer.uid, 0, take, !payer.f.is_boss);
      }
    },
  });
}

module.exports = { payVitalityCost, refusalReason };
