'use strict';
// A hit and what answers it (500.6, 500.7): Thorns, Riposte, Retort, per attacker (INT-110).
const { bug } = require('./bugs');
const { resolveDamage } = require('./pipeline');
const { payVitalityCost, refusalReason } = require('./costs');
const { sideRefusal } = require('./sides');

class RollCursor {
  /** @param {boolean[]} rolls */
  constructor(rolls) { this.rolls = rolls || []; this.i = 0; }
  next() {
    if (this.i >= this.rolls.length) throw new Error('too few riposte_rolls');
    return this.rolls[this.i++];
  }
}

/**
 * The recipient answers each attacker of a damage event.
 * @param {import('./battle').Battle} b
 */
function answerDamageEvent(b, recipient, attackers, outcome, cursor) {
  const answersLanded = bug('retort_every_event') ? outcome.damageEvent : outcome.landed;
  if (!outcome.damageEvent) return;
  const f = recipient.f;
  for (const attackerUid of attackers) {
    if (attackerUid === null || attackerUid === undefined) continue; // 500.1c: nobody to answer
    const attacker = b.unit(attackerUid);
    const side = sideRefusal(attacker, recipient);
    if (side) {
      if (f.thorns > 0 || f.riposte > 0 || (f.retort > 0 && answersLanded)) {
        b.emit('cost_refused', attacker.uid, 0, recipient.uid, side);
      }
      continue;
    }
    const pay = (amount, channel) => payVitalityCost(b, attacker, amount, 'retaliation',
      { channel, beneficiary: recipient.uid, sidesChecked: true });
    if (f.thorns > 0) pay(f.thorns, 'thorns');
    if (f.riposte > 0) {
      const refused = refusalReason(attacker, 'retaliation', recipient, true);
      if (refused && b.ruleset.riposte_roll_on_refused === 'kept') {
        // INT-106 (kept): no roll is made against an attacker that is not a legal target
      } else if (cursor.next()) {
        pay(f.riposte, 'riposte');
      } else {
        b.emit('riposte_missed', attacker.uid, 0, recipient.uid);
      }
    }
    if (f.retort > 0 && answersLanded) pay(f.retort, 'retort');
  }
}

/** A hit: one instance through 500.1, then the recipient's answers. */
function resolveHit(b, inst) {
  const outcome = resolveDamage(b, inst);
  const recipient = b.unit(inst.target);
  answerDamageEvent(b, recipient, [inst.source === undefined ? null : inst.source], outcome,
    new RollCursor(inst.riposte_rolls));
  return outcome;
}

module.exports = { resolveHit, answerDamageEvent, RollCursor };
