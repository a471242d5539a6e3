"""Vector templates: the structure of a combat scenario, with its numbers left to Z3.

An action kind that wants solver-found conformance vectors lists its templates in its
``ActionKind.extra["templates"]``; :mod:`.vectors` asks Z3 for values that take each
branch of the model the template reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.model.combat.ruleset import DEFAULT
from referee.model.combat.state import Board
from referee.model.events import EventLog
from referee.proofs.combat.symbolic import symbolic_unit
from referee.proofs.core import Vars


@dataclass(frozen=True)
class Template:
    """A board shape and an action, built from variables (symbolic or concrete)."""

    name: str
    build: Callable[[Vars], tuple[Board, dict[str, Any]]]
    #: What runs on Z3 terms, when the action's own model function branches on structure
    #: in Python (a Bloodletting activation stops or goes on): ``run(board, action)``.
    symbolic_run: Callable[[Board, dict[str, Any]], Any] | None = None


def damage_templates() -> list[Template]:
    from referee.model.combat.damage import DAMAGE_KINDS

    out = []
    for action_kind in ("damage", "hit"):
        for lane in DAMAGE_KINDS:
            for shape in ("plain", "intercept", "redirect", "ally_source"):
                if action_kind == "hit" and lane not in ("hit", "burn", "reflect", "overtime") and shape != "plain":
                    continue

                def build(v: Vars, lane=lane, shape=shape, action_kind=action_kind) -> tuple[Board, dict[str, Any]]:
                    refs: dict[str, Any] = {"redirect_to": None, "intercept_by": None}
                    if shape == "intercept":
                        refs["intercept_by"] = "c"
                    if shape == "redirect":
                        refs["redirect_to"] = "c"
                    a = symbolic_unit(v, "a", side=0, row=0, col=0, **refs)
                    b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
                    c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None)
                    source = None if lane == "overtime" else ("c" if shape == "ally_source" else "b")
                    action = {
                        "kind": action_kind,
                        "target": "a",
                        "amount": v.int("action.amount"),
                        "source": source,
                        "damage_kind": lane,
                        "allows_dormant": v.bool("action.allows_dormant"),
                        "riposte_rolls": [v.bool("action.roll0"), v.bool("action.roll1"), v.bool("action.roll2")],
                    }
                    return Board((a, b, c)), action

                out.append(Template(f"{action_kind}/{lane}/{shape}", build))
    return out


def cost_templates() -> list[Template]:
    from referee.model.combat.costs import COST_KINDS

    out = []
    for kind in COST_KINDS:
        for who in ("none", "enemy", "ally", "self"):

            def build(v: Vars, kind=kind, who=who) -> tuple[Board, dict[str, Any]]:
                a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
                b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
                c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None)
                beneficiary = {"none": None, "enemy": "b", "ally": "c", "self": "a"}[who]
                action = {"kind": "cost", "payer": "a", "amount": v.int("action.amount"), "cost_kind": kind,
                          "beneficiary": beneficiary}
                return Board((a, b, c)), action

            out.append(Template(f"cost/{kind}/{who}", build))
    return out


#: Bloodletting's payer is structure (reading order over concrete flags): one template per situation.
BLOODLETTING_SHAPES = {
    "ally_pays": ({}, {}),
    "caster_pays": ({}, {"alive": False, "vitality": 0}),
    "boss_caster": ({"is_boss": True}, {}),
    "nobody_eligible": ({"entrapped": True}, {"alive": False, "vitality": 0}),
    "tool_pays": ({}, {"is_tool": True}),
}


def _bloodletting_step(board: Board, action: dict[str, Any]) -> Any:
    """The Bloodletting step alone (800.4): the cost, the payer, the outcome; the hits are the hit templates'."""
    from referee.model.combat.bloodletting import process_bloodletting

    return process_bloodletting(board, action["caster"], action["cost"], EventLog(), DEFAULT)


def bloodletting_templates() -> list[Template]:
    out = []
    for shape, (caster_fixed, ally_fixed) in BLOODLETTING_SHAPES.items():

        def build(v: Vars, caster_fixed=caster_fixed, ally_fixed=ally_fixed) -> tuple[Board, dict[str, Any]]:
            plain = {"alive": True, "entrapped": False, "is_boss": False, "is_tool": False, "is_hub": False}
            a = symbolic_unit(v, "a", side=0, row=1, col=0, redirect_to=None, intercept_by=None, **{**plain, **caster_fixed})
            c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None, **{**plain, **ally_fixed})
            b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
            hit = {"target": "b", "amount": v.int("action.amount"), "damage_kind": "hit",
                   "allows_dormant": False, "riposte_rolls": [v.bool("action.roll0")]}
            action = {"kind": "bloodletting", "caster": "a", "cost": v.int("action.cost"), "hits": [hit]}
            return Board((a, b, c)), action

        out.append(Template(f"bloodletting/{shape}", build, _bloodletting_step))
    return out
