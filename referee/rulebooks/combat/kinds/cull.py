"""The ``cull`` action (500.4a): Cull destroys a unit outright.

Its JSON form: ``{"kind": "cull", "target": "t", "source": "c"}``. Cull is not damage and not
a cost: no damage-ignore charge, Insurance, Shield or defy-death rune answers it; a living
unit that is not a Tool or a Hub dies, and its death is an ordinary one with the source as
its killer (Macabre, deathrattle, Vessel or Everlasting, one Vessel Point batch: 500.4b-e,
INT-407). A dead unit, a Tool and a Hub are untouched. (An ability's Cull line, with its
Vitality threshold, is the ``ability`` kind's: 400.8-6, INT-209.) The model entry is
:func:`~referee.model.combat.death.resolve_cull`.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.model.combat import death
from referee.model.combat.ruleset import Ruleset
from referee.model.combat.state import Board
from referee.model.events import EventLog
from referee.proofs.combat.symbolic import symbolic_unit
from referee.proofs.core import Vars

from ....rulebook import ActionKind, Field
from ..strategies import pick
from ..templates import Template


def run(board: Board, action: dict[str, Any], ruleset: Ruleset) -> tuple[Board, EventLog]:
    """The model: Cull destroys the target outright, then the ordinary death (500.4a)."""
    return death.resolve_cull(board, action["target"], action["source"])


#: No source twice in five: a listener aimed at the killer then has none and rolls its own Focus (500.9k).
_SOURCE = st.sampled_from(("enemy", "enemy", "none", "none", "self"))
#: What the target carries into its death: nothing, a rune that must not save it, a way back.
#: (A Vessel three times: its revival comes at once, where an Everlasting one needs time; revival_ally was 0.8%.)
_CARRIES = st.sampled_from(("plain", "defy_death", "shield", "everlasting", "everlasting", "crowded", "crowded",
                            "vessel", "vessel", "vessel", "deathrattle"))
#: The target of a Cull that must come back: alive, cullable and Everlasting.
_REVIVES = {"everlasting": True, "alive": True, "is_tool": False, "is_hub": False}
#: The revival channels a unit coming back may meet (500.9h-k): its own line, by cause; an ally's; aimed at the killer.
#: (Aimed at the killer five times in nine: revival_focus, which needs it, was 0.8%.)
_LISTENS = st.sampled_from(("none", "self", "ally", "ally", "self_at_killer", "self_at_killer", "ally_at_killer",
                            "ally_at_killer", "ally_at_killer"))
#: After the death of an Everlasting unit, time (mostly) or the end of combat (500.9a): the end two times in five
#: (at one in three, everlasting_lapsed stayed near 1.2% of the default mix).
EVERLASTING_THEN = ("advance", "advance", "advance", "end_combat", "end_combat")


def listeners(draw: Any, units: list[dict[str, Any]], target: dict[str, Any], cause: str) -> dict[str, dict[str, Any]]:
    """Revival listeners around a unit that will come back: on itself (for ``cause``) or on an ally (500.9h-k)."""
    how = draw(_LISTENS)
    allies = [u for u in units if u["side"] == target["side"] and u["uid"] != target["uid"]]
    if how == "none" or (how.startswith("ally") and not allies):
        return {}
    aims = {"revival_aims_killer": True} if how.endswith("at_killer") else {}
    if how.startswith("self"):
        return {target["uid"]: {f"hears_{cause}_revival": True, **aims}}
    ally = pick(draw, allies)
    return {ally["uid"]: {"hears_ally_revival": True, "alive": True, "vitality": max(ally["vitality"], 1), **aims}}


def draw(draw: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A Cull, its target often carrying what must not stop it (defy-death, Shield) or a revival to come."""
    target = pick(draw, units)
    enemies = [u["uid"] for u in units if u["side"] != target["side"]]
    shape = draw(_SOURCE)
    source = pick(draw, enemies) if shape == "enemy" and enemies else (target["uid"] if shape == "self" else None)
    carries = draw(_CARRIES)
    align: dict[str, Any] = {}
    others: dict[str, dict[str, Any]] = {}
    if carries in ("everlasting", "crowded"):
        # a death the clock must bring back: the target alive and cullable, so an ``advance`` after it means something
        align.update(_REVIVES, vitality=target["max_vitality"])
        if carries == "crowded":
            return {**crowded(units, target, source, align), "_then": EVERLASTING_THEN}
        others = listeners(draw, units, target, "everlasting")
    elif carries in ("defy_death", "deathrattle"):
        align[carries] = True
    elif carries == "shield":
        align.update(shield=target["vitality"] + 5 if target["alive"] else 0)
    elif carries == "vessel":
        align.update(vessels=1, alive=True, vitality=target["max_vitality"], is_tool=False, is_hub=False)
        others = listeners(draw, units, target, "phylactery")
    action = {"kind": "cull", "target": target["uid"], "source": source,
              "_align": {**others, target["uid"]: {**others.get(target["uid"], {}), **align}}}
    if carries == "everlasting":
        action["_then"] = EVERLASTING_THEN
    return action


def crowded(units: list[dict[str, Any]], target: dict[str, Any], source: str | None,
            align: dict[str, Any]) -> dict[str, Any]:
    """An Everlasting target whose half's first row its living allies hold, the target itself on the second row:
    a one-row half (an ``advance`` of 1 x 1, or 1 x 2 with two allies) is then full at the try under the
    reading-order search (INT-404), and the revival retries on later ticks (500.9a)."""
    holders = [u for u in units if u["uid"] != target["uid"]]
    aligned = {target["uid"]: align}
    if holders:
        align["row"] = 1
    for col, holder in enumerate(holders):
        aligned[holder["uid"]] = {"side": target["side"], "row": 0, "col": col, "alive": True,
                                  "vitality": holder["max_vitality"]}
    return {"kind": "cull", "target": target["uid"], "source": source, "_align": aligned}


def templates() -> list[Template]:
    """A target, an enemy source and an ally beside it (Macabre, the revival channels)."""

    def build(v: Vars) -> tuple[Board, dict[str, Any]]:
        a = symbolic_unit(v, "a", side=0, row=0, col=0, redirect_to=None, intercept_by=None)
        b = symbolic_unit(v, "b", side=1, row=0, col=1, redirect_to=None, intercept_by=None)
        c = symbolic_unit(v, "c", side=0, row=0, col=2, redirect_to=None, intercept_by=None)
        return Board((a, b, c)), {"kind": "cull", "target": "a", "source": "b"}

    return [Template("cull/enemy_source", build)]


BOUNDARY_CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = [
    ("cull-ignores-defy-death-and-shield", [{"uid": "a", "defy_death": True, "shield": 500, "insurance": 3},
                                            {"uid": "b", "side": 1, "col": 1}],
     [{"kind": "cull", "target": "a", "source": "b"}]),
    ("cull-spares-a-tool", [{"uid": "a", "is_tool": True}, {"uid": "b", "side": 1, "col": 1}],
     [{"kind": "cull", "target": "a", "source": "b"}]),
    ("cull-vessel-revives-in-place", [{"uid": "a", "vessels": 1, "armor": 30, "armor_change": -10, "maim": 2},
                                      {"uid": "b", "side": 1, "col": 1}],
     [{"kind": "cull", "target": "a", "source": "b"}]),
]


KINDS = (
    ActionKind(
        name="cull",
        summary="Cull destroys a living unit outright (500.4a): nothing prevents it, not even a defy-death rune; "
        "the death is ordinary, with the source as its killer. A dead unit, a Tool and a Hub are untouched.",
        chapters=("combat:500.4",),
        fields=(
            Field("target", "unit", "uid of the unit culled"),
            Field("source", "unit?", "uid of the unit culling it (the killer), or null", None),
        ),
        run=run,
        draw=draw,
        unit_fields=("alive", "vitality", "max_vitality", "is_tool", "is_hub", "shield", "defy_death", "deathrattle",
                     "everlasting", "vessels", "armor", "entrapped", "prismbroken", "adrenaline", "momentum", "bolster"),
        rulebook="combat",
        extra={"templates": templates, "boundary_cases": BOUNDARY_CASES},
    ),
)
