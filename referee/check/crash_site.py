"""Which scenario a JSON-lines engine died on, confirmed in fresh engine processes.

An engine that dies mid-batch is first blamed for the scenario after its last answer. That is the one it died on
only if it wrote each answer as it went. An engine that reads the whole batch before it answers, or whose stdout is
block-buffered (C's stdio, a ``BufWriter``), loses the answers it held when it dies: none reached referee, and the
scenario after "its last answer" is the batch's first, which it may answer fine. So a death (``EngineFault.died``)
is confirmed, each try a fresh process of the same program (``Engine.fresh_answers``):

1. the blamed scenario alone: if it kills a fresh engine, ``alone``;
2. else each later scenario of the batch alone, in order: the first that kills a fresh engine is ``isolated``;
3. else no scenario faults alone, and the fault needs the stream: the shortest prefix of the batch that kills a fresh
   engine (the one up to the blamed scenario first, else the whole batch, then by bisection) is ``sequence``: the
   scenario blamed is the prefix's last, and the replay input holds the prefix;
4. else ``unconfirmed``: not even the batch as sent kills a fresh engine (what the engine was sent in earlier batches
   is part of it, or it is not deterministic), or the run's ``--engine-budget`` ran out first. The scenario after the
   engine's last answer stays blamed, and the report says it was not confirmed.

Every try is bounded by ``--timeout`` and counts against ``--engine-budget``; there are at most the batch's size plus
its bisection's tries.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engines.transports import Engine, EngineFault

HOWS = ("alone", "isolated", "sequence", "unconfirmed")


@dataclass
class Site:
    """Where an engine died in a batch: the scenario's 1-based ``position`` in the batch of ``size``, found ``how``
    (one of :data:`HOWS`) after ``tries`` fresh engines; ``prefix``: the scenarios a replay must send (``sequence``)."""

    how: str
    position: int
    size: int
    answered: int
    tries: int
    prefix: int = 1
    budget_spent: bool = False

    def note(self) -> str:
        """The finding, in words: what was tried, what it showed."""
        p, n, k = self.position, self.size, self.answered
        died = f"the engine died having answered {k} of a batch of {n}"
        if self.how == "alone":
            return (f"confirmed alone: {died}; scenario {p}, the one after its last answer, crashes a fresh engine "
                    "by itself")
        if self.how == "isolated":
            return (f"isolated among {n - k}: {died} (an engine that holds its answers until it has read the "
                    f"batch, or buffers its stdout, loses them when it dies); scenario {k + 1}, the one after its last "
                    f"answer, does not crash a fresh engine alone; scenario {p} does, the first of the batch's "
                    f"unanswered scenarios that does ({self.tries} fresh engines tried)")
        if self.how == "sequence":
            return (f"needs the sequence: the engine died at position {p} of a batch of {n}; no scenario of it faults "
                    f"alone: the fault depends on what came before; the batch's first {p} scenarios crash a fresh "
                    f"engine, and the replay input holds them ({self.tries} fresh engines tried)")
        why = (f"the run's --engine-budget was spent after {self.tries} fresh engines" if self.budget_spent else
               "neither any of its unanswered scenarios alone nor the batch as sent crashes a fresh engine: the fault "
               "depends on what the engine was sent before this batch, or is not deterministic")
        return f"not confirmed: {died}; {why}; the scenario shown is the one after its last answer"

    def to_json(self) -> dict[str, Any]:
        return {"how": self.how, "position": self.position, "batch": self.size, "answered": self.answered,
                "tries": self.tries, "replay_lines": self.prefix, "note": self.note()}


class _Tries:
    """Fresh engines sent parts of one batch, counted; :meth:`dies` is None once no fresh engine can run."""

    def __init__(self, engine: Engine, batch: list[dict[str, Any]]) -> None:
        self.engine, self.batch, self.count, self.budget_spent = engine, batch, 0, False

    def dies(self, scenarios: list[dict[str, Any]]) -> bool | None:
        """Whether a fresh engine sent ``scenarios`` alone dies (ends its output before answering them all)."""
        if getattr(self.engine, "spent", 0.0) >= getattr(self.engine, "engine_budget", float("inf")):
            self.budget_spent = True
            return None
        answers = self.engine.fresh_answers(scenarios)
        if answers is None:
            return None
        self.count += 1
        return any(isinstance(a, EngineFault) and a.died for a in answers)


def locate_death(engine: Engine, batch: list[dict[str, Any]], index: int,
                 fault: EngineFault) -> tuple[Site, EngineFault] | None:
    """Where the engine died in ``batch``, whose scenario at ``index`` (the one after its last answer) got the death
    ``fault``; and the fault for the scenario it died on. None: the engine has no process to start afresh."""
    tries = _Tries(engine, batch)
    site = _alone(tries, index)
    if site is None and tries.count == 0 and not tries.budget_spent:
        return None
    if site is None and not tries.budget_spent:
        site = _sequence(tries, index)
    if site is None:
        site = Site("unconfirmed", index + 1, len(batch), index, tries.count, budget_spent=tries.budget_spent)
    return site, _located_fault(fault, site, batch)


def _alone(tries: _Tries, index: int) -> Site | None:
    """The first scenario from ``index`` on that kills a fresh engine alone (``alone`` or ``isolated``)."""
    for at in range(index, len(tries.batch)):
        dies = tries.dies([tries.batch[at]])
        if dies is None:
            return None
        if dies:
            how = "alone" if at == index else "isolated"
            return Site(how, at + 1, len(tries.batch), index, tries.count)
    return None


def _sequence(tries: _Tries, index: int) -> Site | None:
    """The shortest prefix of the batch, past ``index``, that kills a fresh engine (``sequence``); None if the whole
    batch does not (or the budget ran out). The prefix up to ``index`` is tried first: an engine that writes each
    answer as it goes died there. Alone, the first scenario is its own prefix (tried already)."""
    batch, low, high = tries.batch, index + 1, len(tries.batch)
    if index > 0:
        dies = tries.dies(batch[:low])
        if dies is None:
            return None
        if dies:
            return Site("sequence", low, len(batch), index, tries.count, prefix=low)
    if high == low or not tries.dies(batch):
        return None
    while high - low > 1:  # batch[:low] survives, batch[:high] dies
        middle = (low + high) // 2
        dies = tries.dies(batch[:middle])
        if dies is None:
            return None
        low, high = (low, middle) if dies else (middle, high)
    return Site("sequence", high, len(batch), index, tries.count, prefix=high)


def _located_fault(fault: EngineFault, site: Site, batch: list[dict[str, Any]]) -> EngineFault:
    """The fault for the scenario the engine died on: its message names that scenario when it is not the one after
    the engine's last answer (whose message may call it a dead start, which it was not)."""
    message = fault.message
    if site.how in ("isolated", "sequence"):
        head = fault.message.partition(" before answering")[0]
        message = (f"{head} before answering: it died on scenario {site.position} of a batch of {site.size}, "
                   f"having answered {site.answered}")
    return replace(fault, message=message, scenario=batch[site.position - 1], located=site.to_json())
