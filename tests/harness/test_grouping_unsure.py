"""Reports that say what the grouping does not know (``docs/grouping.md`` 4): a merge the drift guard declined and
another group's decision a representative also shows are said per group, with the command that replays the
representative alone; a group the grouping is sure of says nothing of the kind."""

from __future__ import annotations

from referee.check.compare import Comparison
from referee.check.grouping.groups import Group
from referee.check.grouping.settle import say_unsure
from referee.check.outcome import CheckReport
from referee.rulebook import Divergence

ARMOR, SHIELD, THORNS = ("amount@armor_percentage[combat:500.2c]", "amount@shield[combat:500.1-10]",
                         "event@thorns[combat:500.7b]")
ALONE = "referee check --replay .referee/failures/abc.json"


def _group(key: str) -> Group:
    first = Divergence("events", "events[0]", {"name": "damage_taken", "amount": 3}, {"name": "damage_taken", "amount": 4})
    return Group(key, 2, {"board": [], "actions": []}, [first], replay=f"referee check --seed 1    # or this scenario "
                 f"alone: {ALONE}")


def test_a_declined_merge_and_a_shared_representative_are_said_per_group_by_key():
    armor, shield, thorns = _group(ARMOR), _group(SHIELD), _group(THORNS)
    armor.declined = (SHIELD,)
    thorns.also_shows = (ARMOR,)
    say_unsure([armor, shield, thorns], {ARMOR: ARMOR, SHIELD: SHIELD, THORNS: THORNS})
    assert len(armor.unsure) == 1 and f"declined to merge into {SHIELD}" in armor.unsure[0]
    assert len(thorns.unsure) == 1 and f"also shows {ARMOR}" in thorns.unsure[0]
    assert shield.unsure == ()


def test_a_key_merged_away_is_named_by_the_group_it_merged_into():
    armor, shield = _group(ARMOR), _group(SHIELD)
    armor.declined = ("amount@vitality[combat:500.1-13]",)  # that group settled into the Shield's
    say_unsure([armor, shield], {ARMOR: ARMOR, SHIELD: SHIELD, "amount@vitality[combat:500.1-13]": SHIELD})
    assert f"into {SHIELD}" in armor.unsure[0]


def test_a_declined_key_no_group_has_and_the_group_itself_are_not_doubts():
    armor = _group(ARMOR)
    armor.declined, armor.also_shows = ("amount@credit[combat:500.5a]",), (ARMOR,)
    say_unsure([armor], {ARMOR: ARMOR})
    assert armor.unsure == ()


def test_the_report_prints_each_doubt_with_the_command_that_replays_the_representative_alone():
    armor, shield = _group(ARMOR), _group(SHIELD)
    armor.declined = (SHIELD,)
    say_unsure([armor, shield], {ARMOR: ARMOR, SHIELD: SHIELD})
    report = CheckReport("mismatch", "engine", 1, Comparison(), groups=[armor, shield])
    text = report.text()
    first, second = text.split("[2] " + SHIELD + " (")[0], text.split("[2] " + SHIELD + " (")[1]
    assert "unsure: declined to merge into amount@shield" in first and f"replay this representative alone: {ALONE}" in first
    assert "unsure:" not in second
    assert "rule broken (clause at fault): combat:500.2c" in first
    data = report.to_json()["groups"]
    assert data[0]["unsure"] == list(armor.unsure) and data[1]["unsure"] == []
    assert data[0]["clause_at_fault"] == "combat:500.2c"


def test_the_html_page_and_a_merged_report_keep_each_doubt():
    from referee.report.html import render_html
    from referee.report.merge import _group as group_of_json

    armor, shield = _group(ARMOR), _group(SHIELD)
    armor.declined = (SHIELD,)
    say_unsure([armor, shield], {ARMOR: ARMOR, SHIELD: SHIELD})
    page = render_html(CheckReport("mismatch", "engine", 1, Comparison(), groups=[armor, shield]))
    assert page.count('class="unsure"') == 1 and f"declined to merge into {SHIELD}" in page and ALONE in page
    assert '<code class="clause-at-fault">combat:500.2c</code>' in page
    assert group_of_json(armor.to_json()).unsure == armor.unsure
