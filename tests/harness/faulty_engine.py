"""A JSON-lines engine that misbehaves on purpose, for the harness's fault tests.

``python faulty_engine.py MODE [N [SIZE]]``: answers like the clean example engine, except on
the N-th scenario the process reads (default 2), where, by MODE:

* ``crash``: exits with status 3;
* ``hang``: sleeps forever (with N = 1: an engine that never answers its first line);
* ``garbage``: prints a line that is not JSON;
* ``schema``: reports a unit's ``vitality`` as a string;
* ``missing``: leaves ``shield`` out of every unit;
* ``noid``: leaves the scenario's ``id`` out;
* ``raise``: (in-process use) raises an exception;
* ``flaky``: reports one Vitality too many, on that one call only (an engine keeping state
  across scenarios: the same scenario passes when it is run again);
* ``ctrlstderr``: writes control characters to stderr, then crashes;
* ``bigstderr``: writes SIZE MB (default 200) to stderr, a first and a last line that say what
  went wrong (as a Node engine does) around filler, then crashes;
* ``decimal``, ``set``: (in-process or worker use) a Decimal vitality, a set of events;
* ``osexit``: ``os._exit(0)`` (the in-process harness would end with it);
* ``bareexcept``: keeps sleeping for SIZE seconds (default 30), swallowing every interrupt
  with a bare ``except:``, then answers;
* ``swallowonce``: swallows one interrupt with a bare ``except:``, then keeps sleeping;
* ``print``: prints chatter to stdout before answering (a worker keeps it off the protocol).

``python faulty_engine.py bufcrash N [FILE]``: an engine that holds its answers until it has read
the whole batch (no more input waiting, as one that reads the batch first or block-buffers its
stdout), so that they die with it; it exits with status 3 on the N-th scenario it reads. With
FILE, the crash follows the scenario's content: the N-th scenario (its id left out) is written to
FILE, and once FILE exists the engine crashes on any scenario equal to it, and on no other (so it
also crashes when that scenario is sent alone, to a fresh process).

And, whatever the scenario, at start:

* ``closestdin``: closes its stdin and never answers;
* ``exitstart``: exits with status 0 before reading anything;
* ``daemon``: starts a child process that holds stdout open for an hour, then answers
  correctly (a wrapper script that starts a daemon);
* ``daemoncrash``: starts such a child, then crashes on the N-th scenario.

``faulty_engine:MODE_at_N`` (for ``--python``) is an engine function misbehaving by MODE on its
N-th call (see :func:`make`).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from decimal import Decimal

from referee.examples.engine import run

START_MODES = ("closestdin", "exitstart", "daemon", "daemoncrash")


def misbehave(mode: str, scenario: dict, size: float | None = None):
    """The answer for the faulty scenario (a dict, possibly not JSON; or a str line)."""
    observation = run(scenario)
    if mode in ("crash", "daemoncrash"):
        sys.stderr.write("faulty engine: deliberate crash\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "nodecrash":  # a Node engine's crash: the error line first, then a long stack
        sys.stderr.write("/app/engine.js:42\n    const s = unit.shield.pool;\n                       ^\n\n"
                         "TypeError: Cannot read properties of undefined (reading 'pool')\n")
        sys.stderr.write("".join(f"    at frame{i} (/app/engine.js:{i}:7)\n" for i in range(60)))
        sys.stderr.write("Node.js v20.11.1\n")
        sys.stderr.flush()
        sys.exit(1)
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
    if mode == "flaky":
        observation["board"][0]["vitality"] += 1
    if mode == "ctrlstderr":
        sys.stderr.write("bad \x00\x01\x08\x0b\x1b[31mred\x1b[0m \x07 \ufffe\ud7ff end\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "bigstderr":
        write_big_stderr(200 if size is None else size)
        sys.exit(3)
    if mode == "decimal":
        observation["board"][0]["vitality"] = Decimal("1.5")
    if mode == "set":
        observation["events"] = {"not", "a", "list"}
    if mode == "osexit":
        os._exit(0)
    if mode == "bareexcept":
        end = time.monotonic() + (30 if size is None else size)
        while time.monotonic() < end:
            try:
                time.sleep(0.01)
            except:  # noqa: E722 - the point of this mode
                pass
    if mode == "swallowonce":
        try:
            time.sleep(3600)
        except:  # noqa: E722 - the point of this mode
            pass
        time.sleep(3600)
    if mode == "print":
        print("chatter on stdout from the engine")
    return observation


def write_big_stderr(megabytes: float) -> None:
    """A first and a last line naming the error, around ``megabytes`` MB of filler."""
    sys.stderr.write("/srv/engine/damage.js:12\n    throw new TypeError('first line');\n")
    filler = ("x" * 1023 + "\n").encode() * 1024  # 1 MiB
    for _ in range(int(megabytes)):
        sys.stderr.buffer.write(filler)
    sys.stderr.write("TypeError: the last line of the stack\n")
    sys.stderr.flush()


def make(mode: str, nth: int = 2, size: float | None = None):
    """An in-process engine that misbehaves on its ``nth`` call."""
    calls = 0

    def engine(scenario: dict) -> dict:
        nonlocal calls
        calls += 1
        if calls == nth:
            answer = misbehave(mode, scenario, size)
            return json.loads(answer) if isinstance(answer, str) else answer
        return run(scenario)

    return engine


def __getattr__(name: str):
    """``MODE_at_N`` (``bareexcept_at_1``): an engine for ``--python faulty_engine:MODE_at_N``."""
    mode, sep, nth = name.partition("_at_")
    if sep and nth.isdigit():
        return make(mode, int(nth), 20 if mode == "bareexcept" else None)
    raise AttributeError(name)


def start_daemon() -> None:
    """A child that inherits stdout and stderr and outlives any answer (like a wrapper's daemon)."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])


def poisoned(scenario: dict, count: int, nth: int, poison: str | None) -> bool:
    """Whether ``bufcrash`` dies on this scenario: the ``nth`` read, or (with ``poison``) the one recorded there."""
    content = {k: v for k, v in scenario.items() if k != "id"}
    if poison is None:
        return count == nth
    if os.path.exists(poison):
        with open(poison) as handle:
            return json.load(handle) == content
    if count != nth:
        return False
    with open(poison, "w") as handle:
        json.dump(content, handle)
    return True


def write_held(held: list[str]) -> None:
    """Write the answers held, all at once, and forget them."""
    sys.stdout.write("".join(held))
    sys.stdout.flush()
    held.clear()


def buffered_main(nth: int, poison: str | None) -> None:
    """``bufcrash``: answers held until no more input is waiting (lost when it dies), a crash on one scenario."""
    held, pending, count = [], b"", 0
    while True:
        if held and not select.select([0], [], [], 0.2)[0]:  # the batch is read: write what was held
            write_held(held)
        chunk = os.read(0, 1 << 16)
        if not chunk:
            write_held(held)
            return
        *lines, pending = (pending + chunk).split(b"\n")
        for line in filter(bytes.strip, lines):
            count += 1
            scenario = json.loads(line)
            if poisoned(scenario, count, nth, poison):
                sys.stderr.write(f"faulty engine: deliberate crash on scenario {count} read\n")
                sys.stderr.flush()
                os._exit(3)  # what it held is lost
            held.append(json.dumps(run(scenario)) + "\n")


def main() -> None:
    mode = sys.argv[1]
    if mode == "bufcrash":
        buffered_main(int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
        return
    nth = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    size = float(sys.argv[3]) if len(sys.argv) > 3 else None
    if mode == "exitstart":
        sys.exit(0)
    if mode == "closestdin":
        os.close(0)
        time.sleep(3600)
    if mode == "closestdout":  # its output ends, the process goes on
        os.close(1)
        time.sleep(3600)
    if mode in ("daemon", "daemoncrash"):
        start_daemon()
    for count, line in enumerate(sys.stdin, start=1):
        scenario = json.loads(line)
        if count == nth and mode != "daemon":
            answer = misbehave(mode, scenario, size)
            out = answer if isinstance(answer, str) else json.dumps(answer)
        else:
            out = json.dumps(run(scenario))
        sys.stdout.write(out + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
