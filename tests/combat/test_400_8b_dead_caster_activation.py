"""INT-213 as a ruleset option: when the caster dies during its own activation, do its remaining lines resolve?

400.8b: "a unit killed by this activation is gone before every post-damage clause resolves"; 800.4j: a lethal
Bloodletting payment kills the payer "and the activation continues". ``dead_caster_activation = continues`` (the
default): the activation goes on whoever died, later lines resolving with the dead caster as their source. ``stops``:
the caster is gone (400.8b) and a dead unit does not act, so once a line ends with the caster dead, having lived when it
began, no later line resolves; a caster killed by its own Bloodletting payment is the one death 800.4j lets the
activation survive, under both readings.

The board: the caster ``c`` at 5 of 30 Vitality (side 0, first in reading order); ``t`` (side 1) at 40 of 40 with
Thorns 10. The ability: "Deal 3 damage / Burn 2" (the Burn after the hit). By hand: the hit takes ``t`` 40 -> 37, a
damage event, so Thorns answers it for its flat 10 (500.7a, 500.7b), a retaliation that takes ``c`` 5 -> 0 and kills it
(500.6d). continues: the Burn line resolves and ``t`` takes 2 Burn (400.8-6). stops: ``c`` lived when the hit line began
and is dead when it ends, so the Burn line never resolves (no line_resolved, ``t`` keeps 0 Burn).
"""

from __future__ import annotations

import json

import pytest

from referee import rulebooks
from referee.check.compare import Comparison
from referee.check.judging import judge
from referee.examples.engine import run as example_run
from referee.protocol import decode_scenario
from referee.specs.trace import covers
from referee.wire import PROTOCOL

OPTION = "dead_caster_activation"
READINGS = ("continues", "stops")
HIT_THEN_BURN = [{"effect": "damage", "amount": 3}, {"effect": "burn", "amount": 2, "lane": "after_hit"}]
#: "Bloodletting 9 / Deal 3 damage": ``c`` is first in reading order on its side, so it pays (800.4b): 9 clamped to its
#: 5 kills it (800.4g); ``t`` has no Thorns here.
PAID_THEN_HIT = [{"effect": "bloodletting", "amount": 9}, {"effect": "damage", "amount": 3}]


def _scenario(reading: str, lines: list[dict], thorns: int = 10) -> dict:
    board = [{"uid": "c", "side": 0, "row": 0, "col": 0, "vitality": 5, "max_vitality": 30},
             {"uid": "t", "side": 1, "row": 0, "col": 0, "vitality": 40, "max_vitality": 40, "thorns": thorns}]
    return {"protocol": PROTOCOL, "ruleset": {OPTION: reading}, "board": board,
            "actions": [{"kind": "ability", "caster": "c", "targets": ["t"], "ability": {"lines": lines}}]}


def _run(scenario: dict) -> tuple[dict[str, object], list[str]]:
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    t, c = state.unit("t"), state.unit("c")
    resolved = [e.detail for e in events if e.name == "line_resolved"]
    return {"c_alive": c.alive, "t_vitality": t.vitality, "t_burn": t.burn}, resolved


@covers("combat:400.8b")
def test_continues_the_burn_resolves_after_thorns_killed_the_caster():
    assert _run(_scenario("continues", HIT_THEN_BURN)) == (
        {"c_alive": False, "t_vitality": 37, "t_burn": 2}, ["damage", "burn"])


@covers("combat:400.8b")
def test_stops_no_line_resolves_after_the_one_that_killed_the_caster():
    assert _run(_scenario("stops", HIT_THEN_BURN)) == ({"c_alive": False, "t_vitality": 37, "t_burn": 0}, ["damage"])


@covers("combat:400.8b", "combat:800.4j")
@pytest.mark.parametrize("reading", READINGS)
def test_a_caster_its_own_bloodletting_payment_killed_still_deals_its_hit(reading):
    """800.4j: the payment kills ``c`` (5 of 9 paid) and the activation continues: the hit takes ``t`` 40 -> 37."""
    assert _run(_scenario(reading, PAID_THEN_HIT, thorns=0)) == (
        {"c_alive": False, "t_vitality": 37, "t_burn": 0}, ["bloodletting", "damage"])


@pytest.mark.parametrize("reading", READINGS)
def test_the_example_engine_reads_the_option_as_the_model_does(reading):
    for scenario in (_scenario(reading, HIT_THEN_BURN), _scenario(reading, PAID_THEN_HIT, thorns=0)):
        assert judge(scenario, example_run(json.loads(json.dumps(scenario))), Comparison()) == ("ok", None)


def test_a_query_finds_an_activation_stopped_by_its_caster_s_death_only_under_stops():
    """No Bloodletting line, so only the caster's death can stop the activation (is_stopping, read by the query)."""
    from typer.testing import CliRunner

    from referee.cli.app import app

    base = ("query", "first.stopped", "--action", "ability:caster=source,targets=target,lines=damage@hit/burn@after_hit",
            "--units", "2", "--source", "enemy")
    verdicts = {r: CliRunner().invoke(app, [*base, "--ruleset", f"{OPTION}={r}"]).output.split(":")[0] for r in READINGS}
    assert verdicts == {"continues": "impossible", "stops": "found"}, verdicts
