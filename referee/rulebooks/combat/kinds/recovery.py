"""The ``recover`` action (500.3): one recovery on one target, in a lane, through the one ledger.

Its JSON form: ``{"kind": "recover", "target": "t", "amount": 9, "lane": "heal"}``, with
``lane`` one of ``heal`` (restore Vitality), ``shield`` (gain Shield) and ``repair`` (a
Tool's own recovery, which bypasses the gate). The ledger, in order: the gate (500.3g),
the Forge Core bonus (500.3b), the cap of what the target can receive (500.3c), Exalt on a
Shield gain (500.3f), Maim last (500.3d, 500.3e). The model entry is
:func:`~referee.model.combat.recovery.resolve_recovery`; the draw aims at odd prevented
amounts for Maim, full Vitality, a Forge Core bonus that crosses the cap, and the gate.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat import recovery
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog
from referee.proofs.combat.symbolic import symbolic_unit
from referee.proofs.core import Vars

from ....rulebook import ActionKind, Field
from ..strategies import pick
from ..templates import Template

LANES = recovery.RECOVERY_LANES


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: the ledger on the target (500.3a-g)."""
    return recovery.resolve_recovery(board, action["target"], action["amount"], lane=action["lane"], ruleset=ruleset)


_LANE = st.sampled_from(("heal", "heal", "shield", "shield", "repair"))  # shield_gained was 0.7% of the default mix
_ROOM = st.sampled_from(("full", "full-1", "half", "plain", "dead_room"))
#: (An odd and a plain amount twice: they outgrow Maim, so something is gained; shield_gained was 0.7%.)
_AMOUNT_SHAPE = st.sampled_from(("room", "room+1", "room-1", "maim", "maim", "odd", "odd", "zero", "negative", "plain",
                                 "plain"))
_NEIGHBOUR = st.sampled_from((0, -1, 1))
_COIN = st.booleans()
_EXALT_MEETS_MAIM = st.sampled_from((False, True, False))
_EXALT = st.integers(1, 7)
_SMALL = st.integers(0, 12)
_PLAIN = st.integers(1, 80)
_MAIM = st.sampled_from((0, 0, 1, 2, 3, 5))
_BONUS = st.sampled_from((0, 0, 0, 1, 3, 7))
#: The gate refuses one request in four (it refused over a third: healed and shield_gained stayed near 1%).
_GATE = st.sampled_from((None,) * 15 + ("entrapped", "dormant", "is_tool", "is_hub", "dead"))

_REPAIR_TOOL = st.booleans()  # (built once: st.booleans() at each draw cost more than the draw)


def draw(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A recovery aimed at the ledger's boundaries: full Vitality, the cap met exactly, odd amounts into Maim."""
    target = pick(draw, units)
    maximum = target["max_vitality"]
    room_shape = draw(_ROOM)
    vitality = {"full": maximum, "full-1": max(maximum - 1, 1), "half": max(maximum // 2, 1)}.get(
        room_shape, target["vitality"])
    align: dict[str, Any] = {"maim": draw(_MAIM), "forge_core_recovery": draw(_BONUS), "exalt": draw(_BONUS)}
    gate = draw(_GATE)
    # the gate is the draw's to choose: the flags the units were drawn with would refuse most requests
    align.update(entrapped=False, dormant=False, is_tool=False, is_hub=False)
    if gate == "dead":
        align.update(alive=False, vitality=0, shield=0, adrenaline=0, momentum=0, bolster=0)
    else:
        if gate is not None:
            align[gate] = True
            if gate in ("is_tool", "is_hub"):
                align["is_boss"] = False
        if target["alive"]:
            align["vitality"] = vitality
    shape = draw(_AMOUNT_SHAPE)
    lane = draw(_LANE)
    if lane == "shield" and draw(_EXALT_MEETS_MAIM):
        # Exalt against Maim: a Shield gain whose Exalt decides how much Maim prevents (500.3f)
        shape, align["exalt"] = "maim", draw(_EXALT)
    if shape == "maim" and target["alive"] and align.get("alive", True):
        # what Maim meets lands on Maim's capacity (2 a point) or one off: odd prevented amounts, Exalt's order
        align["maim"] = max(align["maim"], 1)
        align["vitality"] = max(maximum // 2, 1)
    room = max(maximum - align.get("vitality", target["vitality"]), 0)
    bonus = align["forge_core_recovery"]
    edge = 2 * align["maim"] + draw(_NEIGHBOUR) - bonus - (align["exalt"] if lane == "shield" else 0)
    amount = {"room": room - bonus, "room+1": room - bonus + 1, "room-1": room - bonus - 1, "maim": edge,
              "odd": 2 * draw(_SMALL) + 1, "zero": 0, "negative": -3}.get(shape)
    if amount is None:
        amount = draw(_PLAIN)
    if lane == "repair" and draw(_REPAIR_TOOL):
        align.update(is_tool=True, is_hub=False, is_boss=False)
    return {"kind": "recover", "target": target["uid"], "amount": amount, "lane": lane,
            "_align": {target["uid"]: align}}


def templates() -> list[Template]:
    """One template per lane: a lone unit, its numbers and the amount left to Z3."""
    out = []
    for lane in LANES:

        def build(v: Vars, lane: str = lane) -> tuple[Board, dict[str, Any]]:
            a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
            action = {"kind": "recover", "target": "a", "amount": v.int("action.amount"), "lane": lane}
            return Board((a,)), action

        out.append(Template(f"recover/{lane}", build))
    return out


#: Hand-written vectors at the ledger's boundaries (the worked example of ``model/combat/recovery.py``).
BOUNDARY_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("recover-worked-example-forge-core-cap-maim", [{"uid": "a", "vitality": 90, "forge_core_recovery": 3, "maim": 2}],
     [{"kind": "recover", "target": "a", "amount": 9, "lane": "heal"}]),
    ("recover-full-vitality-consumes-no-maim", [{"uid": "a", "maim": 3}],
     [{"kind": "recover", "target": "a", "amount": 10, "lane": "heal"}]),
    ("recover-odd-prevented-rounds-up", [{"uid": "a", "vitality": 50, "maim": 4}],
     [{"kind": "recover", "target": "a", "amount": 5, "lane": "heal"}]),
    ("recover-shield-exalt-before-maim", [{"uid": "a", "exalt": 3, "maim": 1, "forge_core_recovery": 2}],
     [{"kind": "recover", "target": "a", "amount": 4, "lane": "shield"}]),
    ("recover-tool-repair-bypasses-the-gate", [{"uid": "a", "is_tool": True, "vitality": 40, "entrapped": True}],
     [{"kind": "recover", "target": "a", "amount": 30, "lane": "repair"}]),
    ("recover-refused-dormant", [{"uid": "a", "vitality": 40, "dormant": True}],
     [{"kind": "recover", "target": "a", "amount": 30, "lane": "heal"}]),
]


KINDS = (
    ActionKind(
        name="recover",
        summary="One recovery on one target through the one ledger (500.3): the gate, the Forge Core bonus, the cap "
        "of what the target can receive, Exalt on a Shield gain, then Maim last (each point prevents 2, "
        "ceil(prevented / 2) consumed).",
        chapters=("combat:500.3",),
        fields=(
            Field("target", "unit", "uid of the unit recovering"),
            Field("amount", "integer", "the requested amount, before the Forge Core bonus (0 or less: nothing happens)"),
            Field("lane", LANES, "heal (restore Vitality), shield (gain Shield) or repair (a Tool's own recovery)",
                  "heal"),
        ),
        run=run,
        draw=draw,
        unit_fields=("alive", "vitality", "max_vitality", "shield", "maim", "forge_core_recovery", "exalt",
                     "entrapped", "dormant", "is_tool", "is_hub"),
        rulebook="combat",
        extra={"templates": templates, "boundary_cases": BOUNDARY_CASES},
    ),
)
