"""``python -m referee.engines.worker package.module:function``: a Python engine behind JSON lines.

``referee check --python`` runs the function here, in a process of its own, so that what an
in-process call cannot survive is an engine fault like any other: the harness kills this
process on ``--timeout`` (a ``bare except:`` cannot swallow a SIGKILL), and an ``os._exit``
is an engine that exited before answering. One scenario per stdin line, one answer per
stdout line, in order. A call that raises, or returns a value JSON cannot carry (a Decimal,
a set, NaN), is answered by a fault line ``{"__referee_worker_fault__": {kind, message,
detail}}``, which the harness turns into the fault. What the engine prints goes to stderr:
the protocol's stdout is kept apart before the function is imported.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

from referee.engines.io import WORKER_FAULT, WORKER_READY_LINE, _cut, bounded_text, load_callable, non_json_path


def answer_line(function: Any, scenario: Any) -> str:
    """The line answering one scenario: the observation, or a fault line."""
    try:
        answer = function(scenario)
    except (Exception, SystemExit) as error:  # an engine calling sys.exit() crashed too
        return _fault("crash", f"the engine raised {type(error).__name__}: {_cut(str(error))}", bounded_text(traceback.format_exc()))
    try:
        return json.dumps(answer, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as error:
        problem = non_json_path(answer) or str(error)
        return _fault("schema", f"{problem} (an answer must be plain JSON data)")


def _fault(kind: str, message: str, detail: str = "") -> str:
    return json.dumps({WORKER_FAULT: {"kind": kind, "message": message, "detail": detail}})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m referee.engines.worker package.module:function\n")
        return 2
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the engine's own prints land on stderr, not in the protocol
    try:
        function = load_callable(args[0])
    except ValueError as error:
        sys.stderr.write(f"referee.engines.worker: {error}\n")
        return 2
    protocol_out.write(WORKER_READY_LINE)  # the worker's own start is over: the engine's timeouts start now
    protocol_out.flush()
    for line in sys.stdin:
        try:
            scenario = json.loads(line)
        except ValueError as error:
            out = _fault("crash", f"referee.engines.worker: not a JSON scenario line: {error}")
        else:
            out = answer_line(function, scenario)
        protocol_out.write(out + "\n")
        protocol_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
