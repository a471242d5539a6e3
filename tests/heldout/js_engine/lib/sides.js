'use strict';
// Who may answer whom (500.6h).
const { bug } = require('./bugs');

/** why a retaliation from `retaliator` against `payer` is refused on sides alone, or null */
function sideRefusal(payer, retaliator) {
  if (!retaliator) return null;
  if (payer === retaliator) return 'self';
  if (payer.side === retaliator.side && !bug('retaliate_allies')) return 'ally';
  return null;
}

module.exports = { sideRefusal };
