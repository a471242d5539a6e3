"""Engines under test: a Python callable, or any program speaking JSON lines.

Both adapters take a batch of scenarios (JSON objects) and return, per scenario, either
the engine's raw answer (a JSON object) or an :class:`EngineFault`. A fault is never an
exception escaping the harness: it names what went wrong (``crash``, ``hang``,
``garbage``, ``schema``, ``missing``), carries the scenario, and the adapter restarts the
engine so that the rest of the batch still runs.

JSON lines: the engine reads one scenario per line on stdin and writes one observation
per line on stdout, in the same order, flushing after each. The harness writes a whole
batch before it reads, on a writer thread, while a reader thread drains stdout, so a
large batch cannot deadlock on full pipes. stderr goes to a temporary file; its tail is
attached to every fault.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .protocol import ProtocolError, decode_observation, rulebook_of

FAULT_KINDS = ("crash", "hang", "garbage", "schema", "missing")
DEFAULT_TIMEOUT = 5.0
#: The first answer after (re)starting a subprocess may also wait for the engine's startup.
STARTUP_GRACE = 20.0


@dataclass
class EngineFault:
    """The engine failed to answer one scenario properly."""

    kind: str  # one of FAULT_KINDS
    message: str
    scenario: dict[str, Any] | None = None
    detail: str = ""  # stderr tail, traceback, the offending line

    def describe(self) -> str:
        text = f"engine fault ({self.kind}): {self.message}"
        if self.detail:
            text += "\n" + "\n".join("    " + line for line in self.detail.rstrip().splitlines()[-12:])
        return text

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "scenario": self.scenario, "detail": self.detail}


Answer = dict[str, Any] | EngineFault


class Engine:
    """The interface: ``run_batch(scenarios) -> answers``, and ``close()``."""

    name = "engine"
    batch_size = 1

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:  # pragma: no cover - interface
        raise NotImplementedError

    def start(self) -> None:
        """Get ready to answer (start a process); raises :class:`EngineStartError` if impossible."""

    def close(self) -> None:
        pass

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (the engine may mutate what it is given)."""
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


class _Timeout(BaseException):
    """Raised by the alarm inside a hung in-process engine (a BaseException: the engine's
    own ``except Exception`` cannot swallow it)."""


def load_callable(spec: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``package.module:function`` to the function, with a clear error."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"--python {spec!r}: expected package.module:function")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"--python {spec!r}: cannot import {module_name!r}: {error}") from None
    try:
        function = getattr(module, attribute)
    except AttributeError:
        raise ValueError(f"--python {spec!r}: module {module_name!r} has no attribute {attribute!r}") from None
    if not callable(function):
        raise ValueError(f"--python {spec!r}: {attribute!r} is not callable")
    return function


class PythonEngine(Engine):
    """An in-process engine: a callable from a scenario dict to an observation dict.

    A raised exception is a ``crash`` fault; a call running past ``timeout`` seconds is
    interrupted (by ``SIGALRM``, on the main thread) and is a ``hang`` fault.
    """

    def __init__(self, function: Callable[[dict[str, Any]], Any] | str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.function = load_callable(function) if isinstance(function, str) else function
        self.name = function if isinstance(function, str) else getattr(function, "__qualname__", "python engine")
        self.timeout = timeout
        self._alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    def run_one(self, scenario: dict[str, Any]) -> Answer:
        previous = None
        if self._alarm:
            def on_alarm(signum: int, frame: Any) -> None:
                raise _Timeout()

            previous = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            answer = self.function(_copy(scenario))
        except _Timeout:
            return EngineFault("hang", f"no answer within {self.timeout:g} s", scenario)
        except (Exception, SystemExit) as error:  # an engine calling sys.exit() crashed too
            tb = traceback.format_exc()
            return EngineFault("crash", f"the engine raised {type(error).__name__}: {error}", scenario, tb)
        finally:
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        if not isinstance(answer, dict):
            return EngineFault("schema", f"observation: expected a JSON object, got {type(answer).__name__}", scenario)
        return answer

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        return [self.run_one(s) for s in scenarios]


_EOF = object()


class SubprocessEngine(Engine):
    """A program speaking JSON lines on stdin/stdout, run once and fed in batches."""

    def __init__(
        self,
        command: str | list[str],
        timeout: float = DEFAULT_TIMEOUT,
        batch_size: int = 32,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("--engine: empty command")
        self.name = command if isinstance(command, str) else shlex.join(command)
        self.timeout = timeout
        self.batch_size = max(1, batch_size)
        self.env = env
        self.cwd = cwd
        self.restarts = 0
        self._process: subprocess.Popen[str] | None = None
        self._fresh = True

    # -- process management ---------------------------------------------------------------

    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        env = None if self.env is None else {**os.environ, **self.env}
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env=env,
                cwd=self.cwd,
            )
        except OSError as error:
            raise EngineStartError(f"--engine {self.name!r}: cannot start: {error}") from None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._outbox: queue.Queue[str | None] = queue.Queue()
        process, lines, outbox = self._process, self._lines, self._outbox

        def read() -> None:
            assert process.stdout is not None
            try:
                for line in process.stdout:
                    lines.put(line)
            except (OSError, ValueError):  # the harness closed the pipe to restart a faulty engine
                pass
            lines.put(_EOF)

        def write() -> None:
            assert process.stdin is not None
            while True:
                text = outbox.get()
                if text is None:
                    break
                try:
                    process.stdin.write(text)
                    process.stdin.flush()
                except (BrokenPipeError, OSError, ValueError):
                    break

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()
        self._fresh = True

    def _stop(self) -> None:
        process = self._process
        self._process = None
        if process is None:
            return
        self._outbox.put(None)
        try:
            if process.stdin:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout,):
            try:
                stream and stream.close()
            except OSError:
                pass

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
        self._stop()
        self.restarts += 1

    def _stderr_tail(self) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0)
            text = self._stderr.read()
            self._stderr.seek(0, 2)
        except (OSError, ValueError):
            return ""
        return "\n".join(text.rstrip().splitlines()[-20:])

    def start(self) -> None:
        if self._process is None:
            self._start()

    def close(self) -> None:
        self._stop()

    # -- running --------------------------------------------------------------------------

    def run_batch(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        answers: list[Answer] = []
        while len(answers) < len(scenarios):
            answers.extend(self._run_until_fault(scenarios[len(answers):]))
        return answers

    def _run_until_fault(self, scenarios: list[dict[str, Any]]) -> list[Answer]:
        """Answers for a prefix of ``scenarios``, ending at the first fault (the engine is then restarted)."""
        if self._process is None or self._process.poll() is not None:
            if self._process is not None:
                self._kill()
            self._start()
        self._outbox.put("".join(json.dumps(s, separators=(",", ":")) + "\n" for s in scenarios))
        answers: list[Answer] = []
        for scenario in scenarios:
            wait = self.timeout + (STARTUP_GRACE if self._fresh else 0.0)
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                self._kill()
                answers.append(EngineFault("hang", f"no answer within {self.timeout:g} s", scenario, self._stderr_tail()))
                return answers
            self._fresh = False
            if line is _EOF:
                code = self._process.wait() if self._process else None
                tail = self._stderr_tail()
                self._kill()
                message = f"the engine exited (status {code}) before answering"
                answers.append(EngineFault("crash", message, scenario, tail))
                return answers
            try:
                answer = json.loads(line)
            except ValueError:
                self._kill()
                shown = line.rstrip("\n")
                shown = shown if len(shown) <= 200 else shown[:200] + "..."
                answers.append(EngineFault("garbage", f"not a JSON line: {shown!r}", scenario, self._stderr_tail()))
                return answers
            if not isinstance(answer, dict):
                answers.append(EngineFault("schema", f"observation: expected a JSON object, got {type(answer).__name__}", scenario))
                continue
            answers.append(answer)
        return answers


class EngineStartError(RuntimeError):
    """The engine program could not be started at all (a usage error, not a fault)."""


def check_answer(answer: Answer, scenario: dict[str, Any], *, fields_needed: tuple[str, ...] | None, events_needed: bool):
    """Decode an engine's answer, or turn a protocol violation into a fault naming the field."""
    if isinstance(answer, EngineFault):
        return answer
    try:
        observation = decode_observation(
            answer, fields_needed=fields_needed, events_needed=events_needed,
            rulebook=rulebook_of(scenario),
        )
    except ProtocolError as error:
        return EngineFault(error.kind, str(error), scenario, json.dumps(answer)[:2000])
    sid = scenario.get("id")
    if sid is not None and observation.id != sid:
        if observation.id is None:
            return EngineFault("missing", "observation.id: missing (the scenario's id must be echoed)", scenario)
        return EngineFault("schema", f"observation.id: expected {sid!r}, got {observation.id!r}", scenario)
    return observation


def make_engine(python: str | None, command: str | None, timeout: float, batch_size: int) -> Engine:
    if bool(python) == bool(command):
        raise ValueError("give exactly one of --python package.module:function and --engine \"CMD ARGS\"")
    if python:
        return PythonEngine(python, timeout=timeout)
    return SubprocessEngine(command, timeout=timeout, batch_size=batch_size)


def python_command(module: str, *args: str) -> str:
    """A command line running ``python -m module`` with this interpreter."""
    return shlex.join([sys.executable, "-m", module, *args])

