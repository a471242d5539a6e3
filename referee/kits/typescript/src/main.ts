// The engine program: referee/2 JSON lines. One scenario a line on stdin, one answer a line on stdout,
// written as soon as it is known. A line that is not JSON is reported on stderr and ends the program
// (status 1), which referee reports as a `garbage`-input crash naming the line.

import { createInterface } from "node:readline";
import { answer } from "./engine.js";
import type { Scenario } from "./protocol.js";

/** Answers every line of stdin, in order, until stdin closes. */
function serve(): void {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    process.stdout.write(JSON.stringify(answerLine(line)) + "\n");
  });
}

/** The answer to one input line; a line that is not a JSON scenario object ends the program. */
function answerLine(line: string): unknown {
  let scenario: unknown;
  try {
    scenario = JSON.parse(line);
  } catch (error) {
    die(`not a JSON line (${(error as Error).message}): ${line.slice(0, 200)}`);
  }
  if (typeof scenario !== "object" || scenario === null || Array.isArray(scenario)) {
    die(`not a scenario object: ${line.slice(0, 200)}`);
  }
  try {
    return answer(scenario as Scenario);
  } catch (error) {
    die(`scenario ${(scenario as Scenario).id ?? "(no id)"}: ${(error as Error).stack ?? error}`);
  }
}

/** Reports `message` on stderr and exits with status 1. */
function die(message: string): never {
  process.stderr.write(`engine: ${message}\n`);
  process.exit(1);
}

serve();
