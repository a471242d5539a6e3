//! The conformance vectors, run natively through the engine:
//! `REFEREE_VECTORS=vectors cargo test --release -- --nocapture` (settings: `src/vectors.rs`).

use referee_engine::{engine, vectors};

/// Every selected vector of the release folder passes through `engine::answer` (a panic is a fault).
#[test]
fn conformance_vectors() {
    let config = vectors::Config::from_env();
    let run = vectors::run(&config, &engine::answer)
        .unwrap_or_else(|error| panic!("referee vectors (native): FAIL — {error}"));
    print!("{}", run.report());
    if let Some(path) = &config.verdicts {
        run.write_verdicts(path).unwrap_or_else(|error| panic!("{error}"));
    }
    assert!(run.passed(), "{}", run.summary());
}
