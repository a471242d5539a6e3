"""One group per bug and the rule it breaks, on an engine written from the docs alone (``tests/devset``,
``docs/grouping.md``): each seeded bug alone is named at the clause of the rule it breaks, and a bug in a routine
several mechanics share (a Vitality cost, the side check, the defy-death rune, a dead payer's refusal) is one group
whichever road showed it."""

from __future__ import annotations

import pytest

from referee.check.harness import CheckOptions, check
from referee.engines.transports import PythonEngine
from referee.rulebooks import resolve_features
from tests.devset.bugs import engine_with

KINDS = ("damage", "hit", "cost", "bloodletting")
WITHOUT = ["redirect", "lethal_intercept", "boss", "reflect", "vessel", "everlasting", "revival_listeners", "reliquary"]

#: Each bug and the clause of the rule it breaks (``tests/devset/BUGS.md``).
RULES = {
    "armor_round_wrong": "combat:500.2c", "cap_before_armor": "combat:500.1-7",
    "cost_skips_listeners": "combat:500.8d", "cost_spends_shield": "combat:500.8a",
    "dead_payer_pays": "combat:500.8e", "defy_never_spent": "combat:500.1-12",
    "feast_on_zero": "combat:500.5a", "insurance_floor": "combat:500.1a",
    "macabre_allies_only": "combat:500.4c", "payback_late": "combat:500.1-8",
    "retaliation_vs_allies": "combat:500.6h", "retort_every_event": "combat:500.7f",
}


def _check(names: tuple[str, ...], tmp_path, **options):
    return check(PythonEngine(engine_with(*names)),
                 CheckOptions(kinds=KINDS, features=resolve_features(None, WITHOUT), database=None,
                              state_dir=str(tmp_path), **options))


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_bug_alone_is_named_at_the_rule_it_breaks(name, tmp_path):
    report = _check((name,), tmp_path, examples=2000, seed=7)
    assert report.status == "mismatch", name
    assert report.clause_at_fault == RULES[name], (name, report.clause_at_fault, report.scenario)


@pytest.mark.parametrize("name", ["cost_spends_shield", "retaliation_vs_allies", "defy_never_spent", "dead_payer_pays"])
def test_a_shared_routine_is_one_group_whichever_road_shows_it(name, tmp_path):
    report = _check((name,), tmp_path, examples=1500, seed=11, keep_going=True)
    assert [group.clause_at_fault() for group in report.groups] == [RULES[name]], [g.key for g in report.groups]
