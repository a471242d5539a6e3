//! Comparing an engine's answer with a vector's `expected` observation (the rules of
//! `referee vectors run`): the envelope, the events in order, the combat board or the play state.
//! Values are equal only as JSON of the same type: `1` is not `1.0`, `true` is not `1`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::protocol::PROTOCOL;

/// The five fields of an event; a field left out takes its default (`unit`, `other`, `detail`: null;
/// `amount`: 0).
const EVENT_FIELDS: [&str; 5] = ["name", "unit", "amount", "other", "detail"];

/// What a comparison leaves out: unit fields, and event names (or `name:detail` for one detail only).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Compared {
    #[serde(default)]
    pub fields_off: BTreeSet<String>,
    #[serde(default)]
    pub events_off: BTreeSet<String>,
}

impl Compared {
    /// Leaves out, besides, everything `other` leaves out.
    pub fn add(&mut self, other: &Compared) {
        self.fields_off.extend(other.fields_off.iter().cloned());
        self.events_off.extend(other.events_off.iter().cloned());
    }
}

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Everything compared is equal.
    Pass,
    /// The engine disagrees: the first divergence (`events[3]: expected ..., got ...`).
    Diverges(String),
    /// Not a well-formed answer (a panic, a missing field, a wrong protocol or id, a refusal).
    Fault(String),
}

/// The verdict on `answer` to the scenario `id`, whose right answer is `expected`.
pub fn compare(expected: &Value, answer: &Value, id: &str, compared: &Compared) -> Outcome {
    if let Some(fault) = envelope_fault(answer, id) {
        return Outcome::Fault(fault);
    }
    let outcomes = [events_outcome(expected, answer, compared), state_outcome(expected, answer, compared)];
    if let Some(fault) = outcomes.iter().find(|o| matches!(o, Outcome::Fault(_))) {
        return fault.clone();
    }
    outcomes.into_iter().find(|o| *o != Outcome::Pass).unwrap_or(Outcome::Pass)
}

/// What is wrong with the answer as a whole: not an object, a refusal, a wrong `protocol` or `id`.
fn envelope_fault(answer: &Value, id: &str) -> Option<String> {
    let object = match answer.as_object() {
        Some(object) => object,
        None => return Some(format!("the answer is not a JSON object: {}", show(Some(answer)))),
    };
    if let Some(refusal) = object.get("unsupported") {
        let kind = match refusal.get("kind") {
            Some(Value::String(kind)) => format!("`{kind}`"),
            other => show(other),
        };
        let reason = refusal.get("reason").and_then(Value::as_str).unwrap_or("");
        return Some(format!("the engine refuses action kind {kind} by name: {reason} \
                             (leave the kind out with REFEREE_KINDS until it is built)"));
    }
    if object.get("protocol") != Some(&json!(PROTOCOL)) {
        return Some(format!("protocol: expected \"{PROTOCOL}\", got {}", show(object.get("protocol"))));
    }
    if object.get("id") != Some(&json!(id)) {
        return Some(format!("id: expected \"{id}\" (the scenario's, echoed), got {}", show(object.get("id"))));
    }
    None
}

/// The events compared in order, after normalizing both sequences and dropping what `compared` leaves out.
fn events_outcome(expected: &Value, answer: &Value, compared: &Compared) -> Outcome {
    let ours = match expected.get("events").and_then(Value::as_array) {
        Some(ours) => ours,
        None => return Outcome::Pass,
    };
    let theirs = match answer.get("events").and_then(Value::as_array) {
        Some(theirs) => theirs,
        None => return Outcome::Fault(format!("events: expected an array, got {}", show(answer.get("events")))),
    };
    let ours = match compared_events(ours, compared, "expected.events") {
        Ok(events) => events,
        Err(fault) => return Outcome::Fault(fault),
    };
    match compared_events(theirs, compared, "events") {
        Ok(theirs) => first_event_difference(&ours, &theirs).map_or(Outcome::Pass, Outcome::Diverges),
        Err(fault) => Outcome::Fault(fault),
    }
}

/// `events` normalized to their five fields, without the ones `compared` leaves out.
fn compared_events(events: &[Value], compared: &Compared, path: &str) -> Result<Vec<Value>, String> {
    let mut kept = Vec::with_capacity(events.len());
    for (index, event) in events.iter().enumerate() {
        let event = normalize_event(event, &format!("{path}[{index}]"))?;
        if !left_out(&event, compared) {
            kept.push(event);
        }
    }
    Ok(kept)
}

/// `event` with all five fields, each field it leaves out at its default; a fault for any other field.
pub fn normalize_event(event: &Value, path: &str) -> Result<Value, String> {
    let fields = match event.as_object() {
        Some(fields) => fields,
        None => return Err(format!("{path}: expected an event object, got {}", show(Some(event)))),
    };
    if let Some(extra) = fields.keys().find(|k| !EVENT_FIELDS.contains(&k.as_str())) {
        return Err(format!("{path}.{extra}: not an event field (name, unit, amount, other, detail)"));
    }
    let name = match fields.get("name") {
        Some(name) => name,
        None => return Err(format!("{path}.name: missing")),
    };
    let field = |key: &str, default: Value| fields.get(key).cloned().unwrap_or(default);
    Ok(json!({"name": name, "unit": field("unit", Value::Null), "amount": field("amount", json!(0)),
              "other": field("other", Value::Null), "detail": field("detail", Value::Null)}))
}

/// Whether `compared` leaves `event` out: by its name, or by `name:detail`.
fn left_out(event: &Value, compared: &Compared) -> bool {
    let name = event["name"].as_str().unwrap_or("");
    compared.events_off.contains(name)
        || event["detail"].as_str().map_or(false, |d| compared.events_off.contains(&format!("{name}:{d}")))
}

/// The first index where two event sequences differ, or where one ends before the other.
fn first_event_difference(ours: &[Value], theirs: &[Value]) -> Option<String> {
    (0..ours.len().max(theirs.len())).find_map(|k| match (ours.get(k), theirs.get(k)) {
        (Some(a), Some(b)) if a == b => None,
        (a, b) => Some(format!("events[{k}]: expected {}, got {}", show(a), show(b))),
    })
}

/// The final state compared: a combat `board` (by `uid`) or a play `state`.
fn state_outcome(expected: &Value, answer: &Value, compared: &Compared) -> Outcome {
    if let Some(ours) = expected.get("board").and_then(Value::as_array) {
        let theirs = match answer.get("board").and_then(Value::as_array) {
            Some(theirs) => theirs,
            None => return Outcome::Fault(format!("board: expected an array, got {}", show(answer.get("board")))),
        };
        return keyed_outcome("board", "uid", ours, theirs, &compared.fields_off);
    }
    match expected.get("state") {
        Some(ours) => play_state_outcome(ours, answer.get("state")),
        None => Outcome::Pass,
    }
}

/// A play state: `pool` equal as JSON, then every object (by `oid`) with every field equal, no other.
fn play_state_outcome(ours: &Value, theirs: Option<&Value>) -> Outcome {
    let theirs = match theirs.filter(|s| s.is_object()) {
        Some(theirs) => theirs,
        None => return Outcome::Fault(format!("state: expected the final play state, got {}", show(theirs))),
    };
    let pool = match theirs.get("pool") {
        Some(pool) => pool,
        None => return Outcome::Fault("state.pool: missing".to_string()),
    };
    let objects = match theirs.get("objects").and_then(Value::as_array) {
        Some(objects) => objects,
        None => return Outcome::Fault(format!("state.objects: expected an array, got {}", show(theirs.get("objects")))),
    };
    let empty = Vec::new();
    let our_objects = ours.get("objects").and_then(Value::as_array).unwrap_or(&empty);
    let objects_outcome = keyed_outcome("state.objects", "oid", our_objects, objects, &BTreeSet::new());
    if matches!(objects_outcome, Outcome::Fault(_)) || ours.get("pool") == Some(pool) {
        return objects_outcome;
    }
    Outcome::Diverges(json_difference("state.pool", ours.get("pool").unwrap_or(&Value::Null), pool))
}

/// Two lists of records matched by `key` (a board by `uid`, play objects by `oid`): every expected
/// record present with every field (not in `fields_off`) equal, and no record the expected list lacks.
fn keyed_outcome(path: &str, key: &str, ours: &[Value], theirs: &[Value], fields_off: &BTreeSet<String>) -> Outcome {
    let theirs = match index_by(path, key, theirs) {
        Ok(index) => index,
        Err(fault) => return Outcome::Fault(fault),
    };
    let mut divergence = None;
    for record in ours {
        let name = record.get(key).and_then(Value::as_str).unwrap_or("");
        match record_outcome(&format!("{path}.{name}"), record, theirs.get(name).copied(), fields_off) {
            Outcome::Fault(fault) => return Outcome::Fault(fault),
            Outcome::Diverges(d) => divergence = divergence.or(Some(d)),
            Outcome::Pass => {}
        }
    }
    let expected: BTreeSet<&str> = ours.iter().filter_map(|r| r.get(key).and_then(Value::as_str)).collect();
    let extra = theirs.iter().find(|(name, _)| !expected.contains(name.as_str()));
    let extra = extra.map(|(name, r)| format!("{path}.{name}: expected no such record, got {}", show(Some(r))));
    divergence.or(extra).map_or(Outcome::Pass, Outcome::Diverges)
}

/// The answer's records by `key`; a fault for a record without one, or a key given twice.
fn index_by<'a>(path: &str, key: &str, records: &'a [Value]) -> Result<BTreeMap<String, &'a Value>, String> {
    let mut index = BTreeMap::new();
    for (position, record) in records.iter().enumerate() {
        let name = match record.get(key).and_then(Value::as_str) {
            Some(name) => name,
            None => return Err(format!("{path}[{position}].{key}: expected a string, got {}", show(record.get(key)))),
        };
        if index.insert(name.to_string(), record).is_some() {
            return Err(format!("{path}[{position}].{key}: \"{name}\" appears twice"));
        }
    }
    Ok(index)
}

/// One expected record against the answer's: each compared field present (else a fault) and equal.
fn record_outcome(path: &str, ours: &Value, theirs: Option<&Value>, fields_off: &BTreeSet<String>) -> Outcome {
    let theirs = match theirs {
        Some(theirs) => theirs,
        None => return Outcome::Diverges(format!("{path}: expected {}, got none", show(Some(ours)))),
    };
    let empty = Map::new();
    let mut divergence = None;
    for (field, value) in ours.as_object().unwrap_or(&empty) {
        if fields_off.contains(field) {
            continue;
        }
        match theirs.get(field) {
            None => return Outcome::Fault(format!("{path}.{field}: missing")),
            Some(got) if got != value => {
                divergence = divergence.or_else(|| Some(format!("{path}.{field}: expected {value}, got {got}")));
            }
            Some(_) => {}
        }
    }
    divergence.map_or(Outcome::Pass, Outcome::Diverges)
}

/// Where two JSON values first differ, as `path: expected X, got Y` (objects entered key by key).
fn json_difference(path: &str, ours: &Value, theirs: &Value) -> String {
    if let (Some(a), Some(b)) = (ours.as_object(), theirs.as_object()) {
        let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for key in keys {
            if a.get(key) != b.get(key) {
                let (x, y) = (a.get(key).unwrap_or(&Value::Null), b.get(key).unwrap_or(&Value::Null));
                if a.contains_key(key) && b.contains_key(key) {
                    return json_difference(&format!("{path}.{key}"), x, y);
                }
                return format!("{path}.{key}: expected {}, got {}", show(a.get(key)), show(b.get(key)));
            }
        }
    }
    format!("{path}: expected {}, got {}", show(Some(ours)), show(Some(theirs)))
}

/// A value as a report shows it: compact JSON, cut at 300 characters; `nothing` for no value.
fn show(value: Option<&Value>) -> String {
    let value = match value {
        Some(value) => value,
        None => return "nothing".to_string(),
    };
    let text = value.to_string();
    match text.char_indices().nth(300) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(extra: Value) -> Value {
        let mut base = json!({"protocol": PROTOCOL, "id": "v0"});
        base.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        base
    }

    #[test]
    fn unit_fields_compare_with_their_json_type() {
        let expected = json!({"board": [{"uid": "a", "vitality": 1, "alive": true}], "events": []});
        let same = answer(json!({"board": [{"uid": "a", "vitality": 1, "alive": true}], "events": []}));
        let float = answer(json!({"board": [{"uid": "a", "vitality": 1.0, "alive": true}], "events": []}));
        let number = answer(json!({"board": [{"uid": "a", "vitality": 1, "alive": 1}], "events": []}));
        let none = Compared::default();
        assert_eq!(compare(&expected, &same, "v0", &none), Outcome::Pass);
        assert_eq!(compare(&expected, &float, "v0", &none),
                   Outcome::Diverges("board.a.vitality: expected 1, got 1.0".into()));
        assert_eq!(compare(&expected, &number, "v0", &none),
                   Outcome::Diverges("board.a.alive: expected true, got 1".into()));
    }

    #[test]
    fn a_missing_unit_field_is_a_fault_unless_left_out() {
        let expected = json!({"board": [{"uid": "a", "armor": 3}], "events": []});
        let given = answer(json!({"board": [{"uid": "a"}], "events": []}));
        let armor_off = Compared { fields_off: ["armor".to_string()].into(), ..Compared::default() };
        assert_eq!(compare(&expected, &given, "v0", &Compared::default()),
                   Outcome::Fault("board.a.armor: missing".into()));
        assert_eq!(compare(&expected, &given, "v0", &armor_off), Outcome::Pass);
    }

    #[test]
    fn events_are_normalized_and_filtered_before_comparing() {
        let expected = json!({"events": [{"name": "played", "unit": "c", "amount": 0, "other": null, "detail": null},
                                         {"name": "redirect", "unit": "b"}]});
        let short = answer(json!({"events": [{"name": "played", "unit": "c"}]}));
        let redirect_off = Compared { events_off: ["redirect".to_string()].into(), ..Compared::default() };
        assert_eq!(compare(&expected, &short, "v0", &redirect_off), Outcome::Pass);
        let d = match compare(&expected, &short, "v0", &Compared::default()) {
            Outcome::Diverges(d) => d,
            other => panic!("expected a divergence, got {other:?}"),
        };
        assert!(d.starts_with("events[1]: expected {"), "{d}");
        assert!(d.ends_with("got nothing"), "{d}");
    }

    #[test]
    fn an_unknown_event_field_a_wrong_id_and_a_refusal_are_faults() {
        let expected = json!({"events": []});
        let extra = answer(json!({"events": [{"name": "death", "cause": "x"}]}));
        let refusal = json!({"protocol": PROTOCOL, "id": "v0", "unsupported": {"kind": "hit", "reason": "later"}});
        let none = Compared::default();
        let fault = |answer: &Value, id: &str| match compare(&expected, answer, id, &none) {
            Outcome::Fault(fault) => fault,
            other => panic!("expected a fault, got {other:?}"),
        };
        assert!(fault(&extra, "v0").contains("events[0].cause"));
        assert!(fault(&answer(json!({"events": []})), "v1").starts_with("id:"));
        assert!(fault(&refusal, "v0").contains("kind `hit` by name"));
    }

    #[test]
    fn play_state_compares_pool_and_every_object() {
        let state = json!({"pool": {"energy": 0}, "objects": [{"oid": "c", "zone": "board"}]});
        let expected = json!({"state": state, "events": []});
        let played = |energy: i64, objects: Value| {
            answer(json!({"state": {"pool": {"energy": energy}, "objects": objects}, "events": []}))
        };
        let moved = played(0, json!([{"oid": "c", "zone": "hand"}]));
        let extra = played(0, json!([{"oid": "c", "zone": "board"}, {"oid": "d"}]));
        let pool = played(1, json!([{"oid": "c", "zone": "board"}]));
        let none = Compared::default();
        assert_eq!(compare(&expected, &moved, "v0", &none),
                   Outcome::Diverges("state.objects.c.zone: expected \"board\", got \"hand\"".into()));
        let extra_object = compare(&expected, &extra, "v0", &none);
        let is_extra = matches!(extra_object, Outcome::Diverges(ref d) if d.starts_with("state.objects.d"));
        assert!(is_extra, "{extra_object:?}");
        assert_eq!(compare(&expected, &pool, "v0", &none),
                   Outcome::Diverges("state.pool.energy: expected 0, got 1".into()));
    }
}
