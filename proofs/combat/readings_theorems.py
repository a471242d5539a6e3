"""Theorems of the readings re-checked against the seeds: INT-008 (500.7d), INT-114 (500.1c, 500.7k), INT-112 (500.7h, 500.7k).

Each states the default reading on the model's own pipeline (every number and flag a variable), and its
mutant is the other reading's rule put in the default's place.
"""

from __future__ import annotations

from typing import Any

from referee.model.arith import and_, not_, or_
from referee.model.combat import damage, retaliation
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import DEFAULT, Ruleset
from referee.model.combat.state import Board

from ..core import Mutant, Obligation, Vars, theorem
from .costs_theorems import emitted
from .retaliation_theorems import NO_ARMOR, UNREAD, hit, hit_board, well_formed
from .symbolic import symbolic_unit

D = "referee.model.combat.damage"
R = "referee.model.combat.retaliation"
#: A boss with the Reflect rune and an attacker, neither with Armor (the claims read no amount Armor removes).
PLAIN = {**UNREAD, "armor": 0, "shield_multiplier": 1}


def _event_after_shield(m: Any, lost: Any = 0, ruleset: Ruleset = DEFAULT) -> Any:
    """INT-008's other reading as the default: any damage left after Shield is a damage event."""
    return and_(m.entered, or_(m.subrogated_spent + m.insurance_spent > 0, m.after_shield > 0))


def _payback_on_reflect(kind: str, ruleset: Ruleset) -> bool:
    """INT-114's other reading as the default: a Reflect's Subrogated points make the boss pay."""
    return False


def _ticks_always_reflected(kind: str, ruleset: Ruleset) -> bool:
    """INT-112's lanes ignored: every lane is reflected, whatever the ruleset reads."""
    return True


EVENT_AFTER_SHIELD = Mutant("damage_event_after_shield", f"{D}:is_damage_event", _event_after_shield)
PAYBACK_ON_REFLECT = Mutant("reflect_subrogation_payback", f"{D}:is_reflect_payback_refused", _payback_on_reflect)
TICKS_ALWAYS_REFLECTED = Mutant("reflect_lanes_ignored", f"{R}:is_reflected_lane", _ticks_always_reflected)


def boss_board(v: Vars) -> Board:
    """A boss ``b`` with the Reflect rune and an attacker ``a`` on the other half."""
    boss = symbolic_unit(v, "b", side=1, row=0, col=0, is_boss=True, reflect=True, **PLAIN)
    return Board((boss, symbolic_unit(v, "a", side=0, row=0, col=1, **PLAIN)))


@theorem("combat:500.7c", "combat:500.7d", "combat:500.1-12", mutants=[EVENT_AFTER_SHIELD], bound=NO_ARMOR, unless=["damage_event_test=after_shield"])
def a_damage_event_spent_insurance_or_reached_vitality(v: Vars) -> Obligation:
    """By default a hit is a damage event exactly when it entered and spent an Insurance point or took Vitality, so a hit a defy-death rune kept off Vitality is silent."""
    board = hit_board(v, armor=False)
    _, _, out = damage.resolve_damage(board, hit(v))
    spent = out.subrogated_spent + out.insurance_spent > 0
    claim = out.damage_event == and_(out.entered, or_(spent, out.vitality_lost > 0))
    return Obligation(assume=and_(well_formed(board), v.int("amount") >= 0), claim=claim)


@theorem("combat:500.1c", "combat:500.7k", "combat:500.7i", mutants=[PAYBACK_ON_REFLECT], bound=NO_ARMOR, unless=["reflect_subrogation=payback"])
def a_reflect_met_by_subrogated_insurance_costs_the_boss_nothing(v: Vars) -> Obligation:
    """By default a boss Reflect the attacker's Subrogated Insurance absorbs takes no Vitality from the boss and pays no payback."""
    board = boss_board(v)
    back = DamageInstance(target="a", amount=v.int("amount"), source="b", kind="reflect")
    after, log, _ = damage.resolve_damage(board, back)
    claim = and_(after.unit("b").vitality == board.unit("b").vitality, not_(emitted(log, "subrogation")))
    return Obligation(assume=and_(well_formed(board), v.int("amount") >= 0), claim=claim)


@theorem("combat:500.7h", "combat:500.7k", mutants=[TICKS_ALWAYS_REFLECTED], bound=NO_ARMOR)
def a_tick_is_never_reflected_when_the_reading_is_hits_only(v: Vars) -> Obligation:
    """Under reflect_lanes = hits_only a Burn or Venom tick on a Reflect boss is never reflected."""
    board = boss_board(v)
    claims = []
    for kind in ("burn", "venom"):
        tick = DamageInstance(target="b", amount=v.int("amount"), source="a", kind=kind)
        _, log = retaliation.resolve_hit(board, tick, v.ruleset(reflect_lanes="hits_only"))
        claims.append(not_(emitted(log, "reflect")))
    return Obligation(assume=and_(well_formed(board), v.int("amount") >= 0), claim=and_(*claims))
