//! The engine as a program: one scenario a line on stdin, one answer a line on stdout, flushed after
//! each (docs/protocol.md, "Transport: JSON lines"). Logs go to stderr.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use referee_engine::engine;
use serde_json::Value;

/// Answers every scenario line of stdin; exits 1, saying why on stderr, on a line that is not JSON.
fn main() -> ExitCode {
    match serve(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{}: {message}", env!("CARGO_PKG_NAME"));
            ExitCode::FAILURE
        }
    }
}

/// Reads scenarios from `input` until it ends and writes each answer to `output` as it goes.
fn serve(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    for (index, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let scenario: Value = serde_json::from_str(&line)
            .map_err(|e| format!("stdin line {}: not JSON: {e}", index + 1))?;
        let answer = engine::answer(&scenario);
        writeln!(output, "{answer}").and_then(|()| output.flush()).map_err(|e| format!("stdout: {e}"))?;
    }
    Ok(())
}
