"""Filing a failing scenario under its groups: its key (:mod:`.keys`), the clause at fault, and the differences
behind its first divergence that the first cannot have caused (see ``docs/grouping.md``)."""

from __future__ import annotations

from typing import Any

from ..compare import Divergence
from ..judging import _public, model_trail


def _symptom_key_of(scenario: dict[str, Any], divergences: list[Divergence]) -> str:
    """The symptom key of a scenario's first divergence (``referee.check.grouping.groups.group_key``), refined by the model step
    that emitted its event (the clause trail) or, for a state divergence, that last changed its field (the
    explanation: ``state_step``)."""
    from .attribution import state_step
    from .groups import group_key

    first = divergences[0]
    steps = changed_by = None
    try:
        if first.where == "events":
            steps = model_trail(scenario)
        else:
            changed_by = state_step(_public(scenario), first)
    except Exception:  # the trail and the explanation only refine the key
        pass
    return group_key(first, steps, changed_by)


def clause_at_fault(scenario: dict[str, Any], divergences: list[Divergence]) -> str | None:
    """The clause ``check`` names for a failing scenario: its group key's (:func:`group_key_of`); None where the key
    names no clause. ``vectors run`` names it too, from this function, and ``exhaust`` groups by the same key (one
    attribution for every verb)."""
    from .groups import clause_of_key

    return clause_of_key(group_key_of(scenario, divergences))


def group_key_of(scenario: dict[str, Any], divergences: list[Divergence]) -> str:
    """The group key of a scenario's first divergence: what the engine got wrong (``referee.check.grouping.keys``)."""
    from .keys import fault_key

    return fault_key(_public(scenario), divergences, lambda: _symptom_key_of(scenario, divergences))


def _record_group(groups: dict[str, dict[str, Any]], scenario: dict[str, Any], divergences: list[Divergence]) -> None:
    """The group stage: file a divergence under its group key, and each later difference the first cannot have caused
    under its own (:func:`_behind_first`); the first scenario of a key is its representative."""
    from .keys import fault_key

    symptom = _symptom_key_of(scenario, divergences)
    key = fault_key(_public(scenario), divergences, symptom)
    _file(groups, key, scenario, divergences, symptom)
    for further, ordered in _behind_first(scenario, divergences, key).items():
        _file(groups, further, scenario, ordered, _symptom_key_of(scenario, ordered), behind=key)


def _file(groups: dict[str, dict[str, Any]], key: str, scenario: dict[str, Any], divergences: list[Divergence],
          symptom: str, behind: str | None = None) -> None:
    if key not in groups:
        groups[key] = {"scenario": scenario, "divergences": divergences, "count": 0, "symptoms": {}, "behind": behind}
    groups[key]["count"] += 1
    groups[key]["symptoms"][symptom] = None


def _behind_first(scenario: dict[str, Any], divergences: list[Divergence], key: str) -> dict[str, list[Divergence]]:
    """The bugs a scenario shows behind its first divergence: each key -> the divergences with its own first.

    Where the engine's events differ from the model's in one event's fields alone (``Divergence.shape == "alone"``:
    the engine took the model's road), a final-state field the engine left as it was where the model changed it, before
    the step at fault and at another decision, is a difference the first cannot have caused (a Phylactery revival
    keeping its Vessel, 500.4d, behind a Vessel Point batch counted wrong, 500.4e: every scenario that revives also
    counts the batch). A field changed after the step at fault may carry its wrong number on (a Maim consumed wrong,
    then another heal), and one the engine changed where the model did not may have been changed anywhere. Its key
    is the one the field would have alone, so the scenario of a bug hidden so is also filed under that bug's own key.
    """
    from .keys import fault_key, key_decision, skipped_before_fault

    first, public = divergences[0], _public(scenario)
    if first.where != "events" or first.shape != "alone" or key_decision(key) is None:
        return {}
    found: dict[str, list[Divergence]] = {}
    for later in skipped_before_fault(public, first, divergences[1:]):
        ordered = [later, *(d for d in divergences if d is not later)]
        further = fault_key(public, ordered, lambda: _symptom_key_of(scenario, ordered))
        if key_decision(further) not in (None, key_decision(key)):
            found.setdefault(further, ordered)
    return found


def _keys_of(scenario: dict[str, Any], divergences: list[Divergence]) -> dict[str, list[Divergence]]:
    """Every key a scenario is filed under (:func:`_record_group`) -> its divergences with that key's first."""
    key = group_key_of(scenario, divergences)
    return {key: divergences, **_behind_first(scenario, divergences, key)}


def name_the_fault(scenario: dict[str, Any] | None, divergences: list[Divergence]) -> str | None:
    """The clause every verb names for a failing scenario: its key's (:func:`clause_at_fault`), else the clause of
    the model step at fault (a key that names no step: the step the explanation places the divergence at). Never
    raises: None with no divergence, or where neither is known (the report is never lost for its courtesy)."""
    from .attribution import explain_at_fault

    if not scenario or not divergences:
        return None
    public = _public(scenario)
    try:
        named = clause_at_fault(public, divergences)
    except Exception:  # a courtesy: the divergence itself is the report
        named = None
    steps = [] if named else explain_at_fault(public, divergences[0])
    return named or (steps[-1].get("clause") if steps else None)
