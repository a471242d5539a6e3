#!/usr/bin/env node
'use strict';
// Runs `referee check` once per seeded bug (each alone, a fresh state folder each time, so no
// stored failure is replayed) and prints a Markdown table row per bug.
// Usage (from /work/main): node tests/heldout/js_engine/verify_bugs.js [bug ...] [--seed N] [--kinds a,b]
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { KNOWN } = require('./lib/bugs');

const here = path.relative(process.cwd(), __dirname) || '.';
const args = process.argv.slice(2);
let seed = '1';
const si = args.indexOf('--seed');
if (si >= 0) { seed = args[si + 1]; args.splice(si, 2); }
const profile = fs.readFileSync(path.join(__dirname, 'profile.toml'), 'utf8');
const list = (key) => profile.match(new RegExp(`^${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm'))[1]
  .split(',').map((s) => s.trim().replace(/"/g, '')).filter(Boolean).join(',');
let KINDS = list('kinds');
const ki = args.indexOf('--kinds');
if (ki >= 0) { KINDS = args[ki + 1]; args.splice(ki, 2); }
const WITHOUT = list('without');
const names = args.length ? args : [...KNOWN];

for (const name of names) {
  const state = path.join(here, '.referee-bugs', name);
  fs.rmSync(state, { recursive: true, force: true });
  let out;
  try {
    out = execFileSync('referee', ['check', '--engine', `env HELDOUT_BUGS=${name} node ${here}/engine.js`,
      '--kinds', KINDS, '--without', WITHOUT, '-n', '2000', '--seed', seed, '--state-dir', state, '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch (e) { out = e.stdout; }
  const r = JSON.parse(out);
  const atFault = (r.explain || []).slice(-1)[0] || {};
  const d = (r.divergences || [])[0] || {};
  console.log(`| ${name} | ${r.status} | ${r.first_failure_after ?? '-'} | ${atFault.clause || '-'} | ${d.path || (r.fault ? 'fault' : '-')} |`);
}
