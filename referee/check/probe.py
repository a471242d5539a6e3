"""``referee check`` under an empty profile (``kinds = []``): the first check of a new engine.

A new engine implements no action kind yet (``referee init`` writes ``kinds = []``). Nothing can be compared
with the model, so the check asks the one thing that can be known: whether the engine speaks the protocol. It
sends one scenario of every action kind (the smallest Hypothesis finds, so the same every run) and passes when
each answer is either a valid observation or a refusal of that scenario's action kind by name
(``{"unsupported": {"kind": ..., "reason": ...}}``, docs/protocol.md "Refusing an action kind"). Anything else
(a crash, a hang, garbage, a malformed refusal, a refusal naming another kind) is an engine fault, exit 3. The
report says that nothing was compared, and which kinds the engine refuses: what to build next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .. import rulebooks


@dataclass
class ProbeReport:
    """What the engine did with each action kind's scenario: answered it, refused it by name, or faulted."""

    engine: str
    answered: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # kind -> the engine's reason
    faults: list[Any] = field(default_factory=list)  # EngineFault, in kind order

    @property
    def ok(self) -> bool:
        return not self.faults

    def to_json(self) -> dict[str, Any]:
        return {"status": "pass" if self.ok else "fault", "profile": "empty", "compared": "nothing",
                "engine": self.engine, "answered": self.answered, "refused": self.refused,
                "faults": [fault.to_json() for fault in self.faults]}


@lru_cache(maxsize=None)
def probe_scenario(kind: str) -> dict[str, Any]:
    """A small scenario whose actions are of ``kind``: Hypothesis's first, derandomized draw (the same every run,
    and its simplest: no shrinking needed)."""
    from hypothesis import HealthCheck, Phase, find, settings

    from .strategies import scenarios

    quiet = settings(database=None, derandomize=True, suppress_health_check=list(HealthCheck), max_examples=50,
                     phases=(Phase.generate,))  # the first scenario drawn (Hypothesis draws its simplest first)
    return find(scenarios((kind,), max_actions=1), lambda scenario: True, settings=quiet)


def probe_kinds() -> tuple[str, ...]:
    """Every action kind of every rulebook, in the order the protocol lists them."""
    return tuple(rulebooks.ACTION_KINDS)


def run_probe(engine: Any, name: str) -> ProbeReport:
    """Send each kind's probe scenario (ids ``probe-<kind>``) and sort the answers."""
    from ..engines.transports import EngineFault, check_answer

    kinds = probe_kinds()
    batch = [{**probe_scenario(kind), "id": f"probe-{kind}"} for kind in kinds]
    report = ProbeReport(name)
    engine.start()
    try:
        answers = engine.run_batch(batch)
    finally:
        engine.close()
    for kind, scenario, answer in zip(kinds, batch, answers):
        verdict = check_answer(answer, scenario, fields_needed=None, events_needed=True)
        if isinstance(verdict, EngineFault) and verdict.kind == "unsupported":
            report.refused[kind] = answer["unsupported"].get("reason", "")
        elif isinstance(verdict, EngineFault):
            report.faults.append(verdict)
        else:
            report.answered.append(kind)
    return report


def describe(report: ProbeReport) -> str:
    """The probe's report, in the shape of every check report: the verdict, then what it covered."""
    lines = [f"referee check: {'PASS' if report.ok else 'ENGINE FAULT'} (empty profile: kinds = [], nothing "
             "compared with the model)",
             f"  engine:   {report.engine}",
             f"  probed:   {len(probe_kinds())} action kinds, one scenario each: "
             + ("every answer follows referee/2" if report.ok else f"{len(report.faults)} answer(s) do not")]
    if report.answered:
        lines.append(f"  answers:  {', '.join(report.answered)} (valid observations, not compared: declare them "
                     "in `kinds` to check them)")
    if report.refused:
        lines.append(f"  refuses:  {', '.join(report.refused)} (by name)")
    lines += [f"  fault:    {fault.describe()}" for fault in report.faults]
    lines.append(f"  next:     {next_step(report)}")
    return "\n".join(lines)


def next_step(report: ProbeReport) -> str:
    """What to do next: fix the faults, else declare what the engine answers, else build the first kind."""
    if report.faults:
        return "answer every scenario with an observation or a refusal by name (docs/protocol.md)"
    if report.answered:
        return f"declare kinds = {list_words(report.answered)} in referee.toml, and run referee check again"
    first = next(iter(report.refused), "damage")
    return (f"implement `{first}` (docs/protocol.md \"{first}\"), then declare kinds = [\"{first}\"] in "
            "referee.toml")


def list_words(kinds: list[str]) -> str:
    """A TOML list of kind names."""
    return "[" + ", ".join(f'"{kind}"' for kind in kinds) + "]"
