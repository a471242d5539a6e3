'use strict';
// Losing Vitality, shared by every damage instance and every Vitality cost:
// the loss listeners (500.6c, 500.8d), the defy-death rune (500.1-12, 500.8f) and death (500.4).
const { bug } = require('./bugs');

/**
 * The defy-death rune, asked by the damage pipeline and by the costs that opt in.
 * Returns the Vitality still to take, or null when the rune does not answer.
 * @param {import('./battle').Battle} b @param {import('./battle').Unit} unit
 * @param {number} incoming what would be taken (before clamping)  @param {string|null} other
 */
function applyDefyDeath(b, unit, incoming, other) {
  if (!unit.f.defy_death || incoming < unit.f.vitality) return null;
  const leaves = Number(b.ruleset.defy_death_leaves);
  const take = Math.max(0, unit.f.vitality - leaves);
  b.emit('defy_death', unit.uid, incoming - take, other);
  if (!bug('defy_charge_kept')) {
    unit.f.defy_death = false;
    unit.f.defy_death_spent = true;
  }
  return take;
}

/** The listeners keyed to losing Vitality: runes reset, thresholds re-evaluate. */
function runLossListeners(b, unit, lost) {
  b.emit('vitality_lost', unit.uid, lost);
  for (const rune of ['adrenaline', 'momentum', 'bolster']) {
    if (unit.f[rune] > 0) {
      unit.f[rune] = 0;
      b.emit('rune_reset', unit.uid, 0, null, rune);
    }
  }
  b.emit('threshold_reevaluated', unit.uid);
}

/**
 * The one death routine (500.4): announce, clear the living combat state (INT-010),
 * Macabre for every other living unit (500.4c), deathrattle, then the batch closes (500.4e).
 */
function processDeath(b, unit, killer) {
  const start = b.events.length;
  b.emit('death', unit.uid, 0, killer);
  unit.f.alive = false;
  unit.f.vitality = 0;
  unit.f.shield = 0;
  unit.f.charge = 0;
  unit.f.adrenaline = 0;
  unit.f.momentum = 0;
  unit.f.bolster = 0;
  for (const other of b.units) {
    if (other === unit || !other.alive) continue;
    if (bug('macabre_allies_only') && other.side !== unit.side) continue;
    b.emit('macabre', other.uid, 0, unit.uid);
  }
  if (unit.f.deathrattle) b.emit('deathrattle', unit.uid);
  b.emit('vessel_batch', unit.uid, b.events.length - start, null, 'death');
}

/**
 * Take Vitality from a unit: `announce` emits what the caller reports first (the damage-taken
 * fanout or a cost's channel, then credit and Feast), then the listeners run and, at 0, the unit dies.
 * @param {{announce?: () => void, killer?: string|null, listeners?: boolean}} opts
 */
function loseVitality(b, unit, lost, opts) {
  if (lost <= 0) return 0;
  unit.f.vitality -= lost;
  if (opts.announce) opts.announce();
  if (opts.listeners !== false) runLossListeners(b, unit, lost);
  if (unit.f.vitality <= 0) processDeath(b, unit, opts.killer === undefined ? null : opts.killer);
  return lost;
}

module.exports = { applyDefyDeath, runLossListeners, processDeath, loseVitality };
