"""One recover action on one unit under one reading of a recovery option (INT-302, INT-306), run by the rulebook."""

from __future__ import annotations

from referee import rulebooks
from referee.protocol import decode_scenario
from referee.wire import PROTOCOL


def recover_scenario(option: str, reading: str, amount: int, lane: str, vitality: int, **fields: object) -> dict:
    """A recovery of ``amount`` on ``u`` (``vitality`` of 60) in ``lane``, under ``option = reading``."""
    unit = {"uid": "u", "side": 0, "row": 0, "col": 0, "vitality": vitality, "max_vitality": 60, **fields}
    return {"protocol": PROTOCOL, "ruleset": {option: reading}, "board": [unit],
            "actions": [{"kind": "recover", "target": "u", "amount": amount, "lane": lane}]}


def run_recovery(scenario: dict) -> tuple[dict, list]:
    """``u``'s Vitality, Shield and Maim after the action, and the events as (name, amount)."""
    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    u = state.unit("u")
    return {"vitality": u.vitality, "shield": u.shield, "maim": u.maim}, [(e.name, e.amount) for e in events]
