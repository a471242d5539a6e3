"""Hypothesis properties of Vitality costs, retaliation and Bloodletting, over boundary-heavy scenarios.

Costs are pulled onto the payer's Vitality (exactly lethal, one above, one below) and onto
the defy-death floor, where clamping and the rune interact; Bloodletting boards are small
grids with every flag drawn, so the reading order has something to skip.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.model.combat import costs
from referee.model.combat.bloodletting import NO_PAYER, choose_bloodletting_payer, process_bloodletting
from referee.model.combat.damage import DamageInstance
from referee.model.events import EVENT_NAMES, EventLog
from referee.model.combat.retaliation import compute_reflect_amount, resolve_hit
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board, Unit
from referee.specs.trace import covers

CHANNEL = {"bloodletting": "bloodletting_paid", "interest": "cost_paid", "self_destruct": "cost_paid", "retaliation": "thorns"}
DAMAGE_REACTIONS = {"damage_taken", "shield_damaged", "shield_broken", "insurance_prevented", "ignore_charge_spent",
                    "riposte", "retort", "subrogation", "reflect", "stagger", "redirect", "lethal_redirect"}  # fmt: skip


@st.composite
def payers(draw: Any, uid: str = "p", side: int = 0, row: int = 0, col: int = 0) -> Unit:
    """A unit with every field a cost reads, in valid domains."""
    alive = draw(st.integers(0, 7)) > 0
    vitality = draw(st.integers(1, 120)) if alive else 0
    role = draw(st.sampled_from(["unit"] * 6 + ["is_tool", "is_hub", "is_boss"]))
    return Unit(
        uid, side=side, row=row, col=col, alive=alive, vitality=vitality,
        max_vitality=max(vitality, draw(st.integers(1, 150))),
        dormant=draw(st.integers(0, 5)) == 0, entrapped=draw(st.integers(0, 6)) == 0,
        ignore_charges=draw(st.integers(0, 2)), armor=draw(st.integers(-50, 400)), subrogated=draw(st.integers(0, 3)),
        insurance=draw(st.integers(0, 3)), shield=draw(st.sampled_from([0, 1, 10, 200])), defy_death=draw(st.booleans()),
        thorns=draw(st.integers(0, 6)), riposte=draw(st.integers(0, 4)), retort=draw(st.integers(0, 5)),
        adrenaline=draw(st.integers(0, 3)), momentum=draw(st.integers(0, 3)), bolster=draw(st.integers(0, 3)),
        deathrattle=draw(st.booleans()), everlasting=draw(st.booleans()), vessels=draw(st.integers(0, 1)),
        **({} if role == "unit" else {role: True}),
    )  # fmt: skip


@st.composite
def cost_scenarios(draw: Any) -> tuple[Board, int, str, Ruleset]:
    p = draw(payers())
    board = Board((p, draw(payers("q", side=1))))
    amount = draw(st.one_of(st.integers(-5, 200), st.sampled_from([p.vitality - 1, p.vitality, p.vitality + 1, 0])))
    kind = draw(st.sampled_from(costs.COST_KINDS))
    return board, amount, kind, Ruleset(defy_death_leaves=draw(st.sampled_from([1, 1, 2, 5])))


def run(board: Board, amount: int, kind: str, ruleset: Ruleset):
    log = EventLog()
    after, lost = costs.pay_vitality_cost(board, "p", amount, kind, log, channel=CHANNEL[kind], beneficiary="q",
                                          ruleset=ruleset)  # fmt: skip
    return after, log.events(), lost


@covers("combat:500.8a", "combat:500.8b", "combat:500.8c")
@settings(max_examples=250, deadline=None)
@given(cost_scenarios())
def test_a_cost_takes_at_most_the_payers_vitality_and_touches_no_defence(scenario):
    board, amount, kind, ruleset = scenario
    after, events, lost = run(board, amount, kind, ruleset)
    p0, p1 = board.unit("p"), after.unit("p")
    assert 0 <= lost <= p0.vitality and p1.vitality >= 0
    assert (p1.insurance, p1.subrogated, p1.ignore_charges, p1.armor) == (p0.insurance, p0.subrogated, p0.ignore_charges, p0.armor)
    died = any(e.name == "death" for e in events)
    assert p1.shield == p0.shield or died
    assert not DAMAGE_REACTIONS & {e.name for e in events}
    assert all(e.name in EVENT_NAMES for e in events)
    assert board.unit("q") == after.unit("q")


@covers("combat:500.8i", "combat:500.8d")
@settings(max_examples=200, deadline=None)
@given(cost_scenarios())
def test_the_channel_and_the_listeners_read_the_vitality_that_left(scenario):
    board, amount, kind, ruleset = scenario
    _, events, lost = run(board, amount, kind, ruleset)
    channel = [e.amount for e in events if e.name == CHANNEL[kind] and e.unit == "p"]
    lost_events = [e.amount for e in events if e.name == "vitality_lost"]
    assert channel == lost_events == ([lost] if lost > 0 else [])


@covers("combat:500.8g")
@settings(max_examples=200, deadline=None)
@given(cost_scenarios())
def test_only_interest_lowers_maximum_vitality_and_by_exactly_what_was_paid(scenario):
    board, amount, kind, ruleset = scenario
    after, _, lost = run(board, amount, kind, ruleset)
    debit = lost if kind == "interest" else 0
    assert after.unit("p").max_vitality == board.unit("p").max_vitality - debit


@covers("combat:500.8h")
@settings(max_examples=200, deadline=None)
@given(cost_scenarios())
def test_a_free_living_unit_always_dies_to_its_self_destruct(scenario):
    board, _, _, ruleset = scenario
    p = board.unit("p")
    after, log = costs.resolve_self_destruct(board, "p", ruleset)
    died = [e for e in log.events() if e.name == "death"]
    if p.alive and not p.entrapped and not (p.is_tool or p.is_hub):
        assert [e.unit for e in died] == ["p"]
        assert after.unit("p").defy_death == p.defy_death and after.unit("p").ignore_charges == p.ignore_charges
    else:
        assert died == [] and after == board


# --------------------------------------------------------------------------------------
# Retaliation
# --------------------------------------------------------------------------------------


@st.composite
def hits(draw: Any) -> tuple[Board, DamageInstance]:
    r = draw(payers("r", side=1))
    a = draw(payers("a", side=0))
    b = draw(payers("b", side=0, col=1))
    appliers = draw(st.sampled_from([(), ("a", "b"), ("b", "a", "b")]))
    kind = draw(st.sampled_from(["hit", "burn", "venom", "aoe", "overtime"]))
    source = None if kind == "overtime" else draw(st.sampled_from(["a", "a", "b", "r"]))
    rolls = tuple(draw(st.lists(st.booleans(), min_size=3, max_size=3)))
    amount = draw(st.integers(0, 250))
    return Board((r, a, b)), DamageInstance("r", amount, source, kind, riposte_rolls=rolls,
                                            appliers=appliers if source is not None else ())  # fmt: skip


@covers("combat:500.6b", "combat:500.6h", "combat:500.7e", "combat:500.7k")
@settings(max_examples=200, deadline=None)
@given(hits())
def test_only_enemy_attackers_ever_pay_retaliation_and_each_at_most_once_per_channel(scenario):
    board, instance = scenario
    _, log = resolve_hit(board, instance)
    paid = [(e.name, e.unit) for e in log.events() if e.name in ("thorns", "riposte", "retort")]
    assert all(payer in ("a", "b") for _, payer in paid)
    assert len(paid) == len(set(paid))
    attackers = set(instance.appliers or ((instance.source,) if instance.source else ()))
    assert {payer for _, payer in paid} <= attackers


@covers("combat:500.7c", "combat:500.7d", "combat:500.7f")
@settings(max_examples=200, deadline=None)
@given(hits())
def test_retort_only_on_landed_damage_and_thorns_on_every_damage_event(scenario):
    from referee.model.combat.damage import resolve_damage

    board, instance = scenario
    _, _, outcome = resolve_damage(board, instance)
    _, log = resolve_hit(board, instance)
    names = [e.name for e in log.events()]
    if "retort" in names:
        assert outcome.vitality_lost > 0
    if "thorns" in names:
        assert outcome.damage_event


@covers("combat:500.7h")
@given(st.integers(0, 100_000))
def test_reflect_is_the_floor_of_five_percent_but_at_least_one_when_anything_landed(landed):
    exact = int(Fraction(5 * landed, 100))
    assert compute_reflect_amount(landed) == (max(exact, 1) if landed > 0 else 0)


# --------------------------------------------------------------------------------------
# Bloodletting
# --------------------------------------------------------------------------------------


@st.composite
def bloodletting_boards(draw: Any) -> tuple[Board, str]:
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    cells = [(s, r, c) for s in (0, 1) for r in range(rows) for c in range(cols)]
    taken = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True))
    units = [draw(payers(f"u{n}", side=s, row=r, col=c)) for n, (s, r, c) in enumerate(taken)]
    caster = draw(st.sampled_from([u.uid for u in units]))
    return Board(tuple(units)), caster


def first_eligible_by_rule(board: Board, caster_uid: str) -> str | None:
    """800.4b-d read directly: scan rows top to bottom and each row left to right."""
    caster = board.unit(caster_uid)
    if caster.is_boss:
        return caster.uid if caster.alive and not caster.entrapped else None
    rows = sorted({u.row for u in board.units})
    for row in rows:
        for unit in sorted((u for u in board.units if u.row == row and u.side == caster.side), key=lambda u: u.col):
            if unit.alive and not unit.entrapped and not unit.is_boss:
                return unit.uid
    return None


@covers("combat:800.4b", "combat:800.4c", "combat:800.4d")
@settings(max_examples=300, deadline=None)
@given(bloodletting_boards())
def test_the_payer_is_the_first_eligible_unit_read_row_by_row(scenario):
    board, caster = scenario
    assert choose_bloodletting_payer(board, caster) == first_eligible_by_rule(board, caster)


@covers("combat:800.4d", "combat:800.4e", "combat:800.4k", "combat:800.4m")
@settings(max_examples=250, deadline=None)
@given(bloodletting_boards(), st.integers(-3, 60), st.sampled_from(["fails", "continues"]))
def test_a_bloodletting_step_has_exactly_one_outcome_and_one_payer_at_most(scenario, printed, defied):
    board, caster = scenario
    log = EventLog()
    after, outcome = process_bloodletting(board, caster, printed, log, Ruleset(bloodletting_defied_to_zero=defied))
    flags = [outcome.skipped, outcome.aborted, outcome.failed]
    assert sum(bool(f) for f in flags) <= 1
    changed = [u.uid for u in board.units if after.unit(u.uid) != u]
    assert len(changed) <= 1 and set(changed) <= {outcome.payer}
    if outcome.skipped:
        assert after == board and log.events() == ()
    if outcome.aborted:
        assert after == board and [e.name for e in log.events()] == ["activation_aborted"]
    paid = [e.amount for e in log.events() if e.name == "bloodletting_paid"]
    assert paid == ([outcome.paid] if outcome.paid > 0 else [])
    assert NO_PAYER == -1
