'use strict';
// Seeded bugs, enabled by name through HELDOUT_BUGS=a,b (read once at start).
// Each name is checked where the bug lives; see BUGS.md for the catalogue.
const KNOWN = new Set([
  'cost_spends_shield',      // costs.payVitalityCost: a Vitality cost drains Shield first (500.8a)
  'defy_charge_kept',        // vitality.applyDefyDeath: the once-per-life charge is never spent (500.8f / 500.1-12)
  'dead_payer_pays',         // costs.refusalReason: a dead payer is not refused (500.8e / 500.6e)
  'retaliate_allies',        // sides.isHostile: allies count as enemies (500.6h)
  'insurance_round_down',    // insurance.spendPoints: points spent rounded down (500.1a)
  'macabre_allies_only',     // vitality.processDeath: Macabre only for the dead unit's allies (500.4c)
  'cost_skips_listeners',    // costs.payVitalityCost: the loss listeners are not run for a cost (500.8d)
  'cap_before_armor',        // pipeline: the incoming-damage cap truncates before Armor (500.1-7)
  'flat_before_percentage',  // armor.applyArmor: flat reduction before the percentage (500.2b)
  'retort_every_event',      // retaliation: Retort answers every damage event, landed or not (500.7f)
  'ally_payback_late',       // pipeline: an allied source pays the Subrogation payback, after the instance (500.6h)
  'feast_includes_shield',   // attribution.creditSource: Feast counts Shield-absorbed damage (500.1e / 500.5c)
]);
const raw = (process.env.HELDOUT_BUGS || '').split(',').map((s) => s.trim()).filter(Boolean);
for (const name of raw) {
  if (!KNOWN.has(name)) {
    process.stderr.write(`unknown HELDOUT_BUGS entry: ${name}\n`);
    process.exit(2);
  }
}
const enabled = new Set(raw);
/** @param {string} name */
function bug(name) { return enabled.has(name); }
module.exports = { bug, KNOWN };
