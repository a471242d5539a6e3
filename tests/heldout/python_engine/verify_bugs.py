"""Run `referee check` once per seeded bug (each alone) and record what it found.

Usage, from /work/main:
    python -m tests.heldout.python_engine.verify_bugs [--seed 1] [-n 2000] [bug ...]

Writes bug_results.json beside this file. One referee run at a time; every run gets a fresh
--state-dir under the system's temporary folder, so no failure store is shared between bugs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from tests.heldout.python_engine.bugs import BUGS  # noqa: E402

KINDS = "damage,hit,cost,bloodletting"
WITHOUT = "vessel,everlasting,revival_listeners"


def check(bug: str, seed: int, examples: int) -> dict:
    state = Path(tempfile.mkdtemp(prefix=f"heldout-{bug}-"))
    env = dict(os.environ, HELDOUT_BUGS=bug)
    cmd = ["referee", "check", "--python", "tests.heldout.python_engine.engine:run",
           "--kinds", KINDS, "--without", WITHOUT, "-n", str(examples), "--seed", str(seed),
           "--state-dir", str(state), "--json"]
    proc = subprocess.run(cmd, cwd=HERE.parents[2], env=env, capture_output=True, text=True)
    shutil.rmtree(state, ignore_errors=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"bug": bug, "status": "unreadable", "exit": proc.returncode,
                "stderr": proc.stderr[-500:]}
    steps = report.get("explain") or []
    at_fault = steps[-1] if steps else {}
    div = (report.get("divergences") or [{}])[0]
    return {
        "bug": bug,
        "seed": seed,
        "status": report.get("status"),
        "exit": proc.returncode,
        "first_failure_after": report.get("first_failure_after"),
        "at_fault_step": at_fault.get("step"),
        "at_fault_clause": at_fault.get("clause"),
        "first_divergence": div.get("path"),
        "shrunk_scenario": report.get("scenario"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("bugs", nargs="*")
    args = ap.parse_args()
    names = args.bugs or list(BUGS)
    out_path = HERE / "bug_results.json"
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    for name in names:
        r = check(name, args.seed, args.n)
        results[f"{name}@{args.seed}"] = r
        print(f"{name:28s} seed {args.seed}: {r.get('status')} after {r.get('first_failure_after')} "
              f"scenarios; at fault {r.get('at_fault_step')} [{r.get('at_fault_clause')}] "
              f"{r.get('first_divergence')}", flush=True)
        out_path.write_text(json.dumps(results, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
