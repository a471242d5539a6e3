"""``referee explain`` on the chapter-500 kinds of issue 14, and where a failure report places a divergence there:
the Forge Core bonus before the cap (500.3b), Maim on the eligible amount (500.3e), a shared tick's credit and
Feast split (500.5b, 500.5c), each applier answered (500.7e), and an Everlasting revival's killer (500.9k)."""

from __future__ import annotations

from referee.check.grouping.attribution import steps_at_fault
from referee.explain import explain_actions, explain_steps
from referee.rulebook import Divergence
from referee.specs.trace import covers


def scenario(board, *actions):
    return {"protocol": "referee/2", "board": board, "actions": list(actions)}


def event(name, unit, amount, other=None, detail=None):
    return {"name": name, "unit": unit, "amount": amount, "other": other, "detail": detail}


def engine_only(index, engine):
    """An event the engine emitted where the model emitted none."""
    return Divergence(where="events", path=f"events[{index}]", model=None, engine=engine, event_index=index)


FULL_WITH_FORGE_CORE = scenario([{"uid": "a", "vitality": 1, "max_vitality": 1, "forge_core_recovery": 1}],
                                {"kind": "recover", "target": "a", "amount": 1, "lane": "heal"})


@covers("combat:500.3b", "combat:500.3c")
def test_500_3b_explain_adds_the_forge_core_bonus_before_the_cap():
    steps = {s.step: s for s in explain_steps(FULL_WITH_FORGE_CORE)}
    assert "1 + 1 = 2" in steps["forge_core_bonus"].text and steps["forge_core_bonus"].clause == "combat:500.3b"
    cap = steps["recovery_cap"]
    assert cap.clause == "combat:500.3c" and "Forge Core bonus already in (500.3b), 2 is then capped at the 0" in cap.text


@covers("combat:500.3b")
def test_500_3b_a_heal_the_cap_refused_is_placed_at_the_cap_that_came_after_the_bonus():
    shown = steps_at_fault(FULL_WITH_FORGE_CORE, engine_only(0, event("healed", "a", 1, detail="heal")))
    assert [s["step"] for s in shown] == ["forge_core_bonus", "recovery_cap"]
    assert "(500.3b)" in shown[-1]["text"]


@covers("combat:500.3e", "combat:500.3d")
def test_500_3e_explain_maim_meets_the_eligible_amount_not_the_request():
    full = scenario([{"uid": "a", "vitality": 5, "max_vitality": 5, "maim": 2}],
                    {"kind": "recover", "target": "a", "amount": 10, "lane": "heal"})
    maim = explain_steps(full)[-1]
    assert maim.step == "maim" and "meets the eligible 0" in maim.text and "not the 10 requested: 500.3e" in maim.text
    assert "no Maim is consumed" in maim.text and maim.quantities["consumed"] == 0
    shield = scenario([{"uid": "c", "vitality": 1, "max_vitality": 2, "maim": 1, "exalt": 1}],
                      {"kind": "recover", "target": "c", "amount": 1, "lane": "shield"})
    maim = explain_steps(shield)[-1]
    assert ("Maim 1 meets the eligible 2 (what the cap and Exalt left, Exalt added before Maim: 500.3f; not the 1 "
            "requested: 500.3e)") in maim.text
    assert "prevents 2" in maim.text and "1 point(s) are consumed (ceil(2 / 2), 500.3d); c gains 0" in maim.text


TICK = scenario([{"uid": "a"}, {"uid": "b", "col": 1}, {"uid": "t", "side": 1, "vitality": 1, "max_vitality": 6}],
                {"kind": "tick", "target": "t", "amount": 28, "damage_kind": "venom",
                 "appliers": [{"unit": "a", "applied": 3}, {"unit": "b", "applied": 3}]})


@covers("combat:500.5b")
def test_500_5b_explain_divides_a_shared_tick_by_what_each_applied():
    split = next(s for s in explain_steps(TICK) if s.step == "tick_credit")
    assert split.clause == "combat:500.5b" and split.quantities["shares"] == {"a": 1, "b": 0}
    assert "a 1/2, b 1/2, floored 0, 0; the 1 point(s) left over go one each to the largest remainders, ties to the " \
           "earlier applier (INT-351): credited a 1, b 0." in split.text


@covers("combat:500.5b")
def test_500_5b_a_credit_the_engine_gives_another_applier_is_placed_at_the_split():
    actions = explain_actions(TICK)
    index = next(i for i, e in enumerate(actions[0].events) if e.name == "credit")
    wrong = Divergence(where="events", path=f"events[{index}]", model=event("credit", "a", 1, "t"),
                       engine=event("credit", "b", 1, "t"), event_index=index)
    assert steps_at_fault(TICK, wrong)[-1]["clause"] == "combat:500.5b"


@covers("combat:500.5c")
def test_500_5c_explain_feeds_feast_from_the_vitality_portion_only():
    shielded = scenario([{"uid": "a"}, {"uid": "b", "col": 1}, {"uid": "t", "side": 1, "shield": 4}],
                        {"kind": "tick", "target": "t", "amount": 10, "damage_kind": "burn",
                         "appliers": [{"unit": "a", "applied": 1}, {"unit": "b", "applied": 1}]})
    feast = next(s for s in explain_steps(shielded) if s.step == "tick_feast")
    assert feast.clause == "combat:500.5c" and feast.quantities["fed"] == {"a": 3, "b": 3}
    assert "the Vitality portion of the tick, 6 (the 4 absorbed never feeds it)" in feast.text
    index = len(explain_actions(shielded)[0].events)
    shown = steps_at_fault(shielded, engine_only(index, event("feast", "a", 5, "t")))
    assert shown[-1]["step"] == "tick_feast"


@covers("combat:500.7e")
def test_500_7e_explain_answers_each_applier_of_a_shared_tick():
    thorny = scenario([{"uid": "a"}, {"uid": "b", "col": 1}, {"uid": "t", "side": 1, "thorns": 2}],
                      {"kind": "tick", "target": "t", "amount": 5, "damage_kind": "burn",
                       "appliers": [{"unit": "a", "applied": 1}, {"unit": "b", "applied": 2}]})
    answers = [s for s in explain_steps(thorny) if s.step == "thorns"]
    assert [s.quantities["payer"] for s in answers] == ["a", "b"]
    assert all("of the 2 the tick is attributed to: each is answered once, 500.7e" in s.text for s in answers)


@covers("combat:500.9k", "combat:500.9a")
def test_500_9k_explain_an_everlasting_revival_carries_its_killer():
    revived = scenario([{"uid": "a", "everlasting": True}, {"uid": "k", "side": 1}],
                       {"kind": "advance", "ms": 50}, {"kind": "cull", "target": "a", "source": "k"},
                       {"kind": "advance", "ms": 10_000})
    step = explain_actions(revived)[-1].steps[1]
    assert step.step == "everlasting_revival" and step.clause == "combat:500.9a"
    assert step.quantities == {"died": 50, "revived": 10_050, "cell": "0,0,0", "killer": "k"}
    assert "try is due 10 s after the death, at 10050 ms" in step.text and "its killer k" in step.text
    assert "(500.9k)" in step.text
