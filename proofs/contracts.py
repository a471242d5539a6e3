"""CrossHair contracts on the model's integer helpers, and running CrossHair over them.

The helpers in :mod:`referee.model.arith` are typed ``Any`` because they also take Z3
terms; CrossHair cannot confirm a contract over ``Any`` (measured: "Not confirmed" after
the full per-condition timeout). So each helper gets an integer-typed contract here that
calls it unchanged: ``pre:``/``post:`` lines in the PEP 316 docstring style CrossHair
reads. ``least_such_that`` is a loop, so its contracts bound the search range (at most
8 wide) to make the paths finite: that bound is part of the contract and is reported.

CrossHair's exit 0 means only "no counterexample found". A helper is reported
``confirmed`` only when CrossHair says "Confirmed over all paths" for every condition.
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.model import arith

#: Seconds CrossHair may spend on one condition.
DEFAULT_PER_CONDITION_TIMEOUT = 4.0
#: Seconds the whole CrossHair run may take before it is stopped and reported.
DEFAULT_TOTAL_TIMEOUT = 120.0


def min_(a: int, b: int) -> int:
    """``arith.min_`` on integers.

    post: __return__ <= a and __return__ <= b
    post: __return__ == a or __return__ == b
    """
    return arith.min_(a, b)


def max_(a: int, b: int) -> int:
    """``arith.max_`` on integers.

    post: __return__ >= a and __return__ >= b
    post: __return__ == a or __return__ == b
    """
    return arith.max_(a, b)


def clamp(value: int, low: int, high: int) -> int:
    """``arith.clamp`` on integers.

    pre: low <= high
    post: low <= __return__ <= high
    post: __return__ == value or (value < low and __return__ == low) or (value > high and __return__ == high)
    """
    return arith.clamp(value, low, high)


def floordiv(a: int, b: int) -> int:
    """``arith.floordiv`` on integers: the floor of ``a / b``.

    pre: b > 0
    post: __return__ * b <= a < (__return__ + 1) * b
    """
    return arith.floordiv(a, b)


def ceildiv(a: int, b: int) -> int:
    """``arith.ceildiv`` on integers: the ceiling of ``a / b``.

    pre: b > 0
    post: (__return__ - 1) * b < a <= __return__ * b
    """
    return arith.ceildiv(a, b)


def least_such_that_threshold(threshold: int, low: int, high: int) -> int:
    """``arith.least_such_that`` on the monotone predicate ``n >= threshold``.

    pre: low <= high <= low + 8 and threshold <= high
    post: low <= __return__ <= high
    post: __return__ >= threshold
    post: __return__ == low or __return__ - 1 < threshold
    """
    return arith.least_such_that(lambda n: n >= threshold, low, high, "n")


def least_such_that_square(target: int, high: int) -> int:
    """``arith.least_such_that`` on the monotone predicate ``n * n >= target`` (a ceiling square root).

    pre: 0 <= high <= 8 and target <= high * high
    post: 0 <= __return__ <= high
    post: __return__ * __return__ >= target
    post: __return__ == 0 or (__return__ - 1) * (__return__ - 1) < target
    """
    return arith.least_such_that(lambda n: n * n >= target, 0, high, "n")


#: The contract functions, and the ``arith`` helper each one checks.
CONTRACTS = {
    "min_": min_,
    "max_": max_,
    "clamp": clamp,
    "floordiv": floordiv,
    "ceildiv": ceildiv,
    "least_such_that (n >= threshold, range <= 8)": least_such_that_threshold,
    "least_such_that (n * n >= target, range <= 8)": least_such_that_square,
}


@dataclass
class ConditionResult:
    """CrossHair's message about one ``post:`` condition (by line)."""

    line: int
    severity: str  # info | error
    message: str

    @property
    def confirmed(self) -> bool:
        return self.severity == "info" and self.message.startswith("Confirmed over all paths")


@dataclass
class ContractResult:
    """One helper: ``confirmed``, ``not confirmed`` (no counterexample found, not proved), or ``counterexample``."""

    helper: str
    function: str
    conditions: list[ConditionResult] = field(default_factory=list)

    @property
    def status(self) -> str:
        if any(c.severity == "error" for c in self.conditions):
            return "counterexample"
        if self.conditions and all(c.confirmed for c in self.conditions):
            return "confirmed"
        return "not confirmed"

    @property
    def detail(self) -> str:
        errors = [c.message for c in self.conditions if c.severity == "error"]
        return "; ".join(errors)


@dataclass
class CrossHairReport:
    """The whole CrossHair run."""

    results: list[ContractResult]
    seconds: float
    command: list[str]
    returncode: int | None
    error: str = ""
    #: Taken from the proof cache, not run now (``referee prove`` says so).
    reused: bool = False

    @property
    def ok(self) -> bool:
        """No counterexample and no failure to run (unconfirmed helpers are reported, not failed)."""
        return not self.error and all(r.status != "counterexample" for r in self.results)

    def confirmed(self) -> list[str]:
        return [r.helper for r in self.results if r.status == "confirmed"]


_LINE = re.compile(r"^(?P<path>.*?):(?P<line>\d+): (?P<severity>info|error|warning): (?P<message>.*)$")


def run_crosshair(
    per_condition_timeout: float = DEFAULT_PER_CONDITION_TIMEOUT, total_timeout: float = DEFAULT_TOTAL_TIMEOUT
) -> CrossHairReport:
    """Run ``python -m crosshair check --report_all`` on this module's contracts."""
    return finish_crosshair(start_crosshair(per_condition_timeout), total_timeout)


@dataclass
class RunningCrossHair:
    """A CrossHair run started in the background (so the proofs can run meanwhile)."""

    process: subprocess.Popen
    command: list[str]
    started: float


def start_crosshair(per_condition_timeout: float = DEFAULT_PER_CONDITION_TIMEOUT) -> RunningCrossHair:
    """Start CrossHair as a subprocess; :func:`finish_crosshair` collects its report."""
    path = inspect.getsourcefile(sys.modules[__name__])
    command = [
        sys.executable,
        "-m",
        "crosshair",
        "check",
        "--report_all",
        f"--per_condition_timeout={per_condition_timeout:g}",
        str(path),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return RunningCrossHair(process, command, time.perf_counter())


def finish_crosshair(running: RunningCrossHair, total_timeout: float = DEFAULT_TOTAL_TIMEOUT) -> CrossHairReport:
    """Wait for CrossHair (at most ``total_timeout`` seconds from its start) and read its report."""
    # Already finished (the proofs took longer): read it, however long ago it started.
    remaining = None if running.process.poll() is not None else max(
        1.0, total_timeout - (time.perf_counter() - running.started)
    )
    try:
        stdout, stderr = running.process.communicate(timeout=remaining)
    except subprocess.TimeoutExpired:
        running.process.kill()
        running.process.communicate()
        seconds = time.perf_counter() - running.started
        return CrossHairReport(_results_from(""), seconds, running.command, None, f"stopped after {total_timeout:g} s")
    seconds = time.perf_counter() - running.started
    results = _results_from(stdout)
    code = running.process.returncode
    error = ""
    if code not in (0, 1) or (code == 1 and not any(c.severity == "error" for r in results for c in r.conditions)):
        error = (stderr.strip().splitlines() or [f"exit code {code}"])[-1]
    return CrossHairReport(results, seconds, running.command, code, error)


def _results_from(output: str) -> list[ContractResult]:
    spans = {}
    for helper, function in CONTRACTS.items():
        lines, first = inspect.getsourcelines(function)
        spans[helper] = (function.__name__, first, first + len(lines) - 1)
    results = {helper: ContractResult(helper, name) for helper, (name, _, _) in spans.items()}
    for raw in output.splitlines():
        match = _LINE.match(raw.strip())
        if not match or match["severity"] == "warning":
            continue
        line = int(match["line"])
        for helper, (_, first, last) in spans.items():
            if first <= line <= last:
                results[helper].conditions.append(ConditionResult(line, match["severity"], match["message"]))
    return list(results.values())


# --------------------------------------------------------------------------------------
# A confirmed report, reused while its inputs are unchanged (the proof cache's crosshair slot)
# --------------------------------------------------------------------------------------


def report_key(per_condition_timeout: float = DEFAULT_PER_CONDITION_TIMEOUT) -> str:
    """SHA-256 of what a CrossHair run here reads: these contracts, ``model/arith.py``, the versions, the timeout."""
    import hashlib
    from importlib.metadata import version

    hasher = hashlib.sha256(f"{version('crosshair-tool')}\0{sys.version}\0{per_condition_timeout:g}\0".encode())
    for module in (sys.modules[__name__], arith):
        hasher.update(Path(inspect.getsourcefile(module) or "").read_bytes() + b"\0")
    return hasher.hexdigest()


def report_record(report: CrossHairReport) -> dict[str, Any]:
    """The report as JSON-ready data (the shape :func:`report_from_record` reads)."""
    return {
        "seconds": report.seconds,
        "command": report.command,
        "returncode": report.returncode,
        "results": [
            {"helper": r.helper, "function": r.function, "conditions": [vars(c) for c in r.conditions]}
            for r in report.results
        ],
    }


def report_from_record(record: dict[str, Any]) -> CrossHairReport:
    results = [
        ContractResult(r["helper"], r["function"], [ConditionResult(**c) for c in r["conditions"]])
        for r in record["results"]
    ]
    return CrossHairReport(results, float(record["seconds"]), list(record["command"]), record["returncode"])


def fully_confirmed(report: CrossHairReport) -> bool:
    """Every helper confirmed over all paths, nothing failed: the only report worth reusing."""
    return report.ok and bool(report.results) and len(report.confirmed()) == len(report.results)
