// The native vector runner: replays a vector release folder (`referee vectors export vectors --release`)
// through this engine, in-process, with the rules of `referee vectors run`. `test/vectors.test.ts` runs it.
//
// Environment: REFEREE_VECTORS (the release folder, default `vectors`), REFEREE_FEATURES,
// REFEREE_EXCLUDE_FEATURES, REFEREE_KINDS (filters, comma-separated), REFEREE_EXPECTED_FAILURES (a file of
// vector paths known to fail), REFEREE_VERDICTS (a file to write every vector's verdict to, as JSON).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Answer, Scenario } from "./protocol.js";
import { judge, type Compared, type Verdict } from "./vectors/compare.js";
import { isObject, parseExact, type Exact } from "./vectors/exact_json.js";
import { findRelease, readJson, readRelease, ReleaseError, type Entry, type Release } from "./vectors/release.js";
import { summarize, type Outcome, type Result } from "./vectors/report.js";

export type { Outcome, Result } from "./vectors/report.js";

/** The engine under test: a scenario in, its answer out (or a promise of it). */
export type Engine = (scenario: Scenario) => Answer | Promise<Answer>;

/** The environment the runner reads. */
export type Env = Record<string, string | undefined>;

/** Which vectors run, and what their comparison leaves out. */
interface Selection {
  compared: Compared;
  skip(entry: Entry): string | null;
}

/** The vectors listed as known to fail (REFEREE_EXPECTED_FAILURES). */
interface Listed {
  file: string;
  paths: Set<string>;
}

/** Runs every selected vector of the release `env.REFEREE_VECTORS` through `engine` and judges it.
 * Throws (naming the file) on a release, a vector file or an expected-failures file it refuses. */
export async function runVectors(engine: Engine, env: Env = process.env): Promise<Outcome> {
  const release = readRelease(findRelease(env["REFEREE_VECTORS"] || "vectors"));
  const selection = selectionOf(env, release);
  const listed = expectedFailures(env["REFEREE_EXPECTED_FAILURES"], release);
  const results: Result[] = [];
  for (const entry of release.entries) {
    const reason = selection.skip(entry);
    results.push(reason !== null ? { entry, status: "skipped", detail: reason }
      : settle(entry, await runVector(engine, release, entry, selection.compared), listed));
  }
  const verdicts = env["REFEREE_VERDICTS"];
  if (verdicts) writeVerdicts(verdicts, results);
  return summarize(release.folder, selection.compared, results);
}

/** One vector's verdict: its scenario (with `"id": "v<index>"`) run through the engine, the answer judged. */
async function runVector(engine: Engine, release: Release, entry: Entry, compared: Compared): Promise<Verdict> {
  const file = join(release.folder, entry.path);
  const bytes = release.bytes.get(entry.path) as Buffer;
  const exact = parseExact(bytes.toString("utf8"), file);
  const expected = isObject(exact) ? exact["expected"] : undefined;
  if (!isObject(exact) || !isObject(exact["scenario"]) || !isObject(expected)) {
    throw new ReleaseError(`${file}: expected an object with a "scenario" and an "expected" object`);
  }
  const scenario = (readJson(file, bytes) as { scenario: object }).scenario;  // plain JSON numbers, for the engine
  const id = `v${entry.index}`;
  const answer = await answerOf(engine, { ...scenario, id } as Scenario);
  return "fault" in answer ? { status: "fault", detail: answer.fault } : judge(id, expected, answer.value, compared);
}

/** The engine's answer as JSON carries it (as `JSON.stringify` writes it on the wire), read exactly;
 * a fault when the engine throws or answers something JSON cannot carry. */
async function answerOf(engine: Engine, scenario: Scenario): Promise<{ value: Exact } | { fault: string }> {
  let raw: unknown;
  try {
    raw = await engine(scenario);
  } catch (error) {
    return { fault: `the engine threw: ${error instanceof Error ? error.stack ?? error.message : String(error)}` };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch (error) {
    return { fault: `the answer is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (text === undefined) return { fault: `the engine answered ${typeof raw}, not a JSON object` };
  return { value: parseExact(text, "the answer") };
}

/** A vector's result: its verdict, or `known` (listed and failing) / `stale` (listed and passing). */
function settle(entry: Entry, verdict: Verdict, listed: Listed | null): Result {
  const detail = verdict.status === "pass" ? "" : verdict.detail;
  if (listed === null || !listed.paths.has(entry.path)) return { entry, status: verdict.status, detail };
  if (verdict.status === "pass") return { entry, status: "stale", detail: `remove it from ${listed.file}: it passes now` };
  return { entry, status: "known", detail: `${verdict.status === "fault" ? "fault: " : ""}${detail}` };
}

/** The filters of `env` over the release, and the comparison they leave. */
function selectionOf(env: Env, release: Release): Selection {
  const only = listOf(env, "REFEREE_FEATURES", release);
  const without = listOf(env, "REFEREE_EXCLUDE_FEATURES", release);
  const kinds = listOf(env, "REFEREE_KINDS", null);
  return { compared: comparedUnder(release, only), skip: (entry) => skipReason(entry, only, without, kinds) };
}

/** Why a filter skips `entry`, or null when it runs. */
function skipReason(entry: Entry, only: Set<string> | null, without: Set<string> | null, kinds: Set<string> | null): string | null {
  const outside = only === null ? [] : entry.features.filter((f) => !only.has(f));
  if (outside.length > 0) return `uses ${outside.join(", ")}, outside REFEREE_FEATURES`;
  const excluded = without === null ? [] : entry.features.filter((f) => without.has(f));
  if (excluded.length > 0) return `uses ${excluded.join(", ")}, in REFEREE_EXCLUDE_FEATURES`;
  const others = kinds === null ? [] : entry.kinds.filter((k) => !kinds.has(k));
  if (others.length > 0) return `kind ${others.join(", ")}, outside REFEREE_KINDS`;
  return null;
}

/** The comparison of the release, plus what every feature outside `only` leaves out. */
function comparedUnder(release: Release, only: Set<string> | null): Compared {
  const fieldsOff = new Set(release.compared.fields_off);
  const eventsOff = new Set(release.compared.events_off);
  for (const [name, spec] of Object.entries(release.features)) {
    if (only === null || only.has(name)) continue;
    spec.fields_off.forEach((field) => fieldsOff.add(field));
    spec.events_off.forEach((event) => eventsOff.add(event));
  }
  return { fieldsOff, eventsOff };
}

/** The comma-separated names of `env[name]` (unset or blank: null); with a `release` that lists its features,
 * a feature name it does not know is an error. */
function listOf(env: Env, name: string, release: Release | null): Set<string> | null {
  const value = env[name];
  if (value === undefined || value.trim() === "") return null;
  const names = new Set(value.split(",").map((part) => part.trim()).filter((part) => part !== ""));
  if (release === null || Object.keys(release.features).length === 0) return names;
  const known = new Set([...Object.keys(release.features), ...release.entries.flatMap((entry) => entry.features)]);
  const unknown = [...names].filter((feature) => !known.has(feature));
  if (unknown.length > 0) {
    throw new ReleaseError(`${name}: unknown feature ${unknown.join(", ")} (known: ${[...known].sort().join(", ")})`);
  }
  return names;
}

/** The vector paths `file` lists (one a line, `#` starts a comment); a path the release lacks is an error
 * naming its line. */
function expectedFailures(file: string | undefined, release: Release): Listed | null {
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ReleaseError(`REFEREE_EXPECTED_FAILURES=${file}: ${(error as Error).message}`);
  }
  const held = new Set(release.entries.map((entry) => entry.path));
  const paths = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const path = raw.replace(/#.*/, "").trim();
    if (path === "") return;
    if (!held.has(path)) throw new ReleaseError(`${file}:${i + 1}: ${path} is not a vector of ${release.folder}`);
    paths.add(path);
  });
  return { file, paths };
}

/** Writes every vector's verdict to `file` (format `referee-native-verdicts/1`). */
function writeVerdicts(file: string, results: Result[]): void {
  const verdicts = Object.fromEntries(results.map((r) => [r.entry.path, r.status]));
  writeFileSync(file, JSON.stringify({ format: "referee-native-verdicts/1", results: verdicts }, null, 1) + "\n");
}
