"""Engines under test: a Python callable, or any program speaking JSON lines.

Both adapters take a batch of scenarios (JSON objects) and return, per scenario, either
the engine's raw answer (a JSON object) or an :class:`EngineFault`. A fault is never an
exception escaping the harness: it names what went wrong (``crash``, ``hang``,
``garbage``, ``schema``, ``missing``), carries the scenario, and the adapter restarts the
engine so that the rest of the batch still runs.

JSON lines: the engine reads one scenario per line on stdin and writes one observation
per line on stdout, in the same order, flushing after each. The harness writes a whole
batch before it reads, on a writer thread, while reader threads drain stdout and stderr,
so a large batch cannot deadlock on full pipes. Every pipe is a raw file descriptor owned
by its thread and polled with a short ``select``, so the harness never blocks on a pipe
that some other process holds open (a wrapper script's daemon keeping stdout open).

The program runs in its own process group (``start_new_session``); the whole group is
killed on a timeout, a fault, the end of the run and a ``SIGTERM`` to referee
(``referee.check.interrupts``, for every verb). Of its stderr the harness keeps the first and
the last few KiB and the total size (:class:`StreamCapture`), never the whole stream.

A program that gives no answer at all to the first scenario after it was started (it
hangs, or exits at once) is a *dead start*: it is not restarted again, and every later
scenario of the run is a fault at once, instead of one restart and one timeout each. The
whole run's waiting on the engine is bounded too (``engine_budget``).

``--python package.module:function`` runs the function in a worker process
(``referee.engines.worker``, a small JSON-lines shim), so that a hang the function itself catches,
an ``os._exit``, or a non-JSON value is a fault like any other. :class:`PythonEngine` calls
a function in-process instead (``--in-process``; the pytest plugin and the CrossHair
backend need it): faster; ``os._exit`` is intercepted there for the length of each call (a crash
fault), but a signal that kills the process ends the harness with it.
"""

from __future__ import annotations

import atexit
import errno
import hashlib
import json
import math
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

try:
    import _signal  # the C module under signal
except ImportError:  # pragma: no cover - not CPython
    _signal = signal  # type: ignore[assignment]

from .io import (  # noqa: F401 - the worker's helpers, part of this module's interface
    STDERR_HEAD,
    STDERR_TAIL,
    WORKER_FAULT,
    WORKER_READY_LINE,
    StreamCapture,
    _cut,
    _is_plain_json,
    bounded_text,
    load_callable,
    non_json_path,
)
from ..protocol import PROTOCOL, ProtocolError, decode_observation, rulebook_of

FAULT_KINDS = ("crash", "hang", "garbage", "schema", "missing", "unsupported")
DEFAULT_TIMEOUT = 5.0
#: The first answer after (re)starting a subprocess may also wait this long for the engine's startup
#: (None: ``--timeout`` again, so that an engine answering nothing is reported within twice ``--timeout``).
STARTUP_GRACE: float | None = None
#: A ``--python`` worker's own start (the interpreter, referee, the engine's module) before it says it is
#: ready (:data:`WORKER_READY`); only then the engine's startup grace and ``--timeout`` run.
WORKER_START = 30.0
#: The whole run may wait this many seconds on the engine, in all (``--engine-budget``).
DEFAULT_ENGINE_BUDGET = 900.0
#: A stdout line longer than this is garbage (the harness stops reading it).
MAX_LINE_BYTES = 64 * 1024 * 1024
#: How often the threads and the waiting loop look up from a pipe (seconds).
POLL = 0.05
#: Once the engine has exited, how long the answers it wrote before it died may take to reach the harness: its
#: stdout is read to its end (or until a process it started, still holding stdout open, keeps it this long).
EXIT_DRAIN = 1.0


@dataclass
class EngineFault:
    """The engine failed to answer one scenario properly."""

    kind: str  # one of FAULT_KINDS
    message: str
    scenario: dict[str, Any] | None = None
    detail: str = ""  # stderr head and tail, traceback, the offending line
    #: The program ended its output before answering (it died): the scenario after its last answer is only where
    #: it died if it wrote each answer as it went (``referee.check.crash_site`` confirms it in fresh processes).
    died: bool = False
    #: How ``referee.check.crash_site`` found the scenario it died on (``how``, ``position``, ``note``, ...).
    located: dict[str, Any] | None = None

    def describe(self) -> str:
        text = f"engine fault ({self.kind}): {self.message}"
        if self.located:
            text += "\n" + self.located["note"]
        if self.detail:
            text += "\n" + "\n".join("    " + line for line in shown_lines(self.detail))
        return text

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "scenario": self.scenario, "detail": self.detail,
                "located": self.located}


def shown_lines(detail: str, first: int = 8, last: int = 12, width: int = 300) -> list[str]:
    """The first and the last lines of a detail, each cut to ``width``: a Node engine's error line is its
    fifth (file:line, the code, a caret, a blank line, then the error), a Python traceback's its last."""
    lines = detail.rstrip().split("\n")  # not splitlines(): a stray \x0b or \x1c in stderr is no line break
    if len(lines) > first + last:
        lines = lines[:first] + [f"... ({len(lines) - first - last} lines not shown)"] + lines[-last:]
    return [line if len(line) <= width else line[:width] + "..." for line in lines]


Answer = dict[str, Any] | EngineFault


class EngineStartError(RuntimeError):
    """The engine program could not be started at all (a usage error, not a fault)."""


class Engine:
    """The interface: ``run_batch(scenarios) -> answers``, and ``close()``."""

    name = "engine"
    batch_size = 1
    #: What keys the example database (``referee.check.examples_database._digest``): a declared name, else a digest of what
    #: the engine runs (:func:`identity_of`); None: the name (an engine built in a test).
    identity: str | None = None

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:  # pragma: no cover - interface
        raise NotImplementedError

    def submit(self, scenarios: list[dict[str, Any]]) -> None:
        """Let the engine start on a batch that ``run_batch(scenarios)`` will collect next (by default nothing:
        ``run_batch`` does all the work). An engine in another process answers while the harness runs the model."""

    def start(self) -> None:
        """Get ready to answer (start a process); raises :class:`EngineStartError` if impossible."""

    def fresh_answers(self, scenarios: list[dict[str, Any]]) -> list[Answer] | None:
        """The answers of a freshly started engine, sent ``scenarios`` alone, up to its first fault; None: this
        engine has no process to start afresh (an in-process function, whose every fault is its own call's)."""
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def check_timeout(timeout: float, option: str = "--timeout") -> float:
    """A per-scenario timeout must be a positive, finite number of seconds (0 is not 'off')."""
    if not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"{option} {timeout!r}: expected a positive number of seconds (there is no 'off')")
    return float(timeout)


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (the engine may mutate what it is given).

    A dict or a list is copied whole at C speed (``dict.copy``, ``list.copy``) and only its
    own dicts and lists are copied again: the same copy as one recursive call per value, for
    a fifth of the time on a scenario (a unit's 55 fields are scalars)."""
    kind = type(value)
    if kind is dict:
        out = value.copy()
        for key, item in value.items():
            if type(item) is dict or type(item) is list:
                out[key] = _copy(item)
        return out
    if kind is list:
        out_list = value.copy()
        for i, item in enumerate(value):
            if type(item) is dict or type(item) is list:
                out_list[i] = _copy(item)
        return out_list
    return value


class _EngineExit(BaseException):
    """Raised in place of ``os._exit`` inside an in-process engine (a BaseException: the engine's own
    ``except Exception`` cannot swallow it)."""


def _refuse_exit(status: int = 0) -> None:
    """``os._exit`` while an in-process engine runs: the engine's call ends, never the harness."""
    raise _EngineExit(status)


#: The real ``os._exit``, for the termination handler (the engine's call may have replaced it).
_REAL_EXIT = os._exit


class _Timeout(BaseException):
    """Raised by the alarm inside a hung in-process engine (a BaseException: the engine's
    own ``except Exception`` cannot swallow it)."""


def add_import_paths(paths: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Put each ``--path`` folder, then the current directory, first on ``sys.path`` (as pytest puts
    its rootdir), so ``--python mymodule:run`` finds ``./mymodule.py``; a ``--python`` worker
    inherits the same path. The folders added, in order."""
    added = []
    for folder in reversed([*paths, os.getcwd()]):
        folder = os.path.abspath(folder)
        if not os.path.isdir(folder):
            raise ValueError(f"--path {folder!r}: no such folder")
        if folder not in sys.path:
            sys.path.insert(0, folder)
            added.insert(0, folder)
    return added


class PythonEngine(Engine):
    """An in-process engine: a callable from a scenario dict to an observation dict.

    A raised exception is a ``crash`` fault; a call running past ``timeout`` seconds is
    interrupted (by ``SIGALRM``, on the main thread, repeated every 0.1 s so that one bare
    ``except:`` in the engine does not defeat it) and is a ``hang`` fault, as is a call that
    returns after swallowing every interrupt. A value JSON cannot carry (a Decimal, a set)
    is a ``schema`` fault. ``os._exit`` is replaced, for the length of the call, by a function raising
    :class:`_EngineExit` (a ``crash`` fault naming the status), so an engine calling it cannot end the
    run without a report. What no in-process engine can survive is a signal that kills the process
    (``os.kill(os.getpid(), SIGKILL)``) or ``posix._exit`` called by that name: that is what the worker
    process (:func:`python_worker`) is for.
    """

    def __init__(self, function: Callable[[dict[str, Any]], Any] | str, timeout: float = DEFAULT_TIMEOUT,
                 engine_budget: float = DEFAULT_ENGINE_BUDGET) -> None:
        self.function = load_callable(function) if isinstance(function, str) else function
        self.name = function if isinstance(function, str) else _callable_name(function)
        self.timeout = check_timeout(timeout)
        self.engine_budget = check_timeout(engine_budget, "--engine-budget")
        self.spent = 0.0  # seconds spent in the engine, in all
        self._alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        self._flags: dict[str, bool] = _IDLE

    def run_one(self, scenario: dict[str, Any]) -> Answer:
        return self.run_batch([scenario])[0]

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        """Each scenario in turn. The alarm's handler is installed once per batch (and the previous one put
        back after it); the interval timer runs per scenario, stopped as each answer comes back."""
        if not self._alarm:
            return [self._call(s) for s in scenarios]
        outer, armed_at = signal.getitimer(signal.ITIMER_REAL), time.monotonic()
        previous = _set_handler(signal.SIGALRM, self._on_alarm)
        try:
            return [self._call(s) for s in scenarios]
        finally:
            self._flags = _IDLE
            _set_handler(signal.SIGALRM, previous)
            _rearm(outer, time.monotonic() - armed_at)

    def _on_alarm(self, signum: int, frame: Any) -> None:
        flags = self._flags
        if flags is _IDLE:  # between two scenarios (the timer is stopped already)
            return
        flags["fired"] = True
        if flags["active"]:
            raise _Timeout()

    def _call(self, scenario: dict[str, Any]) -> Answer:
        """One scenario: the engine's answer as plain JSON, or the fault (crash, hang, schema)."""
        if self.spent >= self.engine_budget:
            return EngineFault("hang", f"not run: the run's engine time is spent ({self.spent:.1f} s of "
                                       f"--engine-budget {self.engine_budget:g} s)", scenario)
        flags = self._flags = {"active": True, "fired": False}
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, self.timeout, 0.1)
        started = time.perf_counter()
        os._exit = _refuse_exit  # type: ignore[assignment]
        try:
            answer = self.function(_copy(scenario))
            flags["active"] = False
        except _EngineExit as exited:
            return EngineFault("crash", f"the engine called os._exit({exited.args[0] if exited.args else ''}) "
                                        "(in-process: the call was ended, the run goes on)", scenario)
        except _Timeout:
            flags["active"] = False  # a repeat of the alarm must not interrupt the harness itself
            return EngineFault("hang", f"no answer within {self.timeout:g} s (--timeout)", scenario)
        except (Exception, SystemExit) as error:  # an engine calling sys.exit() crashed too
            tb = bounded_text(traceback.format_exc())
            return EngineFault("crash", f"the engine raised {type(error).__name__}: {_cut(str(error))}", scenario, tb)
        finally:
            os._exit = _REAL_EXIT
            flags["active"] = False
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
            self.spent += time.perf_counter() - started
        if flags["fired"]:
            took = time.perf_counter() - started
            message = (f"no answer within {self.timeout:g} s (--timeout): it answered after {took:.1f} s, "
                       "having caught the harness's timeout interrupt (a bare except?)")
            return EngineFault("hang", message, scenario)
        return _plain_answer(answer, scenario)


def _rearm(outer: tuple[float, float], elapsed: float) -> None:
    """Put back the interval timer that was running before a batch (a test runner's per-test timeout, a host
    program's own alarm), less the time the batch took: the per-scenario timer shares it, and a harness that
    cancelled another's alarm would silently switch its timeout off. One already due fires at once."""
    delay, interval = outer
    if delay > 0:
        signal.setitimer(signal.ITIMER_REAL, max(delay - elapsed, 0.001), interval)


#: ``signal.signal`` without its enum conversions (``signal.signal`` is this C function wrapped in two of them; what
#: it returns goes straight back into it): the harness's one batch is often one scenario.
_set_handler = getattr(_signal, "signal", signal.signal)
#: The alarm's flags between two scenarios: a late alarm marks nothing and interrupts nothing.
_IDLE: dict[str, bool] = {"active": False, "fired": False}


def _callable_name(function: Any) -> str:
    """``module:qualname``: two engines' functions both called ``run`` are not the same engine."""
    qualname = getattr(function, "__qualname__", None) or type(function).__qualname__
    module = getattr(function, "__module__", None)
    return f"{module}:{qualname}" if module else qualname


def _plain_answer(answer: Any, scenario: dict[str, Any]) -> Answer:
    """An in-process answer as the JSON it stands for, or a fault naming what JSON cannot carry."""
    if not isinstance(answer, dict):
        return EngineFault("schema", f"observation: expected a JSON object, got {type(answer).__name__}", scenario)
    problem = non_json_path(answer)
    if problem:
        return EngineFault("schema", f"{problem} (an answer must be plain JSON data)", scenario)
    return answer


# --------------------------------------------------------------------------------------
# Subprocess engines: process groups, raw pipes, bounded capture
# --------------------------------------------------------------------------------------

_EOF = object()
_TOO_LONG = object()
#: Every subprocess engine with a live process, for the termination handler.
_LIVE: weakref.WeakSet[SubprocessEngine] = weakref.WeakSet()


def _pump(fd: int, on_data: Callable[[bytes], bool], on_end: Callable[[], None], stop: threading.Event) -> None:
    """Read ``fd`` until EOF, ``stop``, or ``on_data`` returning False; close it; never block for long."""
    try:
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], POLL)
            if not ready:
                continue
            data = os.read(fd, 1 << 16)
            if not data or not on_data(data):
                break
    except (OSError, ValueError):
        pass
    finally:
        _close_fd(fd)
        on_end()


def _close_fd(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


#: Every digit as ``0``, to find a run of 19 (a number orjson would read as a float past 64 bits, where the
#: standard library keeps an integer) with ``bytes.find``: 4 us a line, where a regular expression took 100.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19


def encode_lines(scenarios: list[dict[str, Any]]) -> bytes:
    """The scenarios as JSON lines, each the same JSON as ``json.dumps(scenario, separators=(",", ":"))``.

    orjson writes it four times faster, byte for byte the same for ASCII text and integers (a
    float may be spelt otherwise, ``1e16`` for ``1e+16``, the same number); what orjson cannot
    write (an integer past 64 bits) or would write as raw UTF-8 goes through the standard library.
    """
    lines = []
    for scenario in scenarios:
        try:
            line = orjson.dumps(scenario)
        except TypeError:
            line = b""
        if not line or not line.isascii():
            line = json.dumps(scenario, separators=(",", ":")).encode()
        lines.append(line + b"\n")
    return b"".join(lines)


def decode_line(line: str) -> Any:
    """One JSON line, as ``json.loads`` reads it (its errors included).

    orjson reads it three times faster, and reads every line the standard library reads the same
    way, except numbers past 64 bits (which it turns into floats), ``NaN`` and ``Infinity``, and lone
    surrogates (which it refuses): a line with a 19-digit run or one orjson refuses is read by
    the standard library.
    """
    if line.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO).find(_LONG_NUMBER) < 0:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return json.loads(line)


#: The thread switch interval while a batch sent ahead is being answered (Python's default is 5 ms).
THREAD_SWITCH_SECONDS = 0.001


class _LineSplitter:
    """Bytes to decoded lines on a queue; a line past ``MAX_LINE_BYTES`` ends the stream."""

    def __init__(self, lines: queue.Queue[Any]) -> None:
        self.lines = lines
        self.buffer = bytearray()
        self.scanned = 0

    def feed(self, data: bytes) -> bool:
        self.buffer += data
        while True:
            at = self.buffer.find(b"\n", self.scanned)
            if at < 0:
                self.scanned = len(self.buffer)
                if self.scanned > MAX_LINE_BYTES:
                    self.lines.put(_TOO_LONG)
                    return False
                return True
            line = bytes(self.buffer[: at + 1])
            del self.buffer[: at + 1]
            self.scanned = 0
            if line.strip():  # a blank line is no answer (nor garbage): skipped
                self.lines.put(line.decode("utf-8", "replace"))

    def end(self) -> None:
        if self.buffer.strip():
            self.lines.put(bytes(self.buffer).decode("utf-8", "replace"))
            self.buffer.clear()
        self.lines.put(_EOF)


def _write_all(fd: int, outbox: queue.Queue[bytes | None], stop: threading.Event) -> None:
    """Write what arrives in ``outbox`` to ``fd`` (non-blocking, polled); close it on None or ``stop``."""
    try:
        os.set_blocking(fd, False)
        while not stop.is_set():
            try:
                data = outbox.get(timeout=POLL)
            except queue.Empty:
                continue
            if data is None:
                return
            view = memoryview(data)
            while view and not stop.is_set():
                _, ready, _ = select.select([], [fd], [], POLL)
                if not ready:
                    continue
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:
                    continue
    except OSError as error:  # EPIPE: the engine closed its stdin
        if error.errno not in (errno.EPIPE, errno.EBADF):
            raise
    finally:
        _close_fd(fd)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the engine's process group (itself and whatever it started), then reap it."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process SIGKILL cannot end
        pass


class SubprocessEngine(Engine):
    """A program speaking JSON lines on stdin/stdout, run once and fed in batches."""

    def __init__(
        self,
        command: str | list[str],
        timeout: float = DEFAULT_TIMEOUT,
        batch_size: int = 32,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        engine_budget: float = DEFAULT_ENGINE_BUDGET,
        startup_grace: float | None = STARTUP_GRACE,
        worker: bool = False,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("--engine: empty command")
        self.name = command if isinstance(command, str) else shlex.join(command)
        self.timeout = check_timeout(timeout)
        self.engine_budget = check_timeout(engine_budget, "--engine-budget")
        self.startup_grace = self.timeout if startup_grace is None else startup_grace
        self.batch_size = max(1, batch_size)
        self.env = env
        self.cwd = cwd
        #: Lines of ``referee.engines.worker`` may carry a fault instead of an observation.
        self.worker = worker
        self.restarts = 0
        self.spent = 0.0  # seconds waited on the engine, in all
        #: Set at the first dead start: the fault every later scenario gets without a restart.
        self.dead: EngineFault | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._fresh = True
        #: The batch :meth:`submit` sent ahead, which the next ``run_batch`` of the same list collects.
        self._submitted: list[dict[str, Any]] | None = None
        #: The interpreter's thread switch interval before :meth:`submit` shortened it, until the batch is collected.
        self._switch: float | None = None

    # -- process management ---------------------------------------------------------------

    def _start(self) -> None:
        env = None if self.env is None else {**os.environ, **self.env}
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=stdin_r, stdout=stdout_w, stderr=stderr_w, env=env, cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as error:
            for fd in (stdin_w, stdout_r, stderr_r):
                _close_fd(fd)
            raise EngineStartError(f"--engine {self.name!r}: cannot start: {error}") from None
        finally:
            for fd in (stdin_r, stdout_w, stderr_w):
                _close_fd(fd)
        _LIVE.add(self)
        self._lines: queue.Queue[Any] = queue.Queue()
        self._ready = False  # a worker's ready line not seen yet
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stop_threads = threading.Event()
        self._stderr = StreamCapture()
        splitter = _LineSplitter(self._lines)
        stderr_done = threading.Event()
        self._stderr_done = stderr_done

        def keep_stderr(data: bytes) -> bool:
            self._stderr.feed(data)
            return True

        self._threads = [
            threading.Thread(target=_pump, args=(stdout_r, splitter.feed, splitter.end, self._stop_threads), daemon=True),
            threading.Thread(target=_pump, args=(stderr_r, keep_stderr, stderr_done.set, self._stop_threads), daemon=True),
            threading.Thread(target=_write_all, args=(stdin_w, self._outbox, self._stop_threads), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self._fresh = True

    def _stop(self, graceful: bool = True) -> None:
        """End the engine: close its stdin and give it a second (when ``graceful``), then kill its group."""
        process = self._process
        self._process = None
        if process is None:
            return
        if graceful:
            self._outbox.put(None)  # the writer closes stdin once what is pending is written
            try:
                process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        _kill_group(process)
        self._stop_threads.set()
        for thread in self._threads:
            thread.join(timeout=2 * POLL + 0.5)
        _LIVE.discard(self)

    def kill(self) -> None:
        """Kill the engine's process group at once (the termination handler's way out)."""
        process = self._process
        if process is not None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                pass

    def _restart_after_fault(self) -> None:
        self._stop(graceful=False)
        self.restarts += 1

    def _stderr_text(self) -> str:
        self._stderr_done.wait(timeout=0.2)  # what the engine wrote just before it ended
        return self._stderr.text()

    def start(self) -> None:
        if self._process is None:
            self._start()

    def close(self) -> None:
        self._stop()

    def fresh_answers(self, scenarios: list[dict[str, Any]]) -> list[Answer] | None:
        """A new process of the same program, sent ``scenarios`` alone: its answers up to its first fault (it is
        not restarted), ``[]`` if it cannot start. Its waiting counts against this engine's ``--engine-budget``."""
        left = self.engine_budget - self.spent
        if left <= 0 or not scenarios:
            return []
        copy = SubprocessEngine(self.argv, timeout=self.timeout, batch_size=len(scenarios), env=self.env,
                                cwd=self.cwd, engine_budget=left, startup_grace=self.startup_grace, worker=self.worker)
        try:
            copy._send(scenarios)
            return copy._run_until_fault(scenarios)
        except EngineStartError:
            return []
        finally:
            copy._stop(graceful=False)
            self.spent += copy.spent

    # -- running --------------------------------------------------------------------------

    def submit(self, scenarios: list[dict[str, Any]]) -> None:
        """Send the batch now, so that the engine answers while the harness runs the model on it.

        Until the batch is collected, Python hands the interpreter between threads every millisecond
        rather than every five: the threads that write the scenarios and read the answers would
        otherwise wait up to 5 ms behind the model's work each time (measured: ~95 us a scenario waited
        on the engine at batch 32, ~8 us with 1 ms).
        """
        if self._submitted is not None:  # never collected (an interrupted batch): its answers must not be read as these
            self._stop(graceful=False)
        self._submitted = None
        if self.dead is None and self.spent < self.engine_budget and scenarios:
            self._send(scenarios)
            self._submitted = scenarios
            if self._switch is None:
                self._switch = sys.getswitchinterval()
                sys.setswitchinterval(min(self._switch, THREAD_SWITCH_SECONDS))

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        try:
            return self._collect(scenarios)
        finally:
            if self._switch is not None:
                sys.setswitchinterval(self._switch)
                self._switch = None

    def _collect(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        answers: list[Answer] = []
        sent, self._submitted = self._submitted is scenarios, None
        while len(answers) < len(scenarios):
            rest = scenarios[len(answers):]
            if self.dead is not None:
                answers.extend(self._not_run(s, self.dead) for s in rest)
            elif self.spent >= self.engine_budget:
                answers.extend(self._over_budget(s) for s in rest)
            else:
                if not sent:  # after a fault the rest goes to the restarted engine
                    self._send(rest)
                sent = False
                answers.extend(self._run_until_fault(rest))
        return answers

    def _send(self, scenarios: list[dict[str, Any]]) -> None:
        """Write the scenarios to the engine's stdin, one JSON line each, (re)starting an engine that is not running."""
        if self._process is None or self._process.poll() is not None:
            if self._process is not None:
                self._restart_after_fault()
            self._start()
        self._outbox.put(encode_lines(scenarios))

    def _not_run(self, scenario: dict[str, Any], dead: EngineFault) -> EngineFault:
        message = f"not run: the engine is not restarted after a dead start (the first fault: {dead.message})"
        return EngineFault(dead.kind, message, scenario, dead.detail)

    def _over_budget(self, scenario: dict[str, Any]) -> EngineFault:
        message = (f"not run: the run's engine time is spent ({self.spent:.1f} s waited of "
                   f"--engine-budget {self.engine_budget:g} s)")
        return EngineFault("hang", message, scenario)

    def _run_until_fault(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        """Answers for a prefix of ``scenarios`` (sent already), ending at the first fault (the engine is then restarted)."""
        answers: list[Answer] = []
        for scenario in scenarios:
            fresh = self._fresh
            line, waited = self._next_line(fresh)
            if line is None or line is _EOF:
                fault = self._no_answer_fault(scenario, line, fresh, waited)
                self._restart_after_fault()
                if fresh and self.spent < self.engine_budget:  # cut short by the budget: not a dead start
                    self.dead = fault
                answers.append(fault)
                return answers
            self._fresh = False
            if line is _TOO_LONG:
                self._restart_after_fault()
                message = f"a stdout line longer than {MAX_LINE_BYTES:,} bytes (not read further)"
                answers.append(EngineFault("garbage", message, scenario, self._stderr.text()))
                return answers
            try:
                answer = decode_line(line)
            except (ValueError, RecursionError):
                tail = self._stderr.text()
                self._restart_after_fault()
                shown = line.rstrip("\n")
                shown = shown if len(shown) <= 200 else shown[:200] + "..."
                answers.append(EngineFault("garbage", f"not a JSON line: {shown!r}", scenario, tail))
                return answers
            if self.worker and isinstance(answer, dict) and isinstance(answer.get(WORKER_FAULT), dict):
                fault = answer[WORKER_FAULT]
                answers.append(EngineFault(str(fault.get("kind", "crash")), str(fault.get("message", "")), scenario,
                                           str(fault.get("detail", ""))))
                continue
            if not isinstance(answer, dict):
                answers.append(EngineFault("schema", f"observation: expected a JSON object, got {type(answer).__name__}", scenario))
                continue
            answers.append(answer)
        return answers

    def _wait_for(self, fresh: bool, worker_starting: bool = False) -> float:
        wait = self.timeout + (self.startup_grace if fresh else 0.0) + (WORKER_START if worker_starting else 0.0)
        return max(0.0, min(wait, self.engine_budget - self.spent))

    def _next_line(self, fresh: bool) -> tuple[Any, float]:
        """The next stdout line, ``_EOF`` (the engine ended), or None (no answer in time); and the seconds waited.
        A worker's ready line (its own start is over) is not an answer: the engine's own wait starts there."""
        started = time.monotonic()
        deadline = started + self._wait_for(fresh, fresh and self.worker and not self._ready)
        line: Any = None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                line = self._lines.get(timeout=min(remaining, POLL))
                if self.worker and line == WORKER_READY_LINE:
                    self._ready, line = True, None
                    deadline = min(deadline, time.monotonic() + self._wait_for(fresh))
                    continue
                break
            except queue.Empty:
                pass
            if self._process is not None and self._process.poll() is not None:
                line = self._line_after_exit()
                break
        waited = time.monotonic() - started
        self.spent += waited
        return line, waited

    def _line_after_exit(self) -> Any:
        """The engine exited: the next line it wrote before it died (an answer, however late the reader hands it
        over, so that a fault is the scenario the engine was answering: the one after its last answer), else
        ``_EOF``. A process it started may hold stdout open: EOF is awaited at most :data:`EXIT_DRAIN` seconds."""
        try:
            return self._lines.get(timeout=EXIT_DRAIN)
        except queue.Empty:
            return _EOF

    def _how_it_ended(self) -> str:
        """The end of the engine's output in words: its exit status, or a closed stdout while it goes on running
        (then it is stopped: an engine that cannot answer is not left behind)."""
        if self._process is None:
            return "the engine closed its output"
        try:
            return f"the engine exited (status {self._process.wait(timeout=1)})"
        except subprocess.TimeoutExpired:
            self._process.kill()
            return "the engine closed its standard output but kept running (it was stopped)"

    def _no_answer_fault(self, scenario: dict[str, Any], line: Any, fresh: bool, waited: float) -> EngineFault:
        startup = " (a freshly started engine's first answer)" if fresh else ""
        if line is _EOF:
            message, kind = f"{self._how_it_ended()} before answering{startup}", "crash"
        else:
            parts = f"--timeout {self.timeout:g} s" + (f" + {self.startup_grace:g} s startup grace" if fresh else "")
            message = f"no answer within {waited:.1f} s ({parts}){startup}"
            if self.spent >= self.engine_budget:
                message += f"; the run's --engine-budget of {self.engine_budget:g} s is spent"
            kind = "hang"
        if fresh and self.spent < self.engine_budget:
            message += "; a dead start: the engine is not restarted for the rest of the run"
        return EngineFault(kind, message, scenario, self._stderr_text(), died=line is _EOF)


# --------------------------------------------------------------------------------------
# Ending the run cleanly
# --------------------------------------------------------------------------------------


def kill_all() -> None:
    """Kill the process group of every live subprocess engine."""
    for engine in list(_LIVE):
        engine.kill()


atexit.register(kill_all)


# --------------------------------------------------------------------------------------
# Decoding answers, and making engines from the command line
# --------------------------------------------------------------------------------------


def check_answer(answer: Answer, scenario: dict[str, Any], *, fields_needed: tuple[str, ...] | None, events_needed: bool,
                 event_fields: tuple[str, ...] | None = None):
    """Decode an engine's answer, or turn a protocol violation into a fault naming the field."""
    if isinstance(answer, EngineFault):
        return answer
    if isinstance(answer, dict) and "unsupported" in answer:
        return refused_kind(answer, scenario)
    try:
        observation = decode_observation(
            answer, fields_needed=fields_needed, events_needed=events_needed,
            rulebook=rulebook_of(scenario), event_fields=event_fields,
        )
    except ProtocolError as error:
        return EngineFault(error.kind, str(error), scenario, json.dumps(answer)[:2000])
    sid = scenario.get("id")
    if sid is not None and observation.id != sid:
        if observation.id is None:
            return EngineFault("missing", "observation.id: missing (the scenario's id must be echoed)", scenario)
        return EngineFault("schema", f"observation.id: expected {sid!r}, got {observation.id!r}", scenario)
    return observation


def refusal_problem(answer: dict[str, Any], scenario: dict[str, Any]) -> str | None:
    """What is wrong with an ``unsupported`` answer (None: a well-formed refusal of one of the scenario's action
    kinds, echoing its id, docs/protocol.md "Refusing an action kind")."""
    refusal = answer.get("unsupported")
    if answer.get("protocol") != PROTOCOL:
        return f"observation.protocol: expected {PROTOCOL!r}, got {answer.get('protocol')!r:.60}"
    if not isinstance(refusal, dict) or not isinstance(refusal.get("kind"), str) \
            or not isinstance(refusal.get("reason", ""), str) or set(refusal) - {"kind", "reason"}:
        return 'observation.unsupported: expected {"kind": <an action kind>, "reason": <text>}'
    if scenario.get("id") is not None and answer.get("id") != scenario["id"]:
        return f"observation.id: expected {scenario['id']!r}, got {answer.get('id')!r:.60}"
    kinds = action_kinds(scenario)
    if refusal["kind"] not in kinds:
        return (f"observation.unsupported.kind: refuses {refusal['kind']!r:.60}, which no action of the scenario is "
                f"(its kinds: {', '.join(kinds)})")
    return None


def action_kinds(scenario: dict[str, Any]) -> list[str]:
    """The kinds of a scenario's actions, in order, each once (what a refusal may name)."""
    actions = scenario.get("actions")
    kinds = [a.get("kind") for a in actions if isinstance(a, dict)] if isinstance(actions, list) else []
    return list(dict.fromkeys(k for k in kinds if isinstance(k, str)))


def refused_kind(answer: dict[str, Any], scenario: dict[str, Any]) -> EngineFault:
    """An engine's refusal of an action kind by name: an ``unsupported`` fault saying what to build next (or to
    leave out of ``kinds``), or a ``schema`` fault when the refusal itself is malformed."""
    problem = refusal_problem(answer, scenario)
    if problem is not None:
        return EngineFault("schema", problem, scenario, json.dumps(answer)[:2000])
    refusal = answer["unsupported"]
    reason = f" ({refusal['reason']})" if refusal.get("reason") else ""
    return EngineFault("unsupported", f"the engine refuses action kind {refusal['kind']!r} by name{reason}: implement "
                       "it, or leave it out of `kinds` in referee.toml", scenario, json.dumps(answer)[:2000])


def python_worker(spec: str, timeout: float = DEFAULT_TIMEOUT, batch_size: int = 32,
                  engine_budget: float = DEFAULT_ENGINE_BUDGET) -> SubprocessEngine:
    """``--python spec`` run in a worker process speaking JSON lines (``referee.engines.worker``)."""
    load_callable(spec)  # a spec that cannot be loaded is a usage error here, not a fault later
    path = os.pathsep.join(p or os.getcwd() for p in sys.path)
    engine = SubprocessEngine([sys.executable, "-m", "referee.engines.worker", spec], timeout=timeout, batch_size=batch_size,
                              env={"PYTHONPATH": path}, engine_budget=engine_budget, worker=True)
    engine.name = spec
    return engine


#: Of each file an engine runs, at most this many bytes are read into its identity's digest.
IDENTITY_BYTES = 64 * 1024 * 1024


def identity_of(engine: Engine, declared: str | None = None) -> str:
    """The engine's identity: ``declared`` (its name in the config), else its spec and a digest of what it runs.

    Two checkouts of one engine share a spec string (``--python myengine:run``) but not their code:
    a ``--python`` engine is its module's file content, an ``--engine`` its command, the executable it
    resolves to and every file the command names (a script), each by content. So a fixed engine's
    passing run never deletes a buggy one's stored failure.
    """
    if declared:
        return f"declared:{declared}"
    digest = hashlib.sha256(engine.name.encode("utf-8", "backslashreplace"))
    for path in _files_run(engine):
        digest.update(b"\0" + _file_digest(path))  # by content only: two machines' checkouts of one engine agree
    return f"{engine.name}#{digest.hexdigest()[:16]}"


def _files_run(engine: Engine) -> list[str]:
    """The files whose content an engine's behaviour comes from (those that exist and are regular)."""
    spec = getattr(engine, "python_spec", None)
    if spec is not None:
        module = sys.modules.get(spec.partition(":")[0])
        candidates = [getattr(module, "__file__", None)]
    else:
        argv = getattr(engine, "argv", None) or []
        candidates = ([shutil.which(argv[0]) or argv[0]] if argv else []) + list(argv[1:])
    return [c for c in candidates if c and os.path.isfile(c)]


def _file_digest(path: str) -> bytes:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            digest.update(handle.read(IDENTITY_BYTES))
    except OSError as error:
        digest.update(str(error).encode())
    return digest.digest()


def make_engine(python: str | None, command: str | None, timeout: float, batch_size: int, *,
                in_process: bool = False, engine_budget: float = DEFAULT_ENGINE_BUDGET,
                paths: tuple[str, ...] | list[str] = ()) -> Engine:
    """The engine the command line names; a ValueError (a usage error) for a bad choice or value.
    A ``--python`` module is looked for in ``paths`` (``--path``), the current directory, then ``sys.path``."""
    if bool(python) == bool(command):
        raise ValueError("give exactly one of --python package.module:function and --engine \"CMD ARGS\"")
    check_timeout(timeout)
    check_timeout(engine_budget, "--engine-budget")
    if python:
        add_import_paths(paths)
        if in_process:
            engine: Engine = PythonEngine(python, timeout=timeout, engine_budget=engine_budget)
        else:
            engine = python_worker(python, timeout=timeout, batch_size=batch_size, engine_budget=engine_budget)
        engine.python_spec = python  # type: ignore[attr-defined]
    elif in_process:
        raise ValueError("--in-process applies to a --python engine only")
    else:
        engine = SubprocessEngine(command, timeout=timeout, batch_size=batch_size, engine_budget=engine_budget)
    engine.identity = identity_of(engine)
    return engine


def python_command(module: str, *args: str) -> str:
    """A command line running ``python -m module`` with this interpreter."""
    return shlex.join([sys.executable, "-m", module, *args])
