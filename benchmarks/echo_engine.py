"""The echo engine: it answers each scenario with the model's own observation, looked up, not computed.

A benchmark's ceiling (issue #38): ``referee check`` against an engine that costs nothing measures the
harness alone (drawing, encoding, the model's run, decoding, the comparison, the bookkeeping), beside
the example engine and a compiled one. The answers are the model's observations of the scenarios the
benchmark will draw, recorded beforehand (``EchoEngine(learn=True)``) and keyed by the scenario's canonical JSON
(its ``id`` left out); a scenario not in the table is answered by running the model then (a *miss*,
counted: a row with misses is not a ceiling, and the benchmark says so).

In-process: ``EchoEngine(table).run``; over JSON lines: ``python benchmarks/echo_engine.py``, its table
read from the JSON-lines file named by ``ECHO_ANSWERS`` (one ``[key, observation]`` a line,
:func:`write_table`). It lives with the benchmarks, not with the example engines: it answers with the
model itself, which an example engine, written independently, never imports.
"""

from __future__ import annotations

import json
import os
from typing import Any

import orjson

#: The environment variable naming the answers file of the JSON-lines engine.
ANSWERS_VARIABLE = "ECHO_ANSWERS"


def scenario_key(scenario: dict[str, Any]) -> bytes:
    """The scenario as canonical JSON, its ``id`` left out: the same scenario drawn twice has the same key."""
    return orjson.dumps({k: v for k, v in scenario.items() if k != "id"}, option=orjson.OPT_SORT_KEYS)


def model_answer(scenario: dict[str, Any]) -> dict[str, Any]:
    """The model's observation of the scenario in the protocol's form (any rulebook), as an engine answers."""
    from referee import rulebooks
    from referee.protocol import decode_scenario, encode_observation

    decoded = decode_scenario(scenario)
    state, events = rulebooks.get(decoded.rulebook).run(decoded)
    return encode_observation(decoded.rulebook, state, events, decoded.id)


class EchoEngine:
    """Answers from a table of the model's observations; a scenario outside it is a miss, answered by the model
    (and, while ``learn``, added to the table: a first pass records the scenarios a benchmark draws)."""

    def __init__(self, table: dict[bytes, dict[str, Any]] | None = None, learn: bool = False) -> None:
        self.table = table if table is not None else {}
        self.learn = learn
        self.misses = 0

    def run(self, scenario: dict[str, Any]) -> dict[str, Any]:
        key = scenario_key(scenario)
        answer = self.table.get(key)
        if answer is None:
            self.misses += 1
            answer = model_answer(scenario)
            if self.learn:
                self.table[key] = answer
        answer = dict(answer)
        if "id" in scenario:
            answer["id"] = scenario["id"]
        return answer


def write_table(table: dict[bytes, dict[str, Any]], path: str) -> None:
    """The table as JSON lines, one ``[key, observation]`` a line (the JSON-lines engine reads it at start)."""
    with open(path, "w", encoding="utf-8") as out:
        for key, observation in table.items():
            out.write(json.dumps([key.decode(), observation], separators=(",", ":")) + "\n")


def read_table(path: str) -> dict[bytes, dict[str, Any]]:
    table = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            key, observation = json.loads(line)
            table[key.encode()] = observation
    return table


def main() -> None:
    """The JSON-lines loop of the example engine, answering from the table ``ECHO_ANSWERS`` names."""
    from referee.examples.engine import serve

    path = os.environ.get(ANSWERS_VARIABLE)
    serve(EchoEngine(read_table(path) if path else None).run)


if __name__ == "__main__":
    main()
