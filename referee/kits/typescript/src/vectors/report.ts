// The native run's report: a per-clause table, each failure with its first divergence, one summary line.

import type { Compared } from "./compare.js";
import type { Entry } from "./release.js";

/** What happened to one vector. */
export type Status = "pass" | "fail" | "fault" | "known" | "stale" | "skipped";

/** One vector's result; `detail`: the divergence, the fault, why it is stale or why it was skipped. */
export interface Result {
  entry: Entry;
  status: Status;
  detail: string;
}

/** A run's outcome: `ok` unless a vector failed, faulted or is a stale expected failure, or none ran. */
export interface Outcome {
  ok: boolean;
  summary: string;
  /** The summary line and the first problems: what a failing test says. */
  message: string;
  report: string;
  problems: string[];
  results: Result[];
}

/** How many problem lines a failing test's message shows. */
const MESSAGE_LINES = 20;

/** The outcome of `results`, with its printed report. */
export function summarize(folder: string, compared: Compared, results: Result[]): Outcome {
  const count = (status: Status) => results.filter((r) => r.status === status).length;
  const ran = results.length - count("skipped");
  const ok = ran > 0 && count("fail") === 0 && count("fault") === 0 && count("stale") === 0;
  const summary = `referee vectors (native): ${ok ? "PASS" : "FAIL"} — ${count("pass")} passed, ${count("fail")} failed, ` +
    `${count("fault")} faults, ${count("known")} known, ${count("stale")} stale, ${count("skipped")} skipped of ${results.length}`;
  const problems = [...listed(results, "fail", "failures"), ...listed(results, "fault", "faults"),
    ...listed(results, "stale", "stale expected failures")];
  if (ran === 0) problems.push(results.length === 0 ? "the folder holds no vector" : "no vector ran: the filters skipped every one");
  const report = [`referee vectors (native): ${folder}`, `compared: ${describeCompared(compared)}`, ...clauseTable(results),
    ...problems, ...listed(results, "known", "known failures (REFEREE_EXPECTED_FAILURES)"), ...skipped(results), summary];
  const more = problems.length > MESSAGE_LINES ? [`... and ${problems.length - MESSAGE_LINES} more lines (the report above)`] : [];
  const message = [summary, ...problems.slice(0, MESSAGE_LINES), ...more].join("\n");
  return { ok, summary, message, report: report.join("\n"), problems, results };
}

/** What the comparison leaves out, in words. */
function describeCompared(compared: Compared): string {
  const parts = [];
  if (compared.fieldsOff.size > 0) parts.push(`unit fields ${[...compared.fieldsOff].sort().join(", ")}`);
  if (compared.eventsOff.size > 0) parts.push(`events ${[...compared.eventsOff].sort().join(", ")}`);
  return parts.length === 0 ? "every unit field and every event" : `everything but ${parts.join("; ")}`;
}

/** One row per primary clause of the vectors that ran: its counts and status (`ok`, `FAIL`, `known`). */
function clauseTable(results: Result[]): string[] {
  const rows = new Map<string, Record<"passed" | "failed" | "faults" | "known", number>>();
  for (const r of results) {
    if (r.status === "skipped") continue;
    const row = rows.get(r.entry.primary) ?? { passed: 0, failed: 0, faults: 0, known: 0 };
    if (r.status === "pass" || r.status === "stale") row.passed += 1;
    else if (r.status === "fail") row.failed += 1;
    else if (r.status === "fault") row.faults += 1;
    else row.known += 1;
    rows.set(r.entry.primary, row);
  }
  const clauses = [...rows.keys()].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const line = (status: string, clause: string, cells: (string | number)[]) =>
    `  ${status.padEnd(6)} ${clause.padEnd(20)} ${cells.map((c) => String(c).padStart(6)).join(" ")}`;
  return [line("status", "clause", ["passed", "failed", "faults", "known"]), ...clauses.map((clause) => {
    const row = rows.get(clause) as Record<"passed" | "failed" | "faults" | "known", number>;
    const status = row.failed + row.faults > 0 ? "FAIL" : row.known > 0 ? "known" : "ok";
    return line(status, clause, [row.passed, row.failed, row.faults, row.known]);
  })];
}

/** A heading and one line per vector of `status`: its path, its primary clause and the detail. */
function listed(results: Result[], status: Status, heading: string): string[] {
  const picked = results.filter((r) => r.status === status);
  if (picked.length === 0) return [];
  return [`${heading}:`, ...picked.map((r) => `  ${r.entry.path} (${r.entry.primary}): ${r.detail}`)];
}

/** The skipped vectors, counted by reason. */
function skipped(results: Result[]): string[] {
  const reasons = new Map<string, number>();
  for (const r of results) if (r.status === "skipped") reasons.set(r.detail, (reasons.get(r.detail) ?? 0) + 1);
  if (reasons.size === 0) return [];
  return ["skipped:", ...[...reasons].map(([reason, n]) => `  ${n} ${n === 1 ? "vector" : "vectors"}: ${reason}`)];
}
