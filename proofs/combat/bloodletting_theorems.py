"""Theorems of 800.4 Bloodletting: who pays, and what a 0 cost or a Tool in front does.

The payer choice is structure (reading order) over symbolic flags: the model computes the
payer's index with ``ite`` over the caster's side in reading order, so the theorem runs the
model itself on a bounded board whose every flag is a variable, and compares it with the
rule read independently from row and column numbers. The bound is a full board of two
halves of 2 rows by 3 columns; an empty cell is equivalent, for this choice, to a dead unit.
"""

from __future__ import annotations

from typing import Any

from referee.model.combat import bloodletting
from referee.model.arith import and_, ite, max_, not_, or_
from referee.model.events import EventLog
from referee.model.combat.state import UNIT_FIELDS, Board, Unit

from ..core import Mutant, Obligation, Vars, all_of, theorem
from .costs_theorems import is_well_formed
from .symbolic import symbolic_unit

ROWS, COLS = 2, 3
BOUND = f"two halves of {ROWS} rows x {COLS} columns, every cell occupied (a dead unit stands for an empty cell)"


def grid(v: Vars) -> Board:
    """The bounded board: a unit with variable flags in every cell of both halves."""
    return Board(tuple(symbolic_unit(v, f"u{s}{r}{c}", side=s, row=r, col=c) for s in (0, 1) for r in range(ROWS) for c in range(COLS)))


def is_eligible_by_rule(unit: Unit) -> Any:
    """800.4c as written: dead, Entrapped and boss units are skipped; Tools and Hubs are not (800.4d)."""
    return and_(unit.alive, not_(unit.entrapped), not_(unit.is_boss))


def reads_before(a: Unit, b: Unit) -> bool:
    """800.4b as written: left to right across each row, then top to bottom."""
    return a.row < b.row or (a.row == b.row and a.col < b.col)


def pays_by_rule(board: Board, caster: Unit, unit: Unit) -> Any:
    """Whether the rule makes ``unit`` pay ``caster``'s Bloodletting (800.4b, 800.4c)."""
    if unit.side != caster.side:
        return False
    own = and_(unit.uid == caster.uid, caster.alive, not_(caster.entrapped))
    earlier = [w for w in board.units if w.side == caster.side and reads_before(w, unit)]
    first = and_(is_eligible_by_rule(unit), *[not_(is_eligible_by_rule(w)) for w in earlier])
    return ite(caster.is_boss, own, first)


# --------------------------------------------------------------------------------------
# Mutants: realistic payer-choice and step bugs
# --------------------------------------------------------------------------------------


def _column_major(board: Board, side: int) -> tuple[Unit, ...]:
    """Top to bottom down each column, then left to right (rows and columns swapped)."""
    return tuple(sorted((u for u in board.units if u.side == side), key=lambda u: (u.col, u.row)))


def _whole_board(board: Board, side: int) -> tuple[Unit, ...]:
    """Both halves in one reading order: the other half is not skipped."""
    return tuple(sorted(board.units, key=lambda u: (u.row, u.col, u.side != side)))


def _skips_tools(unit: Unit) -> Any:
    return and_(unit.alive, not_(unit.entrapped), not_(unit.is_boss), not_(unit.discards_combat))


def _keeps_bosses(unit: Unit) -> Any:
    return and_(unit.alive, not_(unit.entrapped))


def _keeps_entrapped(unit: Unit) -> Any:
    return and_(unit.alive, not_(unit.is_boss))


def _boss_like_anyone(order, caster):
    return bloodletting.compute_first_eligible_index([bloodletting.is_eligible_payer(u) for u in order])


def _last_eligible(eligible):
    index: Any = bloodletting.NO_PAYER
    for position in range(len(eligible)):
        index = ite(eligible[position], position, index)
    return index


COLUMN_MAJOR = Mutant("column_major_order", "referee.model.combat.bloodletting:compute_reading_order", _column_major,
                      "reads down each column instead of across each row")  # fmt: skip
WHOLE_BOARD = Mutant("other_half_not_skipped", "referee.model.combat.bloodletting:compute_reading_order", _whole_board,
                     "units on the other half are candidates")  # fmt: skip
SKIPS_TOOLS = Mutant("tools_skipped", "referee.model.combat.bloodletting:is_eligible_payer", _skips_tools,
                     "Tools and Hubs are skipped, making the cost free instead of failing")  # fmt: skip
KEEPS_BOSSES = Mutant("boss_not_skipped", "referee.model.combat.bloodletting:is_eligible_payer", _keeps_bosses,
                      "a boss on the caster's side may pay")  # fmt: skip
KEEPS_ENTRAPPED = Mutant("entrapped_not_skipped", "referee.model.combat.bloodletting:is_eligible_payer", _keeps_entrapped,
                         "an Entrapped unit may be chosen")  # fmt: skip
BOSS_LIKE_ANYONE = Mutant("boss_caster_uses_reading_order", "referee.model.combat.bloodletting:compute_payer_index",
                          _boss_like_anyone, "a boss caster does not pay its own cost")  # fmt: skip
LAST_ELIGIBLE = Mutant("last_eligible_pays", "referee.model.combat.bloodletting:compute_first_eligible_index", _last_eligible,
                       "the last eligible unit in reading order pays")  # fmt: skip
REDUCTION_IGNORED = Mutant("reduction_ignored", "referee.model.combat.bloodletting:compute_bloodletting_cost",
                           lambda printed, reduction: max_(printed, 0), "the reduction rune is not applied")  # fmt: skip
NO_SKIP = Mutant("zero_cost_not_skipped", "referee.model.combat.bloodletting:is_skipped", lambda cost: False,
                 "a cost of 0 still goes to the payer (and, moving nothing, fails)")  # fmt: skip
TOOL_FREE = Mutant("tool_first_pays_nothing_and_continues", "referee.model.combat.bloodletting:is_failed_payment",
                   lambda payer, attempted, paid, ruleset: False, "a payment that moves nothing does not fail")  # fmt: skip

ONLY_TOOLS_FAIL = Mutant(
    "defied_to_zero_continues", "referee.model.combat.bloodletting:is_failed_payment",
    lambda payer, attempted, paid, ruleset: and_(attempted, paid <= 0, payer.discards_combat),
    "only a Tool or Hub fails: a payment defy-death brings to 0 goes on (the other reading of INT-103)",
)  # fmt: skip


# --------------------------------------------------------------------------------------
# Theorems
# --------------------------------------------------------------------------------------


@theorem(
    "combat:800.4b", "combat:800.4c", "combat:800.4d", "combat:800.4e",
    mutants=[COLUMN_MAJOR, WHOLE_BOARD, SKIPS_TOOLS, KEEPS_BOSSES, KEEPS_ENTRAPPED, BOSS_LIKE_ANYONE, LAST_ELIGIBLE],
    bound=BOUND,
)  # fmt: skip
def bloodletting_payer_is_the_first_eligible_unit_in_reading_order(v: Vars) -> Obligation:
    """For every caster, exactly the first unit of its half in reading order that is alive, not Entrapped and not a boss pays (a boss caster pays its own), or nobody when there is none."""
    board = grid(v)
    claim = []
    for caster in board.units:
        order = bloodletting.compute_reading_order(board, caster.side)
        index = bloodletting.compute_payer_index(order, caster)
        rule = {u.uid: pays_by_rule(board, caster, u) for u in board.units}
        for unit in board.units:
            chosen = or_(False, *[index == i for i, w in enumerate(order) if w.uid == unit.uid])
            claim.append(chosen == rule[unit.uid])
        claim.append((index == bloodletting.NO_PAYER) == not_(or_(*rule.values())))
    return Obligation(assume=True, claim=and_(*claim))


def is_unchanged(before: Board, after: Board) -> Any:
    """Every number and flag of every unit is as it was."""
    return and_(*[getattr(a, f) == getattr(b, f) for a, b in zip(before.units, after.units, strict=True)
                  for f in UNIT_FIELDS if f not in ("uid", "side", "row", "col", "redirect_to", "intercept_by")])  # fmt: skip


def _step_board(v: Vars) -> Board:
    """Caster ``c`` behind an eligible ``p`` (so ``p`` is chosen), and an enemy ``q``; numbers are variables."""
    free = dict(alive=True, entrapped=False, is_boss=False)
    return Board((symbolic_unit(v, "p", side=0, row=0, col=0, **free), symbolic_unit(v, "c", side=0, row=1, col=0, **free),
                  symbolic_unit(v, "q", side=1, **free)))  # fmt: skip


@theorem("combat:800.4m", "combat:800.4l", mutants=[REDUCTION_IGNORED, NO_SKIP])
def reduced_to_zero_bloodletting_moves_nothing_and_emits_nothing(v: Vars) -> Obligation:
    """A Bloodletting cost its reduction rune takes to 0 changes no unit, emits no event, and lets the activation go on."""
    before = _step_board(v)
    printed, reduction = v.int("printed_cost"), before.unit("c").bloodletting_reduction
    log = EventLog()
    after, outcome = bloodletting.process_bloodletting(before, "c", printed, log)
    unchanged = is_unchanged(before, after)
    silent = [not_(g.when) for g in log.entries]
    assume = all_of(*[is_well_formed(u) for u in before.units], reduction >= 0, printed <= reduction)
    return Obligation(assume=assume, claim=and_(unchanged, *silent, outcome.skipped, outcome.continues))


@theorem("combat:800.4d", "combat:800.4i", mutants=[TOOL_FREE, ONLY_TOOLS_FAIL], unless=["bloodletting_defied_to_zero=continues"])
def bloodletting_fails_exactly_when_a_due_payment_moves_nothing(v: Vars) -> Obligation:
    """A due Bloodletting payment fails the ability exactly when it moves no Vitality, which a Tool or Hub payer always does, and the Bloodletting-paid channel fires exactly when Vitality moved."""
    before = _step_board(v)
    log = EventLog()
    _, outcome = bloodletting.process_bloodletting(before, "c", v.int("printed_cost"), log)
    p = before.unit("p")
    due = not_(outcome.skipped)
    moved = outcome.paid > 0
    paid_channel = or_(False, *[g.when for g in log.entries if g.event.name == "bloodletting_paid"])
    claim = and_(
        outcome.failed == and_(due, not_(moved)),
        or_(not_(and_(due, p.discards_combat)), outcome.failed),
        paid_channel == moved,
        outcome.continues == not_(outcome.failed),
    )
    return Obligation(assume=all_of(*[is_well_formed(u) for u in before.units]), claim=claim)


def _death_fails_the_ability(payer, attempted, paid, ruleset):
    """A payment that kills its payer fails the ability (the activation stops with its payer)."""
    return and_(attempted, or_(paid <= 0, paid >= payer.vitality))


def _abort_even_when_skipped(cost):
    return False


DEATH_FAILS = Mutant("lethal_payment_stops_the_activation", "referee.model.combat.bloodletting:is_failed_payment",
                     _death_fails_the_ability, "a payment that kills its payer stops the activation")  # fmt: skip
ABORT_AT_ZERO = Mutant("abort_before_skip", "referee.model.combat.bloodletting:is_skipped", _abort_even_when_skipped,
                       "a cost reduced to 0 still looks for a payer, and aborts without one")  # fmt: skip


@theorem("combat:800.4j", "combat:500.8j", mutants=[DEATH_FAILS])
def lethal_bloodletting_payment_lets_the_activation_continue(v: Vars) -> Obligation:
    """A Bloodletting payment that kills its payer resolves the death and the activation goes on."""
    before = _step_board(v)
    log = EventLog()
    after, outcome = bloodletting.process_bloodletting(before, "c", v.int("printed_cost"), log)
    died = or_(False, *[g.when for g in log.entries if g.event.name == "death" and g.event.unit == "p"])
    return Obligation(assume=all_of(*[is_well_formed(u) for u in before.units]),
                      claim=or_(not_(died), and_(outcome.continues, not_(outcome.failed))))  # fmt: skip


@theorem("combat:800.4k", "combat:800.4m", mutants=[ABORT_AT_ZERO])
def no_eligible_payer_aborts_exactly_when_a_cost_is_due(v: Vars) -> Obligation:
    """With no eligible unit on the caster's half, a due cost aborts the activation and changes nothing; a cost reduced to 0 is skipped instead."""
    blocked = [
        symbolic_unit(v, "dead", side=0, row=0, col=0, alive=False, entrapped=False, is_boss=False),
        symbolic_unit(v, "boss", side=0, row=0, col=1, alive=True, entrapped=False, is_boss=True),
        symbolic_unit(v, "c", side=0, row=1, col=0, alive=True, entrapped=True, is_boss=False),
        symbolic_unit(v, "q", side=1, row=0, col=0, alive=True, entrapped=False, is_boss=False),
    ]
    before = Board(tuple(blocked))
    log = EventLog()
    after, outcome = bloodletting.process_bloodletting(before, "c", v.int("printed_cost"), log)
    reduction = bloodletting.compute_reduction(before, before.unit("c"))  # INT-122: the runes the reading counts
    due = bloodletting.compute_bloodletting_cost(v.int("printed_cost"), reduction) > 0
    aborted_event = or_(False, *[g.when for g in log.entries if g.event.name == "activation_aborted"])
    claim = and_(outcome.aborted == due, aborted_event == due, outcome.skipped == not_(due), is_unchanged(before, after),
                 *[not_(g.when) for g in log.entries if g.event.name != "activation_aborted"])  # fmt: skip
    return Obligation(assume=all_of(*[is_well_formed(u) for u in before.units]), claim=claim)
