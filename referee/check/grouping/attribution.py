"""The steps at fault: the model's explanation around the first divergence, for a failure report.

``referee check`` and ``vectors run`` show, instead of the whole clause trail, the explain
step that produced the first diverging event or field (with its clause and numbers) and
the step before it (:func:`referee.explain.steps_around_event`). A state divergence
(``board.t.maim``) is placed at the model's last event about that unit (``t``); one with no
such event, at the end of the explanation. :func:`state_step` names, for a state divergence, the
step that last changed its field in the model's run (a part of its group key, ``referee.check.groups``).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from .groups import identity_index
from ...rulebook import Divergence
from ..judging import _public

def explained(scenario: dict[str, Any]) -> list[Any]:
    """The model's explanation of a scenario (:func:`referee.explain.explain_actions`), made once for the several
    questions the grouping asks of one failing scenario (its key, its state key, the keys behind it, its clause): the
    last few scenarios' explanations are kept, keyed by their JSON. Raises what the explanation raises."""
    import json

    return list(_explained_text(json.dumps(scenario, sort_keys=True)))


@functools.lru_cache(maxsize=64)
def _explained_text(text: str) -> tuple[Any, ...]:
    import json

    from ...explain import explain_actions

    return tuple(explain_actions(json.loads(text)))


_STATE_PATH = re.compile(r"^[a-z_]+\.([^.\[\]]+)")


def state_owner(path: str) -> str | None:
    """The unit, object or part a state path is about: ``board.a.vitality`` -> ``a``, ``state.objects.r1.zone`` ->
    ``r1``, ``state.pool.energy`` -> ``pool`` (None: not a state path)."""
    parts = path.split(".")
    at = identity_index(parts)
    owner = parts[at] if at is not None else (parts[1] if len(parts) > 1 else None)
    return owner if owner and "[" not in owner else None


def state_field(path: str) -> str | None:
    """The ``owner.field`` of a state path as ``Step.touches`` and an action's ``changes`` spell it (``a.vitality``,
    ``r1.zone``, ``pool.energy``; ``state.pool.power.calm``: ``pool.power``); None for a whole unit (``board.c``)."""
    parts = path.split(".")
    at = identity_index(parts)
    at = at if at is not None else 1
    return f"{parts[at]}.{parts[at + 1]}" if state_owner(path) is not None and len(parts) > at + 1 else None


def divergence_event_index(divergence: Divergence, events: list[Any]) -> int | None:
    """Where in the model's events a divergence falls: its own index, or the last event about its unit."""
    if divergence.where == "events":
        return divergence.event_index
    match = _STATE_PATH.match(divergence.path)
    if match is None:
        return None
    uid = match.group(1)  # state.objects.<oid>: "objects", no event about it (the placement the table measured)
    about = [i for i, e in enumerate(events) if uid in (e.unit, e.other)]
    return about[-1] if about else None


def steps_at_fault(scenario: dict[str, Any], divergence: Divergence) -> list[dict[str, Any]]:
    """The step that produced the first divergence and the one before it, as JSON (empty: no explanation)."""
    actions = explained(scenario)
    action, found = fault_step(actions, divergence)
    if action is None:
        steps = [s for action in actions for s in action.steps][-2:]
    else:
        steps = action.steps[-2:] if found is None else action.steps[max(0, found - 1): found + 1]
    return [s.to_json() for s in steps]


def state_step(scenario: dict[str, Any], divergence: Divergence) -> str | None:
    """The model step that last changed a state divergence's field, as a group key names it: the decision it takes
    (``Step.taken``: ``vitality[combat:500.8i]``, ``defy_death[combat:500.1-12]`` on every road the rune answers,
    ``finish[play:350.1]``); None when no action is about the field's unit or object (see :func:`changing_step`) or
    the path names no field (a unit absent)."""
    step = changing_step(explained(scenario), divergence, scenario.get("actions", []))
    return None if step is None else step.taken()


def changing_step(actions: list[Any], divergence: Divergence, sent: list[Any] = ()) -> Any:
    """The step that last changed a state divergence's field in the model's run (None: not found).

    The action is the last one whose run changed the field (``ExplainedAction.changes``), else (the
    engine changed a field the model left alone) the one that passed the field through: the last with
    a step that sets such a field (``Step.touches``: a play's payment for its pool), else the last naming
    its unit or object (``sent``, the scenario's actions). In it, the last step that sets the field
    (``Step.touches``), else the step behind the last event about the unit (:func:`referee.explain.locate_event`;
    the listeners' echo of a loss: the loss's own step), else the action's first step. No number-driven
    move (the at-fault placement's producer, rounding and deciding steps, or a step's ``before``/``after``
    equal to the change: another quantity may have the same numbers): a key must not depend on the numbers.
    Which action changed it last, not where the engine went wrong: an engine that got an earlier change
    wrong and a later one right is keyed by the later one.
    """
    field = state_field(divergence.path)
    if field is None or divergence.where == "events":
        return None
    owner, name = field.split(".", 1)
    changed = [a for a in actions if name in a.changes.get(owner, {})]
    touching = [a for a in actions if any(field in step.touches for step in a.steps)]
    named = [a for a, data in zip(actions, sent) if _names(data, owner)]
    action = next((found[-1] for found in (changed, touching, named) if found), None)
    if action is None or not action.steps:
        return None
    hits = [i for i, step in enumerate(action.steps) if field in step.touches]
    return action.steps[hits[-1] if hits else _event_step(action, owner)]


def _event_step(action: Any, owner: str) -> int:
    """The step behind an action's last event about ``owner`` (its first step: no such event or step); a
    :data:`ECHO_STEPS` step (the listeners announcing a loss) stands for the loss it echoes, the nearest
    earlier :data:`RESULT_STEPS` step at its depth (the Vitality step that made the loss)."""
    from ...explain import locate_event

    about = [i for i, e in enumerate(action.events) if owner in (e.unit, e.other)]
    found = locate_event([action], about[-1])[1] if about else None
    if found is None:
        return 0
    if action.steps[found].step in ECHO_STEPS:
        depth = action.steps[found].depth
        return next((i for i in range(found - 1, -1, -1) if action.steps[i].step in RESULT_STEPS
                     and action.steps[i].depth == depth), found)
    return found


def _names(data: Any, owner: str) -> bool:
    """Whether an action (its JSON, nested actions included) names ``owner`` anywhere."""
    if isinstance(data, dict):
        return any(_names(v, owner) for v in data.values())
    if isinstance(data, list):
        return any(_names(v, owner) for v in data)
    return data == owner


def fault_step(actions: list[Any], divergence: Divergence) -> tuple[Any, int | None]:
    """The action and the index of its step at fault (``(None, None)``: the end of the explanation).

    In order: a state field is placed at the first step of the last action that sets it (``Step.touches``); an
    event the engine emitted where the model emitted another (or none) at the step that explains its absence
    (``Step.absent``: a layer not reached, a payer not refused), or, when only the unit differs, at the step that
    chose the unit (``Step.chooses``); an outcome (an event named by a step after the deciding steps) at the last
    step that decided it (``Step.decides``); otherwise at the step behind the model's event, or the last event about
    the diverging unit, moved back to the step that produced its number (or, when no step changed it, to the step
    that decided to carry it on unchanged). See ``docs/grouping.md``."""
    from ...explain import locate_event

    events = [e for action in actions for e in action.events]
    if divergence.where != "events":
        touched = touching_step(actions, divergence.path)
        if touched is not None:
            return touched
    else:
        placed = _event_fault(actions, divergence)
        if placed is not None:
            return placed
    index = divergence_event_index(divergence, events)
    if index is None:
        return None, None
    action, found = locate_event(actions, index)
    if found is not None:
        decided = deciding_step(action, found)
        if decided is not None:
            return action, decided
        found = loss_step(action, found, divergence)
        if divergence.engine is None and isinstance(divergence.model, dict):
            passed = passing_step(action, found)
            if passed is not None:
                return action, passed
        produced = producer(action, found, model_number(divergence))
        placed = carrier(action, found, model_number(divergence)) if produced == found else produced
        found = (skipped_rule(action, instance_start(action, placed), found, divergence)
                 or rounding_step(action, placed, divergence))
    return action, found


def skipped_rule(action: Any, start: int, end: int, divergence: Divergence) -> int | None:
    """A number the engine made by applying a rule the model's step skipped (Armor met by a Burn, 500.1d), or by
    taking a step in another order (the cap met before Armor, 500.1-7): the engine's amount is exactly what that step
    says the skipped rule or the other order would have made (``unskipped``, ``reordered``), whatever step produced
    the number it carried; that step, between the start of the instance and the model's event's ``end``."""
    engine = engine_amount(divergence)
    if type(engine) is not int or engine == model_number(divergence):
        return None
    hits = [i for i in range(start, end + 1) if engine in (action.steps[i].quantities.get("unskipped"),
                                                           action.steps[i].quantities.get("reordered"))]
    return hits[0] if hits else None


def late_step(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """A model event the engine emits later (``Divergence.shape == "late"``), where the step behind it is one the
    rules place apart from what it decides (``Step.placed``: a Subrogated payback at 500.1-8): that step, which the
    engine took later. Any other late event is placed as before: where the numbers first differ."""
    from ...explain import locate_event

    if divergence.shape != "late" or divergence.event_index is None:
        return None
    action, found = locate_event(actions, divergence.event_index)
    return None if found is None or not action.steps[found].placed else (action, found)


def engine_amount(divergence: Divergence) -> Any:
    """The engine's number for the model's diverging event: its event's amount, or 0 where it left the model's event
    out (``missing``, ``left_out``, or no event there at all: the number came to nothing in the engine); None: no
    number."""
    left_out = divergence.shape in ("missing", "left_out") or divergence.engine is None
    if left_out and isinstance(divergence.model, dict):
        return 0 if type(divergence.model.get("amount")) is int else None
    return divergence.engine.get("amount") if isinstance(divergence.engine, dict) else None


def _event_fault(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """An event divergence placed before its model event is looked up: at the step that chose to open
    the answers the engine skipped (:func:`skipped_block`), or at the step behind the engine's own event."""
    placed = (late_step(actions, divergence) or skipped_block(actions, divergence) or line_order(actions, divergence)
              or early_layer(actions, divergence))
    if placed is not None:
        return placed
    by_event = step_for_engine_event(actions, divergence)
    if by_event is not None:
        return by_event[0], engine_only(by_event[0], by_event[1], divergence)
    return inserted_event(actions, divergence)


def inserted_event(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """An event the engine inserted (``Divergence.shape == "extra"``: its next event is the model's) is the
    step's just before it that emits such events and did not emit this one (a Feast of 0 the credit step leaves
    out, 500.5c): the step behind the model's previous event, when it names the engine's event."""
    from ...explain import locate_event

    engine, index = divergence.engine, divergence.event_index
    if divergence.shape != "extra" or not isinstance(engine, dict) or not index:
        return None
    action, found = locate_event(actions, index - 1)
    if found is None or engine.get("name") not in action.steps[found].events:
        return None
    return action, found


#: The events by which a recipient answers one attacker (500.6, 500.7): a payment, a miss, a refusal, a rune's save.
ANSWER_EVENTS = ("thorns", "riposte", "retort", "riposte_missed", "cost_refused", "defy_death")


def skipped_block(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """An attacker the engine did not answer at all, where an earlier step chose to answer it (``Step.opens``, with
    the attacker as its ``applier``: a tick's later applier, 500.7e): that step. The model's event is the first answer
    to that attacker in its action, and the engine's event there (if any) is not about the attacker: an answer the
    engine began is the answer's own step."""
    model, engine = divergence.model, divergence.engine
    if not isinstance(model, dict) or model.get("name") not in ANSWER_EVENTS or divergence.event_index is None:
        return None
    attacker = model.get("unit")
    if isinstance(engine, dict) and engine.get("unit") == attacker:
        return None
    offset = 0
    for action in actions:
        if divergence.event_index < offset + len(action.events):
            earlier = action.events[: divergence.event_index - offset]
            if any(e.unit == attacker and e.name in ANSWER_EVENTS for e in earlier):
                return None
            opener = [i for i, step in enumerate(action.steps) if step.opens and step.quantities.get("applier") == attacker]
            return (action, opener[0]) if opener else None
        offset += len(action.events)
    return None


#: The clauses of the damage pipeline's layers, in the order it meets them (the cap .. the defy-death rune).
LAYER_CLAUSES = tuple(f"combat:500.1-{n}" for n in range(7, 13))


def early_layer(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """An engine whose event, where the model's layer reports, is a later layer's of the same instance (Shield
    before the Insurance points, 500.1-9): the layers met out of order, at the layer the engine met too early
    (its step in the model: ``absent`` where the model never reaches it), whether the model's later layer
    absorbed anything or not."""
    from ...explain import locate_event

    model, engine = divergence.model, divergence.engine
    if not (isinstance(model, dict) and isinstance(engine, dict) and divergence.event_index is not None
            and model.get("name") != engine.get("name")):
        return None
    action, found = locate_event(actions, divergence.event_index)
    if found is None or action.steps[found].clause not in LAYER_CLAUSES:
        return None
    depth = action.steps[found].depth
    for i in range(found + 1, len(action.steps)):
        step = action.steps[i]
        if step.depth < depth or (step.depth == depth and step.step == "incoming"):
            return None
        if step.depth == depth and layer_reports(step, engine["name"]):
            return action, i
    return None


def layer_reports(step: Any, name: Any) -> bool:
    """Whether ``step`` is a layer of the damage pipeline (:data:`LAYER_CLAUSES`) whose events, met or not, include
    ``name``."""
    return step.clause in LAYER_CLAUSES and name in step.events + step.absent


#: The events that open an ability line where it resolves, one per line (400.8-3, 400.8-4): ``line_resolved``
#: names the line's effect, ``condition_failed`` its condition.
LINE_HEADS = {"line_resolved": "effect", "condition_failed": "condition"}


def line_order(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """An engine that opens another line of the activation where the model opens this one: the order the lines
    resolve in is at fault (the ``lanes`` step, 400.8-2), whichever of the two lines' events first differ. Only
    when both events open a line, and the engine's opens one the model resolves later (the same line, opened
    differently, is its own condition or amount)."""
    from ...explain import locate_event

    model, engine = divergence.model, divergence.engine
    if not (isinstance(model, dict) and isinstance(engine, dict) and divergence.event_index is not None
            and model.get("name") in LINE_HEADS and engine.get("name") in LINE_HEADS):
        return None
    action, found = locate_event(actions, divergence.event_index)
    lanes = next((i for i, step in enumerate(action.steps) if step.step == "lanes"), None)
    if found is None or lanes is None:
        return None
    lines = [i for i, step in enumerate(action.steps) if step.step == "line" and step.depth == action.steps[lanes].depth]
    current = [i for i in lines if i <= found]
    if not current or _opens_line(action, current[-1], engine):
        return None
    later = [i for i in lines if i > current[-1]]
    return (action, lanes) if any(_opens_line(action, i, engine) for i in later) else None


def _opens_line(action: Any, line: int, event: dict[str, Any]) -> bool:
    """Whether ``event`` (a :data:`LINE_HEADS` event) is the one that opens the line whose ``line`` step is
    ``action.steps[line]``: its detail is the line's effect (and its amount the line's amount: two lines of one
    effect) or its condition (the ``line``, ``condition`` and ``count`` steps)."""
    field = LINE_HEADS[event["name"]]
    end = next((i for i in range(line + 1, len(action.steps)) if action.steps[i].step in ("line", "answer")),
               len(action.steps))
    steps = action.steps[line:end]
    if not any(step.quantities.get(field) == event.get("detail") for step in steps if step.quantities.get(field)):
        return False
    counted = [step.quantities["amount"] for step in steps if step.step == "count"]
    amount = counted[0] if counted else action.steps[line].quantities.get("base")
    return field == "condition" or event.get("amount") == amount


def passing_step(action: Any, found: int) -> int | None:
    """For a model event the engine did not emit at all, the last step of the instance that decided the amount
    goes on (``Step.decides``: a Dormant recipient a tick still reaches, Armor a Burn skips, a cost skipping the
    pipeline); ``None`` when no such step is there."""
    if action.steps[found].step not in RESULT_STEPS + CREDIT_STEPS:
        return None
    hits = [i for i in range(instance_start(action, found), found) if action.steps[i].decides]
    return hits[-1] if hits else None


def instance_start(action: Any, found: int) -> int:
    """The first step of the instance ``found`` belongs to: its ``incoming`` step at the same depth (else the
    ability line it is part of, 400.8-3: a line's number is never another line's; else 0)."""
    depth = action.steps[found].depth
    for i in range(found, -1, -1):
        step = action.steps[i]
        if step.depth < depth:
            return i + 1
        if step.step in ("incoming", "line") and step.depth == depth:
            return i
    return 0


def engine_only(action: Any, found: int, divergence: Divergence) -> int:
    """An engine event the model does not emit, placed at the model step that names such events: a number one
    away at the rounding step, else at the step that made the model's own number there (``lost``)."""
    rounded = rounding_step(action, found, divergence)
    if rounded != found:
        return rounded
    return producer(action, found, action.steps[found].quantities.get("lost"))


#: Steps that announce again a loss an earlier step made (the listeners of 500.6c, 500.8d): a divergence there is
#: placed at the loss itself.
ECHO_STEPS = ("listeners",)
ECHO_EVENTS = ("vitality_lost",)


def loss_step(action: Any, found: int, divergence: Divergence) -> int:
    """The loss step a :data:`ECHO_STEPS` step re-announces (the nearest earlier result step with the same loss),
    for a wrong number on the echo itself (the engine's ``vitality_lost`` carries another loss), not for an echo the
    engine dropped nor for what the listeners did (a rune reset)."""
    step = action.steps[found]
    model = divergence.model if isinstance(divergence.model, dict) else {}
    engine = divergence.engine if isinstance(divergence.engine, dict) else {}
    if step.step not in ECHO_STEPS or model.get("name") not in ECHO_EVENTS or engine.get("name") != model.get("name"):
        return found  # an echo the engine dropped is the listeners' own (500.8d): they should have emitted it
    lost = step.quantities.get("lost")
    return next((i for i in range(found - 1, -1, -1) if action.steps[i].step in RESULT_STEPS
                 and action.steps[i].quantities.get("lost") == lost), found)


def rounding_step(action: Any, found: int, divergence: Divergence) -> int:
    """A number one away from the model's, landed by a result step, is placed at the rounding step of the same
    instance (the step with an exact value, 500.2c): an off-by-one downstream of a rounding is that rounding's."""
    step = action.steps[found]
    engine = divergence.engine.get("amount") if isinstance(divergence.engine, dict) else None
    model = model_number(divergence)
    if divergence.engine is None and type(model) is int and divergence.where == "events":
        engine = 0  # the engine reports nothing where the model reports an amount: as if 0 landed
    if model is None and step.step in RESULT_STEPS:
        model = step.quantities.get("lost")
    if type(engine) is not int or type(model) is not int or abs(engine - model) != 1:
        return found
    if step.step not in RESULT_STEPS and "after" not in step.quantities:
        return found
    for i in range(found - 1, -1, -1):
        if action.steps[i].step == "incoming" or action.steps[i].depth != step.depth:
            break
        if "exact" in action.steps[i].quantities:
            return i
    return found


_FIELD_PATH = re.compile(r"^[a-z_]+\.([^.\[\]]+)\.([^.\[\]]+)")


def touching_step(actions: list[Any], path: str) -> tuple[Any, int] | None:
    """The first step that sets a state field (``board.a.vessels``: ``a.vessels``), in the last action that does."""
    match = _FIELD_PATH.match(path)
    if match is None:
        return None
    key = f"{match.group(1)}.{match.group(2)}"
    for action in reversed(actions):
        hits = [i for i, step in enumerate(action.steps) if key in step.touches]
        if hits:
            return action, hits[0]
    return None


def step_for_engine_event(actions: list[Any], divergence: Divergence) -> tuple[Any, int] | None:
    """The step behind an engine event the model does not emit there: the step explaining its absence, or the
    step that chose a different unit for the same event."""
    engine, model = divergence.engine, divergence.model
    if not isinstance(engine, dict) or "name" not in engine:
        return None
    name = engine["name"]
    same = isinstance(model, dict) and model.get("name") == name
    if same and (model.get("unit"), model.get("detail")) != (engine.get("unit"), engine.get("detail")):
        return last_step_with(actions, lambda step: name in step.chooses)
    if same:
        return None
    absent = last_step_with(actions, lambda step: name in step.absent and accounts_for(step, engine))
    if absent is None and model is not None and divergence.shape != "left_out" and comes_later(actions, divergence):
        return last_step_with(actions, lambda step: name in step.chooses)  # the engine's order, not the model's
    if absent is not None or model is not None:
        return absent
    return last_step_with(actions, lambda step: name in step.events)  # past the model's last event: its own step


def accounts_for(step: Any, event: dict[str, Any]) -> bool:
    """Whether a step that explains an event's absence explains this one: a Passive line's step (400.8-1) only a
    line of a Passive line's effect (``effects``), not another line the engine resolved where the model's failed."""
    effects = step.quantities.get("effects")
    return effects is None or event.get("detail") in effects


def comes_later(actions: list[Any], divergence: Divergence) -> bool:
    """Whether the model emits the engine's diverging event too, after the place it diverges (an order swapped:
    the step that chose the order is at fault, ``Step.chooses``). An event that opens a line (:data:`LINE_HEADS`)
    is that later line's only with its amount too: two lines of one effect differ by their amounts, and a line
    resolved where the model's condition failed is that line, not the next line of its effect."""
    engine, index = divergence.engine, divergence.event_index
    events = [e for action in actions for e in action.events]
    if not isinstance(engine, dict) or index is None:
        return False
    same = ("name", "unit", "detail", "amount") if engine.get("name") in LINE_HEADS else ("name", "unit", "detail")
    return any(all(getattr(e, field) == engine.get(field) for field in same) for e in events[index + 1:])


def last_step_with(actions: list[Any], test: Any) -> tuple[Any, int] | None:
    for action in reversed(actions):
        hits = [i for i, step in enumerate(action.steps) if test(step)]
        if hits:
            return action, hits[-1]
    return None


def deciding_step(action: Any, found: int) -> int | None:
    """For a step that announces an outcome, the last step before it that decided it (``Step.decides``)."""
    if not action.steps[found].step in OUTCOME_STEPS:
        return None
    hits = [i for i in range(found) if action.steps[i].decides]
    return hits[-1] if hits else None


#: Steps that announce what earlier steps decided (a play's finish or undo): an event they name is placed at the
#: last deciding step before them.
OUTCOME_STEPS = ("finish", "undo")


#: Steps that land a number earlier steps made (a damage instance's Vitality step): an event they name is
#: placed at the step that produced its number instead.
RESULT_STEPS = ("vitality", "gate")
#: Steps that credit what an instance landed (500.5a): a credit the engine never gave is placed, like a missing
#: loss, at the step that decided the amount goes on (a Reflect skipping Armor, 500.7j).
CREDIT_STEPS = ("credit",)


def model_number(divergence: Divergence) -> Any:
    """The model's diverging number: the value itself, or the amount of the model's diverging event."""
    value = divergence.model
    if isinstance(value, dict):
        value = value.get("amount")
    return value if type(value) is int else None


def producer(action: Any, found: int, value: Any) -> int:
    """The step that produced the model's number, for an event a :data:`RESULT_STEPS` step names: the first step
    of the same instance (since its ``incoming`` step) whose result (``after``) is that number; else the step
    that names the event.

    A damage event is named by the Vitality step, but its amount was made earlier (the Armor
    step that rounded it, the cap, the Shield); that step is the one an engine author needs.
    """
    if value is None or action.steps[found].step not in RESULT_STEPS:
        return found
    start = instance_start(action, found)
    for i in range(start, found + 1):
        quantities = action.steps[i].quantities
        if quantities.get("after") == value and quantities.get("before") != value:
            return i
    return found


def carrier(action: Any, found: int, value: Any) -> int:
    """For a number no step of the instance produced, the last step of the instance that decided to carry it on
    unchanged (``Step.decides`` with that ``after``: Armor a Burn or a Reflect skips, 500.1d, 500.7j); else
    ``found``."""
    if value is None or action.steps[found].step not in RESULT_STEPS:
        return found
    hits = [i for i in range(instance_start(action, found), found)
            if action.steps[i].decides and action.steps[i].quantities.get("after") == value]
    return hits[-1] if hits else found




def explain_at_fault(scenario: dict[str, Any], first: Divergence) -> list[dict[str, Any]]:
    """The explain steps around the first divergence; empty when the scenario cannot be explained (a courtesy)."""
    try:
        return steps_at_fault(_public(scenario), first)
    except Exception:  # never lose the report for it
        return []
