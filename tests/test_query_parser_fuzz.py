"""The condition parser and type checker against random and hostile input: clean errors, never a crash.

Python code, ``__class__`` chains, lambdas, deep nesting, huge literals, unicode, and random
splices of the grammar's own tokens go through :func:`referee.query.parse_condition`; every
outcome must be a checked Bool condition or a :class:`~referee.query.QueryError`. The seed is
fixed; the default run throws 20,000 inputs, ``--runslow`` 100,000.
"""

from __future__ import annotations

import random
import sys
import time

import pytest

from referee.query import QueryError, parse_condition
from referee.query.parser import Typed

TOKENS = [
    "target", "source", "receiver", "interceptor", "target_after", "source_after", "before", "after", "actions",
    "first", "second", "amount", "outcome", "event", "count", "min", "max", "abs", ".", ",", "(", ")", "[", "]",
    "and", "or", "not", "if", "else", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "**", "%", "//",
    "0", "1", "-1", "25", "10**12", "999999999999999999999", "True", "False", "None", "'x'", '"thorns"',
    "'death'", "shield", "vitality", "died", "alive", "vitality_lost", "unit=", "other=", "action=", "lambda",
    ":", "__class__", "__import__", "os", "x", "é", "ﬁ", "\u202e", "\x00", "\n", "\\", "'", '"', "{", "}", "@",
    "yield", "await", ":=", "...", "0x10", "1e9", "1j", "b'x'", "f'{1}'",
]
HOSTILE = [
    "__import__('os').system('true')", "().__class__.__bases__[0].__subclasses__()", "(lambda: 1)()",
    "target.__class__", "target.__dict__", "[x for x in ()]", "{1: 2}", "'ab' * 1000000000 == 'b'",
    "not " * 1200 + "True", "-" * 3000 + "1", "(" * 500 + "1" + ")" * 500, "1" + " + 1" * 50_000 + " > 0",
    " and ".join(["target.shield > 0"] * 4000), "9" * 5000 + " > 1", "amount ** amount > 1",
    "event", "not amount", "amount and 1", "source - 1", "25 < outcome", "target.shield > 'x'", "1", "'death'",
    "outcome", "event('thorns', unit=1)", "event(1)", "count()", "min(1)", "abs(1, 2)", "after[99].target.alive",
    "actions[amount].amount > 0", "target.shield > 0 if True else 1", "x := 1", "\ufeffTrue", "Ｔrue", "ϑ > 1",
]


SMALL_HOSTILE = [text for text in HOSTILE if len(text) <= 5000]
HUGE_HOSTILE = [text for text in HOSTILE if len(text) > 5000]


OPERANDS = ["target", "source_after", "outcome", "amount", "first", "after", "after[0]", "before", "actions[0]",
            "target.shield", "target.alive", "outcome.died", "outcome.vitality_lost", "first.outcome", "after.target",
            "1", "0", "-5", "True", "'x'", 'event("thorns")', 'count("death")', "event", "min(1, amount)", "abs(amount)"]


def random_expression(rng: random.Random, depth: int = 0) -> str:
    """A grammatical expression with no regard for types: the type checker's input (``not amount``...)."""
    if depth > 3 or rng.random() < 0.35:
        return rng.choice(OPERANDS)
    shape = rng.randrange(5)
    a, b = random_expression(rng, depth + 1), random_expression(rng, depth + 1)
    if shape == 0:
        return f"not {a}"
    if shape == 1:
        return f"({a} {rng.choice(['and', 'or'])} {b})"
    if shape == 2:
        return f"({a} {rng.choice(['+', '-', '*'])} {b})"
    if shape == 3:
        return f"{a} {rng.choice(['<', '==', '!=', '>='])} {b}"
    return f"-{a}"


def random_condition(rng: random.Random) -> str:
    """A random splice of grammar tokens, a hostile input, or a mutation of one (a huge one rarely: they cost ms)."""
    roll = rng.random()
    if roll < 0.0005:
        return rng.choice(HUGE_HOSTILE)
    if roll < 0.1:
        return rng.choice(SMALL_HOSTILE)
    if roll < 0.2:
        text = rng.choice(HOSTILE)[:200]
        position = rng.randrange(len(text) + 1)
        return text[:position] + rng.choice(TOKENS) + text[position:]
    if roll < 0.3:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 30)))
    if roll < 0.6:
        return random_expression(rng)
    return " ".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 25)))


def fuzz(count: int, seed: int = 12) -> tuple[int, int, float]:
    """``(accepted, rejected, inputs per second)``; any other exception fails the test with its input."""
    rng = random.Random(seed)
    accepted = rejected = 0
    started = time.perf_counter()
    for _ in range(count):
        text = random_condition(rng)
        try:
            typed = parse_condition(text)
        except QueryError:
            rejected += 1
            continue
        except Exception as error:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{type(error).__name__}: {error} on input {text[:200]!r}")
        assert isinstance(typed, Typed) and typed.type == "Bool", text
        accepted += 1
    return accepted, rejected, count / (time.perf_counter() - started)


def test_query_parser_rejects_20000_random_and_hostile_conditions_cleanly() -> None:
    accepted, rejected, rate = fuzz(20_000)
    print(f"query parser fuzz: 20,000 inputs, {accepted} accepted, {rejected} clean errors, 0 crashes, {rate:,.0f} inputs/s")
    assert accepted + rejected == 20_000 and rejected > accepted > 0


@pytest.mark.slow
def test_query_parser_rejects_100000_random_and_hostile_conditions_cleanly() -> None:
    accepted, rejected, rate = fuzz(100_000, seed=1212)
    print(f"query parser fuzz: 100,000 inputs, {accepted} accepted, {rejected} clean errors, 0 crashes, {rate:,.0f} inputs/s")
    assert accepted + rejected == 100_000


@pytest.mark.parametrize("text", HOSTILE)
def test_invalid_hostile_condition_is_a_clean_error_or_a_boolean(text: str) -> None:
    try:
        typed = parse_condition(text)
    except QueryError as error:
        assert str(error)
    else:
        assert typed.type == "Bool"


def calls_to_parse(text: str) -> int:
    """How many Python and C function calls parsing ``text`` makes: a machine-independent measure of work."""
    calls = 0

    def count(frame, event, arg):  # noqa: ANN001 - the sys.setprofile signature
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        parse_condition(text)
    finally:
        sys.setprofile(None)
    return calls


def test_a_long_and_chain_parses_in_linear_work() -> None:
    """8x the conjuncts costs about 8x the calls (quadratic would be ~64x); counted, not timed."""
    short = calls_to_parse(" and ".join(["target.shield > 0"] * 500))
    long = calls_to_parse(" and ".join(["target.shield > 0"] * 4000))  # ~76 KB
    assert short > 500, "the profiler saw the parse"
    assert long < 8.5 * short, f"{long} calls for 8x the input of {short}: superlinear"
