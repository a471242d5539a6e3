"""The protocol's contract, read from the declarations the comparison uses, and what is generated from it.

The contract is what an engine must send and may receive: the unit fields (type, default, the
feature that owns each, its description), the events (each field's meaning, the detail words,
the stage, the feature that owns it, and the clauses of the model code that emits it), the order
rules (:data:`~referee.model.events.STAGES`, :data:`~referee.model.events.INSTANCES`) and the
refusal rules (the model's own reason lists, first reason first). :func:`contract` assembles it;
``specs/protocol/contract.json`` is its snapshot for the current version, and
``tests/harness/test_protocol_contract.py`` fails when the two differ, so that a change cannot slip
in without a new version and a changelog entry (``referee.changelog``).

An event's clauses are never typed: :func:`referee.emitters.emitters` reads the model's source and finds, in each
``@combat.implements`` function, the event names it emits (the first argument of ``emit``, or a
name it hands to the code that emits it: a cost's channel, a revival listener's), and the clauses
that function declares.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.model.events import EVENTS, INSTANCES, STAGES

from .emitters import event_clauses
from .wire import PROTOCOL

def refusal_orders() -> dict[str, dict[str, list[str]]]:
    """Each refusal event's reasons, first reason first, read from the model's own reason lists."""
    from referee.model.combat.costs import compute_refusal_reasons
    from referee.model.combat.keywords import compute_gate_conditions
    from referee.model.combat.recovery import compute_recovery_refusals
    from referee.model.combat.state import Unit

    unit = Unit("x")
    gated = Unit("x", alive=False, vitality=0, is_tool=True, entrapped=True, dormant=True, untargetable=True)
    return {
        "recovery_refused": {words: [r for r, _ in compute_recovery_refusals(unit, lane)]
                             for words, lane in (("heal or shield", "heal"), ("repair", "repair"))},
        "cost_refused": {"retaliation": ["self", "ally", *(r for r, _ in compute_refusal_reasons(unit, "retaliation"))],
                         "other costs": [r for r, _ in compute_refusal_reasons(unit, "interest")]},
        "line_refused": {words: [r for r, can in compute_gate_conditions(gated, effect) if can is not False]
                         for words, effect in (("damage", "damage"), ("every other effect", "burn"))},
    }


def _field_entry(name: str, kind: str) -> dict[str, Any]:
    from .rulebooks.combat.codec import UNIT_DEFAULTS
    from .rulebooks.combat.features import owner_of_field
    from .rulebooks.combat.field_notes import FIELD_DESCRIPTIONS

    return {"type": kind, "default": UNIT_DEFAULTS.get(name), "feature": owner_of_field(name).name,
            "description": FIELD_DESCRIPTIONS[name]}


def _event_entry(name: str, clauses: tuple[str, ...]) -> dict[str, Any]:
    from .rulebooks.combat.features import owners_of_event

    spec = EVENTS[name]
    owners = [f.name for f in owners_of_event(name)] if spec.rulebook == "combat" else []
    return {"rulebook": spec.rulebook, "unit": spec.unit, "amount": spec.amount, "other": spec.other,
            "other_nullable": spec.other_nullable, "detail": None if spec.detail is None else list(spec.detail),
            "stage": spec.stage, "features": owners, "clauses": list(clauses)}


def contract() -> dict[str, Any]:
    """The contract of the current version: fields, events (with their clauses), order and refusal rules."""
    from .rulebooks.combat.codec import UNIT_FIELDS
    from .wire import EVENT_FIELDS

    clauses = event_clauses()
    return {
        "protocol": PROTOCOL,
        "unit_fields": {name: _field_entry(name, kind) for name, kind in UNIT_FIELDS.items()},
        "event_fields": dict(EVENT_FIELDS),
        "events": {name: _event_entry(name, clauses.get(name, ())) for name in EVENTS},
        "order": {"stages": list(STAGES), "instances": dict(INSTANCES)},
        "refusals": refusal_orders(),
    }


#: Where the snapshot of the current version's contract is kept (from the repository root).
SNAPSHOT = Path("specs/protocol/contract.json")


def contract_text() -> str:
    """The contract as the snapshot file holds it."""
    return json.dumps(contract(), indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> None:
    """``python -m referee.contract --write``: write the snapshot (after a version bump and its changelog)."""
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv != ["--write"]:
        sys.exit("usage: python -m referee.contract --write   (run from the repository root)")
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    SNAPSHOT.write_text(contract_text(), encoding="utf-8")
    print(f"wrote {SNAPSHOT} ({PROTOCOL})")


if __name__ == "__main__":
    main()
