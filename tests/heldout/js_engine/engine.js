#!/usr/bin/env node
'use strict';
// A JSON-lines engine for referee/2: one scenario per stdin line, one observation per stdout line.
// Plain CommonJS for Node >= 18, no dependencies. Seeded bugs: HELDOUT_BUGS=a,b (lib/bugs.js).
const readline = require('readline');
require('./lib/bugs'); // read HELDOUT_BUGS once, at start
const { Battle } = require('./lib/battle');
const { resolveDamage } = require('./lib/pipeline');
const { resolveHit } = require('./lib/retaliation');
const { payVitalityCost } = require('./lib/costs');
const { activateWithBloodletting } = require('./lib/bloodletting');
const { resolveAbility } = require('./lib/abilities');

const PROTOCOL = 'referee/2';

/** action kind -> handler(battle, action) */
const HANDLERS = {
  damage(b, a) {
    resolveDamage(b, { target: a.target, amount: a.amount, source: a.source ?? null,
      kind: a.damage_kind || 'hit', allows_dormant: !!a.allows_dormant });
  },
  hit(b, a) {
    resolveHit(b, { target: a.target, amount: a.amount, source: a.source ?? null,
      kind: a.damage_kind || 'hit', allows_dormant: !!a.allows_dormant, riposte_rolls: a.riposte_rolls || [] });
  },
  cost(b, a) {
    payVitalityCost(b, b.unit(a.payer), a.amount, a.cost_kind, { beneficiary: a.beneficiary ?? null });
  },
  bloodletting(b, a) {
    activateWithBloodletting(b, a);
  },
  ability(b, a) {
    resolveAbility(b, a);
  },
};

function runScenario(scenario) {
  if (scenario.protocol !== PROTOCOL) throw new Error(`unknown protocol ${scenario.protocol}`);
  if (scenario.rulebook && scenario.rulebook !== 'combat') {
    return { protocol: PROTOCOL, unsupported: { kind: scenario.actions[0].kind, reason: 'play rulebook not implemented' } };
  }
  const missing = (scenario.actions || []).find((a) => !HANDLERS[a.kind]);
  if (missing) {
    return { protocol: PROTOCOL, unsupported: { kind: missing.kind, reason: 'not implemented' } };
  }
  const b = new Battle(scenario);
  for (const action of scenario.actions) HANDLERS[action.kind](b, action);
  return b.observation();
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const scenario = JSON.parse(line);
  const observation = runScenario(scenario);
  if (scenario.id !== undefined) observation.id = scenario.id;
  process.stdout.write(JSON.stringify(observation) + '\n');
});
