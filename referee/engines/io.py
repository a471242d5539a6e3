"""What an engine's answers and faults need that the ``--python`` worker needs too, importing nothing of referee.

``referee.engines.worker`` runs in a process of its own for every ``--python`` run, so its start is part of
the run: importing :mod:`referee.engines.transports` (the protocol, every rulebook, Hypothesis) took about
0.7 s of CPU before the worker answered its first scenario. This module holds what the worker
uses (the fault line's key, the plain-JSON test, bounded texts, loading the function) with the
standard library only; :mod:`referee.engines.transports` re-exports every name.
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Callable
from typing import Any

#: Of an engine's stderr, the first and the last this many bytes are kept (and the total size).
STDERR_HEAD = 4096
STDERR_TAIL = 8192
#: The key of a fault line written by ``referee.engines.worker`` instead of an observation.
WORKER_FAULT = "__referee_worker_fault__"
#: The line a worker writes once its engine is imported: not an answer; the engine's own wait starts there.
WORKER_READY_LINE = '{"__referee_worker_ready__":true}\n'

_SCALARS = frozenset({type(None), bool, int, str})


def _is_plain_json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is plain JSON data: the quick test that runs on every answer (no paths built)."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if depth > 200:
        return False
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or (type(item) not in _SCALARS and not _is_plain_json(item, depth + 1)):
                return False
        return True
    if kind is list or kind is tuple:
        return all(type(item) in _SCALARS or _is_plain_json(item, depth + 1) for item in value)
    return kind is float and math.isfinite(value)


def non_json_path(value: Any, path: str = "observation", depth: int = 0) -> str | None:
    """Where ``value`` holds something JSON cannot carry (a Decimal, a set, NaN), or None."""
    if depth == 0 and _is_plain_json(value):
        return None  # the common case, decided without building a path per item
    if depth > 200:
        return f"{path}: nested deeper than 200 levels"
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path}: {value!r} is not a JSON number"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path}: key {key!r} is a {type(key).__name__}, not a string"
            found = non_json_path(item, f"{path}.{key}", depth + 1)
            if found:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            found = non_json_path(item, f"{path}[{i}]", depth + 1)
            if found:
                return found
        return None
    return f"{path}: a {type(value).__name__} ({value!r:.60}) is not a JSON value"


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


class StreamCapture:
    """The head and the tail of a byte stream, and its total size; never more in memory."""

    def __init__(self, head: int = STDERR_HEAD, tail: int = STDERR_TAIL, what: str = "stderr") -> None:
        self.head_size, self.tail_size, self.what = head, tail, what
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self._lock = threading.Lock()

    def feed(self, data: bytes) -> None:
        with self._lock:
            self.total += len(data)
            room = self.head_size - len(self.head)
            if room > 0:
                self.head += data[:room]
                data = data[room:]
            if data:
                self.tail += data[-self.tail_size:]
                if len(self.tail) > 2 * self.tail_size:
                    del self.tail[: len(self.tail) - self.tail_size]

    def text(self) -> str:
        """Head and tail, with what was left out between them said in bytes."""
        with self._lock:
            head, tail, total = bytes(self.head), bytes(self.tail[-self.tail_size:]), self.total
        left_out = total - len(head) - len(tail)
        if left_out <= 0:
            return (head + tail).decode("utf-8", "replace")
        middle = f"\n[... {left_out:,} bytes of {self.what} left out; {total:,} bytes in all ...]\n"
        return head.decode("utf-8", "replace") + middle + tail.decode("utf-8", "replace")


def _cut(text: str, limit: int = 500) -> str:
    """``text`` cut at ``limit`` characters, any lone surrogate escaped (``\\ud800``: no file or terminal takes it)."""
    text = encodable(text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"


def encodable(text: str) -> str:
    """``text`` with what UTF-8 cannot encode (a lone surrogate an engine's message held) written as an escape."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def bounded_text(text: str) -> str:
    """``text``'s head and tail as :class:`StreamCapture` keeps them (a RecursionError's traceback is long)."""
    capture = StreamCapture(what="traceback")
    capture.feed(text.encode("utf-8", "backslashreplace"))
    return capture.text()
