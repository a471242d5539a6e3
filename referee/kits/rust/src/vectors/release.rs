//! A release folder (`referee vectors export DIR --release`): finding it, verifying its receipt
//! (`release.json`: every file's SHA-256), and reading its manifest and an expected-failures file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::compare::Compared;
use crate::protocol::PROTOCOL;

/// The `format` of a release receipt this runner reads.
pub const RELEASE_FORMAT: &str = "referee-vectors-release/1";
/// The receipt's file name inside a release folder.
const RECEIPT: &str = "release.json";

/// `release.json`, as far as the runner reads it.
#[derive(Deserialize)]
struct Receipt {
    format: String,
    protocol: String,
    #[serde(default)]
    compared: Compared,
    #[serde(default)]
    features: BTreeMap<String, Compared>,
    files: BTreeMap<String, String>,
}

/// `manifest.json`, as far as the runner reads it.
#[derive(Deserialize)]
struct Manifest {
    vectors: Vec<Entry>,
}

/// One vector of the manifest: its file, the clause it was written for, its action kinds and features.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub path: String,
    pub primary: String,
    #[serde(default)]
    pub kinds: Vec<String>,
    #[serde(default)]
    pub features: Vec<String>,
}

/// A verified release folder.
#[derive(Debug)]
pub struct Release {
    /// The folder holding `release.json`.
    pub dir: PathBuf,
    /// What the export's declaration leaves out of the comparison.
    pub compared: Compared,
    /// For every feature, what leaving it out would add to `compared`.
    pub features: BTreeMap<String, Compared>,
    /// The manifest's vectors, in order (a vector's scenario id is `v<its index>`).
    pub entries: Vec<Entry>,
}

/// The release folder at `dir` (or at its one sub-folder holding `release.json`), its receipt verified.
pub fn load(dir: &Path) -> Result<Release, String> {
    let dir = locate(dir)?;
    let receipt_path = dir.join(RECEIPT);
    let receipt: Receipt = serde_json::from_slice(&read(&receipt_path)?)
        .map_err(|e| format!("{}: not a release receipt: {e}", receipt_path.display()))?;
    check_receipt(&receipt, &receipt_path)?;
    verify_files(&dir, &receipt.files, &receipt_path)?;
    let manifest_path = dir.join("manifest.json");
    let manifest: Manifest = serde_json::from_slice(&read(&manifest_path)?)
        .map_err(|e| format!("{}: not a vectors manifest: {e}", manifest_path.display()))?;
    if let Some(entry) = manifest.vectors.iter().find(|e| !receipt.files.contains_key(&e.path)) {
        return Err(format!("{}: lists vector {} that {} does not (not part of the release)",
                           manifest_path.display(), entry.path, receipt_path.display()));
    }
    Ok(Release { dir, compared: receipt.compared, features: receipt.features, entries: manifest.vectors })
}

/// The folder holding `release.json`: `dir` itself, or the one sub-folder of `dir` that holds one.
fn locate(dir: &Path) -> Result<PathBuf, String> {
    if dir.join(RECEIPT).is_file() {
        return Ok(dir.to_path_buf());
    }
    let entries = fs::read_dir(dir).map_err(|e| format!("REFEREE_VECTORS={}: {e} (write a release folder \
        with `referee vectors export vectors --release`)", dir.display()))?;
    let mut found: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path())
        .filter(|p| p.join(RECEIPT).is_file()).collect();
    found.sort();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!("REFEREE_VECTORS={}: holds no {RECEIPT}, nor a folder that does (write one with \
                          `referee vectors export vectors --release`)", dir.display())),
        _ => Err(format!("REFEREE_VECTORS={}: holds {} release folders ({}); name one",
                         dir.display(), found.len(), names(&found))),
    }
}

/// The receipt's `format` and `protocol` are the ones this runner and this engine speak.
fn check_receipt(receipt: &Receipt, path: &Path) -> Result<(), String> {
    if receipt.format != RELEASE_FORMAT {
        return Err(format!("{}: format is {:?}, this runner reads {RELEASE_FORMAT:?}", path.display(), receipt.format));
    }
    if receipt.protocol != PROTOCOL {
        return Err(format!("{}: the vectors are for protocol {:?}, this engine speaks {PROTOCOL:?}",
                           path.display(), receipt.protocol));
    }
    if !receipt.files.contains_key("manifest.json") {
        return Err(format!("{}: files does not list manifest.json", path.display()));
    }
    Ok(())
}

/// Every file the receipt lists is inside `dir`, present, and has the SHA-256 the receipt gives.
fn verify_files(dir: &Path, files: &BTreeMap<String, String>, receipt: &Path) -> Result<(), String> {
    for (name, digest) in files {
        if !is_inside(name) {
            return Err(format!("{}: file {name:?} is not a path inside the release folder", receipt.display()));
        }
        let path = dir.join(name);
        if !path.is_file() {
            return Err(format!("{}: lists {name}, which is missing ({})", receipt.display(), path.display()));
        }
        let actual = sha256_hex(&read(&path)?);
        if !actual.eq_ignore_ascii_case(digest) {
            return Err(format!("{}: {name} has SHA-256 {actual}, the receipt says {digest} (the file changed \
                                since the export)", receipt.display()));
        }
    }
    Ok(())
}

/// The lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `name` is a relative path that stays inside its folder (no root, no `..`).
fn is_inside(name: &str) -> bool {
    !name.is_empty() && Path::new(name).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The bytes of the file at `path`, or an error naming it.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The vector paths listed in an expected-failures file (one a line, `#` starts a comment); a path
/// the release does not hold is an error naming its line.
pub fn read_expected_failures(file: &Path, entries: &[Entry]) -> Result<BTreeSet<String>, String> {
    let text = String::from_utf8(read(file)?).map_err(|e| format!("{}: {e}", file.display()))?;
    let known: BTreeSet<&str> = entries.iter().map(|e| e.path.as_str()).collect();
    let mut listed = BTreeSet::new();
    for (index, line) in text.lines().enumerate() {
        let path = line.split('#').next().unwrap_or("").trim();
        if path.is_empty() {
            continue;
        }
        if !known.contains(path) {
            return Err(format!("{}:{}: {path}: no such vector in the release folder (remove the line)",
                               file.display(), index + 1));
        }
        listed.insert(path.to_string());
    }
    Ok(listed)
}

/// Folder names for a message, comma-separated.
fn names(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
