"""A JSON-lines engine that misbehaves on purpose, for the harness's fault tests.

``python faulty_engine.py MODE [N]``: answers like the clean example engine, except on
the N-th scenario (default 2), where, by MODE:

* ``crash``: exits with status 3;
* ``hang``: sleeps forever;
* ``garbage``: prints a line that is not JSON;
* ``schema``: reports a unit's ``vitality`` as a string;
* ``missing``: leaves ``shield`` out of every unit;
* ``noid``: leaves the scenario's ``id`` out;
* ``raise``: (in-process use) raises an exception.
"""

from __future__ import annotations

import json
import sys
import time

from referee.examples.engine import run


def misbehave(mode: str, scenario: dict) -> str | None:
    """The line to print for the faulty scenario (None: the mode already acted)."""
    observation = run(scenario)
    if mode == "crash":
        sys.stderr.write("faulty engine: deliberate crash\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
    if mode == "garbage":
        return "this is not json {"
    if mode == "schema":
        observation["board"][0]["vitality"] = "lots"
    if mode == "missing":
        for unit in observation["board"]:
            unit.pop("shield", None)
    if mode == "noid":
        observation.pop("id", None)
    if mode == "raise":
        raise RuntimeError("deliberate engine bug")
    return json.dumps(observation)


def make(mode: str, nth: int = 2):
    """An in-process engine that misbehaves on its ``nth`` call."""
    calls = 0

    def engine(scenario: dict) -> dict:
        nonlocal calls
        calls += 1
        if calls == nth:
            return json.loads(misbehave(mode, scenario))
        return run(scenario)

    return engine


def main() -> None:
    mode = sys.argv[1]
    nth = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for count, line in enumerate(sys.stdin, start=1):
        scenario = json.loads(line)
        out = misbehave(mode, scenario) if count == nth else json.dumps(run(scenario))
        sys.stdout.write(out + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
