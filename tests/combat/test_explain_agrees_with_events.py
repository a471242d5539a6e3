"""``referee explain`` agrees with its own numbers: each step's quoted amounts against the events it explains.

For every scenario, each action's steps are read against the model's events of that action (issue 20):

* order: the events are aligned with the steps as a failure report aligns them (``locate_event``: each event
  on the first step at or after the previous event's step that names it); an event some step names but only
  a step before the cursor does is explained out of resolution order. A defy-death answer to a cost is
  emitted with the price, before the channel that reports the payment (Thorns, Riposte, Retort, a payback, a
  cost): its step comes just before a cost's own channel step (the price, 500.8f) and just after a
  retaliation's step (Thorns, Riposte, Retort, a payback: the answer to it, 500.6d);
* defy-death: every ``defy_death`` event has a ``defy_death`` step naming it, whose ``prevents N`` and
  ``prevented`` quantity are the event's amount, and whose ``pays N``, when it says one, is what the payer lost;
* "X loses N Vitality": a ``vitality_lost`` of N for X in the action (N > 0), a ``cost_paid`` ... of N for
  X, or nothing (N = 0);
* "keeps N" (a defy-death floor): X's Vitality after the step is N;
* the batch: a Vessel Point batch of a death cites 500.4e, of a revival 500.9m, with the event's count.

The default run reads every hand-written boundary case of every kind (exported verbatim among the vectors)
and a fixed seeded sample of the generator's scenarios, well under a minute; ``--runslow`` reads every
vector of the full export (the Z3 branch search: minutes).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.explain import explain_actions
from referee.model.events import Event

#: The channels a defy-death answer is emitted before (the cost it answered, as reported).
ANSWERED_CHANNELS = ("thorns", "riposte", "retort", "subrogation", "cost_paid", "bloodletting_paid")
#: The retaliations among them: the defy-death step follows the retaliation's own step.
RETALIATION_CHANNELS = ("thorns", "riposte", "retort", "subrogation")
LOSES = re.compile(r"\b([A-Za-z0-9_]+) loses (\d+) Vitality")
PREVENTS = re.compile(r"prevents (\d+)")
PAYS = re.compile(r"so ([A-Za-z0-9_]+) pays (\d+)")
KEEPS = re.compile(r"\(it keeps (\d+)\)")


def answered_channel(events: list[Event], i: int) -> str | None:
    """The channel a defy-death answer at ``events[i]`` priced (the next event of its unit), or None: the rune
    answered damage (500.1-12), not a cost."""
    following = next((x for x in events[i + 1:] if x.unit == events[i].unit), None)
    return following.name if following is not None and following.name in ANSWERED_CHANNELS else None


def _first(steps: list[Any], name: str, start: int, stop: int | None = None) -> int | None:
    return next((i for i in range(start, len(steps) if stop is None else stop) if name in steps[i].events), None)


def align(steps: list[Any], events: list[Event]) -> tuple[dict[int, list[Event]], list[str]]:
    """Each step's events (``locate_event``'s alignment) and the events explained out of order. A defy-death
    answer to a cost is emitted with the price, before the channel reporting the payment: its step comes before
    a cost's channel step (the price, 500.8f) and right after a retaliation's (the answer to it, 500.6d)."""
    named = {name for step in steps for name in step.events}
    cursor, where, problems, held = 0, {}, [], []
    for i, e in enumerate(events):
        channel = answered_channel(events, i) if e.name == "defy_death" else None
        if channel in RETALIATION_CHANNELS:  # answered after the retaliation it saves the payer from (500.6d)
            held.append(e)
            continue
        hit = _first(steps, e.name, cursor, _first(steps, channel, cursor) if channel else None)
        if hit is None and channel:
            held.append(e)
            continue
        if hit is None:
            if e.name in named:
                problems.append(f"event {e.name} (unit {e.unit}, amount {e.amount}) is named only by a step before "
                                f"step {cursor} ({steps[cursor].step}): out of resolution order")
            continue
        cursor = hit
        where.setdefault(hit, []).append(e)
        for w in [w for w in held if e.name in ANSWERED_CHANNELS and w.unit == e.unit]:
            held.remove(w)
            after = _first(steps, "defy_death", cursor)
            if after is not None:
                where.setdefault(after, []).append(w)
            elif "defy_death" in named:
                problems.append(f"the defy-death answer of {w.unit} to {e.name} is explained before it: out of "
                                "resolution order")
    return where, problems


def defy_problems(steps: list[Any], where: dict[int, list[Event]], events: list[Event]) -> list[str]:
    """Every defy-death answer has its step, quoting what the rune prevented and what the payer still paid."""
    problems = []
    for e in (e for e in events if e.name == "defy_death"):
        at = next((i for i, got in where.items() if e in got), None)
        if at is None or steps[at].step != "defy_death":
            problems.append(f"defy_death of {e.unit} (prevented {e.amount}) has no defy_death step")
            continue
        step = steps[at]
        quoted = [int(n) for n in PREVENTS.findall(step.text)]
        if quoted != [e.amount] or step.quantities.get("prevented", e.amount) != e.amount:
            problems.append(f"defy step of {e.unit} quotes prevents {quoted} / {step.quantities.get('prevented')}, "
                            f"the event prevented {e.amount}: {step.text}")
        for payer, paid in PAYS.findall(step.text):
            lost = [x.amount for x in events if x.name == "vitality_lost" and x.unit == payer]
            if int(paid) and int(paid) not in lost:
                problems.append(f"defy step says {payer} pays {paid}; {payer} lost {lost}: {step.text}")
    return problems


def loses_problems(steps: list[Any], events: list[Event]) -> list[str]:
    """"X loses N Vitality" is a loss of N the events record for X (or N = 0: nothing left)."""
    problems = []
    for step in steps:
        for uid, n in LOSES.findall(step.text):
            lost = [e.amount for e in events if e.name == "vitality_lost" and e.unit == uid]
            if int(n) and int(n) not in lost:
                problems.append(f"step {step.step} says {uid} loses {n} Vitality; the events: {lost}: {step.text}")
    return problems


def batch_problems(steps: list[Any], where: dict[int, list[Event]]) -> list[str]:
    """A death's batch cites 500.4e, a revival's 500.9m, each with the count the event reports."""
    problems = []
    for i, got in where.items():
        for e in (e for e in got if e.name == "vessel_batch"):
            clause = {"death": "500.4e", "revival": "500.9m"}.get(e.detail or "", "")
            if not steps[i].clause.endswith(clause) or f"{e.amount} event(s)" not in steps[i].text:
                problems.append(f"the {e.detail} batch of {e.unit} ({e.amount} events, {clause}) is explained by "
                                f"[{steps[i].clause}] {steps[i].text}")
    return problems


def keeps_problems(steps: list[Any], changes: dict[str, dict[str, list[Any]]]) -> list[str]:
    """A step's "(it keeps N)" is the Vitality its unit is left with."""
    problems = []
    for step in steps:
        for n in KEEPS.findall(step.text):
            kept = {uid: fields["vitality"][1] for uid, fields in changes.items() if "vitality" in fields}
            if int(n) not in kept.values():
                problems.append(f"step {step.step} says it keeps {n}; Vitality after: {kept}: {step.text}")
    return problems


def disagreements(scenario: dict[str, Any]) -> list[str]:
    """Every place an explanation of ``scenario`` quotes an amount or an order its events contradict."""
    out = []
    for action in explain_actions(scenario):
        where, order = align(action.steps, action.events)
        found = [*order, *defy_problems(action.steps, where, action.events), *loses_problems(action.steps, action.events),
                 *batch_problems(action.steps, where), *keeps_problems(action.steps, action.changes)]
        out += [f"action {action.number} ({action.kind}): {p}" for p in found]
    return out


# --------------------------------------------------------------------------------------
# The scenarios
# --------------------------------------------------------------------------------------


def boundary_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Every hand-written boundary case of every combat kind, as the vector export writes it."""
    from referee.rulebooks.combat.vectors import boundary_vectors

    return [(v.label, v.scenario) for v in boundary_vectors()]


def sampled_scenarios(count: int = 300) -> list[tuple[str, dict[str, Any]]]:
    """A fixed seeded sample of the generator's combat scenarios (every kind, up to two actions)."""
    from referee.seeded import draw_seeded
    from referee.check.strategies import scenarios

    drawn = draw_seeded(scenarios(), 20_000, count)
    return [(f"seeded-{i}", s) for i, s in enumerate(drawn) if s.get("rulebook", "combat") == "combat"]


def test_the_checks_catch_the_defects_issue_20_reported():
    """The checker is not vacuous: the wrong amounts and order explain once printed are found."""
    from referee.explain.steps import Step

    thorns = Event("thorns", "s", 49, "t")
    defy = Event("defy_death", "s", 151, "t")
    lost = Event("vitality_lost", "s", 49)
    wrong_keep = [Step("defy_death", "combat:500.6d", "a defy-death rune saves s (it keeps 151).", {"prevented": 151},
                       events=("defy_death",)),
                  Step("thorns", "combat:500.7b", "Thorns: s loses 49 Vitality.", events=("thorns",))]
    where, order = align(wrong_keep, [defy, thorns, lost])
    assert keeps_problems(wrong_keep, {"s": {"vitality": [50, 1]}})  # it keeps 1: 151 is what was prevented
    assert order and "out of resolution order" in order[0]  # the defy step printed before the Thorns it answers
    no_step = [Step("thorns", "combat:500.7b", "Thorns: s loses 99 Vitality.", events=("thorns",))]
    where, _ = align(no_step, [defy, thorns])
    assert defy_problems(no_step, where, [defy]) and loses_problems(no_step, [thorns, lost])
    batch = [Step("batch", "combat:500.4e", "one Vessel Point batch of 1 event(s).", events=("vessel_batch",))]
    where, _ = align(batch, [Event("vessel_batch", "a", 1, None, "revival")])
    assert batch_problems(batch, where)


@pytest.mark.parametrize(("name", "scenario"), boundary_scenarios(), ids=lambda x: x if isinstance(x, str) else "")
def test_explain_agrees_with_the_events_of_every_boundary_vector(name, scenario):
    assert disagreements(scenario) == []


def test_explain_agrees_with_the_events_of_a_seeded_sample():
    found = {name: problems for name, scenario in sampled_scenarios() if (problems := disagreements(scenario))}
    assert found == {}


@pytest.mark.slow
def test_explain_agrees_with_the_events_of_every_exported_vector():
    from referee.vectors.suite import generate

    found = {}
    for vector in generate().vectors:
        if vector.scenario.get("rulebook", "combat") == "combat" and (problems := disagreements(vector.scenario)):
            found[vector.label or vector.primary] = problems
    assert found == {}
