"""Every play action keeps a legal play state legal (``referee.model.play.legal``).

One theorem per action kind of the play rulebook: ``play_card`` (350-359) under each payment
plan of :data:`.scenario.PLANS`, and ``activate`` (399, 403.1.a) for each ability of the
linked-effect theorem. Played or cancelled, the state after is legal: no pool part below 0
(357.1, 358.5 undoes a play that could not pay), every object in a zone that exists, and a unit
that entered the board at one of its locations (355.2, 359.2.c).
"""

from __future__ import annotations

from referee.model.arith import and_
from referee.model.play.legal import is_legal_play_state
from referee.proofs.core import Mutant, Obligation, Vars, theorem

from .process_theorems import activations, any_location_is_valid, play_under_every_plan
from .scenario import symbolic_state


def can_pay_ignoring_energy(pool, cost):
    """Bug: the Energy of a cost is not compared with the pool's before it is paid."""
    spare = sum((have - need for have, need in zip(pool.power, cost.power)), 0)
    return and_(*(need <= have for have, need in zip(pool.power, cost.power)), cost.any_power <= spare)



ANY_LOCATION = Mutant("any_location_is_valid", "referee.model.play.process:is_valid_location", any_location_is_valid)
ENERGY_UNCHECKED = Mutant("energy_not_checked", "referee.model.play.payment:can_pay_resources", can_pay_ignoring_energy)

#: What the play theorem ranges over, printed in the report.
PLAY_BOUND = ("the cast of proofs/play/scenario.py (seven objects, three locations) under each payment plan of "
              "PLANS; any pool, printed, additional and increased cost, discount and chosen location")
#: What the activation theorem ranges over.
ACTIVATE_BOUND = ("the cast of proofs/play/scenario.py, each of the four abilities of the linked-effect theorem "
                  "(a Basic Rune's two, Vi's recycle, a paid buff); any pool, zones and readiness")


@theorem("play:357.1", "play:358.5", "play:355.2", "play:359.2.c", "play:354", mutants=[ANY_LOCATION, ENERGY_UNCHECKED],
         bound=PLAY_BOUND)
def play_card_keeps_the_state_legal(v: Vars) -> Obligation:
    """Playing a card from a legal state, played or cancelled, under any payment plan, leaves a legal state."""
    assume, results = play_under_every_plan(v)
    return Obligation(assume=assume, claim=and_(*(is_legal_play_state(r.state) for _, r, _ in results)))


@theorem("play:399", "play:403.1.a", "play:357.1", "play:358.5", "play:164.2.a", "play:164.2.b",
         mutants=[ENERGY_UNCHECKED], bound=ACTIVATE_BOUND)
def activate_keeps_the_state_legal(v: Vars) -> Obligation:
    """Activating an ability from a legal state, activated or undone, leaves a legal state."""
    state = symbolic_state(v)
    after = [r.state for r, *_ in activations(v, state)]
    return Obligation(assume=is_legal_play_state(state), claim=and_(*(is_legal_play_state(s) for s in after)))
