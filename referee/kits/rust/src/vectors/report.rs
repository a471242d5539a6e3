//! What a run found: each vector's status, the per-clause table, the failures, the summary line
//! and the machine-readable verdicts file.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;

/// The `format` of the verdicts file (`REFEREE_VERDICTS`).
pub const VERDICTS_FORMAT: &str = "referee-native-verdicts/1";

/// What became of one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Fault,
    /// Listed as an expected failure, and it fails.
    Known,
    /// Listed as an expected failure, and it passes.
    Stale,
    Skipped,
}

impl Status {
    /// The word the verdicts file and the report use.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Fault => "fault",
            Status::Known => "known",
            Status::Stale => "stale",
            Status::Skipped => "skipped",
        }
    }
}

/// One vector's result: its path, primary clause, status and what to say about it.
#[derive(Clone, Debug)]
pub struct VectorResult {
    pub path: String,
    pub primary: String,
    pub status: Status,
    /// The first divergence, the fault, or the reason it was skipped ("" for a pass).
    pub detail: String,
}

/// A finished run over a release folder.
#[derive(Debug)]
pub struct Run {
    pub results: Vec<VectorResult>,
    /// The expected-failures file, if one was given (named in the stale entries' advice).
    pub expected_failures: Option<PathBuf>,
}

impl Run {
    /// How many vectors have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.results.iter().filter(|r| r.status == status).count()
    }

    /// Whether the run passes: some vector ran, and none failed, faulted or is a stale expected failure.
    pub fn passed(&self) -> bool {
        let ran = self.results.len() - self.count(Status::Skipped);
        ran > 0 && [Status::Fail, Status::Fault, Status::Stale].iter().all(|s| self.count(*s) == 0)
    }

    /// The whole report: the per-clause table, the vectors to look at, the skips, the summary line.
    pub fn report(&self) -> String {
        let mut out = self.table();
        out.push_str(&self.listing());
        out.push_str(&self.skips());
        if self.results.len() == self.count(Status::Skipped) {
            out.push_str("no vector ran: an empty selection is a failure (check REFEREE_FEATURES, \
                          REFEREE_EXCLUDE_FEATURES, REFEREE_KINDS)\n");
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `referee vectors (native): PASS|FAIL — N passed, F failed, E faults, K known, S stale, X skipped of T`.
    pub fn summary(&self) -> String {
        let verdict = if self.passed() { "PASS" } else { "FAIL" };
        format!("referee vectors (native): {verdict} — {} passed, {} failed, {} faults, {} known, {} stale, \
                 {} skipped of {}", self.count(Status::Pass), self.count(Status::Fail), self.count(Status::Fault),
                self.count(Status::Known), self.count(Status::Stale), self.count(Status::Skipped), self.results.len())
    }

    /// One row per primary clause of the vectors that ran: passed (a stale entry passed), failed,
    /// faults, known, and `ok` / `FAIL` / `known`.
    fn table(&self) -> String {
        let mut rows: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
        for result in self.results.iter().filter(|r| r.status != Status::Skipped) {
            let row = rows.entry(result.primary.as_str()).or_default();
            let column = match result.status {
                Status::Fail => 1,
                Status::Fault => 2,
                Status::Known => 3,
                _ => 0,
            };
            row[column] += 1;
        }
        let mut out = format!("{:<32} {:>6} {:>6} {:>6} {:>6}  status\n",
                              "clause", "passed", "failed", "faults", "known");
        for (clause, [passed, failed, faults, known]) in rows {
            let status = if failed + faults > 0 { "FAIL" } else if known > 0 { "known" } else { "ok" };
            let _ = writeln!(out, "{clause:<32} {passed:>6} {failed:>6} {faults:>6} {known:>6}  {status}");
        }
        out
    }

    /// Every vector that did not simply pass or get skipped: its path, primary clause and why.
    fn listing(&self) -> String {
        let mut out = String::new();
        for result in &self.results {
            let detail = match result.status {
                Status::Pass | Status::Skipped => continue,
                Status::Stale => format!("remove it from {}: it passes now", self.expected_failures_name()),
                _ => result.detail.clone(),
            };
            let word = result.status.as_str().to_uppercase();
            let _ = writeln!(out, "{word:<6} {} ({}): {detail}", result.path, result.primary);
        }
        out
    }

    /// The skipped vectors, counted by reason.
    fn skips(&self) -> String {
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for result in self.results.iter().filter(|r| r.status == Status::Skipped) {
            *reasons.entry(result.detail.as_str()).or_default() += 1;
        }
        reasons.into_iter().map(|(reason, n)| format!("skipped {n}: {reason}\n")).collect()
    }

    /// The expected-failures file as the stale advice names it.
    fn expected_failures_name(&self) -> String {
        self.expected_failures.as_ref().map_or("REFEREE_EXPECTED_FAILURES".to_string(), |p| p.display().to_string())
    }

    /// Writes `{"format": "referee-native-verdicts/1", "results": {path: status}}` to `path`.
    pub fn write_verdicts(&self, path: &Path) -> Result<(), String> {
        let results: BTreeMap<&str, &str> = self.results.iter().map(|r| (r.path.as_str(), r.status.as_str())).collect();
        let text = json!({"format": VERDICTS_FORMAT, "results": results}).to_string();
        fs::write(path, text + "\n").map_err(|e| format!("REFEREE_VERDICTS={}: {e}", path.display()))
    }
}
