"""Comparing a play engine's final play state with the model's."""

from __future__ import annotations

from typing import Any

from referee.model.play.state import DOMAINS, PlayState

from ...rulebook import Divergence
from .codec import OBJECT_FIELDS, object_to_json

#: A play engine is compared on the whole play state.
STATE_FIELDS: tuple[str, ...] = ()



def state_divergences(model: PlayState, engine: PlayState) -> list[Any]:
    """Every difference of two final play states, path by path (``state.pool.energy``, ``state.objects.u1.zone``)."""
    out = []
    if model.pool.energy != engine.pool.energy:
        out.append(Divergence("state", "state.pool.energy", model.pool.energy, engine.pool.energy))
    for domain, a, b in zip(DOMAINS, model.pool.power, engine.pool.power):
        if a != b:
            out.append(Divergence("state", f"state.pool.power.{domain}", a, b))
    theirs = {o.oid: o for o in engine.objects}
    ours = {o.oid for o in model.objects}
    for o in model.objects:
        other = theirs.get(o.oid)
        if other is None:
            out.append(Divergence("state", f"state.objects.{o.oid}", "present", "absent"))
            continue
        mine, them = object_to_json(o), object_to_json(other)
        for name in OBJECT_FIELDS:
            if mine[name] != them[name]:
                out.append(Divergence("state", f"state.objects.{o.oid}.{name}", mine[name], them[name]))
    for oid in theirs:
        if oid not in ours:
            out.append(Divergence("state", f"state.objects.{oid}", "absent", "present"))
    return out


def describe_state(fields: tuple[str, ...] | None) -> str:
    """How the comparison of final play states reads in a report."""
    return "every field of the play state"
