'use strict';
// An ability's lines (400.8): lanes, per counts and conditions sampled when each line resolves,
// recipient gates, then the keyword's own rule or the damage / recovery pipeline.
const { resolveHit } = require('./retaliation');
const { resolveBloodletting, startActivation } = require('./bloodletting');
const { processDeath } = require('./vitality');

const LANES = ['activation', 'before_hit', 'hit', 'after_hit'];

/** 400.8-2: the lane a line resolves in */
function laneOf(line) {
  if (line.effect === 'crush') return 'before_hit';
  if (line.effect === 'maim' || line.effect === 'cull') return 'after_hit';
  if (line.effect === 'bloodletting') return 'activation';
  if (line.lane) return line.lane;
  return line.effect === 'damage' ? 'hit' : 'after_hit';
}

/** the lines in resolution order; Passives do not resolve (INT-202) */
function resolutionOrder(lines) {
  const active = lines.map((line, i) => ({ line, i })).filter(({ line }) => (line.kind || 'rider') !== 'passive');
  const rank = ({ line, i }) => [LANES.indexOf(laneOf(line)), line.effect === 'bloodletting' ? 0 : 1, i];
  return active.sort((a, b) => {
    const ra = rank(a), rb = rank(b);
    for (let k = 0; k < 3; k++) if (ra[k] !== rb[k]) return ra[k] - rb[k];
    return 0;
  }).map(({ line }) => line);
}

/** a living, targetable unit (the recipient gates of 400.8-5, INT-203) */
function isLegal(u) { return u.alive && !u.f.entrapped && !u.f.dormant && !u.f.untargetable; }

function countPer(b, caster, per) {
  const pred = {
    burning_enemy: (u) => u.side !== caster.side && u.f.burn > 0,
    venomed_enemy: (u) => u.side !== caster.side && u.f.venom > 0,
    maimed_enemy: (u) => u.side !== caster.side && u.f.maim > 0,
    enemy: (u) => u.side !== caster.side,
    ally: (u) => u.side === caster.side,
  }[per];
  if (!pred) throw new Error(`unknown per ${per}`);
  return b.units.filter((u) => u !== caster && isLegal(u) && pred(u)).length;
}

function conditionHolds(b, caster, targets, condition) {
  const first = targets.length ? b.unit(targets[0]) : null;
  switch (condition) {
    case 'target_alive': return !!first && first.alive;
    case 'target_burning': return !!first && first.alive && first.f.burn > 0;
    case 'enemy_burning': return b.units.some((u) => u !== caster && u.side !== caster.side && isLegal(u) && u.f.burn > 0);
    case 'caster_damaged': return caster.f.vitality < caster.f.max_vitality;
    default: throw new Error(`unknown condition ${condition}`);
  }
}

function amountOf(line, numbers) {
  const a = line.amount === undefined ? 0 : line.amount;
  if (typeof a === 'number') return a;
  const m = /^\{(.+)\}$/.exec(a);
  const name = m ? m[1] : a;
  if (!(name in numbers)) throw new Error(`unknown card number ${a}`);
  return numbers[name];
}

function recipientsOf(b, caster, targets, to) {
  switch (to || 'target') {
    case 'target': return targets.map((t) => b.unit(t));
    case 'caster': return [caster];
    case 'allies': return b.readingOrder(b.units.filter((u) => u.side === caster.side && u !== caster));
    case 'enemies': return b.readingOrder(b.units.filter((u) => u.side !== caster.side));
    default: throw new Error(`unknown recipients ${to}`);
  }
}

/** 400.8-5: the first gate refusing a recipient, or null */
function gate(u, effect) {
  if (!u.alive) return 'dead';
  if (u.f.entrapped) return 'entrapped';
  if (u.f.dormant) return 'dormant';
  if (u.f.untargetable) return 'untargetable';
  if (effect !== 'damage' && u.discardsCombat) return 'tool_or_hub';
  return null;
}

function applyKeyword(b, caster, recipient, effect, amount, rolls) {
  const f = recipient.f;
  switch (effect) {
    case 'damage':
      resolveHit(b, { target: recipient.uid, amount, source: caster.uid, kind: 'hit', allows_dormant: false, riposte_rolls: rolls });
      return;
    case 'burn': case 'venom': case 'maim':
      if (amount <= 0) return;
      f[effect] += amount;
      b.emit('status_applied', recipient.uid, amount, caster.uid, effect);
      return;
    case 'crush':
      if (amount <= 0) return;
      f.armor -= amount;
      f.armor_change -= amount;
      b.emit('status_applied', recipient.uid, amount, caster.uid, 'crush');
      return;
    case 'cull':
      if (f.vitality > amount) return;
      b.emit('culled', recipient.uid, f.vitality, caster.uid);
      processDeath(b, recipient, caster.uid);
      return;
    case 'restore': {
      const eligible = Math.min(amount, f.max_vitality - f.vitality); // 500.3c
      if (eligible <= 0) return;
      const prevented = Math.min(2 * f.maim, eligible); // 500.3d
      if (prevented > 0) {
        const consumed = Math.ceil(prevented / 2);
        f.maim -= consumed; // INT-211: an ability's Restore reports only what it restored
      }
      const restored = eligible - prevented;
      if (restored > 0) {
        f.vitality += restored;
        b.emit('vitality_restored', recipient.uid, restored, caster.uid);
      }
      return;
    }
    default: throw new Error(`unknown effect ${effect}`);
  }
}

function resolveAbility(b, action) {
  const caster = b.unit(action.caster);
  const ability = action.ability || {};
  const numbers = ability.numbers || {};
  const targets = action.targets || [];
  startActivation(b, caster);
  for (const line of resolutionOrder(ability.lines || [])) {
    if (line.condition && !conditionHolds(b, caster, targets, line.condition)) {
      b.emit('condition_failed', caster.uid, 0, null, line.condition);
      continue;
    }
    let amount = amountOf(line, numbers);
    if (line.per) amount *= countPer(b, caster, line.per);
    b.emit('line_resolved', caster.uid, amount, null, line.effect);
    if (line.effect === 'bloodletting') {
      const r = resolveBloodletting(b, caster, amount);
      if (r === 'aborted' || r === 'failed') return;
      continue;
    }
    for (const recipient of recipientsOf(b, caster, targets, line.to)) {
      const refused = gate(recipient, line.effect);
      if (refused) {
        b.emit('line_refused', recipient.uid, amount, caster.uid, refused);
        continue;
      }
      applyKeyword(b, caster, recipient, line.effect, amount, action.riposte_rolls || []);
    }
  }
}

module.exports = { resolveAbility };
