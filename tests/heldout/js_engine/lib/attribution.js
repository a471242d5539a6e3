'use strict';
// Damage attribution (500.5): credit and Feast.
const { bug } = require('./bugs');

/**
 * Credit a source with what it dealt (Shield absorbed + Vitality lost, INT-019)
 * and feed its Feast with the Vitality portion only (500.1e, 500.5c).
 */
function creditSource(b, sourceUid, recipientUid, shieldAbsorbed, vitalityLost, feeds = true) {
  if (sourceUid === null || sourceUid === undefined) return;
  const credited = shieldAbsorbed + vitalityLost;
  if (credited > 0) b.emit('credit', sourceUid, credited, recipientUid);
  const fed = bug('feast_includes_shield') ? credited : vitalityLost;
  if (feeds && fed > 0) b.emit('feast', sourceUid, fed, recipientUid);
}

module.exports = { creditSource };
