"""The explanation's unit: one :class:`Step`, one applied clause with its numbers.

A step is data first (``step``, ``clause``, ``quantities``) and text second, so the text a
person reads and the JSON another tool renders are the same steps. ``events`` names the
model events the step accounts for, so a report can find the step behind an event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


#: What follows a Vitality loss, whatever caused it: the listeners and a death (500.6c, 500.8d, 500.4).
LOSS_TAIL = ("vitality_lost", "rune_reset", "threshold_reevaluated", "death", "macabre", "deathrattle",
             "vessel_revival", "everlasting_scheduled")


@dataclass(frozen=True)
class Step:
    """One applied clause: what it did, its numbers before and after, and how deep in moved damage."""

    step: str
    clause: str
    text: str
    quantities: dict[str, Any] = field(default_factory=dict)
    depth: int = 0
    events: tuple[str, ...] = ()
    #: For a failure report (``referee.check.grouping.attribution``), not part of the JSON: the fields this step sets (``uid.field``),
    #: the events whose absence it explains (a layer not reached, a payer not refused), the events whose unit it
    #: chose (a payer search), and whether it decided the action's outcome (a cost step that moved the total).
    touches: tuple[str, ...] = field(default=(), compare=False)
    absent: tuple[str, ...] = field(default=(), compare=False)
    chooses: tuple[str, ...] = field(default=(), compare=False)
    decides: bool = field(default=False, compare=False)
    #: For the fault key (``referee.check.grouping.keys``): the one decision this step takes, as ``step[clause]``,
    #: where the rules say that decision under several names or clauses (a death on any road is the ordinary
    #: death of 500.4a: 500.6d, 500.8j and 800.4j say so); empty: the step's own name and clause.
    decision: str = field(default="", compare=False)
    #: The steps after this one at its depth run because it chose to run them (a tick's later applier answered,
    #: 500.7e): a model event opening them that the engine left out is this step's (``at_fault.skipped_block``).
    opens: bool = field(default=False, compare=False)
    #: For the fault key's drift guard (``referee.check.grouping.keys.decisions_exercised``): the decisions this step
    #: takes besides :meth:`taken`: those inside a test it runs (the lethal test's steps 4-13, 500.1f), or its own
    #: step's where another rule names it (a count the legal-units rule names, 400.8b, still sampled the count).
    also_takes: tuple[str, ...] = field(default=(), compare=False)
    #: For the fault key: the payer's layers this Vitality cost never meets (``uid.field``, 500.8a). An engine that
    #: changed one took :data:`SKIPS_PIPELINE` differently, whichever road paid the cost (``grouping.keys``).
    keeps_layers: tuple[str, ...] = field(default=(), compare=False)
    #: For the fault key: the decision an engine that took this step in another order took differently, where the
    #: rules place the step apart from what it decides (a Subrogated payback, paid or refused, resolves at 500.1-8);
    #: empty: :meth:`taken`.
    placed: str = field(default="", compare=False)

    def taken(self) -> str:
        """The decision this step takes, as a fault key names it: its ``decision``, else ``step[clause]``."""
        return self.decision or f"{self.step}[{self.clause}]"

    def decisions(self) -> tuple[str, ...]:
        """Every decision this step takes: :meth:`taken`, then :attr:`also_takes`, then where it is :attr:`placed`."""
        return (self.taken(), *self.also_takes, *((self.placed,) if self.placed else ()))

    def line(self) -> str:
        return f"{'    ' * self.depth}[{self.clause}] {self.text}"

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "clause": self.clause, "text": self.text,
                "quantities": {k: jsonable(v) for k, v in self.quantities.items()}, "depth": self.depth,
                "events": list(self.events)}


def jsonable(value: Any) -> Any:
    """A quantity as JSON: a Fraction as its exact ``"p/q"`` text, containers element-wise."""
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else value.numerator
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


class Steps:
    """A list of steps being written at one depth (``say`` adds one; ``nested`` goes one deeper)."""

    def __init__(self, depth: int = 0, rulebook: str = "combat") -> None:
        self.items: list[Step] = []
        self.depth = depth
        self.rulebook = rulebook

    def say(self, step: str, clause: str, text: str, events: tuple[str, ...] = (), *, touches: tuple[str, ...] = (),
            absent: tuple[str, ...] = (), chooses: tuple[str, ...] = (), decides: bool = False, decision: str = "",
            opens: bool = False, also_takes: tuple[str, ...] = (), keeps_layers: tuple[str, ...] = (),
            placed: str = "", **quantities: Any) -> None:
        cid = clause if ":" in clause else f"{self.rulebook}:{clause}"
        self.items.append(Step(step, cid, text, quantities, self.depth, events, touches, absent, chooses, decides,
                               decision, opens, also_takes, keeps_layers, placed))

    def extend(self, steps: list[Step]) -> None:
        self.items.extend(steps)


#: The side rule, one decision on every road that checks it (500.6h): a retaliation, a Subrogated payback, a
#: retaliation-kind cost with a beneficiary are refused against the retaliator itself or an ally.
SIDE_RULE = "hostile[combat:500.6h]"

#: A dead or Entrapped payer refused, one decision on every road (500.8e: "Dead and Entrapped units are refused as
#: payers outright"; 500.6e says it again for retaliation, and adds the Dormant, which stays 500.6e's own).
LEGAL_PAYER = "legal_payer[combat:500.8e]"


#: Where a Subrogated payback resolves, paid or refused (500.1-8, INT-018): the decision an engine that resolved it
#: elsewhere in the hit took differently.
PAYBACK_PLACED = "payback[combat:500.1-8]"

#: A defy-death rune answering (500.1-12): it prevents what would be lethal and its once-per-life charge is spent.
#: One decision whatever it answers: a hit, a Vitality cost that opts in (500.8f, 800.4h), a retaliation (500.6d).
DEFY_SPENT = "defy_death[combat:500.1-12]"


def defy_fields(uid: str) -> tuple[str, ...]:
    """The fields a defy-death rune that answers writes (``Step.touches``): the rune gone, its charge spent."""
    return f"{uid}.defy_death", f"{uid}.defy_death_spent"


def refusal_decision(reason: str | None) -> str:
    """The decision a refused payer or retaliation takes, by its reason: the side rule for ``self`` and ``ally``, the
    legal-payer rule for the dead and Entrapped; '' (the step's own clause) for a Dormant refusal (500.6e)."""
    if reason in ("self", "ally"):
        return SIDE_RULE
    return LEGAL_PAYER if reason in ("dead", "entrapped") else ""


def cost_rule(step: str, clause: str, bloodletting: str, bl: bool) -> tuple[str, str]:
    """A step every Vitality cost shares: ``(clause shown, decision)``. A Bloodletting payment cites its own clause
    (800.4f-j) but takes the cost's decision (800.4f: "See 500.8"), so one wrong cost routine is one group whichever
    road paid it."""
    return (bloodletting, f"{step}[combat:{clause}]") if bl else (clause, "")


#: The decision a Vitality cost takes where it meets a layer it never spends (500.8a), under either rule that says it:
#: a Bloodletting payment is a Vitality cost (800.4f, "See 500.8"), and so is a Subrogated payback (500.1j, 500.7g).
SKIPS_PIPELINE = "skips_pipeline[combat:500.8a]"


#: A unit's layers a Vitality cost never meets or spends (500.8a), as (name, field).
COST_SKIPPED_LAYERS = (("Shield", "shield"), ("Insurance", "insurance"), ("Subrogated", "subrogated"),
                       ("ignore charges", "ignore_charges"), ("Armor", "armor"))


def layer_fields(unit: Any) -> tuple[str, ...]:
    """The fields (``uid.field``) of the layers a Vitality cost ``unit`` pays never meets (500.8a): those it has."""
    return tuple(f"{unit.uid}.{name}" for _, name in COST_SKIPPED_LAYERS if getattr(unit, name))


def skipped_layers(unit: Any) -> list[str]:
    """The layers a Vitality cost the unit pays never meets or spends (500.8a): ``["Shield 312", "Armor 4"]``."""
    return [f"{name} {getattr(unit, field)}" for name, field in COST_SKIPPED_LAYERS if getattr(unit, field)]


def mixed(value: Fraction) -> str:
    """A Fraction as a person writes it: ``20 2/3``, ``-1 1/4``, ``7``."""
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(abs(value.numerator), value.denominator)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole} {rest}/{value.denominator}" if whole else f"{sign}{rest}/{value.denominator}"
