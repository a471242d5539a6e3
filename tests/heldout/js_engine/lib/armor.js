'use strict';
// Armor (500.2): exact integer arithmetic, never a float square root.
const { bug } = require('./bugs');

/** least s in [lo, hi] with ok(s); ok is monotone (false...true) and ok(hi) holds */
function leastTrue(lo, hi, ok) {
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) hi = mid; else lo = mid + 1n;
  }
  return lo;
}

/**
 * 500.2a/500.2c: the damage surviving the percentage reduction, rounded up against the defender.
 * 500.2d: negative Armor amplifies (INT-001: mirror by default, or reciprocal).
 * @param {number} damage  @param {number} armor  @param {string} negativeReading
 */
function applyPercentage(damage, armor, negativeReading) {
  if (damage <= 0 || armor === 0) return damage;
  const d = BigInt(damage);
  if (armor > 0) {
    const A = BigInt(armor);
    // least s with s * (sqrt(A) + 20) >= 20 d  <=>  20 (d - s) <= s sqrt(A)
    const s = leastTrue(0n, d, (s) => {
      const lhs = 20n * (d - s);
      if (lhs <= 0n) return true;
      return lhs * lhs <= s * s * A;
    });
    return Number(s);
  }
  const B = BigInt(-armor);
  if (negativeReading === 'reciprocal') {
    // s >= d (sqrt(B) + 20) / 20  <=>  20 (s - d) >= d sqrt(B)
    let hi = d * 2n + 1n;
    const ok = (s) => { const l = 20n * (s - d); return l >= 0n && l * l >= d * d * B; };
    while (!ok(hi)) hi *= 2n;
    return Number(leastTrue(d, hi, ok));
  }
  // mirror: s (20 + sqrt(B)) >= d (20 + 2 sqrt(B))  <=>  20 (s - d) >= sqrt(B) (2d - s)
  const s = leastTrue(d, 2n * d, (s) => {
    const r = 2n * d - s;
    if (r <= 0n) return true;
    const l = 20n * (s - d);
    return l >= 0n && l * l >= B * r * r;
  });
  return Number(s);
}

/** 500.2b: 1 per 5 Armor, never below 0; negative Armor has no flat step (500.2d). */
function applyFlat(damage, armor) {
  if (armor <= 0) return damage;
  return Math.max(0, damage - Math.floor(armor / 5));
}

/** Both Armor steps, 500.1-5 then 500.1-6. */
function applyArmor(damage, armor, ruleset) {
  if (bug('flat_before_percentage')) {
    return applyPercentage(applyFlat(damage, armor), armor, ruleset.negative_armor);
  }
  return applyFlat(applyPercentage(damage, armor, ruleset.negative_armor), armor);
}

module.exports = { applyArmor, applyPercentage, applyFlat };
