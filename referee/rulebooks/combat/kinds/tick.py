"""The ``tick`` action (500.5b, 500.5c, 500.7e): one Burn or Venom tick several units applied.

Its JSON form::

    {"kind": "tick", "target": "t", "amount": 10, "damage_kind": "burn",
     "appliers": [{"unit": "a", "applied": 2}, {"unit": "b", "applied": 1}], "riposte_rolls": [true, false]}

The tick goes through 500.1 as one instance whose source is the first applier (its killer,
its Shield multiplier), and is answered as a hit (500.6, 500.7). What it deals is credited
to the appliers in proportion to what each applied, exactly and without losing or making a
point (largest remainder, ties to the earlier applier: INT-351, option
``tick_share_rounding``); Feast is divided from the Vitality portion alone, by the same
shares (500.5c, INT-352, option ``tick_feast_shares``); each enemy applier is answered once
(500.7e). An applier named twice adds up, in the order of its first mention. The model
entry is :func:`~referee.model.combat.retaliation.resolve_hit` with ``appliers``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat import retaliation
from referee.model.combat.damage import DamageInstance
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog
from referee.proofs.combat.symbolic import symbolic_unit
from referee.proofs.core import Vars

from ....rulebook import ActionKind, Field, check_field_range, decode_plain_fields
from ....wire import ProtocolError
from ..strategies import pick
from ..templates import Template

LANES = ("burn", "venom")

APPLIER_FIELDS = (
    Field("unit", "unit", "uid of a unit that applied this Burn or Venom"),
    Field("applied", "integer", "how much of it that unit applied (> 0): its weight in the split", minimum=1),
)
FIELDS = (
    Field("target", "unit", "uid of the unit the tick lands on"),
    Field("amount", "integer", "the tick, before Prismbreak and the tick reductions (500.1h)"),
    Field("damage_kind", LANES, "burn or venom", "burn"),
    Field("appliers", "objects", "who applied it and how much, in order (at least one; the first is the "
          "instance's source)", (), items=APPLIER_FIELDS),
    Field("riposte_rolls", "booleans", "Riposte's 50% rolls, consumed in order, one per answering attacker (500.7b)", ()),
)


def decode(path: str, data: Any, board: Any) -> dict[str, Any]:
    """The generic field check, then: at least one applier, each having applied a positive amount."""
    action = decode_plain_fields(path, KINDS[0], data, board)
    if not action["appliers"]:
        raise ProtocolError(f"{path}.appliers", "expected at least one applier")
    for i, applier in enumerate(action["appliers"]):
        check_field_range(f"{path}.appliers[{i}].applied", APPLIER_FIELDS[1], applier["applied"])
    return action


def instance_of(action: dict[str, Any]) -> DamageInstance:
    """The model's damage instance: the first applier its source, every applier with its weight."""
    appliers = tuple((a["unit"], a["applied"]) for a in action["appliers"])
    return DamageInstance(target=action["target"], amount=action["amount"], source=appliers[0][0],
                          kind=action["damage_kind"], riposte_rolls=tuple(action["riposte_rolls"]), appliers=appliers)


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: one shared tick through 500.1, credited by shares (500.5b, 500.5c), then answered (500.7e)."""
    return retaliation.resolve_hit(board, instance_of(action), ruleset)


_COUNT = st.sampled_from((1, 2, 2, 3))
_APPLIED = st.sampled_from((1, 1, 1, 2, 3, 5, 7))
_START = st.integers(0, 2)
_TICK = st.one_of(st.integers(1, 40), st.sampled_from((1, 2, 3, 7, 10, 11)), st.integers(-2, 0))
_LANE = st.sampled_from(LANES)
#: Riposte's rolls: one per damage event and attacker, and a tick may land on a redirect receiver too.
_ROLLS = {n: st.lists(st.booleans(), min_size=3 * n, max_size=3 * n) for n in (1, 2, 3)}
_ARMED = st.booleans()
_ENEMY = st.booleans()
_SHIELDED = st.booleans()  # (built once: st.booleans() at each draw cost more than the draw)
_PRISM = st.sampled_from((False, False, False, True))
_REDUCTION = st.sampled_from((None, None, "rune_tick_reduction", "forge_tick_reduction"))
_NEAR = st.sampled_from((0, 0, -1, 1))


def draw(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A tick whose shares do not divide (1, 1, 1 of 10; 2 and 1 of 7), sometimes an applier named twice."""
    target = pick(draw, units)
    others = [u["uid"] for u in units if u["uid"] != target["uid"]] or [target["uid"]]
    enemies = [u["uid"] for u in units if u["side"] != target["side"]] or others
    pool = enemies if draw(_ENEMY) else others
    start = draw(_START)
    # distinct appliers while the pool lasts, then the first again (an applier named twice adds up)
    appliers = [{"unit": pool[(start + i) % len(pool)], "applied": draw(_APPLIED)} for i in range(draw(_COUNT))]
    align: dict[str, Any] = {"armor": 0, "has_cap": False, "insurance": 0, "subrogated": 0}
    if draw(_ARMED):
        align.update(thorns=3, riposte=2, retort=1)
    if draw(_PRISM):
        align["prismbroken"] = True
    if draw(_SHIELDED):
        align["shield"] = min(max(target["shield"], 0), 20)
    amount, lane = draw(_TICK), draw(_LANE)
    reduction = draw(_REDUCTION)
    if reduction is not None and lane in ("burn", "venom"):
        # a tick reduction that meets the tick: exactly prevented, or one short (500.1h; tick_prevented was 0.5%)
        align[reduction] = max(amount + draw(_NEAR), 1)
    return {"kind": "tick", "target": target["uid"], "amount": amount, "damage_kind": lane,
            "appliers": appliers, "riposte_rolls": draw(_ROLLS[len(appliers)]), "_align": {target["uid"]: align}}


def templates() -> list[Template]:
    """Two and three appliers (enemies and an ally) with their weights and the tick left to Z3."""
    out = []
    for shape in ("two_enemies", "enemy_and_ally"):

        def build(v: Vars, shape: str = shape) -> tuple[Board, dict[str, Any]]:
            a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
            b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
            c = symbolic_unit(v, "c", side=1 if shape == "two_enemies" else 0, row=0, col=2, redirect_to=None,
                              intercept_by=None)
            appliers = [{"unit": "b", "applied": v.int("action.b.applied")},
                        {"unit": "c", "applied": v.int("action.c.applied")}]
            action = {"kind": "tick", "target": "a", "amount": v.int("action.amount"), "damage_kind": "burn",
                      "appliers": appliers, "riposte_rolls": [v.bool("action.roll0"), v.bool("action.roll1")]}
            return Board((a, b, c)), action

        out.append(Template(f"tick/{shape}", build))
    return out


_ENEMIES = [{"uid": "a", "vitality": 100}, {"uid": "b", "side": 1, "col": 1}, {"uid": "c", "side": 1, "col": 2}]

BOUNDARY_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("tick-shares-1-1-1-of-10", [*_ENEMIES, {"uid": "d", "side": 1, "col": 3}],
     [{"kind": "tick", "target": "a", "amount": 10, "damage_kind": "burn", "riposte_rolls": [True],
       "appliers": [{"unit": "b", "applied": 1}, {"unit": "c", "applied": 1}, {"unit": "d", "applied": 1}]}]),
    ("tick-shares-2-1-of-7-feast-from-vitality-only", [{**_ENEMIES[0], "shield": 3}, *_ENEMIES[1:]],
     [{"kind": "tick", "target": "a", "amount": 7, "damage_kind": "venom", "riposte_rolls": [True],
       "appliers": [{"unit": "b", "applied": 2}, {"unit": "c", "applied": 1}]}]),
    ("tick-thorns-answer-each-applier", [{**_ENEMIES[0], "thorns": 4}, *_ENEMIES[1:]],
     [{"kind": "tick", "target": "a", "amount": 5, "damage_kind": "burn", "riposte_rolls": [True],
       "appliers": [{"unit": "b", "applied": 1}, {"unit": "c", "applied": 3}]}]),
]


KINDS = (
    ActionKind(
        name="tick",
        summary="One Burn or Venom tick several units applied (500.5b, 500.5c, 500.7e): through 500.1 with the first "
        "applier as its source, credit and Feast split in proportion to what each applied, each enemy applier "
        "answered once.",
        chapters=("combat:500.5", "combat:500.1", "combat:500.7"),
        fields=FIELDS,
        run=run,
        draw=draw,
        unit_fields=("alive", "vitality", "max_vitality", "shield", "armor", "insurance", "subrogated", "dormant",
                     "prismbroken", "rune_tick_reduction", "forge_tick_reduction", "thorns", "riposte", "retort",
                     "defy_death", "everlasting", "vessels", "is_tool", "is_hub", "is_boss", "reflect"),
        rulebook="combat",
        extra={"decode": decode, "templates": templates, "boundary_cases": BOUNDARY_CASES},
    ),
)
