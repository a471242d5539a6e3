"""The draws that bring the battle clock to its boundary (500.9a): an Everlasting unit culled behind a first row
its allies hold, in a half just as large as that row, is delayed and retries on a later tick."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.explain import explain_actions
from referee.rulebooks.combat.kinds.clock import held_row
from referee.rulebooks.combat.kinds.cull import crowded
from referee.rulebooks.combat.strategies import draw_unit
from referee.specs.trace import covers


def unit(uid, side, row, col, alive=True):
    return {"uid": uid, "side": side, "row": row, "col": col, "alive": alive, "vitality": 10 if alive else 0,
            "max_vitality": 10}


def test_held_row_is_the_longest_first_row_a_side_holds():
    assert held_row([unit("a", 0, 0, 0), unit("b", 0, 0, 1), unit("c", 1, 0, 2)]) == (1, 2)
    assert held_row([unit("a", 1, 0, 0), unit("b", 0, 1, 1)]) == (1, 1)
    assert held_row([unit("a", 0, 0, 0, alive=False), unit("b", 0, 0, 1)]) == (1, 1)  # a dead unit holds nothing


@covers("combat:500.9a")
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_crowded_cull_then_time_delays_the_revival_off_the_tick_grid(data):
    units = [data.draw(st.composite(lambda draw, i=i: draw_unit(draw, i, frozenset({"everlasting"})))()) for i in range(3)]
    target = units[data.draw(st.integers(0, 2))]
    align = crowded(units, target, None, {"everlasting": True, "alive": True, "is_tool": False, "is_hub": False,
                                          "vitality": target["max_vitality"]})["_align"]
    for u in units:
        u.update(align.get(u["uid"], {}))
    cells = [(u["side"], u["row"], u["col"]) for u in units]
    assert len(set(cells)) == len(cells)  # no two units share a cell
    rows, cols = held_row(units)
    scenario = {"protocol": "referee/2", "ruleset": {"everlasting_slot_order": "reading_order"}, "board": units,
                "actions": [{"kind": "advance", "ms": 1_250}, {"kind": "cull", "target": target["uid"], "source": None},
                            {"kind": "advance", "ms": 10_000, "rows": rows, "cols": cols}]}
    delayed = [e for e in explain_actions(scenario)[-1].events if e.name == "everlasting_delayed"]
    assert [(e.unit, e.amount) for e in delayed] == [(target["uid"], 11_300)]  # the next 100 ms tick, not 11,350
