//! The engine: one function from a scenario to its answer.
//!
//! This skeleton implements nothing yet: it answers every scenario with the `unsupported` answer,
//! naming the scenario's first action kind. Build the engine kind by kind: replace a kind's arm in
//! `answer` with the code that runs the scenario, then add the kind to `kinds` in referee.toml so
//! that `referee check` compares it (docs/protocol.md, "Scenario" and "Observation").

use serde::Deserialize;
use serde_json::Value;

use crate::protocol::{Protocol, Refusal, RefusalKind, Scenario, Unsupported, PROTOCOL};

/// The reason every refusal gives until its kind is built.
const NOT_YET: &str = "not implemented yet";

/// The answer to one scenario: its observation, or the `unsupported` answer for a kind not built yet.
///
/// Panics, naming the reason, when `scenario` is not a `referee/2` scenario: the JSON-lines program
/// then dies with the reason on stderr (`referee check` reports it with the scenario), and the native
/// vector runner counts it a fault of that vector.
pub fn answer(scenario: &Value) -> Value {
    let parsed = read_scenario(scenario).unwrap_or_else(|reason| panic!("{reason}"));
    match parsed.first_kind() {
        // To build a kind, replace its arm with a call that runs every action of the scenario on its
        // board and returns the observation, e.g. `"damage" => observe_combat(&parsed)`, answering
        // {"protocol": PROTOCOL, "id": <the scenario's id>, "board": [...], "events": [...]}.
        // A scenario's later actions may be of other kinds: refuse one you have not built either.
        "damage" => refuse(&parsed, "damage"),
        "hit" => refuse(&parsed, "hit"),
        "bloodletting" => refuse(&parsed, "bloodletting"),
        "cost" => refuse(&parsed, "cost"),
        "armor_debuff" => refuse(&parsed, "armor_debuff"),
        "ability" => refuse(&parsed, "ability"),
        "recover" => refuse(&parsed, "recover"),
        "cull" => refuse(&parsed, "cull"),
        "tick" => refuse(&parsed, "tick"),
        "advance" => refuse(&parsed, "advance"),
        "end_combat" => refuse(&parsed, "end_combat"),
        // The play rulebook: the answer has the final play `state` instead of a `board`.
        "play_card" => refuse(&parsed, "play_card"),
        "activate" => refuse(&parsed, "activate"),
        other => panic!("{}: no action kind `{other}` in {PROTOCOL}", describe(&parsed)),
    }
}

/// The scenario as the protocol types read it, or why it is not one (naming its id when it has one).
pub fn read_scenario(scenario: &Value) -> Result<Scenario, String> {
    let id = scenario.get("id").and_then(Value::as_str).unwrap_or("(no id)");
    match scenario.get("protocol") {
        Some(Value::String(p)) if p == PROTOCOL => {}
        other => {
            let got = other.map_or("nothing".to_string(), Value::to_string);
            return Err(format!("scenario {id}: protocol: expected \"{PROTOCOL}\", got {got}"));
        }
    }
    Scenario::deserialize(scenario)
        .map_err(|e| format!("scenario {id}: not a {PROTOCOL} scenario: {e}"))
}

/// The `unsupported` answer refusing `kind` by name for `scenario`.
fn refuse(scenario: &Scenario, kind: &str) -> Value {
    let kind = RefusalKind::from_name(kind).expect("every arm names an action kind of the protocol");
    let refusal = Unsupported {
        protocol: Protocol::Referee2,
        id: scenario.id().map(str::to_string),
        unsupported: Refusal { kind, reason: NOT_YET.to_string() },
    };
    serde_json::to_value(refusal).expect("an unsupported answer is plain JSON")
}

/// How a message names `scenario`: by its id when it has one.
fn describe(scenario: &Scenario) -> String {
    format!("scenario {}", scenario.id().unwrap_or("(no id)"))
}
