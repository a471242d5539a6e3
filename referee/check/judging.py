"""The model side of a scenario and the verdict on one answer: expect, judge, and the engine's answers to a batch.

``judge`` is the one place an engine's answer meets the model's observation; every verb (``check``, ``vectors run``,
``exhaust``, ``validate``) judges through it, and the grouping (:mod:`referee.check.grouping`) keys what it judged.
"""

from __future__ import annotations

from typing import Any

from .. import rulebooks
from . import interrupts
from .compare import Comparison, compare
from ..engines.transports import Engine, EngineFault, check_answer
from ..protocol import Observation, ProtocolError, decode_scenario, rulebook_of
from ..trail import Step


def model_observation(scenario: dict[str, Any], stats: Any = None) -> Observation:
    """Run a scenario (JSON) through the model: the final state and the events.

    ``stats`` (``--stats``): the run is the one ``Stats`` counts, noting the clauses it applied (no second run).
    """
    decoded = decode_scenario(scenario)
    book = rulebooks.get(decoded.rulebook)
    state, events = book.run(decoded) if stats is None else stats.run(book, decoded, scenario)
    return book.observation(state, events, decoded.id)


def model_trail(scenario: dict[str, Any]) -> list[Step]:
    """The model's clause trail for a scenario: every tagged function it called, and its events."""
    decode_scenario(scenario)
    return rulebooks.of_scenario(scenario).observe(scenario)[2]


def expect(scenario: dict[str, Any], stats: Any = None) -> Observation | tuple[str, str]:
    """What the model observes of a scenario, or ``("model-error", text)`` (never a traceback); ``stats``: see
    :func:`model_observation`."""
    try:
        return model_observation(scenario, stats)
    except ProtocolError as error:
        return "model-error", f"invalid scenario: {error}"
    except Exception as error:  # a model bug: report it, never a traceback
        return "model-error", f"the model raised {type(error).__name__}: {error}"


def judge(scenario: dict[str, Any], answer: Any, comparison: Comparison,
          expected: Observation | tuple[str, str] | None = None) -> tuple[str, Any]:
    """One scenario: ``("ok", None)``, ``("mismatch", divergences)``, ``("fault", fault)``, ``("model-error", text)``.

    ``expected``: what :func:`expect` made of the scenario, when it ran already (while the engine answered).
    """
    expected = expect(scenario) if expected is None else expected
    if isinstance(expected, tuple) and expected[0] == "model-error":
        return expected
    observed = check_answer(
        answer, scenario, fields_needed=comparison.unit_fields, events_needed=comparison.compares_events,
        event_fields=comparison.event_fields,
    )
    if isinstance(observed, EngineFault):
        return "fault", observed
    divergences = compare(expected, observed, comparison, rulebook_of(scenario))
    return ("mismatch", divergences) if divergences else ("ok", None)


def send_and_expect(engine: Engine, batch_scenarios: list[dict[str, Any]],
                    stats: Any = None) -> tuple[list[Any], list[Any]]:
    """The engine's answers and the model's expectations (an engine in another process answers while the model runs);
    ``stats``: ``--stats`` notes what each of these model runs applied."""
    engine.submit(batch_scenarios)
    expected = [expect(scenario, stats) for scenario in batch_scenarios]
    return engine_answers(engine, batch_scenarios), expected


def engine_answers(engine: Engine, batch_scenarios: list[dict[str, Any]]) -> list[Any]:
    """The engine's answers to a batch, never those of an engine a signal killed.

    A SIGTERM kills every engine process at once (``referee.check.interrupts``); its exception can be lost (raised
    inside a finaliser), and the killed engine's answers then read as a crash. Once a signal is recorded, the
    answers are not judged: the signal is raised again, and the run reports itself interrupted, not an engine fault.
    """
    answers = engine.run_batch(batch_scenarios)
    interrupts.raise_if_received()
    return answers


def _public(scenario: dict[str, Any]) -> dict[str, Any]:
    out = dict(scenario)
    out.pop("id", None)
    return out
