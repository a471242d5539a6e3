"""The clause trail: which tagged model functions ran, in order, and where each event fell.

The model stays un-instrumented (``@combat.implements`` adds no wrapper). The harness
records a trail only when it reports a failure, by running the scenario once more under
``sys.setprofile``: every call of a function registered in
:data:`referee.model.clauses.IMPLEMENTATIONS` is a step, and every call of
``EventLog.emit`` whose condition holds is an event marker. Cutting the trail at the
model's ``k``-th event gives "the clauses the model applied up to the divergence".
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from referee.model.clauses import IMPLEMENTATIONS, clauses_of, load_all_model_modules
from referee.model.events import EventLog


@dataclass(frozen=True)
class Step:
    """One call of a tagged model function, or one emitted event (``function`` is None)."""

    function: str | None
    clauses: tuple[str, ...]
    depth: int
    event: str | None = None
    event_index: int | None = None

    def describe(self) -> str:
        indent = "  " * self.depth
        if self.event is not None:
            return f"{indent}-> event[{self.event_index}] {self.event}"
        return f"{indent}{self.function}  [{', '.join(self.clauses)}]"


def _tagged_codes() -> dict[Any, tuple[str, tuple[str, ...]]]:
    load_all_model_modules()
    codes: dict[Any, tuple[str, tuple[str, ...]]] = {}
    for functions in IMPLEMENTATIONS.values():
        for function in functions:
            code = getattr(function, "__code__", None)
            if code is not None:
                ids = tuple(str(c) for c in clauses_of(function))
                codes[code] = (f"{function.__module__.removeprefix('referee.model.')}.{function.__name__}", ids)
    return codes


def record(run: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[Step]]:
    """Call ``run(*args, **kwargs)`` and return its result with the trail of tagged calls."""
    codes = _tagged_codes()
    emit_code = EventLog.emit.__code__
    steps: list[Step] = []
    stack: list[Any] = []  # frames of tagged calls currently open
    events = 0

    def profile(frame: Any, what: str, arg: Any) -> None:
        nonlocal events
        code = frame.f_code
        if what == "call":
            if code in codes:
                name, ids = codes[code]
                steps.append(Step(name, ids, len(stack)))
                stack.append(frame)
            elif code is emit_code:
                when = frame.f_locals.get("when", True)
                if isinstance(when, bool) and when:
                    steps.append(Step(None, (), len(stack), frame.f_locals.get("name"), events))
                    events += 1
        elif what == "return" and stack and stack[-1] is frame:
            stack.pop()

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = run(*args, **kwargs)
    finally:
        sys.setprofile(previous)
    return result, steps


def cut(steps: list[Step], event_index: int | None) -> list[Step]:
    """The trail up to and including the model's ``event_index``-th event (all of it for None)."""
    if event_index is None:
        return steps
    for i, step in enumerate(steps):
        if step.event_index == event_index:
            return steps[: i + 1]
    return steps


def window(steps: list[Step], event_index: int) -> list[Step]:
    """The calls that made the model's ``event_index``-th event: those begun after the event before it, up to it.

    Every event before it agreed, so what diverged was made after the last of them. The calls
    that enclose the event's emitter (the pipeline around it, still open when it is emitted) are
    not in it, nor those still open from before the previous event; the emitter itself is. When
    the model has no such event (the engine emitted more), the window runs to the end of the trail.
    """
    start = 0
    for i, step in enumerate(steps):
        if step.event_index == event_index - 1:
            start = i + 1
        if step.event_index == event_index:
            return [s for j, s in enumerate(steps[start:i], start) if not _encloses(steps, j, i)] + [step]
    return steps[start:]


def _encloses(steps: list[Step], call: int, marker: int) -> bool:
    """The call at ``call`` is still open at the event ``marker`` and is not its innermost (emitting) call."""
    depth = steps[call].depth
    if steps[call].function is None or depth >= steps[marker].depth - 1:
        return False
    return all(s.depth > depth for s in steps[call + 1:marker])


def clauses_applied(steps: list[Step]) -> list[str]:
    """The distinct clause ids in trail order."""
    seen: dict[str, None] = {}
    for step in steps:
        for clause in step.clauses:
            seen.setdefault(clause, None)
    return list(seen)
