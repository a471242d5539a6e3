//! The native vector runner: a release folder of conformance vectors (`referee vectors export
//! vectors --release`) run through the engine in-process, compared as `referee vectors run` compares,
//! reported per clause. `tests/vectors.rs` runs it under `cargo test`; no Python is needed.
//!
//! Configured by the environment:
//! - `REFEREE_VECTORS=DIR`: the release folder, or a folder holding exactly one (default `vectors`);
//! - `REFEREE_FEATURES=a,b`: only vectors whose features all lie in the list (the others' fields
//!   and events are left out of the comparison too);
//! - `REFEREE_EXCLUDE_FEATURES=a,b`: skip every vector tagged with any of them;
//! - `REFEREE_KINDS=a,b`: only vectors whose action kinds all lie in the list;
//! - `REFEREE_EXPECTED_FAILURES=FILE`: vector paths expected to fail, one a line (`#` comments);
//! - `REFEREE_VERDICTS=FILE`: write each vector's status there as JSON.

mod compare;
mod release;
mod report;

use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use compare::{compare, normalize_event, Compared, Outcome};
pub use release::{load, read_expected_failures, sha256_hex, Entry, Release, RELEASE_FORMAT};
pub use report::{Run, Status, VectorResult, VERDICTS_FORMAT};

/// What a run reads from the environment.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub folder: PathBuf,
    pub selection: Selection,
    pub expected_failures: Option<PathBuf>,
    pub verdicts: Option<PathBuf>,
}

impl Config {
    /// The configuration the `REFEREE_*` variables give (see the module's documentation).
    pub fn from_env() -> Config {
        Config {
            folder: env_path("REFEREE_VECTORS").unwrap_or_else(|| PathBuf::from("vectors")),
            selection: Selection {
                features: env_list("REFEREE_FEATURES"),
                exclude_features: env_list("REFEREE_EXCLUDE_FEATURES").unwrap_or_default(),
                kinds: env_list("REFEREE_KINDS"),
            },
            expected_failures: env_path("REFEREE_EXPECTED_FAILURES"),
            verdicts: env_path("REFEREE_VERDICTS"),
        }
    }
}

/// The filters choosing which vectors run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only vectors whose features all lie here (None: any).
    pub features: Option<Vec<String>>,
    /// Skip a vector tagged with any of these.
    pub exclude_features: Vec<String>,
    /// Only vectors whose action kinds all lie here (None: any).
    pub kinds: Option<Vec<String>>,
}

impl Selection {
    /// Why `entry` is skipped, or None when it runs.
    pub fn skip_reason(&self, entry: &Entry) -> Option<String> {
        if let Some(features) = &self.features {
            if let Some(f) = entry.features.iter().find(|f| !features.contains(f)) {
                return Some(format!("uses feature {f}, not in REFEREE_FEATURES"));
            }
        }
        if let Some(f) = entry.features.iter().find(|f| self.exclude_features.contains(f)) {
            return Some(format!("uses feature {f}, in REFEREE_EXCLUDE_FEATURES"));
        }
        if let Some(kinds) = &self.kinds {
            if let Some(k) = entry.kinds.iter().find(|k| !kinds.contains(k)) {
                return Some(format!("has action kind {k}, not in REFEREE_KINDS"));
            }
        }
        None
    }

    /// What the comparison leaves out: the release's own, plus every feature outside `features`.
    pub fn compared(&self, release: &Release) -> Compared {
        let mut compared = release.compared.clone();
        if let Some(features) = &self.features {
            for (name, off) in &release.features {
                if !features.contains(name) {
                    compared.add(off);
                }
            }
        }
        compared
    }

    /// An error naming a feature the filters give that the release does not know.
    pub fn check_names(&self, release: &Release) -> Result<(), String> {
        let given = self.features.iter().flatten().map(|f| ("REFEREE_FEATURES", f))
            .chain(self.exclude_features.iter().map(|f| ("REFEREE_EXCLUDE_FEATURES", f)));
        for (variable, feature) in given {
            if !release.features.contains_key(feature) {
                let known: Vec<&str> = release.features.keys().map(String::as_str).collect();
                return Err(format!("{variable}: no feature {feature:?} in {}/release.json (known: {})",
                                   release.dir.display(), known.join(", ")));
            }
        }
        Ok(())
    }
}

/// Runs every selected vector of the release folder `config.folder` through `engine`.
///
/// An error (the run cannot start, or the release is broken) names the file at fault; a vector the
/// engine fails, panics on or refuses is a result of the run, not an error.
pub fn run(config: &Config, engine: &dyn Fn(&Value) -> Value) -> Result<Run, String> {
    let release = release::load(&config.folder)?;
    config.selection.check_names(&release)?;
    let listed = match &config.expected_failures {
        Some(file) => read_expected_failures(file, &release.entries)?,
        None => BTreeSet::new(),
    };
    let compared = config.selection.compared(&release);
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {})); // a panic is reported as the vector's fault, with its message
    let results: Result<Vec<VectorResult>, String> = release.entries.iter().enumerate()
        .map(|(index, entry)| run_entry(&release, index, entry, &config.selection, &compared, engine))
        .collect();
    panic::set_hook(hook);
    let results = results?.into_iter().map(|r| apply_expected(r, &listed)).collect();
    Ok(Run { results, expected_failures: config.expected_failures.clone() })
}

/// One vector: skipped by the selection, or run through `engine` (as scenario `v<index>`) and compared.
fn run_entry(release: &Release, index: usize, entry: &Entry, selection: &Selection, compared: &Compared,
             engine: &dyn Fn(&Value) -> Value) -> Result<VectorResult, String> {
    let result = |status, detail| {
        VectorResult { path: entry.path.clone(), primary: entry.primary.clone(), status, detail }
    };
    if let Some(reason) = selection.skip_reason(entry) {
        return Ok(result(Status::Skipped, reason));
    }
    let (scenario, expected) = read_vector(&release.dir, entry, index)?;
    let id = format!("v{index}");
    let outcome = match panic::catch_unwind(AssertUnwindSafe(|| engine(&scenario))) {
        Ok(answer) => compare(&expected, &answer, &id, compared),
        Err(payload) => Outcome::Fault(format!("the engine panicked: {}", panic_message(payload.as_ref()))),
    };
    Ok(match outcome {
        Outcome::Pass => result(Status::Pass, String::new()),
        Outcome::Diverges(divergence) => result(Status::Fail, divergence),
        Outcome::Fault(fault) => result(Status::Fault, fault),
    })
}

/// A vector file's `scenario` (with `"id": "v<index>"` added) and `expected`, or an error naming it.
fn read_vector(dir: &Path, entry: &Entry, index: usize) -> Result<(Value, Value), String> {
    let path = dir.join(&entry.path);
    let vector: Value = serde_json::from_slice(&release::read(&path)?)
        .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let (mut scenario, expected) = match (vector.get("scenario"), vector.get("expected")) {
        (Some(Value::Object(scenario)), Some(expected)) => (scenario.clone(), expected),
        _ => return Err(format!("{}: expected an object with \"scenario\" and \"expected\"", path.display())),
    };
    scenario.insert("id".to_string(), Value::String(format!("v{index}")));
    Ok((Value::Object(scenario), expected.clone()))
}

/// A listed expected failure that fails is `known`; one that passes is `stale`.
fn apply_expected(mut result: VectorResult, listed: &BTreeSet<String>) -> VectorResult {
    if listed.contains(&result.path) {
        result.status = match result.status {
            Status::Fail | Status::Fault => Status::Known,
            Status::Pass => Status::Stale,
            other => other,
        };
    }
    result
}

/// The message a panic carried (`panic!("...")`), or a placeholder for any other payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload.downcast_ref::<&str>().map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".to_string())
}

/// The comma-separated list in the environment variable `name` (None when unset or blank).
fn env_list(name: &str) -> Option<Vec<String>> {
    let value = std::env::var(name).ok()?;
    let items: Vec<String> = value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
    (!value.trim().is_empty()).then_some(items)
}

/// The path in the environment variable `name` (None when unset or blank).
fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kinds: &[&str], features: &[&str]) -> Entry {
        let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect();
        Entry { path: "combat/damage/x/0001.json".into(), primary: "combat:x".into(),
                kinds: strings(kinds), features: strings(features) }
    }

    fn list(items: &[&str]) -> Option<Vec<String>> {
        Some(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn each_filter_skips_with_its_reason() {
        let armored = entry(&["damage"], &["armor"]);
        let only_shield = Selection { features: list(&["shield"]), ..Selection::default() };
        let no_armor = Selection { exclude_features: list(&["armor"]).unwrap(), ..Selection::default() };
        let only_hit = Selection { kinds: list(&["hit"]), ..Selection::default() };
        assert_eq!(only_shield.skip_reason(&armored).unwrap(), "uses feature armor, not in REFEREE_FEATURES");
        assert_eq!(no_armor.skip_reason(&armored).unwrap(), "uses feature armor, in REFEREE_EXCLUDE_FEATURES");
        assert_eq!(only_hit.skip_reason(&armored).unwrap(), "has action kind damage, not in REFEREE_KINDS");
        assert_eq!(Selection::default().skip_reason(&armored), None);
    }

    #[test]
    fn the_features_outside_the_list_leave_their_fields_and_events_out() {
        let armor = Compared { fields_off: ["armor".to_string()].into(), events_off: BTreeSet::new() };
        let features = [("armor".to_string(), armor.clone()), ("shield".to_string(), Compared::default())];
        let release = Release { dir: PathBuf::from("vectors"), compared: Compared::default(),
                                features: features.into(), entries: Vec::new() };
        let only_shield = Selection { features: list(&["shield"]), ..Selection::default() };
        let no_armor = Selection { exclude_features: list(&["armor"]).unwrap(), ..Selection::default() };
        assert_eq!(only_shield.compared(&release), armor);
        assert_eq!(no_armor.compared(&release), Compared::default());
        assert!(Selection { features: list(&["armour"]), ..Selection::default() }.check_names(&release).is_err());
    }
}
