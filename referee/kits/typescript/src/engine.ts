// The engine: one function from a scenario to an answer. Replace it kind by kind.
//
// Today it implements no action kind: it answers every scenario with the `unsupported` answer naming the
// first action kind it does not implement, which `referee check` reports as "next to build".

import { PROTOCOL, type Answer, type Scenario, type Unsupported } from "./protocol.js";

/** An action kind, as an `unsupported` answer names it. */
export type Kind = Unsupported["unsupported"]["kind"];

/** Plays a whole scenario whose every action kind this engine implements, and returns its observation:
 * `{protocol, id, board, events}` (combat) or `{protocol, id, state, events}` (play). */
export type Play = (scenario: Scenario) => Answer;

/** The action kinds this engine implements, each with the function that plays a scenario holding it.
 *
 * Empty: nothing is implemented yet. To implement a kind (say `damage`, docs/protocol.md "Actions"):
 *   1. write `function play(scenario: Scenario): Answer` that copies the board, runs each action of
 *      `scenario.actions` in order (a `switch (action.kind)`) and returns the final board and the events;
 *   2. add `damage: play,` below (usually every kind maps to the same `play`);
 *   3. add "damage" to `kinds` in referee.toml, so that `referee check` draws it, and run `referee check`.
 */
const IMPLEMENTED: Record<string, Play> = {
  // damage: play,
};

/** The answer to one scenario: its observation, or the `unsupported` answer naming the first action kind
 * it holds that this engine does not implement. */
export function answer(scenario: Scenario): Answer {
  // An engine rejects a protocol it does not know (docs/protocol.md "Versioning").
  if (scenario.protocol !== PROTOCOL) {
    throw new Error(`scenario ${scenario.id ?? "(no id)"}: protocol ${JSON.stringify(scenario.protocol)}, this engine speaks ${PROTOCOL}`);
  }
  const missing = firstUnimplementedKind(scenario);
  if (missing !== undefined) return refuse(scenario, missing, "not implemented yet");
  const first = scenario.actions[0];
  const play = first === undefined ? undefined : IMPLEMENTED[first.kind];
  if (play === undefined) throw new Error(`scenario ${scenario.id ?? "(no id)"} has no action`);
  return play(scenario);
}

/** The kind of the scenario's first action this engine has no entry for in `IMPLEMENTED`, if any. */
function firstUnimplementedKind(scenario: Scenario): Kind | undefined {
  for (const action of scenario.actions) {
    if (!Object.hasOwn(IMPLEMENTED, action.kind)) return action.kind;
  }
  return undefined;
}

/** The `unsupported` answer: this engine refuses the action kind `kind` by name, for `reason`. */
export function refuse(scenario: Scenario, kind: Kind, reason: string): Answer {
  const id = scenario.id === undefined ? {} : { id: scenario.id };
  return { protocol: PROTOCOL, ...id, unsupported: { kind, reason } };
}
