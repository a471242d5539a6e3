"""A failing scenario's group key: the decision the engine took differently, named by the rule that takes it.

The principle is ``docs/grouping.md``: the fault is the first model decision the engine took differently (the
explain step :func:`.attribution.fault_step` places the first divergence at); a group is that decision, named by the
rule that takes it on every road that reaches it (``Step.decision``); two groups merge when one's representative,
shrunk with no key held, settles on the other's decision and took it (:func:`merge_target`, the drift guard). The
special cases the principle still needs are listed there, each with why.

A key reads ``kind@decision[clause]`` (``amount@armor_percentage[combat:500.2c]``): the kind of difference
(:func:`difference_kind`), the decision and its clause, which is the clause at fault every verb names
(:func:`.groups.clause_of_key`). Where the scenario cannot be explained, or no step is at fault, the symptom key
(:func:`.groups.group_key`: the first differing event and the model function that emitted it) is the key. A group
keeps its symptom keys (``Group.symptoms``), so a known-divergence entry written against one still matches.
"""

from __future__ import annotations

from typing import Any, Callable

from ...explain.steps import SKIPS_PIPELINE
from ...rulebook import Divergence
from .attribution import explained

#: Quantities of an explain step that make it a step that computes a number (its result can be wrong).
NUMBER_QUANTITIES = ("after", "exact", "lost", "credited")


def difference_kind(divergence: Divergence, step: Any) -> str:
    """``order``, ``amount`` or ``event`` (see the module docstring)."""
    shape = getattr(divergence, "shape", None)
    if (shape == "swap" or (shape == "late" and step.placed) or "order" in step.quantities
            or _layer_met_early(divergence, step) or _reordered(divergence, step)):
        return "order"  # two events swapped, anything placed at a step whose choice is an order, layers out of order
    if _echo_dropped(divergence, step):
        return "event"  # the listeners did not answer a loss whose number is right: a yes-or-no, not a number
    if any(name in step.quantities for name in NUMBER_QUANTITIES):
        return "amount"
    return "event"


def _echo_dropped(divergence: Divergence, step: Any) -> bool:
    """Whether the divergence is an echo of a loss (``vitality_lost``) the engine did not emit, placed at the listeners'
    step (500.6c, 500.8d: ``attribution.loss_step`` leaves a dropped echo there)."""
    from .attribution import ECHO_EVENTS, ECHO_STEPS

    model, engine = divergence.model, divergence.engine
    named = engine.get("name") if isinstance(engine, dict) else None
    return (step.step in ECHO_STEPS and isinstance(model, dict) and model.get("name") in ECHO_EVENTS
            and named != model.get("name"))


def _reordered(divergence: Divergence, step: Any) -> bool:
    """Whether the engine's number is the one this step says the other order would have made (``reordered``)."""
    from .attribution import engine_amount

    engine = engine_amount(divergence)
    return type(engine) is int and step.quantities.get("reordered") == engine


def _layer_met_early(divergence: Divergence, step: Any) -> bool:
    """Whether the engine's event is this layer step's while the model's is another's (``at_fault.early_layer``)."""
    from .attribution import layer_reports

    engine, model = divergence.engine, divergence.model
    return (isinstance(engine, dict) and isinstance(model, dict) and engine.get("name") != model.get("name")
            and layer_reports(step, engine.get("name")))


def fault_key(scenario: dict[str, Any], divergences: list[Divergence], symptom: str | Callable[[], str]) -> str:
    """The bug key of a scenario's first divergence; ``symptom`` (its symptom key, or a function that makes it: the
    clause trail it reads is a traced run of the model, made only when needed) where no step is at fault."""
    from .attribution import fault_step

    first = divergences[0]
    try:
        actions = explained(scenario)
    except Exception:  # an unexplainable scenario: the symptom is all there is to key by
        return _made(symptom)
    kept = layer_met(actions, divergences)
    if kept is not None:
        return f"amount@{kept}"
    if first.where != "events":
        return _state_key(scenario, first) or _made(symptom)
    try:
        action, found = fault_step(actions, first)
    except Exception:  # an unexplainable scenario: the symptom is all there is to key by
        return _made(symptom)
    if action is None or found is None:
        return _made(symptom)
    step, kind = action.steps[found], difference_kind(first, action.steps[found])
    return f"{kind}@{step.placed if kind == 'order' and step.placed else decision(step)}"


def layer_met(actions: list[Any], divergences: list[Divergence]) -> str | None:
    """The decision a Vitality cost takes to skip the payer's layers (500.8a), when the engine spent one of them: a
    layer a cost step keeps (``Step.keeps_layers``) that the engine's payer, alive at the end, holds less of than it
    held at the cost, where no hit reaches that unit from then on in the model's run (a hit spends layers) and
    a final field says so (the layer itself, or the payer alive where the model's died of the cost: a death clears
    every layer). The engine met a layer no cost meets, whichever road paid the cost (a Bloodletting payment, a
    payback, a Thorns answer), so that is the decision it took differently, wherever its first divergence shows.
    None: no such layer."""
    from .attribution import state_field

    state = {state_field(d.path): d for d in divergences if d.where == "state"}
    spent = any(_spent_by_engine(actions, n, kept, state) for n, action in enumerate(actions)
                for step in action.steps for kept in step.keeps_layers)
    return SKIPS_PIPELINE if spent else None


#: The layers a cost keeps that a hit spends (Armor is met but never spent: nothing to see).
SPENT_LAYERS = ("shield", "insurance", "subrogated", "ignore_charges")
#: The events by which a hit reaches its recipient (a hit on the payer may spend its layers in another order).
HIT_EVENTS = ("damage_taken", "insurance_prevented", "shield_damaged", "shield_broken", "ignore_charge_spent")


def _spent_by_engine(actions: list[Any], n: int, kept: str, state: dict[Any, Divergence]) -> bool:
    """Whether the engine spent the layer ``kept`` (``uid.field``) that action ``n``'s cost keeps (:func:`layer_met`)."""
    owner, name = kept.split(".", 1)
    alive, layer = state.get(f"{owner}.alive"), state.get(kept)
    if name not in SPENT_LAYERS or (alive is not None and alive.engine is not True) or (alive is None and layer is None):
        return False
    if any(e.name in HIT_EVENTS and e.unit == owner for action in actions[n:] for e in action.events):
        return False  # a hit reached the payer too: its layers are the hit's to spend
    before = _value_at(actions, n, owner, name)
    if before is None and layer is not None:  # the model never changed it: its final value is the value at the cost
        before = layer.model
    engine = layer.engine if layer is not None else _value_at(actions, len(actions), owner, name)
    return type(engine) is int and type(before) is int and engine < before


def _value_at(actions: list[Any], n: int, owner: str, name: str) -> Any:
    """A field's value in the model's run when action ``n`` starts (``n == len(actions)``: at the end): the last
    change before it, else the first change's old value, else None (never changed)."""
    changes = [(m, each.changes[owner][name]) for m, each in enumerate(actions) if name in each.changes.get(owner, {})]
    earlier = [change for m, change in changes if m < n]
    if earlier:
        return earlier[-1][1]
    return changes[0][1][0] if changes else None


def _made(symptom: str | Callable[[], str]) -> str:
    return symptom if isinstance(symptom, str) else symptom()


def _state_key(scenario: dict[str, Any], first: Divergence) -> str | None:
    """A final-state field written by a step that writes several fields of the unit in one decision (a revival
    clearing every status, 500.9c): ``state@`` that decision, whichever of the fields the scenario happened to
    set; None (the symptom key, which names the field) where the step writes that field alone or none is found."""
    from .attribution import changing_step, state_field

    field = state_field(first.path)
    if not first.path.startswith("board."):  # a play's payment writes pool fields of different rules: keep the field
        return None
    try:
        step = changing_step(explained(scenario), first, scenario.get("actions", []))
    except Exception:  # an unexplainable scenario: the symptom is all there is to key by
        return None
    if step is None or field is None or field not in step.touches:
        return None
    owner = field.split(".", 1)[0]
    written = [name for name in step.touches if name.split(".", 1)[0] == owner]
    return f"state@{decision(step)}" if len(written) > 1 else None


def skipped_before_fault(scenario: dict[str, Any], first: Divergence, later: list[Divergence]) -> list[Divergence]:
    """The final-state divergences of ``later`` whose field the engine left as it was before the model's last change
    of it, a change the model made at a step before the step at fault of ``first``, an event divergence (in the
    model's explanation of ``scenario``; none where it cannot be explained). A field the model never changed (the
    engine changed it, somewhere), or changed after the step at fault, may be carrying a wrong number on."""
    from .attribution import fault_step

    try:
        actions = explained(scenario)
        action, found = fault_step(actions, first)
    except Exception:  # an unexplainable scenario: nothing is known to come before
        return []
    if action is None or found is None:
        return []
    order = {id(step): n for n, step in enumerate(step for each in actions for step in each.steps)}
    at_fault = order[id(action.steps[found])]
    kept = [(d, _engine_kept(actions, d, scenario)) for d in later if d.where == "state"]
    return [d for d, writer in kept if writer is not None and order[id(writer)] < at_fault]


def _engine_kept(actions: list[Any], divergence: Divergence, scenario: dict[str, Any]) -> Any:
    """The step where the model last changed a state divergence's field, when the engine's value is the field's value
    before that change (the engine left it as it was); None otherwise."""
    from .attribution import changing_step, state_field

    field = state_field(divergence.path)
    if field is None:
        return None
    owner, name = field.split(".", 1)
    changed = [each.changes[owner][name] for each in actions if name in each.changes.get(owner, {})]
    if not changed or divergence.engine != changed[-1][0]:
        return None
    try:
        return changing_step(actions, divergence, scenario.get("actions", []))
    except Exception:  # the step cannot be found: nothing is known to come before
        return None


def decision(step: Any) -> str:
    """The decision an explain step takes, as a fault key names it: ``armor_percentage[combat:500.1-5]``, or the
    step's ``decision`` where the rules say one decision under several names (``death[combat:500.4a]``):
    ``Step.taken``, which the explanation also uses to name the decisions a step takes inside a test it runs."""
    return step.taken()


def decisions_exercised(scenario: dict[str, Any], divergences: list[Divergence] | None = None) -> frozenset[str] | None:
    """Every decision the model's explanation of a scenario takes (``Step.decisions``: each step's :func:`decision`,
    with those it takes inside a test it runs, the lethal test's steps 4-13, 500.1f, or as its own step where another
    rule names it, a count named by the legal-units rule, 400.8b); None: it cannot be explained.

    With the scenario's ``divergences``, where the first is an event the model emitted, only the decisions taken up
    to the steps that made it (:func:`_emitting_position`): a decision the model takes after it cannot have changed it
    (a death at 0 comes after the Vitality step whose ``damage_taken`` differed)."""
    actions = _explained(scenario)
    return None if actions is None else _taken(actions, divergences[0] if divergences else None)


def _explained(scenario: dict[str, Any]) -> list[Any] | None:
    """The model's explanation of a scenario; None: it cannot be explained (nothing a merge may rely on)."""

    try:
        return explained(scenario)
    except Exception:  # an unexplainable scenario exercises nothing a merge may rely on
        return None


def _taken(actions: list[Any], first: Divergence | None = None) -> frozenset[str]:
    """The decisions the steps of ``actions`` take: all, or with ``first``, those up to the steps that made it."""
    steps = [step for action in actions for step in action.steps]
    emitted = _emitting_position(actions, first) if first is not None else None
    return frozenset(taken for step in (steps if emitted is None else steps[:emitted + 1]) for taken in step.decisions())


def decisions_left_out_alike(scenario: dict[str, Any], divergences: list[Divergence]) -> frozenset[str] | None:
    """The decisions of the step that left out the engine's event with the same number (:func:`_left_out_alike`):
    the only ones the divergence can be; None: no such step (or the scenario cannot be explained)."""
    actions = _explained(scenario)
    step = _left_out_alike(actions, divergences[0]) if actions is not None and divergences else None
    return None if step is None else frozenset(step.decisions())


def drift_guard(key: str, scenario: dict[str, Any], divergences: list[Divergence]) -> Callable[[str], bool]:
    """Whether a group of ``key`` whose shrunk representative is ``scenario`` may merge into a key: its own, or one
    :func:`merge_target` allows, with the representative explained once for every key asked."""
    actions = _explained(scenario)
    if actions is None or not divergences:
        return lambda settled: settled == key
    first = divergences[0]
    every, upstream = _taken(actions), _taken(actions, first)
    alike = _left_out_alike(actions, first)
    alone = None if alike is None else frozenset(alike.decisions())
    went_on = _went_on(first) and not _emitted_by_a_step(actions, first.engine.get("name"))
    return lambda settled: settled == key or merge_target(key, settled, every, went_on, upstream, alone) == settled


def _left_out_alike(actions: list[Any], first: Divergence) -> Any:
    """For an event the engine emitted after the model's last, the last model step that emits such events when its
    numbers hold the engine's amount (a Feast of 0 the credit step computed and, 500.1e, does not emit): the engine
    agreed with every number up to there and decided otherwise at that step, so its decision is the only one the
    divergence can be. None: no such step, or none with that number."""
    engine = first.engine
    if first.where != "events" or first.model is not None or not isinstance(engine, dict):
        return None
    amount = engine.get("amount")
    emitting = [step for action in actions for step in action.steps if engine.get("name") in step.events]
    if type(amount) is not int or not emitting:
        return None
    numbers = [value for value in emitting[-1].quantities.values() if type(value) is int]
    return emitting[-1] if amount in numbers else None


def _nth_naming_step(actions: list[Any], action: Any, event_index: int, name: Any) -> int:
    """The step of ``action`` that names its n-th event called ``name``, for the event at ``event_index`` (its n-th of
    that name): a second line's ``line_resolved`` is the second line step's, where ``locate_event`` puts every event on
    the first step that names it. -1: no step names it."""
    offset = sum(len(each.events) for each in actions[:actions.index(action)])
    n = sum(1 for event in action.events[: event_index - offset + 1] if event.name == name)
    naming = [i for i, step in enumerate(action.steps) if name in step.events]
    return naming[min(n, len(naming)) - 1] if naming and n else -1


def _emitting_position(actions: list[Any], first: Divergence) -> int | None:
    """Where the steps that made the model's side of an event divergence end among all the steps of ``actions``: the
    step that names the event and the steps after it that name none (the explanation tells a line's count after the
    line that announces its amount, 400.8a); None: a state divergence, an event the model did not emit, or one no
    step names (every step came before)."""
    from ...explain import locate_event

    if first.where != "events" or not isinstance(first.model, dict) or first.event_index is None:
        return None
    action, found = locate_event(actions, first.event_index)
    if found is None:
        return None
    found = max(found, _nth_naming_step(actions, action, first.event_index, first.model.get("name")))
    while found + 1 < len(action.steps) and not action.steps[found + 1].events:
        found += 1
    order = [id(step) for each in actions for step in each.steps]
    return order.index(id(action.steps[found]))


def key_decision(key: str) -> str | None:
    """The decision a key names (``amount@armor_percentage[combat:500.1-5]``, ``board[].armor#armor_debuff[...]``:
    the part after ``@`` or ``#`` when it is a step and its clause); None: a symptom key naming no step."""
    for mark in ("#", "@"):
        if mark in key:
            tail = key.rsplit(mark, 1)[1]
            return tail if tail.endswith("]") and "[" in tail else None
    return None


def merge_target(key: str, settled: str, exercised: frozenset[str] | None, went_on: bool = False,
                 upstream: frozenset[str] | None = None, alone: frozenset[str] | None = None) -> str:
    """The group a group of ``key`` merges into: the key it ``settled`` on, when the group's representative (shrunk
    with its key held) took that key's decision (``exercised``: :func:`decisions_exercised` of it), or when the
    settled key is a wrong number and the representative's engine ``went_on`` (:func:`engine_went_on`) past where the
    model stopped; else its own key. A settled ``event@`` key must have been taken before the first divergence
    (``upstream``: :func:`decisions_exercised` given the divergences); and where the engine's event is one a model step
    left out with the engine's own number, only that step's decisions are allowed (``alone``:
    :func:`decisions_left_out_alike`).

    The guard is against drift: a settling shrink holds no key, so a Reflect off by one, shrunk until a unit lands on
    exactly 0, can settle on a death-at-0 bug the same engine also has. The bug behind a group is a decision its
    minimal scenario takes: a death that scenario did not have is another bug's. So is a yes-or-no decision taken
    after the event that differs (Vitality not clamped, shrunk from a hit of 2 on 1 Vitality to a hit of 1, settles on
    a death-at-0 bug: the death comes after the ``damage_taken`` that differed). A number step after it may still be
    this bug's (a Shield drained without its multiplier shows, once the Shield's own report agrees, at the Vitality
    step and the credit), and an order may have come first in the engine. An engine that agreed with every number up
    to a step that left out the event it emitted (a Feast of 0, 500.1e) took that step's decision, and no other.
    An engine that went on where the model stopped (a hit discarded at a Hub, spent on an ignore charge, aimed at the
    dead, or a tick reduced to nothing) computed a number at steps the model never reached, so no decision of them
    can be asked of it: the number step its settled scenario names is where that number went wrong (negative Armor
    amplifying a 0 it should have left alone).
    """
    target = key_decision(settled)
    if target is None or exercised is None:
        return key
    if alone is not None:
        return settled if target in alone else key
    taken = upstream if upstream is not None and settled.startswith("event@") else exercised
    return settled if target in taken or (went_on and settled.startswith("amount@")) else key


def engine_went_on(divergences: list[Divergence], scenario: dict[str, Any] | None = None) -> bool:
    """Whether the first divergence is an event the engine emitted after the model's last (the model stopped), and,
    given the ``scenario``, one no step of the model's explanation emits: a step that emits such events and left this
    one out took a decision there (a Feast of 0 the credit step leaves out, 500.1e), it did not stop."""
    first = divergences[0] if divergences else None
    if first is None or not _went_on(first):
        return False
    actions = None if scenario is None else _explained(scenario)
    return actions is None or not _emitted_by_a_step(actions, first.engine.get("name"))


def _went_on(first: Divergence) -> bool:
    """Whether a divergence is an event the engine emitted after the model's last."""
    return first.where == "events" and first.model is None and isinstance(first.engine, dict)


def _emitted_by_a_step(actions: list[Any], name: Any) -> bool:
    """Whether a step of the model's explanation emits events named ``name`` (``Step.events``)."""
    return any(name in step.events for action in actions for step in action.steps)


def final_target(key: str, settled: dict[str, str]) -> str:
    """Where a group ends up when the key it settles on settles on another in turn (a Shield multiplier bug seen at
    the Shield settles at the Vitality step, whose group settles at the credit): the end of that chain; in a
    cycle, the least key of it, so every member ends up in one place."""
    seen: list[str] = []
    while key not in seen and settled.get(key, key) != key:
        seen.append(key)
        key = settled[key]
    return min(seen[seen.index(key):]) if key in seen else key


def resolve_chains(settled: dict[str, str], allowed: Any) -> dict[str, str]:
    """Each key's group: the end of its chain (:func:`final_target`) where ``allowed(key, end)`` (the drift guard
    asked again of the chain's end: one key can be two bugs' settled key, and a chain through it would carry one
    bug's group into the other's), else the key it settled on itself."""
    resolved = {}
    for key, target in settled.items():
        end = final_target(key, settled)
        resolved[key] = end if end == target or allowed(key, end) else target
    return resolved


def merge_groups(groups: list[Any], settled: dict[str, str], exercised: dict[str, frozenset[str] | None] | None = None
                 ) -> list[Any]:
    """Groups whose shrunk representatives diverge the same way at the same step, as one.

    ``settled``: each group's key -> the key of its representative shrunk once more with no key held (the
    divergence a minimal scenario of it shows: ``referee.check.grouping.settle._settled_key``). Groups that settle on the same
    key are one bug seen from different places (an Armor rounding bug, first seen on a Shield, settles at the
    Armor step once the Shield is shrunk away): merged, counts added, symptoms joined, the representative the
    group whose own key that is (else the first). A group whose scenarios cannot be shrunk settles on its key (a
    chain of settled keys is resolved before: :func:`resolve_chains`). With ``exercised`` (each group's
    representative's decisions), a group whose representative did not take the settled key's decision keeps its
    key (:func:`merge_target`); without it, ``settled`` is taken as guarded already (the harness guards each key
    as it settles it, and each chain's end as it resolves it).
    """
    if exercised is not None:
        settled = {key: merge_target(key, target, exercised.get(key)) if target != key else key
                   for key, target in settled.items()}
    by_target: dict[str, list[Any]] = {}
    for group in groups:
        by_target.setdefault(settled.get(group.key, group.key), []).append(group)
    merged = []
    for target, members in by_target.items():
        head = next((g for g in members if g.key == target), members[0])
        for other in members:
            if other is not head:
                head.count += other.count
                head.symptoms = tuple(dict.fromkeys([*head.symptoms, other.key, *other.symptoms]))
                head.merged_with = joined(head.merged_with, (absorbed(other), *other.merged_with))
        merged.append(head)
    return merged


def absorbed(group: Any) -> dict[str, Any]:
    """What a group merged into another keeps of its own (``Group.merged_with``): its key, count, first divergence,
    shrunk representative and replay, so that a merge that joined two bugs loses neither."""
    first = group.divergences[0].describe() if group.divergences else ""
    return {"key": group.key, "count": group.count, "first": first, "scenario": group.scenario, "replay": group.replay}


def joined(kept: Any, more: Any) -> tuple[dict[str, Any], ...]:
    """Two lists of merged groups as one, each key once (the first representative of a key is kept)."""
    by_key = {m["key"]: m for m in reversed([*kept, *more])}
    return tuple(by_key[k] for k in dict.fromkeys(m["key"] for m in [*kept, *more]))
