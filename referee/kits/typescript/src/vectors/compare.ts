// Judging one answer against a vector's expected observation (docs/protocol.md "Comparison modes"; the
// rules of `referee vectors run`): a pass, a failure at its first divergence, or an engine fault.

import { PROTOCOL } from "../protocol.js";
import { isObject, jsonEqual, show, type Exact, type ExactObject } from "./exact_json.js";

/** What the comparison leaves out: unit fields, and event names or `name:detail` pairs. */
export interface Compared {
  fieldsOff: ReadonlySet<string>;
  eventsOff: ReadonlySet<string>;
}

/** One vector's verdict: `detail` is the first divergence (a failure) or the fault's message. */
export type Verdict = { status: "pass" } | { status: "fail" | "fault"; detail: string };

/** An answer that is not a well-formed observation of the scenario: the vector's fault. */
export class Fault extends Error {}

/** The five fields of an event, each with its default when an event leaves it out. */
const EVENT_DEFAULTS: ReadonlyArray<[string, Exact]> = [["unit", null], ["amount", 0], ["other", null], ["detail", null]];
const EVENT_FIELDS = new Set(["name", ...EVENT_DEFAULTS.map(([field]) => field)]);

/** The verdict on `answer` (the engine's answer, read exactly) to the scenario `id` whose expected
 * observation is `expected`: events first (the earliest point in time), then the final board or state. */
export function judge(id: string, expected: ExactObject, answer: Exact, compared: Compared): Verdict {
  try {
    const got = checkEnvelope(id, answer);
    const events = eventDivergence(expected, got, compared.eventsOff);
    const state = stateDivergence(expected, got, compared.fieldsOff);
    const detail = events ?? state;
    return detail === null ? { status: "pass" } : { status: "fail", detail };
  } catch (error) {
    if (error instanceof Fault) return { status: "fault", detail: error.message };
    throw error;
  }
}

/** The answer as an observation object: a fault when it is not an object, is an `unsupported` answer,
 * or does not carry this protocol and the scenario's id. */
function checkEnvelope(id: string, answer: Exact): ExactObject {
  if (!isObject(answer)) throw new Fault(`the engine answered ${show(answer).slice(0, 80)}, not a JSON object`);
  const refused = answer["unsupported"];
  if (refused !== undefined) {
    const text = (value: Exact | undefined) => (typeof value === "string" ? value : show(value));
    const [kind, reason] = isObject(refused) ? [text(refused["kind"]), text(refused["reason"])] : [show(refused), ""];
    throw new Fault(`the engine refuses action kind \`${kind}\` by name: ${reason} ` +
      "(leave the kind out with REFEREE_KINDS or its feature with REFEREE_EXCLUDE_FEATURES)");
  }
  if (answer["protocol"] !== PROTOCOL) {
    throw new Fault(`protocol: expected ${JSON.stringify(PROTOCOL)}, got ${show(answer["protocol"])}`);
  }
  if (answer["id"] !== id) throw new Fault(`id: expected ${JSON.stringify(id)} (the scenario's), got ${show(answer["id"])}`);
  return answer;
}

/** The first difference of the two event sequences, each normalized and filtered by `eventsOff`. */
function eventDivergence(expected: ExactObject, got: ExactObject, eventsOff: ReadonlySet<string>): string | null {
  if (!Array.isArray(got["events"])) {
    throw new Fault(got["events"] === undefined ? "events: missing" : `events: expected an array, got ${show(got["events"])}`);
  }
  const ours = compareEvents(expected["events"], "expected.events", eventsOff);
  const theirs = compareEvents(got["events"], "events", eventsOff);
  for (let k = 0; k < Math.max(ours.length, theirs.length); k++) {
    const [a, b] = [ours[k], theirs[k]];
    if (a === undefined || b === undefined || !jsonEqual(a, b)) {
      return `events[${k}]: expected ${a === undefined ? "nothing" : show(a)}, got ${b === undefined ? "nothing" : show(b)}`;
    }
  }
  return null;
}

/** The compared events of a sequence: each normalized to its five fields, those left out dropped. */
function compareEvents(events: Exact | undefined, path: string, eventsOff: ReadonlySet<string>): ExactObject[] {
  const all = Array.isArray(events) ? events.map((event, i) => normalizeEvent(event, `${path}[${i}]`)) : [];
  return all.filter((e) => !eventsOff.has(String(e["name"])) && !eventsOff.has(`${String(e["name"])}:${String(e["detail"])}`));
}

/** An event with its five fields, in order, a field it leaves out taking its default; a fault for a field
 * other than these five, or no `name`. */
export function normalizeEvent(event: Exact, path: string): ExactObject {
  if (!isObject(event)) throw new Fault(`${path}: expected an event object, got ${show(event)}`);
  for (const field of Object.keys(event)) {
    if (!EVENT_FIELDS.has(field)) throw new Fault(`${path}.${field}: not an event field (name, unit, amount, other, detail)`);
  }
  const name = event["name"];
  if (name === undefined) throw new Fault(`${path}.name: missing`);
  const out: ExactObject = { name };
  for (const [field, fallback] of EVENT_DEFAULTS) out[field] = Object.hasOwn(event, field) ? (event[field] as Exact) : fallback;
  return out;
}

/** The first difference of the final board (combat) or play state, if the vector expects one. */
function stateDivergence(expected: ExactObject, got: ExactObject, fieldsOff: ReadonlySet<string>): string | null {
  if (expected["board"] !== undefined) return boardDivergence(expected["board"], got["board"], fieldsOff);
  if (isObject(expected["state"])) return playDivergence(expected["state"], got["state"]);
  return null;
}

/** The first difference of two boards, unit by unit (by `uid`), then a unit the answer has in excess. */
function boardDivergence(expected: Exact, got: Exact | undefined, fieldsOff: ReadonlySet<string>): string | null {
  return keyedDivergence(byKey(expected, "expected.board", "uid"), byKey(got, "board", "uid"), "board", fieldsOff);
}

/** The first difference of two play states: the pool (as a whole), then the objects by `oid`. */
function playDivergence(expected: ExactObject, got: Exact | undefined): string | null {
  if (!isObject(got)) throw new Fault(got === undefined ? "state: missing" : `state: expected an object, got ${show(got)}`);
  if (!Object.hasOwn(got, "pool")) throw new Fault("state.pool: missing");
  const pool = valueDivergence("state.pool", expected["pool"] ?? null, got["pool"] as Exact);
  const objects = keyedDivergence(byKey(expected["objects"] ?? [], "expected.state.objects", "oid"),
    byKey(got["objects"], "state.objects", "oid"), "state.objects", new Set());
  return pool ?? objects;
}

/** The objects of an array by their `key` field; a fault naming `path` for anything else. */
function byKey(items: Exact | undefined, path: string, key: string): Map<string, ExactObject> {
  if (!Array.isArray(items)) throw new Fault(items === undefined ? `${path}: missing` : `${path}: expected an array, got ${show(items)}`);
  const out = new Map<string, ExactObject>();
  items.forEach((item, i) => {
    const name = isObject(item) ? item[key] : undefined;
    if (typeof name !== "string") throw new Fault(`${path}[${i}].${key}: expected a string, got ${show(name)}`);
    if (out.has(name)) throw new Fault(`${path}[${i}].${key}: ${JSON.stringify(name)} given twice`);
    out.set(name, item as ExactObject);
  });
  return out;
}

/** The first difference of two keyed collections: an object missing, a field differing (every field of the
 * expected object but `skip`; a field missing is a fault, found whatever differs first), an object in excess. */
function keyedDivergence(ours: Map<string, ExactObject>, theirs: Map<string, ExactObject>, path: string,
  skip: ReadonlySet<string>): string | null {
  let first: string | null = null;
  for (const [name, mine] of ours) {
    const other = theirs.get(name);
    const found = other === undefined ? `${path}.${name}: expected present, got absent`
      : fieldsDivergence(`${path}.${name}`, mine, other, skip);
    first ??= found;
  }
  for (const name of theirs.keys()) if (!ours.has(name)) first ??= `${path}.${name}: expected absent, got present`;
  return first;
}

/** The first differing field of `expected` (but `skip`) in `got`; a fault for any such field `got` lacks. */
function fieldsDivergence(path: string, expected: ExactObject, got: ExactObject, skip: ReadonlySet<string>): string | null {
  let first: string | null = null;
  for (const [field, value] of Object.entries(expected)) {
    if (skip.has(field)) continue;
    if (!Object.hasOwn(got, field)) throw new Fault(`${path}.${field}: missing`);
    first ??= valueDivergence(`${path}.${field}`, value, got[field] as Exact);
  }
  return first;
}

/** Where two values first differ as JSON (objects field by field, the answer's extra fields included). */
function valueDivergence(path: string, expected: Exact, got: Exact): string | null {
  if (isObject(expected) && isObject(got)) {
    const inner = fieldsDivergence(path, expected, got, new Set());
    const extra = Object.keys(got).find((field) => !Object.hasOwn(expected, field));
    return inner ?? (extra === undefined ? null : `${path}.${extra}: expected absent, got ${show(got[extra])}`);
  }
  return jsonEqual(expected, got) ? null : `${path}: expected ${show(expected)}, got ${show(got)}`;
}
