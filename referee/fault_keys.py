"""One group per bug: a divergence keyed by what the engine got wrong, not by where the event lists first differ.

``referee.groups.group_key`` keys a divergence by its symptom: the first differing event and the model
function that emitted it (``events[].amount@shield_damaged#combat.damage.process_shield_events``). One
Armor rounding bug shows as a wrong ``damage_taken``, a wrong ``shield_damaged``, a wrong
``insurance_prevented``, a missing ``damage_taken`` (the engine's amount rounded to 0) and a Defy Death
that fires or not: measured on three mutants applied together, 20 groups for 3 bugs.

Here the key is the **model step at fault** (``referee.at_fault.fault_step``: the explain step that made the
diverging number, chose the diverging unit, or explains a missing event), **its clause**, and **the kind of
difference**:

* ``amount``: the step at fault made a number (its quantities hold an ``after``, an ``exact`` or a ``lost``):
  a wrong amount, and an event missing or extra because the wrong amount crossed 0 or a threshold;
* ``order``: the engine emitted the model's two events swapped (``Divergence.shape == "swap"``);
* ``event``: any other missing, extra or differently aimed event (a layer not reached, a payer not refused), and
  an event the engine emitted out of its place (one the model emits later, or explains the absence of: a Shield
  met before the Insurance points), whatever numbers its step makes;

``amount@armor_percentage[combat:500.2c]``, ``event@thorns[combat:500.6d]``. A divergence of the final state
alone keeps :func:`referee.groups.group_key`'s key, which already names the field and the step that last
wrote it on the model's side (``board[].vitality#vitality[combat:500.8i]``). Where the scenario cannot be
explained, or no step is at fault, the symptom key is the key.

A group also keeps its symptom keys (``Group.symptoms``), so a known-divergence entry written against a
symptom key still matches (``referee.groups.KnownEntry.matches``).
"""

from __future__ import annotations

from typing import Any

from .rulebook import Divergence

#: Steps of a loss's tail (``referee.explain.loss``) whose explained clause is the cause that reached them (a death
#: by damage 500.4a, by a cost 500.8j, by a retaliation 500.6d, by Bloodletting 800.4j): keyed at their own rule's
#: clause, so one bug in the tail (a unit at exactly 0 that does not die) is one key whatever killed the unit.
TAIL_CLAUSES = {"death": "combat:500.4a", "listeners": "combat:500.8d"}

#: Quantities of an explain step that make it a step that computes a number (its result can be wrong).
NUMBER_QUANTITIES = ("after", "exact", "lost")


def difference_kind(divergence: Divergence, step: Any, displaced: bool = False) -> str:
    """``order``, ``amount`` or ``event`` (see the module docstring); ``displaced``: the engine's event is one the
    model emits later or explains the absence of (``referee.at_fault.displaced``), an ``event``."""
    if getattr(divergence, "shape", None) == "swap":
        return "order"
    if displaced:
        return "event"
    if any(name in step.quantities for name in NUMBER_QUANTITIES):
        return "amount"
    return "event"


def fault_key(scenario: dict[str, Any], divergences: list[Divergence], symptom: str) -> str:
    """The bug key of a scenario's first divergence; ``symptom`` (its symptom key) where no step is at fault."""
    from .at_fault import displaced, fault_step
    from .explain import explain_actions

    first = divergences[0]
    if first.where != "events":
        return symptom
    try:
        actions = explain_actions(scenario)
        action, found = fault_step(actions, first)
        moved = displaced(actions, first)
    except Exception:  # an unexplainable scenario: the symptom is all there is to key by
        return symptom
    if action is None or found is None:
        return symptom
    step = action.steps[found]
    return f"{difference_kind(first, step, moved)}@{step.step}[{TAIL_CLAUSES.get(step.step, step.clause)}]"


def key_step(key: str) -> str | None:
    """The ``step[clause]`` a key names (``amount@armor_percentage[combat:500.2c]``, ``board[].armor#armor_debuff[...]``);
    None for a symptom key that names no step."""
    kind, _, rest = key.partition("@")
    if kind in ("amount", "event", "order") and rest.endswith("]"):
        return rest
    step = key.rpartition("#")[2]
    return step if "#" in key and "[" in step and step.endswith("]") else None


def upstream(scenario: dict[str, Any], divergences: list[Divergence], keys: tuple[str, ...]) -> tuple[str, ...]:
    """Of ``keys``, those that are not a consequence of ``scenario``'s first divergence: a key whose step the model
    ran, in ``scenario``'s explanation, only after the step at fault is left out (a unit at exactly 0 that another
    bug then leaves alive), one it ran at or before it (an Armor rounding bug first seen on a Shield settles on the
    Armor step), never ran (the engine refused where the model did not) or that names no step is kept. A scenario
    with no step at fault keeps all."""
    from .at_fault import fault_step
    from .explain import explain_actions

    actions = explain_actions(scenario)
    action, found = fault_step(actions, divergences[0]) if divergences[0].where == "events" else (None, None)
    if action is None or found is None:
        return keys
    before: set[str] = set()
    after: set[str] = set()
    seen = False
    for each in actions:
        for n, step in enumerate(each.steps):
            (after if seen else before).add(f"{step.step}[{TAIL_CLAUSES.get(step.step, step.clause)}]")
            seen = seen or (each is action and n == found)
    return tuple(key for key in keys if key_step(key) in before or key_step(key) not in after)


def merge_groups(groups: list[Any], settled: dict[str, Any]) -> list[Any]:
    """Groups whose shrunk representatives diverge the same way at the same step, as one.

    ``settled``: each group's key -> the key of its representative shrunk once more with no key held (the
    divergence a minimal scenario of it shows: ``referee.harness._settled_key``), or a tuple of keys: that key
    first, then the keys the shrink passed through (only those that are groups' own keys join). Groups joined by
    settling are one bug seen from different places (an Armor rounding bug, first seen on a Shield, settles at the
    Armor step once the Shield is shrunk away); the joining is an equivalence (:func:`settled_classes`: a group
    that settles on a second, which settles on the first, is one with both). Merged: counts added, symptoms
    joined, the representative the group whose own key is a settled end (else the first). A group whose
    scenarios cannot be shrunk settles on its key.
    """
    classes = settled_classes([g.key for g in groups], settled)
    by_class: dict[str, list[Any]] = {}
    for group in groups:
        by_class.setdefault(classes[group.key], []).append(group)
    merged = []
    for members in by_class.values():
        ends = {targets_of(settled, g.key)[0] for g in members}
        head = next((g for g in members if g.key in ends), members[0])
        for other in members:
            if other is not head:
                head.count += other.count
                head.symptoms = tuple(dict.fromkeys([*head.symptoms, other.key, *other.symptoms]))
        merged.append(head)
    return merged


def targets_of(settled: dict[str, Any], key: str) -> tuple[str, ...]:
    """A key's settled keys, its end first (itself when it did not settle)."""
    targets = settled.get(key, key)
    return (targets,) if isinstance(targets, str) else tuple(targets) or (key,)


def settled_classes(keys: list[str], settled: dict[str, Any]) -> dict[str, str]:
    """Each key -> the first key of its class, the classes joined by ``settled`` (key -> its end, and the groups'
    keys its shrink passed) both ways."""
    parent: dict[str, str] = {}
    order = keys_order(keys)
    own = set(keys)

    def root(key: str) -> str:
        parent.setdefault(key, key)
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for key in keys:
        end, *passed = targets_of(settled, key)
        for target in [end, *(k for k in passed if k in own)]:
            a, b = root(key), root(target)
            if a != b:
                parent[max(a, b, key=order)] = min(a, b, key=order)
    return {key: root(key) for key in keys}


def keys_order(keys: list[str]) -> Any:
    """An order on keys: the groups' own first (in their order), then any other target (alphabetically)."""
    place = {key: n for n, key in enumerate(keys)}
    return lambda key: (place.get(key, len(place)), key)
