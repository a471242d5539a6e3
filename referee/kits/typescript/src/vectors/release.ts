// A vector release folder (`referee vectors export DIR --release`): found, its receipt (`release.json`)
// verified byte for byte, its manifest read.

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { PROTOCOL } from "../protocol.js";

export const RELEASE_FORMAT = "referee-vectors-release/1";

/** What a declaration leaves out of the comparison: unit fields and event names (or `name:detail`). */
export interface LeftOut {
  fields_off: string[];
  events_off: string[];
}

/** One vector of the manifest. */
export interface Entry {
  index: number;
  path: string;
  primary: string;
  kinds: string[];
  features: string[];
}

/** A verified release: its folder, what it compares, its features, its vectors and their verified bytes. */
export interface Release {
  folder: string;
  compared: LeftOut;
  features: Record<string, LeftOut>;
  entries: Entry[];
  bytes: Map<string, Buffer>;
}

/** An error naming a file of the release (the run fails with it). */
export class ReleaseError extends Error {}

/** The folder holding `release.json`: `dir` itself, or the one sub-folder of `dir` that holds it. */
export function findRelease(dir: string): string {
  const hint = "(write one with `referee vectors export vectors --release`)";
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ReleaseError(`REFEREE_VECTORS=${dir}: no such folder ${hint}`);
  if (existsSync(join(dir, "release.json"))) return dir;
  const inside = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "release.json"))).map((d) => d.name).sort();
  if (inside.length === 1) return join(dir, inside[0] as string);
  throw new ReleaseError(inside.length === 0 ? `REFEREE_VECTORS=${dir}: neither holds release.json nor a folder that does ${hint}`
    : `REFEREE_VECTORS=${dir}: holds ${inside.length} release folders (${inside.join(", ")}): name one of them`);
}

/** The release in `folder`, every file of its receipt verified: refused (naming the file) for another format
 * or protocol, a file missing or differing from its SHA-256, or a vector of the manifest the receipt lacks. */
export function readRelease(folder: string): Release {
  const where = join(folder, "release.json");
  const parsed = readJson(where, readFileOf(where));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) fail(where, "expected a JSON object");
  const receipt = parsed as Record<string, unknown>;
  if (receipt["format"] !== RELEASE_FORMAT) fail(where, `format ${JSON.stringify(receipt["format"])}, expected ${RELEASE_FORMAT}`);
  if (receipt["protocol"] !== PROTOCOL) {
    fail(where, `protocol ${JSON.stringify(receipt["protocol"])}, but this engine speaks ${PROTOCOL}`);
  }
  const bytes = verifyFiles(folder, where, receipt["files"]);
  const manifest = bytes.get("manifest.json");
  if (manifest === undefined) fail(where, "files: lists no manifest.json");
  const entries = readEntries(join(folder, "manifest.json"), manifest);
  for (const entry of entries) {
    if (!bytes.has(entry.path)) fail(where, `files: lacks ${entry.path}, a vector of manifest.json`);
  }
  return { folder, compared: leftOut(where, "compared", receipt["compared"]), features: featuresOf(where, receipt["features"]),
    entries, bytes };
}

/** The bytes of every file the receipt lists, each checked against its SHA-256. */
function verifyFiles(folder: string, where: string, files: unknown): Map<string, Buffer> {
  if (typeof files !== "object" || files === null || Array.isArray(files)) fail(where, "files: expected an object");
  const out = new Map<string, Buffer>();
  for (const [path, digest] of Object.entries(files)) {
    if (isAbsolute(path) || path.split(/[\\/]/).includes("..")) fail(where, `files: ${path} lies outside the folder`);
    const file = join(folder, path);
    if (!existsSync(file)) fail(where, `files: ${path} is missing from ${folder}`);
    const data = readFileOf(file);
    const actual = createHash("sha256").update(data).digest("hex");
    if (actual !== digest) fail(where, `files: ${path} has SHA-256 ${actual}, the receipt says ${String(digest)}`);
    out.set(path, data);
  }
  return out;
}

/** The manifest's vectors, in order. */
function readEntries(where: string, data: Buffer): Entry[] {
  const manifest = readJson(where, data) as { vectors?: unknown };
  if (!Array.isArray(manifest.vectors)) fail(where, "vectors: expected an array");
  return manifest.vectors.map((item: unknown, index: number): Entry => {
    const entry = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof entry["path"] !== "string") fail(where, `vectors[${index}].path: expected a string`);
    const clauses = strings(where, `vectors[${index}].clauses`, entry["clauses"]);
    const primary = typeof entry["primary"] === "string" ? entry["primary"] : clauses[0] ?? "(none)";
    return { index, path: entry["path"], primary, kinds: strings(where, `vectors[${index}].kinds`, entry["kinds"]),
      features: strings(where, `vectors[${index}].features`, entry["features"]) };
  });
}

/** Every feature's `fields_off` / `events_off`. */
function featuresOf(where: string, value: unknown): Record<string, LeftOut> {
  const out: Record<string, LeftOut> = {};
  if (value === undefined) return out;
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(where, "features: expected an object");
  for (const [name, spec] of Object.entries(value)) out[name] = leftOut(where, `features.${name}`, spec);
  return out;
}

/** A `{fields_off, events_off}` object (either list absent: empty). */
function leftOut(where: string, path: string, value: unknown): LeftOut {
  const spec = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return { fields_off: strings(where, `${path}.fields_off`, spec["fields_off"]),
    events_off: strings(where, `${path}.events_off`, spec["events_off"]) };
}

/** A list of strings (absent: empty). */
function strings(where: string, path: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) fail(where, `${path}: expected a list of strings`);
  return value as string[];
}

/** The bytes of a regular file. */
function readFileOf(file: string): Buffer {
  if (!existsSync(file)) throw new ReleaseError(`${file}: missing`);
  if (!statSync(file).isFile()) throw new ReleaseError(`${file}: not a regular file`);
  return readFileSync(file);
}

/** `data` read as JSON; an error naming `where`. */
export function readJson(where: string, data: Buffer): unknown {
  try {
    return JSON.parse(data.toString("utf8"));
  } catch (error) {
    throw new ReleaseError(`${where}: not JSON (${(error as Error).message})`);
  }
}

/** Refuses the release, naming `where`. */
function fail(where: string, message: string): never {
  throw new ReleaseError(`${where}: ${message}`);
}
