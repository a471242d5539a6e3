"""Soundness of ``referee query``: found witnesses replay; no impossible is contradicted by random scenarios.

Conditions are drawn at random from the condition language's grammar (fixed seed) and asked
over a small space (one damage instance, boards of two units, an enemy source, one reading);
the same space is then sampled at random (a few thousand legal scenarios) and every
``impossible`` condition must be false in every one of them.
"""

from __future__ import annotations

import random

import pytest

from referee.rulebooks.combat.run import run_actions
from referee.protocol import decode_scenario
from referee.rulebooks.combat.codec import encode_observation
from referee.query import run_query
from referee.query.evaluate import evaluate, namespace
from referee.query.run import make_query
from referee.query.space import concrete_ruleset, run_actions as run_query_actions
from referee.query.types import outcome_fields, unit_fields

SPACE = {"actions": ("damage",), "units": 2, "relations": ("enemy",),
         "ruleset": {"negative_armor": "mirror", "shield_multiplier_rounding": "ceil", "redirect_cap_moves": "up_to_cap"}}
INT_FIELDS = [f for f, t in unit_fields().items() if t == "Int" and f != "side"]
BOOL_FIELDS = [f for f, t in unit_fields().items() if t == "Bool"]
OUTCOME_INTS = [f for f, t in outcome_fields().items() if t == "Int"]
OUTCOME_BOOLS = [f for f, t in outcome_fields().items() if t == "Bool"]
EVENTS = ["damage_taken", "shield_damaged", "shield_broken", "insurance_prevented", "death", "defy_death",
          "vessel_revival", "damage_discarded", "ignore_charge_spent", "subrogation", "rune_reset"]


def atom(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        unit = rng.choice(["target", "target_after", "source", "source_after"])
        return f"{unit}.{rng.choice(INT_FIELDS)} {rng.choice(['<', '<=', '==', '>', '>='])} {rng.randrange(-2, 40)}"
    if kind == 1:
        return f"{'not ' if rng.random() < 0.3 else ''}{rng.choice(['target', 'target_after'])}.{rng.choice(BOOL_FIELDS)}"
    if kind == 2:
        return f"outcome.{rng.choice(OUTCOME_INTS)} {rng.choice(['<', '==', '>'])} {rng.randrange(0, 30)}"
    if kind == 3:
        return f"outcome.{rng.choice(OUTCOME_BOOLS)}"
    return f'event("{rng.choice(EVENTS)}")'


def condition(rng: random.Random) -> str:
    parts = [atom(rng) for _ in range(rng.randrange(1, 4))]
    glue = rng.choice([" and ", " or ", " and not "])
    return glue.join(parts) if glue != " and not " else parts[0] + "".join(" and not " + p for p in parts[1:])


def random_values(rng: random.Random, names: list[str]) -> dict:
    values = {}
    for name in names:
        field = name.rpartition(".")[2]
        if field in BOOL_FIELDS or field.startswith("roll") or field == "allows_dormant":
            values[name] = rng.random() < 0.25
        elif field in ("vitality", "max_vitality"):
            values[name] = rng.randrange(1, 60)
        else:
            values[name] = rng.choice([0, 0, 0, rng.randrange(-3, 40), rng.choice([4, 9, 16, 25, 81])])
        if field == "shield_multiplier":  # a printed multiplier is at least 1 in a legal state (what the model
            values[name] = max(values[name], 1)  # made of one below 1): the same draws, the same runs
    for unit in ("target", "source", "receiver", "interceptor", "ally"):
        if f"{unit}.vitality" not in values:
            continue
        if not values.get(f"{unit}.alive", True):
            values[f"{unit}.vitality"] = 0
        values[f"{unit}.max_vitality"] = max(values[f"{unit}.max_vitality"], values[f"{unit}.vitality"], 1)
        if values.get(f"{unit}.is_tool"):
            values[f"{unit}.is_hub"] = values[f"{unit}.is_boss"] = False
        if values.get(f"{unit}.is_hub"):
            values[f"{unit}.is_boss"] = False
    values["ruleset.defy_death_leaves"] = rng.randrange(1, 4)
    return values


def test_query_random_conditions_found_replay_and_impossible_survive_random_scenarios() -> None:
    from referee.model.combat.legal import NON_NEGATIVE_FIELDS
    from referee.proofs.core import Vars

    rng = random.Random(1212)
    conditions = [condition(rng) for _ in range(8)]
    answers = [run_query(c, **SPACE) for c in conditions]
    impossible = []
    for text, answer in zip(conditions, answers):
        assert answer.status in ("found", "impossible", "unknown"), (text, answer.status, answer.detail)
        if answer.status == "found":
            decoded = decode_scenario(answer.scenario)
            after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
            assert encode_observation(after, log.events(), sid=answer.scenario["id"]) == answer.observation, text
        elif answer.status == "impossible":
            impossible.append(make_query(text, **SPACE))
    query = make_query("True", **SPACE)

    def draws(layout):
        probe = Vars({})
        run_query_actions(probe, layout, query.specs, concrete_ruleset(SPACE["ruleset"], 1), False)
        names = sorted(probe.created) + ["ruleset.defy_death_leaves"]
        for _ in range(2500):
            values = random_values(rng, names)
            for unit in ("target", "source"):
                for name in NON_NEGATIVE_FIELDS:
                    values[f"{unit}.{name}"] = abs(values[f"{unit}.{name}"])
                values[f"{unit}.shield_multiplier"] = max(values[f"{unit}.shield_multiplier"], 1)  # legal: >= 1
            if "source.alive" in values:  # a dead unit deals no hit (400.8b): the legal space has a living source
                values["source.alive"] = True
                values["source.vitality"] = max(values["source.vitality"], 1)
                values["source.max_vitality"] = max(values["source.max_vitality"], values["source.vitality"])
            yield values

    sampled = sample_against_impossible(
        query, impossible, draws, lambda values: concrete_ruleset(SPACE["ruleset"], values["ruleset.defy_death_leaves"]),
        layouts=query.layouts()[:1])
    print(f"query soundness: {len(conditions)} conditions ({len(impossible)} impossible), {sampled} random scenarios")
    assert sampled >= 2000 and 0 < len(impossible) < len(conditions)


# --------------------------------------------------------------------------------------
# The same cross-check over an ability (400.8): line records, gates, counts, conditions
# --------------------------------------------------------------------------------------

ABILITY_SPACE = {
    "actions": ("ability:targets=target+receiver,lines=burn({b})>enemies/restore({r})>allies*burning_enemy"
                "/cull({c})?target_burning/maim({m})/venom({m})@activation>enemies*ally",),
    "units": 4, "ruleset": "defaults"}
ABILITY_UNITS = ["target", "receiver", "source", "ally"]
ABILITY_INTS = ["vitality", "burn", "venom", "maim"]
ABILITY_BOOLS = ["alive", "untargetable", "entrapped", "dormant", "is_tool"]
LINE_INTS = ["base", "count", "amount", "reached", "refused", "total"]
ABILITY_EVENTS = ["line_refused", "condition_failed", "line_resolved", "status_applied", "vitality_restored",
                  "culled", "death"]


def ability_atom(rng: random.Random) -> str:
    kind = rng.randrange(6)
    unit = rng.choice(ABILITY_UNITS)
    if kind == 0:
        return f"{unit}_after.{rng.choice(ABILITY_INTS)} {rng.choice(['<', '>', '=='])} {unit}.{rng.choice(ABILITY_INTS)}"
    if kind == 1:
        return f"{'not ' if rng.random() < 0.5 else ''}{rng.choice([unit, unit + '_after'])}.{rng.choice(ABILITY_BOOLS)}"
    if kind == 2:
        return f"first.line{rng.randrange(5)}.{rng.choice(LINE_INTS)} {rng.choice(['<', '==', '>'])} {rng.randrange(0, 6)}"
    if kind == 3:
        return f"{'not ' if rng.random() < 0.3 else ''}first.line{rng.randrange(5)}.resolved"
    if kind == 4:
        return f"{unit}.{rng.choice(ABILITY_INTS)} {rng.choice(['<', '>='])} {rng.randrange(0, 30)}"
    return f'event("{rng.choice(ABILITY_EVENTS)}"{", unit=" + repr(unit) if rng.random() < 0.5 else ""})'


def test_400_8_query_random_ability_conditions_found_replay_and_impossible_survive_random_scenarios() -> None:
    ability_cross_check(random.Random(4008), conditions=10, per_layout=500)


@pytest.mark.slow
def test_400_8_query_ability_cross_check_long_campaign() -> None:
    ability_cross_check(random.Random(40081), conditions=40, per_layout=2500)


def replay_found_keep_impossible(conditions: list[str], space: dict) -> list:
    """Ask each condition over ``space``: every verdict is certain, every found witness replays through the
    model to the observation it reports; the impossible ones come back as queries, for random scenarios to test."""
    impossible = []
    for text in conditions:
        answer = run_query(text, **space)
        assert answer.status in ("found", "impossible"), (text, answer.status, answer.detail)
        if answer.status == "found":
            decoded = decode_scenario(answer.scenario)
            after, log = run_actions(decoded.board, decoded.actions, decoded.ruleset)
            assert encode_observation(after, log.events(), sid=answer.scenario["id"]) == answer.observation, text
        else:
            impossible.append(make_query(text, **space))
    return impossible


def sample_against_impossible(query, impossible: list, draws, ruleset_of, layouts=None) -> int:
    """Run every drawn scenario of every layout of ``query`` (or of ``layouts``) through the query's runner; no
    ``impossible`` condition may hold in a well-formed one. ``draws(layout)`` yields value maps; returns how many
    were run."""
    from referee.proofs.core import Vars
    from referee.query.space import is_legal_run

    sampled = 0
    for layout in query.layouts() if layouts is None else layouts:
        for values in draws(layout):
            runs = run_query_actions(Vars(values), layout, query.specs, ruleset_of(values), False)
            if is_legal_run(runs["main"], query.specs, layout) is not True:  # the query's own space
                continue
            sampled += 1
            ns = namespace(runs, layout.units)
            for q in impossible:
                assert evaluate(q.condition, ns) is False, f"{q.text!r} answered impossible, but holds in {values}"
    return sampled


def ability_cross_check(rng: random.Random, conditions: int, per_layout: int) -> None:
    """Random ability conditions asked over ABILITY_SPACE; found replays, impossible survives random scenarios."""
    from referee.model.combat.legal import NON_NEGATIVE_FIELDS
    from referee.proofs.core import Vars

    conditions = [" and ".join(ability_atom(rng) for _ in range(rng.randrange(1, 4))) for _ in range(conditions)]
    impossible = replay_found_keep_impossible(conditions, ABILITY_SPACE)
    query = make_query("True", **ABILITY_SPACE)

    def draws(layout):
        probe = Vars({})
        run_query_actions(probe, layout, query.specs, concrete_ruleset({}, 1), False)
        names = sorted(probe.created)
        for _ in range(per_layout):
            values = random_values(rng, names)
            for unit in ABILITY_UNITS:
                for name in NON_NEGATIVE_FIELDS:
                    values[f"{unit}.{name}"] = abs(values[f"{unit}.{name}"])
                if f"{unit}.shield_multiplier" in values:  # legal: >= 1
                    values[f"{unit}.shield_multiplier"] = max(values[f"{unit}.shield_multiplier"], 1)
            yield values

    sampled = sample_against_impossible(query, impossible, draws, lambda values: concrete_ruleset(query.fixed, 1))
    print(f"ability query soundness: {len(conditions)} conditions ({len(impossible)} impossible: "
          f"{[q.text for q in impossible]}), {sampled} scenarios")
    assert sampled >= per_layout and 0 < len(impossible) < len(conditions)
