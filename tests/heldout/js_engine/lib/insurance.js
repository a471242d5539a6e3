'use strict';
// Insurance points (500.1-8, 500.1-9, 500.1a): each absorbs up to 25, spent whole.
const { bug } = require('./bugs');

/** @returns {{spent:number, absorbed:number}} */
function spendPoints(points, left) {
  if (points <= 0 || left <= 0) return { spent: 0, absorbed: 0 };
  const wanted = bug('insurance_round_down') ? Math.floor(left / 25) : Math.ceil(left / 25);
  const spent = Math.min(points, wanted);
  return { spent, absorbed: Math.min(left, 25 * spent) };
}

module.exports = { spendPoints };
