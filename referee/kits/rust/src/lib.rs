//! A `referee/2` engine: the protocol types, the engine itself and the native vector runner.
//!
//! `src/main.rs` serves `engine::answer` over JSON lines (what `referee check` talks to);
//! `tests/vectors.rs` runs a release folder of conformance vectors through it (`cargo test`).

pub mod engine;
pub mod protocol;
pub mod vectors;
