// The conformance vectors, run natively: `npm test` (REFEREE_VECTORS names the release folder, default
// `vectors`; see src/vectors.ts for the other variables). Fails on any failure, fault or stale expected
// failure, and when no vector ran.

import assert from "node:assert/strict";
import { test } from "node:test";
import { answer } from "../src/engine.js";
import { runVectors } from "../src/vectors.js";

test("the engine agrees with the conformance vectors", async () => {
  const outcome = await runVectors(answer);
  process.stdout.write(outcome.report + "\n");
  assert.ok(outcome.ok, outcome.message);
});
