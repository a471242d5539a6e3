"""The JSON-lines codec of a subprocess engine (orjson, with the standard library behind it) reads and
writes exactly what ``json`` does: the same values, of the same types, and the same errors."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engines.transports import decode_line, encode_lines

#: JSON values with what orjson treats differently: integers past 64 bits, non-ASCII and surrogate text, floats.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70), st.sampled_from([2**63, 2**64 - 1, 2**64, -2**63 - 1]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8), st.sampled_from(["\ud800", "é", "\x00", "\u2028"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                      max_leaves=20)


def typed(value: Any) -> Any:
    """A value with every leaf's type spelled out (``1`` and ``1.0`` and ``True`` must not compare equal here)."""
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, repr(value) if isinstance(value, float) and math.isnan(value) else value)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_an_answer_line_is_read_as_the_standard_library_reads_it(value: Any) -> None:
    for line in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps(value, separators=(",", ":"))):
        assert typed(decode_line(line)) == typed(json.loads(line)), line


@pytest.mark.parametrize("line", ['{"a":NaN}', "Infinity", '{"a":1e999}', '{"a":-9223372036854775809}', "[1,]", "tru", "",
                                  '{"a":1} x', "\ufeff{}", '"\\ud800"', "[" * 5000 + "]" * 5000])
def test_a_line_json_refuses_is_refused_and_one_it_reads_is_read_alike(line: str) -> None:
    try:
        expected: Any = typed(json.loads(line))
    except (ValueError, RecursionError) as error:
        expected = type(error)
    try:
        got: Any = typed(decode_line(line))
    except (ValueError, RecursionError) as error:
        got = type(error)
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), VALUES, max_size=5), min_size=1, max_size=3))
def test_a_scenario_line_carries_the_same_json_as_the_standard_library_writes(scenarios: list[dict[str, Any]]) -> None:
    lines = encode_lines(scenarios).split(b"\n")
    assert lines[-1] == b"" and len(lines) == len(scenarios) + 1
    for line, scenario in zip(lines, scenarios):
        assert line.isascii()  # as json.dumps writes it: every non-ASCII character escaped
        assert typed(json.loads(line)) == typed(json.loads(json.dumps(scenario, separators=(",", ":"))))
