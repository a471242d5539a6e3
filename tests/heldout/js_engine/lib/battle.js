'use strict';
// The battle state one scenario runs on: the units in board order, the ruleset and the event log.

const UNIT_DEFAULTS = {
  side: 0, row: 0, col: 0, is_tool: false, is_hub: false, is_boss: false, alive: true,
  vitality: 100, max_vitality: 100, dormant: false, entrapped: false, ignore_charges: 0, armor: 0,
  has_cap: false, cap: 0, subrogated: 0, insurance: 0, shield: 0, defy_death: false,
  shield_multiplier: 1, prismbroken: false, rune_tick_reduction: 0, forge_tick_reduction: 0,
  thorns: 0, riposte: 0, retort: 0, reflect: false, adrenaline: 0, momentum: 0, bolster: 0,
  redirect_to: null, redirect_cap: 0, intercept_by: null, maim: 0, forge_core_recovery: 0, exalt: 0,
  deathrattle: false, everlasting: false, vessels: 0, armor_change: 0, defy_death_spent: false,
  everlasting_life_grant: false, charge: 0, incarnation: 0, hears_phylactery_revival: false,
  hears_everlasting_revival: false, hears_ally_revival: false, revival_aims_killer: false,
  reliquary: 0, reliquary_speed: 0, bloodletting_reduction: 0, burn: 0, venom: 0, untargetable: false,
};

const RULESET_DEFAULTS = {
  negative_armor: 'mirror',
  shield_multiplier_rounding: 'ceil',
  redirect_cap_moves: 'up_to_cap',
  defy_death_leaves: 1,
  reflect_entry: 'skip_armor_only',
  lethal_redirect_test: 'would_kill',
  bloodletting_defied_to_zero: 'fails',
  riposte_roll_on_refused: 'consumed',
  damage_event_test: 'reached_vitality',
  reflect_subrogation: 'no_payback',
  reflect_lanes: 'hits_and_ticks',
  stagger_lanes: 'direct_only',
  everlasting_slot_order: 'death_cell_first',
  tick_share_rounding: 'largest_remainder',
  tick_feast_shares: 'of_credit_share',
  zero_maximum_revival: 'stays_dead',
};

class Unit {
  /** @param {Record<string, any>} spec */
  constructor(spec) {
    /** the field names the scenario gave, in its order: echoed back */
    this.given = Object.keys(spec);
    /** @type {Record<string, any>} */
    this.f = Object.assign({}, UNIT_DEFAULTS, spec);
  }
  get uid() { return this.f.uid; }
  get side() { return this.f.side; }
  get alive() { return this.f.alive; }
  get vitality() { return this.f.vitality; }
  /** A Tool or a Hub discards every combat interaction (500.1-1, 500.8e). */
  get discardsCombat() { return this.f.is_tool || this.f.is_hub; }
  toJSON() {
    const out = {};
    for (const k of Object.keys(UNIT_DEFAULTS)) out[k] = this.f[k];
    out.uid = this.f.uid;
    return out;
  }
}

class Battle {
  /** @param {any} scenario */
  constructor(scenario) {
    this.ruleset = Object.assign({}, RULESET_DEFAULTS, scenario.ruleset || {});
    /** @type {Unit[]} */
    this.units = (scenario.board || []).map((u) => new Unit(u));
    /** @type {Map<string, Unit>} */
    this.byUid = new Map(this.units.map((u) => [u.uid, u]));
    /** @type {{name:string, unit:string|null, amount:number, other:string|null, detail:string|null}[]} */
    this.events = [];
    /** events emitted after the current instance finished (used by deferred work) */
    this.deferred = [];
  }
  /** @param {string|null|undefined} uid */
  unit(uid) {
    if (uid === null || uid === undefined) return null;
    const u = this.byUid.get(uid);
    if (!u) throw new Error(`unknown unit uid ${JSON.stringify(uid)}`);
    return u;
  }
  emit(name, unit, amount = 0, other = null, detail = null) {
    this.events.push({ name, unit: unit === undefined ? null : unit, amount, other: other === undefined ? null : other, detail });
  }
  /** Board reading order (800.4b): rows top to bottom, left to right across a row. */
  readingOrder(units) {
    return units.slice().sort((a, b) => (a.f.row - b.f.row) || (a.f.col - b.f.col));
  }
  observation() {
    return { protocol: 'referee/2', board: this.units.map((u) => u.toJSON()), events: this.events };
  }
}

module.exports = { Battle, Unit, UNIT_DEFAULTS, RULESET_DEFAULTS };
