"""The report helpers of ``benchmarks/bench_prove_readings.py`` on a small ``referee prove --json`` document
(the benchmark itself never runs in the tests)."""

from __future__ import annotations

from benchmark_scripts import load_benchmark  # tests/ is on sys.path (rootdir conftest)

bench = load_benchmark("bench_prove_readings")


def _theorem(name, reads, unless=(), status="proved", mutants=(), exceptions=(), vacuity_at=()):
    return {"name": name, "reads": list(reads), "unless": list(unless), "status": status,
            "holds_under": "every reading" + (f" except {'; '.join(unless)}" if unless else ""),
            "mutants": list(mutants), "exceptions": list(exceptions), "vacuity_at": list(vacuity_at)}


DOCUMENT = {"theorems": [
    _theorem("reads_nothing", []),
    _theorem("reads_armor", ["negative_armor"], mutants=[{"under": "negative_armor=reciprocal", "status": "killed"}]),
    _theorem("excepted", ["tick_share_rounding", "defy_death_leaves"], unless=["tick_share_rounding=remainder_to_first"],
             exceptions=[{"status": "confirmed"}], vacuity_at=[{"status": "satisfiable"}, {"status": "vacuous"}]),
    _theorem("undecided", ["negative_armor"], status="unknown"),
]}


def test_the_matrix_marks_each_option_a_theorem_reads_and_says_where_it_holds():
    lines = bench.matrix_lines(DOCUMENT)
    assert "na = negative_armor" in lines[0] and "tsr = tick_share_rounding" in lines[0]
    rows = {line.split()[0]: line for line in lines[3:]}
    assert set(rows) == {"reads_armor", "excepted", "undecided"}  # a theorem reading nothing has no row
    assert "every reading except tick_share_rounding=remainder_to_first (proved)" in rows["excepted"]
    header = lines[2].split()
    marks = dict(zip(header[1:-2], rows["excepted"].split()[1:]))
    assert marks == {"ddl": "x", "na": ".", "tsr": "x"}


def test_the_counts_add_up():
    lines = bench.count_lines(DOCUMENT)
    assert lines[0] == "theorems: 4; reading at least one option: 3; reading none: 1"
    assert lines[1].startswith("proved over every reading: 2; proved except under named readings: 1; unknown: 1")
    assert "exceptions confirmed: 1 of 1" in lines[2] and "mutants under another reading killed: 1 of 1" in lines[2]
    assert "vacuity checks at a reading satisfiable: 1 of 2" in lines[2]
    assert lines[3] == "theorems reading each option: defy_death_leaves 1, negative_armor 2, tick_share_rounding 1"
