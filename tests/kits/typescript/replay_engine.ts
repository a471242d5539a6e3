// A replay engine for the kit's tests (not shipped in the kit): it stands in for src/engine.ts and answers
// each scenario with `answers[scenario.id]` from the JSON file named by REFEREE_ANSWERS, so that the
// native vector runner can be given "the example engine's behaviour" (or a seeded bug) without a real engine.

import { readFileSync } from "node:fs";
import type { Answer, Scenario } from "./protocol.js";

let answers: Record<string, Answer> | undefined;

/** The answers file REFEREE_ANSWERS names, read once. */
function loadAnswers(): Record<string, Answer> {
  const file = process.env["REFEREE_ANSWERS"];
  if (!file) throw new Error("REFEREE_ANSWERS: not set (the answers file, {\"v<index>\": answer})");
  answers ??= JSON.parse(readFileSync(file, "utf8")) as Record<string, Answer>;
  return answers;
}

/** The recorded answer to `scenario` (by its id); an error when the file has none. */
export function answer(scenario: Scenario): Answer {
  const found = loadAnswers()[scenario.id ?? ""];
  if (found === undefined) throw new Error(`REFEREE_ANSWERS has no answer for scenario id ${String(scenario.id)}`);
  return found;
}
