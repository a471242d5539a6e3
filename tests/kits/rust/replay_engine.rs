//! A replay engine for the kit's tests (not shipped in the kit): it answers a scenario with the
//! answer recorded for its `id` in the JSON file `{"v<index>": <answer>, ...}` named by the
//! environment variable REFEREE_ANSWERS. The test copies it over `src/engine.rs`, so that the kit's
//! runner sees "the example engine's behaviour" without the engine.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::Value;

/// The answers file, read on the first call: its name and its answers by scenario id.
static ANSWERS: Mutex<Option<(String, HashMap<String, Value>)>> = Mutex::new(None);

/// The recorded answer to `scenario` (by its `id`); panics, naming the file, when there is none.
pub fn answer(scenario: &Value) -> Value {
    let id = scenario.get("id").and_then(Value::as_str).unwrap_or("");
    let mut answers = ANSWERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (path, by_id) = answers.get_or_insert_with(read_answers);
    match by_id.get(id) {
        Some(recorded) => recorded.clone(),
        None => panic!("{path}: no answer recorded for scenario id {id:?}"),
    }
}

/// The file REFEREE_ANSWERS names, and its answers by id.
fn read_answers() -> (String, HashMap<String, Value>) {
    let path = std::env::var("REFEREE_ANSWERS").expect("REFEREE_ANSWERS is not set: name the answers JSON file");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let answers = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not a JSON object of answers: {e}"));
    (path, answers)
}
