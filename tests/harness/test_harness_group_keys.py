"""Group keys of state divergences name the model step that last changed the field (issue 10, keep-going).

``board[].vitality`` alone would put a wrong Interest cost and a wrong Maim consumption in one group;
with the step (``board[].vitality#batch[combat:500.4e]``, ``...#maim[combat:500.3d]``) they are two,
while one bug across many scenarios stays one group, and a known entry written against the path alone
still matches.
"""

from __future__ import annotations

import datetime

from referee.check.grouping.attribution import state_field, state_owner, state_step
from referee.check.compare import Comparison
from referee.engines.transports import PythonEngine
from referee.examples import mutants
from referee.check.grouping.groups import Group, KnownEntry, group_key, match_known
from referee.check.grouping.api import group_key_of
from referee.check.harness import CheckOptions, check, judge
from referee.rulebook import Divergence
from referee.specs.trace import covers


def _unit(uid: str, **fields) -> dict:
    return {"uid": uid, "side": 0, "row": 0, "col": 0, **fields}


def _scenario(board: list[dict], actions: list[dict]) -> dict:
    return {"protocol": "referee/2", "id": "k", "board": board, "actions": actions}


#: A wrong Interest cost (the engine keeps Max Vitality, 500.8g: a Vessel then revives the payer at the old
#: Max Vitality, 500.4e) and a wrong Maim consumption on a Repair (500.3d): both first show on
#: ``board.<uid>.vitality``, in different model steps.
INTEREST = _scenario([_unit("b", vitality=30, max_vitality=100, vessels=1)],
                     [{"kind": "cost", "payer": "b", "amount": 30, "cost_kind": "interest", "beneficiary": None}])
MAIM = _scenario([_unit("b", is_tool=True, vitality=254, max_vitality=255, maim=1)],
                 [{"kind": "recover", "target": "b", "amount": 2, "lane": "repair"}])


def _key(mutant: str, scenario: dict) -> str:
    verdict, divergences = judge(scenario, getattr(mutants, mutant)(scenario), Comparison())
    assert verdict == "mismatch", (mutant, divergences)
    assert divergences[0].path == "board.b.vitality", divergences
    return group_key_of(scenario, divergences)


def test_state_paths_of_both_rulebooks_name_their_unit_object_and_field():
    assert (state_owner("board.a.vitality"), state_field("board.a.vitality")) == ("a", "a.vitality")
    assert state_field("state.objects.r1.zone") == "r1.zone" and state_owner("state.objects.r1") == "r1"
    assert state_field("state.pool.power.calm") == "pool.power" and state_field("state.pool.energy") == "pool.energy"
    assert state_field("board.c") is None and state_field("state.objects.r1") is None
    # a unit named like a path component is still the identity, and only one identity is abstracted
    assert state_field("board.objects.vitality") == "objects.vitality"
    assert group_key(Divergence("state", "board.objects.vitality", 1, 2)) == "board[].vitality"
    assert group_key(Divergence("state", "state.objects.objects.zone", "a", "b")) == "state.objects[].zone"


@covers("combat:500.1-13", "combat:500.8i", "combat:500.4e")
def test_500_1_13_500_8i_a_vitality_divergence_is_keyed_by_the_step_that_made_the_loss():
    """The same path, ``board.<uid>.vitality``, after a damage instance and after a cost: the Vitality step of
    each (the listeners' echo of the loss stands for the loss), and a Vessel revival's batch when it died."""
    def key(action: dict, **unit) -> str:
        scenario = _scenario([_unit("b", **{"vitality": 50, "max_vitality": 100, "armor": 20, **unit})], [action])
        divergence = Divergence("state", "board.b.vitality", 40, 41)
        return group_key(divergence, None, state_step(scenario, divergence))

    cost = {"kind": "cost", "payer": "b", "amount": 10, "cost_kind": "bloodletting", "beneficiary": None}
    assert key({"kind": "damage", "target": "b", "amount": 10}) == "board[].vitality#vitality[combat:500.1-13]"
    assert key(cost) == "board[].vitality#vitality[combat:500.8i]"
    assert key({**cost, "amount": 50}, vessels=1) == "board[].vitality#batch[combat:500.4e]"


@covers("combat:500.8g", "combat:500.4e", "combat:500.3d")
def test_500_8g_500_3d_two_bugs_on_the_same_state_path_in_different_model_steps_are_two_keys():
    interest = _key("interest_keeps_max_vitality", INTEREST)
    maim = _key("maim_meets_the_requested_amount", MAIM)
    assert interest == "board[].vitality#batch[combat:500.4e]"
    assert maim == "board[].vitality#maim[combat:500.3d]"
    # the key does not depend on the unit's name or the numbers: the same bug renamed and rescaled, same key
    renamed = _scenario([_unit("zed", vitality=45, max_vitality=80, vessels=2)],
                        [{"kind": "cost", "payer": "zed", "amount": 45, "cost_kind": "interest", "beneficiary": None}])
    verdict, divergences = judge(renamed, mutants.interest_keeps_max_vitality(renamed), Comparison())
    assert verdict == "mismatch" and group_key_of(renamed, divergences) == interest


@covers("combat:500.8g", "combat:500.4e", "combat:500.3d")
def test_500_8g_500_3d_an_engine_with_both_bugs_files_them_under_two_vitality_groups():
    """One engine with both bugs, several scenarios of each (units renamed, numbers changed), filed as a
    ``--keep-going`` run files them (``_record_group``): two ``board[].vitality#...`` groups, one per bug, each
    holding all of its bug's scenarios (before this change: the one group ``board[].vitality``)."""
    from referee.check.grouping.filing import _record_group

    engine = mutants.load_together(("interest_keeps_max_vitality", "maim_meets_the_requested_amount")).run
    interest = [_scenario([_unit(u, vitality=v, max_vitality=100, vessels=1)],
                          [{"kind": "cost", "payer": u, "amount": v, "cost_kind": "interest", "beneficiary": None}])
                for u, v in (("b", 30), ("x", 12), ("long_name", 99))]
    maim = [_scenario([_unit(u, is_tool=True, vitality=v - 1, max_vitality=v, maim=1)],
                      [{"kind": "recover", "target": u, "amount": 2, "lane": "repair"}]) for u, v in (("b", 255), ("q", 40))]
    groups: dict = {}
    for scenario in interest + maim:
        verdict, divergences = judge(scenario, engine(scenario), Comparison())
        assert verdict == "mismatch" and divergences[0].path.endswith(".vitality"), divergences
        _record_group(groups, scenario, divergences)
    counts = {key: group["count"] for key, group in groups.items()}
    assert counts == {"board[].vitality#batch[combat:500.4e]": 3, "board[].vitality#maim[combat:500.3d]": 2}, counts


@covers("combat:500.2e")
def test_500_2e_one_state_bug_over_many_scenarios_stays_one_group():
    """Crush stopping at 0 Armor: scenarios of up to three debuffs on any unit, numbers all over; every one of
    them, whether the model changed the Armor in the last debuff or left it (an amount of 0 on negative Armor),
    is the one group ``board[].armor#armor_debuff[combat:500.2e]``."""
    _assert_one_group(mutants.armor_floored_at_zero, 300, "armor_debuff", 3,
                      "board[].armor#armor_debuff[combat:500.2e]", at_least=20)


@covers("play:359.2.c")
def test_359_2c_one_play_state_bug_over_many_scenarios_stays_one_group():
    """A unit entering the board ready (359.2.c): ``state.objects[].exhausted`` keyed by the play's finish step,
    one group however the card's cost was computed and paid."""
    _assert_one_group(mutants.unit_enters_ready, 200, "play_card", 2,
                      "state.objects[].exhausted#finish[play:350.1]", at_least=10)


def _assert_one_group(run, examples: int, kind: str, max_actions: int, key: str, at_least: int) -> None:
    """A keep-going run of one seeded bug (seed 5) files every diverging scenario under the one ``key``."""
    engine = PythonEngine(run)
    with engine:
        report = check(engine, CheckOptions(examples=examples, seed=5, kinds=(kind,), max_actions=max_actions,
                                            database=None, keep_going=True, shrink=False, state_dir=None))
    assert [g.key for g in report.groups] == [key], [g.key for g in report.groups]
    assert report.groups[0].count >= at_least


def _group(key: str) -> Group:
    return Group(key, 1, {}, [], ["combat:500.2e"])


def test_a_known_entry_written_against_the_path_alone_still_matches_the_keys_that_name_a_step():
    """``board[].armor`` (a key as written before keys named the step) matches every ``board[].armor#...`` group;
    an entry with a step matches that step only; an entry matching nothing is still reported stale."""
    armor, other = _group("board[].armor#armor_debuff[combat:500.2e]"), _group("board[].armor#revival[combat:500.9c]")
    vitality = _group("board[].vitality#maim[combat:500.3d]")
    old = KnownEntry("written before keys named the step", key="board[].armor")
    exact = KnownEntry("one step only", key="board[].vitality#maim[combat:500.3d]")
    wrong_step = KnownEntry("another step", key="board[].vitality#vitality[combat:500.8i]")
    not_a_prefix = KnownEntry("a longer path", key="board[].arm")
    groups = [armor, other, vitality]
    stale = match_known(groups, [old, exact, wrong_step, not_a_prefix], datetime.date(2026, 12, 1))
    assert armor.known is old and other.known is old and vitality.known is exact
    assert stale == [wrong_step, not_a_prefix]
    event = _group("events[].amount@damage_taken#combat.damage.process_vitality_damage")
    match_known([event], [KnownEntry("event, path part", key="events[].amount@damage_taken")], datetime.date(2026, 12, 1))
    assert event.known is not None
