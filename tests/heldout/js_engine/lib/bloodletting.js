'use strict';
// Bloodletting (800.4): a cost paid by the first eligible unit in reading order, then the hits.
const { payVitalityCost } = require('./costs');
const { resolveHit } = require('./retaliation');

/** Before anything else of an activation: charge emptied, Reliquary Speed cleared. */
function startActivation(b, caster) {
  caster.f.charge = 0;
  if (caster.f.reliquary_speed > 0) {
    b.emit('reliquary_cleared', caster.uid, caster.f.reliquary_speed);
  }
  caster.f.reliquary_speed = 0;
}

/** 800.4b, 800.4c: the payer, or null */
function choosePayer(b, caster) {
  if (caster.f.is_boss) return caster.alive && !caster.f.entrapped ? caster : null;
  const candidates = b.readingOrder(b.units.filter((u) => u.side === caster.side));
  return candidates.find((u) => u.alive && !u.f.entrapped && !u.f.is_boss) || null;
}

/**
 * The Bloodletting step. Returns 'paid' | 'skipped' | 'aborted' | 'failed'.
 */
function resolveBloodletting(b, caster, printedCost) {
  const cost = printedCost - caster.f.bloodletting_reduction; // 800.4l
  if (cost <= 0) return 'skipped'; // 800.4m
  const payer = choosePayer(b, caster);
  if (!payer) {
    b.emit('activation_aborted', caster.uid);
    return 'aborted';
  }
  const report = { defied: false };
  const paid = payVitalityCost(b, payer, cost, 'bloodletting', { channel: 'bloodletting_paid', beneficiary: caster.uid, report });
  if (paid <= 0) {
    // 800.4d; INT-103: a payment a defy-death rune brought to 0 fails too, unless the ruleset says it continues
    if (!(report.defied && b.ruleset.bloodletting_defied_to_zero === 'continues')) {
      b.emit('activation_failed', caster.uid, 0, payer.uid);
      return 'failed';
    }
  }
  return 'paid';
}

function activateWithBloodletting(b, action) {
  const caster = b.unit(action.caster);
  startActivation(b, caster);
  const result = resolveBloodletting(b, caster, action.cost);
  if (result === 'aborted' || result === 'failed') return;
  for (const hit of action.hits || []) {
    resolveHit(b, {
      target: hit.target, amount: hit.amount, source: caster.uid, kind: hit.damage_kind || 'hit',
      allows_dormant: !!hit.allows_dormant, riposte_rolls: hit.riposte_rolls || [],
    });
  }
}

module.exports = { activateWithBloodletting, resolveBloodletting, startActivation, choosePayer };
