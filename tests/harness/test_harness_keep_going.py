"""--keep-going: every distinct divergence in one run, each shrunk; known divergences are data."""

from __future__ import annotations

import json
import types

from typer.testing import CliRunner

from referee.cli import app
from referee.compare import Comparison
from referee.engines import PythonEngine
from referee.examples import mutants
from referee.groups import KnownEntry, group_key
from referee.harness import CheckOptions, check, judge
from referee.rulebook import Divergence

#: Five independent bugs in one engine, each in its own line of the example engine.
FIVE = ("cap_off_by_one", "insurance_point_not_spent_whole", "shield_broken_only_below_zero",
        "thorns_on_nothing", "cost_spends_shield")


def _engine_with(names: tuple[str, ...]) -> types.ModuleType:
    source = mutants.ENGINE_SOURCE.read_text()
    for name in names:
        mutant = mutants.BY_NAME[name]
        assert source.count(mutant.old) == 1, name
        source = source.replace(mutant.old, mutant.new)
    module = types.ModuleType("referee.examples.engine_with_" + "_".join(names))
    module.__file__ = str(mutants.ENGINE_SOURCE)
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def test_group_keys_abstract_identities_and_name_the_event_field():
    assert group_key(Divergence("state", "board.a.armor", 1, 2)) == "board[].armor"
    assert group_key(Divergence("state", "state.objects.u1.zone", "a", "b")) == "state.objects[].zone"
    assert group_key(Divergence("state", "state.pool.energy", 1, 2)) == "state.pool.energy"
    shield = {"name": "shield_damaged", "unit": "a", "amount": 3, "other": None, "detail": None}
    assert group_key(Divergence("events", "events[2]", shield, {**shield, "other": "b"})) == "events[].other@shield_damaged"
    assert group_key(Divergence("events", "events[0]", shield, None)) == "events[]@missing:shield_damaged"
    assert group_key(Divergence("events", "events[0]", None, shield)) == "events[]@extra:shield_damaged"


def test_five_independent_bugs_are_five_distinct_groups_in_one_run():
    engine = PythonEngine(_engine_with(FIVE).run)
    options = CheckOptions(examples=3000, seed=20261201, kinds=("damage", "hit", "cost"), database=None,
                           keep_going=True, max_divergences=30, shrink_budget=3000)
    with engine:
        report = check(engine, options)
    assert report.status == "mismatch" and len(report.groups) >= 5, report.text()
    attributed: dict[str, set[str]] = {}
    for name in FIVE:  # the groups whose shrunk scenario this bug alone makes diverge: it was reported
        alone = _engine_with((name,)).run
        for group in report.groups:
            verdict, _ = judge({**group.scenario, "id": "g"}, alone({**group.scenario, "id": "g"}), Comparison())
            if verdict == "mismatch":
                attributed.setdefault(name, set()).add(group.key)
    assert set(attributed) == set(FIVE), {n: attributed.get(n) for n in FIVE}
    for group in report.groups:
        assert group.reproducible and group.replay.startswith("referee check")
    text = report.text()
    assert f"{len(report.groups)} distinct divergences (0 known)" in text


#: Scenarios per run of the known-divergence test: seed 7 finds five groups of the two bugs by 400, and the same
#: seed and count draw the same scenarios again, so every later run meets exactly the groups the first one found.
KNOWN_RUN_EXAMPLES = 400


def test_a_known_divergence_silences_exactly_its_group_and_a_stale_entry_is_reported():
    engine = PythonEngine(_engine_with(("cap_off_by_one", "thorns_on_nothing")).run)
    first = CheckOptions(examples=KNOWN_RUN_EXAMPLES, seed=7, kinds=("damage", "hit"), database=None, keep_going=True)
    with engine:
        found = check(engine, first)
    keys = [g.key for g in found.groups]
    assert len(keys) >= 2, found.text()
    known = [KnownEntry("tracked in ENG-12", key=k) for k in keys] + [KnownEntry("fixed long ago", key="board[].nothing")]
    again = CheckOptions(examples=KNOWN_RUN_EXAMPLES, seed=7, kinds=("damage", "hit"), database=None, keep_going=True, known=known)
    with engine:
        report = check(engine, again)
    assert report.ok and all(g.known is not None for g in report.groups), report.text()
    assert [e.key for e in report.stale_known] == ["board[].nothing"]
    strict = CheckOptions(examples=KNOWN_RUN_EXAMPLES, seed=7, kinds=("damage", "hit"), database=None, keep_going=True, known=known,
                          strict_known=True)
    with engine:
        assert check(engine, strict).status == "stale-known"
    partly = CheckOptions(examples=KNOWN_RUN_EXAMPLES, seed=7, kinds=("damage", "hit"), database=None, keep_going=True,
                          known=known[:1])
    with engine:
        report = check(engine, partly)
    assert report.status == "mismatch" and sum(1 for g in report.groups if g.known) == 1


def test_known_divergences_file_from_the_command_line(tmp_path, monkeypatch):
    (tmp_path / "referee-known.toml").write_text(
        '[[known]]\nclause = "combat:500.1-7"\nreason = "cap off by one, ENG-7"\nuntil = 2099-01-01\n'
        '[[known]]\nkey = "events[]@missing:nothing"\nreason = "stale on purpose"\n'
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.mutants:cap_off_by_one", "--in-process",
                                      "--kinds", "damage", "-n", "400", "--seed", "3", "--database", "", "--json"])
    report = json.loads(result.output)
    assert result.exit_code == 0, result.output[-3000:]
    assert report["known_divergences"] >= 1 and report["stale_known"][0]["key"] == "events[]@missing:nothing"
    (tmp_path / "referee-known.toml").write_text('[[known]]\nkey = "x"\n')
    result = CliRunner().invoke(app, ["check", "--python", "referee.examples.engine:run", "-n", "5"])
    assert result.exit_code == 2 and "known[0].reason: every known divergence says why" in result.output


def test_a_keep_going_report_explains_its_groups_and_its_first_failure():
    """Each group carries the model's explain steps at fault (text, --json, --html), and the report's own
    first failure (the first group's) its explanation and clause trail (both were empty before)."""
    engine = PythonEngine(mutants.floor_instead_of_ceil)
    with engine:
        report = check(engine, CheckOptions(examples=80, seed=2, keep_going=True, shrink_budget=200, database=None,
                                            state_dir=None))
    assert report.status == "mismatch" and report.groups, report.text()
    text = report.text()
    for group in report.groups:
        assert group.explain and group.to_json()["explain"] == group.explain
        assert f"at fault [{group.explain[-1]['clause']}]" in text
    assert report.explain == report.groups[0].explain and report.trail and report.clauses
    assert "clause trail: " in text and "clauses applied: combat:" in text
